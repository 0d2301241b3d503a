"""A variable that holds a list (`var rolled: list of text = []`), and lists joined with `+`:
how the rules hand a die roll's own faces to the cards played in a window after it ("the
Steal rolled fewer than two Successes"), not only the total after modifiers.

A tiny game made for the test (no rulebook), with its own small card schema.
"""
from lumos.interpreter.engine import GameState

from support.sources import DOT_BOARD, card_schema, write_game

BOARD = DOT_BOARD

SCHEMA = card_schema("rolls", {"text": {"type": "string"}, "effect": {"type": "string"}, "condition": {"type": "string"}})

CARDS = """\
cards:
  - name: Second Wind
    type: swift
    text: "After a roll with fewer than two hits: add 1 hit."
    condition: count(rolled where it == "hit") < 2
    effect: |
      add 1 to bonus
      log "{card.name} sees {rolled}"
"""

GAME = """\
game "Rolls"
board "board.yaml"
schema "rolls.schema.json"
sides red, blue
die red_die faces "hit", "hit", "blank"
die blue_die faces "hit", "blank", "blank"
var rolled: list of text = []
var bonus = 0
var kept: list of text per side = []

flow:
    roll a with 2 red_die by red
    roll b with 1 blue_die by red
    set rolled = a + b
    add "extra" to red.kept
    add b to red.kept
    subtract "extra" from red.kept
    for each c in cards where playable(it, red):
        play c by red
    log "{count(rolled)} faces, {count(rolled where it == \\"hit\\") + bonus} hits, kept {red.kept}"
    end in a draw
"""


def make(tmp_path, game=GAME, cards=CARDS):
    return write_game(tmp_path, "rolls", {"game.lumos": game, "board.yaml": BOARD},
                      cards={"swift.yaml": cards}, schemas={"rolls.schema.json": SCHEMA})


def _events(cg, faces):
    state = GameState.new(cg, seed=1, log=True)
    for face in faces:     # force the dice: one chance decision per die
        state.apply_action(state.option_index(label=face) if face in state.action_labels() else
                           next(i for i, o in enumerate(state.options()) if o["args"] and
                                next(iter(o["args"].values())) == face))
    return [e["event"] for e in state.events if " rolled " not in e["event"]]


def test_a_card_reads_the_faces_of_the_roll(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    assert _events(cg, ["hit", "blank", "blank"])[:2] == [
        "Second Wind sees hit, blank, blank", "3 faces, 2 hits, kept blank"]


def test_a_roll_with_two_hits_does_not_let_the_card_be_played(tmp_path):
    cg, _, _ = make(tmp_path)
    assert _events(cg, ["hit", "hit", "blank"])[0] == "3 faces, 2 hits, kept blank"


def test_a_list_variable_says_what_it_holds(tmp_path):
    cg, diags, _ = make(tmp_path, GAME.replace("var rolled: list of text = []", "var rolled = []"))
    d = next(d for d in diags if d.code == "E225")
    assert d.message == "say what the list `rolled` holds"
    assert d.hint == "write `var rolled: list of text = []` (or number, side, piece, space, card, ...)"
    assert (d.span.line, d.span.col) == (7, 14)


def test_lists_joined_with_plus_are_of_one_kind(tmp_path):
    cg, diags, _ = make(tmp_path, GAME.replace("set rolled = a + b", "set rolled = a + 3"))
    d = next(d for d in diags if d.code == "E203")
    assert d.message == "`+` joins lists of one kind: a number after a list of texts"


def test_positions_write_and_read_list_variables(tmp_path):
    from lumos.api import load_position
    cg, _, _ = make(tmp_path)
    state = GameState.new(cg, seed=1)
    written = state.position()
    assert written["vars"]["rolled"] == [] and written["side_vars"]["kept"] == {"red": [], "blue": []}
    again = load_position(cg, {"vars": {"rolled": ["hit", "hit"]}, "side_vars": {"kept": {"blue": ["blank"]}}})
    assert again.position()["vars"]["rolled"] == ["hit", "hit"]
    assert again.position()["side_vars"]["kept"]["blue"] == ["blank"]
