"""compiler/invariant.py: a part of a `where` condition that is the same for every item is computed
at its first use in a run of the filter (docs/speed.md). The games stay the same
(tests/test_backend_equivalence.py); here: which parts qualify, and that a run starts afresh and
gives an enclosing run of the same filter its value back."""
from lumos.compiler import nodes as N
from lumos.compiler.invariant import candidates, first_use, resetting

from lumos.diagnostics import NOWHERE


def name(x):
    return N.Name(NOWHERE, x)


def call(f, *args):
    return N.Call(NOWHERE, f, tuple(args))


def test_parts_that_name_the_item_are_searched_not_kept():
    landing = call("landing", name("p"), name("n"))
    cond = N.Compare(NOWHERE, "is", name("it"), landing)
    assert candidates(cond, ("it",)) == [landing]


def test_a_part_without_a_call_or_a_loop_is_not_worth_keeping():
    cond = N.Compare(NOWHERE, "==", name("it"), name("p"))
    assert candidates(cond, ("it",)) == []


def test_the_as_name_counts_as_the_item():
    cond = N.BoolOp(NOWHERE, "and", (call("f", name("c")), call("g", name("p"))))
    assert candidates(cond, ("it", "c")) == [cond.items[1]]


def test_a_call_with_the_item_inside_is_not_kept():
    cond = N.Not(NOWHERE, call("f", name("it"), call("g", name("p"))))
    assert candidates(cond, ("it",)) == []


def test_first_use_computes_once_per_run_and_restores_an_enclosing_run():
    calls = []

    def part(m, L):
        calls.append(L[0])
        return L[0] * 10
    kept = first_use(part)
    seen = []

    def filter_run(m, L):          # a run of the filter: the part used for three items
        seen.append([kept(m, L) for _ in range(3)])
        if L[0] == 1:               # the condition runs the same filter again, on other locals
            filter_run_reset(m, [2])
            seen.append([kept(m, L)])
        return ()
    filter_run_reset = resetting(filter_run, [kept.cell])
    filter_run_reset(None, [1])
    assert calls == [1, 2]
    assert seen == [[10, 10, 10], [20, 20, 20], [10]]
    filter_run_reset(None, [3])     # a new run starts afresh
    assert calls == [1, 2, 3]


class _Lowerer:
    """What `candidates` reads of a lowerer: the game's symbols and the builtins' names."""
    builtins = frozenset(("other", "occupants", "count"))

    def __init__(self, functions: dict):
        from types import SimpleNamespace
        self.symbols = {f: SimpleNamespace(what="function", value=SimpleNamespace(body=body))
                        for f, body in functions.items()}


def test_a_part_that_calls_only_cheap_functions_is_computed_for_each_item():
    # opposing(p) = other(p.side): no loop anywhere, so no cell, no reset, a text of its own
    low = _Lowerer({"opposing": call("other", N.Attr(NOWHERE, name("p"), "side")),
                    "crowd": call("count", call("occupants", name("p"))),
                    "near": N.Where(NOWHERE, name("zones"), N.Compare(NOWHERE, "is", name("it"), name("p")), None),
                    "via": call("near", name("p"))})
    cheap = N.Compare(NOWHERE, "is", N.Attr(NOWHERE, name("it"), "side"), call("opposing", name("p")))
    assert candidates(cheap, ("it",), low) == []
    assert candidates(cheap, ("it",)) == [cheap.right]        # without the lowerer: kept, as before
    for costly in ("crowd", "near", "via"):   # a builtin that loops, a filter, a function calling one
        cond = N.Compare(NOWHERE, "is", name("it"), call(costly, name("p")))
        assert candidates(cond, ("it",), low) == [cond.right], costly
