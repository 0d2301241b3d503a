"""What every `lumos` command shares: exit codes, usage errors, rendering diagnostics for the
terminal, and finding, compiling and configuring the game a command names.

Each command module (lumos.cli.check, lumos.cli.simulate, ...) imports these public
helpers; no command imports another command.
"""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from lumos.toolkit.with_paths import split_teams, yaml_files  # noqa: F401  (shared by the commands)

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
AGENT_NAMES = ("random", "greedy", "mcts")   # mcts takes parameters: mcts:200, mcts:2s, mcts:200:d4
SHOWN_BYTES = 4_000_000   # of a file a diagnostic points into but the checker did not keep
SHOWN_WIDTH = 160   # a longer source line is shown as the part around the column


class UsageError(Exception):
    """A command line that names something that does not exist; exits with 2."""


def display_path(path: str) -> str:
    """A path relative to the working folder when the file is inside it (shorter, still jumpable)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") or os.path.isabs(rel) else rel


def _source_lines(path: str, files: dict | None) -> list[str] | None:
    if files and path in files:
        return files[path].splitlines()
    from lumos.compiler.named_files import read_head
    try:   # a regular file only (never a FIFO or a device), and only its start
        return read_head(Path(path), SHOWN_BYTES).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def render_diagnostic(d, files: dict | None = None) -> str:
    from dataclasses import replace
    lines = _source_lines(d.span.file, files)
    span = replace(d.span, file=display_path(d.span.file))
    if lines is not None and 1 <= span.line <= len(lines) and len(lines[span.line - 1]) > SHOWN_WIDTH:
        text = lines[span.line - 1]
        start = max(0, min(span.col - 1 - SHOWN_WIDTH // 2, len(text) - SHOWN_WIDTH))
        window = ("..." if start else "") + text[start:start + SHOWN_WIDTH] + \
            ("..." if start + SHOWN_WIDTH < len(text) else "")
        shift = start - (3 if start else 0)
        end_col = span.end_col - shift if span.end_line == span.line and span.end_col else 0
        span = replace(span, col=span.col - shift, end_col=max(0, min(end_col, len(window) + 1)))
        lines = lines[:span.line - 1] + [window]
    shown = replace(d, span=span)
    return shown.render(lines).replace(f"{span.file}:{span.line}:{span.col}:",
                                       f"{span.file}:{d.span.line}:{d.span.col}:", 1)


def count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def err(text: str) -> None:
    print(text, file=sys.stderr)



def bundled_ids() -> list[str]:
    from lumos.api import bundled_games
    return bundled_games()


def sources(game: str):
    from lumos.api import bundled_games, game_sources
    if game in bundled_games():
        return game_sources(game)
    path = Path(game)
    if path.is_file() and path.suffix == ".lumos":
        path = path.parent
    if path.is_dir() and (path / "game.lumos").is_file():
        return game_sources(path)
    if path.exists():
        raise UsageError(f"`{game}` is not a game: a game is a folder holding game.lumos")
    raise UsageError(f"unknown game `{game}`; bundled games: {', '.join(bundled_games()) or 'none'}")


def compile_or_fail(game: str, with_paths: list[str] | None = None):
    """(CompiledGame, sources) or a LumosCheckError with every diagnostic.

    `with_paths`: expansion folders (or manifests), card files or folders of card files
    whose cards are added to the game's (lumos.toolkit.with_paths)."""
    from lumos.toolkit.with_paths import compile_with
    src = sources(game)
    try:
        return compile_with(src, game, with_paths or [])
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def teams_of(cg, pairs: list[str], options: dict | None = None) -> dict | None:
    """`--team SIDE=FILE` pairs -> checked teams for `GameState.new(teams=...)`, or a LumosCheckError."""
    from lumos.compiler.teams import check_teams
    from lumos.diagnostics import LumosCheckError
    paths: dict[str, Path] = {}
    for pair in pairs or []:
        side, sep, file = pair.partition("=")
        side = side.strip()
        if not sep or not file.strip():
            raise UsageError(f"--team needs SIDE=FILE, not `{pair}`")
        if side not in cg.sides:
            raise UsageError(f"{cg.id} has no side `{side}`; sides: {', '.join(cg.sides)}")
        if side in paths:
            raise UsageError(f"two team files for `{side}`")
        if not Path(file).is_file():
            raise UsageError(f"no team file `{file}`")
        paths[side] = Path(file)
    if not paths:
        return None
    if cg.team is None:
        raise UsageError(f"{cg.id} takes no team files: its rules declare no `team`")
    teams, diags = check_teams(cg, paths, options)
    if teams is None:
        err = LumosCheckError(diags)
        from lumos.compiler.named_files import shown_text
        err.files = {**cg.files, **{str(p): shown_text(p) for p in paths.values()}}
        raise err
    return teams


@functools.lru_cache(maxsize=4)
def load_with(game: str, with_paths: tuple[str, ...]):
    """A compiled game with expansions, once per worker process."""
    return compile_or_fail(game, list(with_paths))[0]


