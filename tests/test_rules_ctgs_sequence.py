"""Catch the Golden Snitch: set-up, Kick-Off, team building and the Game Sequence.

Each test plays the shipped rules (rules/catch-the-golden-snitch/) with a small card set
written here (SEQUENCE_CARDS), so no test depends on which cards the shipped decks
hold. Decisions are taken by a policy (a function from the offered labels to the label
to pick); dice are forced by applying the chance outcome wanted. Docstrings cite the
rulebook section (rulebooks/catch-the-golden-snitch.txt); rulings where the rulebook is
silent are on docs/rulings/catch-the-golden-snitch.md.
"""
from __future__ import annotations

import random
from typing import Callable

import pytest

from lumos.interpreter.engine import GameState

from support import sources
from support.table import Table

GAME = "catch-the-golden-snitch"
HOME, AWAY = 0, 1


def _players(house: str) -> str:
    h = house.capitalize()
    return f"""\
  - name: {h} Keeper
    type: player
    position: keeper
    affiliation: [{house}]
    pass_dice: [orange]
    catch_dice: [black]
    steal_dice: [black]
    manoeuvre_dice: [black]
  - name: {h} Chaser
    type: player
    position: chaser
    affiliation: [{house}]
    copies: 3
    pass_dice: [orange]
    shoot_dice: [orange]
    steal_dice: [black]
    manoeuvre_dice: [black]
  - name: {h} Beater
    type: player
    position: beater
    affiliation: [{house}]
    copies: 2
    beat_dice: [orange]
    defense_dice: [black]
    manoeuvre_dice: [black]
  - name: {h} Seeker
    type: player
    position: seeker
    affiliation: [{house}]
    accelerate_dice: [orange]
    glimpse_dice: [purple]
    obstruct_dice: [black]
  - name: {h} Star Chaser
    type: player
    position: chaser
    affiliation: [{house}]
    unique: true
    cost: 4
    pass_dice: [orange, orange]
    shoot_dice: [orange, orange]
"""


def _tactical(house: str) -> str:
    h = house.capitalize()
    shapes = ["[1, 1, 1]", "[2]", "[1]", "[1, 2]"]
    out = []
    for i in range(16):
        out.append(f"""\
  - name: {h} Tactic {i + 1}
    type: tactical
    affiliation: [{house}]
    cost: {1 if i == 15 else 0}
    blocks: {shapes[i % 4]}
    text: "Log its name."
    effect: |
      log "resolving {h} Tactic {i + 1}"
""")
    return "".join(out)


SNITCH = "".join(f"""\
  - name: Test Snitch {i + 1}
    type: snitch
    symbol: {("broom", "wing", "cloud", "star")[i % 4]}
    fast_symbols: [{("wing", "cloud", "star", "broom")[i % 4]}, {("cloud", "star", "broom", "wing")[i % 4]}]
    text: "Accelerate 1, 2 or 3 (fixed)."
    rushed_effect: |
      seeker_action(me, "accelerate", "fixed", 1)
    fast_effect: |
      seeker_action(me, "accelerate", "fixed", 2)
    perfect_effect: |
      seeker_action(me, "accelerate", "fixed", 3)
""" for i in range(12)) + """\
  - name: Test Golden Snitch
    type: golden
    copies: 2
    text: "Nothing happens."
    effect: |
      pass
  - name: Test Slipstreaming
    type: slipstream
    copies: 2
    text: "Nothing happens."
    effect: |
      pass
"""

HOOPS = "".join(f"""\
  - name: Hoop {n}
    type: hoop
    number: {n}
    copies: 2
""" for n in (1, 2, 3))

SEQUENCE_CARDS = {
    "houses.yaml": "cards:\n" + "".join(_players(h) + _tactical(h) for h in ("gryffindor", "slytherin")),
    "snitch.yaml": "cards:\n" + SNITCH,
    "hoops.yaml": "cards:\n" + HOOPS,
}

def compiled():
    """The shipped rules with SEQUENCE_CARDS (compiled once per test run)."""
    return sources.compiled_once((GAME, "sequence"), lambda: sources.with_cards(GAME, SEQUENCE_CARDS))


Policy = Callable[[GameState, list[str]], "str | None"]


def first_option(g: GameState, labels: list[str]) -> str:
    return labels[0]


