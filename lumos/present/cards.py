"""A card -> its text for a reader, and a side's hand -> why each card cannot be played now.

The card's text is `lumos explain`'s report (its data, the effect as written and in
English, where the rules can play it). Why a card in hand is not among the options is
said in three steps, from what the rules declare: the decision being made is not one of
playing a card from that hand at all (the rules are at another step), or the card's own
`condition` does not hold now (quoted as written), or the rule that offers cards now does
not offer this one (its name and rulebook section: its filter, a cost, a skill count).
"""
from __future__ import annotations


def find_card(cg, text: str) -> str | None:
    """The name of the card `text` names: the same words without case, or the one name that
    starts with them; None when no card or several fit."""
    key = " ".join(text.split()).casefold()
    names = sorted({d.name for d in cg.card_defs})
    exact = [n for n in names if n.casefold() == key]
    if exact:
        return exact[0]
    start = [n for n in names if n.casefold().startswith(key)]
    return start[0] if len(start) == 1 else None


def card_text(cg, src, name: str) -> str:
    """The card's report as `lumos explain` writes it."""
    from lumos.compiler.analysis import rules_decls
    from lumos.toolkit.explain import explain_card
    decls, texts = rules_decls(src)
    return explain_card(cg, name, decls, texts, english=True)


def hand_zones(cg, side: int) -> list[int]:
    """The zone ids of `side` that only its owner sees (its hand and the like)."""
    ns = cg.nsides
    return [i * ns + side for i, (_name, vis) in enumerate(cg.zones)
            if vis == "owner" and i not in cg.shared_zones]


def unplayable_cards(state, side: int, played_from_only: bool = False) -> list[tuple[str, str, str]]:
    """(card name, zone in words, why it is not an option now) for the cards in the side's own
    zones that the pending decision does not offer (while cards are being played, in the
    zones they are played from; with `played_from_only`, nothing when none of the side's
    zones is played from now)."""
    cg, st = state.cg, state.st
    if st.result is not None or st.pending is None or st.pending["side"] != side:
        return []
    options = state.options()
    offered = {v for o in options if o["kind"] in ("card", "choice") for v in o["args"].values()
               if isinstance(v, str)}
    card_rules = {(o["rule"]["name"], o["rule"]["section"]) for o in options if o["kind"] == "card"}
    zones = hand_zones(cg, side)
    source = [z for z in zones if any(cg.cards[c].name in offered for c in st.zones[z])]
    if card_rules and played_from_only:   # only the zones the cards are played from
        zones = source
    out, seen = [], set()
    for z in zones:
        for c in st.zones[z]:
            name = cg.cards[c].name
            if name in offered or (name, z) in seen:
                continue
            seen.add((name, z))
            out.append((name, cg.zone_label(z), _why(state, side, c, card_rules)))
    return out


def st_zone_name(state, card: int) -> str:
    """The name of the zone a card lies in, without its side (`hand`)."""
    cg = state.cg
    z = state.st.card_zone[card]
    return cg.zones[z // cg.nsides][0].replace("_", " ") if z >= 0 else "box"


def _zone_offers(state, zone: str) -> bool:
    """Does the pending decision offer a card lying in a zone of this name?"""
    cg = state.cg
    names = {v for o in state.options() if o["kind"] == "card" for v in o["args"].values() if isinstance(v, str)}
    return any(st_zone_name(state, c) == zone for c in range(len(cg.cards))
               if cg.cards[c].name in names and state.st.card_zone[c] >= 0)


def _why(state, side: int, card: int, card_rules) -> str:
    cg = state.cg
    cdef = cg.card_defs[cg.cards[card].definition]
    here = state.options()[0]["rule"] if state.options() else {"name": "", "section": ""}
    where = (f"{here['name']}" + (f" ({here['section']})" if here["section"] else "")).replace("_", " ")
    if not card_rules:
        return f"no card can be played at this step: the rules are at {where}"
    zone = st_zone_name(state, card)
    if not any(o["kind"] == "card" and cg.cards[card].name in o["label"] for o in state.options()) and \
            not _zone_offers(state, zone):
        return f"the cards chosen now do not come from your {zone}: the rules are at {where}"
    if cdef.condition is not None:
        inner = [None] * cdef.condition_slots
        inner[0], inner[1] = side, card
        try:
            ok = bool(cdef.condition(state.machine, inner))
        except Exception:  # noqa: BLE001 - a condition that cannot be read here is not the reason
            ok = True
        if not ok:
            text = " ".join(str(cdef.fields.get("condition", "")).split())
            return f"its condition does not hold now: {text}"
    rules = "; ".join(f"{n.replace('_', ' ')}" + (f" ({s})" if s else "") for n, s in sorted(card_rules))
    return f"the rule offering cards now does not offer it: {rules}"
