"""Python bytecodes per decision: a deterministic measure of the engine's work, beside the timings.

    python bench/work.py [--games N] [--game NAME ...] [--json]

Why: on a shared machine the same run's timings swing by a fifth, so a change that saves a tenth
cannot be seen in decisions/s. The number of Python bytecode instructions executed for the same
seeds and the same random choices does not depend on the load: it is the same on every run of
the same code. It counts only Python-level work (a dictionary lookup is one instruction whatever
it costs in C), so it is a proxy: a change that moves work into C (a comprehension replaced by
`map`) looks better here than in time; use it beside `bench/benchmark.py`, not instead.

The driver is the benchmark's speed run: every decision asked (single options too), each side
picking uniformly among its legal actions with `random.Random(seed)`, chance drawn by the game's
own generator. The hand-written tic-tac-toe is counted the same way, as the baseline. Figures
only; nothing here passes or fails.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))     # bench/handwritten_tictactoe.py
EXAMPLES = HERE.parent / "examples"


class Counter:
    """Counts bytecode instructions of every Python frame while it is on (sys.settrace with
    per-opcode events; about a hundred times slower than running untraced)."""

    def __init__(self):
        self.count = 0

    def _local(self, frame, event, arg):
        if event == "opcode":
            self.count += 1
        return self._local

    def _global(self, frame, event, arg):
        frame.f_trace_opcodes = True
        return self._local

    def __enter__(self):
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(None)


def lumos_games(cg, games: int, seed0: int = 1) -> tuple[int, int]:
    """(decisions, games) of random playouts through the public state API."""
    from lumos.api import new_game
    rng = random.Random(seed0)
    decisions = 0
    for g in range(games):
        state = new_game(cg, seed=seed0 + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, games


def handwritten_games(games: int, seed0: int = 1) -> tuple[int, int]:
    from handwritten_tictactoe import random_playouts
    return random_playouts(games, seed0), games


def measure(play) -> dict:
    play()          # warm up: generated functions compile on their first call, caches fill
    with Counter() as c:
        decisions, games = play()
    return {"decisions": decisions, "games": games, "bytecodes": c.count,
            "per_decision": c.count / decisions if decisions else 0.0}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5, help="seeded games per game (default 5)")
    p.add_argument("--game", action="append", metavar="NAME",
                   help="only this bundled game or example directory (repeatable)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from lumos.api import bundled_games, load_game
    names = args.game or ["tic-tac-toe", *bundled_games()]
    rows = {"hand-written tic-tac-toe": measure(lambda: handwritten_games(args.games * 20))}
    for name in names:
        where = str(EXAMPLES / name) if (EXAMPLES / name).is_dir() else name
        cg = load_game(where)
        rows[name] = measure(lambda: lumos_games(cg, args.games))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    base = rows["hand-written tic-tac-toe"]["per_decision"]
    print(f"{'game':28} {'decisions':>9} {'bytecodes/decision':>19} {'x hand-written':>15}")
    for name, r in rows.items():
        print(f"{name:28} {r['decisions']:9} {r['per_decision']:19,.0f} {r['per_decision'] / base:14.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
