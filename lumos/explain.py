"""`lumos explain CARD`: a card's data, its effect and condition in the language and in English,
and where the game's rules can play it.

"Where it can be played" is found from the rules' AST, knowing no game: every `play X by S`
statement of a procedure, action, trigger or card effect is a play site; the `choose X from
LIST where COND` that picked X gives the filter, which is evaluated with `it` bound to this
card's fields. Parts that depend on the game state stay "depends"; a parameter of the
enclosing procedure is replaced by the argument of each call of that procedure, so a filter
such as `it.window == w` is decided per call site. Rules that compare a card's `type` with
this card's type are listed too (cards handled when drawn, for instance), and for a card
that names a declared window (an interrupt card), the places where the rules open it.

>>> UNKNOWN.__class__.__name__
'_Unknown'
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
    from lumos.compiler.build_ast import Origin, build
    from lumos.compiler.parse import parse
    decls: list[N.Decl] = []
    texts: dict[str, str] = {}
    for path in src.rules_files():
        text = Path(path).read_text(encoding="utf-8-sig")
        texts[str(path)] = text
        decls += build(parse(text, str(path)), Origin(str(path))).decls
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
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from _children(item) if isinstance(item, tuple) else ([item] if isinstance(item, N.Node) else [])
        return
    for name in getattr(node, "__dataclass_fields__", {}):
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, N.Node):
            yield value
        elif isinstance(value, tuple):
            yield from _children(value)


def walk(node) -> Iterator:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(_children(n))))


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


def _where(span, root: Path | None = None) -> str:
    path = Path(span.file)
    return f"{path.name}:{span.line}"


# ---------------------------------------------------------------- partial evaluation
@dataclass
class _Card:
    name: str
    type: str
    fields: dict


def _literal(e: N.Expr, env: dict, card: _Card, windows: set[str]):
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


def holds(e: N.Expr, env: dict, card: _Card, windows: set[str]):
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


# ---------------------------------------------------------------- the report
def find_cards(cg, name: str) -> list:
    key = " ".join(name.split()).casefold()
    return [d for d in cg.card_defs if " ".join(d.name.split()).casefold() == key]


def _verdict(site: PlaySite, card: _Card, decls, windows: set[str], texts) -> list[str]:
    """Lines saying whether this card can be played at this site."""
    if site.choose is None:
        return ["    any card the rule hands to `play`"]
    params = set(site.owner.params)
    uses = {n.name for f in site.filters for n in walk(f) if isinstance(n, N.Name)} & params
    envs: list[tuple[str, dict]] = [("", {})]
    if uses and site.owner.kind == "procedure":
        envs = []
        for caller, call in call_sites(decls, site.owner.name):
            env = {p: a for p, a in zip(site.owner.params, call.args) if p in uses}
            envs.append((f"when {_rule(caller)} calls it ({_where(call.span)}: "
                         f"`{source_of(call, texts)}`)", env))
    lines = []
    parts = [p for f in site.filters for p in _conjuncts(f)]
    for when, env in envs:
        verdicts = [holds(f, env, card, windows) for f in parts]
        if any(v is False for v in verdicts):
            bad = next(f for f, v in zip(parts, verdicts) if v is False)
            word = f"no: `{source_of(bad, texts)}` does not hold for this card"
        elif all(v is True for v in verdicts):
            word = "yes"
        else:
            word = "yes, when the rest of the filter holds in the game"
        lines.append(f"    {when + ': ' if when else ''}{word}")
    return lines


def _conjuncts(e: N.Expr) -> list[N.Expr]:
    if isinstance(e, N.BoolOp) and e.op == "and":
        return [p for item in e.items for p in _conjuncts(item)]
    return [e]


def _rule(owner: Owner) -> str:
    return owner.kind if owner.kind in ("setup", "flow") else f"{owner.kind} {owner.name}"


def explain_card(cg, name: str, decls: list[N.Decl] | None = None, texts: dict | None = None,
                 english: bool = True) -> str:
    """The full explanation of the card `name` of the compiled game `cg`."""
    defs = find_cards(cg, name)
    if not defs:
        raise KeyError(name)
    first = defs[0]
    texts = dict(texts or {})
    texts.update(cg.files or {})
    decls = decls or []
    windows = {d.name for d in decls if isinstance(d, N.Window)}
    article = "an" if first.type[:1].lower() in "aeiou" else "a"
    out = [f"{first.name} - {article} {first.type} card of {cg.id}"]
    for d in defs:
        deck = cg.sides[d.deck] if 0 <= d.deck < len(cg.sides) else "no side's deck (shared)"
        out.append(f"  {_display(d.span.file)}:{d.span.line}: deck {deck}, "
                   f"{d.copies} cop{'y' if d.copies == 1 else 'ies'}")
    differs = [d for d in defs[1:] if dict(d.fields) != dict(first.fields)]
    if differs:
        out.append("  (the definitions differ; the first is shown)")

    out += ["", "data:"]
    keys = [k for k in first.fields if k not in ("effect", "condition", "name", "type", "copies", "text")]
    for key in keys + (["text"] if "text" in first.fields else []):
        out.append(f"  {key}: {_show(first.fields[key])}")

    effect_text = first.fields.get("effect")
    condition_text = first.fields.get("condition")
    for title, text in (("condition (when it can be played)", condition_text), ("effect", effect_text)):
        if isinstance(text, str) and text.strip():
            out += ["", f"{title}:"] + ["  " + ln for ln in text.rstrip().splitlines()]

    if english and (effect_text or condition_text):
        rendered = _english(cg, decls, effect_text, condition_text)
        if rendered:
            out += ["", "in plain English:"] + ["  " + ln for ln in rendered.splitlines()]

    card = _Card(first.name, first.type, dict(first.fields))
    out += ["", "where the rules can play it:"]
    sites = play_sites(decls)
    if not sites:
        out.append("  no rule plays a card (`play CARD by SIDE`)")
    for site in sites:
        o = site.owner
        sources = f" [{'; '.join(o.decl.sources)}]" if getattr(o.decl, "sources", ()) else ""
        out.append(f"  {_rule(o)} ({_where(site.play.span)}){sources}:")
        if site.choose is not None:
            chosen = source_of(site.choose.options, texts)
            out.append(f"    plays `{site.choose.name}` chosen from `{chosen}`")
        out += _verdict(site, card, decls, windows, texts)

    checks = type_checks(decls, first.type)
    if checks:
        out += ["", f"rules that look for cards of type `{first.type}`:"]
        for owner, cmp in checks:
            out.append(f"  {_rule(owner)} ({_where(cmp.span)}): `{source_of(cmp, texts)}`")

    named = [(k, v) for k, v in first.fields.items() if isinstance(v, str) and v in windows]
    for key, window in named:
        out += ["", f"its `{key}` names the window `{window}`, which the rules open at:"]
        opened = [(o, n) for o in owners(decls) for n in walk(o.body)
                  if isinstance(n, (N.CallStmt, N.Call)) and
                  any(isinstance(a, N.Name) and a.name == window for a in n.args)]
        if not opened:
            out.append("  nowhere: no rule passes this window on, so the card is never offered")
        for owner, call in opened:
            out.append(f"  {_rule(owner)} ({_where(call.span)}): `{source_of(call, texts)}`")
    return "\n".join(out) + "\n"


def _english(cg, decls, effect_text, condition_text) -> str:
    """The effect and condition in English, from the parsed text (empty if no renderer)."""
    try:
        from lumos.compiler.build_ast import Origin, build
        from lumos.compiler.parse import parse
        from lumos.english import English, Vocabulary, plain, to_text
    except ImportError:
        return ""
    try:
        eng = English(Vocabulary(decls, cg.board), me=True)
        parts = []
        if isinstance(condition_text, str) and condition_text.strip():
            cond = build(parse(condition_text, "<condition>", "condition"), Origin("<condition>"))
            parts.append("Playable when " + plain(eng.cond(cond)) + ".")
        if isinstance(effect_text, str) and effect_text.strip():
            stmts = build(parse(effect_text, "<effect>", "effect"), Origin("<effect>"))
            parts.append(to_text(eng.steps(stmts)))
        return "\n".join(parts)
    except Exception as exc:  # noqa: BLE001 - the English is a help; its absence is not an error
        return f"(no English rendering: {type(exc).__name__})"


def _display(path: str) -> str:
    import os
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)
