"""Parsed rules -> what they say about cards, without playing: a static analysis knowing no game.

Used by the linter (lumos.compiler.lint: cards no `play` can be handed) and by
`lumos explain` (where the rules can play a card). Every `play X by S` statement of a
procedure, action, trigger or card effect is a play site; the `choose X from LIST where
COND` that picked X gives the filter, which `holds` evaluates with `it` bound to a card's
fields: True, False, or UNKNOWN for the parts that depend on the game state.

>>> UNKNOWN
UNKNOWN
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from lumos.compiler import nodes as N
from lumos.diagnostics import LumosError


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


# ---------------------------------------------------------------- reading the rules
def rules_decls(src) -> tuple[list[N.Decl], dict[str, str]]:
    """Every declaration of a game's rules files (parsed, not compiled), and the files' texts."""
    from lumos.compiler.astdata import rules_ast
    decls: list[N.Decl] = []
    texts: dict[str, str] = {}
    for path in src.rules_files():
        text = Path(path).read_text(encoding="utf-8-sig")
        texts[str(path)] = text
        decls += rules_ast(text, str(path)).decls
    return decls, texts


def declared_windows(src) -> list[str]:
    """The names of the windows a game's rules declare (empty when the rules do not parse)."""
    try:
        decls, _ = rules_decls(src)
    except (LumosError, OSError, UnicodeDecodeError):
        return []
    return [d.name for d in decls if isinstance(d, N.Window)]


def _children(node) -> Iterator:
    """The nodes directly inside `node` (statements, expressions, nested blocks)."""
    return iter(_child_list(node))


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}   # node class -> its fields but the span


def _child_list(node) -> list:
    out: list = []
    if isinstance(node, (list, tuple)):
        _items_into(node, out)
        return out
    cls = type(node)
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(n for n in getattr(cls, "__dataclass_fields__", {}) if n != "span")
    for name in names:
        value = getattr(node, name)
        if isinstance(value, N.Node):
            out.append(value)
        elif isinstance(value, tuple):
            _items_into(value, out)
    return out


def _items_into(items, out: list) -> None:
    """The nodes of a tuple (of tuples, of nodes), in order; anything else inside is no node."""
    for item in items:
        if isinstance(item, N.Node):
            out.append(item)
        elif isinstance(item, tuple):
            _items_into(item, out)


def walk(node) -> Iterator:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = _child_list(n)
        kids.reverse()
        stack.extend(kids)


def source_of(node: N.Node, texts: dict[str, str]) -> str:
    """The text a node was parsed from, on one line."""
    s = node.span
    lines = texts.get(s.file, "").splitlines()
    if not (1 <= s.line <= len(lines)):
        return ""
    end_line = s.end_line or s.line
    if end_line == s.line and s.end_col > s.col:
        text = lines[s.line - 1][s.col - 1:s.end_col - 1]
    else:
        chunk = [lines[s.line - 1][s.col - 1:]] + lines[s.line:end_line - 1]
        if end_line > s.line and end_line <= len(lines):
            chunk.append(lines[end_line - 1][:max(0, s.end_col - 1)])
        text = " ".join(part.strip() for part in chunk)
    return " ".join(text.split())


# ---------------------------------------------------------------- partial evaluation
@dataclass
class Card:
    name: str
    type: str
    fields: dict


def _literal(e: N.Expr, env: dict, card: Card, windows: set[str]):
    """A value known without playing, or UNKNOWN."""
    if isinstance(e, (N.Num, N.Str, N.Bool)):
        return e.value
    if isinstance(e, N.NoneLit):
        return None
    if isinstance(e, N.Name):
        if e.name in env:
            return _literal(env[e.name], {}, card, windows)
        if e.name in windows:
            return e.name      # a window's name is compared with a card's `window` field
        return UNKNOWN
    if isinstance(e, N.Attr) and isinstance(e.obj, N.Name) and e.obj.name == "it":
        if e.name == "name":
            return card.name
        if e.name == "type":
            return card.type
        if e.name == "deck":
            return UNKNOWN
        return card.fields.get(e.name)   # as the engine reads it: a field the card lacks is none
    return UNKNOWN


_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "is": lambda a, b: a == b,
    "isnot": lambda a, b: a != b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}


