"""The greedy agent decides from what its side may see: its lookahead deals the unseen cards
(face-down decks, the rival's hand) anew, so where they really lie changes nothing."""
from __future__ import annotations

import random

from lumos.api import load_game
from lumos.interpreter.agents import GreedyAgent, redeal_hidden
from lumos.interpreter.engine import GameState


def _home_to_decide(cg, seed: int) -> GameState | None:
    """A game of random moves at one of home's decisions (with a choice) after a few turns."""
    g = GameState.new(cg, seed=seed, forced="take")
    rnd = random.Random(seed)
    for _ in range(200):
        if g.is_terminal():
            break
        if g.is_chance_node():
            g.apply_action(g.sample_chance())
        elif g.current_player() == 0 and len(g.legal_actions()) >= 2 and _ > 10:
            return g
        else:
            g.apply_action(rnd.choice(g.legal_actions()))
    return None


def test_redeal_keeps_what_the_side_sees_and_the_sizes_of_the_rest():
    cg = load_game("snitch-snatcher")
    g = next(g for g in map(lambda s: _home_to_decide(cg, s), range(20)) if g is not None)
    st = redeal_hidden(cg, g.st.clone(), 0, random.Random(1))
    for zid, cards in enumerate(g.st.zones):
        assert len(st.zones[zid]) == len(cards)
        name, vis = cg.zones[zid // cg.nsides]
        if vis == "public" or (vis == "owner" and zid % cg.nsides == 0):
            assert st.zones[zid] == cards, name
    assert all(st.card_zone[c] == zid for zid, cards in enumerate(st.zones) for c in cards)
    assert sorted(c for z in st.zones for c in z) == sorted(c for z in g.st.zones for c in z)


def test_the_lookahead_guess_does_not_depend_on_where_unseen_cards_lie():
    """Two games that differ only in where home's unseen cards lie (a card of away's hand and
    the top of away's deck swapped) give home's lookahead the same guess, so the greedy agent
    chooses the same."""
    cg = load_game("snitch-snatcher")
    checked = 0
    for seed in range(20):
        g = _home_to_decide(cg, seed)
        if g is None:
            continue
        hand, deck = cg.zone_id("hand", 1), cg.zone_id("action_deck", 1)
        if not g.st.zones[hand] or not g.st.zones[deck]:
            continue
        other = g.clone()
        a, b = other.st.zones[hand][0], other.st.zones[deck][-1]
        other.st.zones[hand][0], other.st.zones[deck][-1] = b, a
        other.st.card_zone[a], other.st.card_zone[b] = deck, hand
        assert g.st.zones != other.st.zones
        guess_a = redeal_hidden(cg, g.st.clone(), 0, random.Random(seed))
        guess_b = redeal_hidden(cg, other.st.clone(), 0, random.Random(seed))
        assert guess_a.zones == guess_b.zones
        assert GreedyAgent(seed).choose(g) == GreedyAgent(seed).choose(other)
        checked += 1
    assert checked >= 3
