"""`lumos check`: rules, card files, team files, folders and expansions checked in one run.

Every problem is printed as `file:line:col: CODE message` with the source line, a caret
and a hint (or as JSON, or as GitHub annotations); the summary line counts them. Exit
status 0 clean, 1 problems found, 2 usage error.
"""
from __future__ import annotations

import gc
import json
from pathlib import Path

from lumos.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    UsageError,
    count,
    display_path,
    render_diagnostic,
    sources,
    split_teams,
    yaml_files,
)

DEFAULT_MAX = 50   # diagnostics shown before "... and N more"
QUICK_EXIT = True  # a check leaves no file open and nothing to finalise: lumos.cli.entry ends it at once


def register(sub) -> None:
    """Add `lumos check` and its arguments to the sub-command parsers."""
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
    s.set_defaults(func=run)


class _Target:
    """One thing `lumos check` compiles: a game, a game plus an expansion, or a game plus loose card files."""

    def __init__(self, kind: str, label: str, src=None, extra=None, diags=None, files=None, teams=None):
        self.kind, self.label, self.src = kind, label, src
        self.extra: list[Path] = list(extra or [])
        self.teams: list[Path] = list(teams or [])    # team files, checked against the compiled game
        self.diags: list = list(diags or [])
        self.files: dict = dict(files or {})
        self.cg = None
        self.test_roots: list[Path] = []   # folders whose *.test.yaml files are checked too
        self.ok_text = ""   # the `ok:` line of a check remembered from an earlier run (lumos.cli.remembered)


def _card_paths(items: list[str]) -> list[Path]:
    """Loose card files (or folders of them) given with --game."""
    out: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = yaml_files(path)
            if not found:
                raise UsageError(f"`{item}` holds no .yaml card files")
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise UsageError(f"no card file `{item}`")
    return out


def _expansion_target(manifest: Path) -> _Target:
    from lumos.toolkit.expansions import load_expansion
    exp, diags, texts = load_expansion(manifest)
    if exp is None:
        return _Target("expansion", manifest.parent.name, diags=diags, files=texts)
    own = {p.resolve() for p in exp.base.card_files()}
    cards, teams = split_teams([p for p in exp.card_files if p.resolve() not in own])  # own files count once
    t = _Target("expansion", exp.name, exp.base, cards, diags, texts, teams)
    t.test_roots = [manifest.parent]
    return t


def _check_targets(args) -> list[_Target]:
    from lumos.api import bundled_games
    if args.game:
        src = sources(args.game)
        own = {p.resolve() for p in src.card_files()}
        extra, teams = split_teams([p for p in _card_paths(args.paths) if p.resolve() not in own])
        parts = [count(len(extra), "card file")] if extra else []
        parts += [count(len(teams), "team file")] if teams else []
        label = f"{' and '.join(parts)} against {src.id}" if parts else src.id
        return [_Target("cards" if parts else "game", label, src, extra, teams=teams)]
    targets = []
    for item in args.paths or bundled_games():
        manifest = _manifest(item) if item not in bundled_games() else None
        if manifest is not None:
            targets.append(_expansion_target(manifest))
            continue
        path = Path(item)
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            game = _team_game(path)
            if game is not None:   # a team file that names its game: `game: ID`
                src = sources(game)
                targets.append(_Target("cards", f"1 team file against {src.id}", src, teams=[path]))
                continue
            raise UsageError(f"`{item}` is a card file: name the game it belongs to, "
                             f"`lumos check --game GAME {item}`")
        if path.is_dir() and not (path / "game.lumos").is_file() and yaml_files(path):
            raise UsageError(f"`{item}` holds neither game.lumos nor expansion.yaml: for card files, "
                             f"`lumos check --game GAME {item}`")
        src = sources(item)
        t = _Target("game", src.id, src)
        t.test_roots = [src.cards_dir] if src.cards_dir is not None else []
        targets.append(t)
    return targets


def _manifest(item: str) -> Path | None:
    from lumos.toolkit.expansions import manifest_path   # not imported for a bundled game
    return manifest_path(Path(item))


def _team_game(path: Path) -> str | None:
    from lumos.compiler.teams import team_game
    return team_game(path)


REMEMBERED = object()   # stands for the compiled game of a check remembered from an earlier run


def _run_target(t: _Target) -> None:
    """Check one target: recalled when the same files were checked clean before, else in full."""
    import lumos.cli.remembered as remembered
    if t.src is None:
        return
    name = remembered.key(t)
    found = remembered.recall(name) if name else None
    if found is not None:
        t.cg, t.ok_text = REMEMBERED, found["ok"]
        t.diags += found["diags"]
        t.files.update(found["files"])
        return
    _check_target(t)
    if name and t.cg is not None and not any(d.is_error for d in t.diags):
        remembered.remember(name, t.diags, t.files, _ok_line(t))


def _check_target(t: _Target) -> None:
    from lumos.compiler.astdata import text_bundle
    with text_bundle(_bundle_name(t)):     # the ASTs of its card texts, from the last check
        _compile_and_lint(t)


