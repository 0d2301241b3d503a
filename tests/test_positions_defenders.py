"""Defenders of Hogwarts worked examples started from positions (`lumos.api.load_position`), with
the shipped cards: the situation is written down in names, then the rulebook's example is played.
"""
from __future__ import annotations

from lumos.api import load_position

from games.defenders_support import (DARK, GRYFFINDOR, HUFFLEPUFF, RAVENCLAW, SLYTHERIN, labels, pick, piece_var,
                                     shipped_game, side_var, space_of, var, zone)

GAME = "defenders-of-hogwarts"


def test_gryffindor_stun_from_a_position():
    """House Player Turn > Stunning: a Gryffindor pawn one space from a Dark Arts Pawn ends its move on it."""
    st = load_position(shipped_game(), {
        "game": GAME, "options": {"house_players": 1}, "seed": 3,
        "pieces": {"gryffindor student 1": "main_gates", "dark_arts dark_pawn 4": "hogsmeade_road"},
        "zones": {"gryffindor hand": ["Corridor Dash"]},
        "at": {"start_of": "house_turn"}})
    pick(st, "^explore", GRYFFINDOR)
    if "play Corridor Dash" in labels(st):
        pick(st, "^play Corridor Dash$")
    if "move with Corridor Dash" in labels(st):
        pick(st, "^move with Corridor Dash$")
    pick(st, r"^move gryffindor student 1 \(main_gates\)")
    pick(st, "^gryffindor student 1 to hogsmeade_road$")
    assert {t for t in labels(st)} == {"push dark_arts dark_pawn 4 to broom_shed", "push dark_arts dark_pawn 4 to main_gates"}
    pick(st, "to broom_shed$")
    assert piece_var(st, "gryffindor student 1", "stunned") and piece_var(st, "dark_arts dark_pawn 4", "stunned")
    assert space_of(st, "dark_arts dark_pawn 4") == "broom_shed"


def test_white_tomb_win_from_a_position():
    """Game End worked example: the Dementor taken at the second Red Event Space (2 pawns); one Dark Arts
    Pawn already in The White Tomb, a second lands there: the Dark Arts Player wins."""
    st = load_position(shipped_game(), {
        "game": GAME, "options": {"house_players": 1}, "seed": 3,
        "pieces": {"dark_arts dark_pawn 1": "the_white_tomb", "dark_arts dark_pawn 2": "lake_shore"},
        "zones": {"dark_arts hand": ["Creeping Shadow"], "dark_target": ["Target The White Tomb"]},
        "vars": {"giant_taken": True, "acromantula_taken": True, "dementor_taken": True, "pawns_needed": 2,
                 "path": 16},
        "at": {"start_of": "dark_turn"}})
    pick(st, "^explore", DARK)
    if "play Creeping Shadow" in labels(st):
        pick(st, "^play Creeping Shadow$")
    if "move with Creeping Shadow" in labels(st):
        pick(st, "^move with Creeping Shadow$")
    pick(st, "^move a Dark Arts Pawn up to 3$")
    pick(st, r"^move dark_arts dark_pawn 2 \(lake_shore\)")
    assert not st.is_terminal()
    pick(st, "^dark_arts dark_pawn 2 to the_white_tomb$")
    assert st.is_terminal() and st.returns() == [1.0, -1.0, 0.0, 0.0, 0.0]


# ------------------------------------------------------------------ more worked examples and one test per bullet
# (issue: the Main Board, the Side Board, the cards, set-up, the House turn, the Dark Arts turn,
# the Dark Arts Path, Game End, the player count and seating), each started from a position.

SHIELDS = {"detector_shield_1": "astronomy_tower", "detector_shield_2": "owlery", "detector_shield_3": "boathouse",
           "coin_shield_1": "clock_tower", "coin_shield_2": "stone_circle", "coin_shield_3": "quidditch_pitch"}


