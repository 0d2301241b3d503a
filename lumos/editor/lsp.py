"""`lumos lsp`: a minimal language server that shows `lumos check` problems in the editor.

It speaks the Language Server Protocol over stdin/stdout (with pygls, the optional extra
`pip install 'lumos-games[lsp]'`). When a rules file (`.lumos`) or a card, board or
expansion file (`.yaml`) is opened, changed or saved, it checks the game that file
belongs to, as `lumos check` does (the compiler, then lumos.compiler.lint), and publishes the
problems of every file of that game; files whose problems are gone get an empty list.
Unsaved text is checked too: the game's files are copied to a temporary folder with the
editor's text in place of the files on disk.

Which game a file belongs to:

- a `.lumos` file or a board: the game folder holding it (`game.lumos`);
- a card file of a game (`cards/` next to `game.lumos`, or a bundled game's cards):
  that game;
- an expansion manifest, or a card file next to one: the expansion, checked against the
  game it extends (only the expansion's own files get warnings, as with `lumos check`);
- any other card file: the game named by the client's initialization option `game`
  (`{"game": "snitch-snatcher"}`), or the only bundled game.

The conversion of a diagnostic (`to_lsp`) and the check of one file (`check_file`) are
plain functions; only `serve` needs pygls.

>>> from lumos.diagnostics import Diagnostic, Span
>>> lsp_range(Diagnostic("E201", "unknown name", Span("a.lumos", 3, 5, 3, 9)))
((2, 4), (2, 8))
"""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

SOURCE = "lumos"


# ---------------------------------------------------------------- which game a file belongs to
@dataclass
class Target:
    """What to check for one file: a game, and the extra card files (an expansion, a loose card file)."""
    kind: str                  # game | expansion | cards
    src: object = None         # GameSources, None when the manifest is unusable
    extra: list[Path] = field(default_factory=list)
    diags: list = field(default_factory=list)     # problems found before compiling (a manifest's)
    files: list[Path] = field(default_factory=list)   # files whose problems this check owns
    teams: list[Path] = field(default_factory=list)   # team files, checked against the compiled game

    @property
    def key(self) -> tuple:
        return (self.kind, str(getattr(self.src, "rules_dir", "")), tuple(str(p) for p in self.extra))


def _bundled_sources():
    from lumos.api import bundled_games, game_sources
    return [game_sources(g) for g in bundled_games()]


def _game_of_folder(folder: Path):
    from lumos.api import game_sources
    folder = folder.resolve()
    for src in _bundled_sources():
        if src.rules_dir.resolve() == folder:
            return src
    return game_sources(folder) if (folder / "game.lumos").is_file() else None


def find_target(path: Path, default_game: str | None = None) -> Target | None:
    """The check that covers `path`, or None when no game can be found for it."""
    from lumos.api import bundled_games, game_sources
    from lumos.toolkit.expansions import load_expansion, manifest_path
    path = Path(path).resolve()
    if path.suffix == ".lumos" or (path.suffix in (".yaml", ".yml") and (path.parent / "game.lumos").is_file()):
        src = _game_of_folder(path.parent)
        return Target("game", src) if src is not None else None
    if path.suffix not in (".yaml", ".yml"):
        return None
    from lumos.compiler.teams import looks_like_team_file, team_game
    manifest = manifest_path(path) or manifest_path(path.parent)
    if manifest is not None:
        exp, diags, _texts = load_expansion(manifest)
        if exp is None:
            return Target("expansion", None, [], list(diags), [manifest.resolve()])
        own = {p.resolve() for p in exp.base.card_files()}
        mine = [p.resolve() for p in exp.card_files if p.resolve() not in own]
        teams = [p for p in mine if looks_like_team_file(p)]
        extra = [p for p in mine if p not in teams]
        return Target("expansion", exp.base, extra, list(diags), [manifest.resolve()] + mine, teams)
    if looks_like_team_file(path):
        game = team_game(path) or default_game or (bundled_games()[0] if len(bundled_games()) == 1 else None)
        if game is None or (game not in bundled_games() and not (Path(game) / "game.lumos").is_file()):
            return None
        src = game_sources(game) if game in bundled_games() else _game_of_folder(Path(game))
        return Target("team", src, [], [], [path], [path])
    for src in _bundled_sources():
        if src.cards_dir is not None and src.cards_dir.resolve() == path.parent:
            return Target("game", src)
    if path.parent.name == "cards" and (path.parent.parent / "game.lumos").is_file():
        return Target("game", _game_of_folder(path.parent.parent))
    games = bundled_games()
    game = default_game or (games[0] if len(games) == 1 else None)
    if game is None:
        return None
    src = game_sources(game) if game in games else _game_of_folder(Path(game))
    return Target("cards", src, [path], [], [path]) if src is not None else None