def new_game(seed: int = 1, **options) -> GameState:
    return GameState.new(compiled(), seed=seed, options=options or None, log=True, forced="take")


def step(g: GameState, policy: Policy = first_option) -> None:
    """Take one decision: a chance node samples, a side's decision follows the policy."""
    if g.is_chance_node():
        g.apply_action(g.sample_chance())
        return
    labels = g.action_labels()
    pick = policy(g, labels) or labels[0]
    g.apply_action(labels.index(pick))


def play_until(g: GameState, stop: Callable[[GameState], bool], policy: Policy = first_option,
               limit: int = 5000) -> None:
    for _ in range(limit):
        if g.is_terminal() or stop(g):
            return
        step(g, policy)
    raise AssertionError("the situation never came up")


def offered(prefix: str) -> Callable[[GameState], bool]:
    return lambda g: not g.is_terminal() and any(lab.startswith(prefix) for lab in g.action_labels())


# Readings of a game, by the names the rules give (tests/support/table.py reads them).
def where(g: GameState, piece: str) -> str | None:
    return Table(g).where(piece)


def zone(g: GameState, name: str, side: int) -> list[str]:
    return Table(g).zone_names(name, side)


def side_var(g: GameState, name: str, side: int):
    return Table(g).side_var(name, side)


def global_var(g: GameState, name: str):
    return Table(g).var(name)


def logs(g: GameState) -> list[str]:
    return Table(g).events()


def attacking(g: GameState) -> int:
    return global_var(g, "attacking")


# ------------------------------------------------------------------ team building
def test_a_team_is_one_keeper_two_beaters_three_chasers_and_one_seeker_within_the_funding():
    """Build Your Team, Galleons: 1 Keeper, 1 Seeker, 2 Beaters, 3 Chasers; never over the
    Funding (default 5); the Tactical deck always holds 15 cards."""
    for seed in range(8):
        rnd = random.Random(seed)
        g = new_game(seed)
        play_until(g, offered("place a Bludger"), lambda g, labels: rnd.choice(labels))
        for s in (HOME, AWAY):
            roster = [g.cg.cards[c] for c in g.st.zones[g.cg.zone_id("roster", s)]]
            positions = sorted(c.fields["position"] for c in roster)
            assert positions == ["beater", "beater", "chaser", "chaser", "chaser", "keeper", "seeker"]
            spent = sum(c.fields.get("cost", 0) for c in roster) + sum(
                g.cg.cards[c].fields.get("cost", 0) for c in g.st.zones[g.cg.zone_id("tactical_deck", s)]
                + g.st.zones[g.cg.zone_id("hand", s)])
            assert spent <= 5 and side_var(g, "galleons", s) == 5 - spent
            assert len(zone(g, "tactical_deck", s)) + len(zone(g, "hand", s)) == 15
            house = side_var(g, "house", s)
            assert all(house in c.fields["affiliation"] for c in roster)
        assert side_var(g, "house", HOME) != side_var(g, "house", AWAY)


def test_a_player_dearer_than_the_funding_left_is_not_offered():
    """Build Your Team > Galleons: "you may never exceed the Funding value" — with a Funding
    of 3, the 4-Galleon Star Chaser is never offered."""
    g = new_game(2, funding=3)
    seen = []
    play_until(g, offered("place a Bludger"), lambda g, labels: seen.extend(labels) or labels[0])
    assert not [lab for lab in seen if "Star Chaser" in lab]
    g = new_game(2, funding=5)
    seen = []
    play_until(g, offered("place a Bludger"), lambda g, labels: seen.extend(labels) or labels[0])
    assert [lab for lab in seen if "Star Chaser (4 Galleons)" in lab]


def test_each_coach_gets_goal_hoop_cards_numbered_1_2_3():
    """Prepare to Play > Team Selection: each Coach takes three Goal Hoop cards, numbered 1, 2, 3."""
    g = new_game(3)
    play_until(g, offered("place a Bludger"))
    for s in (HOME, AWAY):
        hoops = sorted(g.cg.cards[c].fields["number"] for c in g.st.zones[g.cg.zone_id("hoops", s)])
        assert hoops == [1, 2, 3]


