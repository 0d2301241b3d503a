"""Defenders of Hogwarts's invariants: what holds after every decision of its games
(rulebooks/defenders-of-hogwarts.txt), for tests/test_invariants.py's shared driver.

- every card is in exactly one place: one zone, or the box (the unchosen Houses' Starter
  Decks), and `card_zone` agrees with the zones (Game Components);
- pawns never stand in a wall and never cross an uncrossed obstacle: a House pawn that
  changed space since the last decision could get there along open borders and red
  entrances (the Room of Requirement while revealed) within the longest move, unless a card
  let it cross something this turn (the card is seen in play even when its turn ended in
  the same step, which resets the crossing), it flew between Fly Off Points, went directly to a
  named space, or was bumped back to the Great Hall (General Key Concepts > Movement & Map
  Elements, Obstacles, Fly Off Points); the Room counts as open if it was at the last check
  (an event may close it in the same step, and a pawn inside stays: Room of Requirement);
- Dark Arts pawns never stand in a Protected Area, nor in the Room (Protected Area);
- each House Player holds at most one Library Book (The Library & Library Book Deck), one
  D.A. Coin (Room of Requirement, Note) and one Hogwarts Token (Hogwarts Tokens); there is
  one Dark Detector, held by one House in play or on its space (Hogwarts Loyalty Track);
  Scrolls and Coins held never exceed their supply (Game Components: 8 and 4), a spent Scroll
  going back to its stack;
- the marker stays on the path and each House on the 7 spaces of the Loyalty Track;
- the game ends with a House win, a Dark Arts win or the rulebook's draw (Game End).

Game words appear only here and in the game's own tests: pieces, zones and variables are
found by their names in the compiled game's data.
"""
from __future__ import annotations

import random
import re

from lumos.api import new_game

from games.defenders_support import SIDES, house_walk, region, within
from support.drivers import fails

STYLES = ("random", "first", "last")
CROSS = re.compile(r'cross\("(\w+)"\)')


def opened(kinds: set[str]) -> set[str]:
    """The link kinds `cross(...)` opens: an obstacle, one passageway, or all three (`passage_all`)."""
    out = set(kinds) - {"passage_all"}
    if "passage_all" in kinds:
        out |= {"passage_red", "passage_green", "passage_blue"}
    return out
LONGEST_MOVE = 8      # the largest movement value of any card, both diamonds together
PATH_END = 18
HOUSES = SIDES[1:]


def make_checker(cg, skip: tuple[str, ...] | None = None, teams: dict | None = None) -> "Checker":
    return Checker(cg)


def random_options(seed: int) -> dict:
    """1 to 4 House Players, in turn."""
    return {"house_players": seed % 4 + 1}


