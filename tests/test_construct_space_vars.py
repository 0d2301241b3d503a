"""`var NAME per space`: one value per space of the board (whose mark is on a square, which
disc fills a hole), read as `s.NAME` or `NAME of s`, set with `set s.NAME = ...`, written
and read back by positions space by space, shown to every side. The near misses get a
positioned error pointing at it: `mark off, off` (E220), a constant per space (E222), a
variable per space holding cards (E221).

A tiny game made for the test (no rulebook), and the tic-tac-toe of examples/.
"""
from pathlib import Path

from lumos.api import load_position
from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

from support.sources import write_game

ROOT = Path(__file__).resolve().parents[1]

BOARD = """\
name: Row
grid:
  columns: abc
  rows: 1
  links:
    orthogonal: orthogonal
  legend:
    o: {colour: grey}
  map: |
    o o o
"""

GAME = """\
game "Claims"
board "board.yaml"
sides red, blue
var owner: side per space = none
var tally per space = 0 max 2
var turns = 0

action claim:
    with s in spaces where owner of it is none
    label "claim {s}"
    set s.owner = me
    add 5 to s.tally

flow:
    loop:
        do one of claim by current
        add 1 to turns
        if turns == 2:
            log "{spaces where it.owner is red} / {spaces where owner of it is blue} / {sum(spaces.tally)}"
            reset owner
            log "{count(spaces where it.owner is not none)} {a1.tally}"
            end in a draw
        set current = other(current)
"""


def make(tmp_path, text=GAME):
    return write_game(tmp_path, "claims", {"game.lumos": text, "board.yaml": BOARD})


def test_each_space_keeps_its_own_value(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert [o["label"] for o in state.options()] == ["claim a1", "claim b1", "claim c1"]
    state.apply_action(state.option_index(label="claim b1"))
    # b1 is claimed: it is no longer offered
    assert [o["label"] for o in state.options()] == ["claim a1", "claim c1"]
    state.apply_action(state.option_index(label="claim c1"))
    # `add 5` stays within `max 2`; `reset owner` clears every space but not the other variable
    assert [e["event"] for e in state.events][:2] == ["b1 / c1 / 4", "0 0"]


def test_every_side_sees_what_lies_on_each_space(tmp_path):
    cg, _, _ = make(tmp_path)
    state = GameState.new(cg, seed=1, forced="take")
    state.apply_action(state.option_index(label="claim a1"))
    obs = state.observation(1)
    assert obs["spaces"]["a1"] == {"owner": "red", "tally": 2}
    assert obs["spaces"]["b1"] == {"owner": None, "tally": 0}


def test_positions_write_and_read_space_variables_by_space_name(tmp_path):
    cg, _, _ = make(tmp_path)
    state = GameState.new(cg, seed=1, forced="take")
    state.apply_action(state.option_index(label="claim a1"))
    written = state.position()
    assert written["space_vars"]["owner"] == {"a1": "red", "b1": None, "c1": None}
    again = load_position(cg, written)
    assert [o["label"] for o in again.options()] == [o["label"] for o in state.options()]
    given = load_position(cg, {"space_vars": {"owner": {"c1": "blue"}}})
    assert [o["label"] for o in given.options()] == ["claim a1", "claim b1"]


def test_a_game_without_space_variables_has_no_such_section(tmp_path):
    cg, _, _ = make(tmp_path, GAME.replace("var owner: side per space = none\n", "var owner: side = none\n")
                    .replace("var tally per space = 0 max 2\n", "")
                    .replace("owner of it is none", "owner is none").replace("set s.owner = me", "set owner = me")
                    .replace("    add 5 to s.tally\n", "")
                    .replace('log "{spaces where it.owner is red} / {spaces where owner of it is blue} / {sum(spaces.tally)}"', 'log "x"')
                    .replace('log "{count(spaces where it.owner is not none)} {a1.tally}"', 'log "y"'))
    assert cg is not None
    state = GameState.new(cg, seed=1, forced="take")
    assert "space_vars" not in state.position()
    assert "xv" not in state.st.to_dict()   # the state (and its logged hash) as before space variables


def _diag(tmp_path, text, code):
    cg, diags, _ = make(tmp_path, text)
    found = [d for d in diags if d.code == code]
    assert found, [d.headline() for d in diags]
    return found[0]


def test_several_offs_on_one_line_point_to_space_variables(tmp_path):
    text = GAME.replace("sides red, blue\n", "sides red, blue\nkinds mark\npieces of red:\n    mark off, off, off\n")
    d = _diag(tmp_path, text, "E220")
    assert d.message == "`mark off` declares one piece: write one line per piece"
    assert "var mark: side per space = none" in d.hint and "mark of s" in d.hint
    assert (d.span.line, d.span.col) == (6, 5)


def test_a_constant_per_space_belongs_in_the_board_file(tmp_path):
    d = _diag(tmp_path, GAME.replace("var turns = 0\n", "var turns = 0\nconst worth per space = 1, 2, 3\n"), "E222")
    assert d.message == "`worth` cannot be a constant per space"
    assert "board file" in d.hint and "var NAME per space" in d.hint


def test_a_space_variable_holds_no_cards(tmp_path):
    d = _diag(tmp_path, GAME.replace("var turns = 0\n", "var turns = 0\nvar pile: card per space = none\n"), "E221")
    assert d.message == "a variable per space cannot hold cards; `pile` holds a card"


def test_a_space_variable_may_not_hide_a_board_attribute(tmp_path):
    d = _diag(tmp_path, GAME.replace("var turns = 0\n", "var turns = 0\nvar colour per space = 0\n"), "E206")
    assert d.message == "spaces already have an attribute `colour`"


def _tic_tac_toe():
    folder = ROOT / "examples" / "tic-tac-toe"
    cg, diags, _ = check_game(GameSources("tic-tac-toe", folder, None, None))
    assert cg is not None, [d.headline() for d in diags]
    return cg


def test_tic_tac_toe_three_marks_in_a_line_win():
    """Tic-tac-toe: "Three in a row wins" — a column, written as one of the game's lines."""
    cg = _tic_tac_toe()
    state = load_position(cg, {"space_vars": {"mark": {"a1": "x", "a2": "x", "b1": "o", "c1": "o"}}})
    state.apply_action(state.option_index(label="mark a3"))
    assert state.is_terminal() and state.returns() == [1, -1]


def test_tic_tac_toe_a_full_board_without_a_line_is_a_draw():
    cg = _tic_tac_toe()
    marks = {"a1": "x", "b1": "o", "c1": "x", "a2": "x", "b2": "o", "c2": "o", "a3": "o", "b3": "x"}
    state = load_position(cg, {"space_vars": {"mark": marks}})
    assert [o["label"] for o in state.options()] == ["mark c3"]
    state.apply_action(0)
    assert state.is_terminal() and state.returns() == [0, 0]
