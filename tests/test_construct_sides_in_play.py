"""`remove SIDE from play`: a side that takes no part in this game (an unchosen seat).

A tiny game made for the test (no rulebook): three sides; an option says how many play;
the set-up removes the others. Then `sides` lists only the sides in play, `other` skips
the removed ones, and `win` gives a removed side 0 (it neither wins nor loses).
"""
from pathlib import Path

import lumos.cards
from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"
BOARD = "name: Dot\nspaces:\n  - {name: a, pos: [0, 0]}\n"

GAME = """\
game "Seats"
board "board.yaml"
sides red, green, blue
option players = 2 choices 2, 3                [source: "Seats"]
const seat per side = 1, 2, 3                  [source: "Seats"]
var turns = 0                                  [source: "Seats"]

setup [source: "Seats"]:
    for each s in sides where it.seat > players:
        remove s from play
    log "in play: {sides}"

flow [source: "Seats"]:
    loop:
        choose by current:
            option "win":
                win current
            option "pass":
                log "{current} passes to {other(current)}"
        add 1 to turns
        set current = other(current)
"""


def make(tmp_path: Path, text: str = GAME):
    rules = tmp_path / "seats"
    rules.mkdir()
    (rules / "game.lumos").write_text(text)
    (rules / "board.yaml").write_text(BOARD)
    return check_game(GameSources("seats", rules, None, SCHEMA_DIR))


def test_removed_sides_are_skipped_and_get_no_result(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, options={"players": 2}, log=True)
    state.apply_action(state.action_labels().index("pass"))     # red passes to green
    assert state.current_player() == 1
    state.apply_action(state.action_labels().index("pass"))     # green passes to red: blue is out
    assert state.current_player() == 0
    state.apply_action(state.action_labels().index("win"))
    assert state.returns() == [1.0, -1.0, 0.0]
    events = [e["event"] for e in state.events]
    assert events[:2] == ["blue takes no part in this game", "in play: red, green"]
    assert "green passes to red" in events


def test_with_every_side_in_play_nothing_changes(tmp_path):
    cg, _, _ = make(tmp_path)
    state = GameState.new(cg, seed=1, options={"players": 3}, log=True)
    for _ in range(2):
        state.apply_action(state.action_labels().index("pass"))
    assert state.current_player() == 2
    state.apply_action(state.action_labels().index("win"))
    assert state.returns() == [-1.0, -1.0, 1.0]


def test_only_a_side_can_be_removed_from_play(tmp_path):
    cg, diags, _ = make(tmp_path, GAME.replace("remove s from play", "remove 3 from play"))
    d = next(d for d in diags if d.code == "E203")
    assert "the side removed from play" in d.message
    assert (d.span.line, d.span.col) == (10, 16)


def test_near_misses_of_remove_from_play_are_explained(tmp_path):
    for i, wrong in enumerate(("remove s from the game", "remove s")):
        folder = tmp_path / str(i)
        folder.mkdir()
        cg, diags, _ = make(folder, GAME.replace("remove s from play", wrong))
        d = next(d for d in diags if d.code.startswith("L"))
        assert (d.code, d.message) == ("L101", "a side is removed with `remove SIDE from play`")
        assert d.span.line == 10
        assert d.hint == "write `remove s from play` (the side takes no further part in the game)"


REMEMBERED = """\
game "Seats"
board "board.yaml"
sides red, green, blue
const seat per side = 1, 2, 3                  [source: "Seats"]

# both parts read no position: remembered per (s, t) while lowering (compiler/purity.py), unless
# a side can leave play: then `other` reads who has left
function passes_to(s, t) = other(s) is t and t.seat > 0

procedure say(a, b):
    if passes_to(a, b):
        log "blue is next"
    else:
        log "green is next"

flow [source: "Seats"]:
    say(red, blue)
    remove green from play
    say(red, blue)
    win red
"""


def test_other_is_not_remembered_across_a_side_leaving_play(tmp_path):
    """After green leaves, the side after red is blue: a part remembered from before (when it was
    green) would say otherwise."""
    cg, diags, _ = make(tmp_path, REMEMBERED)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True)
    events = [e["event"] for e in state.events]
    assert [e for e in events if e.endswith("is next")] == ["green is next", "blue is next"]
