"""A game's texts (saved or being edited) -> the names it declares and the names each rule
or card effect binds, with where they are: what hover, go to definition and completion read.

Made from the same parser as the compiler, one file at a time, so a file that does not
parse while it is being typed keeps the names it had the last time it parsed
(`GameIndex.build(..., previous=)`). Nothing here compiles or runs a game: the names of
the board (spaces, regions, links) and the card fields come from the last compiled game
and from the card schema.

>>> from lumos.api import game_sources
>>> index = GameIndex.build(game_sources("snitch-snatcher"))
>>> index.symbols["chasers"].kind, index.symbols["chasers"].signature
('function', 'function chasers(s) = team(s) where it.kind is chaser')
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lumos.compiler import nodes as N
from lumos.diagnostics import LumosError, Span

# Declaration classes -> the word a designer uses for what they declare. A declaration the
# language gains later (any Decl with a `name`) is still indexed, under its class's name.
KIND_OF = {
    "Option": "option", "Die": "die", "Var": "variable", "Const": "constant", "Zone": "zone",
    "Window": "window", "Event": "event", "Procedure": "procedure", "Function": "function",
    "Action": "action",
}
# Declarations that declare several names at once: (attribute, kind of each name).
NAME_LISTS = {"Sides": ("names", "side"), "Kinds": ("names", "kind"), "NeutralPieces": ("names", "piece")}
# Statements that bind a name for the statements after them (`let x`, `choose x from ...`).
BINDERS = ("Let", "Choose", "ForEach", "Roll", "RollPool", "DrawCard", "Answer")
CARD_TEXT_KEYS = ("effect", "condition")
_CITATION = re.compile(r"\s*\[source:[^\]]*\]")


@dataclass
class Symbol:
    """One declared or bound name: what it is, how it is written, where."""
    name: str
    kind: str                  # function, procedure, variable, card, parameter, local ...
    signature: str             # the declaration's first line (without its citation) or the card's type
    span: Span                 # the name where it is declared
    decl: object = None        # the AST node (a Decl, a card's CardSource, a binding statement)
    detail: str = ""           # more to show on hover (a card's text)


@dataclass
class Scope:
    """A rule or a card text that binds names: where it is and what it binds."""
    file: str
    first: int                 # 1-based first and last line
    last: int
    names: list[Symbol] = field(default_factory=list)
    me: bool = False           # a card text or an action: `me` is the acting side


@dataclass
class GameIndex:
    """Every name of one game, from its rules files, card files, board and schema."""
    symbols: dict[str, Symbol] = field(default_factory=dict)
    cards: dict[str, list] = field(default_factory=dict)        # card name -> its symbols (one per deck)
    scopes: list[Scope] = field(default_factory=list)
    decls: dict[str, list] = field(default_factory=dict)        # rules file -> its declarations
    card_sources: dict[str, list] = field(default_factory=dict)  # card file -> its CardSources
    attributes: dict[str, str] = field(default_factory=dict)    # `.name` -> what has it
    card_keys: dict[str, str] = field(default_factory=dict)     # the keys a card of the game may have
    board: object = None
    parts: dict[str, "FileNames"] = field(default_factory=dict)  # file -> what it declares

    # -------------------------------------------------------------- building
    @classmethod
    def build(cls, src, overlays: dict[str, str] | None = None, cg=None, extra_cards=(),
              previous: "GameIndex | None" = None) -> "GameIndex":
        """The index of the game `src` with the editor's texts (`overlays`, by resolved path).

        Each file's names are kept by its text, so a keystroke reads again only the file it
        changed; a file that does not parse keeps what `previous` had for it."""
        overlays = overlays or {}
        index = cls(board=getattr(cg, "board", None) or getattr(previous, "board", None))
        files = [(p, _rules_file) for p in src.rules_files()]
        files += [(Path(p), _card_file) for p in list(src.card_files()) + list(extra_cards)]
        for path, read in files:
            key, text = _text(path, overlays)
            part = read(key, text)
            if part is None:
                part = (previous.parts.get(key) if previous else None) or FileNames()
            index.parts[key] = part
            if part.decls is not None:
                index.decls[key] = part.decls
            if part.card_sources is not None:
                index.card_sources[key] = part.card_sources
            for sym in part.symbols:
                index.symbols.setdefault(sym.name, sym)
            for card in part.cards:
                index.cards.setdefault(card.name, []).append(card)
            index.scopes += part.scopes
        index._board_names(src, overlays)
        index._attributes(src, cg)
        return index

    def _board_names(self, src, overlays) -> None:
        board = self.board
        if board is None:
            return
        path = Path(src.rules_dir) / "board.yaml"
        key, text = _text(path, overlays) if path.is_file() else (str(path), "")
        lines = text.splitlines()
        for kind, names in (("region", getattr(board, "regions", {})), ("space", getattr(board, "spaces", ())),
                            ("link", list(getattr(board, "links", {})) + list(getattr(board, "unions", {})))):
            for name in names:
                if name in self.symbols:
                    continue
                span = _find_word(key, lines, name) or Span(key, 1, 1)
                self.symbols.setdefault(name, Symbol(name, kind, f"{kind} of the board", span))

    def _attributes(self, src, cg) -> None:
        for a in ("side", "kind", "space", "start", "holder", "name"):
            self.attributes[a] = "piece"
        for a in ("pieces",):
            self.attributes[a] = "side"
        self.attributes.update({"type": "card", "deck": "card"})
        for decls in self.decls.values():
            for d in decls:
                scope = getattr(d, "scope", None)
                if isinstance(d, (N.Var, N.Const)) and scope in ("side", "piece"):
                    self.attributes.setdefault(d.name, scope)
                elif isinstance(d, N.Zone) and not d.shared:
                    self.attributes.setdefault(d.name, "side")
        for attrs in getattr(self.board, "attrs", ()) or ():
            for k in attrs:
                self.attributes.setdefault(k, "space")
        for k in _card_fields(src):
            self.attributes.setdefault(k, "card")
        self.card_keys = _card_keys(src)

    # -------------------------------------------------------------- reading
    def card(self, name: str, file: str = "") -> Symbol | None:
        """The card of that name, the one in `file` first (a card may be in both decks)."""
        found = self.cards.get(name) or []
        return next((c for c in found if c.span.file == file), found[0] if found else None)

    def scope_at(self, file: str, line: int) -> Scope | None:
        """The innermost rule or card text around a 1-based line of a file."""
        inside = [s for s in self.scopes if s.file == file and s.first <= line <= s.last]
        return max(inside, key=lambda s: (s.first, -s.last)) if inside else None

    def lookup(self, name: str, file: str, line: int) -> Symbol | None:
        """What `name` means at a line: a name bound in its rule first, then the game's."""
        scope = self.scope_at(file, line)
        if scope is not None:
            for sym in reversed(scope.names):
                if sym.name == name and (sym.kind != "local" or sym.span.line <= line):
                    return sym
        return self.symbols.get(name)

    def in_scope(self, file: str, line: int) -> list[Symbol]:
        """Every name usable at a line: its rule's, then the game's."""
        scope = self.scope_at(file, line)
        own = [s for s in scope.names if s.kind != "local" or s.span.line <= line] if scope else []
        return own + list(self.symbols.values())

    def all_decls(self) -> list:
        return [d for decls in self.decls.values() for d in decls]


