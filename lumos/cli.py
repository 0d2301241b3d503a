"""Command-line arguments -> the `lumos` tool: list, check, simulate, play, replay, show boards.

Conventions of Python tools: subcommands with `--help`, problems printed as
`file:line:col: CODE message` with the source line and a caret (so editors jump
to them), exit status 0 when all is well, 1 when the rules or a log are wrong,
2 for a usage error or an internal failure. Progress goes to stderr, results to
stdout, `--json` where a machine reads the output. No traceback reaches a user
unless `LUMOS_DEBUG=1`.

Heavy modules (the compiler, the interpreter, rich) are imported inside the
commands, so `lumos --help` starts fast.

>>> main(["check", "--format", "json"])      # doctest: +SKIP
[]
0
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from pathlib import Path

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
AGENT_NAMES = ("random", "greedy")
SHOW_ERRORS = 3   # runtime errors printed in full by `simulate`
DEFAULT_MAX = 50   # diagnostics shown by `lumos check` before "... and N more"


class UsageError(Exception):
    """A command line that names something that does not exist; exits with 2."""


# ---------------------------------------------------------------- rendering diagnostics
def _display_path(path: str) -> str:
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


SHOWN_WIDTH = 160   # a longer source line is shown as the part around the column
SHOWN_BYTES = 4_000_000   # of a file a diagnostic points into but the checker did not keep


def render_diagnostic(d, files: dict | None = None) -> str:
    from dataclasses import replace
    lines = _source_lines(d.span.file, files)
    span = replace(d.span, file=_display_path(d.span.file))
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


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _err(text: str) -> None:
    print(text, file=sys.stderr)


# ---------------------------------------------------------------- finding and loading games
def _yaml_files(folder: Path) -> list[Path]:
    """The card files of a folder: its YAML files but an expansion manifest."""
    from lumos.expansions import MANIFEST
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.suffix in (".yaml", ".yml") and p.name != MANIFEST)


def _sources(game: str):
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


def _compile(game: str, with_paths: list[str] | None = None):
    """(CompiledGame, sources) or a LumosCheckError with every diagnostic.

    `with_paths`: expansion folders (or manifests), card files or folders of card files
    whose cards are added to the game's."""
    from lumos.compiler.game import check_game
    from lumos.diagnostics import LumosCheckError
    src = _sources(game)
    extra, pre_diags, pre_files = _with_cards(src, game, with_paths or [])
    src = _with_rules(src, with_paths or [])
    cg, diags, files = check_game(src, extra_cards=extra or None)
    if cg is None or any(d.is_error for d in pre_diags):
        err = LumosCheckError(pre_diags + list(diags))
        err.files = {**pre_files, **files}
        raise err
    return cg, src


def _with_cards(src, game: str, with_paths: list[str]) -> tuple[list[Path], list, dict]:
    """The card files of `--with` expansions, and the problems of their manifests."""
    from lumos.expansions import load_expansion, manifest_path
    extra: list[Path] = []
    diags: list = []
    files: dict = {}
    own = {p.resolve() for p in src.card_files()}
    for item in with_paths:
        path = Path(item)
        manifest = manifest_path(path)
        if manifest is not None:
            exp, problems, texts = load_expansion(manifest)
            diags += problems
            files.update(texts)
            if exp is None:
                continue
            if exp.base.rules_dir.resolve() != src.rules_dir.resolve():
                raise UsageError(f"the expansion `{item}` extends `{exp.extends}`, not `{game}`")
            found = exp.card_files
        elif path.is_dir():
            found = _yaml_files(path)
            if not found:
                raise UsageError(f"`{item}` is neither an expansion nor a folder of card files")
        elif path.is_file():
            found = [path]
        else:
            raise UsageError(f"no expansion or card file `{item}`")
        found = _split_teams(found)[0]
        extra += [p for p in found if p.resolve() not in own and p not in extra]
    return extra, diags, files


