"""A position in a rules or card file + the game's index -> what the editor shows there:
hover text, the place a name is declared, the names to complete, the quick fixes of
"did you mean" problems.

Plain functions on text and an index (lumos.editor.symbols), positions as 0-based lines
and characters counted in code points; the server (lsp.py) turns them into protocol
messages and converts characters to the client's UTF-16 units. In a card file only the
card texts (effect, condition, `..._effect`) and a card's name count: the words of a
card's `text` are prose.

>>> from lumos.api import game_sources
>>> from lumos.editor.symbols import GameIndex
>>> index = GameIndex.build(game_sources("snitch-snatcher"))
>>> path = str(game_sources("snitch-snatcher").game_file.resolve())
>>> text = "function f(s) = chasers(s)\\n"
>>> definition(index, path, text, 0, 18).span.line
62
>>> 'chasers' in [c.label for c in completions(index, path, text, 0, 20)]
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lumos.diagnostics import Diagnostic, suggestion
from lumos.editor.lexer import (BUILTIN_FUNCTIONS, CONSTANTS, DECLARATIONS, OPERATOR_WORDS,
                                STATEMENTS, TYPES)
from lumos.editor.symbols import GameIndex, Symbol

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = sorted(set(DECLARATIONS + STATEMENTS + OPERATOR_WORDS + CONSTANTS + TYPES))
BUILTINS = {
    "me": "the side playing the card or taking the action", "it": "the item a `where` is looking at",
    "card": "the card being played", "current": "the side whose turn it is", "sides": "every side",
    "pieces": "every piece", "cards": "every card of the game",
}
_BUILTIN_CALLS = {name: "built-in function" for name in BUILTIN_FUNCTIONS}


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str          # the Symbol kind, "keyword", "builtin", "attribute", "field"
    detail: str = ""


# ---------------------------------------------------------------- what is under the cursor
def word_at(line: str, char: int) -> tuple[int, int, str] | None:
    """(start, end, word) of the identifier at or just before `char`, or None.

    >>> word_at("set plays_lft = 2", 6)
    (4, 13, 'plays_lft')
    """
    for m in _WORD.finditer(line):
        if m.start() <= char <= m.end():
            return m.start(), m.end(), m.group(0)
    return None


def _is_yaml(path: str) -> bool:
    return path.endswith((".yaml", ".yml"))


def _in_code(index: GameIndex, path: str, lines: list[str], line: int, char: int) -> bool:
    """True where the language is written: a rules file outside comments and texts, or a card text."""
    text = lines[line] if line < len(lines) else ""
    if _is_yaml(path):
        scope = index.scope_at(path, line + 1)
        if scope is None:
            return bool(re.match(r"\s*(-\s*)?window\s*:", text))
    before = text[:char]
    return "#" not in _strip_strings(before) and before.count('"') % 2 == 0 or _in_hole(before)


def _strip_strings(text: str) -> str:
    return re.sub(r'"[^"]*"', '""', text)


def _in_hole(before: str) -> bool:
    """Inside a `{...}` hole of a text: the hole is an expression."""
    quote = before.rfind('"')
    return quote >= 0 and before.rfind("{") > quote and before.rfind("}") < before.rfind("{")


def _card_name_at(index: GameIndex, path: str, line: str, char: int) -> Symbol | None:
    """A card named at the cursor: a quoted text, or a YAML value (`- play: Quick Pass`,
    `{card: Gryffindor Chaser, copies: 3}`), that is a card's name."""
    for m in re.finditer(r'"([^"]*)"|\'([^\']*)\'', line):
        if m.start() <= char <= m.end():
            return index.card(m.group(1) if m.group(1) is not None else m.group(2), path)
    for m in re.finditer(r"[^,\[\]{}:#\"'\-\s][^,\[\]{}:#\"]*", line.split(" #", 1)[0]):
        if m.start() <= char <= m.end():
            return index.card(m.group(0).strip(), path)
    return None


def symbol_at(index: GameIndex, path: str, text: str, line: int, char: int) -> tuple[Symbol | None, tuple]:
    """The symbol named at a 0-based position, and the (start, end) characters of its name."""
    lines = text.splitlines()
    here = lines[line] if line < len(lines) else ""
    if _is_yaml(path) or '"' in here:
        card = _card_name_at(index, path, here, char)
        if card is not None and not (_in_code(index, path, lines, line, char) and word_at(here, char)
                                     and index.lookup(word_at(here, char)[2], path, line + 1)):
            return card, (0, 0)
    found = word_at(here, char)
    if found is None or not _in_code(index, path, lines, line, char):
        return None, ()
    start, end, word = found
    if start > 0 and here[start - 1] == ".":
        owner = index.attributes.get(word)
        decl = index.symbols.get(word) if owner in ("piece", "side") else None
        if decl is not None:
            return decl, (start, end)
        return (Symbol(word, "attribute", f"`.{word}` of a {owner}", decl) if owner else None), (start, end)
    sym = index.lookup(word, path, line + 1)
    if sym is None and word in BUILTINS:
        sym = Symbol(word, "builtin", BUILTINS[word], None)
    elif sym is None and word in _BUILTIN_CALLS:
        sym = Symbol(word, "builtin", "built-in function", None)
    return sym, (start, end)


# ---------------------------------------------------------------- hover and definition
def definition(index: GameIndex, path: str, text: str, line: int, char: int) -> Symbol | None:
    """The declared name at a position (its `span` is where it is declared), or None."""
    sym, _ = symbol_at(index, path, text, line, char)
    return sym if sym is not None and sym.span is not None else None