def at(position: dict):
    return load_position(shipped_game(), {"game": GAME, "seed": 3, **position})


def play_for_move(st, side: int, card: str) -> None:
    pick(st, "^explore", side)
    if f"play {card}" in labels(st):
        pick(st, f"^play {card}$")
    if f"move with {card}" in labels(st):
        pick(st, f"^move with {card}$")


# Gryffindor (first to play) is to skip its turn (Glossary: skip), so the example starts with the next
# House; a Main Action is compulsory, so an empty hand alone would have to Replenish (House Player Turn).
SKIP_GRYFFINDOR = {"at": {"start_of": "take_turn"}}


def gryffindor_skipped(st, side: int = HUFFLEPUFF) -> None:
    assert st.current_player() == side and var(st, "path") == 1


def test_hufflepuff_parchment_scroll_worked_example_from_a_position():
    """House Player Turn > Free Actions > Gain a Parchment Scroll: a pawn already in the Charms
    classroom, another lands in the Astronomy Tower: both cards revealed and returned to the bottom of
    the deck, a Scroll gained, 2 new Location cards drawn (first Scroll)."""
    st = at({"options": {"house_players": 2}, **SKIP_GRYFFINDOR,
             "pieces": {"hufflepuff student 1": "charms_classroom", "hufflepuff student 2": "owlery",
                        "dark_arts dark_pawn 1": "pumpkin_patch"},
             "zones": {"gryffindor hand": [], "hufflepuff hand": ["Corridor Dash"],
                       "hufflepuff locations": ["Charms Classroom", "Astronomy Tower", "Kitchens"]},
             "side_vars": {"skip_turn": {"gryffindor": True}}})
    gryffindor_skipped(st)
    assert "gain a Parchment Scroll" not in labels(st)     # only one of the three areas so far
    play_for_move(st, HUFFLEPUFF, "Corridor Dash")
    pick(st, r"^move hufflepuff student 2 \(owlery\)")
    pick(st, "^hufflepuff student 2 to astronomy_tower$")
    while "gain a Parchment Scroll" not in labels(st):
        pick(st, "^(leave|keep)")
    pick(st, "^gain a Parchment Scroll$")
    if any(t.startswith("reveal") for t in labels(st)):
        pick(st, "^reveal Charms Classroom$")
        pick(st, "^and Astronomy Tower$")
    assert side_var(st, HUFFLEPUFF, "scrolls") == 1 and var(st, "scrolls_left") == 7
    held = zone(st, "hufflepuff locations")
    assert len(held) == 3 and "Kitchens" in held and not {"Charms Classroom", "Astronomy Tower"} & set(held)
    deck = zone(st, "location_deck")
    assert deck[:2] in (["Charms Classroom", "Astronomy Tower"], ["Astronomy Tower", "Charms Classroom"])


def test_slytherin_takes_the_detector_from_ravenclaw_from_a_position():
    """Hogwarts Loyalty Track worked example: Ravenclaw holds the Dark Detector on the final space;
    Slytherin moves up to it: Slytherin takes the Detector, Ravenclaw drops back 1 and draws a card."""
    st = at({"options": {"house_players": 4}, **SKIP_GRYFFINDOR,
             "zones": {"gryffindor hand": [], "hufflepuff hand": [], "ravenclaw hand": [],
                       "ravenclaw deck": ["Night Walk"], "slytherin hand": ["House Pride"]},
             "side_vars": {"loyalty": {"ravenclaw": 7, "slytherin": 6}, "reached_five": {"ravenclaw": 1, "slytherin": 2},
                           "skip_turn": {"gryffindor": True, "hufflepuff": True, "ravenclaw": True}},
             "vars": {"detector": "ravenclaw", "room_open": True, "five_order": 2}})
    gryffindor_skipped(st, SLYTHERIN)      # Hufflepuff and Ravenclaw skip theirs too
    pick(st, "^explore", SLYTHERIN)
    if "play House Pride" in labels(st):
        pick(st, "^play House Pride$")
    pick(st, "^resolve the effect of House Pride, then move$")
    assert side_var(st, SLYTHERIN, "loyalty") == 7 and var(st, "detector") == SLYTHERIN
    assert side_var(st, RAVENCLAW, "loyalty") == 6 and zone(st, "ravenclaw hand") == ["Night Walk"]