@dataclass
class FileNames:
    """What one file declares and binds: made once per text of the file."""
    symbols: list[Symbol] = field(default_factory=list)
    cards: list[Symbol] = field(default_factory=list)
    scopes: list[Scope] = field(default_factory=list)
    decls: list | None = None            # a rules file's declarations
    card_sources: list | None = None     # a card file's cards

    def _add(self, sym: Symbol) -> None:
        self.symbols.append(sym)

    def _declare(self, d, lines: list[str]) -> None:
        cls = type(d).__name__
        first = _first_line(lines, d.span)
        if cls in NAME_LISTS:
            attr, kind = NAME_LISTS[cls]
            for name in getattr(d, attr, ()):
                self._add(Symbol(name, kind, first, _name_span(d.span, name, lines), d))
        elif cls == "Pieces":
            for pl in d.placements:
                self._add(Symbol(pl.kind, "kind", first, _name_span(d.span, pl.kind, lines), d))
        elif isinstance(getattr(d, "name", None), str) and cls not in ("Anytime",):
            kind = KIND_OF.get(cls, cls.lower())
            self._add(Symbol(d.name, kind, first, _name_span(d.span, d.name, lines, after_word=True), d))
        body = getattr(d, "body", None)
        if isinstance(body, (tuple, N.Expr)) or isinstance(d, N.Action):
            self._scope(d, body if isinstance(body, tuple) else (), lines,
                        expr=body if isinstance(body, N.Expr) else None)

    def _scope(self, d, body, lines, expr=None, me=False) -> None:
        span = d.span
        scope = Scope(span.file, span.line, max(_end(span), _last_line(body, span)),
                      me=me or isinstance(d, N.Action))
        owner = getattr(d, "name", "") or type(d).__name__.lower()
        for p in getattr(d, "params", ()) or ():
            if isinstance(p, str):
                scope.names.append(Symbol(p, "parameter", f"parameter of {owner}", _name_span(span, p, lines, True), d))
        for b in getattr(d, "binders", ()) or ():
            scope.names.append(Symbol(b.name, "parameter", f"chosen by action {owner}",
                                      _name_span(b.span, b.name, lines), b))
        if isinstance(getattr(d, "side", None), str) and isinstance(d, N.Anytime):
            scope.names.append(Symbol(d.side, "parameter", "the deciding side", _name_span(span, d.side, lines), d))
        for s in _walk(body):
            if type(s).__name__ in BINDERS and isinstance(getattr(s, "name", None), str):
                text = _first_line(lines, s.span)
                scope.names.append(Symbol(s.name, "local", text, _name_span(s.span, s.name, lines), s))
        for node in _walk(expr if expr is not None else body):
            for var in ("through_var", "onto_var"):
                name = getattr(node, var, None)
                if isinstance(name, str):
                    scope.names.append(Symbol(name, "local", "a space of the reach",
                                              _name_span(node.span, name, lines), node))
        self.scopes.append(scope)

    def _card(self, cs, lines: list[str]) -> None:
        name_span = cs.field_spans.get("name", cs.span)
        name_span = Span(name_span.file, name_span.line, name_span.col, name_span.line,
                         name_span.col + len(cs.name))
        text = cs.fields.get("text")
        self.cards.append(Symbol(cs.name, "card", f"{cs.type} card", name_span, cs,
                                 text if isinstance(text, str) else ""))
        for key, value in cs.fields.items():
            if not (key in CARD_TEXT_KEYS or key.endswith("_effect")) or not isinstance(value, str):
                continue
            line, col, block = cs.text_origins.get(key, (cs.span.line, cs.span.col, False))
            stmts = _parse_card_text(value, cs.span.file, key, line, col, block)
            if stmts is None:
                continue
            nlines = value.count("\n") + 1
            holder = _CardText(Span(cs.span.file, line, 1, line + nlines - 1, 1))
            self._scope(holder, stmts if isinstance(stmts, tuple) else (), lines,
                        expr=stmts if isinstance(stmts, N.Expr) else None, me=True)
            self.scopes[-1].names[:0] = [Symbol("card", "builtin", f"the card `{cs.name}` itself", name_span, cs)]



