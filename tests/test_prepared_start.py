"""A new game copied from a prepared start is the game set-up would have made.

`GameState.new` runs a game's set-up once per compiled game (and options, single-option
policy and logging) and copies where it ends, when that set-up draws nothing from the
game's generator; a set-up that shuffles or rolls still runs for every game. The house
rule it must keep (docs/language.md, determinism: the same seed and the same choices give
the same game and the same log) is checked here against set-up run each time
(`GameState._set_up`, the path every game took before): the state and events after set-up,
and the JSON Lines logs of seeded games played by random agents (their first
300 decisions), for every bundled
game and the two example board games.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from lumos.api import bundled_games, load_game
from lumos.interpreter import engine
from lumos.interpreter.agents import agent_seed, make_agent
from lumos.interpreter.engine import GameState
from lumos.interpreter.play import play_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAMES = bundled_games() + [str(EXAMPLES / "tic-tac-toe"), str(EXAMPLES / "connect-four")]
SEEDS = range(40)
LOGGED = range(12)
MAX_DECISIONS = 300   # random trivia games run long: a log up to there is enough


def _set_up_each_time(monkeypatch) -> None:
    monkeypatch.setattr(engine, "_prepared_start", lambda *args: None)


def _log(cg, seed: int, forced: str = "take") -> str:
    out = io.StringIO()
    agents = [make_agent("random", agent_seed(seed, k)) for k in range(cg.nsides)]
    play_game(cg, agents, seed, log=out, forced=forced, max_decisions=MAX_DECISIONS)
    return out.getvalue()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g).name)
def test_state_after_set_up_is_the_same(game, monkeypatch):
    cg = load_game(game)
    for forced in ("ask", "take"):
        for log in (False, True):
            copied = [GameState.new(cg, seed=s, log=log, forced=forced) for s in SEEDS]
            with monkeypatch.context() as m:
                _set_up_each_time(m)
                fresh = [GameState.new(cg, seed=s, log=log, forced=forced) for s in SEEDS]
            for a, b in zip(copied, fresh):
                assert a.st.to_dict() == b.st.to_dict()
                assert a.events == b.events
            assert copied[0].position() == fresh[0].position()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g).name)
def test_logs_of_seeded_games_are_the_same(game, monkeypatch):
    cg = load_game(game)
    copied = [_log(cg, s) for s in LOGGED]
    with monkeypatch.context() as m:
        _set_up_each_time(m)
        fresh = [_log(cg, s) for s in LOGGED]
    assert copied == fresh
    assert len(set(copied)) > 1        # the seeds give different games


def test_a_copied_start_is_not_shared():
    """Playing one game never changes the next game's start (the prepared state is copied)."""
    cg = load_game(str(EXAMPLES / "tic-tac-toe"))
    first = GameState.new(cg, seed=1)
    before = GameState.new(cg, seed=2).st.to_dict()
    while not first.is_terminal():
        first.apply_action(first.legal_actions()[0])
    assert GameState.new(cg, seed=2).st.to_dict() == before


def test_set_up_that_draws_runs_each_time():
    """A set-up that shuffles (Snitch Snatcher deals from a shuffled deck) is not copied: two
    seeds deal differently."""
    cg = load_game("snitch-snatcher")
    a, b = GameState.new(cg, seed=1), GameState.new(cg, seed=2)
    assert a.st.zones != b.st.zones
    assert engine._prepared_start(GameState, cg, None, False, "ask") is None


def test_a_bad_option_is_still_refused():
    cg = load_game(str(EXAMPLES / "tic-tac-toe"))
    with pytest.raises(ValueError, match="unknown option"):
        GameState.new(cg, seed=1, options={"no_such_option": 1})
