"""Determinism of the engine, for every bundled game: a seed, the options and the choices
fix the whole game.

- the same seed, options and choices give the identical event log and final state
  (for Catch the Golden Snitch: team building, the roll for advantage, Kick-Off, the
  secret Pitch Actions cards, Intrepid Moves, the Snitch deck included);
- different seeds give different games;
- at random decision points, `GameState.from_json(cg, state.to_json())` and `clone()`
  continue exactly like the original (same events, same final state), and leave the
  original untouched;
- the serialised state stays small (under 64 KB);
- where a game has them: a restore at every kind of decision, games with team files, and
  `lumos simulate <game> -n 200 --seed 1 --json` completing every game without errors,
  both sides winning some.

The drivers (Trace, replay, continue_from) are tests/support/drivers.py; what differs
between games (options, how many examples, what a new deal looks like) is the data of
GAMES below.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumos.api import new_game
from lumos.cli import main
from lumos.compiler.teams import check_teams
from lumos.interpreter.engine import GameState

from support import sources
from support.drivers import Trace, continue_from, each_game, replay

MAX_STATE_BYTES = 64 * 1024
TEAM_FILES = Path(__file__).resolve().parents[1] / "examples" / "teams"

# A failing example prints its arguments, the compiled game among them (hundreds of KB);
# Hypothesis warns about that, and the warning (an error here) would hide the failure.
QUIET_REPR = pytest.mark.filterwarnings("ignore:Generating overly large repr")


@dataclass(frozen=True)
class Game:
    """What the determinism tests need to know of one bundled game."""

    name: str
    examples: int                          # Hypothesis examples per property
    options: st.SearchStrategy             # the options of a random game (None: the defaults)
    seeded_options: dict                   # the options of the seeded-options test
    seeded_check: Callable | None          # (cg, final JSON) -> None: the options show in the game
    opening: Callable                      # (cg, state) -> str: what a new game's seed decides
    opening_differs: str                   # the message when two seeds open alike
    round_trip_options: dict | None
    size_games: Callable                   # seed -> options, for the games whose states are measured
    size_seeds: int
    may_end_at_once: bool = True           # a traced game may apply no option at all
    dealt: Callable | None = None          # (cg, seed) -> str: the deal once set-up is past
    decision_kinds: tuple | None = None    # (options, at least): restore at every kind of decision
    team_pair: tuple[str, str] | None = None   # team files (home, away) for a replayed game
    simulate: bool = False                 # `lumos simulate -n 200`: every game ends with a winner


def _funding_is(cg, final: str) -> None:
    assert json.loads(final)["g"][cg.global_names.index("funding")] == 10


def _ctgs_deal(cg, seed: int) -> str:
    """Past team building (the same choices), the shuffled Snitch deck and Tactical hands."""
    state = new_game(cg, seed=seed, forced="take")
    while state.current_player() != 0 or "Pitch Actions" not in " ".join(state.action_labels()):
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
    return json.dumps([state.st.zones[cg.zone_id(z, s)] for z in ("snitch_deck", "hand") for s in range(cg.nsides)])


FUNDINGS = (3, 5, 7, 10)
GAMES = [
    Game("snitch-snatcher", examples=25, options=st.none(), seeded_options={"goals_to_win": 5},
         seeded_check=None,
         opening=lambda cg, state: json.dumps(state.st.zones),      # shuffled decks and dealt hands
         opening_differs="two seeds dealt the same cards",
         round_trip_options=None, size_games=lambda seed: None, size_seeds=15),
    Game("catch-the-golden-snitch", examples=10,
         options=st.fixed_dictionaries({"funding": st.sampled_from(FUNDINGS),
                                        "spectators": st.sampled_from(("off", "on"))}),
         seeded_options={"funding": 10, "spectators": "on"}, seeded_check=_funding_is,
         opening=lambda cg, state: json.dumps(state.st.rng),
         opening_differs="two seeds start from the same generator",
         round_trip_options={"funding": 7, "spectators": "on"},
         size_games=lambda seed: {"funding": FUNDINGS[seed % 4]}, size_seeds=8, may_end_at_once=False,
         dealt=_ctgs_deal, decision_kinds=({"funding": 5, "spectators": "off"}, 6),
         team_pair=("ravenclaw", "gryffindor"), simulate=True),
    Game("defenders-of-hogwarts", examples=8,
         options=st.fixed_dictionaries({"house_players": st.sampled_from((1, 2, 3, 4))}),
         seeded_options={"house_players": 4}, seeded_check=None,
         # the set-up waits on its first die (the Shields) before anything is dealt
         opening=lambda cg, state: json.dumps(state.st.rng),
         opening_differs="two seeds start from the same generator",
         round_trip_options={"house_players": 3}, size_games=lambda seed: {"house_players": seed % 4 + 1},
         size_seeds=8),
]


ALL = each_game(GAMES)


@pytest.fixture
def cg(game):
    return sources.shipped(game.name)


# ------------------------------------------------------------------ same seed, same choices

@QUIET_REPR
@pytest.mark.parametrize("game", ALL)
def test_same_seed_and_choices_same_game(game, cg):
    @settings(max_examples=game.examples, deadline=None)
    @given(seed=st.integers(0, 2**63 - 1), agent_seed=st.integers(0, 2**32), options=game.options)
    def same_game(seed, agent_seed, options):
        trace = Trace(cg, seed, agent_seed, options)
        again = replay(cg, seed, trace.applied, options)
        assert again.is_terminal()
        assert again.events == trace.events
        assert again.to_json() == trace.final
        assert again.returns() == trace.state.returns()
        # and a second run of the same agent makes the same choices
        assert Trace(cg, seed, agent_seed, options).applied == trace.applied
    same_game()


@pytest.mark.parametrize("game", ALL)
def test_options_are_part_of_the_seeded_game(game, cg):
    a = Trace(cg, 5, 5, game.seeded_options)
    b = replay(cg, 5, a.applied, game.seeded_options)
    assert b.to_json() == a.final
    if game.seeded_check is not None:
        game.seeded_check(cg, a.final)


@pytest.mark.parametrize("game", ALL)
def test_different_seeds_differ(game, cg):
    finals, openings = set(), set()
    for seed in range(12):
        state = new_game(cg, seed=seed, log=True, forced="take")
        openings.add(game.opening(cg, state))
        finals.add(Trace(cg, seed, 0).final)
    assert len(openings) == 12, game.opening_differs
    assert len(finals) == 12


@pytest.mark.parametrize("game", each_game(GAMES, "dealt"))
def test_different_seeds_deal_different_cards(game, cg):
    """Past set-up (the same choices), the shuffled decks and dealt hands differ."""
    deals = {game.dealt(cg, seed) for seed in range(12)}
    assert len(deals) == 12, "two seeds dealt the same cards"


@pytest.mark.parametrize("game", ALL)
def test_state_json_round_trips(game, cg):
    trace = Trace(cg, 11, 11, game.round_trip_options)
    for text, _ in trace.snapshots[::7]:
        restored = GameState.from_json(cg, text)
        assert restored.to_json() == text


@pytest.mark.parametrize("game", ALL)
def test_listing_options_leaves_the_state_as_it_was(game, cg):
    """Reading a decision's labels and option records never changes the game: a label may
    call functions (whose locals live in the frame), and a position written, a clone or a
    log taken after listing must be the one before it (found by the clone test on Defenders
    of Hogwarts: "use the {token_of(s)} ..." wrote a local of the House turn)."""
    for seed in range(3):
        rnd = random.Random(seed)
        state = new_game(cg, seed=seed, options=game.round_trip_options)
        silent = new_game(cg, seed=seed, options=game.round_trip_options)
        steps = 0
        while not state.is_terminal() and steps < 400:
            before = state.to_json()
            state.action_labels()
            state.options()
            assert state.to_json() == before, f"listing the options changed the state at step {steps}"
            index = state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions())
            assert silent.to_json() == before
            if silent.is_chance_node():
                silent.sample_chance()
            state.apply_action(index)
            silent.apply_action(index)
            steps += 1


# ------------------------------------------------------------------ restore and clone mid-game

@QUIET_REPR
@pytest.mark.parametrize("game", ALL)
def test_restore_and_clone_continue_identically(game, cg):
    @settings(max_examples=game.examples, deadline=None)
    @given(seed=st.integers(0, 2**63 - 1), agent_seed=st.integers(0, 2**32), options=game.options,
           where=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=3))
    def continues(seed, agent_seed, options, where):
        trace = Trace(cg, seed, agent_seed, options)
        if game.may_end_at_once and not trace.applied:
            return
        assert trace.applied
        for fraction in where:
            k = int(fraction * len(trace.applied))
            text, logged = trace.snapshots[k]

            # serialise / restore: a fresh state from JSON, logging from here on
            restored = GameState(cg, GameState.from_json(cg, text).st, [])
            assert restored.legal_actions() == list(range(len(json.loads(text)["pending"]["options"])))
            continue_from(restored, trace, k)
            assert restored.events == trace.events[logged:], f"events differ after restoring at step {k}"
            assert restored.to_json() == trace.final

            # clone: the copy continues identically and the original does not move
            original = replay(cg, seed, trace.applied[:k], options)
            assert original.to_json() == text
            labels = original.action_labels()
            copy = original.clone()
            assert copy.action_labels() == labels
            continue_from(copy, trace, k)
            assert copy.events[logged:] == trace.events[logged:]
            assert copy.to_json() == trace.final
            assert original.to_json() == text, "continuing a clone changed the original"
            assert original.action_labels() == labels
    continues()


@pytest.mark.parametrize("game", each_game(GAMES, "decision_kinds"))
def test_restore_at_every_kind_of_decision(game, cg):
    """A restore from each distinct decision's first occurrence (for Catch the Golden Snitch:
    team building, the roll for advantage, Kick-Off, Pitch Actions, Intrepid Moves, Actions,
    Snitch cards...) continues identically."""
    options, at_least = game.decision_kinds
    trace = Trace(cg, 21, 21, options)
    seen = set()
    picked = []
    for k, (text, _) in enumerate(trace.snapshots):
        state = GameState.from_json(cg, text)
        kind = (state.decision_kind(), tuple(cg.procs[f[0]].name for f in state.st.frames))
        if kind not in seen:
            seen.add(kind)
            picked.append(k)
    assert len(picked) >= at_least, seen
    for k in picked:
        text, logged = trace.snapshots[k]
        restored = GameState(cg, GameState.from_json(cg, text).st, [])
        continue_from(restored, trace, k)
        assert restored.events == trace.events[logged:], f"events differ after restoring at step {k}"
        assert restored.to_json() == trace.final


@pytest.mark.parametrize("game", each_game(GAMES, "team_pair"))
def test_games_with_team_files_replay_and_restore(game, cg):
    """Teams from team files: the same seed and choices give the same game, and a restore
    midway continues identically."""
    home, away = game.team_pair
    teams, diags = check_teams(cg, {"home": TEAM_FILES / f"{home}.yaml", "away": TEAM_FILES / f"{away}.yaml"})
    assert diags == []
    trace = Trace(cg, 8, 8, teams=teams)
    again = replay(cg, 8, trace.applied, teams=teams)
    assert again.events == trace.events and again.to_json() == trace.final
    k = len(trace.applied) // 2
    text, logged = trace.snapshots[k]
    restored = GameState(cg, GameState.from_json(cg, text).st, [])
    continue_from(restored, trace, k)
    assert restored.events == trace.events[logged:]
    assert restored.to_json() == trace.final


@pytest.mark.parametrize("game", ALL)
def test_serialised_state_is_small(game, cg):
    biggest = 0
    for seed in range(game.size_seeds):
        trace = Trace(cg, seed, seed, game.size_games(seed))
        biggest = max([biggest, len(trace.final.encode())] + [len(t.encode()) for t, _ in trace.snapshots])
    assert biggest < MAX_STATE_BYTES, f"a state serialised to {biggest} bytes"


# ------------------------------------------------------------------ the command line

@pytest.mark.parametrize("game", each_game(GAMES, "simulate"))
def test_simulate_200_games(game, capsys):
    """`lumos simulate <game> -n 200 --seed 1` completes 200/200 with no errors, both sides
    winning some (Catch the Golden Snitch, "Catch the Snitch!": every game has a winner)."""
    assert main(["simulate", game.name, "-n", "200", "--seed", "1", "--json", "-q"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 200
    assert summary["completed"] == 200, summary
    assert summary["errors"] == 0, summary["error_codes"]
    assert summary["wins"]["home"] > 0 and summary["wins"]["away"] > 0, summary["wins"]
    assert summary["wins"]["draw"] == 0, summary["wins"]
