"""Machine instructions per decision, counted by valgrind: a deterministic measure of speed.

    python bench/instructions.py [--games N] [--game NAME ...] [--warm N]

Why: on the shared machine the same run's decisions/s swing by a fifth between repetitions
(and by 5% with nothing but PYTHONHASHSEED changed), so a change that saves 1-3% cannot be seen
in timings. Valgrind's cachegrind counts the instructions the CPU runs; with the hash seed
fixed, the same code, seeds and random choices give the same count to about 0.03%. Unlike
`bench/work.py` (Python bytecodes), it sees what a bytecode costs in C: a dict lookup with a
tuple key, an allocation, a call. It does not see cache misses or branch mispredictions, so
confirm large changes with `bench/benchmark.py`.

Each game is played once outside valgrind (filling the compiler's and Python's caches), then
counted twice in fresh processes under `valgrind --tool=cachegrind --cache-sim=no`: once playing
`--warm` games only (every generated function compiled on its first call, the import and
compile costs), once playing those and then `--games` counted ones; the difference
over the counted games' decisions is printed. The driver is bench/work.py's (the benchmark's speed run): every
decision asked, `random.Random` choices, chance drawn by the game's own generator. Figures only.
Needs valgrind (Debian's `valgrind` package); without it, says so and stops.

Small games (bench/designer-games, the examples) are counted better with `--games 400`: with 40
games, a few functions first met in the counted games (compiled then) move their figures by up
to 15%. A game is named by its folder: `--game bench/designer-games/tic-tac-toe-counts`.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

DRIVER = r"""
import random, sys
sys.path.insert(0, sys.argv[4])          # bench/: work.py's driver, the benchmark's speed run
from lumos import api
from work import lumos_games
game, warm, counted = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cg = api.load_game(game)
lumos_games(cg, warm, seed0=1000)
print("decisions", lumos_games(cg, counted, seed0=1)[0], file=sys.stderr)
"""
HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = ("snitch-snatcher", "catch-the-golden-snitch", "chamber-of-secrets-trivia", "defenders-of-hogwarts")


def _env() -> dict:
    return dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "1"))


def prepare(game: str, warm: int) -> None:
    """One run outside valgrind first, so that both counted processes find the same caches
    (the compiler's, Python's bytecode): otherwise the first pays for filling them."""
    subprocess.run([sys.executable, "-c", DRIVER, game, str(warm), "0", HERE], capture_output=True, text=True,
                   env=_env(), check=True)


def count(game: str, warm: int, counted: int) -> tuple[int, int]:
    """(instructions, decisions) of one process playing `warm` then `counted` games."""
    env = _env()
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", DRIVER, game, str(warm), str(counted), HERE],
                         capture_output=True, text=True, env=env, check=True).stderr
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out)
    made = re.search(r"^decisions (\d+)$", out, re.MULTILINE)
    if refs is None or made is None:
        raise SystemExit(f"valgrind's output has no instruction count:\n{out[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(made.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="counted games per game (default 40)")
    ap.add_argument("--warm", type=int, default=10, help="games played first, not counted (default 10)")
    ap.add_argument("--game", action="append", help="a bundled game or a game folder (repeat; default: the four)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): nothing counted")
        return 1
    print(f"Instructions per decision (cachegrind; {args.games} games after {args.warm} not counted; "
          f"PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED', '1')})")
    for game in args.game or BUNDLED:
        prepare(game, args.warm)
        base, _ = count(game, args.warm, 0)
        total, made = count(game, args.warm, args.games)
        print(f"  {game:<32} {made:>7,} decisions  {(total - base) / max(1, made):>10,.0f} instructions/decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
