"""`when` triggers: rules that run each time a generic verb announces an event.

A tiny game made for the test (no rulebook): two sides race a token round a ring;
a trigger scores a point whenever a piece is placed on the bonus space.
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Ring
palette: {plain: "#cccccc"}
rings:
  - name: ring
    count: 6
    prefix: r
    link: step
    attrs: {colour: plain}
regions:
  bonus: [r3]
"""

GAME = """\
game "Ring race"
board "board.yaml"
sides red, blue
pieces of red:
    runner at r1
pieces of blue:
    runner at r4
kinds runner
var points per side = 0
var turns = 0

when placed(p, s) if s in bonus [source: "Test > Bonus"]:
    add 1 to p.side.points

procedure step(side):
    let p = first(pieces of side)
    choose to from reach from p.space by step up to 1 onto t where occupant(t) is none by side
    if to is not none:
        place p at to

flow:
    loop:
        step(current)
        add 1 to turns
        if turns >= 6:
            end in a draw
        set current = other(current)
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "ring", {"game.lumos": game_text, "board.yaml": BOARD})


def test_trigger_runs_when_its_event_happens(tmp_path):
    """A `when placed(...)` rule runs right after a piece lands on the bonus space."""
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, forced="take")
    labels = state.action_labels()
    assert labels == ["r2", "r6"], labels
    state.apply_action(0)           # red runner r1 -> r2: no bonus
    assert state.st.sv[0] == [0, 0]
    state.apply_action(state.action_labels().index("r3"))  # blue runner r4 -> r3: bonus
    assert state.st.sv[0] == [0, 1]


def test_unknown_event_is_reported_with_a_hint(tmp_path):
    """Triggers name one of the events the verbs announce."""
    cg, diags, _ = make_game(tmp_path, GAME.replace("when placed(p, s)", "when placd(p, s)"))
    assert cg is None
    d = next(d for d in diags if d.code == "E209")
    assert d.message == "unknown event `placd`"
    assert d.hint == "did you mean `placed`?"
    assert (d.span.line, d.span.col) == (12, 1)


def test_trigger_arity_is_checked(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("when placed(p, s)", "when placed(p)"))
    d = next(d for d in diags if d.code == "E204")
    assert d.message == "`placed` gives 2 value(s), not 1"
