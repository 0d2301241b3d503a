"""A card, the zone it lies in or the variable that holds it, and a side -> whether that side sees it.

Why: hidden information must hold by construction, not by the care of each rule. A zone
declares who sees its cards (`hidden`, `owner`, `public`). A variable that holds a card
(a global, a side's or a piece's variable, a local of a running rule) shows it to whoever
sees where the card lies, unless the variable declares its own visibility
(`var pick: card per side owner = none`: only the side it belongs to sees which card it
holds; `hidden`: no side; `public`: every side). Observations show a card a side may not
see as HIDDEN; the agents' guess of the unseen cards (guess.redeal_hidden) renames
the cards variables and locals hold, so its lookahead never reads a card it may not see.

A card in the box (in no zone) is out of play: every side sees it.
"""
from __future__ import annotations

HIDDEN = {"hidden": "card"}   # what an observation shows for a card the side may not see


def zone_seen(cg, zid: int, side: int | None) -> bool:
    """Does `side` see the cards of zone `zid` (None: the omniscient view sees everything)?"""
    if side is None or zid < 0:
        return True
    ns = cg.nsides
    vis = cg.zones[zid // ns][1]
    return vis == "public" or (vis == "owner" and zid % ns == side)


def var_owner(cg, where: str, k: int) -> int:
    """The side a variable's value belongs to: the side of a side variable, the side of a
    piece's variable's piece; -1 for a global (and a neutral piece)."""
    if where == "sv":
        return k
    if where == "pv":
        return cg.pieces[k].side
    return -1


def card_seen(cg, st, card: int, side: int | None, declared: str | None = None, owner: int = -1) -> bool:
    """Does `side` see which card a variable (declared visibility, owner) holds?"""
    if side is None or declared == "public":
        return True
    if declared == "hidden":
        return False
    if declared == "owner":
        return side == owner
    return zone_seen(cg, st.card_zone[card], side)


def shown(cg, st, value, is_list: bool, side: int | None, declared: str | None = None, owner: int = -1):
    """A card variable's value as `side` may see it: card names, HIDDEN for the cards it may not see."""
    if value is None:
        return None
    if is_list:
        return [cg.cards[c].name if card_seen(cg, st, c, side, declared, owner) else HIDDEN for c in value]
    return cg.cards[value].name if card_seen(cg, st, value, side, declared, owner) else HIDDEN


def card_variables(cg, st):
    """Every variable that holds cards: (where, index, owner, values, key, is_list, declared), where
    `values[key]` is the value (a list of the state, so it can be written back)."""
    for where, index, is_list, declared in cg.card_vars:
        if where == "g":
            yield where, index, -1, st.g, index, is_list, declared
        else:
            values = st.sv[index] if where == "sv" else st.pv[index]
            for k in range(len(values)):
                yield where, index, var_owner(cg, where, k), values, k, is_list, declared


def card_locals(cg, st):
    """Every local of a running rule that may hold cards: (locals, slot, is_list)."""
    procs = cg.procs
    for fr in st.frames:
        for slot, is_list in procs[fr[0]].card_slots:
            yield fr[2], slot, is_list


def rename_cards(cg, st, mapping: dict) -> None:
    """Rename the cards variables and locals hold (`mapping`: old card -> new card), in place."""
    def renamed(value, is_list):
        if value is None:
            return None
        if is_list:
            return tuple(mapping.get(c, c) for c in value)
        return mapping.get(value, value)
    for _w, _i, _o, values, key, is_list, _d in card_variables(cg, st):
        values[key] = renamed(values[key], is_list)
    for local, slot, is_list in card_locals(cg, st):
        if slot < len(local):
            local[slot] = renamed(local[slot], is_list)
