"""Warnings for likely mistakes that are legal: `lumos check` runs these after the compiler.

The compiler accepts a game whose every name resolves and whose every value has the right
kind; some such games still hold a mistake a designer wants to hear about. This module
looks at the parsed rules, the compiled cards and their effects, knowing no game:

- W310: a declaration (`var`, `const`, `window`, `zone`, or a name of `kinds`) that
  nothing refers to: no rule, no card effect or condition, no `{...}` of a text, no card
  field (a card's `window: NAME` refers to the window NAME), no `pieces of` placement.
- W311: a card with an `effect` that no `play` statement can ever be handed: every
  `play` of the rules (and of card effects) plays a card chosen by `choose x from LIST
  where FILTER`, and the filter is false for this card at every call of the rule (the
  partial evaluation of lumos.compiler.analysis: `it.type == "action"` is false for a card of
  another type, `it.window == w` is false when no call passes the card's window). A
  `play` of a card that was not chosen with a filter could play any card.

The compiler's own W301 already covers procedures, functions and actions never used.

>>> CODES
('W310', 'W311')
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lumos.compiler import nodes as N
from lumos.compiler.analysis import UNKNOWN, Card, Owner, conjuncts, holds, owners, rules_decls, source_of, walk
from lumos.diagnostics import Diagnostic, LumosError, Span

CODES = ("W310", "W311")
_INTERPOLATION = re.compile(r"\{([^{}]*)\}")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WHAT = {N.Var: "variable", N.Const: "constant", N.Window: "window", N.Zone: "zone"}


# ---------------------------------------------------------------- what the rules and cards say
@dataclass
class _Effect:
    """A card's parsed effect and condition."""
    card: object          # CardDef
    body: tuple           # statements of the effect (empty without one)
    condition: N.Expr | None


def _parse_card_texts(card_defs) -> list[_Effect]:
    from lumos.compiler.astdata import text_ast    # the compiler's own ASTs: nothing is parsed again
    from lumos.compiler.origin import Origin
    out = []
    for cd in card_defs:
        body: tuple = ()
        condition = None
        effect = cd.fields.get("effect")
        try:
            if isinstance(effect, str) and effect.strip():
                body = tuple(text_ast(effect, "effect", Origin(cd.span.file)))
            text = cd.fields.get("condition")
            if isinstance(text, str) and text.strip():
                condition = text_ast(text, "condition", Origin(cd.span.file))
        except LumosError:   # the compiler has reported it already
            pass
        out.append(_Effect(cd, body, condition))
    return out


def _effect_owners(effects: list[_Effect]) -> list[Owner]:
    return [Owner("card", e.card.name, ("me", "card"), e.body, e.card) for e in effects if e.body]


def _function_owners(decls) -> list[Owner]:
    return [Owner("function", d.name, d.params, (d.body,), d) for d in decls if isinstance(d, N.Function)]


# ---------------------------------------------------------------- W310: never referenced
def _referenced(decls, effects: list[_Effect]) -> set[str]:
    """Every name the rules and the cards could refer to a declaration by (generously)."""
    names: set[str] = set()
    roots: list = list(decls)     # a declaration's own name is a text, not a Name: it does not count
    for e in effects:
        roots += list(e.body) + ([e.condition] if e.condition is not None else [])
        for value in e.card.fields.values():
            if isinstance(value, str):
                names.add(value)
            elif isinstance(value, list):
                names.update(v for v in value if isinstance(v, str))
    for root in roots:
        for n in walk(root):
            if isinstance(n, (N.Name, N.Attr, N.My)):
                names.add(n.name)
            elif isinstance(n, N.Str):
                for inner in _INTERPOLATION.findall(n.value):
                    names.update(_IDENT.findall(inner))
            elif isinstance(n, N.Placement):
                names.add(n.kind)
            elif isinstance(n, N.Pieces):
                names.update(p.kind for p in n.placements)
            elif isinstance(n, N.TeamGroup):   # a team file's cards are put into the zone
                names.add(n.zone)
    return names


def _name_span(span: Span, name: str, texts: dict[str, str], after: int = 0) -> Span:
    """The span of `name` on the first line of a declaration (the whole declaration if not found)."""
    lines = texts.get(span.file, "").splitlines()
    if 1 <= span.line <= len(lines):
        m = re.compile(rf"\b{re.escape(name)}\b").search(lines[span.line - 1], max(after, span.col - 1))
        if m:
            return Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)
    return span


def unused_declarations(decls, effects: list[_Effect], texts: dict[str, str]) -> list[Diagnostic]:
    used = _referenced(decls, effects)
    out = []
    for d in decls:
        if isinstance(d, N.Kinds):
            for name in d.names:
                if name not in used:
                    keyword = texts.get(d.span.file, "").splitlines()[d.span.line - 1:d.span.line] or [""]
                    start = keyword[0].find("kinds") + len("kinds") if "kinds" in keyword[0] else 0
                    out.append(Diagnostic(
                        "W310", f"kind `{name}` is never used", _name_span(d.span, name, texts, start),
                        "no piece is of this kind and no rule mentions it: place pieces of it "
                        "(`pieces of SIDE:`), or remove it from `kinds`", "warning"))
        elif type(d) in _WHAT and d.name not in used:
            what = _WHAT[type(d)]
            hint = {
                "variable": "no rule or card reads or sets it: use it, or remove the declaration",
                "constant": "no rule or card reads it: use it, or remove the declaration",
                "window": "no rule opens it and no card names it: pass it to the rule that offers "
                          "interrupt cards, name it in a card's field, or remove it",
                "zone": "no rule or card puts cards into it or looks at it: use it, or remove the declaration",
            }[what]
            keyword = {"variable": "var", "constant": "const"}.get(what, what)
            line = (texts.get(d.span.file, "").splitlines()[d.span.line - 1:d.span.line] or [""])[0]
            start = line.find(keyword) + len(keyword) if keyword in line else 0
            out.append(Diagnostic("W310", f"{what} `{d.name}` is never used",
                                  _name_span(d.span, d.name, texts, start), hint, "warning"))
    return out