def test_player_cards_go_with_the_miniature_of_their_position():
    """Prepare to Play > Player Cards: each miniature has its Player card (its Position)."""
    g = new_game(4)
    play_until(g, offered("place a Bludger"))
    col = g.cg.piece_var_names.index("player_card")
    for i, p in enumerate(g.cg.pieces):
        if p.kind in ("keeper", "chaser", "beater", "seeker"):
            card = g.st.pv[col][i]
            assert card is not None and g.cg.cards[card].fields["position"] == p.kind


# ------------------------------------------------------------------ set-up
def test_setup_places_keepers_seekers_the_snitch_and_the_deployment_zones():
    """Setup, 1st and 2nd Steps: the Golden Snitch on the last space of the Snitch Race, each
    Keeper in its own Scoring Area, each Seeker on the first space, the rest in the half's
    Deployment Zone."""
    g = new_game(5)
    play_until(g, offered("place a Bludger"))
    assert where(g, "snitch") == "r15"
    for side, prefix in (("home", "home"), ("away", "away")):
        assert where(g, f"{side} keeper") == f"{prefix}_scoring"
        assert where(g, f"{side} seeker") == "r1"
        for p in ("chaser 1", "chaser 2", "chaser 3", "beater 1", "beater 2"):
            assert where(g, f"{side} {p}") == f"{prefix}_deploy"


def test_roll_for_advantage_rerolls_blanks_and_the_winner_attacks_with_the_quaffle():
    """Setup, 4th Step: home chose Success, away Opportunity; a face with neither symbol is
    rolled again (ruling); the winner gets the Quaffle on a Chaser and the Attacking Team token."""
    g = new_game(6)
    play_until(g, lambda g: g.is_chance_node() and "roll blank" in g.action_labels())
    g.apply_action(g.action_labels().index("roll blank"))
    assert g.is_chance_node(), "a blank is rolled again"
    g.apply_action(g.action_labels().index("roll double opportunity"))
    assert attacking(g) == AWAY
    labels = g.action_labels()
    assert labels and all(lab.startswith("give the Quaffle to away chaser") for lab in labels)
    g.apply_action(1)
    q = next(k for k, p in enumerate(g.cg.pieces) if p.name == "quaffle")
    assert g.cg.pieces[g.st.holder[q]].name == "away chaser 2"


def test_starting_hand_is_five_tactical_cards_kept_secret():
    """Setup, 6th Step: draw the top five cards, keeping them a secret from the rival Coach."""
    g = new_game(7)
    play_until(g, offered("place a Bludger"))
    for s in (HOME, AWAY):
        assert len(zone(g, "hand", s)) == 5 and len(zone(g, "tactical_deck", s)) == 10
    obs = g.observation(HOME)
    assert isinstance(obs["zones"]["home hand"], list) and obs["zones"]["away hand"] == {"count": 5}


# ------------------------------------------------------------------ kick-off
def test_bludgers_go_to_the_rival_half_outside_deployment_zone_and_scoring_area():
    """Kick-Off 1: starting with the Attacking Team, each Coach places one Bludger in the
    rival's half, not in a Deployment Zone or the Scoring Area; the orange Zones are offered,
    since "The orange Zones are considered to be in both Halves" (Elements of the Game >
    The Game Board, Note)."""
    g = new_game(8)
    play_until(g, offered("place a Bludger"))
    a = attacking(g)
    assert g.current_player() == a
    rival_prefix = "away" if a == HOME else "home"
    assert sorted(lab.rsplit(" ", 1)[1] for lab in g.action_labels()) == sorted(
        [f"{rival_prefix}_{z}" for z in ("back", "north", "south")] + ["centre_north", "centre_south"])
    step(g)
    own_prefix = "home" if a == HOME else "away"
    assert g.current_player() == 1 - a and all(lab.startswith("place the other Bludger") for lab in g.action_labels())
    assert sorted(lab.rsplit(" ", 1)[1] for lab in g.action_labels()) == sorted(
        [f"{own_prefix}_{z}" for z in ("back", "north", "south")] + ["centre_north", "centre_south"])


