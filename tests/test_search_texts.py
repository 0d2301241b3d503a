"""The generated text of a search tests what its rules say and nothing more (issue 14, speed).

A search's loop variable is a space of the board, never none, so its conditions' none tests on
it are dropped (lumos.compiler.hoist.never_none); an `if` reads only the truth of its test, so
`True if X else False` around it, or around the parts of an `and`/`or` chain, is dropped
(hoist.truth); a remembered part's row is looked up once per search (tests/test_search_hoist.py). The games these texts
play are checked against the reference back end by tests/test_backend_equivalence.py; here, the
rewrites themselves, including the forms they must leave alone.
"""
from __future__ import annotations

import operator

import pytest

from lumos.compiler import fused
from lumos.compiler.hoist import never_none, truth
from support.equivalence import compiled, play_final


@pytest.mark.parametrize("text, want", [
    ("(True if (a) else False)", "(a)"),
    ("(True if (True if (a) and (b) else False) or (True if (c) else False) else False)",
     "((a) and (b)) or (c)"),
    # a value is wanted here (a conditional that is not a truth test): left alone
    ("(x if (y) else z)", "(x if (y) else z)"),
    # `and` and `or` mixed at the top: precedence would matter, left alone
    ("(True if (a) else False) or (b) and (c)", "(True if (a) else False) or (b) and (c)"),
    # the first bracket closes before the end: not one wrapped test
    ("(True if (a) else False) or (True if (b) else False)", "(a) or (b)"),
    ("(True if a else False) + (True if b else False)", "(True if a else False) + (True if b else False)"),
])
def test_truth_drops_only_wrappers_whose_value_is_a_truth(text, want):
    assert truth(text) == want


def test_never_none_drops_tests_of_the_space_and_nothing_else():
    text = ("((_741 := nxt) is None or st.occ[_741] < 0) and "
            "(None if (_785 := nxt) is None or (_786 := st.occ[_785]) < 0 else _786) and "
            "((_9 := nxt) is not None and st.occ[_9] >= 0) and (_7410 == L[3])")
    assert never_none(text, "nxt") == (
        "(st.occ[nxt] < 0) and (None if (_786 := st.occ[nxt]) < 0 else _786) and "
        "(st.occ[nxt] >= 0) and (_7410 == L[3])")


def test_never_none_leaves_a_name_also_bound_to_something_else():
    text = "((_5 := nxt) is None or st.occ[_5] < 0) and ((_5 := L[2]) is None)"
    assert never_none(text, "nxt") == text


def test_the_searches_of_a_bundled_game_test_no_space_against_none(monkeypatch):
    """Snitch Snatcher's moves (Quidditch Players > Chasers, Beaters, Keeper) are `reach`
    searches: their generated texts hold no none test of the space searched, and no wrapper
    around an `if` test; the games they play are the reference back end's."""
    texts = []
    real = fused._compile_def

    def capture(text):
        texts.append(text)
        return real(text)
    monkeypatch.setattr(fused, "_compile_def", capture)   # read when a search is made
    new = compiled("snitch-snatcher", "specialised")
    ref = compiled("snitch-snatcher", "reference")
    for seed in (1, 2):
        assert play_final(new, seed) == play_final(ref, seed)
    searches = [t for t in texts if t.startswith("def search")]
    assert searches, "the moves are searches"
    for text in searches:
        assert ":= nxt) is None" not in text and ":= nxt) is not None" not in text
        for line in text.splitlines():
            assert not line.strip().startswith("if (True if "), line


def test_kept_searches_read_list_rows_and_write_no_slot_per_space(monkeypatch):
    """The Chasers' moves (Quidditch Players > Chasers) are kept searches (their answers held
    while no piece comes onto or leaves a space they met): their remembered parts are read from
    lists indexed by the space (hoist.space_rows), and the space is written into its slot only
    for a remembered part that works its answer out (hoist.slot_on_miss). `count(S where C)`
    (the Dopplebeater's `flanked`: Playing Cards > Action Cards) is the filter's length. The
    games are the reference back end's."""
    texts = []
    real_def, real = fused._compile_def, fused._compile

    def capture_def(text):
        texts.append(text)
        return real_def(text)

    def capture(text):
        texts.append(text)
        return real(text)
    monkeypatch.setattr(fused, "_compile_def", capture_def)
    monkeypatch.setattr(fused, "_compile", capture)
    new = compiled("snitch-snatcher", "specialised")
    ref = compiled("snitch-snatcher", "reference")
    for seed in (3, 4):
        assert play_final(new, seed) == play_final(ref, seed)
    kept = [t for t in texts if t.startswith("def search") and "st.kept.get(_key)" in t
            and "links['diagonal']" in t and "_s_row_" in t]
    assert kept, "the Chasers' search is kept and reads list rows"
    def writes_per_space(text):
        loops = text.split("ring = [start]", 1)[1]
        return any(line.strip().startswith("L[") and line.strip().endswith("= nxt") for line in loops.splitlines())
    for text in kept:
        assert "_row_" not in text.replace("_s_row_", ""), "no dictionary row is left"
    # the Chasers' conditions read the locals only through remembered parts (the Keeper's
    # `occupant(s).side is rival(p.side)` reads its own: that search writes the slot as before)
    lazy = [t for t in kept if not writes_per_space(t)]
    assert lazy and all("(L.__setitem__(" in t for t in lazy)
    assert any("len(([" in t and "tuple([" not in t.split("len(([", 1)[1][:40] for t in texts)


