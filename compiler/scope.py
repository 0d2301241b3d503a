"""Names and kinds: the symbol table a game declares, and the small type system of the language.

Types are strings: number, flag, text, side, piece, space, card, zone, kind, link,
die, none, any, and `list:T` for lists of T. A zone is a list of cards too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lumos.diagnostics import Span

ENTITY_TYPES = {"side", "piece", "space", "card", "zone", "question"}
TYPE_WORDS = {
    "number": "a number", "flag": "true or false", "text": "a text", "side": "a side",
    "piece": "a piece", "space": "a space", "card": "a card", "zone": "a card zone",
    "kind": "a kind", "link": "a link kind", "question": "a question", "die": "a die", "none": "none", "any": "a value",
}


def describe(t: str) -> str:
    if t.startswith("list:"):
        inner = t[5:]
        if inner.startswith("list:"):   # a list of lists: "a list of lists of spaces"
            return "a list of lists" + describe(inner)[len("a list"):]
        return "a list" if inner == "any" else f"a list of {describe(inner)[2:] if describe(inner).startswith('a ') else describe(inner)}s"
    return TYPE_WORDS.get(t, t)


def element(t: str) -> str | None:
    """The type of the items of a list type, or None if `t` is not a list."""
    if t.startswith("list:"):
        return t[5:]
    if t == "zone":
        return "card"
    if t == "any":
        return "any"
    return None


def compatible(a: str, b: str) -> bool:
    """Can a value of type a meet a value of type b (compare, assign)?"""
    if a == b or "any" in (a, b):
        return True
    if "none" in (a, b):
        other = b if a == "none" else a
        return other in ENTITY_TYPES or other in ("kind", "text", "number", "flag", "die") or other.startswith("list:")
    ea, eb = element(a), element(b)
    if ea is not None and eb is not None:
        return compatible(ea, eb)
    return False


def unify(a: str, b: str) -> str:
    if a == b:
        return a
    if a in ("none", "any"):
        return b if a == "none" else a
    if b in ("none", "any"):
        return a if b == "none" else b
    ea, eb = element(a), element(b)
    if ea is not None and eb is not None:
        return "list:" + unify(ea, eb)
    return "any"


@dataclass
class Symbol:
    """A declared name: what it is (`what`), its type, and its value or storage slot."""
    name: str
    what: str     # side kind region link window option die piece space var const
                  # function procedure action builtin zone-decl
    type: str
    value: Any = None
    span: Span | None = None
    used: bool = False


@dataclass
class LocalScope:
    """Slots of one procedure's locals; names map to (slot, type)."""
    names: dict[str, tuple[int, str]] = field(default_factory=dict)
    slot_names: list[str] = field(default_factory=list)
    slot_types: list[str] = field(default_factory=list)   # per slot: the kind of value it holds

    def slot(self, name: str, typ: str) -> int:
        if name in self.names:
            slot, old = self.names[name]
            self.names[name] = (slot, unify(old, typ))
            self.slot_types[slot] = unify(self.slot_types[slot], typ)
            return slot
        slot = len(self.slot_names)
        self.slot_names.append(name)
        self.slot_types.append(typ)
        self.names[name] = (slot, typ)
        return slot

    def hidden(self, what: str, typ: str = "any") -> int:
        slot = len(self.slot_names)
        self.slot_names.append(f"<{what}>")
        self.slot_types.append(typ)
        return slot

    def scoped(self, name: str, typ: str):
        """Bind `name` for a nested construct (`it`, reach variables); returns (slot, restore)."""
        previous = self.names.get(name)
        slot = len(self.slot_names)
        self.slot_names.append(name)
        self.slot_types.append(typ)
        self.names[name] = (slot, typ)

        def restore():
            if previous is None:
                self.names.pop(name, None)
            else:
                self.names[name] = previous
        return slot, restore

    def card_slots(self) -> tuple[tuple[int, bool], ...]:
        """(slot, holds a list) of every slot that may hold cards: what a side may not see
        (interpreter/visibility.py) and what a guess of the unseen cards renames."""
        out = []
        for slot, typ in enumerate(self.slot_types):
            if typ in ("card", "list:card"):
                out.append((slot, typ == "list:card"))
        return tuple(out)
