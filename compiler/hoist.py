"""What a search's conditions read that stays the same for the whole search, read once per search.

Why: a `reach` tests its conditions for every space it meets, and their texts (lumos.compiler.fused)
read the locals of the rule around it each time: `p` of `open_ground(p, s)` is `L[1]` on every
test, and a remembered part keyed on `(p, s)` looks up `p`'s row of its dictionary before the
space's entry. Nothing in a search writes the slots made before it (an expression writes only
slots of its own: the search's spaces, the items of its `where`s, the arguments of its inlined
calls; see compiler/purity.py), so those slots have one value for the whole search. Here their
reads become variables of the search function, set once, and the remembered part's row is looked up
at its first use in the search instead of on every test. The space being tested (the search's own
slot) is read from the loop's variable instead of the list of locals.

The same values, the same tests in the same order, the same writes to the locals: only fewer
lookups. Nothing a designer wrote is in these texts (names are `_12`, slots are numbers).
"""
from __future__ import annotations

import re

_ROW = re.compile(r"(_\d+)\.get\(L\[(\d+)\], (_\d+)\)\.get\(")   # a remembered part keyed on two slots
_SLOT = re.compile(r"(?<![\w.])L\[(\d+)\]")


def invariant(texts: list[str], names: dict, below: int, empty: dict) -> tuple[list[str], list[str]]:
    """(texts, lines to run first in the search) for condition texts run in a loop that writes no
    slot under `below`. `empty` is the shared empty dictionary a remembered part's text reads a
    missing row from (fused._NO_NAMES): the pattern is a remembered part only with it."""
    rows: dict = {}
    slots: set = set()

    def row(mt):
        cache, s0, e = mt.group(1), int(mt.group(2)), mt.group(3)
        if s0 >= below or names.get(e) is not empty or type(names.get(cache)) is not dict:
            return mt.group(0)
        r = rows.setdefault((cache, s0), f"_row{cache}")
        # looked up at its first use (a search that tests nothing looks nothing up); the row the
        # remembered part would make on its first miss is made here instead (the same dict)
        return f"({r} if {r} is not None else ({r} := {cache}.get(L[{s0}]) or {cache}.setdefault(L[{s0}], {{}}))).get("

    def slot(mt):
        s = int(mt.group(1))
        if s >= below:
            return mt.group(0)
        slots.add(s)
        return f"_L{s}"
    out = [_SLOT.sub(slot, _ROW.sub(row, t)) for t in texts]
    first = [f"_L{s} = L[{s}]" for s in sorted(slots)] + [f"{r} = None" for r in rows.values()]
    return out, first


def own_slot(text: str, slot: int, var: str) -> str:
    """The text with reads of the search's own slot (just written with the loop's variable `var`)
    reading the variable."""
    return re.sub(rf"(?<![\w.])L\[{slot}\]", var, text)
