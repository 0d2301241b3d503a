"""`lumos new card`: a commented YAML skeleton of a new card of a game's card type."""
from __future__ import annotations

import sys
from pathlib import Path

from lumos.cli.common import EXIT_OK, UsageError, sources


def register(sub) -> None:
    """Add `lumos new` and its arguments to the sub-command parsers."""
    s = sub.add_parser("new", help="print a commented YAML skeleton of a new card",
                       description="Print a new card of the given type, every field commented from the "
                                   "game's card schema; required fields carry a placeholder value.")
    s.add_argument("what", choices=("card",), help="what to make (a card)")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--type", required=True, metavar="TYPE", help="the card type")
    s.add_argument("-o", "--output", metavar="FILE", help="write it to this file (default: print)")
    s.add_argument("--force", action="store_true", help="overwrite the output file")
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.compiler.analysis import declared_windows
    from lumos.toolkit.skeleton import card_skeleton
    src = sources(args.game)
    try:
        text = card_skeleton(src, args.type, declared_windows(src), label=args.game)
    except (KeyError, LookupError) as exc:
        raise UsageError(exc.args[0]) from None
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return EXIT_OK
    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"`{out}` exists; choose another name or add --force")
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: fill it in, then `lumos check --game {args.game} {out}`")
    return EXIT_OK
