"""`lumos schema`: a game's card schema (or team-file schema) as one JSON Schema for editors."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import EXIT_OK, UsageError, compile_or_fail, sources

QUICK_EXIT = True  # leaves no file open: lumos.cli.entry ends the process at once


def register(sub) -> None:
    """Add `lumos schema` and its arguments to the sub-command parsers."""
    s = sub.add_parser("schema", help="write a game's card schema (JSON Schema) for editors and validators",
                       description="Print the game's card schema as one self-contained JSON Schema "
                                   "(Draft 2020-12), or write it and the expansion manifest schema into a folder.")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("-o", "--output", metavar="DIR", help="folder to write the schemas into (default: print)")
    s.add_argument("--team", action="store_true",
                   help="the schema of the game's team files instead (GAME.team.schema.json)")
    s.add_argument("--no-names", action="store_true",
                   help="with --team: leave out the lists of card names (a schema that card changes do not date)")
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.editor.schemas import bundle_schema, schema_file, write_schemas
    if args.team:
        return _team_schema(args)
    src = sources(args.game)
    try:
        path = schema_file(src)
    except LookupError as exc:
        raise UsageError(str(exc)) from None
    if args.output in (None, "-"):
        print(json.dumps(bundle_schema(path), indent=2, ensure_ascii=False))
        return EXIT_OK
    for written in write_schemas(src, Path(args.output)):
        print(f"wrote {written}")
    return EXIT_OK


def _team_schema(args) -> int:
    """`lumos schema GAME --team`: the JSON Schema of the game's team files, made from its `team`."""
    from lumos.compiler.teams import team_schema
    cg, src = compile_or_fail(args.game)
    if cg.team is None:
        raise UsageError(f"{cg.id} takes no team files: its rules declare no `team`")
    schema = team_schema(cg, names=not args.no_names)
    text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    if args.output in (None, "-"):
        print(text, end="")
        return EXIT_OK
    out = Path(args.output) / f"{cg.id}.team.schema.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return EXIT_OK
