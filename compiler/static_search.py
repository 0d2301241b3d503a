"""When a search's `through` condition gives the same answers in every position: its walk is kept
per compiled game (the specialised back end).

Why: a walk (`reach from p.space by moves exactly n without backtracking through s where
ground_ok(p, s) ...`) tests its `through` condition on every space it meets, at every decision.
When that condition reads only what never changes in a game (the board: the spaces' fixed
attributes, regions, links; the fixed attributes of pieces and sides; constants) apart from the
space tested, the locals it is given (`p`) and a few state reads that stay the same for the whole
search (`p.space`, an option: its *key atoms*), the spaces where the walk ends are the same
whenever the start, the number of steps, those locals and those values are: they are found once
and kept, and only the `onto` condition (`free(s)`) is tested at each decision.

A part that reads what changes (`occupant(s)`) may still be allowed when a test that does not
name the space keeps it from being evaluated at all (`is_advanced() and occupant(s) ...`: with the
option off, it never runs): the *guard* says when the kept answers hold, and it is computed from
the key, once per key.

How it is decided, from the rules' syntax only (`analyse`):
- calls of the game's functions whose arguments are plain names or constants are written out
  (their bodies with the parameters replaced: what an inlined call computes);
- the largest parts that name neither the space tested nor anything bound inside the condition
  and that read the state without being able to fail (a variable, an option, `x.space`,
  `x.holder`, a variable of a piece, side, space or card) are the key atoms;
- with those read as locals, compiler/purity.py says which parts never look at the state; an
  `and`/`or`/`if` whose impure part can only run after a part that names no space is allowed
  when the guard (that part's value) rules it out.

Exactness: on a kept answer the condition is not evaluated, so the locals it would have written
(the space's slot, its inlined arguments, the items of its filters: the slots it owns, all made
while lowering it) are given the values the first run left in them (recorded then; they are
functions of the key too). The guard and the key atoms are made only of forms that cannot fail
and write nothing (names, attributes, `==`/`is`/`in`, `and`/`or`/`not`), so computing them before
the search raises nothing the general search would not. An error inside the condition keeps
nothing (the next search runs it again and fails the same way).
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from lumos.compiler import nodes as N
from lumos.compiler.purity import DYNAMIC_ATTRIBUTES, analyse

_DEPTH = 12                 # how deep calls are written out
_VAR_MARK = -7              # the slot purity sees for the space tested (never a real slot)
_KEY_MARK = -1000           # ... and for key atom i: _KEY_MARK - i
_LITERALS = (N.Num, N.Str, N.Bool, N.NoneLit)
_BINDERS = (N.Where, N.Quantifier, N.Reach, N.Route)
_SAFE_OPS = {"==", "!=", "is", "isnot", "in", "notin"}
_SCALAR = {"number", "flag", "text", "side", "piece", "space", "card", "kind", "none", "die", "zone", "question"}
ALWAYS = object()            # a guard that always holds
_on = [True]


_around_on = [os.environ.get("LUMOS_KEEP_AROUND", "1") != "0"]   # LUMOS_KEEP_AROUND=0: off for a process


def enabled() -> bool:
    return _on[0]


def around_enabled() -> bool:
    return _around_on[0]


@contextlib.contextmanager
def keeping_around(on: bool):
    """Lower games compiled inside the block with (or without) searches kept per what they read
    (AroundKey): tests and bench scripts compare the two in one process."""
    saved, _around_on[0] = _around_on[0], on
    try:
        yield
    finally:
        _around_on[0] = saved


@contextlib.contextmanager
def keeping(on: bool):
    """Lower games compiled inside the block with (or without) kept searches: tests and
    bench scripts compare the two in one process."""
    saved, _on[0] = _on[0], on
    try:
        yield
    finally:
        _on[0] = saved


@dataclass(frozen=True)
class Fixed:
    """What a fixed `through` condition depends on besides the space tested, lowered in the scope
    around the search: the key is the values of `slots` and of `atoms`; the kept answers hold
    when `guard` (None: always) is true for that key."""
    slots: tuple[int, ...]          # the locals it reads
    atoms: tuple                    # the key atoms, lowered (fn(m, L) with a text)
    guard: object                   # lowered, or None


def fixed_through(low, cond, var: str):
    """Fixed(...) when `cond` (a `through` condition on the space named `var`, lowered just
    before in `low`) is fixed, else None. Lowers the key atoms and the guard in the scope
    around the search (they make no slot: checked)."""
    found = analyse_fixed(low, cond, var)
    if found is None:
        return None
    slots, atoms, types, guard = found
    lowered = _lower_all(low, list(atoms) + ([] if guard is ALWAYS else [guard]))
    if lowered is None:
        return None
    fns = [f for f, _t in lowered]
    return Fixed(slots, tuple(fns[:len(atoms)]), None if guard is ALWAYS else fns[-1])


def _lower_all(low, nodes):
    """[(fn, type)] of nodes lowered in low's scope, or None if that offers a message or makes a
    slot (both undone: the forms lowered here make neither when the condition lowered cleanly)."""
    sink = low.sink
    pushed, errors, nslots = sink.pushed, len(sink.items), len(low.local.slot_names)
    out = [low.expr(n) for n in nodes]
    if sink.pushed != pushed or len(low.local.slot_names) != nslots:
        for d in sink.items[errors:]:
            sink._seen.discard((d.code, d.message, d.span))
        del sink.items[errors:]
        sink.pushed = pushed
        del low.local.slot_names[nslots:], low.local.slot_types[nslots:]
        return None
    return out


def analyse_fixed(low, cond, var: str):
    """(slots, atoms, their types, guard) when `cond`, a `through` condition on the space named
    `var`, is fixed; else None. The guard is an expression of the scope around the search, or
    ALWAYS."""
    expanded = _expand(low, cond, _blocked(low, cond, var), 0)
    bound = {var} | _bound_names(expanded)
    atoms: list = []
    marked = _mark_atoms(low, expanded, bound, atoms)
    typed = _lower_all(low, atoms)
    if typed is None:
        return None
    types = tuple(t for _f, t in typed)
    if any(t not in _SCALAR for t in types):
        return None                  # a list or a value of unknown kind cannot be a key
    saved = low.local.names
    names = dict(saved)
    names[var] = (_VAR_MARK, "space")
    for i, t in enumerate(types):
        names[_placeholder(i)] = (_KEY_MARK - i, t)
    slots = set()
    for name in _names(expanded) - bound:
        if name in saved:
            slots.add(saved[name][0])
            if saved[name][1] not in _SCALAR:
                return None          # a list or a value of unknown kind cannot be a key
    if _mentions_me(expanded):
        if "me" not in saved or saved["me"][1] not in _SCALAR:
            return None
        slots.add(saved["me"][0])
    low.local.names = names
    try:
        guard = _guard(low, marked, bound)
    finally:
        low.local.names = saved
    if guard is None:
        return None
    if guard is not ALWAYS:
        guard = _unmark(guard, atoms)
    return tuple(sorted(slots)), tuple(atoms), types, guard


@dataclass(frozen=True)
class FixedOnto:
    """The fixed first parts of a kept walk's `onto` condition (their key in `fixed`, lowered in
    the scope around the search), and those parts and the rest lowered in the condition's scope;
    neither writes a slot (checked), so testing the parts once per key, on the kept ends, leaves
    the locals as testing them at every decision does."""
    fixed: Fixed
    first: object                   # the fixed parts, lowered (fn(m, L) with a text)
    rest: object                    # the rest, lowered, or None: nothing more to test


def split_onto(low, cond, var: str, slot: int):
    """FixedOnto when `cond` (the `onto` condition of a kept walk, on the space named `var`, whose
    slot is `slot`) begins with parts of its `and` (calls written out) that are fixed with no
    guard; else None.

    Why: the ends of a kept walk are the same for its key, so the parts of `onto` that read only
    what the key holds have the same answers on them too: they are tested when the walk is kept,
    and each decision tests only the rest (`free(s)`). Only a first run of parts: `and` tests its
    parts left to right, and a part after one that reads the state runs only where that one
    holds."""
    expanded = _expand(low, cond, _blocked(low, cond, var), 0)
    parts = _conjuncts(expanded)
    n = 0
    while n < len(parts):
        found = analyse_fixed(low, _all_of(parts[:n + 1]) if n else parts[0], var)
        if found is None or found[3] is not ALWAYS:
            break
        n += 1
    if n == 0:
        return None
    first_node = parts[0] if n == 1 else N.BoolOp(parts[0].span, "and", tuple(parts[:n]))
    rest = parts[n:]
    rest_node = None if not rest else rest[0] if len(rest) == 1 else N.BoolOp(rest[0].span, "and", tuple(rest))
    fixed = fixed_through(low, first_node, var)
    if fixed is None or fixed.guard is not None:
        return None
    saved = low.local.names
    low.local.names = {**saved, var: (slot, "space")}
    try:
        lowered = _lower_all(low, [first_node] + ([rest_node] if rest_node is not None else []))
    finally:
        low.local.names = saved
    if lowered is None or any(t != "flag" for _f, t in lowered):
        return None
    return FixedOnto(fixed, lowered[0][0], lowered[1][0] if rest_node is not None else None)


def _conjuncts(node) -> list:
    """The parts of an `and` (nested `and`s flattened), in order."""
    if isinstance(node, N.BoolOp) and node.op == "and":
        return [p for item in node.items for p in _conjuncts(item)]
    return [node]


# -- writing calls out

def _blocked(low, cond, var) -> set:
    """Names a written-out body may not use for a game name: they mean something else here."""
    return set(low.local.names) | {var, "it", "me"} | _bound_names(cond)


def _expand(low, node, blocked, depth, safe_args=False):
    """The node with calls of the game's functions written out (_body_of), `depth` calls deep at
    most. `safe_args`: also calls whose arguments are forms that cannot fail (`rival(p.side)`):
    only to analyse a condition (what it computes is the same), never lowered."""
    if isinstance(node, N.Call) and depth < _DEPTH:
        body = _body_of(low, node, blocked, safe_args)
        if body is not None:
            return _expand(low, body, blocked, depth + 1, safe_args)
    return _map(node, lambda child: _expand(low, child, blocked, depth, safe_args))


def _body_of(low, call, blocked, safe_args=False):
    """The body of a game function with its parameters replaced by the call's arguments, or None.
    `safe_args`: an argument may also be any form that cannot fail (`p.side`; for analyses only)."""
    if call.func in low.builtins:
        return None
    sym = low.symbols.get(call.func)
    if sym is None or sym.what != "function":
        return None
    decl = sym.value
    if len(decl.params) != len(call.args):
        return None
    if not all(isinstance(a, (N.Name,) + _LITERALS) or (safe_args and _safe_form(a)) for a in call.args):
        return None      # an argument computed once would be computed at every use
    body = decl.body
    if _contains(body, _BINDERS) or _mentions_me(body) or (_names(body) - set(decl.params)) & blocked:
        return None
    values = dict(zip(decl.params, call.args))
    return _replace(body, lambda n: values.get(n.name) if isinstance(n, N.Name) else None)


# -- key atoms

def _mark_atoms(low, node, bound, atoms: list, is_atom=None):
    """node with every key atom (`is_atom(low, node)`, _is_atom by default) replaced by a
    placeholder name (atoms collects them, once each)."""
    is_atom = is_atom or _is_atom
    if not _mentions_any(node, bound) and is_atom(low, node):
        if node not in atoms:
            atoms.append(node)
        return N.Name(node.span, _placeholder(atoms.index(node)))
    return _map(node, lambda child: _mark_atoms(low, child, bound, atoms, is_atom))


def _is_atom(low, node) -> bool:
    """A read of the state that cannot fail: a variable or option, or a changing attribute of a
    value computed without the state."""
    if isinstance(node, N.Name):
        sym = low.symbols.get(node.name)
        return node.name not in low.local.names and sym is not None and sym.what in ("var", "option")
    if isinstance(node, N.My):
        node = N.Attr(node.span, N.Name(node.span, "me"), node.name)
    if isinstance(node, N.Attr):
        if not _safe_form(node.obj) or not analyse(low, node.obj)[0]:
            return False
        if node.name in DYNAMIC_ATTRIBUTES:
            return True
        return any(node.name in low.settable.get(kind, {}) for kind in ("side", "piece", "space", "card"))
    return False


def _placeholder(i: int) -> str:
    return f"\x00key{i}"       # no name a designer can write


def _unmark(node, atoms):
    return _replace(node, lambda n: atoms[int(n.name[4:])] if isinstance(n, N.Name) and n.name.startswith("\x00key")
                    else None)


# -- the guard

def _guard(low, node, bound):
    """ALWAYS when evaluating node never reads what changes; an expression (naming no space) under
    which it never does; None when that cannot be said."""
    if analyse(low, node)[0]:
        return ALWAYS
    if isinstance(node, N.Not):
        return _guard(low, node.operand, bound)
    if isinstance(node, N.BoolOp):
        parts, escapes = [], []
        for item in node.items:
            g = _guard(low, item, bound)
            if g is not ALWAYS:
                # an item runs only while the earlier ones are all true (`and`) or all false (`or`)
                options = ([] if g is None else [g]) + escapes
                if not options:
                    return None
                parts.append(_any_of(options))
            if _guardable(low, item, bound):
                escapes.append(N.Not(item.span, item) if node.op == "and" else item)
        return _all_of(parts)
    if isinstance(node, N.IfExpr):
        gc = _guard(low, node.cond, bound)
        gt, go = _guard(low, node.then, bound), _guard(low, node.other, bound)
        if gc is None:
            return None
        if _guardable(low, node.cond, bound):
            c = node.cond
            parts = []
            if gt is not ALWAYS:
                parts.append(N.Not(c.span, c) if gt is None else _any_of([N.Not(c.span, c), gt]))
            if go is not ALWAYS:
                parts.append(c if go is None else _any_of([c, go]))
            return _all_of(parts)
        if gt is None or go is None:
            return None
        return _all_of([g for g in (gc, gt, go) if g is not ALWAYS])
    return None


def _guardable(low, node, bound) -> bool:
    """Can node's value be computed before the search (no space named, no state read but key atoms,
    nothing that can fail or write)?"""
    return not _mentions_any(node, bound) and _safe_form(node) and analyse(low, node)[0]


def _safe_form(node) -> bool:
    if isinstance(node, _LITERALS) or isinstance(node, (N.Name, N.My)):
        return True
    if isinstance(node, N.Attr):
        return _safe_form(node.obj)
    if isinstance(node, N.Compare):
        return node.op in _SAFE_OPS and _safe_form(node.left) and _safe_form(node.right)
    if isinstance(node, N.BoolOp):
        return all(_safe_form(i) for i in node.items)
    if isinstance(node, N.Not):
        return _safe_form(node.operand)
    return False


def _any_of(items):
    items = _distinct(items)
    return items[0] if len(items) == 1 else N.BoolOp(items[0].span, "or", tuple(items))


def _all_of(items):
    items = _distinct(items)
    if not items:
        return ALWAYS
    return items[0] if len(items) == 1 else N.BoolOp(items[0].span, "and", tuple(items))


def _distinct(items):
    out = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


# -- the syntax tree

def _children(node):
    for value in vars(node).values():
        for item in (value if isinstance(value, tuple) else (value,)):
            if isinstance(item, N.Node):
                yield item


def _map(node, f):
    """node with f applied to each child expression (node itself when nothing changed)."""
    changed, fields = False, {}
    for key, value in vars(node).items():
        if isinstance(value, N.Node):
            new = f(value)
        elif isinstance(value, tuple) and any(isinstance(v, N.Node) for v in value):
            new = tuple(f(v) if isinstance(v, N.Node) else v for v in value)
        else:
            new = value
        changed = changed or new is not value
        fields[key] = new
    return type(node)(**fields) if changed else node


def _replace(node, f):
    new = f(node)
    if new is not None:
        return new
    return _map(node, lambda child: _replace(child, f))


def _contains(node, kinds) -> bool:
    return isinstance(node, kinds) or any(_contains(c, kinds) for c in _children(node))


def _names(node) -> set:
    found = {node.name} if isinstance(node, N.Name) else set()
    for c in _children(node):
        found |= _names(c)
    return found


def _mentions_any(node, names) -> bool:
    return bool(_names(node) & names) or ("me" in names and _mentions_me(node))


def _mentions_me(node) -> bool:
    return isinstance(node, N.My) or any(_mentions_me(c) for c in _children(node))


def _bound_names(node) -> set:
    """Every name a construct inside node binds (`it`, `as` names, quantifier and search variables)."""
    found = set()
    if isinstance(node, N.Where):
        found |= {"it"} | ({node.name} if node.name else set())
    elif isinstance(node, N.Quantifier):
        found.add(node.var)
    elif isinstance(node, (N.Reach, N.Route)):
        found |= {v for v in (getattr(node, "through_var", None), getattr(node, "onto_var", None)) if v}
    for c in _children(node):
        found |= _bound_names(c)
    return found


# -- searches kept per what they read: their key and who stands on the spaces they meet

_OCC_MARK = -9              # the slot purity sees for `occupant(s)` of the space tested


@dataclass(frozen=True)
class AroundKey:
    """What a `reach ... up to N through ... onto ...` search's conditions read besides the space
    tested and who stands on it: the locals (`slots`) and the key atoms (lowered in the scope
    around the search: fn(m, L) with a text; they cannot fail and make no slot)."""
    slots: tuple[int, ...]
    atoms: tuple


def around_key(low, conds):
    """AroundKey when each of `conds` ((condition, space name) pairs: a search's `through` and
    `onto`, lowered just before in `low`) reads, apart from its key, only the space tested, fixed
    data and `occupant(s)` of that space (and its fixed attributes: `occupant(s).side`); else None.

    Why: the spaces such a search finds are then the same whenever its start, its number of
    steps, its key and the first piece standing on each space it met are: it meets the same
    spaces in the same order, and its conditions read nothing else (lumos.compiler.fused,
    _keep_lines, keeps the answer with the spaces met, against the state's `occ_log`).
    `other(x)` of a value that cannot fail (`rival(p.side)`, written out) is a key atom too: it
    reads which sides are still in play, the same for the whole search."""
    atoms: list = []
    marked = []
    for cond, var in conds:
        expanded = _expand(low, cond, _blocked(low, cond, var), 0, safe_args=True)
        occ = _occupant_placeholder()
        expanded = _replace(expanded, lambda n: N.Name(n.span, occ) if _is_occupant_of(low, n, var) else None)
        if _mentions_me(expanded) or var in _bound_names(expanded):
            return None
        bound = {var, occ} | _bound_names(expanded)
        marked.append((_mark_atoms(low, expanded, bound, atoms, _is_around_atom), var, bound))
    typed = _lower_all(low, atoms)
    if typed is None or any(t not in _SCALAR for _f, t in typed):
        return None                  # a list or a value of unknown kind cannot be a key
    slots: set = set()
    saved = low.local.names
    for node, var, bound in marked:
        names = dict(saved)
        names[var] = (_VAR_MARK, "space")
        names[_occupant_placeholder()] = (_OCC_MARK, "piece")
        for i, (_f, t) in enumerate(typed):
            names[_placeholder(i)] = (_KEY_MARK - i, t)
        for name in _names(node) - bound:
            if name in saved:
                if saved[name][1] not in _SCALAR:
                    return None      # a list or a value of unknown kind cannot be a key
                slots.add(saved[name][0])
        low.local.names = names
        try:
            pure, _read = analyse(low, node)
        finally:
            low.local.names = saved
        if not pure:
            return None
    return AroundKey(tuple(sorted(slots)), tuple(f for f, _t in typed))


def _occupant_placeholder() -> str:
    return "\x00occupant"       # no name a designer can write


def _is_occupant_of(low, node, var) -> bool:
    return isinstance(node, N.Call) and node.func == "occupant" and node.func in low.builtins and len(node.args) == 1 \
        and isinstance(node.args[0], N.Name) and node.args[0].name == var


def _is_around_atom(low, node) -> bool:
    """A key atom of a search kept per what it reads: larger than _is_atom's, the largest parts
    naming no space that cannot fail (`ball.holder is p`: its truth, not who holds it), and
    `other(x)` of such a form."""
    return _is_atom(low, node) or _is_other_atom(low, node) or (_safe_form(node) and not analyse(low, node)[0])


def _is_other_atom(low, node) -> bool:
    return isinstance(node, N.Call) and node.func == "other" and node.func in low.builtins \
        and len(node.args) == 1 and _safe_form(node.args[0]) and analyse(low, node.args[0])[0]
