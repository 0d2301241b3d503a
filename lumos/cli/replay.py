"""`lumos replay`: a game log replayed and verified; where it diverges, the line and both values."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    UsageError,
    add_with,
    compile_or_fail,
    display_path,
    err,
)


def register(sub) -> None:
    """Add `lumos replay` and its arguments to the sub-command parsers."""
    s = sub.add_parser("replay", help="replay a game log and check it reproduces")
    s.add_argument("log", metavar="LOG")
    s.add_argument("--game", metavar="GAME|PATH", help="the game to replay with (default: the log's game)")
    add_with(s)
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.interpreter.log import log_header, replay
    path = Path(args.log)
    if not path.is_file():
        raise UsageError(f"no log file `{args.log}`")
    game = args.game or log_header(path).get("game")
    if not game:
        err(f"{args.log}:1: the first line is not a Lumos log header")
        return EXIT_FAIL
    cg, _ = compile_or_fail(game, args.with_paths)
    result = replay(cg, path)
    for w in result.warnings:
        err(f"warning: {w}")
    if result.ok:
        print(f"{args.log}: reproduced ({result.decisions} decisions, {result.lines} lines)")
        return EXIT_OK
    d = result.divergence
    if result.cards is not None and result.cards.missing:
        print(f"{args.log}:{d.line}: the game was played with cards this replay does not have:")
        for f in result.cards.missing:
            print(f"  {f.get('file')} (was {f.get('path')})")
        hints = list(dict.fromkeys(_with_hint(f) for f in result.cards.missing))   # one per expansion
        print("  replay with " + " ".join(f"--with {h}" for h in hints))
        return EXIT_FAIL
    print(f"{args.log}:{d.line}: the replay diverges")
    print(f"  log:    {_short(d.expected)}")
    print(f"  replay: {_short(d.got)}")
    return EXIT_FAIL


def _with_hint(card_file: dict) -> str:
    """What to give `--with` for a card file of a log: its expansion folder when it has one."""
    from lumos.toolkit.expansions import manifest_path
    path = Path(str(card_file.get("path") or card_file.get("file")))
    if path.is_file() and manifest_path(path.parent) is not None:
        path = path.parent
    text = display_path(str(path))
    return f"'{text}'" if any(c.isspace() for c in text) else text


def _short(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
