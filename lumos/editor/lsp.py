"""`lumos lsp`: a language server that shows `lumos check` problems in the editor and
helps while typing (docs/editor.md).

It speaks the Language Server Protocol over stdin/stdout (with pygls, the optional extra
`pip install 'lumos-games[lsp]'`). When a rules file (`.lumos`) or a card, board,
expansion, team or card test file (`.yaml`) is opened, changed or saved, it checks the game
that file belongs to, as `lumos check` does (the compiler, then lumos.compiler.lint), and
publishes the problems of every file of that game; files whose problems are gone get an
empty list. Unsaved text is checked too: the game's files are copied to a temporary folder
with the editor's text in place of the files on disk. Each span covers its whole token
(lumos.diagnostics.pinpoint) and is sent in the client's code units (UTF-16 by default).

After each check the names of the game are indexed (lumos.editor.symbols) for hover, go to
definition, completion and the quick fix of a "did you mean" hint (lumos.editor.features).
Checks run on one worker thread, after a pause in typing, so requests are answered meanwhile.

Which game a file belongs to:

- a `.lumos` file or a board: the game folder holding it (`game.lumos`);
- a card file of a game (`cards/` next to `game.lumos`, or a bundled game's cards):
  that game;
- an expansion manifest, or a card file next to one: the expansion, checked against the
  game it extends (only the expansion's own files get warnings, as with `lumos check`);
- a team file, or a card test file (`*.test.yaml`): the game its `game:` names;
- any other card file: the game named by the client's initialization option `game`
  (`{"game": "snitch-snatcher"}`), or the only bundled game.

The conversion of a diagnostic (`to_lsp`) and the check of one file (`check_file`) are
plain functions; only `serve` needs pygls.

>>> from lumos.diagnostics import Diagnostic, Span
>>> lsp_range(Diagnostic("E201", "unknown name", Span("a.lumos", 3, 5, 3, 9)))
((2, 4), (2, 8))
"""
from __future__ import annotations

import asyncio
import functools
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lumos.editor.features import completions, definition, hover, quick_fix
from lumos.editor.symbols import GameIndex

SOURCE = "lumos"
DEBOUNCE_SECONDS = 0.15   # a pause in typing this long starts a check


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
    if path.name.endswith(".test.yaml"):     # a card test (`lumos test`): the game it names
        src = _test_game(path, default_game)
        return Target("cardtest", src, [], [], [path]) if src is not None else None
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
    return run_check(target, overlays)[0]


def run_check(target: Target, overlays: dict[str, str] | None = None):
    """`check_target`, and the compiled game (None when it does not compile).

    Every span covers its whole offending token (lumos.diagnostics.pinpoint), measured on
    the text being edited."""
    from dataclasses import replace

    from lumos.compiler.game import check_game
    from lumos.compiler.lint import lint_game
    from lumos.diagnostics import pinpoint_all
    out: dict[str, list] = {str(p): [] for p in target.files}
    diags = list(target.diags)
    cg = None
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
            if target.kind in ("team", "cardtest"):   # a coach editing a team hears about the team
                found = [d for d in found if d.is_error]
            if target.kind == "cardtest":
                found += _check_card_tests(cg, target.files, overlays, Path(tmp), back)
            for d in found:
                real = back.get(d.span.file, d.span.file)
                diags.append(replace(d, span=replace(d.span, file=real)) if real != d.span.file else d)
    overlays = {str(Path(k).resolve()): v for k, v in (overlays or {}).items()}
    texts = {f: text_of(f, overlays) for f in {d.span.file for d in diags if d.span.file}}
    for d in pinpoint_all(diags, {f: t for f, t in texts.items() if t is not None}):
        out.setdefault(str(Path(d.span.file).resolve()) if d.span.file else "", []).append(d)
    out.pop("", None)
    return out, cg


def text_of(path: str, overlays: dict[str, str]) -> str | None:
    """The text of a file as the editor has it (unsaved changes included), or None."""
    key = str(Path(path).resolve())
    if key in overlays:
        return overlays[key]
    try:
        return Path(key).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def _check_teams(cg, teams: list[Path], overlays: dict[str, str], tmp: Path, back: dict) -> list:
    """The problems of team files against a compiled game, the editor's unsaved text included."""
    from lumos.compiler.teams import check_team_file
    out = []
    for i, path in enumerate(teams):
        out += check_team_file(cg, _unsaved_copy(path, overlays, tmp / "teams" / str(i), back))[1]
    return out