# ---------------------------------------------------------------- W311: never played
@dataclass
class _Site:
    owner: Owner
    play: N.PlayCard
    filters: list              # conjuncts of the `where` filters of the choose that picked the card
    free: bool                 # the card played was not chosen with a filter: any card


def _play_sites(all_owners: list[Owner]) -> list[_Site]:
    sites = []
    for owner in all_owners:
        nodes = list(walk(owner.body))
        chooses: dict[str, list[N.Choose]] = {}
        for n in nodes:
            if isinstance(n, N.Choose):
                chooses.setdefault(n.name, []).append(n)
        for n in nodes:
            if not isinstance(n, N.PlayCard):
                continue
            found = chooses.get(n.card.name, []) if isinstance(n.card, N.Name) else []
            if not found:
                sites.append(_Site(owner, n, [], True))
            for choose in found:      # a name chosen at several places: each may hand its card to `play`
                filters, source = [], choose.options
                while isinstance(source, N.Where):
                    filters[:0] = conjuncts(source.cond)
                    source = source.source
                sites.append(_Site(owner, n, filters, False))
    return sites


def _calls_by_name(all_owners: list[Owner]) -> dict[str, list[N.Node]]:
    """Every call of the rules and card effects, by the name called (walked once)."""
    out: dict[str, list[N.Node]] = {}
    for o in all_owners:
        for n in walk(o.body):
            if isinstance(n, (N.CallStmt, N.Call)):
                out.setdefault(n.func, []).append(n)
    return out


def _site_envs(site: _Site, calls: dict[str, list[N.Node]]) -> list[dict]:
    """The values each call of the site's rule gives the parameters its filters use."""
    params = set(site.owner.params)
    uses = {n.name for f in site.filters for n in walk(f) if isinstance(n, N.Name)} & params
    if uses and site.owner.kind == "procedure":
        return [{p: a for p, a in zip(site.owner.params, call.args) if p in uses}
                for call in calls.get(site.owner.name, [])]
    return [{}]


def _admits(site: _Site, card: Card, envs: list[dict], windows: set[str]) -> bool:
    """Could this `play` be handed this card, at some call of its rule?"""
    if site.free:
        return True
    return any(all(holds(f, env, card, windows) is not False for f in site.filters) for env in envs)


def _why_not(sites: list[_Site], card: Card, windows: set[str], texts: dict[str, str]) -> str:
    """A hint: the first filter part that rejects the card at each play."""
    reasons = []
    for site in sites:
        bad = next((f for f in site.filters if holds(f, {}, card, windows) is False), None)
        where = f"{Path(site.play.span.file).name}:{site.play.span.line}"
        if bad is not None:
            reasons.append(f"`{source_of(bad, texts)}` is false for it ({where})")
        else:
            window = card.fields.get("window")
            if isinstance(window, str) and window in windows:
                reasons.append(f"no rule passes the window `{window}` to `{site.owner.name}` ({where})")
            else:
                reasons.append(f"no call of `{site.owner.name}` lets it through ({where})")
    if not reasons:
        return "no rule plays a card (`play CARD by SIDE`); its effect can never run"
    return "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "") + \
        ": change the card's fields so a rule can play it, or remove its effect"


def unplayable_cards(decls, effects: list[_Effect], texts: dict[str, str]) -> list[Diagnostic]:
    windows = {d.name for d in decls if isinstance(d, N.Window)}
    all_owners = owners(decls) + _function_owners(decls) + _effect_owners(effects)
    sites = _play_sites(all_owners)
    calls = _calls_by_name(all_owners)
    envs = [_site_envs(site, calls) if not site.free else [{}] for site in sites]
    out = []
    for e in effects:
        cd = e.card
        if not e.body:      # a card without an effect is data the rules read; `play` is not its use
            continue
        card = Card(cd.name, cd.type, dict(cd.fields))
        if any(_admits(site, card, site_envs, windows) for site, site_envs in zip(sites, envs)):
            continue
        out.append(Diagnostic(
            "W311", f"card `{cd.name}` can never be played: no `play` of the rules takes a {cd.type} card "
                    "like it, so its effect never runs", cd.span, _why_not(sites, card, windows, texts),
            "warning"))
    return out


# ---------------------------------------------------------------- entry point
def lint_game(cg, src) -> list[Diagnostic]:
    """The W31x warnings of a compiled game (its rules from `src`, its cards from `cg`)."""
    try:
        decls, texts = rules_decls(src)
    except (LumosError, OSError, UnicodeDecodeError):
        return []           # the compiler has reported why the rules cannot be read
    texts = {**(cg.files or {}), **texts}
    effects = _parse_card_texts(cg.card_defs)
    return unused_declarations(decls, effects, texts) + unplayable_cards(decls, effects, texts)


__all__ = ["CODES", "UNKNOWN", "lint_game", "unplayable_cards", "unused_declarations"]
