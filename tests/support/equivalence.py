"""Seeded random games -> their full JSON Lines logs, to compare two back ends (or two versions)
game by game: the same seeds must give the same logs, byte for byte.

Used by tests/test_backend_equivalence.py and bench/backends.py (which also records the logs of
a version to a folder and compares a later version against them).
"""
from __future__ import annotations

import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("examples/tic-tac-toe", "examples/connect-four")


def every_game() -> list[str]:
    """The bundled games' ids and the example games' folders: every game the speed work covers."""
    from lumos.api import bundled_games
    return bundled_games() + [str(ROOT / e) for e in EXAMPLES]


def game_name(game: str) -> str:
    return Path(game).name


def play_log(cg, seed: int, max_decisions: int = 5000) -> str:
    """One game of random agents (seeded by the game's seed), its whole log as text."""
    from lumos.interpreter.agents import RandomAgent
    from lumos.interpreter.play import play_game
    agents = [RandomAgent(seed * 7919 + k) for k in range(cg.nsides)]
    out = io.StringIO()
    play_game(cg, agents, seed, log=out, max_decisions=max_decisions, forced="take")
    return out.getvalue()


def logs(cg, seeds) -> list[str]:
    return [play_log(cg, s) for s in seeds]


def first_difference(a: str, b: str) -> str:
    """The first line where two logs differ, for a readable failure."""
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n  reference: {x[:300]}\n  new:       {y[:300]}"
    return f"lengths differ: {len(la)} vs {len(lb)} lines"


class _Final:
    """A play_game watch that keeps the last state's serialised form."""

    def __init__(self):
        self.json = None

    def decision(self, state, choice) -> None:
        pass

    def end(self, state) -> None:
        self.json = state.to_json()


def play_final(cg, seed: int, max_decisions: int = 5000) -> tuple:
    """One game of random agents without a log (the fast path): its result and its last state."""
    from lumos.interpreter.agents import RandomAgent
    from lumos.interpreter.play import play_game
    agents = [RandomAgent(seed * 7919 + k) for k in range(cg.nsides)]
    watch = _Final()
    r = play_game(cg, agents, seed, max_decisions=max_decisions, forced="take", watch=watch)
    return r.winner, r.returns, r.decisions, None if r.error is None else str(r.error), watch.json


def compiled(game: str, backend: str):
    """The game compiled afresh with the named back end (not the process's cached game)."""
    from lumos.api import game_sources
    from lumos.compiler.fused import using_backend
    from lumos.compiler.game import compile_game
    with using_backend(backend):
        return compile_game(game_sources(game))


# A runaway loop stops at the same instruction with both back ends (the step limit counts every
# instruction, also inside a run of them compiled as one function), and an error inside such a
# run points at its own line. Tiny games made for the tests (no rulebook): `{body}` is the loop's.
RUNAWAY = """\
game "Runaway"
board "board.yaml"
sides red, blue
var n = 0
var mark: number per space = 0

flow:
    loop:
{body}
"""


def runaway_stops(tmp_path: Path, body: str) -> list[tuple]:
    """(code, message, line, column) of the error that stops RUNAWAY with `body`, with the
    reference back end and with the specialised one (they must be equal)."""
    import pytest

    from lumos.compiler.fused import using_backend
    from lumos.diagnostics import LumosRuntimeError
    from lumos.interpreter.engine import GameState
    from support.sources import DOT_BOARD, write_game
    got = []
    for name in ("reference", "specialised"):
        with using_backend(name):
            (tmp_path / name).mkdir()
            cg, diags, _ = write_game(tmp_path / name, "runaway", {"game.lumos": RUNAWAY.format(body=body),
                                                                   "board.yaml": DOT_BOARD})
        assert cg is not None, [d.headline() for d in diags]
        with pytest.raises(LumosRuntimeError) as err:
            GameState.new(cg, seed=1)
        d = err.value.first
        got.append((d.code, d.message, d.span.line, d.span.col))
    return got


def every_step(cg, seed: int, options=None) -> list[str]:
    """The whole state (to_json: frames and their locals included) after every step of a seeded
    random game, then its events: what two back ends, or two ways of lowering, must agree on."""
    import random
    from lumos.interpreter.engine import GameState
    rng = random.Random(seed)
    state = GameState.new(cg, seed=seed, options=options, log=True)
    seen = [state.to_json()]
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
        seen.append(state.to_json())
    return seen + [repr(state.events)]