def _unsaved_copy(path: Path, overlays: dict[str, str], folder: Path, back: dict) -> Path:
    """The file to read for `path`: itself, or when the editor holds unsaved text that differs
    from the disk, a copy of that text in `folder` (remembered in `back` so that problems
    point at the real file)."""
    text = overlays.get(str(Path(path).resolve()))
    if text is None or not _differs(str(path), text):
        return path
    copy = folder / Path(path).name
    copy.parent.mkdir(parents=True)
    copy.write_text(text, encoding="utf-8")
    back[str(copy)] = str(path)
    return copy


def _test_game(path: Path, default_game: str | None):
    """The game a card test file names (`game: ID`), when it tests a game and not an expansion."""
    import re

    from lumos.api import bundled_games, game_sources
    text = text_of(str(path), {}) or ""
    found = re.search(r"^game:\s*([\w./-]+)\s*$", text, re.M)
    if re.search(r"^with:", text, re.M):
        return None
    game = found.group(1) if found else default_game
    if game in bundled_games():
        return game_sources(game)
    return _game_of_folder(Path(game)) if game and (Path(game) / "game.lumos").is_file() else None


def _check_card_tests(cg, paths: list[Path], overlays: dict[str, str], tmp: Path, back: dict) -> list:
    """The problems of card test files (their shape, then the names they use), unsaved text included."""
    from lumos.toolkit.cardtests import check_names, read_file
    out = []
    for i, path in enumerate(paths):
        path = _unsaved_copy(path, overlays, tmp / "tests" / str(i), back)
        data, problems, _text = read_file(path)
        if not problems and cg is not None and isinstance(data, dict) and data.get("game") == cg.id:
            problems = check_names(cg, str(path), data)
        out += problems
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


# ---------------------------------------------------------------- positions
def units(text: str, chars: int, encoding: str = "utf-16") -> int:
    """How many code units of `encoding` the first `chars` characters of a line take.

    The protocol counts UTF-16 units unless the client chose otherwise: an emoji is two.

    >>> units("🦉 plays_lft", 2), units("🦉 plays_lft", 2, "utf-32"), units("é", 1, "utf-8")
    (3, 2, 2)
    """
    head = text[:max(0, chars)]
    if encoding == "utf-32":
        return len(head) + max(0, chars - len(text))
    size = 2 if encoding == "utf-16" else 1
    unit = len(head.encode("utf-16-le" if size == 2 else "utf-8")) // size
    return unit + max(0, chars - len(text))


def chars(text: str, count: int, encoding: str = "utf-16") -> int:
    """The character index of a position given in code units (the inverse of `units`).

    >>> chars("🦉 plays_lft", 3)
    2
    """
    if encoding == "utf-32":
        return count
    size = 2 if encoding == "utf-16" else 1
    total = 0
    for i, ch in enumerate(text):
        if total >= count:
            return i
        total += len(ch.encode("utf-16-le" if size == 2 else "utf-8")) // size
    return len(text) + max(0, count - total)


# ---------------------------------------------------------------- LSP types
def lsp_range(d, lines: list[str] | None = None, encoding: str = "utf-16"
              ) -> tuple[tuple[int, int], tuple[int, int]]:
    """0-based (line, character) start and end of a diagnostic (at least one character wide),
    in the client's code units when the file's `lines` are given."""
    line = max(0, d.span.line - 1)
    col = max(0, d.span.col - 1)
    end_line = max(line, (d.span.end_line or d.span.line) - 1)
    end_col = (d.span.end_col or d.span.col) - 1
    if end_line == line and end_col <= col:
        end_col = col + 1
    end_col = max(0, end_col)
    if lines is not None:
        col = units(lines[line], col, encoding) if line < len(lines) else col
        end_col = units(lines[end_line], end_col, encoding) if end_line < len(lines) else end_col
    return (line, col), (end_line, end_col)


