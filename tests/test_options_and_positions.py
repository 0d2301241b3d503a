"""Options and positions as data (DESIGN.md, "Runtime model": options are data, positions are data).

- every option is a record: label, kind, the rule that offers it (name and rulebook section),
  its arguments by name, its id in the game's fixed action space;
- options that do the same (copies of one card, two equal dice faces) are one option, and
  labels are unique within a decision;
- the single-option policy: by default every decision is asked, even with one option;
  `forced="take"` takes forced ones at once;
- a position written at any decision point reads back to the same options and the same
  continuation; a position for one side leaves out what it cannot see; mistakes in a
  position file are reported at their line and column;
- replaying a log state by state needs no `sample_chance()`.

The small game "Hands" is made for these tests (no rulebook); the round trips run on every
bundled game.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lumos.cards
from lumos.api import action_space, bundled_games, load_game, load_position, new_game, replay_iter
from lumos.diagnostics import LumosCheckError
from lumos.interpreter.engine import GameState
from lumos.interpreter.play import play_game
from lumos.interpreter.agents import RandomAgent

from support.sources import write_game

SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"

BOARD = """\
name: Line
spaces:
  - {name: a, pos: [0, 0]}
  - {name: b, pos: [1, 0]}
  - {name: c, pos: [2, 0]}
links:
  - [a, b, step]
  - [b, c, step]
"""

CARDS = """\
cards:
  - {name: Dash, type: plain, copies: 2}
  - {name: Leap, type: plain}
"""

GAME = """\
game "Hands"
board "board.yaml"
schema "card.schema.json"
sides red, blue
kinds runner
pieces of red:
    runner at a
pieces of blue:
    runner at c
zone pile shared hidden
zone hand per side owner
die coin faces "head", "head", "tail"
var score per side = 0

action hop [source: "Moving"]:
    with p in me.pieces
    with to in reach from p.space by step up to 1 onto t where occupant(t) is none
    label "hop to {to}"
    place p at to

flow:
    put cards into red.hand
    choose c from red.hand by red label "play {c}"
    put c into pile
    choose n from [7] by blue label "say {n}"
    roll f with coin by red
    if f == "head":
        add 1 to red.score
    do one of hop by red
    end in a draw