# ---------------------------------------------------------------- checking, with unsaved text
def _copy_with_overlays(target: Target, overlays: dict[str, str], tmp: Path):
    """The target's game copied under `tmp` with the editor's texts; and a map copy path -> real path."""
    from lumos.compiler.game import GameSources
    src = target.src
    back: dict[str, str] = {}
    rules = tmp / "rules" / src.rules_dir.name
    shutil.copytree(src.rules_dir, rules, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pairs = [(src.rules_dir.resolve(), rules)]
    cards = None
    if src.cards_dir is not None and src.cards_dir.is_dir():
        cards = tmp / "cards" / src.cards_dir.name
        shutil.copytree(src.cards_dir, cards, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        pairs.append((src.cards_dir.resolve(), cards))
    extra = []
    for i, p in enumerate(target.extra):
        copy = tmp / "extra" / str(i) / p.name
        copy.parent.mkdir(parents=True)
        shutil.copyfile(p, copy)
        back[str(copy)] = str(p)
        extra.append(copy)
    for real_dir, copy_dir in pairs:
        for f in copy_dir.rglob("*"):
            if f.is_file():
                back[str(f)] = str(real_dir / f.relative_to(copy_dir))
    here = {real: copy for copy, real in back.items()}
    for real, text in overlays.items():
        copy = here.get(str(Path(real).resolve()))
        if copy is not None:
            Path(copy).write_text(text, encoding="utf-8")
    return GameSources(src.id, rules, cards, src.schema_dir), extra, back


def check_target(target: Target, overlays: dict[str, str] | None = None) -> dict[str, list]:
    """Run `lumos check` on a target; the problems by file (real paths), every owned file present."""
    from dataclasses import replace

    from lumos.compiler.game import check_game
    from lumos.compiler.lint import lint_game
    out: dict[str, list] = {str(p): [] for p in target.files}
    diags = list(target.diags)
    if target.src is not None:
        overlays = {str(Path(k).resolve()): v for k, v in (overlays or {}).items()}
        changed = {k: v for k, v in overlays.items() if _differs(k, v)}
        with tempfile.TemporaryDirectory(prefix="lumos-lsp-") as tmp:
            src, extra, back = target.src, list(target.extra), {}
            if changed:
                src, extra, back = _copy_with_overlays(target, changed, Path(tmp))
            cg, found, _texts = check_game(src, extra_cards=extra or None)
            found = list(found)
            if cg is not None and not any(d.is_error for d in found):
                mine = {str(p) for p in extra}
                from lumos.toolkit.textcheck import text_warnings
                found += [d for d in lint_game(cg, src) + text_warnings(cg, src)
                          if target.kind == "game" or d.span.file in mine]
            if cg is not None:
                found += _check_teams(cg, target.teams, overlays, Path(tmp), back)
            if target.kind == "team":   # a coach editing a team hears about the team
                found = [d for d in found if d.is_error]
            for d in found:
                real = back.get(d.span.file, d.span.file)
                diags.append(replace(d, span=replace(d.span, file=real)) if real != d.span.file else d)
    for d in diags:
        out.setdefault(str(Path(d.span.file).resolve()) if d.span.file else "", []).append(d)
    out.pop("", None)
    return out


def _check_teams(cg, teams: list[Path], overlays: dict[str, str], tmp: Path, back: dict) -> list:
    """The problems of team files against a compiled game, the editor's unsaved text included."""
    from lumos.compiler.teams import check_team_file
    out = []
    for i, path in enumerate(teams):
        text = overlays.get(str(Path(path).resolve()))
        if text is not None and _differs(str(path), text):
            copy = tmp / "teams" / str(i) / Path(path).name
            copy.parent.mkdir(parents=True)
            copy.write_text(text, encoding="utf-8")
            back[str(copy)] = str(path)
            path = copy
        out += check_team_file(cg, path)[1]
    return out


def _differs(path: str, text: str) -> bool:
    try:
        return Path(path).read_text(encoding="utf-8") != text
    except (OSError, UnicodeDecodeError):
        return True


def check_file(path: Path, overlays: dict[str, str] | None = None, default_game: str | None = None) -> dict:
    """The problems of the game `path` belongs to, by file; {} when it belongs to none."""
    target = find_target(Path(path), default_game)
    if target is None:
        return {}
    result = check_target(target, overlays)
    result.setdefault(str(Path(path).resolve()), [])
    return result


# ---------------------------------------------------------------- LSP types
def lsp_range(d) -> tuple[tuple[int, int], tuple[int, int]]:
    """0-based (line, character) start and end of a diagnostic (at least one character wide)."""
    line = max(0, d.span.line - 1)
    col = max(0, d.span.col - 1)
    end_line = max(line, (d.span.end_line or d.span.line) - 1)
    end_col = (d.span.end_col or d.span.col) - 1
    if end_line == line and end_col <= col:
        end_col = col + 1
    return (line, col), (end_line, max(0, end_col))


def to_lsp(d):
    """A Lumos diagnostic -> an LSP Diagnostic (lsprotocol), the hint after the message."""
    from lsprotocol import types as T
    (l1, c1), (l2, c2) = lsp_range(d)
    return T.Diagnostic(
        range=T.Range(start=T.Position(line=l1, character=c1), end=T.Position(line=l2, character=c2)),
        message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=T.DiagnosticSeverity.Error if d.is_error else T.DiagnosticSeverity.Warning,
        code=d.code, source=SOURCE)


def uri_to_path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path))