def to_lsp(d, lines: list[str] | None = None, encoding: str = "utf-16"):
    """A Lumos diagnostic -> an LSP Diagnostic (lsprotocol), the hint after the message.

    A "did you mean" hint travels as `data` for the quick fix: the name to write, and the
    line and code units of the misspelt word (`{"fix": name, "at": [line, start, end]}`),
    which is the whole range unless the range is wider than the word (`c.spce`)."""
    from lsprotocol import types as T

    (l1, c1), (l2, c2) = lsp_range(d, lines, encoding)
    fix = quick_fix(d, "\n".join(lines)) if lines is not None else None
    data = None
    if fix is not None:
        here = lines[fix.line]
        data = {"fix": fix.new_text, "at": [fix.line, units(here, fix.start, encoding), units(here, fix.end, encoding)]}
    return T.Diagnostic(
        range=T.Range(start=T.Position(line=l1, character=c1), end=T.Position(line=l2, character=c2)),
        message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=T.DiagnosticSeverity.Error if d.is_error else T.DiagnosticSeverity.Warning,
        code=d.code, source=SOURCE, data=data)


def uri_to_path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path))


def path_to_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


# ---------------------------------------------------------------- the server
_SYMBOL_KINDS = {   # Symbol kind -> lsprotocol CompletionItemKind name
    "function": "Function", "procedure": "Function", "action": "Method", "window": "Event", "event": "Event",
    "variable": "Variable", "option": "Variable", "constant": "Constant", "zone": "Module", "side": "EnumMember",
    "kind": "Enum", "piece": "Unit", "die": "Value", "card": "Reference", "space": "Value", "region": "Value",
    "link": "Value", "parameter": "Variable", "local": "Variable", "builtin": "Keyword", "keyword": "Keyword",
    "attribute": "Field", "field": "Field",
}


@dataclass
class _Session:
    """What the server remembers between messages: the index of each game, what it published."""
    options: dict = field(default_factory=dict)
    published: dict = field(default_factory=dict)     # target key -> URIs given problems last time
    indexes: dict = field(default_factory=dict)       # target key -> GameIndex
    tickets: dict = field(default_factory=dict)       # URI -> number of its latest change
    encoding: str = "utf-16"
    # one thread checks and indexes, in the order asked, while the event loop answers requests
    worker: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "lumos-check"))


