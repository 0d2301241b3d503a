"""The first parts of an `anytime` condition that read only options, variables and constants: a
test, at each decision, that says no `anytime` rule can add an option (the specialised back end).

Why: a game with `anytime` rules asks, at every decision of a side, whether each rule's
condition holds (Machine.with_anytime): the frames are scanned for the rule's own block, the
decision's place is compared with the one a rule was last taken at, and the condition runs on
new locals. When the rules are off for the whole game (`anytime ... if extras_ready(s)`,
whose function begins with `extras == "on"`, an option), all that finds nothing at every
decision. The *guard* of a rule is the `and` of the first parts of its condition (the game's
functions written out, as compiler/static_search.py writes them) that are made only of forms
that cannot fail or write (names of options, variables and constants, `==`/`is`/`in`,
`and`/`or`/`not`) and name no local (not even the side): when it is false, the condition is
false too, whatever the side and the frames.

Exactness: at a decision where no rule's guard holds and no rule was just taken
(`State.anytime_at` is none), the general path adds no option and changes nothing (it clears
`anytime_at` only when it is set), so the decision's instruction records the pending decision
itself, as it does in a game without `anytime` rules: the same record, keys in the same order.
Computing a guard raises nothing and writes nothing, so skipping the general path hides no
error. A rule without a guard (its condition begins with anything else) keeps every decision on
the general path. The reference back end keeps no guard.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.compiler.fused import _joined, _src
from lumos.compiler.static_search import (_BINDERS, _DEPTH, _LITERALS, _SAFE_OPS, _blocked, _conjuncts, _contains,
                                         _mentions_me, _names, _replace)

_NO_VALUES = ("function", "procedure", "action", "zone-decl")   # names that are no value to read


def guard_parts(low, cond, side: str) -> list:
    """The first parts of `cond`'s `and` (calls written out) that read no local and cannot fail."""
    return _leading(low, cond, _blocked(low, cond, side), 0)[0]


def _leading(low, node, blocked: set, depth: int) -> tuple[list, bool]:
    """(the first parts of node's `and` that _reads_no_local accepts, whether they are all of
    them). A call of a game function with plain names or constants for arguments is its body's
    parts, each with the parameters replaced by the arguments: only parts without anything bound
    inside them and naming nothing the condition's scope gives another meaning are taken."""
    out: list = []
    for part in _conjuncts(node):
        if isinstance(part, N.Call) and depth < _DEPTH:
            body, whole = _body_parts(low, part, blocked)
            for b in body:
                got, all_of = _leading(low, b, blocked, depth + 1)
                out += got
                if not all_of:
                    return out, False
            if not whole:
                return out, False
            continue
        if not _reads_no_local(low, part):
            return out, False
        out.append(part)
    return out, True


def _body_parts(low, call, blocked: set):
    """(the parts of a game function's `and` body with the call's arguments for its parameters, up
    to the first part that cannot be written out so; whether they are all of them). Only the
    body's first parts are ever evaluated before the rest: a guard is a first run of parts, so
    that what it skips could only have been evaluated after a part that is false."""
    sym = low.symbols.get(call.func)
    if call.func in low.builtins or sym is None or sym.what != "function":
        return [], False
    decl = sym.value
    if len(decl.params) != len(call.args) or not all(isinstance(a, (N.Name,) + _LITERALS) for a in call.args):
        return [], False
    values = dict(zip(decl.params, call.args))
    parts = []
    for part in _conjuncts(decl.body):
        if _contains(part, _BINDERS) or _mentions_me(part) or (_names(part) - set(decl.params)) & blocked:
            return parts, False
        parts.append(_replace(part, lambda n: values.get(n.name) if isinstance(n, N.Name) else None))
    return parts, True


def _reads_no_local(low, node) -> bool:
    """node is made of literals, names of options, variables and constants, `==`/`is`/`in`
    comparisons, `and`/`or`/`not` only (nothing that can fail, write or name a local)."""
    if isinstance(node, _LITERALS):
        return True
    if isinstance(node, N.Name):
        sym = low.symbols.get(node.name)
        return node.name not in low.local.names and sym is not None and sym.what not in _NO_VALUES
    if isinstance(node, N.Compare):
        return node.op in _SAFE_OPS and _reads_no_local(low, node.left) and _reads_no_local(low, node.right)
    if isinstance(node, N.BoolOp):
        return all(_reads_no_local(low, i) for i in node.items)
    if isinstance(node, N.Not):
        return _reads_no_local(low, node.operand)
    return False


def lower_quiet(low, cond, side: str):
    """fn(m, L) -> true when this rule adds no option at the decision and no rule was just taken
    (`m.st.anytime_at is None and not (GUARD)`, one joined text; L is never read), or None: the
    rule has no guard. Called inside the rule's scope (its side a local), so names read as in
    the condition."""
    parts = guard_parts(low, cond, side)
    if not parts:
        return None
    node = parts[0] if len(parts) == 1 else N.BoolOp(cond.span, "and", tuple(parts))
    pushed = low.sink.pushed
    fn, typ = low.expr(node)
    # a diagnostic here is one the condition's own lowering reported already (the sink keeps it once)
    if low.sink.pushed != pushed or typ != "flag":
        return None

    def make():
        text, names = _src(fn)
        return f"m.st.anytime_at is None and not ({text})", names
    return _joined(make)