def path_to_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


# ---------------------------------------------------------------- the server
def build_server():
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    from lumos import __version__
    server = LanguageServer("lumos", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Full)
    published: dict[tuple, set[str]] = {}     # target key -> URIs given problems last time
    options: dict = {}

    def refresh(ls, uri: str) -> None:
        path = uri_to_path(uri)
        target = find_target(path, options.get("game"))
        if target is None:
            return
        overlays = {str(uri_to_path(doc.uri)): doc.source for doc in ls.workspace.text_documents.values()
                    if doc.uri.startswith("file:")}
        try:
            by_file = check_target(target, overlays)
        except Exception as exc:  # noqa: BLE001 - the editor shows it; the server keeps running
            ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Error,
                                                       message=f"lumos: internal error: {exc}"))
            return
        by_file.setdefault(str(path.resolve()), [])
        uris = {path_to_uri(p): diags for p, diags in by_file.items()}
        for stale in published.get(target.key, set()) - set(uris):
            uris[stale] = []
        for u, diags in uris.items():
            ls.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=u, diagnostics=[to_lsp(d) for d in diags]))
        published[target.key] = {u for u, diags in uris.items() if diags}

    @server.feature(T.INITIALIZE)
    def initialize(ls, params: T.InitializeParams):
        if isinstance(params.initialization_options, dict):
            options.update(params.initialization_options)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        refresh(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        refresh(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        refresh(ls, params.text_document.uri)

    return server


def serve() -> int:
    """Run the server on stdin/stdout until the client stops it."""
    build_server().start_io()
    return 0