@functools.lru_cache(maxsize=64)
def _rules_file(key: str, text: str) -> FileNames | None:
    decls = _parse_rules(text, key)
    if decls is None:
        return None
    part, lines = FileNames(decls=decls), text.splitlines()
    for d in decls:
        part._declare(d, lines)
    return part


@functools.lru_cache(maxsize=64)
def _card_file(key: str, text: str) -> FileNames | None:
    cards = _load_cards(text, key)
    if cards is None:
        return None
    part, lines = FileNames(card_sources=cards), text.splitlines()
    for cs in cards:
        part._card(cs, lines)
    return part


@dataclass(frozen=True)
class _CardText:
    """A card's effect or condition, as the holder of the names it binds."""
    span: Span
    name: str = "card text"


# ---------------------------------------------------------------- helpers
def _text(path: Path, overlays: dict[str, str]) -> tuple[str, str]:
    key = str(Path(path).resolve())
    if key in overlays:
        return key, overlays[key]
    try:
        return key, Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return key, ""


def _parse_rules(text: str, path: str):
    from lumos.compiler.astdata import rules_ast    # the compiler's AST of the same text, when it built it
    try:
        return list(rules_ast(text, path).decls)
    except (LumosError, RecursionError):
        return None


def _parse_card_text(text: str, file: str, key: str, line: int, col: int, block: bool):
    from lumos.compiler.astdata import text_ast
    from lumos.compiler.origin import Origin
    origin = Origin(file, line, col, block)
    try:
        return text_ast(text, "condition" if key == "condition" else "effect", origin)
    except (LumosError, RecursionError):
        return None


