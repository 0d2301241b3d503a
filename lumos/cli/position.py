"""`lumos position`: a game's position written out (YAML or JSON), built from flags or read
from a position file, with the options open there.

Why: a test, a card test or a bug report starts from a position, and writing one needs the
game's names (pieces, zones, variables per side, per piece ...). The quickest way to learn
them is to look at a position the game writes itself; a position file is checked here with
the same messages `load_position` gives (`file:line:col: P1xx ...`).
"""
from __future__ import annotations

import json

from lumos.cli.common import EXIT_OK, UsageError, add_option, add_with, compile_or_fail, parse_options


def register(sub) -> None:
    """Add `lumos position` and its arguments to the sub-command parsers."""
    s = sub.add_parser("position", help="write out a position of a game (names for tests and card tests)",
                       description="Write a game's position in names (pieces, zones, variables, where the rules "
                                   "stand) as YAML, followed by the options open there as comments. Without "
                                   "FILE the position is the game's first decision, or with --at the start of a "
                                   "rule (for --current's side); with FILE the position file is checked and "
                                   "written out as the game reads it.")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("file", metavar="FILE", nargs="?", help="a position file (YAML) to check and write out")
    s.add_argument("--seed", type=int, default=None, help="the seed (default 0)")
    s.add_argument("--at", metavar="RULE", help="the first time the rules start RULE (a procedure or action)")
    s.add_argument("--current", metavar="SIDE", help="with --at: the first time RULE starts on SIDE's turn")
    s.add_argument("--for", dest="for_side", metavar="SIDE",
                   help="write only what SIDE may see (hidden zones as their size)")
    s.add_argument("--json", action="store_true", help="print JSON (no comments)")
    add_with(s)
    add_option(s)
    s.set_defaults(func=run)


def run(args) -> int:
    from lumos.api import load_position
    cg, _ = compile_or_fail(args.game, args.with_paths)
    if args.file is not None:
        if args.at or args.current or args.seed is not None or args.option:
            raise UsageError("with a position FILE, write `at:`, `current:`, `seed:` and `options:` in the file")
        state = load_position(cg, args.file)
    else:
        data: dict = {"seed": args.seed or 0}
        options = parse_options(cg, args.option)
        if options:
            data["options"] = options
        if args.at:
            data["at"] = {"start_of": args.at}
        if args.current:
            data["current"] = args.current
        state = load_position(cg, data)
    for_side = None
    if args.for_side is not None:
        if args.for_side not in cg.sides:
            raise UsageError(f"{cg.id} has no side `{args.for_side}`; its sides: {', '.join(cg.sides)}")
        for_side = cg.sides.index(args.for_side)
    position = state.position(for_side=for_side)
    if args.json:
        print(json.dumps(position, indent=2, ensure_ascii=False))
        return EXIT_OK
    import yaml
    print(yaml.safe_dump(position, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None).rstrip())
    print(_options_comment(state, for_side))
    return EXIT_OK


def _options_comment(state, for_side: int | None) -> str:
    """The options open at the position, as YAML comments (a side's own only, with --for)."""
    if state.is_terminal():
        return "# the game is over: " + ("a draw" if state.winner() is None else f"{state.cg.sides[state.winner()]} wins")
    if state.is_chance_node():
        return "# chance decides here (a die, a shuffle, a draw)"
    side = state.current_player()
    who = state.cg.sides[side]
    if for_side is not None and for_side != side:
        return f"# {who} decides here"
    lines = [f"# {who} decides here; the options:"]
    lines += [f"#   {k}. {label}" for k, label in enumerate(state.action_labels(), 1)]
    return "\n".join(lines)