def test_dark_arts_bump_choice_from_a_position():
    """Dark Arts Player Turn > Bumped worked example: a Dark Arts Pawn ends on the Gryffindor and
    Slytherin pawns; the Dark Arts Player chooses Gryffindor: its pawn to the Great Hall, the Dark
    Arts Pawn to the pool, the Gryffindor House Marker taken, 2 Acquire cards drawn and 1 kept."""
    st = at({"options": {"house_players": 4}, "at": {"start_of": "dark_turn"},
             "pieces": {"gryffindor student 1": "courtyard", "slytherin student 1": "courtyard",
                        "dark_arts dark_pawn 1": "stone_circle"},
             "zones": {"dark_arts hand": ["Creeping Shadow"]}})
    play_for_move(st, DARK, "Creeping Shadow")
    pick(st, "^move a Dark Arts Pawn up to 3$")
    pick(st, r"^move dark_arts dark_pawn 1 \(stone_circle\)")
    pick(st, "^dark_arts dark_pawn 1 to courtyard$")
    assert set(labels(st)) == {"bump gryffindor student 1", "bump slytherin student 1"}
    pick(st, "^bump gryffindor student 1$")
    assert space_of(st, "gryffindor student 1") == "great_hall" and space_of(st, "slytherin student 1") == "courtyard"
    assert space_of(st, "dark_arts dark_pawn 1") is None
    assert side_var(st, GRYFFINDOR, "marker_taken") and not side_var(st, SLYTHERIN, "marker_taken")
    assert labels(st) and all(t.startswith("keep ") for t in labels(st))   # the two drawn (alike: one label)
    assert len(zone(st, "dark_acquire")) == 18
    pick(st, "^keep ")
    assert len(zone(st, "dark_acquire")) == 19        # the other to the bottom of the Acquire Deck


def test_hufflepuff_win_from_a_position():
    """Game End worked example: Hufflepuff has 1 Defence Shield and a Library Book, a Parchment Scroll
    and a D.A. Coin; it lands on a D.A. Coin Shield Space, trades the three items and wins."""
    st = at({"options": {"house_players": 2}, **SKIP_GRYFFINDOR,
             "pieces": dict(SHIELDS, **{"hufflepuff student 1": "entrance_hall", "detector_shield_1": None}),
             "zones": {"gryffindor hand": [], "hufflepuff hand": ["Corridor Dash"],
                       "hufflepuff book": ["Hogwarts, A History"]},
             "side_vars": {"shields": {"hufflepuff": 1}, "scrolls": {"hufflepuff": 1},
                           "scrolls_gained": {"hufflepuff": 1}, "coin": {"hufflepuff": True},
                           "skip_turn": {"gryffindor": True}},
             "piece_vars": {"holder_side": {"detector_shield_1": "hufflepuff"}},
             "vars": {"coins_left": 3, "scrolls_left": 7}})
    gryffindor_skipped(st)
    play_for_move(st, HUFFLEPUFF, "Corridor Dash")
    pick(st, r"^move hufflepuff student 1 \(entrance_hall\)")
    pick(st, "^hufflepuff student 1 to clock_tower$")
    assert not st.is_terminal()
    pick(st, "^exchange a Library Book, a Parchment Scroll and a D.A. Coin for coin_shield_1$")
    assert st.is_terminal() and st.returns() == [-1.0, -1.0, 1.0, 0.0, 0.0]
    # rulings: the Book goes to the Library discard pile; the Shield Space is left empty
    assert zone(st, "library_discard") == ["Hogwarts, A History"] and zone(st, "hufflepuff book") == []
    assert space_of(st, "coin_shield_1") is None


