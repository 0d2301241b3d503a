"""Agents and a seed -> one played game: the driver that asks each side's agent, lets chance
draw from the state's own generator, and writes the game's log as it goes.

Agents (lumos.interpreter.agents) only choose; the log (lumos.interpreter.log) only records
and replays; this module puts them together, so neither imports the other.

>>> from lumos.api import bundled_games, load_game             # doctest: +SKIP
>>> r = play_game(load_game(bundled_games()[0]), [RandomAgent(1), RandomAgent(2)], seed=1)  # doctest: +SKIP
>>> r.completed                                                # doctest: +SKIP
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Sequence

from lumos.diagnostics import Diagnostic, LumosRuntimeError
from lumos.interpreter.agents import RandomAgent
from lumos.interpreter.log import LIMIT_CODE, GameLog
from lumos.interpreter.program import CompiledGame


@dataclass
class GameResult:
    seed: int
    winner: int | None = None          # side index, None for a draw or an unfinished game
    returns: list[float] = field(default_factory=list)
    decisions: int = 0                 # decisions taken by sides (chance not counted)
    error: Diagnostic | None = None    # the runtime error that stopped the game, if any

    @property
    def completed(self) -> bool:
        return self.error is None and bool(self.returns)


def play_game(cg, agents: Sequence, seed: int, options: dict | None = None, log: IO[str] | None = None,
              max_decisions: int = 100_000, agent_names: list[str] | None = None,
              teams: dict | None = None, forced: str = "take", watch=None) -> GameResult:
    """Play one game: `agents[k]` decides for side k; chance uses the state's own generator.

    `log` is an open text file: the game's JSON Lines log is written to it
    (see `lumos.interpreter.log`). A runtime error of the rules does not escape:
    it is returned in `GameResult.error`, and written as the log's last line.

    `watch`, if given, is told of every side's decision (`watch.decision(state, choice)`, before
    the choice is applied) and of the last state (`watch.end(state)`): statistics of a game's arc
    are gathered there, without a log.
    """
    from lumos.interpreter.engine import GameState
    if len(agents) != cg.nsides:
        raise ValueError(f"{cg.id} needs {cg.nsides} agents (one per side), got {len(agents)}")
    result = GameResult(seed)
    writer = None
    if log is not None:
        names = agent_names or [getattr(a, "name", type(a).__name__) for a in agents]
        writer = GameLog(log, cg, seed, options, names, teams, forced)
    state = None
    try:
        state = GameState.new(cg, seed=seed, options=options, log=writer is not None, teams=teams,
                              forced=forced)
        if writer:
            writer.start(state)
        while not state.is_terminal():
            if state.is_chance_node():
                choice = state.sample_chance()
            else:
                if state.st.decisions >= max_decisions:
                    result.error = Diagnostic(
                        LIMIT_CODE, f"the game did not end within {max_decisions} decision{'' if max_decisions == 1 else 's'}", hint=
                        "raise the limit, or check that the flow can end the game")
                    break
                choice = agents[state.current_player()].choose(state)
                if watch is not None:
                    watch.decision(state, choice)
            if writer:
                writer.decision(state, choice)
            state.apply_action(choice)
            if writer:
                writer.flush_events(state)
    except LumosRuntimeError as exc:
        result.error = exc.first
    if state is not None:
        result.decisions = state.st.decisions
        if state.is_terminal() and result.error is None:
            result.returns = state.returns()
            result.winner = state.winner()
    if writer:
        writer.finish(state, result.error)
    if watch is not None and state is not None:
        watch.end(state)
    return result


def write_game_log(cg: CompiledGame, path: str | Path, seed: int = 0, options: dict | None = None,
                   agents=None, max_decisions: int = 100_000):
    """Play one game with `agents` (default: random) and write its log to `path`."""
    agents = agents or [RandomAgent(seed * 7919 + k) for k in range(cg.nsides)]
    with open(path, "w", encoding="utf-8") as fh:
        return play_game(cg, agents, seed, options=options, log=fh, max_decisions=max_decisions)
