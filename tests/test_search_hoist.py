"""compiler/hoist.py: what a search's conditions read that stays the same for the whole search is
read once per search (docs/speed.md). The games stay the same (tests/test_backend_equivalence.py);
here: only reads of slots made before the search move, and only a remembered part's row lookup
becomes a row read once."""
import types

from lumos.compiler.fused import _NO_NAMES, _compile_def
from lumos.compiler.hoist import invariant, own_slot


def test_slots_made_before_the_search_are_read_once():
    texts, first = invariant(["L[1] == L[7] and L[12] is None", "L[3]"], {}, 7, _NO_NAMES)
    assert texts == ["_L1 == L[7] and L[12] is None", "_L3"]
    assert first == ["_L1 = L[1]", "_L3 = L[3]"]


def test_a_remembered_row_is_looked_up_once_before_the_search():
    cache = {}
    names = {"_5": cache, "_6": _NO_NAMES}
    text = "(_9 if (_9 := _5.get(L[1], _6).get(L[8])) is not None else _7(m, L))"
    (out,), first = invariant([text], names, 8, _NO_NAMES)
    assert "_5.get(L[1], _6)" not in out and "_row_5" in out
    assert first == ["_L1 = L[1]", "_row_5 = _5.get(_L1) or _5.setdefault(_L1, {})"]
    # the hoisted text finds the same entries as the original
    cache[4] = {8: True}
    g = {"_5": cache, "_6": _NO_NAMES, "_7": lambda m, L: False}
    body = "def f(m, L):\n" + "".join(f"    {line}\n" for line in first) + f"    return {out}\n"
    f = types.FunctionType(_compile_def(body), g)
    L = [None] * 10
    L[1], L[8] = 4, 8
    assert f(None, L) is True
    L[1] = 5          # a row that does not exist yet is made, the same dict the remembered part fills
    assert f(None, L) is False and cache[5] == {}


def test_rows_keyed_on_the_searchs_own_slots_or_other_dicts_stay():
    names = {"_5": {}, "_6": _NO_NAMES, "_15": {}, "_16": {}}
    own = "_5.get(L[9], _6).get(L[10])"          # keyed on a slot the search writes
    other = "_15.get(L[1], _16).get(L[10])"     # not a remembered part (its default is another dict)
    (a, b), first = invariant([own, other], names, 8, _NO_NAMES)
    assert a == own
    assert b == "_15.get(_L1, _16).get(L[10])" and first == ["_L1 = L[1]"]


def test_own_slot_reads_the_loop_variable():
    assert own_slot("L[7] is None or L[17] == L[7] or X.L[7]", 7, "nxt") == "nxt is None or L[17] == nxt or X.L[7]"
