"""Which expressions never look at the game state, and which locals they read.

Why: conditions in movement rules (`reach ... through s where ...`) are evaluated for
every space of every search. Parts of an `and`/`or` that depend only on locals and on
data that never changes (board attributes, per-side constants, regions) can be tested
first and remembered per value of those locals, so the search pays a dictionary
lookup instead of re-running them. Reordering the parts of an `and`/`or` does not
change its result: the only writes an expression makes are to slots of its own (the item
of `where`, the spaces of `reach`, the arguments of an inlined function call).

The memo lives as long as the lowered game (a whole process), and a saved state holds every
local of every frame: so a remembered part must leave no trace in the state, or the state
would depend on what the process ran before. lower_expr.e_BoolOp gives the memo the slots
the part owns, and the memo sets them back to none after each run (they are none whenever
the part is not running, hit or miss).

`analyse(lowerer, node)` -> (pure, slots): pure is False when the expression may read
state (variables, positions, zones); slots are the local slots it reads.
"""
from __future__ import annotations

from lumos.compiler import nodes as N

IMPURE = (False, frozenset())
# Builtins whose result depends only on their arguments and the board.
PURE_BUILTINS = {"other", "offset", "distance", "toward", "max", "min", "sum", "count", "first", "last"}
STATIC_SYMBOLS = {"side", "kind", "region", "space", "piece", "const", "die", "window", "builtin", "cards"}
# Attributes computed from the state, never from a fixed table.
DYNAMIC_ATTRIBUTES = {"space", "holder"}


def analyse(low, node, depth: int = 0):
    if depth > 40:
        return IMPURE
    fn = globals().get("_" + type(node).__name__)
    return fn(low, node, depth + 1) if fn is not None else IMPURE


def _all(low, nodes, depth):
    slots = frozenset()
    for n in nodes:
        pure, s = analyse(low, n, depth)
        if not pure:
            return IMPURE
        slots |= s
    return True, slots


def _Num(low, n, d):
    return True, frozenset()


_Str = _Bool = _NoneLit = _Num


def _Name(low, n, d):
    if n.name in low.local.names:
        return True, frozenset({low.local.names[n.name][0]})
    sym = low.symbols.get(n.name)
    if sym is not None and sym.what in STATIC_SYMBOLS:
        return True, frozenset()
    return IMPURE


def _Attr(low, n, d):
    pure, slots = analyse(low, n.obj, d)
    if not pure or n.name in DYNAMIC_ATTRIBUTES:
        return IMPURE
    for kind in ("side", "piece", "space", "card"):  # variables of sides, pieces, spaces, cards change
        if n.name in low.settable.get(kind, {}):
            return IMPURE
    if n.name in {name for name, _ in getattr(low, "zones", ())}:
        return True, slots  # a zone's identity never changes (its contents do)
    return True, slots


def _My(low, n, d):
    return _Attr(low, N.Attr(n.span, N.Name(n.span, "me"), n.name), d)


def _Compare(low, n, d):
    if n.op in ("in", "notin"):
        pure, slots = _zone_free(low, n.right, d)    # membership in a zone reads its cards
        if not pure:
            return IMPURE
        left_pure, left_slots = analyse(low, n.left, d)
        return (True, slots | left_slots) if left_pure else IMPURE
    return _all(low, (n.left, n.right), d)


def _BoolOp(low, n, d):
    return _all(low, n.items, d)


def _Not(low, n, d):
    return analyse(low, n.operand, d)


def _Neg(low, n, d):
    return analyse(low, n.operand, d)


def _Arith(low, n, d):
    return _all(low, n.items, d)


def _IfExpr(low, n, d):
    return _all(low, (n.cond, n.then, n.other), d)


def _ListLit(low, n, d):
    return _all(low, n.items, d)


def _Where(low, n, d):
    names = ("it",) if n.name is None else ("it", n.name)
    return _filter_pure(low, n.source, n.cond, names, -99, d)


def _Quantifier(low, n, d):
    return _filter_pure(low, n.source, n.cond, (n.var,), -98, d)


def _filter_pure(low, source, cond, names, marker: int, d):
    """A filter (`S where C`, `any x in S where C`) is pure when its source is not a zone and
    its condition is pure with the names of the item tested bound to `marker`: not locals of
    the caller, so they never count among the slots it reads."""
    pure, slots = _zone_free(low, source, d)     # a zone's cards change during play
    if not pure:
        return IMPURE
    saved = low.local.names
    low.local.names = dict(saved)
    for name in names:
        low.local.names[name] = (marker, "any")
    try:
        cond_pure, cond_slots = analyse(low, cond, d)
    finally:
        low.local.names = saved
    if not cond_pure:
        return IMPURE
    return True, slots | (cond_slots - {marker})


def _IsEmpty(low, n, d):
    return _zone_free(low, n.operand, d)


def _zone_free(low, node, d):
    """Pure only if the operand is not a zone (a zone's cards change)."""
    pure, slots = analyse(low, node, d)
    if not pure:
        return IMPURE
    if isinstance(node, (N.Attr, N.My)) and node.name in {name for name, _ in low.zones}:
        return IMPURE
    if isinstance(node, N.Name) and node.name in low.local.names and \
            low.local.names[node.name][1] in ("zone", "any"):
        return IMPURE   # a local (a parameter) that may hold a zone: its cards change too
    return pure, slots


def _Call(low, n, d):
    if n.func == "other" and getattr(low, "removes_sides", True):
        return IMPURE     # the next side still in play: it reads who has left (compiler/game.py)
    if n.func in PURE_BUILTINS:
        if n.func in ("count", "first", "last"):
            return _zone_free(low, n.args[0], d) if n.args else IMPURE
        return _all(low, n.args, d)
    sym = low.symbols.get(n.func)
    if sym is None or sym.what != "function":
        return IMPURE
    decl = sym.value
    if len(decl.params) != len(n.args):
        return IMPURE
    pure, slots = _all(low, n.args, d)
    if not pure:
        return IMPURE
    # The body reads only its parameters (bound to the arguments) and the game's names.
    saved = low.local.names
    low.local.names = {p: (-1 - i, "any") for i, p in enumerate(decl.params)}
    try:
        body_pure, body_slots = analyse(low, decl.body, d)
    finally:
        low.local.names = saved
    if not body_pure:
        return IMPURE
    return True, slots