def test_main_board_walls_and_obstacles_from_a_position():
    """General Key Concepts > Movement & Map Elements, Obstacles: from the Boathouse a House pawn goes
    up to 3 spaces through open borders and the red entrance, never onto the Black Lake (Water) nor
    through the Locked Door between the Dungeons and the Library."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "pieces": {"gryffindor student 1": "boathouse"}, "zones": {"gryffindor hand": ["Corridor Dash"]}})
    play_for_move(st, GRYFFINDOR, "Corridor Dash")
    pick(st, r"^move gryffindor student 1 \(boathouse\)")
    ends = {t.removeprefix("gryffindor student 1 to ") for t in labels(st)}
    assert "dungeons" in ends and "potions_classroom" in ends       # through the red entrance
    assert "black_lake" not in ends and "library" not in ends       # Water; a Locked Door


def test_multi_move_card_from_a_position():
    """House Player Turn > Card Movement (cards with a multi-move value, `2 + 2`): one pawn up to 4, or
    two pawns 2 each; never another split."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "zones": {"gryffindor hand": ["Greenhouse Errand"]}})
    play_for_move(st, GRYFFINDOR, "Greenhouse Errand")
    assert set(labels(st)) == {"one pawn up to 4", "two pawns: 2, then 2"}


def test_learn_needs_a_pawn_outside_the_protected_areas_from_a_position():
    """House Player Turn > Learn: with every pawn in a Protected Area no Learn; with one outside, Learn."""
    inside = {"gryffindor student 1": "hagrids_hut", "gryffindor student 2": "common_rooms",
              "gryffindor student 3": "hospital_wing"}
    base = {"options": {"house_players": 1}, "at": {"start_of": "house_turn"}}
    assert not any(t.startswith("learn") for t in labels(at(dict(base, pieces=inside))))
    outside = dict(inside, **{"gryffindor student 3": "great_hall"})
    assert any(t.startswith("learn") for t in labels(at(dict(base, pieces=outside))))


def test_dark_arts_deploy_onto_a_free_deployment_space_from_a_position():
    """Dark Arts Player Turn > Card Movement: a pawn from the pool costs 1 movement point and goes onto a
    Deployment Space without a Dark Arts Pawn (Note: not one that holds one)."""
    st = at({"options": {"house_players": 2}, "at": {"start_of": "dark_turn"},
             "pieces": {"dark_arts dark_pawn 1": None, "dark_arts dark_pawn 2": "forbidden_forest",
                        "dark_arts dark_pawn 3": "forest_clearing", "dark_arts dark_pawn 4": "hogsmeade_road"},
             "zones": {"dark_arts hand": ["Creeping Shadow"]}})
    play_for_move(st, DARK, "Creeping Shadow")
    pick(st, r"^deploy a Dark Arts Pawn from the pool \(1 of 3\)$")
    assert labels(st) == [t for t in labels(st) if t.endswith("onto pumpkin_patch")] and len(labels(st)) == 1
    pick(st, "onto pumpkin_patch$")
    # rulings: the deployed pawn goes on with the 2 points left (through obstacles, not into Hagrid's Hut)
    ends = {t.removeprefix("dark_arts dark_pawn 1 to ") for t in labels(st) if " to " in t}
    assert {"greenhouses", "black_lake", "paddock", "boathouse"} <= ends and "hagrids_hut" not in ends


