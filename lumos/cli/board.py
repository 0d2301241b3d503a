"""`lumos board`: a game's board drawn as SVG or PNG (as the reference and the viewer draw it),
or exported as GraphML or JSON; with `--position`, the pieces where that position puts them."""
from __future__ import annotations

import sys
from pathlib import Path

from lumos.cli.common import EXIT_OK, UsageError, compile_or_fail


def register(sub) -> None:
    """Add `lumos board` and its arguments to the sub-command parsers."""
    s = sub.add_parser("board", help="draw or export a game's board")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--format", choices=("svg", "png", "graphml", "json"), default="svg",
                   help="svg/png: the board as the game looks (png needs the `png` extra); "
                        "graphml/json: the board graph")
    s.add_argument("--position", metavar="FILE", help="a position file (YAML); its pieces are drawn (svg, png)")
    s.add_argument("-o", "--output", metavar="FILE", help="output file (default: stdout; png needs a file)")
    s.set_defaults(func=run)


def run(args) -> int:
    cg, _ = compile_or_fail(args.game)
    if args.position and args.format not in ("svg", "png"):
        raise UsageError("--position draws pieces on a picture: use it with --format svg or png")
    data = _drawn(cg, args) if args.format in ("svg", "png") else _exported(cg, args.format)
    if args.output in (None, "-"):
        if isinstance(data, bytes):
            raise UsageError("PNG is binary: write it to a file with -o FILE.png")
        sys.stdout.write(data if data.endswith("\n") else data + "\n")
        return EXIT_OK
    out = Path(args.output)
    out.write_bytes(data) if isinstance(data, bytes) else out.write_text(data, encoding="utf-8")
    print(f"wrote {args.output} ({len(cg.board.spaces)} spaces, {args.format})")
    return EXIT_OK


def _drawn(cg, args) -> str | bytes:
    from lumos.reference.boards import PngUnavailable, render_png, render_svg
    position = None
    if args.position:
        from lumos.api import load_position
        position = load_position(cg, args.position)
    if args.format == "svg":
        return render_svg(cg, position)
    try:
        return render_png(cg, position)
    except PngUnavailable as exc:
        raise UsageError(str(exc)) from None


def _exported(cg, fmt: str) -> str:
    from lumos.compiler import boards
    return {"graphml": boards.export_graphml, "json": boards.export_json}[fmt](cg.board)