def parse_options(cg, pairs: list[str]) -> dict:
    """`name=value` pairs -> option values of the game's declared choices."""
    options = {}
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"--option needs name=value, not `{pair}`")
        if name not in cg.options:
            raise UsageError(f"{cg.id} has no option `{name}`; options: {', '.join(cg.options) or 'none'}")
        choices = cg.options[name][1]
        match = [c for c in choices if option_text(c) == text.strip()]
        if not match:
            raise UsageError(f"option `{name}` is one of {', '.join(option_text(c) for c in choices)}, "
                             f"not `{text}`")
        options[name] = match[0]
    return options


def option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def agent_list(cg, text: str | None, default: str = "random", seated: list[int] | None = None) -> list[str]:
    """One agent name per side of `cg`, from `--agents`: one name for every side, one per side,
    or one per seated side (`seated`, the sides in play; the others are never asked, and get
    the default). Without `--agents`, the game's `default agents` (random if it has none)."""
    if not (text or "").strip() and getattr(cg, "default_agents", None):
        return list(cg.default_agents)
    names = [a.strip() for a in (text or "").split(",") if a.strip()] or [default]
    from lumos.interpreter.agents import check_agent
    for n in names:
        try:
            check_agent(n)
        except ValueError as exc:
            raise UsageError(f"{exc} (agents: {', '.join(AGENT_NAMES)})") from None
    if len(names) == 1:
        return names * cg.nsides
    if len(names) == cg.nsides:
        return names
    if seated is not None and len(names) == len(seated):
        full = [default] * cg.nsides
        for side, name in zip(seated, names):
            full[side] = name
        return full
    sat = [cg.sides[i] for i in seated] if seated is not None else list(cg.sides)
    if len(sat) != cg.nsides:
        raise UsageError(f"{cg.id} seats {len(sat)} sides with these options ({', '.join(sat)}): give 1 agent, "
                         f"{len(sat)} (one per seated side) or {cg.nsides} (one per side), not {len(names)}")
    raise UsageError(f"{cg.id} has {cg.nsides} sides ({', '.join(cg.sides)}): give {cg.nsides} agents, "
                     f"not {len(names)}")


def default_agent(cg, side: int, given: str | None) -> str:
    """The agent for one rival `side` in `lumos play` / `lumos view`: `--agent` if given, else the
    game's `default agents` for that side, else random."""
    if given:
        return given
    return cg.default_agents[side] if getattr(cg, "default_agents", None) else "random"


def add_against_agents(s, live: str = "") -> None:
    """`--as SIDE` and `--agent NAME`: the arguments of a person playing against agents
    (`lumos play`, `lumos view GAME`); `live` prefixes their help where they apply only then."""
    s.add_argument("--as", dest="as_side", metavar="SIDE", help=f"{live}the side you play (default: the first)")
    s.add_argument("--agent", choices=AGENT_NAMES, default=None,
                   help=f"{live}the agent you play against (default: the game's `default agents`, else random)")


def start_against_agents(args, game: str, seed: int):
    """A game a person plays against agents, as `lumos play` and `lumos view GAME` start it:
    (compiled game, its sources, the person's side, {rival side: agent}, the state at the
    start, logged, forced decisions taken). Reads --as, --agent, --with, --option, --team."""
    from lumos.interpreter.agents import agent_seed, make_agent
    from lumos.interpreter.engine import GameState
    cg, src = compile_or_fail(game, args.with_paths)
    side = 0
    if args.as_side is not None:
        if args.as_side not in cg.sides:
            raise UsageError(f"{cg.id} has no side `{args.as_side}`; sides: {', '.join(cg.sides)}")
        side = cg.sides.index(args.as_side)
    options = parse_options(cg, args.option)
    teams = teams_of(cg, args.teams, options)
    rivals = {k: make_agent(default_agent(cg, k, args.agent), agent_seed(seed, k))
              for k in range(cg.nsides) if k != side}
    state = GameState.new(cg, seed=seed, options=options, log=True, teams=teams, forced="take")
    return cg, src, side, rivals, state


def seated_sides(cg, options: dict, seed: int = 0, teams: dict | None = None) -> list[int]:
    """The sides in play in a game of `cg` with these options (its set-up may remove some)."""
    from lumos.interpreter.engine import GameState
    return GameState.new(cg, seed=seed, options=options, teams=teams, forced="take").sides_in_play()


def add_with(s) -> None:
    """The `--with PATH` argument that the commands reading a game share."""
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add the cards of an expansion folder (or of card files); repeatable")


def add_dask(s) -> None:
    """`--dask ADDRESS|local`: spread the games over a Dask cluster (the `dask` extra)."""
    s.add_argument("--dask", metavar="ADDRESS|local",
                   help="play the games on the Dask scheduler at ADDRESS, or on a local cluster (`local`); "
                        "needs the dask extra")


def add_team(s) -> None:
    """The `--team SIDE=FILE` argument of the commands that start games."""
    s.add_argument("--team", dest="teams", action="append", default=[], metavar="SIDE=FILE",
                   help="a team file for a side (checked first); without one the game's setup builds the team")


def add_option(s) -> None:
    """The `--option NAME=VALUE` argument of the commands that start games."""
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option")
