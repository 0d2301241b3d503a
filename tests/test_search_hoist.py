"""compiler/hoist.py: what a search's conditions read that stays the same for the whole search is
read once per search (docs/speed.md). The games stay the same (tests/test_backend_equivalence.py);
here: only reads of slots made before the search move, and only a remembered part's row lookup
becomes a row read once."""
import types

from lumos.compiler.fused import _NO_NAMES, _compile_def
from lumos.compiler.hoist import invariant, own_slot, slot_on_miss, space_rows


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


def _row_search(first, text, names):
    body = ("def f(m, L):\n    nbrs = ((),) * 6\n    nxt = L[8]\n" + "".join(f"    {line}\n" for line in first)
            + f"    return {text}\n")
    return types.FunctionType(_compile_def(body), names)


def test_a_row_read_only_by_the_tested_space_becomes_a_list_that_mirrors_it():
    cache = {4: {3: True}}
    calls = []

    def work_out(m, L):   # the remembered part's own function: reads the row, else keeps its answer there
        calls.append(L[8])
        row = cache.setdefault(L[1], {})
        if L[8] not in row:
            row[L[8]] = L[8] % 2 == 0
        return row[L[8]]
    names = {"_5": cache, "_6": _NO_NAMES, "_7": work_out}
    text = "(_9 if (_9 := _5.get(L[1], _6).get(L[8])) is not None else _7(m, L))"
    (out,), first = invariant([text], names, 8, _NO_NAMES)
    (out,), first = space_rows([own_slot(out, 8, "nxt")], first, "nxt", "len(nbrs)", names)
    assert "_row_5.get" not in out and "_s_row_5[nxt]" in out
    assert first[0] == "_L1 = L[1]" and "_spaces_5" in first[1]
    f = _row_search(first, out, names)
    L = [None] * 10
    L[1] = 4
    for space, answer in [(3, True), (2, True), (5, False), (3, True), (2, True)]:
        L[8] = space
        assert f(None, L) is answer
    # each space goes to the remembered part once (3 is read from its row, 2 and 5 worked out);
    # then the list answers; both hold the same answers
    assert calls == [3, 2, 5] and cache[4] == {3: True, 2: True, 5: False}
    assert names["_spaces_5"][4] == [None, None, True, True, None, False]
    L[1], L[8] = 7, 5             # another key: a list of its own
    assert f(None, L) is False and set(names["_spaces_5"]) == {4, 7}


def test_a_row_read_by_anything_but_the_tested_space_stays_a_dict():
    names = {"_5": {}, "_6": _NO_NAMES, "_7": None}
    by_space = "(_9 if (_9 := _5.get(L[1], _6).get(L[8])) is not None else _7(m, L))"
    by_other = "_5.get(L[1], _6).get(L[3])"
    texts, first = invariant([by_space, by_other], names, 8, _NO_NAMES)
    texts = [own_slot(t, 8, "nxt") for t in texts]
    assert space_rows(texts, first, "nxt", "len(nbrs)", names) == (texts, first)


def _remembered(slots):
    fn = lambda m, L: L[8] % 3 == 0
    fn.reads = tuple(slots)          # as fused._reading marks a remembered part's own function
    return fn


def test_a_kept_search_writes_its_space_only_for_the_remembered_parts_that_read_it():
    names = {"_7": _remembered([1, 8]), "_3": _remembered([1])}
    text = "((_9 if (_9 := _s_row_5[nxt]) is not None else _7(m, L)) and _3(m, L) and (st.occ[nxt] < 0))"
    out = slot_on_miss(text, 8, "nxt", names, (8, 9))
    assert out == ("((_9 if (_9 := _s_row_5[nxt]) is not None else (L.__setitem__(8, nxt) or _7(m, L)))"
                   " and _3(m, L) and (st.occ[nxt] < 0))")
    # the slot holds the space when the remembered part reads it
    L = [None] * 10
    g = {"_s_row_5": [None] * 7, "_7": names["_7"], "_3": lambda m, L: True}
    body = f"def f(m, L, st, nxt):\n    return {out}\n"
    f = types.FunctionType(_compile_def(body), g)
    st = types.SimpleNamespace(occ=[-1] * 7)
    assert f(None, L, st, 6) is True and L[8] == 6
    assert f(None, L, st, 4) is False and L[8] == 4


def test_a_text_that_reads_the_locals_otherwise_keeps_writing_the_slot():
    names = {"_7": _remembered([1, 8]), "_4": lambda m, L: True, "_6": _remembered([9])}
    assert slot_on_miss("_4(m, L) and (st.occ[nxt] < 0)", 8, "nxt", names) is None     # not a remembered part
    assert slot_on_miss("L[8] == _L1", 8, "nxt", names) is None                      # reads the slot itself
    assert slot_on_miss("L.__setitem__(12, nxt) or _7(m, L)", 8, "nxt", names) is None
    # a remembered part keyed on the search's other slot (written only where its own text needs it)
    assert slot_on_miss("_6(m, L)", 8, "nxt", names, (8, 9)) is None
