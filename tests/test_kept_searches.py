"""Searches kept per what they read (issue 14, "searches with memoised reach per position").

A `reach ... up to N through ... onto ...` search on locals nothing keeps (an action's `with`
list, a card's condition), whose conditions read only their locals, state that names no space
(`holds_ball(p)`), fixed data and who stands on the space tested (`free(s)`,
`occupant(s).side`), keeps its answer in the state with the spaces it met
(lumos.compiler.static_search.around_key, lumos.compiler.fused._keep_lines). The answer holds
until a piece comes onto or leaves one of those spaces (the state's `occ_log`, written by
Machine.place and leave). These tests check that games play exactly as without it, that a move
into a search's way is seen at the next decision, and that none of it is part of a position.
"""
from __future__ import annotations

import json
import random

import pytest

from lumos.compiler import fused, static_search
from lumos.compiler.game import compile_game
from lumos.api import game_sources, new_game
from lumos.interpreter import machine
from lumos.interpreter.engine import GameState

from support import sources
from test_rules_snitch_snatcher import plays_after_draw


def _compiled(keep: bool):
    def make():
        with static_search.keeping_around(keep):
            return compile_game(game_sources("snitch-snatcher"))
    return sources.compiled_once(("snitch-snatcher", "kept searches", keep), make)


def _play_both(seeds, rng_seed: int = 7, with_kept=None):
    """Play the same seeded random games with the searches kept and not; every state equal.
    Returns the most answers a state kept at once."""
    with_kept, without = with_kept or _compiled(True), _compiled(False)
    rng = random.Random(rng_seed)
    most = 0
    for seed in seeds:
        a, b = new_game(with_kept, seed=seed), new_game(without, seed=seed)
        while not a.is_terminal():
            assert a.to_json() == b.to_json()
            assert a.action_labels() == b.action_labels()
            if a.is_chance_node():
                draw = a.sample_chance()
                a.apply_action(draw)
                b.apply_action(draw)
                continue
            pick = rng.randrange(len(a.legal_actions()))
            a.apply_action(pick)
            b.apply_action(pick)
            most = max(most, len(a.st.kept))
        assert b.is_terminal() and a.to_json() == b.to_json()
        assert not b.st.kept
    return most


def _step(state, rng) -> None:
    """One random decision (or the chance draw) of a game."""
    if state.is_chance_node():
        state.apply_action(state.sample_chance())
    else:
        state.apply_action(rng.randrange(len(state.legal_actions())))


def test_random_games_play_the_same_with_and_without_kept_searches():
    """Every state and every option list of 12 seeded random games of Snitch Snatcher (its
    Chasers', Beaters' and Keepers' moves, "Quidditch Players") is the same whether the movement
    searches keep their answers or not; and the game does keep some."""
    assert _play_both(range(1, 13))


def test_kept_searches_survive_the_log_being_dropped(monkeypatch):
    """A long game drops the log of changed spaces (and every kept answer with it) when it grows
    past LOG_MAX; with a tiny bound, dropped every few moves, the games are still the same."""
    monkeypatch.setattr(machine, "LOG_MAX", 3)
    assert _play_both(range(20, 24), rng_seed=3)


def test_kept_searches_survive_their_answers_being_dropped(monkeypatch):
    """A state drops every kept answer when it holds _KEPT_ANSWERS of them (memory); with a bound
    of two (the generated searches read it when they are written), the games are the same."""
    monkeypatch.setattr(fused, "_KEPT_ANSWERS", 2)
    with static_search.keeping_around(True):
        small = compile_game(game_sources("snitch-snatcher"))
    assert 0 < _play_both(range(30, 34), rng_seed=4, with_kept=small) <= 2


