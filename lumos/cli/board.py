"""`lumos board`: a game's board exported as SVG, GraphML or JSON."""
from __future__ import annotations

import sys
from pathlib import Path

from lumos.cli.common import EXIT_OK, compile_or_fail


def register(sub) -> None:
    """Add `lumos board` and its arguments to the sub-command parsers."""
    s = sub.add_parser("board", help="export a game's board")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--format", choices=("svg", "graphml", "json"), default="svg")
    s.add_argument("-o", "--output", metavar="FILE", help="output file (default: stdout)")
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.compiler import boards
    cg, _ = compile_or_fail(args.game)
    export = {"svg": boards.export_svg, "graphml": boards.export_graphml, "json": boards.export_json}[args.format]
    text = export(cg.board)
    if args.output in (None, "-"):
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({len(cg.board.spaces)} spaces, {args.format})")
    return EXIT_OK