def test_kick_off_moves_two_one_one_two_and_no_player_twice():
    """Kick-Off 2 a-d: Attacking Coach 2 Players, Defending Coach 1, Attacking 1, Defending 2,
    each from the Deployment Zone to an adjacent Zone; no Player is moved more than once."""
    g = new_game(9)
    play_until(g, offered("move "))
    a = attacking(g)
    order, moved = [], []
    while offered("move ")(g) and "out of the Deployment Zone" in g.action_labels()[0]:
        side = g.current_player()
        labels = g.action_labels()
        piece = labels[0][len("move "):-len(" out of the Deployment Zone")]
        assert piece not in moved
        step(g)
        dest = g.action_labels()
        assert all(lab.startswith(f"move {piece} to ") for lab in dest)
        assert not [lab for lab in dest if lab.endswith("_scoring")]
        step(g)
        moved.append(piece)
        order.append(side)
    assert order == [a, a, 1 - a, a, 1 - a, 1 - a]
    for piece in moved:
        assert not where(g, piece).endswith("_deploy")


# ------------------------------------------------------------------ the Game Sequence
def test_pitch_actions_card_is_chosen_in_secret_then_revealed():
    """Game Sequence 2: in secret, each Coach chooses a Pitch Actions card face-down; when both
    have chosen, both are revealed."""
    g = new_game(10)
    play_until(g, offered("play "))
    first = g.current_player()
    assert first == attacking(g)
    step(g)
    second = g.current_player()
    assert second == 1 - first and g.action_labels()[0].endswith("as the Pitch Actions card")
    obs = g.observation(second)
    side_name = ("home", "away")[first]
    assert obs["zones"][f"{side_name} pitch_choice"] == {"count": 1}
    step(g)
    for s in (HOME, AWAY):
        assert len(zone(g, "pitch_card", s)) == 1 and not zone(g, "pitch_choice", s)
    assert isinstance(g.observation(second)["zones"][f"{side_name} pitch_card"], list)


def _intrepid_policy(plays: dict[int, int]):
    """Play Intrepid Moves while the side's budget in `plays` lasts, else decline."""
    def policy(g, labels):
        if labels[0].endswith("as an Intrepid Move"):
            s = g.current_player()
            if plays.get(s, 0) > 0:
                plays[s] -= 1
                return labels[0]
            return "do not choose"
        return labels[0]
    return policy


def test_intrepid_moves_alternate_from_the_attacking_coach_at_most_two_each():
    """Game Sequence 3; Intrepid Moves: starting with the Attacking Team and alternating, each
    Coach may play up to two Intrepid Moves."""
    g = new_game(11)
    play_until(g, offered("play "))
    a = attacking(g)
    step(g)
    step(g)
    deciders = []
    policy = _intrepid_policy({HOME: 5, AWAY: 5})
    while g.action_labels() and g.action_labels()[0].endswith("as an Intrepid Move"):
        deciders.append(g.current_player())
        step(g, policy)
    assert deciders == [a, 1 - a, a, 1 - a], "each Coach plays two, then is not asked again"
    assert len(zone(g, "intrepid", HOME)) == 2 and len(zone(g, "intrepid", AWAY)) == 2


def test_intrepid_declarations_end_when_both_coaches_pass_in_a_row():
    """Intrepid Moves (ruling): declarations go on until both Coaches pass one after the other;
    a Coach who passed may still play after the rival plays one."""
    g = new_game(12)
    play_until(g, offered("play "))
    a = attacking(g)
    step(g)
    step(g)
    deciders = []
    policy = _intrepid_policy({a: 0, 1 - a: 1})
    while g.action_labels() and g.action_labels()[0].endswith("as an Intrepid Move"):
        deciders.append(g.current_player())
        step(g, policy)
    # a passes, the rival plays one, a passes again, the rival passes: over
    assert deciders == [a, 1 - a, a, 1 - a]
    assert len(zone(g, "intrepid", a)) == 0 and len(zone(g, "intrepid", 1 - a)) == 1


def test_intrepid_moves_resolve_last_played_coach_first_then_alternating():
    """Game Sequence 4: the Coach who played the last card resolves it first, then the other
    Coach, then alternating until all are resolved (G1, S1, S2 resolve S2, G1, S1: ruling)."""
    g = new_game(13)
    play_until(g, offered("play "))
    a = attacking(g)
    step(g)
    step(g)
    played = []

    def policy(g, labels):
        if labels[0].endswith("as an Intrepid Move"):
            s = g.current_player()
            # the attacker plays one, the defender two
            if (s == a and not played) or (s != a and sum(1 for x in played if x[0] != a) < 2):
                played.append((s, labels[0][len("play "):-len(" as an Intrepid Move")]))
                return labels[0]
            return "do not choose"
        return labels[0]
    while g.action_labels() and g.action_labels()[0].endswith("as an Intrepid Move"):
        step(g, policy)
    order = [line[len("resolving "):] for line in logs(g) if line.startswith("resolving ")]
    a1 = [n for s, n in played if s == a]
    d1, d2 = [n for s, n in played if s != a]
    assert [s for s, _ in played] == [a, 1 - a, 1 - a]
    assert order == [d2, a1[0], d1]


