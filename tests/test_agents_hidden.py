"""The greedy agent decides from what its side may see: its lookahead deals the unseen cards
(face-down decks, the rival's hand) anew, so where they really lie changes nothing."""
from __future__ import annotations

import random

import pytest

from lumos.api import load_game
from lumos.interpreter.agents import GreedyAgent, redeal_hidden
from lumos.interpreter.engine import GameState
from lumos.interpreter.visibility import HIDDEN, rename_cards, zone_seen

from support.drivers import first_side_to_decide, unseen_swaps


def test_redeal_keeps_what_the_side_sees_and_the_sizes_of_the_rest():
    cg = load_game("snitch-snatcher")
    g = next(g for g in map(lambda s: first_side_to_decide(cg, s), range(20)) if g is not None)
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
    for seed, g, other in unseen_swaps(cg, "hand", "action_deck"):
        assert g.st.zones != other.st.zones
        guess_a = redeal_hidden(cg, g.st.clone(), 0, random.Random(seed))
        guess_b = redeal_hidden(cg, other.st.clone(), 0, random.Random(seed))
        assert guess_a.zones == guess_b.zones
        assert GreedyAgent(seed).choose(g) == GreedyAgent(seed).choose(other)
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------- hidden by construction
# DESIGN.md, "Runtime model > Hidden information": each side sees its own view; hands, deck
# order and face-down choices are hidden from the rival. So dealing anew the cards a side
# cannot see (the places keep their sizes; variables and the locals of the running rules
# that named a card name the one dealt into its place) changes nothing that side observes
# and nothing its agent decides.