def _compile_and_lint(t: _Target) -> None:
    from lumos.compiler.game import check_game
    from lumos.compiler.named_files import shown_text
    cg, diags, texts = check_game(t.src, extra_cards=t.extra or None)
    t.cg = cg
    t.diags += diags
    t.files.update(texts)
    if t.teams and cg is not None:
        from lumos.compiler.teams import check_team_file
        if not t.extra and t.kind != "expansion":   # a coach checking a team hears about the team
            t.diags = [d for d in t.diags if d.is_error]
        for path in t.teams:
            t.diags += check_team_file(cg, path)[1]
            t.files[str(path)] = shown_text(path)
    _check_test_files(t)
    if cg is not None and not any(d.is_error for d in t.diags):
        from lumos.compiler.lint import lint_game
        mine = {str(p) for p in t.extra}
        # a designer checking cards hears about their cards, not about the base game's rules
        from lumos.toolkit.textcheck import text_warnings
        t.diags += [d for d in lint_game(cg, t.src) + text_warnings(cg, t.src)
                    if t.kind == "game" or d.span.file in mine]


def _bundle_name(t: _Target) -> bytes:
    """Which cache entry holds the ASTs of a target's card texts: one per set of card
    files (their paths), so that editing a card or a rules file keeps the others' trees."""
    files = [*t.src.card_files(), *t.extra, t.src.rules_dir]
    return "\0".join(str(p) for p in files).encode()


def _check_test_files(t: _Target) -> None:
    """Card test files (`*.test.yaml`) next to the cards: their shape, and the names they use
    against the compiled game when they test this game (`lumos test` runs them)."""
    from lumos.toolkit.cardtests import check_names, find_test_files, read_file
    for path in find_test_files([r for r in t.test_roots if r.is_dir()]):
        data, problems, text = read_file(path)
        t.files[str(path)] = text
        mine = t.cg is not None and data.get("game") == t.cg.id and \
            bool(data.get("with")) == (t.kind == "expansion")     # the cards it names are all here
        if not problems and mine:
            problems = check_names(t.cg, str(path), data)
        t.diags += problems


def _ok_line(t: _Target) -> str:
    if t.ok_text:
        return t.ok_text
    cg = t.cg
    warnings = sum(not d.is_error for d in t.diags)
    extra = f", {count(warnings, 'warning')}" if warnings else ""
    if t.kind == "game":
        return f"ok: {t.label} ({count(len(cg.rules), 'rule')}, {count(len(cg.cards), 'card')}){extra}"
    mine = {str(p) for p in t.extra}
    added = sum(1 for c in cg.cards if c.span.file in mine)
    teams = f", {count(len(t.teams), 'team file')}" if t.teams else ""
    if t.kind == "expansion":
        return (f"ok: {t.label} (extends {cg.id}: {count(added, 'card')} in {count(len(t.extra), 'file')}"
                f"{teams}){extra}")
    if not t.extra:
        return f"ok: {t.label}{extra}"
    return f"ok: {t.label} ({count(added, 'card')}){extra}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(d) -> str:
    """A GitHub Actions workflow command: the problem shows on the line of the pull request's diff."""
    props = []
    if d.span.line > 0:
        props.append(f"file={_escape_property(display_path(d.span.file))}")
        props.append(f"line={d.span.line}")
        if d.span.col > 0:
            props.append(f"col={d.span.col}")
        if d.span.end_line >= d.span.line and d.span.end_col:
            props += [f"endLine={d.span.end_line}", f"endColumn={d.span.end_col}"]
    props.append(f"title={_escape_property(d.code)}")
    text = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return f"::{'error' if d.is_error else 'warning'} {','.join(props)}::{_escape_data(text)}"


def run(args) -> int:
    # A check builds many objects that live until it ends, and makes few cycles: Python's cycle
    # collector would walk them again and again (a quarter of a check's time) and free next to
    # nothing (the resident size is the same without it). It is paused while the check runs.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if paused:
            gc.enable()


def _run(args) -> int:
    if args.max is not None and args.max < 0:
        raise UsageError("--max must be 0 (no limit) or more")
    targets = _check_targets(args)
    all_diags, files, seen = [], {}, set()
    for t in targets:
        _run_target(t)
        files.update(t.files)
        for d in t.diags:
            key = (d.code, d.message, d.span)
            if key not in seen:     # two targets sharing a game report its problems once
                seen.add(key)
                all_diags.append(d)
    from lumos.diagnostics import pinpoint_all
    all_diags = pinpoint_all(all_diags, files)     # whole tokens, for the caret, json and github
    all_diags.sort(key=lambda d: (display_path(d.span.file), d.span.line, d.span.col, d.code))
    errors = sum(d.is_error for d in all_diags)
    warnings = len(all_diags) - errors
    failed = errors > 0 or (args.strict and warnings > 0)
    status = EXIT_FAIL if failed else EXIT_OK
    limit = args.max if args.max is not None else (0 if args.format == "json" else DEFAULT_MAX)
    shown = all_diags[:limit] if limit else all_diags
    hidden = len(all_diags) - len(shown)
    if args.format == "json":
        print(json.dumps([d.to_json() for d in shown], indent=2, ensure_ascii=False))
        return status
    render = github_annotation if args.format == "github" else (lambda d: render_diagnostic(d, files))
    for d in shown:
        print(render(d))
    if hidden:
        print(f"... and {hidden} more (show them all with --max 0)")
    for t in targets:
        if t.cg is not None and not any(d.is_error for d in t.diags):
            print(_ok_line(t))
    if all_diags:
        nfiles = len({d.span.file for d in all_diags})
        print(f"{count(errors, 'error')}, {count(warnings, 'warning')} in {count(nfiles, 'file')}"
              + (" (--strict: warnings fail the check)" if args.strict and warnings and not errors else ""))
    return status