def build_server():
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    from lumos import __version__
    server = LanguageServer("lumos", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Full)
    state = _Session()

    def overlays_of(ls) -> dict[str, str]:
        return {str(uri_to_path(doc.uri).resolve()): doc.source for doc in ls.workspace.text_documents.values()
                if doc.uri.startswith("file:")}

    def versions_of(ls) -> dict[str, int]:
        return {doc.uri: doc.version for doc in ls.workspace.text_documents.values()}

    def publish(ls, uris: dict[str, list], overlays: dict[str, str], versions: dict[str, int]) -> None:
        for u, diags in uris.items():
            text = text_of(str(uri_to_path(u)), overlays) if diags else None
            lines = text.splitlines() if text is not None else None
            ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=u, version=versions.get(u), diagnostics=[to_lsp(d, lines, state.encoding) for d in diags]))

    async def refresh(ls, uri: str, ticket: int | None = None) -> None:
        """Check the game of a document off the event loop, publish, then index its names.

        Hover and completion are answered meanwhile; a result overtaken by a newer edit of
        the same document (`ticket`) is dropped, since that edit's own check follows."""
        path = uri_to_path(uri)
        target = find_target(path, state.options.get("game"))
        if target is None:
            return
        overlays, versions = overlays_of(ls), versions_of(ls)
        loop = asyncio.get_running_loop()
        try:
            by_file, cg = await loop.run_in_executor(state.worker, run_check, target, overlays)
        except Exception as exc:  # noqa: BLE001 - the editor shows it; the server keeps running
            ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Error,
                                                       message=f"lumos: internal error: {exc}"))
            return
        if ticket is not None and state.tickets.get(uri) != ticket:
            return
        by_file.setdefault(str(path.resolve()), [])
        uris = {path_to_uri(p): diags for p, diags in by_file.items()}
        for stale in state.published.get(target.key, set()) - set(uris):
            uris[stale] = []
        publish(ls, uris, overlays, versions)
        state.published[target.key] = {u for u, diags in uris.items() if diags}
        if target.src is not None:
            build = functools.partial(GameIndex.build, target.src, overlays, cg, target.extra,
                                      previous=state.indexes.get(target.key))
            try:
                state.indexes[target.key] = await loop.run_in_executor(state.worker, build)
            except Exception:  # noqa: BLE001 - hover and completion keep the last index
                pass

    def index_for(ls, uri: str):
        """The index of the game a document belongs to, built now if it was never checked."""
        target = find_target(uri_to_path(uri), state.options.get("game"))
        if target is None or target.src is None:
            return None
        if target.key not in state.indexes:
            state.indexes[target.key] = GameIndex.build(target.src, overlays_of(ls), None, target.extra)
        return state.indexes[target.key]

    def where(ls, params):
        """(index, path, text, line, character in code points) of a request at a position."""
        doc = ls.workspace.get_text_document(params.text_document.uri)
        index = index_for(ls, doc.uri)
        lines = doc.source.splitlines()
        line = params.position.line
        here = lines[line] if line < len(lines) else ""
        char = chars(here, params.position.character, state.encoding)
        return index, str(uri_to_path(doc.uri).resolve()), doc.source, line, char

    def location(sym) -> "T.Location":
        span = sym.span
        text = text_of(span.file, {})
        lines = text.splitlines() if text is not None else []
        (l1, c1), (l2, c2) = lsp_range(_AtSpan(span), lines, state.encoding)
        return T.Location(uri=path_to_uri(span.file), range=T.Range(start=T.Position(line=l1, character=c1),
                                                                    end=T.Position(line=l2, character=c2)))

    @server.feature(T.INITIALIZE)
    def initialize(ls, params: T.InitializeParams):
        if isinstance(params.initialization_options, dict):
            state.options.update(params.initialization_options)
        state.encoding = _encoding(ls)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls, params: T.DidOpenTextDocumentParams):
        state.encoding = _encoding(ls)
        await refresh(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: T.DidChangeTextDocumentParams):
        # typing sends a change per keystroke: check once the typing pauses
        uri = params.text_document.uri
        ticket = state.tickets[uri] = state.tickets.get(uri, 0) + 1
        await asyncio.sleep(DEBOUNCE_SECONDS)
        if state.tickets.get(uri) == ticket:
            await refresh(ls, uri, ticket)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls, params: T.DidSaveTextDocumentParams):
        await refresh(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: T.HoverParams):
        index, path, text, line, char = where(ls, params)
        found = hover(index, path, text, line, char) if index is not None else None
        if found is None:
            return None
        markdown, span = found
        rng = None
        if span and span[1] > span[0]:
            here = text.splitlines()[line]
            rng = T.Range(start=T.Position(line=line, character=units(here, span[0], state.encoding)),
                          end=T.Position(line=line, character=units(here, span[1], state.encoding)))
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=markdown), range=rng)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: T.DefinitionParams):
        index, path, text, line, char = where(ls, params)
        sym = definition(index, path, text, line, char) if index is not None else None
        return [location(sym)] if sym is not None else None

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls, params: T.CompletionParams):
        index, path, text, line, char = where(ls, params)
        if index is None:
            return None
        items = [T.CompletionItem(label=c.label, detail=c.detail or None,
                                  kind=getattr(T.CompletionItemKind, _SYMBOL_KINDS.get(c.kind, "Text")))
                 for c in completions(index, path, text, line, char)]
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def on_code_action(ls, params: T.CodeActionParams):
        out = []
        for diag in params.context.diagnostics:
            data = diag.data if isinstance(diag.data, dict) else {}
            new, rng = data.get("fix"), diag.range
            if isinstance(data.get("at"), list) and len(data["at"]) == 3:
                line, start, end = data["at"]
                rng = T.Range(start=T.Position(line=line, character=start), end=T.Position(line=line, character=end))
            elif not new and diag.source == SOURCE:     # a client that drops `data`: read the hint
                from lumos.diagnostics import suggestion
                new = suggestion(diag.message.partition("\nhint: ")[2])
            if not new or diag.source != SOURCE:
                continue
            edit = T.TextEdit(range=rng, new_text=new)
            out.append(T.CodeAction(title=f"Change to `{new}`", kind=T.CodeActionKind.QuickFix,
                                    diagnostics=[diag], is_preferred=True,
                                    edit=T.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
        return out

    return server


def _encoding(ls) -> str:
    """The position encoding agreed with the client (pygls picks it): utf-16 unless it chose another."""
    chosen = getattr(getattr(ls, "workspace", None), "position_encoding", None)
    value = getattr(chosen, "value", chosen)
    return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"


@dataclass(frozen=True)
class _AtSpan:
    """A span dressed as a diagnostic, for `lsp_range`."""
    span: object


def serve() -> int:
    """Run the server on stdin/stdout until the client stops it."""
    build_server().start_io()
    return 0
