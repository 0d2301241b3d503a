"""Defenders of Hogwarts with the shipped cards: the card counts and the map's elements.

The invariants after every decision of many seeded random games, for 1 to 4 House Players,
are in the shared harness: tests/test_invariants.py with tests/games/defenders_invariants.py
(10 games per player count in the default run, 500 per player count in the `slow` soak).
"""
from __future__ import annotations

from collections import Counter

import yaml

from games.defenders_support import ROOT, SIDES, region, settle, shipped_game
from lumos.api import new_game

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
    grid = {s["name"]: s["attrs"].get("grid") for s in board["spaces"]}
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


def test_the_board_drawing_shows_the_main_board_and_the_side_board():
    """Game Components: the Main Board (its spaces and the obstacles on their borders) and the Side
    Board with the Dark Arts Path (3 zones of 6 spaces, Event Spaces, the last space) and the
    7-space Hogwarts Loyalty Track, linked to nothing."""
    from lumos.compiler.boards import export_svg
    cg = shipped_game()
    svg = export_svg(cg.board)
    for space in ("great_hall", "library", "the_white_tomb", "path_1", "path_18", "loyalty_7"):
        assert f'data-space="{space}"' in svg
    assert 'data-kind="water"' in svg and 'data-kind="entrance"' in svg
    assert len(region("dark_arts_path")) == 18 and len(region("loyalty_track")) == 7
    board = yaml.safe_load((ROOT / "rules" / "defenders-of-hogwarts" / "board.yaml").read_text())
    attrs = {s["name"]: s["attrs"] for s in board["spaces"]}
    assert [attrs[f"path_{k}"]["zone"] for k in (1, 7, 13)] == ["white", "orange", "red"]
    assert sum(1 for k in range(1, 19) if attrs[f"path_{k}"].get("event")) == 9 and attrs["path_18"]["last"]
    side = region("side_board")
    assert not [link for link in board["links"] if link[0] in side or link[1] in side]   # no pawn walks them


def test_the_board_drawing_shows_the_card_spaces_of_the_side_board():
    """Game Components; Game Set Up > Side Board Set Up: the Side Board also holds the House Acquire
    Deck with its Acquire Row (2 cards) and Advanced Acquire Row (2 cards), the Library Book Deck and
    its 2 Library Book spaces, and the House and Dark Arts Location Decks (`lumos board --format svg`)."""
    from lumos.reference.boards import render_svg
    svg = render_svg(shipped_game())
    for caption in ("HOUSE ACQUIRE DECK", "ACQUIRE ROW", "ADVANCED ACQUIRE ROW", "LIBRARY BOOK DECK",
                    "LIBRARY BOOKS", "HOUSE LOCATION DECK", "DARK ARTS LOCATION DECK"):
        assert f">{caption}<" in svg, caption
    assert svg.count(">card<") == 4 and svg.count(">Book<") == 2    # the two rows' 4 cards, the 2 Books
    assert svg.count('class="decoration"') == 10                    # 10 card spaces: 4 decks, 6 face up


def test_the_checker_sees_a_crossing_whose_turn_ended_in_the_same_step():
    """General Key Concepts > Obstacles; House Player Turn > Card Effects: Bubble-Head Charm lets the
    pawn cross Water this turn; with no card left the turn ends at once (the crossing is reset in the
    same step), and the soak's checker must still accept the move across the Water (found by the
    slow soak, seed 20964)."""
    from games.defenders_invariants import Checker
    from games.defenders_support import labels, pick, space_of
    from lumos.api import load_position
    cg = shipped_game()
    st = load_position(cg, {"game": "defenders-of-hogwarts", "seed": 3, "options": {"house_players": 1}, "forced": "take",
                            "pieces": {"gryffindor student 2": "kitchens"},
                            "zones": {"gryffindor hand": ["Bubble-Head Charm"]},
                            "at": {"start_of": "house_turn"}})
    checker = Checker(cg)
    checker.check(st)
    for pattern in ("^explore", "^play Bubble-Head Charm$", "^resolve the effect of Bubble-Head Charm, then move$",
                    r"^move gryffindor student 2 \(kitchens\)", "^gryffindor student 2 to black_lake$"):
        if pattern.startswith("^play") and "play Bubble-Head Charm" not in labels(st):
            continue
        pick(st, pattern)
        checker.check(st)
    assert space_of(st, "gryffindor student 2") == "black_lake" and st.current_player() == 0, labels(st)
