"""Dice with text faces and dice pools: `die NAME faces "hit", ...`, `roll x with DIE by SIDE`
gives a face of the die's kind (text or number), `roll xs with 2 orange and 1 black by SIDE`
gives the list of faces, one chance node per die.

A tiny game made for the test (no rulebook): each side rolls a pool and counts its symbols.
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
game "Pools"
board "board.yaml"
sides red, blue
die orange faces "hit", "hit", "double hit", "blank", "blank", "block"
die black faces "block", "blank"
die d3 faces 1, 2, 3
var hits per side = 0
var extra = 1

procedure attack(s):
    roll results with 2 orange and extra black by s
    set s.hits = count(results where it == "hit") + 2 * count(results where it == "double hit")
    log "{s} rolled {results}: {s.hits} hits, {count(results where it == \\"block\\")} blocks"

flow:
    roll face with orange by red
    if face == "blank":
        log "a blank"
    roll n with d3 by blue
    add n to blue.hits
    attack(red)
    set extra = 0
    roll none_rolled with 0 orange by blue
    log "{count(none_rolled)} dice"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "pools", {"game.lumos": game_text, "board.yaml": BOARD})


def test_text_faces_and_a_pool_one_chance_node_per_die(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=3, log=True, forced="take")
    assert state.is_chance_node()
    # faces that repeat are one outcome, twice as likely (issue: options that do the same are one)
    assert state.action_labels() == ["roll hit", "roll double hit", "roll blank", "roll block"]
    assert [p for _, p in state.chance_outcomes()] == [2 / 6, 1 / 6, 2 / 6, 1 / 6]
    state.apply_action(state.option_index("roll blank"))     # orange: blank
    state.apply_action(state.option_index("roll 2"))         # d3: 2
    assert state.st.sv[0] == [0, 2]
    outcomes = []
    for face in ("double hit", "hit", "block"):              # pool: orange double hit, orange hit, black block
        assert state.is_chance_node()
        outcomes.append(state.chance_outcomes())
        state.apply_action(state.option_index(f"roll {face}"))
    assert [len(o) for o in outcomes] == [4, 4, 2]
    assert state.is_terminal()
    texts = [e["event"] for e in state.events]
    assert "a blank" in texts
    assert "red rolled double hit, hit, block" in texts
    assert "red rolled double hit, hit, block: 3 hits, 1 block" in texts
    assert "blue rolled no dice" not in texts and "0 dice" in texts  # an empty pool logs no roll
    assert state.st.sv[0] == [3, 2]


def test_a_pool_survives_json_between_its_dice(tmp_path):
    cg, _, _ = make_game(tmp_path)
    state = GameState.new(cg, seed=3, forced="take")
    state.apply_action(state.option_index("roll hit"))
    state.apply_action(state.option_index("roll 1"))
    state.apply_action(state.option_index("roll double hit"))   # first die of the pool
    copy = GameState.from_json(cg, state.to_json())
    for s in (state, copy):
        s.apply_action(s.option_index("roll hit"))
        s.apply_action(s.option_index("roll blank"))
    assert copy.st.sv == state.st.sv == [[3, 1]]   # hit + double hit; d3 rolled 1


def test_random_games_are_deterministic(tmp_path):
    cg, _, _ = make_game(tmp_path)
    runs = []
    for _ in range(2):
        s = GameState.new(cg, seed=7, log=True, forced="take")
        while not s.is_terminal():
            s.apply_action(s.sample_chance())
        runs.append([e["event"] for e in s.events])
    assert runs[0] == runs[1]


def test_a_text_face_compared_with_a_number_is_an_error(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace('if face == "blank":', "if face == 2:"))
    assert cg is None
    d = next(d for d in diags if d.code == "E203")
    assert d.message == "cannot compare a text with a number"
    assert (d.span.line, d.span.col) == (17, 8)


def test_faces_of_one_die_are_all_numbers_or_all_texts(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace('faces "block", "blank"', 'faces "block", 0'))
    d = next(d for d in diags if d.code == "E203")
    assert d.message == "the faces of die `black` must be all numbers or all texts"
    assert (d.span.line, d.span.col) == (5, 1)


def test_a_pool_mixing_text_and_number_dice_is_an_error(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("and extra black", "and extra d3"))
    d = next(d for d in diags if d.code == "E203")
    assert d.message == ("the dice of one roll must all have number faces or all text faces; "
                         "`d3` has number faces")
    assert (d.span.line, d.span.col) == (11, 36)


def test_unknown_die_in_a_pool(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("and extra black", "and extra blak"))
    d = next(d for d in diags if d.code == "E209")
    assert d.message == "unknown die `blak`" and d.hint == "did you mean `black`?"
