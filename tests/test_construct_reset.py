"""`reset NAME`: a `var` back to its starting value — for every side or every piece it has. The
other half of an effect that lasts "until the end of the Game Sequence": set a flag, then reset
it when the sequence ends.

A tiny game made for the test (no rulebook).
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
  - {name: b, pos: [1, 0]}
"""

GAME = """\
game "Resets"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a
pieces of blue:
    runner at b
var boosted per piece = false
var tempo per side = 1
var round = 0

flow:
    for each p in pieces:
        set p.boosted = true
    add 2 to red.tempo
    add 5 to round
    log "{pieces where it.boosted} {red.tempo} {blue.tempo} {round}"
    reset boosted
    reset tempo
    reset round
    log "{count(pieces where it.boosted)} {red.tempo} {blue.tempo} {round}"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "resets", {"game.lumos": game_text, "board.yaml": BOARD})


def test_reset_puts_every_value_back(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert [e["event"] for e in state.events][:2] == ["red runner, blue runner 3 1 5", "0 1 1 0"]


def test_reset_names_a_variable(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("reset tempo", "reset temp"))
    d = next(d for d in diags if d.code == "E201")
    assert d.message == "`temp` is not a variable declared with `var`"
    assert d.hint == "did you mean `tempo`?"
    assert (d.span.line, d.span.col) == (20, 5)
