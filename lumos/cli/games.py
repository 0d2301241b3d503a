"""`lumos games`: the bundled games, their titles and rulebooks (or JSON)."""
from __future__ import annotations

import json

from lumos.cli.common import EXIT_OK

QUICK_EXIT = True  # leaves no file open: lumos.cli.entry ends the process at once


def register(sub) -> None:
    """Add `lumos games` and its arguments to the sub-command parsers."""
    s = sub.add_parser("games", help="list the bundled games")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.api import bundled_games, load_game
    rows = []
    for gid in bundled_games():
        try:
            cg = load_game(gid)
            rows.append((gid, cg.title, cg.rulebook))
        except Exception:  # a broken bundled game is still listed; `lumos check` says why
            rows.append((gid, "(does not compile: run `lumos check`)", ""))
    if args.json:
        print(json.dumps([{"id": g, "title": t, "rulebook": r} for g, t, r in rows], indent=2))
        return EXIT_OK
    width = max((len(g) for g, _, _ in rows), default=0)
    for gid, title, rulebook in rows:
        print(f"{gid:<{width}}  {title}" + (f"  (rulebook: {rulebook})" if rulebook else ""))
    return EXIT_OK