class Checker:
    """The checks of one game's states (see the module's docstring)."""

    def __init__(self, cg):
        self.cg = cg
        self.names = [p.name for p in cg.pieces]
        self.spaces = cg.board.spaces
        self.g = {n: i for i, n in enumerate(cg.global_names)}
        self.sv = {n: i for i, n in enumerate(cg.side_var_names)}
        self.holder_side = cg.piece_var_names.index("holder_side")
        self.tokens = [i for i, n in enumerate(self.names) if n.endswith("_token")]
        self.dark = [i for i, p in enumerate(cg.pieces) if p.side == 0]
        self.students = [i for i, p in enumerate(cg.pieces) if p.side > 0]
        self.no_dark = region("protected") | {"room_of_requirement"}
        self.fly = region("fly_off_points")
        self.books = [cg.zone_id("book", s) for s in range(cg.nsides)]
        self.before: dict[int, str] | None = None
        # the obstacle each card lets House pawns cross this turn (its effect's `cross("...")`)
        self.opens = {c: set(CROSS.findall(card.fields.get("effect") or "")) for c, card in enumerate(cg.cards)}
        self.piles = [(cg.zone_id("played", s), cg.zone_id("discard", s)) for s in range(cg.nsides)]
        self.seen_played: list[set[int]] = [set() for _ in range(cg.nsides)]
        self.in_play_before: list[set[int]] = [set() for _ in range(cg.nsides)]
        self.room_was_open = False   # the Room may close in the step a pawn walked into it

    def space(self, st, piece: int):
        return None if st.loc[piece] < 0 else self.spaces[st.loc[piece]]

    def check(self, state) -> None:
        cg, st = self.cg, state.st
        where = f"after decision {st.decisions}"
        g = lambda name: st.g[self.g[name]]              # noqa: E731
        sv = lambda name, s: st.sv[self.sv[name]][s]      # noqa: E731
        in_play = [s for s in state.sides_in_play() if s > 0]
        # every card in exactly one place
        everywhere = [c for zone in st.zones for c in zone]
        assert len(everywhere) == len(set(everywhere)), (where, "a card is in two places")
        for z, zone in enumerate(st.zones):
            for c in zone:
                assert st.card_zone[c] == z, (where, cg.cards[c].name, "card_zone disagrees")
        assert sum(1 for z in st.card_zone if z >= 0) == len(everywhere), (where, "a card is nowhere")
        # Dark Arts pawns never in a Protected Area (nor the Room)
        for p in self.dark:
            assert self.space(st, p) not in self.no_dark, (where, self.names[p], self.space(st, p))
        # items per House Player, one Dark Detector
        for s in in_play:
            assert len(st.zones[self.books[s]]) <= 1, (where, SIDES[s], "holds two Library Books")
            assert sum(1 for t in self.tokens if st.pv[self.holder_side][t] == s) <= 1, (where, SIDES[s], "two tokens")
            assert sv("coin", s) in (True, False), (where, SIDES[s], "a D.A. Coin is one flag")
            assert 1 <= sv("loyalty", s) <= 7, (where, SIDES[s], sv("loyalty", s))
        for t in self.tokens:    # a held token is off its space
            assert st.pv[self.holder_side][t] is None or st.loc[t] < 0, (where, self.names[t], "held and on the board")
        assert g("detector") is None or g("detector") in in_play, (where, "the Dark Detector", g("detector"))
        # a Scroll spent on a Defence Shield is relinquished, back to its stack (Glossary >
        # Relinquish): the Scrolls held and the stack make the 8; each House gains at most 2
        assert sum(sv("scrolls", s) for s in in_play) + g("scrolls_left") == 8, (where, "Scrolls")
        assert all(sv("scrolls_gained", s) <= 2 for s in in_play), (where, "Scrolls")
        assert sum(1 for s in in_play if sv("coin", s)) + g("coins_left") == 4, (where, "D.A. Coins")
        assert 1 <= g("path") <= PATH_END, (where, "path", g("path"))
        # House pawns: never through a wall, never across an obstacle no card opened
        now = {p: self.space(st, p) for p in self.students}
        # the cards each side played since the last check: a crossing card whose turn ended in the
        # same step (its last option taken for it) has had `crossing` reset already
        this_turn = []
        for s, (played, discard) in enumerate(self.piles):
            cards = set(st.zones[played]) | set(st.zones[discard])
            this_turn.append((cards - self.seen_played[s]) | self.in_play_before[s])
            self.seen_played[s] = cards
            self.in_play_before[s] = set(st.zones[played])
        if self.before is not None and g("crossing") == "none":
            for p, b in now.items():
                a = self.before.get(p)
                if a is None or b is None or a == b or b in ("great_hall", "library") or (a in self.fly and b in self.fly):
                    continue
                kinds = house_walk(g("room_open") or self.room_was_open) | opened(set().union(*(self.opens[c] for c in this_turn[self.cg.pieces[p].side])))
                assert b in within(a, LONGEST_MOVE, kinds), (where, f"{self.names[p]} went from {a} to {b} "
                                                             "across a wall or an obstacle")
        self.before = now
        self.room_was_open = g("room_open")

    def at_end(self, state) -> None:
        r = state.returns()
        assert state.is_terminal() and len(r) == self.cg.nsides
        assert r.count(1.0) <= 1 and all(x in (1.0, -1.0, 0.0) for x in r), r
        if 1.0 not in r:
            assert state.st.g[self.g["final_phase"]], "a draw only after the last space of the Dark Arts Path"


def checks_catch_a_broken_state(cg) -> None:
    """Each family of checks fails on a state broken on purpose (so they are not vacuous)."""
    names = [p.name for p in cg.pieces]

    def played():
        state = new_game(cg, seed=3, options={"house_players": 2}, forced="take")
        rnd = random.Random(3)
        while state.st.decisions < 12 and not state.is_terminal():
            state.apply_action(state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions()))
        assert not state.is_terminal()
        return state

    def breaks(mutate) -> bool:
        state = played()
        checker = Checker(cg)
        checker.check(state)
        mutate(state.st)
        return fails(checker, state)

    def card_twice(st):
        card = st.zones[cg.zone_id("hand", 1)][0]
        st.zones[cg.zone_id("discard", 1)].append(card)

    def dark_pawn_in_hagrids_hut(st):
        st.loc[names.index("dark_arts dark_pawn 1")] = cg.board.spaces.index("hagrids_hut")

    def across_the_lake(st):
        st.loc[names.index("gryffindor student 1")] = cg.board.spaces.index("black_lake")

    def two_books(st):
        row = st.zones[cg.zone_id("library_row", 0)]
        book = st.zones[cg.zone_id("book", 1)]
        for c in row[:2]:
            book.append(c)
            st.card_zone[c] = cg.zone_id("book", 1)
        del row[:2]

    def two_tokens(st):
        hs = cg.piece_var_names.index("holder_side")
        for t in ("charms_token", "potions_token"):
            st.pv[hs][names.index(t)] = 1
            st.loc[names.index(t)] = -1

    def detector_to_an_unseated_house(st):
        st.g[cg.global_names.index("detector")] = 4

    for mutate in (card_twice, dark_pawn_in_hagrids_hut, across_the_lake, two_books, two_tokens,
                   detector_to_an_unseated_house):
        assert breaks(mutate), mutate.__name__
