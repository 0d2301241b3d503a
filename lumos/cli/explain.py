"""`lumos explain CARD`: a card's data, effect, English and where the rules can play it."""
from __future__ import annotations

import sys

from lumos.cli.common import EXIT_OK, UsageError, add_with, bundled_ids, compile_or_fail

QUICK_EXIT = True  # leaves no file open: lumos.cli.entry ends the process at once


def register(sub) -> None:
    """Add `lumos explain` and its arguments to the sub-command parsers."""
    s = sub.add_parser("explain", help="explain a card: its data, effect, English and where the rules play it")
    s.add_argument("card", metavar="CARD", help="the card's name (quote it when it has spaces)")
    s.add_argument("--game", metavar="GAME|PATH", help="the game of the card (default: search the bundled games)")
    add_with(s)
    s.add_argument("--no-english", action="store_true", help="leave out the plain-English rendering")
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.diagnostics import did_you_mean
    from lumos.compiler.analysis import rules_decls
    from lumos.toolkit.explain import explain_card, find_cards
    games = [args.game] if args.game else bundled_ids()
    names: list[str] = []
    for game in games:
        cg, src = compile_or_fail(game, args.with_paths)
        if find_cards(cg, args.card):
            decls, texts = rules_decls(src)
            sys.stdout.write(explain_card(cg, args.card, decls, texts, english=not args.no_english))
            return EXIT_OK
        names += [d.name for d in cg.card_defs]
    where = f"`{args.game}`" if args.game else "the bundled games"
    hint = did_you_mean(args.card, sorted(set(names)))
    raise UsageError(f"no card `{args.card}` in {where}" + (f"; {hint}" if hint else ""))