def test_deploying_onto_house_pawns_and_stopping_there_bumps_from_a_position():
    """Dark Arts Player Turn > Card Movement; Bumped (rulings): a pawn deployed onto a Deployment Space
    that holds only a House pawn, and going no further, ends its move there: it bumps."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "dark_turn"},
             "pieces": {"dark_arts dark_pawn 1": None, "gryffindor student 1": "pumpkin_patch"},
             "zones": {"dark_arts hand": ["Creeping Shadow"]}})
    play_for_move(st, DARK, "Creeping Shadow")
    pick(st, r"^deploy a Dark Arts Pawn from the pool")
    pick(st, "onto pumpkin_patch$")
    pick(st, "^do not choose$")
    pick(st, "^bump gryffindor student 1$")
    assert space_of(st, "gryffindor student 1") == "great_hall" and space_of(st, "dark_arts dark_pawn 1") is None


def test_dark_arts_pawns_may_enter_the_great_hall_from_a_position():
    """Dark Arts Player Turn > Bumped (rulings): the Great Hall, where bumped pawns return, is no
    Protected Area: a Dark Arts Pawn may end there, and bumps the House pawns it finds."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "dark_turn"},
             "pieces": {"dark_arts dark_pawn 1": "kitchens"}, "zones": {"dark_arts hand": ["Creeping Shadow"]}})
    play_for_move(st, DARK, "Creeping Shadow")
    pick(st, "^move a Dark Arts Pawn up to 3$")
    pick(st, r"^move dark_arts dark_pawn 1 \(kitchens\)")
    assert "dark_arts dark_pawn 1 to great_hall" in labels(st)


def test_an_empty_hand_must_replenish_before_the_last_space_from_a_position():
    """House Player Turn: a House Player must take 1 of the Main Actions; with no card in hand that is
    Replenish (the turn cannot simply end) until the last space of the Dark Arts Path (Game End)."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"}, "zones": {"gryffindor hand": []}})
    assert labels(st) == ["replenish: draw up to 5, stand up, advance the Dark Arts Marker"]
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"}, "zones": {"gryffindor hand": []},
             "vars": {"path": 18, "final_phase": True}})
    assert labels(st) == ["end the turn"]


def test_the_zones_last_event_space_forces_the_progress_token_from_a_position():
    """Dark Arts Path > Advancing the Dark Arts Marker; Resolving an Event Card: a House Replenish moves
    the marker onto the White Zone's last Event Space; every House resolves the event, and the Giant
    token, not yet taken, must be taken before the Orange Zone."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"}, "vars": {"path": 5}})
    pick(st, "^replenish", GRYFFINDOR)
    while not st.is_terminal() and st.current_player() == GRYFFINDOR and "end the turn" not in labels(st):
        pick(st, "^(do not choose|leave|keep)")
    assert var(st, "path") == 6 and var(st, "giant_taken")
    assert len(zone(st, "event_discard")) == 1


def test_the_draw_after_the_last_space_from_a_position():
    """Game End: after the last space of the Dark Arts Path, when every player has played all their
    cards without a winner, the game is a draw."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "take_turn"},
             "zones": {"gryffindor hand": [], "dark_arts hand": []},
             "vars": {"path": 18, "final_phase": True}})
    assert st.is_terminal() and st.returns() == [0.0] * 5
    held = at({"options": {"house_players": 1}, "at": {"start_of": "take_turn"},
               "zones": {"gryffindor hand": [], "dark_arts hand": ["Creeping Shadow"]},
               "vars": {"path": 18, "final_phase": True}})
    assert not held.is_terminal()            # rulings: a card still held (Reactive ones too) is not run out


def test_unchosen_houses_take_no_part_from_a_position():
    """Player count and seating (Game Set Up > House Player Board Set Up, Note): with 3 House Players
    the sides in play are the Dark Arts Player, Gryffindor, Hufflepuff and Ravenclaw; Slytherin's
    pawns are in the box; 6 Dark Arts Pawns take part (Main Board Set Up, C)."""
    st = at({"options": {"house_players": 3}, "at": {"start_of": "house_turn"}})
    assert st.sides_in_play() == [0, 1, 2, 3]
    pos = st.position()
    assert all(pos["pieces"][f"slytherin student {k}"] is None for k in (1, 2, 3))
    assert sum(piece_var(st, f"dark_arts dark_pawn {k}", "in_game") for k in range(1, 8)) == 6


def house_to(st, side: int, pawn: str, frm: str, to: str, card: str = "Corridor Dash") -> None:
    play_for_move(st, side, card)
    pick(st, rf"^move {pawn} \({frm}\)")
    pick(st, rf"^{pawn} to {to}$")


def test_a_bonus_acquire_puts_the_card_on_top_of_the_draw_deck_from_a_position():
    """General Key Concepts > Card Acquire (rulings): on a Card Acquire space the card taken goes on top
    of the Draw Deck, as with Learn."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "pieces": {"gryffindor student 1": "library"}, "zones": {"gryffindor hand": ["Corridor Dash"]}})
    house_to(st, GRYFFINDOR, "gryffindor student 1", "library", "grand_staircase")
    pick(st, r"^acquire a card \(grand_staircase\)$")
    row = zone(st, "acquire_row")
    pick(st, "^take a card from the Acquire Row$")
    pick(st, f"^take {row[0]}$")
    assert zone(st, "gryffindor deck")[-1] == row[0]