"""


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hands")
    cg, diags, _ = write_game(tmp, "hands", {"game.lumos": GAME, "board.yaml": BOARD},
                              cards={"deck.yaml": CARDS}, schema_dir=SCHEMA_DIR)
    assert cg is not None, [d.headline() for d in diags]
    return cg


def test_an_option_is_a_record_of_what_it_does(hands):
    state = GameState.new(hands, seed=1)
    options = state.options()
    assert [o["label"] for o in options] == ["play Dash", "play Leap"]
    assert {o["kind"] for o in options} == {"card"}
    assert options[0]["args"] == {"c": "Dash"} and options[0]["rule"] == {"name": "flow", "section": ""}
    assert json.loads(json.dumps(options)) == options          # plain data
    space = action_space(hands)
    assert [space[o["id"]] for o in options] == [("choose", "flow: choose c", "Dash"),
                                                 ("choose", "flow: choose c", "Leap")]


def test_copies_of_one_card_are_one_option(hands):
    state = GameState.new(hands, seed=1)
    assert len(state.st.zones[hands.zone_id("hand", 0)]) == 3     # Dash, Dash, Leap
    assert state.action_labels() == ["play Dash", "play Leap"]


def test_a_single_option_is_asked_by_default_and_taken_when_told(hands):
    state = GameState.new(hands, seed=1)
    state.apply_action(state.option_index("play Leap"))
    assert state.current_player() == 1 and state.action_labels() == ["say 7"]
    taking = GameState.new(hands, seed=1, forced="take")
    taking.apply_action(taking.option_index("play Leap"))
    assert taking.is_chance_node()                     # "say 7" was taken without asking


def test_equal_faces_are_one_outcome_and_twice_as_likely(hands):
    state = GameState.new(hands, seed=1, forced="take")
    state.apply_action(0)
    assert state.action_labels() == ["roll head", "roll tail"]
    assert state.chance_outcomes() == [(0, 2 / 3), (1, 1 / 3)]


def test_an_action_option_names_its_rule_section_and_arguments(hands):
    state = GameState.new(hands, seed=1)
    state.apply_action(0)
    state.apply_action(state.option_index("say 7"))
    state.apply_action(state.option_index("roll tail"))
    [hop] = state.options()
    assert hop["kind"] == "action" and hop["label"] == "hop to b"
    assert hop["rule"] == {"name": "hop", "section": "Moving"} and hop["args"] == {"p": "red runner", "to": "b"}
    assert state.option_index(to="b") == 0
    state.apply_action_id(hop["id"])
    assert state.is_terminal() and state.position()["pieces"]["red runner"] == "b"


def test_forcing_a_chance_outcome_needs_no_sampling_first(hands):
    """Applying a chance outcome advances the generator as drawing it would: a game where the
    outcome was sampled and one where the same outcome was applied directly stay equal."""
    a = GameState.new(hands, seed=5, forced="take")
    b = GameState.new(hands, seed=5, forced="take")
    for s in (a, b):
        s.apply_action(0)
    drawn = a.sample_chance()
    assert a.sample_chance() == drawn                 # looking does not draw
    a.apply_action(drawn)
    b.apply_action(drawn)
    assert a.to_json() == b.to_json()


# ---------------------------------------------------------------- every bundled game
def _walk(cg, seed: int, decisions: int, rnd: random.Random):
    state = new_game(cg, seed=seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rnd.randrange(len(state.legal_actions())))
    return state


@pytest.mark.parametrize("game", bundled_games())
def test_random_playouts_keep_the_option_contract(game):
    """What OpenSpiel's random_sim_test asks of a game, over options and the action space:
    labels unique and ids unique and fixed, chance outcomes summing to one, an option's id
    naming the same option in every state, returns only at the end."""
    cg = load_game(game)
    space = action_space(cg)
    seen: dict[int, tuple] = {}
    for seed in range(3):
        rnd = random.Random(seed)
        state = new_game(cg, seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            options = state.options()
            labels = [o["label"] for o in options]
            ids = state.legal_action_ids()
            assert len(set(labels)) == len(labels) and len(set(ids)) == len(ids)
            assert all(0 <= i < len(space) for i in ids) and sum(state.action_mask()) == len(ids)
            for o in options:   # a die's face and the "no" of a `may` are one id wherever they are offered
                rule = "" if o["kind"] in ("chance", "pass") else o["rule"]["name"]
                key = (o["kind"], rule, json.dumps(o["args"], sort_keys=True))
                assert seen.setdefault(o["id"], key) == key, (o, seen[o["id"]])
            if state.is_chance_node():
                assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
                state.apply_action(state.sample_chance())
            else:
                assert state.returns() == [0.0] * cg.nsides
                state.apply_action_id(rnd.choice(ids))


@pytest.mark.parametrize("game", bundled_games())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), decisions=st.integers(0, 160))
def test_a_written_position_reads_back_to_the_same_game(game, seed, decisions):
    """Round trip at a random decision point: the same position, the same options, and the
    same continuation for 30 more decisions."""
    cg = load_game(game)
    state = _walk(cg, seed, decisions, random.Random(seed))
    if state.is_terminal():
        return
    written = json.loads(json.dumps(state.position()))
    loaded = load_position(cg, written)
    assert loaded.position() == written
    rnd = random.Random(seed + 1)
    for _ in range(30):
        assert loaded.action_labels() == state.action_labels()
        if state.is_terminal():
            break
        k = state.sample_chance() if state.is_chance_node() else rnd.randrange(len(state.legal_actions()))
        state.apply_action(k)
        loaded.apply_action(k)
    assert loaded.returns() == state.returns()


def test_a_position_for_one_side_hides_what_it_cannot_see(hands):
    state = GameState.new(hands, seed=1)
    seen_by_blue = state.position(for_side=1)
    assert seen_by_blue["zones"]["red hand"] == {"hidden": 3}
    assert seen_by_blue["zones"]["pile"] == {"hidden": 0}
    assert "rng" not in seen_by_blue and "at" not in seen_by_blue
    assert state.position(for_side=0)["zones"]["red hand"] == ["Dash", "Dash", "Leap"]


def test_a_position_written_by_hand(hands):
    state = load_position(hands, {"pieces": {"red runner": "b"}, "zones": {"red hand": ["Leap"]},
                                  "side_vars": {"score": {"blue": 2}}})
    assert state.action_labels() == ["play Leap"]          # the decision is asked on the new layout
    pos = state.position()
    assert pos["pieces"]["red runner"] == "b" and pos["side_vars"]["score"] == {"red": 0, "blue": 2}
    # the cards a listed zone held and the position does not name go back to the box
    assert all("Dash" not in cards for cards in pos["zones"].values())


def test_whose_turn_it_is_is_written_by_name(hands):
    state = GameState.new(hands, seed=1)
    assert state.position()["current"] == "red"
    assert load_position(hands, state.position()).position()["current"] == "red"
    with pytest.raises(LumosCheckError) as err:
        load_position(hands, {"current": "green"})
    assert err.value.diagnostics[0].code == "P102" and "did you mean" not in err.value.diagnostics[0].message
    # red decides here: a position cannot say it is blue's turn without rules that give it to blue
    with pytest.raises(LumosCheckError) as err:
        load_position(hands, {"current": "blue"})
    (d,) = err.value.diagnostics
    assert d.code == "P104" and "red's turn, not blue's" in d.message and "start_of" in d.hint


def test_a_position_at_the_start_of_a_rule_on_a_chosen_sides_turn():
    """chamber-of-secrets-trivia.txt, "And the Match Is Under Way! > 1. Roll and Move": the
    teams take turns; `at: {start_of: take_turn}` with `current: slytherin` starts at the
    first turn of Slytherin (played on from the seed), so Slytherin rolls and moves, and the
    next turn is Gryffindor's."""
    cg = load_game("chamber-of-secrets-trivia")
    first = load_position(cg, {"at": {"start_of": "take_turn"}, "seed": 2})
    assert first.position()["current"] == "gryffindor"
    spot = load_position(cg, {"at": {"start_of": "take_turn"}, "seed": 2, "current": "slytherin"})
    assert spot.position()["current"] == "slytherin" and spot.is_chance_node()
    spot.apply_action(0)                                        # the die
    assert spot.current_player() == cg.sides.index("slytherin")
    assert all(label.startswith("move slytherin") for label in spot.action_labels())
    while not spot.is_chance_node():
        spot.apply_action(0)
    assert spot.position()["current"] == "gryffindor"
    with pytest.raises(LumosCheckError) as err:   # without `at`, the game's start: Gryffindor's turn
        load_position(cg, {"seed": 2, "current": "slytherin"})
    assert err.value.diagnostics[0].code == "P104"


