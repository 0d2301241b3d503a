"""Determinism and save/restore of Catch the Golden Snitch (as tests/test_determinism.py for
Snitch Snatcher): a seed, the options and the choices fix the whole game.

- the same seed, options and choices give the identical event log and final state
  (team building, the roll for advantage, Kick-Off, the secret Pitch Actions cards,
  Intrepid Moves, the Snitch deck included);
- different seeds give different games;
- at random decision points, `GameState.from_json(cg, state.to_json())` and `clone()`
  continue exactly like the original (same events, same final state), and leave the
  original untouched;
- the serialised state stays small;
- `lumos simulate catch-the-golden-snitch -n 200 --seed 1 --json` completes every game,
  without errors, and both sides win some.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumos.api import load_game, new_game
from lumos.cli import main
from lumos.compiler.teams import check_teams
from lumos.interpreter.engine import GameState

GAME = "catch-the-golden-snitch"
MAX_STATE_BYTES = 64 * 1024
MAX_STEPS = 50_000
FUNDINGS = (3, 5, 7, 10)
TEAM_FILES = Path(__file__).resolve().parents[1] / "examples" / "teams"

# A failing example prints its arguments, the compiled game among them (hundreds of KB);
# Hypothesis warns about that, and the warning (an error here) would hide the failure.
QUIET_REPR = pytest.mark.filterwarnings("ignore:Generating overly large repr")


@pytest.fixture(scope="module")
def cg():
    return load_game(GAME)


class Trace:
    """One game played to the end: every option applied (chance included) and, before each
    apply, the state's JSON and how many events had been logged."""

    def __init__(self, cg, seed: int, agent_seed: int, options: dict | None = None, teams: dict | None = None):
        rnd = random.Random(agent_seed)
        state = GameState.new(cg, seed=seed, options=options, log=True, teams=teams)
        self.applied: list[int] = []
        self.snapshots: list[tuple[str, int]] = []
        self.chance: list[bool] = []
        while not state.is_terminal():
            assert len(self.applied) < MAX_STEPS
            self.snapshots.append((state.to_json(), len(state.events)))
            self.chance.append(state.is_chance_node())
            index = state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions())
            self.applied.append(index)
            state.apply_action(index)
        self.events = list(state.events)
        self.final = state.to_json()
        self.state = state


def replay(cg, seed: int, applied: list[int], options: dict | None = None, teams: dict | None = None):
    """Apply recorded options; chance is drawn again from the state's own generator and must
    agree with the record."""
    state = GameState.new(cg, seed=seed, options=options, log=True, teams=teams)
    for step, index in enumerate(applied):
        if state.is_chance_node():
            assert state.sample_chance() == index, f"chance differs at step {step}"
        state.apply_action(index)
    return state


def continue_from(state: GameState, trace: Trace, k: int) -> GameState:
    """Apply the trace's options from step k on; chance is drawn from the state's own generator."""
    for step in range(k, len(trace.applied)):
        if trace.chance[step]:
            assert state.is_chance_node()
            assert state.sample_chance() == trace.applied[step], f"chance differs at step {step}"
        state.apply_action(trace.applied[step])
    return state


OPTIONS = st.fixed_dictionaries({"funding": st.sampled_from(FUNDINGS), "spectators": st.sampled_from(("off", "on"))})


# ------------------------------------------------------------------ same seed, same choices

@QUIET_REPR
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), agent_seed=st.integers(0, 2**32), options=OPTIONS)
def test_same_seed_and_choices_same_game(cg, seed, agent_seed, options):
    trace = Trace(cg, seed, agent_seed, options)
    again = replay(cg, seed, trace.applied, options)
    assert again.is_terminal()
    assert again.events == trace.events
    assert again.to_json() == trace.final
    assert again.returns() == trace.state.returns()
    # and a second run of the same agent makes the same choices
    assert Trace(cg, seed, agent_seed, options).applied == trace.applied


def test_options_are_part_of_the_seeded_game(cg):
    options = {"funding": 10, "spectators": "on"}
    a = Trace(cg, 5, 5, options)
    b = replay(cg, 5, a.applied, options)
    assert b.to_json() == a.final
    assert json.loads(a.final)["g"][cg.global_names.index("funding")] == 10