def test_a_player_moved_into_a_chasers_way_is_seen_at_the_next_play():
    """Quidditch Players > Chasers: Chasers cannot move onto or through a space occupied by
    another player. Home Chaser 2's moves are listed (and kept) at the first pitch play; home
    Chaser 1 then moves onto d5, in its way, and the second pitch play lists Chaser 2's moves
    again without d5 and what lies only beyond it (Turn Sequence: two pitch plays a turn)."""
    t = plays_after_draw(layout={"home chaser 2": "c4", "home chaser 1": "e4"}, others="off")
    before = t.moves_of("home chaser 2")
    assert {"d5", "e6", "f7"} <= before
    t.move("home chaser 1", "d5")
    after = t.moves_of("home chaser 2")
    assert not {"d5", "e6", "f7"} & after
    assert {"b5", "a6", "b3"} <= after


def test_a_player_moved_far_away_changes_nothing():
    """The same situation, Chaser 1 moving away from Chaser 2's moves: the second pitch play
    offers Chaser 2 exactly what the first did (the kept answer holds)."""
    t = plays_after_draw(layout={"home chaser 2": "c4", "home chaser 1": "g10"}, others="off")
    before = t.moves_of("home chaser 2")
    far = sorted(s for s in t.moves_of("home chaser 1") if s not in before)
    t.move("home chaser 1", far[0])
    assert t.moves_of("home chaser 2") == before


def test_what_is_kept_is_no_part_of_a_position():
    """A saved state holds neither the log nor the kept answers, a copy starts without them, and
    a state's hash is the same with them or without."""
    cg = _compiled(True)
    state = new_game(cg, seed=5)
    rng = random.Random(5)
    while not (state.st.kept and state.st.occ_log) and not state.is_terminal():
        _step(state, rng)
    assert state.st.kept and state.st.occ_log
    saved = json.loads(state.to_json())
    assert "kept" not in saved and "occ_log" not in saved
    copy = state.clone()
    assert copy.st.kept == {} and copy.st.occ_log == []
    assert copy.to_json() == state.to_json()
    loaded = GameState.from_json(cg, state.to_json())
    assert loaded.st.kept == {} and loaded.to_json() == state.to_json()


@pytest.mark.parametrize("keep", [True, False])
def test_the_movement_searches_are_the_ones_kept(keep):
    """Which searches keep their answers is decided when the rules are lowered: with keeping
    switched off (static_search.keeping_around(False)) none does."""
    cg = _compiled(keep)
    state = new_game(cg, seed=9)
    rng = random.Random(9)
    for _ in range(60):
        if state.is_terminal():
            break
        _step(state, rng)
    assert bool(state.st.kept) == keep


def test_a_position_laid_out_after_play_keeps_no_stale_answer():
    """docs/language.md > Positions: `at: {start_of: take_turn}` plays the game from its seed to
    that rule (pitch plays listed on the way keep their answers), then lays the pieces out as the
    position says. Pieces the layout puts in a Chaser's way must be seen by its next listing:
    the positions play on exactly as with no kept searches."""
    from lumos.api import load_position
    from lumos.diagnostics import LumosCheckError
    with_kept, without = _compiled(True), _compiled(False)
    spaces = with_kept.board.spaces
    field = sorted(with_kept.board.regions["field"])
    rng = random.Random(5)
    compared = 0
    for seed in range(8):
        for side in ("home", "away"):
            pieces = {}
            for name in rng.sample([p.name for p in with_kept.pieces if p.kind in ("chaser", "beater")], 4):
                pieces[name] = spaces[rng.choice(field)]
            if len(set(pieces.values())) < len(pieces):
                continue
            position = {"seed": seed, "at": {"start_of": "take_turn"}, "current": side, "pieces": pieces}
            try:
                a, b = load_position(with_kept, position), load_position(without, position)
            except LumosCheckError:     # a space the position names is taken there: not a position
                continue
            compared += 1
            picks = random.Random(seed)
            for _ in range(40):
                if a.is_terminal():
                    break
                assert a.action_labels() == b.action_labels()
                pick = a.sample_chance() if a.is_chance_node() else picks.randrange(len(a.legal_actions()))
                a.apply_action(pick)
                b.apply_action(pick)
    assert compared >= 8