@pytest.mark.parametrize("text, want", [
    # a filter's list counted as it is built (the same items, the same tests, no tuple copy)
    ("(tuple([_1 for _1 in _2 if (_3[_1])]) if (_2 := L[4]) else ())",
     "len(([_1 for _1 in _2 if (_3[_1])] if (_2 := L[4]) else ()))"),
    # anything else is counted as it is
    ("(_4(m, L))", "len((_4(m, L)))"),
    ("(tuple(_5) if _6 else ())", "len((tuple(_5) if _6 else ()))"),
])
def test_the_length_of_a_filter_needs_no_tuple(text, want):
    assert fused._length_text(text) == want
    names = {"_3": {1: True, 2: False, 3: True}, "_4": lambda m, L: (7, 8), "_5": (1, 2), "_6": True}
    L = [None] * 5
    L[4] = (1, 2, 3)
    assert eval(want, dict(names), {"L": L, "m": None}) == eval(f"len({text})", dict(names), {"L": L, "m": None})


def test_state_lists_are_read_once_per_search():
    """A search reads who stands where (`occ`) and who carries whom (`holder`) from locals set
    before its loop (fused._state_lists): the same lists, since a move writes them in place."""
    ttext = "(st.occ[nxt] < 0) and (_7[nxt])"
    otext = "((None if (_2 := st.holder[_1]) < 0 else _2) == _L1) and (st.occ[nxt] < 0) and (_x.st.occ)"
    t, o, first = fused._state_lists(ttext, otext, ["_L1 = L[1]"])
    assert t == "(_occ[nxt] < 0) and (_7[nxt])"
    assert o == "((None if (_2 := _holder[_1]) < 0 else _2) == _L1) and (_occ[nxt] < 0) and (_x.st.occ)"
    assert first == ["_L1 = L[1]", "_occ = st.occ", "_holder = st.holder"]
    # a text that reads neither list gets no line
    assert fused._state_lists("(_7[nxt])", "(_8[nxt])", []) == ("(_7[nxt])", "(_8[nxt])", [])


def test_a_listing_finds_its_rows_once_and_each_by_the_first_binding(monkeypatch):
    """Snitch Snatcher's pitch plays (Game Play > Turn Sequence: `with p in ...`, `with to in
    moves(p)`) read their option tuples from rows found per listing for its tag, then by the
    piece alone; the options are the reference back end's."""
    texts = []
    real = fused._compile_def

    def capture(text):
        texts.append(text)
        return real(text)
    monkeypatch.setattr(fused, "_compile_def", capture)
    new = compiled("snitch-snatcher", "specialised")
    ref = compiled("snitch-snatcher", "reference")
    for seed in (5, 6):
        assert play_final(new, seed) == play_final(ref, seed)
    listings = [t for t in texts if t.startswith("def listing") and "p1 = L[1]" in t and "row = " in t]
    assert listings, "the pitch plays are listed with option rows"
    for text in listings:
        assert "_rows.get((tag, p1))" not in text
        assert text.count("_tag_rows = _rows.get(tag)") == 1 and "_tag_rows.get(p1)" in text
    searches = [t for t in texts if t.startswith("def search") and "_occ = st.occ" in t]
    assert searches and all("st.occ[" not in t.split("_occ = st.occ", 1)[1] for t in searches)


@pytest.mark.parametrize("items", [(3,), (0, 2, 4), (4, 1)])
def test_table_reads_add_the_rows_entries_in_the_items_order(items):
    """A listing's options read from its table (fused._table_reads): one item by index, more by
    one itemgetter; the same list, in the same order, as reading them one by one."""
    text = "\n".join(["def add(row, out, items):", "    try:", *fused._table_reads("    ", "items"),
                      "    except (IndexError, TypeError):", "        out.append('general')",
                      "    return out"])
    scope = {"_getter": operator.itemgetter}
    exec(compile(text, "<test>", "exec"), scope)
    row = tuple(("t", (9, x)) for x in range(5))
    assert scope["add"](row, ["before"], items) == ["before"] + [row[x] for x in items]
    # an item that is no number (none) adds nothing from the table: the general path takes it
    assert scope["add"](row, ["before"], (1, None)) == ["before", "general"]
    assert scope["add"](row, ["before"], (None,)) == ["before", "general"]


def test_a_part_remembered_by_the_space_alone_is_read_from_a_list():
    """A remembered part keyed on the tested space alone (hoist._space_keyed_rows) is read from
    a list indexed by the space, filled from the part's own function on a miss; a dictionary the
    text reads anywhere else is left as it was."""
    from lumos.compiler.hoist import space_rows

    def twin(m, L):
        return True
    twin.reads = (21,)
    names = {"_8": {}, "_7": twin}
    use = "(_9 if (_9 := _8.get(nxt)) is not None else _7(m, L))"
    (text,), first = space_rows([f"{use} and (_occ[nxt] < 0)"], [], "nxt", "len(nbrs)", names)
    assert text == "(_9 if (_9 := _s1_8[nxt]) is not None else _put_answer(_s1_8, nxt, _7(m, L))) and (_occ[nxt] < 0)"
    assert first == ["_s1_8 = _spaces1_8.get(0) or _new_answers(_spaces1_8, 0, len(nbrs))"]
    assert names["_spaces1_8"] == {}
    # the list holds what the part answers, filled on the first miss
    row = [None] * 4
    scope = {"_s1_8": row, "_put_answer": names["_put_answer"], "_7": lambda m, L: False, "_occ": [-1] * 4}
    assert eval(text, scope, {"nxt": 2, "m": None, "L": None}) is False and row == [None, None, False, None]
    # read elsewhere (here with no space): not a row of the space alone
    (other,), rest = space_rows([f"{use} and _8.get(3)"], [], "nxt", "len(nbrs)", {"_8": {}, "_7": twin})
    assert other == f"{use} and _8.get(3)" and rest == []