def holds(e: N.Expr, env: dict, card: Card, windows: set[str]):
    """True, False or UNKNOWN: does the filter `e` (with `it` = the card) hold?"""
    if isinstance(e, N.BoolOp):
        values = [holds(x, env, card, windows) for x in e.items]
        if e.op == "and":
            if any(v is False for v in values):
                return False
            return True if all(v is True for v in values) else UNKNOWN
        if any(v is True for v in values):
            return True
        return False if all(v is False for v in values) else UNKNOWN
    if isinstance(e, N.Not):
        v = holds(e.operand, env, card, windows)
        return UNKNOWN if v is UNKNOWN else not v
    if isinstance(e, N.Compare) and e.op in _COMPARE:
        a, b = _literal(e.left, env, card, windows), _literal(e.right, env, card, windows)
        if a is UNKNOWN or b is UNKNOWN:
            return UNKNOWN
        try:
            return bool(_COMPARE[e.op](a, b))
        except TypeError:
            return UNKNOWN
    if isinstance(e, (N.Attr, N.Bool)):
        v = _literal(e, env, card, windows)
        return UNKNOWN if v is UNKNOWN else bool(v)
    return UNKNOWN


# ---------------------------------------------------------------- play sites
@dataclass
class Owner:
    """A rule that holds statements: a procedure, action, setup, flow or trigger."""
    kind: str
    name: str
    params: tuple[str, ...]
    body: tuple
    decl: N.Node


def owners(decls: list[N.Decl]) -> list[Owner]:
    out = []
    for d in decls:
        if isinstance(d, N.Procedure):
            out.append(Owner("procedure", d.name, d.params, d.body, d))
        elif isinstance(d, N.Action):
            out.append(Owner("action", d.name, (), d.body, d))
        elif isinstance(d, (N.Setup, N.Flow)):
            out.append(Owner(type(d).__name__.lower(), type(d).__name__.lower(), (), d.body, d))
        elif isinstance(d, N.Trigger):
            out.append(Owner("trigger", f"when {d.event}", d.params, d.body, d))
        elif isinstance(d, N.Anytime):
            out.append(Owner("anytime", f"anytime {d.name}", (d.side,), d.body, d))
    return out


@dataclass
class PlaySite:
    owner: Owner
    play: N.PlayCard
    choose: N.Choose | None
    source: N.Expr | None           # what the card is chosen from (without the filter)
    filters: list[N.Expr] = field(default_factory=list)


def play_sites(decls: list[N.Decl]) -> list[PlaySite]:
    sites = []
    for owner in owners(decls):
        chooses = {}
        nodes = list(walk(owner.body))
        for n in nodes:
            if isinstance(n, N.Choose):
                chooses.setdefault(n.name, n)
        for n in nodes:
            if isinstance(n, N.PlayCard):
                choose = chooses.get(n.card.name) if isinstance(n.card, N.Name) else None
                source, filters = (choose.options, []) if choose else (None, [])
                while isinstance(source, N.Where):
                    filters.insert(0, source.cond)
                    source = source.source
                sites.append(PlaySite(owner, n, choose, source, filters))
    return sites


def call_sites(decls: list[N.Decl], name: str) -> list[tuple[Owner, N.Node]]:
    """Every call of the procedure or function `name`: (the rule it is in, the call node)."""
    out = []
    for owner in owners(decls) + [Owner("function", d.name, d.params, (d.body,), d)
                                  for d in decls if isinstance(d, N.Function)]:
        for n in walk(owner.body):
            if isinstance(n, (N.CallStmt, N.Call)) and n.func == name:
                out.append((owner, n))
    return out


def type_checks(decls: list[N.Decl], card_type: str) -> list[tuple[Owner, N.Compare]]:
    """Comparisons of some card's `type` with this type, in any rule."""
    out = []
    for owner in owners(decls) + [Owner("function", d.name, d.params, (d.body,), d)
                                  for d in decls if isinstance(d, N.Function)]:
        for n in walk(owner.body):
            if isinstance(n, N.Compare) and n.op in ("==", "!=", "is", "isnot"):
                sides = (n.left, n.right)
                if any(isinstance(x, N.Str) and x.value == card_type for x in sides) and \
                        any(isinstance(x, N.Attr) and x.name == "type" for x in sides):
                    out.append((owner, n))
    return out


def conjuncts(e: N.Expr) -> list[N.Expr]:
    if isinstance(e, N.BoolOp) and e.op == "and":
        return [p for item in e.items for p in conjuncts(item)]
    return [e]
