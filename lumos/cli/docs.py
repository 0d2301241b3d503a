"""`lumos docs`: the HTML rules reference of every bundled game (needs the docs extra)."""
from __future__ import annotations

from lumos.cli.common import UsageError


def register(sub) -> None:
    """Add `lumos docs` and its arguments to the sub-command parsers."""
    s = sub.add_parser("docs", help="build the HTML rules reference of every bundled game",
                       description="Build the rules reference (HTML, with Sphinx) of every bundled game from its "
                                   "compiled rules and cards: components, sequence, actions, cards in Lumos and "
                                   "in English, the board, and the rulebook coverage.")
    s.add_argument("-o", "--output", metavar="DIR", default="lumos-reference",
                   help="output folder (default: lumos-reference)")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add an expansion folder, card files (GAME=PATH names their game) or a game folder; "
                        "repeatable")
    s.set_defaults(func=run)


def run(args) -> int:
    try:
        from lumos.reference import build_docs
    except ImportError as exc:
        raise UsageError(f"`lumos docs` needs Sphinx: pip install 'lumos-games[docs]' ({exc})") from None
    return build_docs(args.output, args.with_paths)
