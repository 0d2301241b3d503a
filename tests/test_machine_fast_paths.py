"""The machine's fast paths give what its general paths give (issue 14, item 2: less per-decision work).

- `reach` without `through` or `onto` conditions depends on the board alone: the machine keeps
  what it found per compiled game. It must equal the general breadth-first search with
  conditions that always hold, for every space, link and number of steps of every bundled
  board, and asking twice must give the same (an unchanged tuple).
- `Rng.shuffle` writes splitmix64 in line: the same order and generator state as one
  `Rng.below` per swap.
- The run loop returns in line from a procedure that runs off its end, and Machine.apply makes
  a chance node's draw itself: a game played through the public API must be the game the
  reference run loop plays (tests/test_backend_equivalence.py compares whole logs; here the
  step counts and generator state after every decision, which the log's state hash covers).
"""
from __future__ import annotations

import random

import pytest

from lumos.api import bundled_games, load_game, new_game
from lumos.interpreter.engine import GameState
from lumos.interpreter.machine import Machine


def _always(m, local):
    return True


@pytest.mark.parametrize("game", bundled_games())
def test_reach_without_conditions_is_the_general_search(game):
    cg = load_game(game)
    m = Machine(cg, GameState.new(cg, seed=1).st)
    local = [None, None]
    for link in cg.board.links:
        for start in range(len(cg.board.spaces)):
            for count in (1, 2, 3):
                general = m.reach(start, link, count, False, _always, _always, local, 0, 1)
                plain = m.reach(start, link, count, False, None, None, local, 0, 1)
                assert plain == general, (link, cg.board.spaces[start], count)
                assert m.reach(start, link, count, False, None, None, local, 0, 1) is plain
    assert m.reach(None, next(iter(cg.board.links)), 2, False, None, None, local, 0, 1) == ()


def _trace(cg, seed: int, decisions: int = 60) -> list:
    """After each decision of a seeded random game: steps run, decisions, the generator, the frames."""
    rng = random.Random(seed)
    state = new_game(cg, seed=seed)
    out = []
    for _ in range(decisions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        st = state.st
        out.append((st.steps, st.decisions, st.rng, [f[:2] for f in st.frames], st.result))
    return out


@pytest.mark.parametrize("game", bundled_games())
def test_the_run_loop_counts_and_draws_as_the_reference(game):
    from lumos.api import game_sources
    from lumos.compiler.fused import using_backend
    from lumos.compiler.game import compile_game
    games = {}
    for backend in ("reference", "specialised"):
        with using_backend(backend):
            games[backend] = compile_game(game_sources(game))
    for seed in (1, 2, 3):
        assert _trace(games["specialised"], seed) == _trace(games["reference"], seed)


def test_applying_at_no_decision_or_out_of_range_raises():
    cg = load_game(bundled_games()[0])
    state = new_game(cg, seed=1)
    with pytest.raises(ValueError, match="is not one of the"):
        state.apply_action(len(state.legal_actions()))
    state.st.pending = None
    with pytest.raises(ValueError, match="no decision is pending"):
        state.apply_action(0)


def _shuffle_by_draws(state, items: list) -> None:
    """Fisher-Yates from the top with one `Rng.below` per swap: what `Rng.shuffle` writes in line."""
    from lumos.interpreter.state import Rng
    for i in range(len(items) - 1, 0, -1):
        j = Rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]


def test_shuffle_in_line_draws_as_below_does():
    from lumos.interpreter.state import Rng, State
    rng = random.Random(5)
    for _ in range(2000):
        a, b = State(), State()
        a.rng = b.rng = rng.getrandbits(64)
        n = rng.randrange(0, 60)
        x, y = list(range(n)), list(range(n))
        _shuffle_by_draws(a, x)
        Rng.shuffle(b, y)
        assert x == y and a.rng == b.rng
