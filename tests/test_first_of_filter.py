"""`first(L where C)` stops at the first item C holds for (docs/language.md, Built-in functions;
issue 14: the examiner's `first(spaces where it.number == k)` tested every space).

A tiny game made for the test (no rulebook): two runners on a row of six squares, the last one
worth a text where the others have numbers; each hops once to the first of the three squares
ahead worth at least 2 (`first(... where ...)`). For blue at c1 that is d1, and f1's text lies
beyond it: a filter that tested every item would compare a text with a number (R005); stopping
at the first item never reaches it. Played
with both back ends, the whole state compared after every step (the item's slot is left as
the whole filter leaves it: a saved state holds it).
"""
from __future__ import annotations


import pytest

import lumos.compiler.fused as fused
from lumos.interpreter.engine import GameState

from support.equivalence import every_step
from support.sources import write_game

BOARD = """\
name: Row
grid:
  columns: abcdef
  rows: 1
  links:
    orthogonal: step
  legend:
    o: {worth: 1}
    t: {worth: 3}
    x: {worth: "many"}
  map: |
    o t o t o x
"""

GAME = """\
game "First of a filter"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a1
pieces of blue:
    runner at c1
var turns = 0

function ahead(p) = [offset(p.space, 1, 0), offset(p.space, 2, 0), offset(p.space, 3, 0)] where it is not none
function target(p) = first(ahead(p) where it.worth >= 2)
function plain_target(p) = first(ahead(p) where it is not p.space)

action hop:
    with p in pieces of current where target(it) is not none and occupant(target(it)) is none
    label "hop {p} to {target(p)}"
    place p at target(p)

procedure turn(s):
    log "{s}: first ahead {plain_target(first(pieces of s))}"
    do one of hop by s

flow:
    loop:
        turn(current)
        add 1 to turns
        if turns >= 2:
            end in a draw
        set current = other(current)
"""


def compiled(tmp_path, backend: str):
    with fused.using_backend(backend):
        cg, diags, _ = write_game(tmp_path, "first", {"game.lumos": GAME, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


steps = every_step


def test_first_stops_at_the_first_item_and_both_back_ends_agree(tmp_path):
    ref, new = compiled(tmp_path, "reference"), compiled(tmp_path, "specialised")
    for seed in range(1, 5):
        a = steps(ref, seed)
        assert a == steps(new, seed), f"seed {seed}"
        # blue at c1 finds d1 (worth 3) before f1's text would be tested: no R005
        assert "R005" not in a[-1] and "blue runner to d1" in a[-1]


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_the_first_item_is_the_whole_filters_first(tmp_path, backend):
    """Where no item fails, `first(L where C)` is the first item of the whole filter."""
    cg = compiled(tmp_path, backend)
    state = GameState.new(cg, seed=1, log=True)
    labels = state.action_labels()
    assert "hop red runner to b1" in labels       # a1 -> b1 (worth 3), not d1
    events = [e["event"] for e in state.events]
    assert "red: first ahead b1" in events
