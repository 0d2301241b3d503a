"""OpenSpiel runs a Lumos game through the adapter (lumos.analysis.openspiel), built on options
as data and the fixed action space: `pyspiel.random_sim_test` plays random games and checks
OpenSpiel's contract (unique action strings, legal actions in range and sorted, chance
outcomes summing to one, returns only at the end, clones that behave like the original).

Needs the `openspiel` extra (`pip install ".[openspiel]"`); skipped without it.
"""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")


def test_random_sim_test_passes_on_snitch_snatcher():
    from lumos.analysis.openspiel import openspiel_game
    game = openspiel_game("snitch-snatcher")
    assert game.num_distinct_actions() > 1000 and game.max_chance_outcomes() >= 6
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_a_chance_node_lists_die_faces_with_their_probabilities():
    from lumos.analysis.openspiel import openspiel_game
    state = openspiel_game("snitch-snatcher").new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert len({state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes}) == len(outcomes)


def _bundled():
    from lumos.api import bundled_games
    return bundled_games()


@pytest.mark.parametrize("game", _bundled())
def test_random_sim_test_passes_on_every_bundled_game(game):
    """Every bundled game, long ones included: OpenSpiel clones a Python state by deep-copying
    its attributes, and a GameState deep-copies as a clone that shares the compiled game
    (copying the compiled game at every clone was what made the Trivia Game and Defenders of
    Hogwarts take minutes)."""
    from lumos.analysis.openspiel import openspiel_game
    pyspiel.random_sim_test(openspiel_game(game), num_sims=1, serialize=False, verbose=False)


def test_a_clone_shares_the_compiled_game():
    import copy

    from lumos.api import load_game, new_game
    state = new_game(load_game("chamber-of-secrets-trivia"), seed=2, forced="take")
    twin = copy.deepcopy(state)
    assert twin.cg is state.cg and twin.st is not state.st and twin.to_json() == state.to_json()
