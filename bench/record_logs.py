"""Record the logs of seeded random games of every game into a folder, or compare against them.

    python bench/record_logs.py record DIR [-n 200]
    python bench/record_logs.py compare DIR [-n 200]

Why: a change to the engine's speed must leave every game as it was; the logs of a version
recorded before the change are compared, seed by seed, with those of the version after it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.equivalence import every_game, first_difference, game_name, play_log  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("record", "compare"))
    ap.add_argument("dir")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--games", nargs="*")
    args = ap.parse_args()
    from lumos.api import load_game
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    bad = 0
    for game in every_game():
        name = game_name(game)
        if args.games and name not in args.games:
            continue
        cg = load_game(game)
        folder = root / name
        folder.mkdir(exist_ok=True)
        same = 0
        for seed in range(1, args.n + 1):
            text = play_log(cg, seed)
            path = folder / f"{seed}.jsonl"
            if args.mode == "record":
                path.write_text(text, encoding="utf-8")
                continue
            old = path.read_text(encoding="utf-8")
            if old == text:
                same += 1
            else:
                bad += 1
                if bad <= 3:
                    print(f"{name} seed {seed} differs at {first_difference(old, text)}")
        print(f"{name}: {'recorded' if args.mode == 'record' else f'{same}/{args.n} same'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