def hover(index: GameIndex, path: str, text: str, line: int, char: int) -> tuple[str, tuple] | None:
    """Markdown for the name at a position: what it is, its declaration, its English, where."""
    sym, where = symbol_at(index, path, text, line, char)
    if sym is None:
        return None
    out = [f"**{sym.kind}** `{sym.name}`"]
    if sym.signature and sym.kind not in ("builtin", "attribute", "card"):
        out.append(f"```lumos\n{sym.signature}\n```")
    elif sym.signature:
        out.append(sym.signature)
    english = english_of(index, sym)
    if english:
        out.append(english)
    if sym.detail:
        out.append(f"> {sym.detail}")
    if sym.span is not None and sym.kind not in ("builtin",):
        from pathlib import Path
        out.append(f"*{Path(sym.span.file).name}:{sym.span.line}*")
    return "\n\n".join(out), where


def english_of(index: GameIndex, sym: Symbol) -> str:
    """The English of what a symbol declares (lumos.reference.english), or "" when there is none."""
    from lumos.compiler import nodes as N
    try:
        from lumos.reference.english import English, Vocabulary, card_fields_english, plain, to_text
        eng = getattr(index, "_english", None)
        if eng is None:
            eng = index._english = English(Vocabulary(index.all_decls(), index.board))
        decl = sym.decl
        if sym.kind == "card":
            return card_fields_english(eng.with_me(), decl.fields)
        if isinstance(decl, N.Decl):
            return to_text([eng.decl(decl)])
        if isinstance(decl, N.Stmt):
            return to_text(eng.with_me().steps((decl,)))
        if isinstance(decl, N.Binder):
            return plain(eng.decl(decl).text) if hasattr(eng, "_Binder") else ""
    except Exception:  # noqa: BLE001 - the English is a help; a construct it cannot say yet is no error
        return ""
    return ""


# ---------------------------------------------------------------- completion
_KEY_LINE = re.compile(r"^\s*(?:-\s+)?[A-Za-z_]*$")


def completions(index: GameIndex, path: str, text: str, line: int, char: int) -> list[Completion]:
    """The names that may be written at a position, those starting with the word typed first."""
    lines = text.splitlines()
    here = lines[line] if line < len(lines) else ""
    before = here[:char]
    prefix = re.search(r"[A-Za-z_0-9]*$", before).group(0)
    head = before[:len(before) - len(prefix)]
    if _is_yaml(path) and index.scope_at(path, line + 1) is None:
        if _KEY_LINE.match(before):        # a card's key: the fields the schema allows
            return _ranked([Completion(k, "field", what) for k, what in sorted(index.card_keys.items())], prefix)
        if re.match(r"\s*(-\s*)?window\s*:", before):
            return _ranked([Completion(s.name, s.kind, s.signature) for s in index.symbols.values()
                            if s.kind == "window"], prefix)
        return []
    if not _in_code(index, path, lines, line, char):   # a comment, or the words of a text
        return []
    if head.endswith("."):
        return _ranked([Completion(a, "attribute", f"of a {owner}" if owner != "card" else "card field")
                        for a, owner in sorted(index.attributes.items())], prefix)
    seen: set[str] = set()
    out = []
    for sym in index.in_scope(path, line + 1):
        if sym.name not in seen and sym.kind not in ("space",):
            seen.add(sym.name)
            out.append(Completion(sym.name, sym.kind, sym.signature))
    for name, what in list(BUILTINS.items()) + list(_BUILTIN_CALLS.items()):
        if name not in seen:
            seen.add(name)
            out.append(Completion(name, "builtin", what))
    out += [Completion(k, "keyword") for k in KEYWORDS if k not in seen]
    if prefix:   # spaces are many (a grid): only once a word is started
        out += [Completion(s.name, s.kind, s.signature) for s in index.symbols.values()
                if s.kind == "space" and s.name.startswith(prefix)]
    return _ranked(out, prefix)


def _ranked(items: list[Completion], prefix: str) -> list[Completion]:
    """Those starting with `prefix` (every one when it is empty), the game's own names first."""
    order = {"parameter": 0, "local": 0, "builtin": 2, "keyword": 3}
    keep = [c for c in items if c.label.startswith(prefix)] if prefix else items
    return sorted(keep, key=lambda c: (order.get(c.kind, 1), c.label))


# ---------------------------------------------------------------- quick fixes
@dataclass(frozen=True)
class Fix:
    title: str
    line: int          # 0-based line and characters of the text to replace
    start: int
    end: int
    new_text: str


def quick_fix(d: Diagnostic, text: str) -> Fix | None:
    """The edit a "did you mean `x`?" hint proposes: the misspelt name replaced by `x`.

    >>> from lumos.diagnostics import Span
    >>> d = Diagnostic("E201", "unknown name `plays_lft`", Span("g", 1, 7, 1, 16), "did you mean `plays_left`?")
    >>> quick_fix(d, "while plays_lft > 0:")
    Fix(title='Change to `plays_left`', line=0, start=6, end=15, new_text='plays_left')
    >>> d = Diagnostic("E202", "a piece has no attribute `spce`", Span("g", 1, 5, 1, 11), "did you mean `space`?")
    >>> quick_fix(d, "log c.spce").start
    6
    """
    new = suggestion(d.hint)
    lines = text.splitlines()
    if new is None or not 1 <= d.span.line <= len(lines):
        return None
    here = lines[d.span.line - 1]
    start = max(0, d.span.col - 1)
    end = d.span.end_col - 1 if d.span.end_line in (0, d.span.line) and d.span.end_col > d.span.col else start + 1
    old = here[start:end]
    for name in reversed(re.findall(r"`([^`]+)`", d.message)):   # the misspelt name the message quotes
        m = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", old) if name != new else None
        if m:
            start, end = start + m.start(), start + m.end()
            break
    else:
        if not old.strip():
            return None
    return Fix(f"Change to `{new}`", d.span.line - 1, start, end, new)