def _with_rules(src, with_paths: list[str]):
    """The game's sources with the rules files that `--with` expansions replace or add."""
    from lumos.expansions import with_rules
    try:
        return with_rules(src, with_paths)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _split_teams(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """(card files, team files): a YAML file with a top-level `team:` key is a team file."""
    from lumos.compiler.teams import looks_like_team_file
    teams = [p for p in paths if looks_like_team_file(p)]
    return [p for p in paths if p not in teams], teams


def _teams(cg, pairs: list[str], options: dict | None = None) -> dict | None:
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
def _load_with(game: str, with_paths: tuple[str, ...]):
    """A compiled game with expansions, once per worker process."""
    return _compile(game, list(with_paths))[0]


def _parse_options(cg, pairs: list[str]) -> dict:
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
        match = [c for c in choices if _option_text(c) == text.strip()]
        if not match:
            raise UsageError(f"option `{name}` is one of {', '.join(_option_text(c) for c in choices)}, "
                             f"not `{text}`")
        options[name] = match[0]
    return options


def _option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _agent_list(cg, text: str | None, default: str = "random") -> list[str]:
    names = [a.strip() for a in (text or "").split(",") if a.strip()] or [default]
    for n in names:
        if n not in AGENT_NAMES:
            raise UsageError(f"unknown agent `{n}`; agents: {', '.join(AGENT_NAMES)}")
    if len(names) == 1:
        names = names * cg.nsides
    if len(names) != cg.nsides:
        raise UsageError(f"{cg.id} has {cg.nsides} sides ({', '.join(cg.sides)}): give {cg.nsides} agents, "
                         f"not {len(names)}")
    return names


# ---------------------------------------------------------------- lumos games
def cmd_games(args) -> int:
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


# ---------------------------------------------------------------- lumos check (lumos.check_cli)
def cmd_check(args) -> int:
    from lumos.check_cli import cmd_check as run
    return run(args)


def github_annotation(d) -> str:
    from lumos.check_cli import github_annotation as annotate
    return annotate(d)


# ---------------------------------------------------------------- lumos simulate
def _run_batch(game: str, seeds: list[int], agents: list[str], options: dict, log_dir: str | None,
               max_decisions: int, with_paths: tuple[str, ...] = (), teams: dict | None = None) -> list[dict]:
    """Play the games with these seeds (in a worker process when --jobs > 1); plain records out."""
    from lumos.api import load_game, settle_memory
    cg = _load_with(game, with_paths) if with_paths else load_game(game)
    if with_paths:
        settle_memory()
    return _play_seeds(cg, seeds, agents, options, log_dir, max_decisions, teams)


def _play_seeds(cg, seeds: list[int], agents: list[str], options: dict, log_dir: str | None,
                max_decisions: int, teams: dict | None = None) -> list[dict]:
    from lumos.interpreter.agents import agent_seed, make_agent, play_game
    out = []
    for seed in seeds:
        players = [make_agent(name, agent_seed(seed, k)) for k, name in enumerate(agents)]
        if log_dir:
            path = Path(log_dir) / f"{cg.id}-{seed}.jsonl"
            with open(path, "w", encoding="utf-8") as fh:
                r = play_game(cg, players, seed, options=options, log=fh, max_decisions=max_decisions,
                              agent_names=agents, teams=teams)
        else:
            r = play_game(cg, players, seed, options=options, max_decisions=max_decisions, teams=teams)
        out.append({"seed": seed, "winner": r.winner, "returns": r.returns, "decisions": r.decisions,
                     "error": r.error})
    return out


def _bundled() -> list[str]:
    from lumos.api import bundled_games
    return bundled_games()


def _chunks(seeds: list[int], jobs: int) -> list[list[int]]:
    size = max(1, min(50, len(seeds) // (jobs * 4) or 1))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def cmd_simulate(args) -> int:
    import time
    if args.n < 0:
        raise UsageError("-n must be 0 or more")
    cg, src = _compile(args.game, args.with_paths)
    agents = _agent_list(cg, args.agents)
    options = _parse_options(cg, args.option)
    teams = _teams(cg, args.teams, options)
    if args.log_dir:
        Path(args.log_dir).mkdir(parents=True, exist_ok=True)
    seeds = [args.seed + i for i in range(args.n)]
    game_arg = args.game if args.game in _bundled() else str(src.rules_dir)
    records: list[dict] = []
    start = time.perf_counter()
    with _progress(args.n, f"{cg.id}", quiet=args.quiet) as advance:
        if args.jobs > 1 and args.n > 1:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                with_paths = tuple(str(Path(p).resolve()) for p in args.with_paths)
                futures = [pool.submit(_run_batch, game_arg, chunk, agents, options, args.log_dir,
                                       args.max_decisions, with_paths, teams) for chunk in _chunks(seeds, args.jobs)]
                for fut in futures:
                    batch = fut.result()
                    records.extend(batch)
                    advance(len(batch))
        else:
            for seed in seeds:
                records.extend(_play_seeds(cg, [seed], agents, options, args.log_dir, args.max_decisions, teams))
                advance(1)
    elapsed = time.perf_counter() - start
    records.sort(key=lambda r: r["seed"])
    summary = _summarise(cg, records, elapsed, args.seed, agents, options)
    if args.with_paths:
        summary["with"] = list(args.with_paths)
    if teams:
        summary["teams"] = {side: team["file"] for side, team in teams.items()}
    failed = [r for r in records if r["error"] is not None]
    for r in failed[:SHOW_ERRORS]:
        _err(f"game with seed {r['seed']} stopped:")
        _err(render_diagnostic(r["error"], cg.files))
    if len(failed) > SHOW_ERRORS:
        _err(f"... and {_count(len(failed) - SHOW_ERRORS, 'more failed game')}")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print_summary(summary, cg)
    return EXIT_OK


def _summarise(cg, records, elapsed, seed, agents, options) -> dict:
    done = [r for r in records if r["error"] is None]
    wins = {name: 0 for name in cg.sides}
    wins["draw"] = 0
    for r in done:
        wins["draw" if r["winner"] is None else cg.sides[r["winner"]]] += 1
    decisions = [r["decisions"] for r in done]
    errors: dict[str, int] = {}
    for r in records:
        if r["error"] is not None:
            errors[r["error"].code] = errors.get(r["error"].code, 0) + 1
    n = len(records)
    return {
        "game": cg.id, "games": n, "completed": len(done), "errors": n - len(done), "error_codes": errors,
        "wins": wins, "win_rates": {k: (v / len(done) if done else 0.0) for k, v in wins.items()},
        "mean_decisions": (sum(decisions) / len(decisions)) if decisions else 0.0,
        "min_decisions": min(decisions, default=0), "max_decisions": max(decisions, default=0),
        "seconds": round(elapsed, 3), "games_per_second": round(n / elapsed, 1) if elapsed > 0 else 0.0,
        "seed": seed, "agents": dict(zip(cg.sides, agents)), "options": options,
    }


def _print_summary(s: dict, cg) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{cg.id}: {_count(s['games'], 'game')}, first seed {s['seed']}", min_width=48)
    table.add_column("", style="bold")
    table.add_column("value", justify="right")
    table.add_row("games", str(s["games"]))
    table.add_row("completed", str(s["completed"]))
    table.add_row("errors", str(s["errors"]))
    for side in cg.sides:
        table.add_row(f"wins {side} ({s['agents'][side]})", f"{s['wins'][side]}  ({s['win_rates'][side]:.1%})")
    table.add_row("draws", f"{s['wins']['draw']}  ({s['win_rates']['draw']:.1%})")
    table.add_row("decisions mean / min / max",
                  f"{s['mean_decisions']:.1f} / {s['min_decisions']} / {s['max_decisions']}")
    table.add_row("games/s", f"{s['games_per_second']}")
    Console(soft_wrap=False).print(table)


class _progress:
    """A rich progress bar on stderr (hidden when stderr is not a terminal or with --quiet)."""

    def __init__(self, total: int, what: str, quiet: bool = False):
        self.total, self.what, self.quiet = total, what, quiet
        self.bar = None

    def __enter__(self):
        if self.quiet:
            return lambda k: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        console = Console(stderr=True)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=console, transient=True,
                            disable=not console.is_terminal)
        self.bar.__enter__()
        task = self.bar.add_task(f"simulating {self.what}", total=self.total)
        return lambda k: self.bar.advance(task, k)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


# ---------------------------------------------------------------- lumos play, lumos replay (lumos.play_cli)
def cmd_play(args) -> int:
    from lumos.play_cli import cmd_play as run
    return run(args)


def cmd_replay(args) -> int:
    from lumos.play_cli import cmd_replay as run
    return run(args)


# ---------------------------------------------------------------- lumos board
def cmd_board(args) -> int:
    from lumos.compiler import boards
    cg, _ = _compile(args.game)
    export = {"svg": boards.export_svg, "graphml": boards.export_graphml, "json": boards.export_json}[args.format]
    text = export(cg.board)
    if args.output in (None, "-"):
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({len(cg.board.spaces)} spaces, {args.format})")
    return EXIT_OK


# ---------------------------------------------------------------- lumos explain
def cmd_explain(args) -> int:
    from lumos.explain import explain_card, find_cards, rules_decls
    from lumos.diagnostics import did_you_mean
    games = [args.game] if args.game else _bundled()
    names: list[str] = []
    for game in games:
        cg, src = _compile(game, args.with_paths)
        if find_cards(cg, args.card):
            decls, texts = rules_decls(src)
            sys.stdout.write(explain_card(cg, args.card, decls, texts, english=not args.no_english))
            return EXIT_OK
        names += [d.name for d in cg.card_defs]
    where = f"`{args.game}`" if args.game else "the bundled games"
    hint = did_you_mean(args.card, sorted(set(names)))
    raise UsageError(f"no card `{args.card}` in {where}" + (f"; {hint}" if hint else ""))


# ---------------------------------------------------------------- lumos schema, lumos new card
def cmd_schema(args) -> int:
    from lumos.skeleton import bundle_schema, schema_file, write_schemas
    if args.team:
        return _team_schema(args)
    src = _sources(args.game)
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
    cg, src = _compile(args.game)
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


def cmd_new(args) -> int:
    from lumos.explain import declared_windows
    from lumos.skeleton import card_skeleton
    src = _sources(args.game)
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


# ---------------------------------------------------------------- lumos docs
def cmd_docs(args) -> int:
    try:
        from lumos.reference import build_docs
    except ImportError as exc:
        raise UsageError(f"`lumos docs` needs Sphinx: pip install 'lumos-games[docs]' ({exc})") from None
    return build_docs(args.output, args.with_paths)


# ---------------------------------------------------------------- lumos lsp
def cmd_lsp(args) -> int:
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("`lumos lsp` needs pygls: pip install 'lumos-games[lsp]'") from None
    from lumos.lsp import serve
    return serve()


# ---------------------------------------------------------------- the parser
def build_parser() -> argparse.ArgumentParser:
    from lumos import __version__
    p = argparse.ArgumentParser(prog="lumos", description="Check, play and simulate board games written in Lumos.")
    p.add_argument("--version", action="version", version=f"lumos {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser("games", help="list the bundled games")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=cmd_games)

    s = sub.add_parser("check", help="check rules, board and cards; print every problem",
                       description="Check games, expansions or card files and print every problem found, "
                                   "sorted by file and line. Exit status: 0 clean (warnings allowed), "
                                   "1 problems found, 2 usage or internal error.")
    s.add_argument("paths", nargs="*", metavar="GAME|PATH",
                   help="bundled game ids, game folders or expansion folders (default: every bundled game); "
                        "with --game, card files or folders of card files")
    s.add_argument("--game", metavar="GAME|PATH", help="check the card files given against this game")
    s.add_argument("--format", choices=("text", "json", "github"), default="text",
                   help="text (default), json (a list of diagnostics), github (Actions annotations)")
    s.add_argument("--max", type=int, default=None, metavar="N",
                   help=f"show at most N problems (default {DEFAULT_MAX}; 0: all; json: all unless given)")
    s.add_argument("--strict", action="store_true", help="warnings fail the check too (exit status 1)")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("simulate", help="play many games between agents and summarise the results")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    s.add_argument("--agents", help=f"comma-separated agents per side ({', '.join(AGENT_NAMES)}); default random")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--log-dir", help="write one replayable log per game into this folder")
    s.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    s.add_argument("--max-decisions", type=int, default=100_000, help="stop a game after this many decisions")
    s.add_argument("--team", dest="teams", action="append", default=[], metavar="SIDE=FILE",
                   help="a team file for a side (checked first); without one the game's setup builds the team")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add the cards of an expansion folder (or of card files); repeatable")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser("play", help="play in the terminal against an agent")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--as", dest="as_side", metavar="SIDE", help="the side you play (default: the first)")
    s.add_argument("--agent", choices=AGENT_NAMES, default="random", help="the agent you play against")
    s.add_argument("--team", dest="teams", action="append", default=[], metavar="SIDE=FILE",
                   help="a team file for a side (checked first); without one the game's setup builds the team")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add the cards of an expansion folder (or of card files); repeatable")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="set a game option")
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay", help="replay a game log and check it reproduces")
    s.add_argument("log", metavar="LOG")
    s.add_argument("--game", metavar="GAME|PATH", help="the game to replay with (default: the log's game)")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add the cards of an expansion folder (or of card files); repeatable")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("board", help="export a game's board")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--format", choices=("svg", "graphml", "json"), default="svg")
    s.add_argument("-o", "--output", metavar="FILE", help="output file (default: stdout)")
    s.set_defaults(func=cmd_board)
    s = sub.add_parser("explain", help="explain a card: its data, effect, English and where the rules play it")
    s.add_argument("card", metavar="CARD", help="the card's name (quote it when it has spaces)")
    s.add_argument("--game", metavar="GAME|PATH", help="the game of the card (default: search the bundled games)")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add the cards of an expansion folder (or of card files); repeatable")
    s.add_argument("--no-english", action="store_true", help="leave out the plain-English rendering")
    s.set_defaults(func=cmd_explain)

    s = sub.add_parser("schema", help="write a game's card schema (JSON Schema) for editors and validators",
                       description="Print the game's card schema as one self-contained JSON Schema "
                                   "(Draft 2020-12), or write it and the expansion manifest schema into a folder.")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("-o", "--output", metavar="DIR", help="folder to write the schemas into (default: print)")
    s.add_argument("--team", action="store_true",
                   help="the schema of the game's team files instead (GAME.team.schema.json)")
    s.add_argument("--no-names", action="store_true",
                   help="with --team: leave out the lists of card names (a schema that card changes do not date)")
    s.set_defaults(func=cmd_schema)

    s = sub.add_parser("new", help="print a commented YAML skeleton of a new card",
                       description="Print a new card of the given type, every field commented from the "
                                   "game's card schema; required fields carry a placeholder value.")
    s.add_argument("what", choices=("card",), help="what to make (a card)")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--type", required=True, metavar="TYPE", help="the card type")
    s.add_argument("-o", "--output", metavar="FILE", help="write it to this file (default: print)")
    s.add_argument("--force", action="store_true", help="overwrite the output file")
    s.set_defaults(func=cmd_new)

    s = sub.add_parser("docs", help="build the HTML rules reference of every bundled game",
                       description="Build the rules reference (HTML, with Sphinx) of every bundled game from its "
                                   "compiled rules and cards: components, sequence, actions, cards in Lumos and "
                                   "in English, the board, and the rulebook coverage.")
    s.add_argument("-o", "--output", metavar="DIR", default="lumos-reference",
                   help="output folder (default: lumos-reference)")
    s.add_argument("--with", dest="with_paths", action="append", default=[], metavar="PATH",
                   help="add an expansion folder, card files (GAME=PATH names their game) or a game folder; "
                        "repeatable")
    s.set_defaults(func=cmd_docs)

    s = sub.add_parser("lsp", help="run a language server: lumos check problems in the editor",
                       description="A Language Server Protocol server on stdin/stdout: when a rules or card "
                                   "file is opened, changed or saved, the editor shows the problems `lumos check` "
                                   "finds in its game. Needs pygls (pip install 'lumos-games[lsp]').")
    s.set_defaults(func=cmd_lsp)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # --help, --version, or a usage error already printed by argparse
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    debug = os.environ.get("LUMOS_DEBUG") == "1"
    from lumos.diagnostics import LumosError
    try:
        return args.func(args)
    except UsageError as exc:
        _err(f"lumos {args.command}: error: {exc}")
        return EXIT_USAGE
    except LumosError as exc:
        files = getattr(exc, "files", None)
        for d in exc.diagnostics:
            _err(render_diagnostic(d, files))
        errors = sum(d.is_error for d in exc.diagnostics)
        _err(f"{_count(errors, 'error')}, {_count(len(exc.diagnostics) - errors, 'warning')}")
        return EXIT_FAIL
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the one place internal failures become a message
        if debug:
            raise
        _err(f"lumos: internal error: {type(exc).__name__}: {exc} (set LUMOS_DEBUG=1 for the traceback)")
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