def deal_unseen_anew(cg, state: GameState, side: int, rnd: random.Random) -> GameState:
    other = state.clone()
    st = other.st
    places = [(zid, i) for zid, cards in enumerate(st.zones) if not zone_seen(cg, zid, side)
              and not (zid % cg.nsides and zid // cg.nsides in cg.shared_zones) for i in range(len(cards))]
    cards = [st.zones[zid][i] for zid, i in places]
    rnd.shuffle(cards)
    mapping = {}
    for (zid, i), c in zip(places, cards):
        mapping[st.zones[zid][i]] = c
        st.zones[zid][i] = c
        st.card_zone[c] = zid
    rename_cards(cg, st, mapping)
    return other


def decision_points(cg, seeds, options=None, every: int = 3):
    """(state, side) at every `every`-th decision of a side with a choice, in seeded random games."""
    for seed in seeds:
        g = GameState.new(cg, seed=seed, options=options)
        rnd = random.Random(seed)
        n = 0
        while not g.is_terminal() and n < 400:
            if g.is_chance_node():
                g.apply_action(g.sample_chance())
                continue
            n += 1
            if len(g.legal_actions()) >= 2 and n % every == 0:
                yield g.clone(), g.current_player()
            g.apply_action(rnd.choice(g.legal_actions()))


@pytest.mark.parametrize("game,options", [("snitch-snatcher", None),
                                          ("catch-the-golden-snitch", {"funding": 7, "spectators": "on"})])
def test_what_a_side_cannot_see_changes_neither_its_view_nor_its_agent(game, options):
    cg = load_game(game)
    checked = moved = 0
    for k, (g, side) in enumerate(decision_points(cg, range(3), options, every=4)):
        other = deal_unseen_anew(cg, g, side, random.Random(k))
        moved += other.st.zones != g.st.zones
        assert other.observation(side) == g.observation(side), f"decision {k}: the view changed"
        assert GreedyAgent(k).choose(other) == GreedyAgent(k).choose(g), f"decision {k}: the agent changed"
        checked += 1
    assert checked >= 10 and moved >= 5


# A tiny game made for the test (no rulebook): blue draws a card face down and secretly picks
# one of two face-up cards; red bets on the face-down card. A global and a local hold the
# face-down card; blue's pick is a variable only blue sees.
TINY_CARDS = """\
cards:
  - {name: One, type: plain}
  - {name: Two, type: plain}
  - {name: Three, type: plain}
  - {name: Four, type: plain}
  - {name: Five, type: plain}
  - {name: Six, type: plain}
"""
TINY_GAME = """\
game "Guess"
board "board.yaml"
schema "card.schema.json"
sides red, blue
zone pile shared hidden
zone hand per side owner
zone row shared public
var secret: card = none
var pick: card per side owner = none
var points per side = 0

flow:
    put cards into pile
    shuffle pile
    draw r1 from pile into row
    draw r2 from pile into row
    choose q from row by blue label "pick {q}"
    set blue.pick = q
    draw c from pile into blue.hand
    set secret = c
    choose b from ["low", "high"] by red label "bet {b}"
    if (b == "high" and c.name in ["Four", "Five", "Six"]) or (b == "low" and c.name not in ["Four", "Five", "Six"]):
        add 1 to red.points
    end in a draw
"""


def tiny_game(tmp_path):
    from pathlib import Path

    import lumos.cards
    from lumos.compiler.game import GameSources, check_game
    rules, cards = tmp_path / "guess", tmp_path / "cards"
    rules.mkdir()
    cards.mkdir()
    (rules / "game.lumos").write_text(TINY_GAME)
    (rules / "board.yaml").write_text("name: Dot\nspaces:\n  - {name: a, pos: [0, 0]}\n")
    (cards / "deck.yaml").write_text(TINY_CARDS)
    cg, diags, _ = check_game(GameSources("guess", rules, cards, Path(lumos.cards.__file__).parent / "schema"))
    assert cg is not None, [d.headline() for d in diags]
    return cg


def at_the_bet(cg, seed: int) -> GameState:
    g = GameState.new(cg, seed=seed)
    g.apply_action(0)      # blue picks the first face-up card
    assert g.current_player() == 0 and g.action_labels() == ["bet low", "bet high"]
    return g


def test_a_variable_shows_a_card_to_whoever_sees_where_it_lies_or_as_it_declares(tmp_path):
    cg = tiny_game(tmp_path)
    g = at_the_bet(cg, 1)
    red, blue, everyone = g.observation(0), g.observation(1), g.observation(None)
    face_down = everyone["variables"]["secret"]
    assert blue["variables"]["secret"] == face_down == blue["zones"]["blue hand"][0]   # in blue's hand
    assert red["variables"]["secret"] == HIDDEN
    picked = everyone["sides"]["blue"]["pick"]
    assert picked == blue["sides"]["blue"]["pick"] and picked in red["zones"]["row"]   # face up, yet
    assert red["sides"]["blue"]["pick"] == HIDDEN                                      # `owner`: blue's only
    assert red["sides"]["red"]["pick"] is None


def test_the_lookahead_reads_no_card_its_side_cannot_see(tmp_path):
    """Red's greedy bet must not follow the face-down card the rules hold in `c` and `secret`."""
    cg = tiny_game(tmp_path)
    for seed in range(6):
        g = at_the_bet(cg, seed)
        for k in range(4):
            other = deal_unseen_anew(cg, g, 0, random.Random(k))
            assert other.observation(0) == g.observation(0)
            assert GreedyAgent(seed).choose(other) == GreedyAgent(seed).choose(g), (seed, k)


def test_declaring_a_visibility_on_what_holds_no_cards_is_e210(tmp_path):
    from lumos.compiler.game import GameSources, check_game
    import lumos.cards
    from pathlib import Path
    for line, message in (("var points per side owner = 0", "only a variable of cards has a visibility; "
                           "`points` holds a number"),
                          ("var secret: card owner = none", "`secret` belongs to no side, so it has no owner "
                           "to show its card to")):
        text = TINY_GAME.replace("var points per side = 0" if "points" in line else "var secret: card = none", line)
        rules = tmp_path / line.split()[1] / "guess"
        rules.mkdir(parents=True)
        (rules / "game.lumos").write_text(text)
        (rules / "board.yaml").write_text("name: Dot\nspaces:\n  - {name: a, pos: [0, 0]}\n")
        (rules.parent / "deck.yaml").write_text(TINY_CARDS)
        _cg, diags, _ = check_game(GameSources("guess", rules, rules.parent, Path(lumos.cards.__file__).parent /
                                               "schema"))
        d = next(d for d in diags if d.code == "E210")
        assert d.message == message
        assert d.span.line == text.splitlines().index(line) + 1