def test_the_library_from_a_position():
    """General Key Concepts > The Library & Library Book Deck (rulings): a pawn that ends its move in the
    Library takes one of the two face-up Books; the space is refilled, and with the Library deck empty
    it stays empty. Passing through the Library is no visit."""
    base = {"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
            "pieces": {"gryffindor student 1": "charms_classroom"}, "zones": {"gryffindor hand": ["Corridor Dash"]}}
    through = at(base)
    house_to(through, GRYFFINDOR, "gryffindor student 1", "charms_classroom", "grand_staircase")
    assert not any(t.startswith("take the Library Book") for t in labels(through))
    st = at(dict(base, zones=dict(base["zones"], library_deck=[],
                                  library_row=["Hogwarts, A History", "Advanced Potion-Making"])))
    house_to(st, GRYFFINDOR, "gryffindor student 1", "charms_classroom", "library")
    assert {t for t in labels(st) if t.startswith("take")} == {
        "take the Library Book Hogwarts, A History", "take the Library Book Advanced Potion-Making"}
    pick(st, "^take the Library Book Advanced Potion-Making$")
    assert zone(st, "gryffindor book") == ["Advanced Potion-Making"] and zone(st, "library_row") == ["Hogwarts, A History"]


def test_drawing_from_empty_piles_and_no_hand_limit_from_a_position():
    """General Key Concepts > Card Draw (rulings): with the Draw Deck and the Discard Pile both empty
    nothing is drawn; there is no hand limit besides drawing to 5 on Replenish."""
    empty = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
                "pieces": {"gryffindor student 1": "great_hall"},
                "zones": {"gryffindor hand": ["Corridor Dash", "Night Walk"], "gryffindor deck": [],
                          "gryffindor discard": []}})
    house_to(empty, GRYFFINDOR, "gryffindor student 1", "great_hall", "kitchens")
    pick(empty, r"^draw a card \(kitchens\)$")
    assert zone(empty, "gryffindor hand") == ["Night Walk"]
    big = ["Corridor Dash", "Night Walk", "Study Group", "House Pride", "Quick Jinx", "Greenhouse Errand"]
    full = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
               "pieces": {"gryffindor student 1": "great_hall"},
               "zones": {"gryffindor hand": big, "gryffindor deck": ["Unlocking Charm Practice"]}})
    house_to(full, GRYFFINDOR, "gryffindor student 1", "great_hall", "kitchens")
    pick(full, r"^draw a card \(kitchens\)$")
    assert len(zone(full, "gryffindor hand")) == 6


