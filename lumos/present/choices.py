"""Another side's choice -> what a side may be told of it.

A side hears the label of every choice made by chance and by itself. Of another side's
choice it hears the label only when every card the label names is in sight once the
choice is made (a card played onto the table); a label naming a card that then lies
face down (kept in play, added to a deck, put in a hand) is told as "a hidden choice".
Both front ends, the terminal and the browser, say choices through here.
"""
from __future__ import annotations

HIDDEN_CHOICE = "a hidden choice"


def visible_cards(position: dict) -> dict[str, int]:
    """Card name -> how many copies of it a position (written for one side) shows."""
    counts: dict[str, int] = {}
    for cards in position["zones"].values():
        if isinstance(cards, list):
            for c in cards:
                name = c["card"] if isinstance(c, dict) else c
                counts[name] = counts.get(name, 0) + 1
    return counts


def card_names(cg) -> tuple[str, ...]:
    names = cg.__dict__.get("_present_card_names")
    if names is None:
        names = tuple(sorted({c.name for c in cg.cards}))
        object.__setattr__(cg, "_present_card_names", names)   # a cache: the game's data is unchanged
    return names


def shown_choice(cg, label: str, decider: int, side: int | None, before: dict, after: dict) -> str:
    """The label, or HIDDEN_CHOICE (see the module docstring); `before`/`after` are the
    positions written for `side` around the choice."""
    if side is None or decider == side or decider < 0:
        return label
    seen_before, seen_after = visible_cards(before), visible_cards(after)
    for name in card_names(cg):
        if name in label and not seen_after.get(name, 0) >= max(1, seen_before.get(name, 0)):
            return HIDDEN_CHOICE
    return label
