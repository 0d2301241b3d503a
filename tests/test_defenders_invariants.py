"""Defenders of Hogwarts with the shipped cards: the card counts, the map, and invariants
that hold after every step of many seeded random games, for 1 to 4 House Players.

After every decision (and every chance outcome) of a game:

- every card of the game is in exactly one place: one zone, or the box (unchosen Houses'
  Starter Decks), and the total never changes;
- Dark Arts pawns never stand in a Protected Area or in the Room of Requirement;
- a House pawn that changes space in one step could get there along open borders and
  entrances within the longest move (so not only across a wall or an obstacle) unless a
  card allowed more this turn, or it flew, went directly to a named space, or was bumped
  (`check_house_steps`; the exact spaces of each move are pinned by the movement tests of
  tests/test_rules_defenders.py against an independent oracle);
- each House holds at most one Library Book, one D.A. Coin, one Hogwarts Token; there is
  one Dark Detector (held by one House or on its space); Scrolls and Coins given out never
  exceed their supply (8 Scrolls; the 4 Coins are held or in the supply);
- the marker stays on the path (1..18) and the Loyalty Track (1..7);
- the game ends with a House win, a Dark Arts win or a draw, within a declared bound of
  decisions.

The default run plays a few games per player count; the `slow` soak plays 500.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from defenders_support import ROOT, SIDES, region, settle, shipped_game, within
from lumos.api import new_game

MAX_DECISIONS = 20_000
HOUSES = SIDES[1:]


def test_card_counts_match_the_rulebook():
    """Game Components: 4 x 7 Starter, 42 Acquire, 11 Library, 21 House Location, 7 + 20 Dark Arts,
    4 Dark Arts Location, 3 x 5 Event cards."""
    cg = shipped_game()
    st = new_game(cg, seed=1, options={"house_players": 4})
    settle(st)
    v = st.observation(None)["zones"]
    size = lambda z: v[z]["count"] if isinstance(v[z], dict) else len(v[z])   # noqa: E731
    for h in HOUSES:
        assert size(f"{h} deck") + size(f"{h} hand") == 7
    assert size("acquire_deck") + size("acquire_row") + size("advanced_row") == 42
    assert size("library_deck") + size("library_row") == 11
    assert size("location_deck") + sum(size(f"{h} locations") for h in HOUSES) == 21
    assert size("dark_arts deck") + size("dark_arts hand") == 7
    assert size("dark_acquire") == 20 and size("dark_location_deck") == 4
    assert size("events_white") == size("events_orange") == size("events_red") == 5
    assert len(cg.cards) == 28 + 42 + 11 + 21 + 7 + 20 + 4 + 15


def test_every_location_card_names_a_space_with_its_grid():
    """House / Dark Arts Player Location Deck: grid coordinates and the location."""
    board = yaml.safe_load((ROOT / "rules" / "defenders-of-hogwarts" / "board.yaml").read_text())
    grid = {s["name"]: s["attrs"]["grid"] for s in board["spaces"]}
    seen = 0
    for f in ("locations.yaml", "dark-locations.yaml"):
        for card in yaml.safe_load((ROOT / "cards" / "defenders-of-hogwarts" / f).read_text())["cards"]:
            assert grid[card["space"]] == card["grid"], card["name"]
            seen += 1
    assert seen == 25


def test_board_has_the_rulebooks_map_elements():
    """General Key Concepts: 4 Protected Areas, 4 Deployment Spaces, 6 Shield Spaces, 7 Token spaces,
    3 Secret Passageways, Fly Off Points inside and outside, the four obstacle types, the Room."""
    board = yaml.safe_load((ROOT / "rules" / "defenders-of-hogwarts" / "board.yaml").read_text())
    assert len(region("protected")) == 4 and "hagrids_hut" in region("protected")
    assert len(region("deployment")) == 4 and region("deployment") <= region("grounds")
    assert len(region("shield_spaces")) == 6
    assert len([s for s in board["spaces"] if s["attrs"].get("token")]) == 7
    kinds = Counter(k for _, _, k in board["links"])
    assert kinds["passage_red"] == kinds["passage_green"] == kinds["passage_blue"] == 1
    assert all(kinds[k] > 0 for k in ("locked_door", "protective_spell", "physical_object", "water"))
    assert region("fly_off_inside") <= region("castle") and region("fly_off_outside") <= region("grounds")
    entrances = [(a, b) for a, b, k in board["links"] if k == "entrance"]
    assert len(entrances) == 3
    castle = region("castle")
    for a, b, k in board["links"]:
        if (a in castle) != (b in castle) and k not in ("passage_red", "passage_green", "passage_blue"):
            assert k == "entrance", (a, b, k)    # castle walls everywhere else


def check(v: dict, total_cards: int) -> None:
    zones, pieces, sides, g = v["zones"], v["pieces"], v["sides"], v["variables"]
    placed = sum(z["count"] if isinstance(z, dict) else len(z) for z in zones.values())
    assert placed <= total_cards
    dark_spaces = [d["space"] for p, d in pieces.items() if p.startswith("dark_arts ") and d["space"]]
    assert not set(dark_spaces) & (region("protected") | {"room_of_requirement"})
    tokens = Counter(d["vars"]["holder_side"] for p, d in pieces.items() if p.endswith("_token"))
    for h in HOUSES:
        assert len(zones[f"{h} book"]) <= 1
        assert tokens.get(SIDES.index(h), 0) <= 1
        assert 1 <= sides[h]["loyalty"] <= 7
    assert 1 <= g["path"] <= 18
    assert sum(sides[h]["scrolls_gained"] for h in HOUSES) + g["scrolls_left"] == 8
    assert sum(sides[h]["coin"] for h in HOUSES) + g["coins_left"] == 4
    holders = [g["detector"]]
    assert holders[0] is None or SIDES[holders[0]] in HOUSES   # one Dark Detector: one holder or its space


def check_house_steps(before: dict, after: dict, variables: dict) -> None:
    """A House pawn that changed space in one step can get there along open borders and
    entrances (the Room while revealed) within 8 spaces (the longest move), unless a card let it cross something this turn, it flew between Fly Off
    Points, went directly to the Library (Floo Powder) or was bumped back to the Great Hall."""
    if variables["crossing"] != "none":
        return
    kinds = {"open", "entrance"} | ({"room"} if variables["room_open"] else set())
    fly = region("fly_off_points")
    for p, d in after.items():
        a, b = before.get(p), d["space"]
        if not p.startswith(HOUSES) or a is None or b is None or a == b:
            continue
        if b in ("great_hall", "library") or (a in fly and b in fly):
            continue
        assert b in within(a, 8, kinds), f"{p} went from {a} to {b} across a wall or an obstacle"


def test_the_step_check_catches_an_obstacle():
    """The check is not vacuous: onto the Black Lake (Water on every border) without a card is refused."""
    quiet = {"crossing": "none", "room_open": False}
    for a, b in (("great_hall", "black_lake"), ("boathouse", "black_lake")):
        with pytest.raises(AssertionError):
            check_house_steps({"gryffindor student 1": a}, {"gryffindor student 1": {"space": b}}, quiet)
    check_house_steps({"gryffindor student 1": "boathouse"}, {"gryffindor student 1": {"space": "black_lake"}},
                      {"crossing": "water", "room_open": False})     # with a card that lets it


def play(n: int, seed: int) -> str:
    cg = shipped_game()
    st = new_game(cg, seed=seed, options={"house_players": n})
    total = len(cg.cards)
    rng = random.Random(seed)
    settle(st)                       # the set-up's dice: the Shields shuffled onto their spaces
    box = None
    decisions = 0
    spaces = None
    while not st.is_terminal():
        v = st.observation(None)
        check(v, total)
        now = {p: d["space"] for p, d in v["pieces"].items()}
        if spaces is not None:
            check_house_steps(spaces, v["pieces"], v["variables"])
        spaces = now
        in_zones = sum(z["count"] if isinstance(z, dict) else len(z) for z in v["zones"].values())
        box = total - in_zones if box is None else box
        assert total - in_zones == box, "a card was created or lost"
        st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        decisions += 1
        assert decisions < MAX_DECISIONS
    r = st.returns()
    assert r.count(1.0) <= 1 and all(x in (1.0, -1.0, 0.0) for x in r)
    return "draw" if 1.0 not in r else SIDES[r.index(1.0)]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_games_keep_the_invariants(n):
    """Every step of 6 seeded random games per player count."""
    for seed in range(6):
        play(n, seed)


@settings(max_examples=8, deadline=None)
@given(n=st.sampled_from([1, 2, 3, 4]), seed=st.integers(0, 2**63 - 1))
def test_any_seed_keeps_the_invariants(n, seed):
    """Hypothesis picks the number of House Players and the seed (of the game and of the choices)."""
    assert play(n, seed) in SIDES + ("draw",)


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_many_random_games_keep_the_invariants(n):
    """The soak: 500 seeded random games per player count, each ending in a win or a draw."""
    outcomes = Counter(play(n, seed) for seed in range(500))
    assert sum(outcomes.values()) == 500
