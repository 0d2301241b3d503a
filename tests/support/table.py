"""A game in progress, read and edited by the names the rules give (any bundled game).

`Table` wraps a `GameState`: it reads the options offered and the state (where a piece
stands, who holds a ball, a variable, a zone's cards), takes decisions by their labels,
forces dice by applying the chance outcome wanted, and builds a situation through
positions (lumos.interpreter.position): every edit writes the situation down, changes it
by name (pieces, balls, zones' cards, variables) and reads it back, so no test edits the
State's internals; the decision waiting there is asked again on the new layout. It knows
no game: a game's tests
subclass it to name their ball (`BALL`), the kinds that stay on the board when the others
are taken off (`STAY_ON`), whether a space holds one piece (`ONE_PER_SPACE`) and the
game's own shortcuts.

    t = Table(GameState.new(cg, seed=0, log=True))
    t.pick_prefix("move ")          # the first option whose label starts so
    t.roll("success", "blank")      # chance outcomes by their labels' faces
"""
from __future__ import annotations

from typing import Callable

from lumos.api import load_position
from lumos.interpreter.engine import GameState

# The labels of a `may choose`'s "do not choose" option.
NONE_LABELS = ("do not choose", "nothing", "none")


class Table:
    """A game in progress with helpers to build situations and read the options."""

    # The ball `holder`, `give` and `loose_at` speak of (a piece name of the game).
    BALL: str | None = None
    # Piece kinds `put(..., others="off")` leaves where they are.
    STAY_ON: tuple[str, ...] = ()
    # `put` first lifts the pieces it places and refuses a space already taken.
    ONE_PER_SPACE = False

    def __init__(self, state: GameState):
        self.s = state
        self.cg = state.cg
        self.board = state.cg.board
        self.m = state.machine
        self.st = state.st
        self.P = {p.name: i for i, p in enumerate(self.cg.pieces)}

    def side(self, side: str | int | None) -> int:
        """A side's number from its name or number (None: the first side, for shared zones)."""
        if isinstance(side, str):
            return self.cg.sides.index(side)
        return side or 0

    # ------------------------------------------------------------ reading
    def labels(self) -> list[str]:
        return self.s.action_labels()

    def offered(self, prefix: str) -> list[str]:
        return [lab for lab in self.labels() if lab.startswith(prefix)]

    def deciding(self) -> str:
        """The name of the side deciding, or 'chance' (or 'over')."""
        if self.s.is_terminal():
            return "over"
        if self.s.is_chance_node():
            return "chance"
        return self.cg.sides[self.s.current_player()]

    def current(self) -> int:
        """The side whose turn it is (the game's `current`)."""
        return self.st.g[self.cg.current_slot]

    def where(self, piece: str) -> str | None:
        sp = self.m.space_of(self.P[piece])
        return None if sp is None or sp < 0 else self.board.spaces[sp]

    def holder(self, ball: str | None = None) -> str | None:
        """Who holds the ball (default `BALL`), by name."""
        h = self.st.holder[self.P[ball or self.BALL]]
        return None if h < 0 else self.cg.pieces[h].name

    def var(self, name: str):
        return self.st.g[self.cg.global_names.index(name)]

    def side_var(self, name: str, side: str | int):
        return self.st.sv[self.cg.side_var_names.index(name)][self.side(side)]

    def piece_var(self, name: str, piece: str):
        return self.st.pv[self.cg.piece_var_names.index(name)][self.P[piece]]

    def zone(self, name: str, side: str | int | None = None) -> list[int]:
        """The cards of a zone (a shared zone: no side), bottom first."""
        return self.st.zones[self.cg.zone_id(name, self.side(side))]

    def zone_names(self, name: str, side: str | int | None = None) -> list[str]:
        return [self.cg.cards[c].name for c in self.zone(name, side)]

    def events(self) -> list[str]:
        return [e["event"] for e in self.s.events]

    # ------------------------------------------------------------ deciding
    def pick(self, label: str) -> None:
        labels = self.labels()
        assert label in labels, f"{label!r} is not offered; options: {labels}"
        self.s.apply_action(labels.index(label))

    def pick_prefix(self, prefix: str) -> None:
        labels = self.offered(prefix)
        assert labels, f"nothing starting with {prefix!r} is offered; options: {self.labels()}"
        self.pick(labels[0])

    def first(self) -> None:
        self.s.apply_action(0)

    def roll(self, *faces) -> None:
        """Force the next dice to these faces ("success", "blank", 6, ...)."""
        for face in faces:
            assert self.s.is_chance_node(), f"no die is being rolled; options: {self.labels()}"
            self.pick(f"roll {face}")

    def none_label(self) -> str:
        labs = [lab for lab in self.labels() if lab in NONE_LABELS]
        assert labs, f"no way to decline; options: {self.labels()}"
        return labs[0]

    def decline(self) -> None:
        """Take the 'do not choose' option of a `may choose`."""
        self.pick(self.none_label())

    # ------------------------------------------------------------ editing
    # Every edit goes through a position (DESIGN.md: tests build situations from positions):
    # the situation is written down, changed by name, and read back; the decision waiting
    # there is asked again on the new layout.
    def edit(self, change: Callable[[dict], None]) -> None:
        """Change the situation as a position: `change(position)` edits the written position."""
        pos = self.s.position()
        change(pos)
        events, forced = self.s.events, self.st.forced
        pos["forced"] = "ask"     # the decision waiting here stays a decision, even with one option
        state = load_position(self.cg, pos)
        state.st.forced = forced
        state.events = state.machine.events = events
        self.s, self.m, self.st = state, state.machine, state.st

    def set_var(self, name: str, value) -> None:
        value = _named(self.cg, value, "g", self.cg.global_names.index(name))
        self.edit(lambda pos: pos["vars"].__setitem__(name, value))

    def set_side_var(self, name: str, side: str | int, value) -> None:
        value = _named(self.cg, value, "sv", self.cg.side_var_names.index(name))
        self.edit(lambda pos: pos["side_vars"][name].__setitem__(self.cg.sides[self.side(side)], value))

    def set_piece_var(self, name: str, piece: str, value) -> None:
        value = _named(self.cg, value, "pv", self.cg.piece_var_names.index(name))
        self.edit(lambda pos: pos["piece_vars"][name].__setitem__(piece, value))

    def put(self, layout: dict[str, str | None], others: str = "stay") -> None:
        """Place pieces ({name: space, or None for off the board}); others="off" takes every
        other piece of a side off the board, but those of the `STAY_ON` kinds."""
        if self.ONE_PER_SPACE:
            def moved_off(p):
                info = self.cg.pieces[self.P[p]]
                return others == "off" and info.side >= 0 and info.kind not in self.STAY_ON
            for name, space in layout.items():
                taken = [p for p, sp in self.s.position()["pieces"].items()
                         if sp == space and p not in layout and not moved_off(p)]
                assert space is None or not taken, f"{space} is taken by {taken[0]}"

        def change(pos):
            pieces = pos["pieces"]
            if others == "off":
                for name, i in self.P.items():
                    info = self.cg.pieces[i]
                    if info.side >= 0 and info.kind not in self.STAY_ON and name not in layout:
                        pieces[name] = None
            for name in layout:          # the named pieces arrive after those already there
                pieces.pop(name, None)
            pieces.update(layout)
        self.edit(change)

    def give(self, piece: str | None, ball: str | None = None) -> None:
        """The ball (default `BALL`) to this piece; None: off the board, held by nobody."""
        name = ball or self.BALL
        self.edit(lambda pos: pos["pieces"].__setitem__(name, None if piece is None else {"carried_by": piece}))

    def loose_at(self, space: str, ball: str | None = None) -> None:
        """The ball (default `BALL`) on a space, held by nobody."""
        name = ball or self.BALL

        def change(pos):
            pos["pieces"].pop(name, None)
            pos["pieces"][name] = space
        self.edit(change)

    def set_zone(self, label: str, names: list[str]) -> None:
        """A zone's cards by name, bottom first (its other cards go back to the box)."""
        self.edit(lambda pos: pos["zones"].__setitem__(label, list(names)))

    def zone_label(self, name: str, side: str | int | None = None) -> str:
        """A zone's name in positions (`home hand`, `snitch_row`)."""
        return self.cg.zone_label(self.cg.zone_id(name, self.side(side)))

    def relocate(self, moves: list[tuple[int, str]]) -> list[int]:
        """Move cards through a position: each card (its number now) leaves the place where it
        lies and goes on top of the zone named by its label, in the order given; the cards
        left keep their order. Returns the moved cards' numbers in the new state, in order."""
        cg = self.cg
        labels = {cg.zone_label(z): z for z in range(len(self.st.zones))
                  if not (z // cg.nsides in cg.shared_zones and z % cg.nsides)}   # a shared zone's own slot
        out_of: dict[str, list[int]] = {}
        for card, _to in moves:
            z = self.st.card_zone[card]
            if z >= 0:
                out_of.setdefault(self.cg.zone_label(z), []).append(self.st.zones[z].index(card))
        names = [self.cg.cards[card].name for card, _to in moves]

        def change(pos):
            zones = pos["zones"]
            taken: dict[tuple[str, int], object] = {}
            for label, places in out_of.items():
                for k in sorted(places, reverse=True):
                    taken[label, k] = zones[label].pop(k)
            for (card, to), name in zip(moves, names):
                z = self.st.card_zone[card]
                entry = taken[self.cg.zone_label(z), self.st.zones[z].index(card)] if z >= 0 else name
                zones.setdefault(to, []).append(entry)
        self.edit(change)
        counts: dict[str, int] = {}
        for _card, to in moves:
            counts[to] = counts.get(to, 0) + 1
        ends = {to: list(self.st.zones[labels[to]][-n:]) for to, n in counts.items()}
        return [ends[to].pop(0) for _card, to in moves]


def _named(cg, value, where: str, index: int):
    """A variable's value as a test gives it (a name, or a piece/card/space number) in the
    names a position uses."""
    from lumos.interpreter.options import name_of
    kind = cg.var_types.get((where, index), "any")
    if isinstance(value, int) and not isinstance(value, bool) and kind in ("piece", "space", "card", "side", "zone"):
        return name_of(cg, value, kind)
    if isinstance(value, (list, tuple)) and kind.startswith("list:"):
        return [_named_item(cg, v, kind[5:]) for v in value]
    return value


def _named_item(cg, value, kind: str):
    from lumos.interpreter.options import name_of
    return name_of(cg, value, kind) if isinstance(value, int) and not isinstance(value, bool) else value


def drive(t: Table, until: Callable[[Table], bool], limit: int = 400) -> Table:
    """Take the first option of every decision until `until(t)` holds."""
    for _ in range(limit):
        if until(t):
            return t
        assert not t.s.is_terminal(), "the game ended"
        t.first()
    raise AssertionError(f"`until` never held; options: {t.labels()}")