def _load_cards(text: str, path: str):
    """The cards of a card file as written (no schema check), or None when it is no YAML yet."""
    from lumos.compiler.cards import card_source
    from lumos.compiler.yamlload import load_yaml
    try:
        data = load_yaml(text, path)
    except LumosError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return []
    deck = data.get("deck") if isinstance(data.get("deck"), str) else None
    lines = text.splitlines()
    out = []
    for card in data["cards"]:
        if isinstance(card, dict) and isinstance(card.get("name"), str) and isinstance(card.get("type"), str):
            try:
                out.append(card_source(card, deck, path, lines))
            except (TypeError, ValueError, KeyError, AttributeError):
                continue
    return out


def _card_fields(src) -> list[str]:
    from lumos.editor.schemas import schema_file
    try:
        path = schema_file(src)
        return _schema_fields(str(path), path.stat().st_mtime_ns)
    except (LookupError, OSError, ValueError, LumosError):
        return []


@functools.lru_cache(maxsize=16)
def _schema_fields(path: str, _mtime: int) -> list[str]:
    from lumos.compiler.game import schema_field_types
    return sorted(schema_field_types(Path(path))[0])


def _card_keys(src) -> dict[str, str]:
    """Key -> the card types that have it, from the game's own card schema."""
    from lumos.editor.schemas import schema_file
    try:
        path = schema_file(src)
        return dict(_schema_keys(str(path), path.stat().st_mtime_ns))
    except (LookupError, OSError, ValueError, LumosError):
        return {}


@functools.lru_cache(maxsize=16)
def _schema_keys(path: str, _mtime: int) -> tuple:
    from lumos.editor.schemas import bundle_schema, card_types, resolve_ref
    schema = bundle_schema(Path(path))
    keys: dict[str, list[str]] = {}
    for ctype, node in sorted(card_types(schema).items()):
        for key in (resolve_ref(schema, node).get("properties") or {}):
            keys.setdefault(key, []).append(ctype)
    return tuple((k, "field of " + ", ".join(v) + " cards") for k, v in keys.items())


def _first_line(lines: list[str], span: Span) -> str:
    if not 1 <= span.line <= len(lines):
        return ""
    text = _CITATION.sub("", lines[span.line - 1][max(0, span.col - 1):]).strip()
    return text[:157] + "..." if len(text) > 160 else text


def _name_span(span: Span, name: str, lines: list[str], after_word: bool = False) -> Span:
    """The span of `name` on the first line of `span` (after the keyword when `after_word`)."""
    if 1 <= span.line <= len(lines):
        text = lines[span.line - 1]
        start = max(0, span.col - 1)
        if after_word:
            m = re.compile(r"\w+\s*").match(text, start)
            start = m.end() if m else start
        m = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)").search(text, start)
        if m:
            return Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)
    return span


def _find_word(file: str, lines: list[str], name: str) -> Span | None:
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    for i, text in enumerate(lines, 1):
        m = pattern.search(text.split("#", 1)[0])
        if m:
            return Span(file, i, m.start() + 1, i, m.end() + 1)
    return None


def _walk(node):
    """Every AST node under `node` (a node, or a tuple of nodes), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(reversed(n))
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            yield n
            stack.extend(reversed([getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span"]))


def _last_line(body, span: Span) -> int:
    last = _end(span)
    for n in _walk(body):
        s = getattr(n, "span", None)
        if isinstance(s, Span) and s.file == span.file:
            last = max(last, _end(s))
    return last


def _end(span: Span) -> int:
    """The last line a span has text on (a span that ends at a line's start stops before it)."""
    end = span.end_line or span.line
    return end - 1 if end > span.line and span.end_col <= 1 else end