def test_no_d_a_coin_when_the_supply_is_empty_from_a_position():
    """General Key Concepts > Dumbledore's Army Coin (rulings): entering the revealed Room with the 4
    Coins all held gives none."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "pieces": {"gryffindor student 1": "trophy_room"}, "zones": {"gryffindor hand": ["Corridor Dash"]},
             "vars": {"room_open": True, "coins_left": 0}, "side_vars": {"loyalty": {"gryffindor": 5}}})
    house_to(st, GRYFFINDOR, "gryffindor student 1", "trophy_room", "room_of_requirement")
    assert side_var(st, GRYFFINDOR, "coin") is False


def test_no_card_swaps_pawns():
    """Glossary, Swap (rulings): whether a swap is a move is left open because no card of ours swaps."""
    import yaml
    from games.defenders_support import ROOT
    for path in (ROOT / "cards" / GAME).glob("*.yaml"):
        for card in yaml.safe_load(path.read_text())["cards"]:
            assert "swap" not in (card.get("text", "") + str(card.get("effect", ""))).lower(), card["name"]


# ------------------------------------------------------------------ found by checks written from the rulebook alone

def test_a_relinquished_parchment_scroll_goes_back_to_its_stack():
    """Glossary, Relinquish: a component is "removed from ... their Player Board Items area
    and returned to its original location"; Game Set Up: the Parchment Scrolls stand in a
    stack. Trading for a Shield gives the Scroll back to the stack, as it does the D.A. Coin."""
    st = at({"options": {"house_players": 2}, **SKIP_GRYFFINDOR,
             "pieces": dict(SHIELDS, **{"hufflepuff student 1": "entrance_hall"}),
             "zones": {"gryffindor hand": [], "hufflepuff hand": ["Corridor Dash"],
                       "hufflepuff book": ["Hogwarts, A History"]},
             "side_vars": {"scrolls": {"hufflepuff": 1}, "scrolls_gained": {"hufflepuff": 1},
                           "coin": {"hufflepuff": True}, "skip_turn": {"gryffindor": True}},
             "vars": {"coins_left": 3, "scrolls_left": 7}})
    gryffindor_skipped(st)
    play_for_move(st, HUFFLEPUFF, "Corridor Dash")
    pick(st, r"^move hufflepuff student 1 \(entrance_hall\)")
    pick(st, "^hufflepuff student 1 to clock_tower$")
    pick(st, "^exchange a Library Book, a Parchment Scroll and a D.A. Coin for coin_shield_1$")
    assert side_var(st, HUFFLEPUFF, "shields") == 1 and side_var(st, HUFFLEPUFF, "scrolls") == 0
    assert var(st, "scrolls_left") == 8 and var(st, "coins_left") == 4


def test_a_dark_arts_pawn_flies_to_another_fly_off_point():
    """General Key Concepts > Fly Off Points: pawns "fly from 1 Fly Off Point to any other";
    the Viaduct is not another point (and the move would end where it started: Glossary,
    Backtrack)."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "dark_turn"},
             "pieces": {"dark_arts dark_pawn 1": "viaduct"},
             "zones": {"dark_arts hand": ["Broomstick Ambush"]}})
    play_for_move(st, DARK, "Broomstick Ambush")
    pick(st, r"^fly dark_arts dark_pawn 1 from viaduct$")
    flights = {t.rsplit(" ", 1)[1] for t in labels(st) if " flies to " in t}
    assert flights == {"astronomy_tower", "owlery", "quidditch_pitch"}


