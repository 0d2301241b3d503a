"""Parts of a `where` condition that are the same for every item: computed at their first use in a
run of the filter, then reused for the other items (the specialised back end).

Why: `zone where it is landing(p, n)` computed `landing(p, n)`, itself a filter, once per item of
`zone`. A part of the condition that names neither the item (`it`, or the filter's `as` name) nor
anything bound inside the condition reads only the state, which a condition never changes, and
locals set before the filter, which the condition never writes (an expression writes only slots of
its own: compiler/purity.py). So every evaluation of it in one run of the filter gives the same
value and writes the same values into its own slots: the first one stands for all. It is computed
where the condition first needs it (a filter of no items computes nothing; an error is raised
where it would be), so the tests, the values and the locals after the filter are the same.

Each run of the filter starts with the parts unknown, and gives back what an enclosing run of the
same filter (a function that calls itself from inside the condition) had when it ends.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.compiler.fused import _has_src, _lazy, _mentions, _name, _src, _twin

_UNSET = object()   # a part not computed yet in this run of its filter
_COSTLY = (N.Call, N.Where, N.Quantifier, N.Reach)   # worth keeping: a call or a loop inside


def candidates(cond, names: tuple[str, ...], low=None) -> list:
    """The largest parts of `cond` that mention none of `names` and contain a call or a loop, found
    through `and`/`or`/`not`, comparisons, `if ... then ... else`, `is empty` and sums only (so
    nothing bound inside the condition is in scope for them). With the lowerer `low`, a part whose
    calls are all of cheap functions (see _cheap) is no candidate: computing it again for each
    item costs less than keeping its first value (a cell, a reset around every run of the filter,
    the filter without a text of its own)."""
    found: list = []

    def visit(node):
        if not any(_mentions(node, name) for name in names):
            if _contains_costly(node) and not (CHEAP_PARTS and low is not None and _cheap(low, node, 0)):
                found.append(node)
            return
        if isinstance(node, (N.BoolOp, N.Arith)):
            for item in node.items:
                visit(item)
        elif isinstance(node, N.Not):
            visit(node.operand)
        elif isinstance(node, N.Compare):
            visit(node.left)
            visit(node.right)
        elif isinstance(node, N.IfExpr):
            visit(node.cond)
            visit(node.then)
            visit(node.other)
        elif isinstance(node, N.IsEmpty):
            visit(node.operand)
    visit(cond)
    return found


CHEAP_PARTS = True   # cheap parts are computed for each item (off: kept at their first use; for A/B timing)
_CHEAP_BUILTINS = frozenset(("other",))   # builtins that compute their value without a loop
_CHEAP_DEPTH = 4     # how deep calls of game functions are followed


def _cheap(low, node, depth: int) -> bool:
    """node holds no loop (`where`, a quantifier, a search) and calls only cheap builtins and game
    functions whose bodies are cheap, with arguments that are cheap too (followed _CHEAP_DEPTH deep)."""
    if isinstance(node, (N.Where, N.Quantifier, N.Reach, N.Route)):
        return False
    if isinstance(node, N.Call):
        if node.func not in _CHEAP_BUILTINS:
            sym = low.symbols.get(node.func)
            if node.func in low.builtins or sym is None or sym.what != "function" or depth >= _CHEAP_DEPTH \
                    or not _cheap(low, sym.value.body, depth + 1):
                return False
    for value in vars(node).values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, N.Node) and not _cheap(low, item, depth):
                return False
    return True


def _contains_costly(node) -> bool:
    if isinstance(node, _COSTLY):
        return True
    for value in vars(node).values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, N.Node) and _contains_costly(item):
                return True
    return False


def first_use(f):
    """f's value computed at its first use in a run of its filter, then the same value (the cell
    is reset by `resetting`)."""
    cell = [_UNSET]

    def first(m, L):
        v = cell[0]
        if v is _UNSET:
            v = cell[0] = f(m, L)
        return v
    c, u, g, h = _name(), _name(), _name(), _name()
    if _has_src(f):
        def make():
            # the part's own text at its first use, its value stored in the cell (__setitem__
            # gives None): no call of the closures it was lowered to
            text, names = _src(f)
            return (f"({h} if ({h} := {c}[0]) is not {u} else {g}(0, ({h} := {text})) or {h})",
                    {**names, c: cell, u: _UNSET, g: cell.__setitem__})
        _lazy(first, make)
    else:
        first.src = (f"({h} if ({h} := {c}[0]) is not {u} else {g}(m, L))", {c: cell, u: _UNSET, g: _twin(first)})
    first.cell = cell
    return first


def resetting(fn, cells: list):
    """fn (a run of the filter) with its parts unknown at the start; what they were before (an
    enclosing run of the same filter) given back at the end."""
    if fn is None:
        return None
    if len(cells) == 1:
        c0 = cells[0]

        def run1(m, L):
            saved = c0[0]
            c0[0] = _UNSET
            try:
                return fn(m, L)
            finally:
                c0[0] = saved
        return run1

    def run(m, L):
        saved = [c[0] for c in cells]
        for c in cells:
            c[0] = _UNSET
        try:
            return fn(m, L)
        finally:
            for c, v in zip(cells, saved):
                c[0] = v
    return run
