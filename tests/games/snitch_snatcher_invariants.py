"""Snitch Snatcher's invariants: what holds after every decision of its games.

tests/test_invariants.py plays random games of every bundled game with the shared driver
(tests/support/drivers.py) and this game's `Checker`:

- each side has its 7 players, each on a space or off the board (loc -1), none carried;
- no two pieces share a space, and `occ` agrees with `loc` both ways;
- there is exactly one Quaffle, and once play has begun it is always carried by a
  Chaser or a Keeper (ruling: it is never loose on the pitch);
- every card is in exactly one zone (card_zone and the zones agree, no duplicates,
  every card of the game accounted for);
- when a side's turn has ended, its hand holds at most 7 cards (Playing Cards > Action
  Cards: "At the end of each turn, you can have no more than 7 Action Cards");
- the game ends within a bound of decisions.

Game words appear only here, in the tests: pieces and zones are found by their names in
the compiled game's data.
"""
from __future__ import annotations

import random
from collections import Counter

from lumos.api import new_game

from support.drivers import fails

PLAYERS_PER_SIDE = 7
HAND_LIMIT = 7
# Decisions taken before play begins: the roll-off and the kick-off choice. The
# Quaffle is carried from the kick-off on; a generous bound on when that happens.
KICK_OFF_WITHIN = 10
STYLES = ("random", "first", "last")


def make_checker(cg, skip: tuple[str, ...] | None = None, teams: dict | None = None) -> "Checker":
    """A checker for one game (no family of checks is left out here, no team files)."""
    return Checker(cg)


class Checker:
    """The checks of one game's states (see the module's docstring)."""

    def __init__(self, cg):
        self.cg = cg
        self.quaffle = next(i for i, p in enumerate(cg.pieces) if p.name == "quaffle")
        self.carriers = {"chaser", "keeper"}
        self.hands = [cg.zone_id("hand", s) for s in range(cg.nsides)]
        self.play_begun = False
        self.last_current = None
        self.decisions_seen = 0

    def check(self, state) -> None:
        cg, st = self.cg, state.st
        where = f"after decision {st.decisions}"
        # players: 7 per side, each on a space or off the board, never carried
        per_side = Counter(p.side for p in cg.pieces if p.side >= 0)
        assert all(per_side[s] == PLAYERS_PER_SIDE for s in range(cg.nsides)), per_side
        for i, p in enumerate(cg.pieces):
            loc = st.loc[i]
            assert loc == -1 or 0 <= loc < len(cg.board.spaces), (where, p.name, loc)
            if p.side >= 0:
                assert st.holder[i] == -1, (where, f"{p.name} is carried")
        # one piece per space; occ and loc agree both ways
        standing = [i for i in range(len(cg.pieces)) if st.loc[i] >= 0]
        spaces = [st.loc[i] for i in standing]
        assert len(spaces) == len(set(spaces)), (where, "two pieces share a space",
                                                 Counter(spaces).most_common(2))
        for i in standing:
            assert st.occ[st.loc[i]] == i, (where, cg.pieces[i].name, "occ disagrees with loc")
        for s, i in enumerate(st.occ):
            assert i == -1 or st.loc[i] == s, (where, cg.board.spaces[s], "occ names a piece standing elsewhere")
        # every space holds one piece (the board sets no capacity): nobody stands behind another
        assert st.occ_next == [-1] * len(cg.pieces), (where, "a space holds two pieces")
        # exactly one Quaffle, carried by a Chaser or Keeper once play has begun
        assert sum(1 for p in cg.pieces if p.kind == "quaffle") == 1
        holder = st.holder[self.quaffle]
        if holder >= 0:
            self.play_begun = True
        if self.play_begun or st.decisions > KICK_OFF_WITHIN:
            assert holder >= 0, (where, "the quaffle is carried by no one")
            assert cg.pieces[holder].kind in self.carriers, (where, f"{cg.pieces[holder].name} carries the quaffle")
            assert st.loc[self.quaffle] == -1, (where, "a carried quaffle stands on a space")
        # cards: each in exactly one zone
        ncards = len(cg.cards)
        everywhere = [c for zone in st.zones for c in zone]
        assert len(everywhere) == ncards, (where, len(everywhere), ncards)
        assert sorted(everywhere) == list(range(ncards)), (where, "a card is missing or twice")
        for z, zone in enumerate(st.zones):
            for c in zone:
                assert st.card_zone[c] == z, (where, cg.cards[c].name, st.card_zone[c], z)
        # hand limit at the end of a side's turn: checked at the first decision after
        # `current` changes (the ended side's hand can only shrink after that)
        current = st.g[cg.current_slot]
        if self.last_current is not None and current != self.last_current and self.play_begun:
            ended = self.last_current
            assert len(st.zones[self.hands[ended]]) <= HAND_LIMIT, (
                where, f"{cg.sides[ended]} ended a turn with {len(st.zones[self.hands[ended]])} cards in hand")
        self.last_current = current

    def at_end(self, state) -> None:
        assert state.winner() in (None, *range(self.cg.nsides))
        assert len(state.returns()) == self.cg.nsides


def checks_catch_a_broken_state(cg) -> None:
    """Each family of checks fails on a state broken on purpose (so they are not vacuous)."""
    def played():
        state = new_game(cg, seed=3, forced="take")
        rnd = random.Random(3)
        while state.st.decisions < 12 and not state.is_terminal():
            options = state.legal_actions()
            state.apply_action(state.sample_chance() if state.is_chance_node() else rnd.choice(options))
        assert not state.is_terminal()
        return state

    def breaks(mutate) -> bool:
        state = played()
        checker = Checker(cg)
        checker.check(state)
        mutate(state.st)
        return fails(checker, state)

    def two_on_one_space(st):
        a, b = [i for i, p in enumerate(cg.pieces) if p.side == 0 and st.loc[i] >= 0][:2]
        st.loc[b] = st.loc[a]

    def loose_quaffle(st):
        st.holder[[p.name for p in cg.pieces].index("quaffle")] = -1

    def card_twice(st):
        card = st.zones[cg.zone_id("hand", 0)][0]
        st.zones[cg.zone_id("discard", 0)].append(card)

    def big_hand_after_turn(st):
        ended = st.g[cg.current_slot]
        deck = st.zones[cg.zone_id("skill_deck", ended)]
        hand = st.zones[cg.zone_id("hand", ended)]
        while len(hand) <= HAND_LIMIT:
            card = deck.pop()
            hand.append(card)
            st.card_zone[card] = cg.zone_id("hand", ended)
        st.g[cg.current_slot] = 1 - ended

    for mutate in (two_on_one_space, loose_quaffle, card_twice, big_hand_after_turn):
        assert breaks(mutate), mutate.__name__