def test_different_seeds_differ(cg):
    finals, openings = set(), set()
    for seed in range(12):
        state = new_game(cg, seed=seed, log=True)
        openings.add(json.dumps(state.st.rng))
        finals.add(Trace(cg, seed, 0).final)
    assert len(openings) == 12, "two seeds start from the same generator"
    assert len(finals) == 12


def test_different_seeds_deal_different_cards(cg):
    """Past team building (the same choices), the shuffled Snitch deck and Tactical hands differ."""
    deals = set()
    for seed in range(12):
        state = new_game(cg, seed=seed)
        while state.current_player() != 0 or "Pitch Actions" not in " ".join(state.action_labels()):
            state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
        deals.add(json.dumps([state.st.zones[cg.zone_id(z, s)] for z in ("snitch_deck", "hand")
                              for s in range(cg.nsides)]))
    assert len(deals) == 12, "two seeds dealt the same cards"


def test_state_json_round_trips(cg):
    trace = Trace(cg, 11, 11, {"funding": 7, "spectators": "on"})
    for text, _ in trace.snapshots[::7]:
        restored = GameState.from_json(cg, text)
        assert restored.to_json() == text


# ------------------------------------------------------------------ restore and clone mid-game

@QUIET_REPR
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), agent_seed=st.integers(0, 2**32), options=OPTIONS, where=st.lists(
    st.floats(0, 1, exclude_max=True), min_size=1, max_size=3))
def test_restore_and_clone_continue_identically(cg, seed, agent_seed, options, where):
    trace = Trace(cg, seed, agent_seed, options)
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


def test_restore_at_every_kind_of_decision(cg):
    """A restore from each distinct decision label's first occurrence (team building, the roll
    for advantage, Kick-Off, Pitch Actions, Intrepid Moves, Actions, Snitch cards...) continues
    identically."""
    trace = Trace(cg, 21, 21, {"funding": 5, "spectators": "off"})
    seen = set()
    picked = []
    for k, (text, _) in enumerate(trace.snapshots):
        state = GameState.from_json(cg, text)
        kind = (state.decision_kind(), tuple(cg.procs[f[0]].name for f in state.st.frames))
        if kind not in seen:
            seen.add(kind)
            picked.append(k)
    assert len(picked) >= 6, seen
    for k in picked:
        text, logged = trace.snapshots[k]
        restored = GameState(cg, GameState.from_json(cg, text).st, [])
        continue_from(restored, trace, k)
        assert restored.events == trace.events[logged:], f"events differ after restoring at step {k}"
        assert restored.to_json() == trace.final


def test_games_with_team_files_replay_and_restore(cg):
    """Teams from team files: the same seed and choices give the same game, and a restore
    midway continues identically."""
    teams, diags = check_teams(cg, {"home": TEAM_FILES / "ravenclaw.yaml", "away": TEAM_FILES / "gryffindor.yaml"})
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


def test_serialised_state_is_small(cg):
    biggest = 0
    for seed in range(8):
        trace = Trace(cg, seed, seed, {"funding": FUNDINGS[seed % 4]})
        biggest = max([biggest, len(trace.final.encode())] + [len(t.encode()) for t, _ in trace.snapshots])
    assert biggest < MAX_STATE_BYTES, f"a state serialised to {biggest} bytes"


# ------------------------------------------------------------------ the command line

def test_simulate_200_games(capsys):
    """CtGS brief: `lumos simulate catch-the-golden-snitch -n 200 --seed 1` completes 200/200
    with no errors, both sides winning some ("Catch the Snitch!": every game has a winner)."""
    assert main(["simulate", GAME, "-n", "200", "--seed", "1", "--json", "-q"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 200
    assert summary["completed"] == 200, summary
    assert summary["errors"] == 0, summary["error_codes"]
    assert summary["wins"]["home"] > 0 and summary["wins"]["away"] > 0, summary["wins"]
    assert summary["wins"]["draw"] == 0, summary["wins"]
