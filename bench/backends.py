"""The two back ends side by side in one process: random playouts of every game, decisions/s of
the reference closure machine and of the specialised back end, and their ratio per repetition.

    python bench/backends.py [--seconds 2] [--reps 5] [--games NAME ...]

Why: the speed of the engine is judged by same-run ratios (the machine is shared and its load
changes); each repetition plays the same seeds with both back ends, one after the other, in
CPU time of this process, and the median of the ratios is printed. Figures only: nothing here
passes or fails (the games being the same is tests/test_backend_equivalence.py's job).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.equivalence import every_game, game_name  # noqa: E402


def compiled(game: str, name: str):
    from lumos.api import game_sources
    from lumos.compiler.fused import using_backend
    from lumos.compiler.game import compile_game
    with using_backend(name):
        return compile_game(game_sources(game))


def playouts(cg, seeds) -> tuple[int, float]:
    from lumos.interpreter.agents import RandomAgent
    from lumos.interpreter.play import play_game
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        r = play_game(cg, [RandomAgent(seed * 7919 + k) for k in range(cg.nsides)], seed, forced="take")
        decisions += r.decisions
    return decisions, time.process_time() - start


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0, help="about how long one back end plays per repetition")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--games", nargs="*")
    args = ap.parse_args()
    print(f"{'game':28} {'reference dec/s':>16} {'specialised dec/s':>18} {'ratio (median)':>15}  ratios")
    for game in every_game():
        name = game_name(game)
        if args.games and name not in args.games:
            continue
        ref, new = compiled(game, "reference"), compiled(game, "specialised")
        playouts(ref, range(1, 4))   # warm up: joined texts compile on their first call
        playouts(new, range(1, 4))
        d, t = playouts(ref, range(1, 11))
        n = max(10, int(10 * args.seconds / max(t, 1e-3)))
        rows = []
        for rep in range(args.reps):
            seeds = range(100 + rep * n, 100 + (rep + 1) * n)
            pair = [(playouts(ref, seeds), "r"), (playouts(new, seeds), "s")]
            if rep % 2:
                pair.reverse()
            got = {k: v for v, k in pair}
            rows.append((got["r"][0] / got["r"][1], got["s"][0] / got["s"][1]))
        ratios = [s / r for r, s in rows]
        ref_rate, new_rate = statistics.median(r for r, _ in rows), statistics.median(s for _, s in rows)
        print(f"{name:28} {ref_rate:16,.0f} {new_rate:18,.0f} {statistics.median(ratios):14.2f}x  "
              + " ".join(f"{x:.2f}" for x in ratios), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
