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

The analysis of the rules lives in lumos.compiler.analysis (the linter uses it too); this
module writes the report.
"""
from __future__ import annotations

from pathlib import Path

from lumos.compiler import nodes as N
from lumos.compiler.analysis import (Card, Owner, PlaySite, call_sites, conjuncts, holds, owners, play_sites,
                                     source_of, type_checks, walk)


# ---------------------------------------------------------------- the report
def find_cards(cg, name: str) -> list:
    key = " ".join(name.split()).casefold()
    return [d for d in cg.card_defs if " ".join(d.name.split()).casefold() == key]


def _verdict(site: PlaySite, card: Card, decls, windows: set[str], texts) -> list[str]:
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
    parts = [p for f in site.filters for p in conjuncts(f)]
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

    named = any(k.endswith("_effect") for k in first.fields)
    if english and (effect_text or condition_text or named):
        rendered = _english(cg, decls, first.fields)
        if rendered:
            out += ["", "in plain English:"] + ["  " + ln for ln in rendered.splitlines()]

    card = Card(first.name, first.type, dict(first.fields))
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


def _english(cg, decls, fields) -> str:
    """The card's English (lumos.reference.english.card_fields_english, as the reference shows
    it), or "" without the renderer."""
    try:
        from lumos.reference.english import English, Vocabulary, card_fields_english
    except ImportError:
        return ""
    try:
        return card_fields_english(English(Vocabulary(decls, cg.board), me=True), fields)
    except Exception as exc:  # noqa: BLE001 - the English is a help; its absence is not an error
        return f"(no English rendering: {type(exc).__name__})"


def _where(span, root: Path | None = None) -> str:
    path = Path(span.file)
    return f"{path.name}:{span.line}"


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
