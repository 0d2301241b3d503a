"""Snitch Snatcher's pitch plays, as Lumos lists them, agree with a listing written by hand in
Python from the rulebook (bench/listing_ceiling.py, the speed study's baseline) at every pitch
play of seeded random games.

Rulebook sections: "Quidditch Players > Chasers" (up to 3 diagonal steps over dark green spaces,
never into its own Keeper area), "Quidditch Players > Beaters" (up to 2 orthogonal steps, a rival
Chaser or Beater at the end knocked off), "Quidditch Players > Keeper" (2 diagonal steps inside
its own Keeper area or goals; a Keeper holding the Quaffle must pass it), "Game Play > Rules of
the Pitch" (one pitch play per player, passes not across the middle line), "Game Play > Goal
Attempts & Scoring" (a Chaser with the Quaffle may move onto a free goal space of the rival).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lumos.api import load_game, load_position

CEILING = Path(__file__).resolve().parents[1] / "bench" / "listing_ceiling.py"


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("listing_ceiling", CEILING)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_pitch_play_lists_what_the_hand_written_rules_list(study):
    cg = load_game("snitch-snatcher")
    hand = study.HandWritten(cg)
    found = study.positions(cg, 40, seed=11)
    assert len(found) > 200
    kinds = set()
    for m, fr, op in found:
        listed = study.lumos_listing(m, fr, op)
        assert listed == hand.listing(m.st)
        kinds |= {(a, cg.pieces[binding[0]].kind) for a, binding in listed}
    # the positions met moves of every role that moves and passes: the comparison covers them all
    move, pass_ = (next(i for i, a in enumerate(cg.actions) if a.name == n) for n in ("move_player", "pass_quaffle"))
    assert {(move, "chaser"), (move, "beater"), (move, "keeper"), (pass_, "chaser")} <= kinds


def test_the_comparison_fails_when_the_rules_differ(study):
    """The hand-written Chasers limited to 2 steps: some position tells them apart."""
    cg = load_game("snitch-snatcher")
    hand = study.HandWritten(cg)
    moves = hand.chaser_moves

    def shorter(p, start, occ, holds):
        return [s for s in moves(p, start, occ, holds) if cg.board.distance(start, s, "diagonal") <= 2]
    hand.chaser_moves = shorter
    found = study.positions(cg, 4, seed=11)
    assert any(study.lumos_listing(m, fr, op) != hand.listing(m.st) for m, fr, op in found)


def _pitch_plays(study, state, decisions=12):
    """The (Lumos, hand-written) listings at the two pitch plays of the turn a position starts,
    the first option taken at every decision (a move before a pass: move_player lists first)."""
    hand = study.HandWritten(state.cg)
    out = []
    for _ in range(decisions):
        if state.is_terminal() or len(out) == 2:
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        m = state.machine
        fr = m.st.frames[-1]
        if m.st.pending["kind"] == "act" and state.cg.procs[fr[0]].name == "take_turn":
            out.append((study.lumos_listing(m, fr, m.tables[fr[0]][0][fr[1]]), hand.listing(m.st)))
        state.apply_action(0)
    return out


def test_a_beater_knocks_off_a_chaser_but_never_a_keeper(study):
    """Rulebook "Quidditch Players > Beaters", "Game Play > Rules of the Pitch": the rival Keeper next to
    the Beater (inside the field's part of its Keeper area) is no target, the rival Chaser is."""
    cg = load_game("snitch-snatcher")
    state = load_position(cg, {"pieces": {"away keeper": "d12", "home beater 1": "d11", "away chaser 1": "e11"},
                               "at": {"start_of": "take_turn"}, "current": "home"})
    plays = _pitch_plays(study, state)
    assert plays and all(ours == theirs for ours, theirs in plays)
    move = next(i for i, a in enumerate(cg.actions) if a.name == "move_player")
    index = cg.board.index
    targets = {to for a, (p, to) in plays[0][0] if a == move and cg.pieces[p].name == "home beater 1"}
    assert index["e11"] in targets and index["d12"] not in targets


def test_a_keeper_holding_the_quaffle_must_pass_it_with_the_last_pitch_play(study):
    """Rulebook "Game Play > Goal Attempts & Scoring" 4: the Keeper who holds the Quaffle passes it out;
    with one pitch play left and a Chaser to pass to, passing is the only play."""
    cg = load_game("snitch-snatcher")
    state = load_position(cg, {"pieces": {"quaffle": {"carried_by": "home keeper"}},
                               "at": {"start_of": "take_turn"}, "current": "home"})
    plays = _pitch_plays(study, state)
    assert len(plays) == 2 and all(ours == theirs for ours, theirs in plays)
    passing = next(i for i, a in enumerate(cg.actions) if a.name == "pass_quaffle")
    assert any(a != passing for a, _b in plays[0][0])            # two plays left: others may move
    assert plays[1][0] and all(a == passing for a, _b in plays[1][0])
