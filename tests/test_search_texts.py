"""The generated text of a search tests what its rules say and nothing more (issue 14, speed).

A search's loop variable is a space of the board, never none, so its conditions' none tests on
it are dropped (lumos.compiler.hoist.never_none); an `if` reads only the truth of its test, so
`True if X else False` around it, or around the parts of an `and`/`or` chain, is dropped
(hoist.truth); a remembered part's row is looked up once per search. The games these texts
play are checked against the reference back end by tests/test_backend_equivalence.py; here, the
rewrites themselves, including the forms they must leave alone.
"""
from __future__ import annotations

import pytest

from lumos.compiler import fused
from lumos.compiler.hoist import invariant, never_none, truth
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


def test_a_remembered_row_is_looked_up_once_before_the_search():
    empty: dict = {}
    cache: dict = {}
    text = "(_7 if (_7 := _3.get(L[1], _4).get(L[9])) is not None else _8(m, L))"
    (out,), first = invariant([text], {"_3": cache, "_4": empty}, 9, empty)
    assert out == "(_7 if (_7 := _row_3.get(L[9])) is not None else _8(m, L))"
    assert first == ["_L1 = L[1]", "_row_3 = _3.get(_L1) or _3.setdefault(_L1, {})"]


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
