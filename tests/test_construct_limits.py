"""Counters with limits: `var NAME ... = init min A max B`. `add`, `subtract` and `set` keep the
value within the limits (a token pile that holds at most 3, a score that never goes below 0).

A tiny game made for the test (no rulebook): a runner collects stun tokens (at most 3) and
each side spends tempo that never goes below 0.
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Limits"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a
var stunned per piece = 0 max 3          [source: "Tokens"]
var tempo per side = 2 min 0 max 5
var round = 0 min -1
var free = 0

flow:
    let p = first(pieces of red)
    add 2 to p.stunned
    add 2 to p.stunned
    log "stunned {p.stunned}"
    subtract 1 from p.stunned
    log "stunned {p.stunned}"
    subtract 3 from red.tempo
    add 9 to blue.tempo
    log "tempo {red.tempo} {blue.tempo}"
    set blue.tempo = -4
    subtract 7 from round
    add 7 to free
    log "tempo {blue.tempo}, round {round}, free {free}"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "limits", {"game.lumos": game_text, "board.yaml": BOARD})


def test_add_subtract_and_set_stay_within_the_limits(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert [e["event"] for e in state.events] == [
        "stunned 3", "stunned 2", "tempo 0 5", "tempo 0, round -1, free 7", "the game ends in a draw"]


def errors(tmp_path, old, new):
    cg, diags, _ = make_game(tmp_path, GAME.replace(old, new))
    assert cg is None
    return [d for d in diags if d.severity == "error"]


def test_limits_the_wrong_way_round(tmp_path):
    d, = errors(tmp_path, "2 min 0 max 5", "2 min 5 max 0")
    assert d.code == "E210"
    assert d.message == "the limits of `tempo` are the wrong way round: min 5 is above max 0"
    assert (d.span.line, d.span.col) == (8, 28)


def test_a_start_outside_the_limits(tmp_path):
    d, = errors(tmp_path, "stunned per piece = 0 max 3", "stunned per piece = 4 max 3")
    assert (d.code, d.message) == ("E210", "`stunned` starts at 4, outside its limits")
    assert (d.span.line, d.span.col) == (7, 25)


def test_only_numbers_have_limits(tmp_path):
    d = errors(tmp_path, "var free = 0", "var free = false max 1")[0]
    assert (d.code, d.message) == ("E203", "only a number can have limits; `free` holds true or false")
    assert (d.span.line, d.span.col) == (10, 1)


def test_a_limit_is_a_whole_number(tmp_path):
    d, = errors(tmp_path, "max 3 ", 'max "three" ')
    assert (d.code, d.message) == ("E203", "a limit of `stunned` must be a whole number")
    assert (d.span.line, d.span.col) == (7, 31)


def test_limits_may_come_in_either_order(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("2 min 0 max 5", "2 max 5 min 0"))
    assert cg is not None, [d.headline() for d in diags]