def test_a_position_at_the_start_of_a_rule(hands):
    """`at: {start_of: hop}`: the game is played from its seed (first options) until `hop`
    starts; the layout is set there and the rule runs on."""
    state = load_position(hands, {"at": {"start_of": "hop"}, "seed": 3, "pieces": {"blue runner": None}})
    assert state.is_terminal()                              # hop places the runner, the game ends
    assert state.position()["pieces"]["red runner"] == "b"


def test_an_unknown_start_of_rule_gets_the_rules_names_in_its_hint():
    """A newcomer does not know the rules' names: a `start_of` that is none lists them
    (without the cards' own procedures), or the closest when one is close."""
    cg = load_game("snitch-snatcher")
    with pytest.raises(LumosCheckError) as err:
        load_position(cg, {"at": {"start_of": "nonsense"}})
    d = err.value.diagnostics[0]
    assert d.code == "P104" and "take_turn" in d.hint and "move_player" in d.hint and "card " not in d.hint
    with pytest.raises(LumosCheckError) as err:
        load_position(cg, {"at": {"start_of": "take_trun"}})
    assert err.value.diagnostics[0].hint == "did you mean `take_turn`?"


def test_more_copies_than_the_game_has_says_where_they_all_are():
    """P105 names where the position already put every copy, so the extra one can be found."""
    cg = load_game("snitch-snatcher")
    with pytest.raises(LumosCheckError) as err:
        load_position(cg, {"zones": {"home hand": ["Fly Sideways"] * 4, "home discard": ["Fly Sideways"] * 3}})
    d = err.value.diagnostics[0]
    assert d.code == "P105"
    assert d.message == "the game has 6 copies of `Fly Sideways`, and the position uses them all " \
                        "(4 in home hand, 2 in home discard)"
    assert "as many times as the game has copies" in d.hint


