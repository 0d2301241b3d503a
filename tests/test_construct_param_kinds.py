"""Declared kinds of parameters: `procedure gain(s, colour: die)`, `function f(p: piece)` and
`var v: die = none`. A parameter with a kind checks each argument where the call is written,
so a die the game does not have is a compile-time error at its line and column (E209), and a
value of another kind is E203; a die kind compared with a text written out must name a die.

Two parts: a tiny game made for the test (no rulebook), and Catch the Golden Snitch, whose
card vocabulary takes dice colours ("Dice": "three different coloured dice"; "Dice Tokens":
Bonus and Penalty Dice tokens "of a specified colour").
"""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli import main
from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Kinds"
board "board.yaml"
sides red, blue
kinds pawn
pieces of red:
    pawn at a
die orange faces "hit", "blank"
die black faces "block", "blank"
var last: die = none
var tokens per side = 0

procedure take(s, colour: die):
    set last = colour
    if colour == "orange":
        add 1 to s.tokens
    log "{s} takes a {colour} token"

function owner(p: piece) = p.side

flow:
    take(red, "orange")
    take(blue, black)
    take(owner(first(pieces of red)), last)
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    rules = tmp_path / "kinds"
    rules.mkdir(exist_ok=True)
    (rules / "game.lumos").write_text(game_text)
    (rules / "board.yaml").write_text(BOARD)
    return check_game(GameSources("kinds", rules, None, None))


def errors(tmp_path, text):
    cg, diags, _ = make_game(tmp_path, text)
    return [(d.code, d.span.line, d.span.col, d.message, d.hint) for d in diags if d.severity == "error"]


def test_a_die_argument_is_a_text_naming_a_die_a_die_name_or_a_die_value(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True)
    assert state.is_terminal()
    events = [e["event"] for e in state.events]
    assert events == ["red takes a orange token", "blue takes a black token", "red takes a black token",
                      "the game ends in a draw"]


def test_an_unknown_die_is_an_error_where_the_call_is_written(tmp_path):
    text = GAME.replace('take(red, "orange")', 'take(red, "green")')
    assert errors(tmp_path, text) == [
        ("E209", 21, 15, "unknown die `green`", "dice: `orange`, `black`")]


def test_a_misspelt_die_gets_a_did_you_mean(tmp_path):
    text = GAME.replace('take(red, "orange")', 'take(red, "ornage")')
    assert errors(tmp_path, text) == [("E209", 21, 15, "unknown die `ornage`", "did you mean `orange`?")]


def test_a_text_that_could_be_anything_is_not_a_die(tmp_path):
    text = GAME.replace('take(red, "orange")', 'take(red, red.name)')
    [(code, line, col, message, hint)] = errors(tmp_path, text)
    assert (code, line, col) == ("E203", 21, 15)
    assert message == "argument `colour` of `take` should be a die (`orange`, `black`), not a text"
    assert hint == 'write the die\'s name, e.g. `"orange"`'


def test_comparing_a_die_with_a_text_that_names_no_die(tmp_path):
    text = GAME.replace('if colour == "orange":', 'if colour == "orang":')
    assert errors(tmp_path, text) == [("E209", 14, 18, "unknown die `orang`", "did you mean `orange`?")]


def test_a_die_variable_starts_and_is_set_to_dice_only(tmp_path):
    text = GAME.replace("var last: die = none", 'var last: die = "green"')
    assert [e[:4] for e in errors(tmp_path, text)] == [("E209", 9, 17, "unknown die `green`")]
    text = GAME.replace("    set last = colour", '    set last = "purple"')
    assert [e[:4] for e in errors(tmp_path, text)] == [("E209", 13, 16, "unknown die `purple`")]


def test_a_parameter_of_another_kind_checks_its_argument(tmp_path):
    text = GAME.replace("take(owner(first(pieces of red)), last)", "take(owner(red), last)")
    [(code, line, col, message, _hint)] = errors(tmp_path, text)
    assert (code, line, col) == ("E203", 23, 16)
    assert message == "argument `p` of `owner` should be a piece, not a side"


# ------------------------------------------------------------------ Catch the Golden Snitch

CARD = """\
cards:
  - name: Test Colour Gift
    type: tactical
    affiliation: [gryffindor]
    cost: 0
    blocks: [1]
    text: "A Bonus Dice token."
    effect: |
      gain_bonus_die(me, {colour})
"""


def ctgs_diagnostics(capsys, tmp_path, colour: str):
    path = tmp_path / "gift.yaml"
    path.write_text(CARD.format(colour=colour), encoding="utf-8")
    status = main(["check", "--format", "json", "--game", "catch-the-golden-snitch", str(path)])
    return status, [(d["code"], d["line"], d["column"], d["message"]) for d in json.loads(capsys.readouterr().out)]


def test_a_card_giving_a_green_bonus_die_does_not_compile(capsys, tmp_path):
    """Dice: the game has three colours of dice (orange, black, purple); Dice Tokens: a token
    adds 'dice of the same colour'. `gain_bonus_die(me, "green")` in a card effect is an error
    at the card's line and column, not a purple token at play time."""
    status, diags = ctgs_diagnostics(capsys, tmp_path, '"green"')
    assert status == 1
    assert diags == [("E209", 9, 26, "unknown die `green`")]


def test_every_dice_colour_of_the_game_compiles(capsys, tmp_path):
    """Dice: orange, black and purple are the game's dice; each is accepted, written as a text
    or as the die's name. (What each token does: test_cards_ctgs.py,
    `test_each_bonus_dice_card_gives_a_token_of_its_own_colour`.)"""
    for colour in ('"orange"', '"black"', '"purple"', "orange"):
        status, diags = ctgs_diagnostics(capsys, tmp_path, colour)
        assert status == 0 and diags == [], (colour, diags)