def test_a_reactive_card_played_on_its_owners_turn_gives_its_movement_only():
    """House Player Turn > Card Effects: a card with a Reactive Effect "can be played like any
    other card for their movement value ... avoiding the effect entirely", or, when its
    condition is met outside the turn, for its effect alone: on its owner's Explore there is
    no effect to resolve."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "zones": {"gryffindor hand": ["Invisibility Cloak"]}})
    pick(st, "^explore", GRYFFINDOR)
    if "play Invisibility Cloak" in labels(st):
        pick(st, "^play Invisibility Cloak$")
    assert not any("resolve the effect" in t for t in labels(st))
    assert any(t.startswith("move gryffindor student") or t == "move with Invisibility Cloak" for t in labels(st))


def passed(st, pawn: str) -> list[str]:
    """The spaces the pawn has passed this turn, as the position writes them."""
    return st.position()["piece_vars"]["passed"][pawn]


def test_a_pawn_never_passes_again_a_space_it_passed_earlier_in_the_turn():
    """Glossary, Backtrack: "Move a pawn through spaces it already passed through in the same
    turn"; Movement & Map Elements: House pawns "cannot backtrack in the same turn". The pawn
    walks from the Great Hall to the Library by the only three-step way (the Kitchens, the Grand
    Staircase); the Library Book's extra move of 2 then offers neither of those spaces."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "zones": {"gryffindor hand": ["Night Walk"],
                       "library_row": ["Quidditch Through the Ages", "The Standard Book of Spells"]}})
    play_for_move(st, GRYFFINDOR, "Night Walk")
    pick(st, r"^move gryffindor student 1 \(great_hall\)")
    pick(st, "^gryffindor student 1 to library$")
    assert {"kitchens", "grand_staircase", "great_hall", "library"} <= set(passed(st, "gryffindor student 1"))
    pick(st, "Quidditch Through the Ages")
    pick(st, r"^move gryffindor student 1 \(library\)")
    ends = {t.rsplit(" ", 1)[1] for t in labels(st) if t.startswith("gryffindor student 1 to ")}
    assert ends and not ends & {"kitchens", "grand_staircase", "great_hall"}


def test_a_space_some_shortest_way_avoids_stays_open():
    """Rulings, Backtracking: the rules know where a move ended, not the way taken; a space
    that some shortest way to the end avoids may have been avoided and stays open (from the
    Stone Circle to the Whomping Willow, three steps, round either side)."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "pieces": {"gryffindor student 1": "stone_circle"}, "zones": {"gryffindor hand": ["Night Walk"]}})
    play_for_move(st, GRYFFINDOR, "Night Walk")
    pick(st, r"^move gryffindor student 1 \(stone_circle\)")
    pick(st, "^gryffindor student 1 to whomping_willow$")
    assert passed(st, "gryffindor student 1")[-1] == "whomping_willow"
    assert "the_white_tomb" not in passed(st, "gryffindor student 1")


def test_with_two_pawns_the_player_chooses_which_movement_value_comes_first():
    """House Player Turn > Card Movement: "When using a multi-move card to move multiple pawns,
    the House Player chooses which value to resolve first"; "The movement cannot be split any
    other way". Mandrake Lesson is 2 + 3: one pawn up to 5, or two pawns, 2 then 3 or 3 then 2."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "house_turn"},
             "zones": {"gryffindor hand": ["Mandrake Lesson"]}})
    play_for_move(st, GRYFFINDOR, "Mandrake Lesson")
    assert set(labels(st)) == {"one pawn up to 5", "two pawns: 2, then 3", "two pawns: 3, then 2"}
    pick(st, r"^two pawns: 3, then 2$")
    pick(st, r"^move gryffindor student 1 \(great_hall\) up to 3$")
    pick(st, "^gryffindor student 1 to entrance_hall$")
    assert set(labels(st)) == {"move gryffindor student 2 (great_hall) up to 2",
                               "move gryffindor student 3 (great_hall) up to 2", "do not choose"}


def test_the_dark_arts_player_chooses_which_movement_value_comes_first():
    """Dark Arts Player Turn > Card Movement: "the Dark Arts Player chooses which value to resolve
    first" (Death Eater Raid, 2 + 4)."""
    st = at({"options": {"house_players": 1}, "at": {"start_of": "dark_turn"},
             "zones": {"dark_arts hand": ["Death Eater Raid"]}})
    play_for_move(st, DARK, "Death Eater Raid")
    assert set(labels(st)) == {"one pawn up to 6", "two pawns: 2, then 4", "two pawns: 4, then 2"}