def test_mistakes_in_a_position_file_are_shown_at_their_place(hands, tmp_path):
    path = tmp_path / "spot.yaml"
    path.write_text("pieces:\n  red runer: b\nzones:\n  red hand: [Dahs]\nspeed: 3\n")
    with pytest.raises(LumosCheckError) as err:
        load_position(hands, path)
    got = [(d.code, d.span.line, d.span.col, d.message, d.hint) for d in err.value.diagnostics]
    assert ("P100", 5, 1, "a position has no `speed`", "did you mean `seed`?") in got
    assert ("P102", 2, 3, "no piece `red runer` in hands", "did you mean `red runner`?") in got
    assert ("P102", 4, 14, "no card `Dahs` in hands", "did you mean `Dash`?") in got
    card = next(d for d in err.value.diagnostics if "Dahs" in d.message)
    assert card.render(path.read_text().splitlines()).splitlines()[1:3] == ["    red hand: [Dahs]",
                                                                            " " * 15 + "^" * 4]


def test_a_log_replays_state_by_state(hands, tmp_path):
    log = tmp_path / "game.jsonl"
    with open(log, "w", encoding="utf-8") as fh:
        result = play_game(hands, [RandomAgent(1), RandomAgent(2)], seed=9, log=fh)
    states = list(replay_iter(hands, log))
    assert states[-1].is_terminal() and states[-1].returns() == result.returns
    records = [json.loads(line) for line in log.read_text().splitlines()]
    chosen = [r for r in records if "choice" in r]
    assert len(states) == len(chosen) + 1
    assert all("kind" in r and "args" in r for r in chosen)   # the log records options as data


def test_the_documented_position_example_reads():
    """docs/language.md, "Positions": the example is a position of Snitch Snatcher."""
    import re
    import yaml
    text = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(game: snitch-snatcher.*?)```", text, re.S).group(1)
    state = load_position(load_game("snitch-snatcher"), yaml.safe_load(block))
    pos = state.position()
    assert pos["pieces"]["home chaser 1"] == "c6" and pos["pieces"]["quaffle"] == {"carried_by": "home chaser 1"}
    assert pos["zones"]["home hand"] == ["Barrel Roll", "Bludger Rebound"]


def test_two_pieces_on_a_space_that_holds_one_is_an_error_at_the_piece():
    """A space holds one standing piece unless the board gives it a `capacity` (docs/language.md,
    "Spaces that hold several pieces"); `place` refuses a full space (R004), so a position that
    puts a second piece there describes no situation the game can reach: P106 at that piece,
    naming who already stands there (a piece the position does not name stays where it was)."""
    cg = load_game("snitch-snatcher")
    start = new_game(cg, seed=1).position()["pieces"]
    with pytest.raises(LumosCheckError) as err:     # home beater 1 starts on b4 and is not named
        load_position(cg, {"pieces": {"home chaser 1": start["home beater 1"]}})
    [d] = err.value.diagnostics
    assert d.code == "P106"
    assert d.message == f"`home chaser 1` cannot stand on `{start['home beater 1']}`: `home beater 1` already stands there and it holds 1"
    assert "does not name stays where it was" in d.hint
    with pytest.raises(LumosCheckError) as err:     # two named pieces: the second one is the mistake
        load_position(cg, {"pieces": {"home chaser 1": "c6", "home chaser 2": "c6"}})
    [d] = err.value.diagnostics
    assert d.code == "P106" and d.message.startswith("`home chaser 2` cannot stand on `c6`: `home chaser 1`")
    moved = load_position(cg, {"pieces": {"home chaser 1": start["home beater 1"], "home beater 1": "c6"}})
    assert moved.position()["pieces"]["home chaser 1"] == start["home beater 1"]


def test_a_space_without_a_limit_takes_every_piece_a_position_puts_there():
    """Catch the Golden Snitch's zones have `capacity: 0` (no limit): many players on one zone."""
    cg = load_game("catch-the-golden-snitch")
    state = new_game(cg, seed=1)
    pieces = [n for n, where in state.position()["pieces"].items() if isinstance(where, str)][:4]
    zone = state.position()["pieces"][pieces[0]]
    moved = load_position(cg, {"pieces": {n: zone for n in pieces}})
    assert all(moved.position()["pieces"][n] == zone for n in pieces)
