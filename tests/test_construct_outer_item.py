"""Naming the outer item of a nested condition: `LIST as NAME where ...`. "A Chaser within
2 steps of one of your Beaters" written with two `it`s tests each Beater against itself (both
`it`s are the inner item) and is silently always true; the warning W320 points at it and at
the way to name the outer item.

A tiny game made for the test (no rulebook).
"""
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Line
grid:
  columns: abcdefg
  rows: 1
  links:
    orthogonal: orthogonal
  legend:
    o: {}
  map: |
    o o o o o o o
"""

GAME = """\
game "Escorts"
board "board.yaml"
sides red, blue
kinds chaser, beater
pieces of red:
    chaser at a1, g1
    beater at b1
pieces of blue:
    beater at f1

function chasers(s) = pieces of s where it.kind is chaser
function beaters(s) = pieces of s where it.kind is beater
function escorted(s) = chasers(s) as c where any b in beaters(s) where distance(c.space, b.space, orthogonal) <= 2
function escorted_too(s) = chasers(s) as c where (beaters(s) where distance(c.space, it.space, orthogonal) <= 2) is not empty
function by_it(s) = chasers(s) where any b in beaters(s) where distance(it.space, b.space, orthogonal) <= 2

flow:
    log "{escorted(red)} / {escorted_too(red)} / {by_it(red)} / {escorted(blue)}"
    end in a draw
"""


def make(tmp_path, text=GAME):
    return write_game(tmp_path, "escorts", {"game.lumos": text, "board.yaml": BOARD})


def test_the_outer_item_has_a_name_inside_the_nested_condition(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None and not diags, [d.headline() for d in diags]
    events = [e["event"] for e in GameState.new(cg, seed=1, log=True, forced="take").events]
    # only the chaser on a1 is within 2 steps of red's beater on b1; `it` in a quantifier is the outer item
    assert events[0] == "red chaser 1 / red chaser 1 / red chaser 1 / "


def test_two_its_in_a_nested_where_are_warned_about(tmp_path):
    wrong = GAME.replace(
        "function escorted_too(s) = chasers(s) as c where (beaters(s) where distance(c.space, it.space, orthogonal) <= 2) is not empty",
        "function escorted_too(s) = chasers(s) where (beaters(s) where distance(it.space, it.space, orthogonal) <= 2) is not empty")
    cg, diags, _ = make(tmp_path, wrong)
    assert cg is not None
    [d] = [d for d in diags if d.code == "W320"]
    assert d.severity == "warning"
    assert d.message == "both `it`s here are the item of the inner `where`, so it is compared with itself"
    assert "`LIST as NAME where ...`" in d.hint
    assert (d.span.line, d.span.col) == (14, 63)   # the call that reads `it` twice
    # what the warning is about: every chaser counts as escorted, the far one on g1 too
    events = [e["event"] for e in GameState.new(cg, seed=1, log=True, forced="take").events]
    assert events[0].split(" / ")[1] == "red chaser 1, red chaser 2"


def test_a_single_where_or_different_operands_are_not_warned_about(tmp_path):
    text = GAME.replace('function by_it(s) =', 'function same(s) = pieces where it.side == it.side\n'
                        'function pairs(s) = pieces where (pieces where it.side is s) is not empty\nfunction by_it(s) =')
    text = text.replace('    end in a draw', '    log "{count(same(red))} {count(pairs(red))}"\n    end in a draw')
    cg, diags, _ = make(tmp_path, text)
    assert cg is not None and [d.code for d in diags] == [], [d.headline() for d in diags]