def test_action_blocks_alternate_attacker_first_and_the_longer_card_finishes():
    """Game Sequence 5 a-d: the Attacking Coach resolves a Block, then the Defending Coach,
    alternating; a Coach with more Blocks resolves the rest after (ruling); Blocks in the order
    printed."""
    names = ("home", "away")
    checked = 0
    for seed in range(14, 40):
        g = new_game(seed)
        play_until(g, offered("play "))
        a = attacking(g)
        play_until(g, lambda g: all(zone(g, "pitch_card", s) for s in (HOME, AWAY)),
                   _intrepid_policy({}))
        blocks = {s: list(next(c for c in g.cg.cards if c.name == zone(g, "pitch_card", s)[0]).fields["blocks"])
                  for s in (HOME, AWAY)}
        if len(blocks[a]) == len(blocks[1 - a]):
            continue
        expected = []
        for i in range(max(len(blocks[a]), len(blocks[1 - a]))):
            for s in (a, 1 - a):
                if i < len(blocks[s]):
                    expected.append(f"{names[s]} resolves an Action Block of {blocks[s][i]}")
        play_until(g, offered("take "), _intrepid_policy({}))
        assert [line for line in logs(g) if " resolves an Action Block of " in line] == expected
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_used_tactical_cards_are_discarded_at_the_end_of_the_game_sequence():
    """End of Game Sequence: each Coach discards all their used Tactical cards face-up."""
    g = new_game(15)
    play_until(g, offered("play "))
    step(g)
    step(g)
    policy = _intrepid_policy({HOME: 1, AWAY: 1})
    play_until(g, lambda g: global_var(g, "sequence_number") == 2, policy)
    for s in (HOME, AWAY):
        assert len(zone(g, "tactical_discard", s)) == 2
        assert not zone(g, "pitch_card", s) and not zone(g, "intrepid", s)


def test_a_coach_with_no_tactical_card_draws_five():
    """Game Sequence 1; Hand Swap: a Coach with no cards in hand at the start of a Game Sequence
    draws 5 cards from the Tactical deck; the other Coach, with cards, draws none."""
    g = new_game(16)
    play_until(g, offered("move "))
    # the last decision of the Kick-Off: empty home's hand before the Game Sequence starts
    play_until(g, lambda g: g.current_player() == attacking(g) ^ 1 and
               len([p for p in g.cg.pieces if p.side == attacking(g) ^ 1 and p.kind in ("chaser", "beater")
                    and where(g, p.name).endswith("_deploy")]) == 2 and
               g.action_labels()[0].startswith("move ") and " to " in g.action_labels()[0])
    step(g)
    play_until(g, lambda g: g.action_labels()[0].startswith("move ") and " to " in g.action_labels()[0])
    hand = g.st.zones[g.cg.zone_id("hand", HOME)]
    discard = g.cg.zone_id("tactical_discard", HOME)
    for c in list(hand):
        g.machine.move_card(c, discard)
    away_hand = list(zone(g, "hand", AWAY))
    step(g)
    play_until(g, offered("play "))
    assert side_var(g, "hand_swapped", HOME) and not side_var(g, "hand_swapped", AWAY)
    assert len(zone(g, "hand", HOME)) + len(zone(g, "pitch_choice", HOME)) == 5
    assert zone(g, "hand", AWAY) + zone(g, "pitch_choice", AWAY) == away_hand or \
        sorted(zone(g, "hand", AWAY) + zone(g, "pitch_choice", AWAY)) == sorted(away_hand)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_with_these_cards_end_with_a_winner(seed):
    """Catch the Snitch!: the game ends when a Seeker catches the Snitch — random games end."""
    rnd = random.Random(seed)
    g = new_game(100 + seed)
    play_until(g, lambda g: False, lambda g, labels: rnd.choice(labels), limit=20000)
    assert g.is_terminal() and g.winner() in (HOME, AWAY)
