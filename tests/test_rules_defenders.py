"""Defenders of Hogwarts: the rulebook's rules, on situations reached through the public API.

Each test starts a game (the shipped rules with the test cards of
tests/fixtures/defenders/, unless it says otherwise), chooses options by their labels,
and checks the options offered and the view after. Docstrings cite the rulebook section
(rulebooks/defenders-of-hogwarts.txt); rulings where the rulebook is silent are on
docs/rulings/defenders-of-hogwarts.md.
"""
from __future__ import annotations

import pytest

from games.defenders_support import (DARK, GRYFFINDOR, HUFFLEPUFF, RAVENCLAW, SLYTHERIN, advance_to, attr, dark_move,
                               finish_turn, house_move, labels, offers, pick, piece_var, quiet_turn, region,
                               scripted_scroll, scripted_turn, side_var, space_of, start, var, view, within, zone)
from games.defenders_support import refill as refill_hand

WALK = {"open", "entrance"}
DARK_WALK = {"open", "entrance", "locked_door", "protective_spell", "physical_object", "water"}
G1, G2, G3 = "gryffindor student 1", "gryffindor student 2", "gryffindor student 3"


def destinations(st, pawn: str) -> set[str]:
    return {t.split(" to ", 1)[1] for t in labels(st) if t.startswith(pawn + " to ")}


# ------------------------------------------------------------------ set-up and seating

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_setup_for_each_number_of_house_players(n):
    """Game Set Up C, D, F, G, U; House Player Board Set Up: unchosen houses go back to the box."""
    st = start(n, seed=3, shipped=True)
    v = view(st)
    houses = ["gryffindor", "hufflepuff", "ravenclaw", "slytherin"]
    for i, h in enumerate(houses):
        on_board = [p for p, d in v["pieces"].items() if p.startswith(h + " ") and d["space"] is not None]
        if i < n:
            assert sorted(v["pieces"][p]["space"] for p in on_board) == ["great_hall"] * 3   # D.
            assert len(v["zones"][f"{h} hand"]) == 5 and len(v["zones"][f"{h} locations"]) == 3   # U.
        else:
            assert on_board == [] and v["zones"][f"{h} hand"] == [] and v["zones"][f"{h} deck"] == []
    dark = {p: d for p, d in v["pieces"].items() if p.startswith("dark_arts ")}
    assert sorted(d["space"] for d in dark.values() if d["space"]) == sorted(region("deployment"))   # C.
    assert sum(d["vars"]["in_game"] for d in dark.values()) == 3 + n                               # 4/5/6/7
    assert len(v["zones"]["dark_arts hand"]) == 5
    assert len(v["zones"]["library_row"]) == 2                                                      # F.
    assert len(v["zones"]["acquire_row"]) == 2 and len(v["zones"]["advanced_row"]) == 2             # G.
    assert var(st, "path") == 1                                                                     # H.
    assert st.current_player() == GRYFFINDOR   # "The House Player to the left of the Dark Arts Player goes first."


def test_shields_and_tokens_are_on_their_spaces():
    """Game Set Up A and B: one Defence Shield on each Shield Space, each Hogwarts Token on its space."""
    v = view(start(2, seed=5, shipped=True))
    shields = [p for p in v["pieces"] if "shield_" in p]
    assert sorted(v["pieces"][p]["space"] for p in shields) == sorted(region("shield_spaces"))
    for p, d in v["pieces"].items():
        if p.endswith("_token"):
            assert attr(d["space"], "token") == p


def test_turn_order_is_clockwise_from_the_dark_arts_players_left():
    """General Key Concepts: the player left of the Dark Arts Player first, then clockwise."""
    st = start(3)
    seen = []
    for _ in range(8):
        seen.append(st.current_player())
        quiet_turn(st)
    assert seen == [GRYFFINDOR, HUFFLEPUFF, RAVENCLAW, DARK, GRYFFINDOR, HUFFLEPUFF, RAVENCLAW, DARK]


# ------------------------------------------------------------------ movement

def test_house_pawns_move_up_to_n_through_open_borders_only():
    """Movement & Map Elements; Obstacles: full borders only, no walls, no obstacle without a card."""
    st = start(2)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^move with Test Card$")
    pick(st, rf"^move {G1} \(")
    assert destinations(st, G1) == within("great_hall", 6, WALK, {"room_of_requirement"})


def test_a_card_that_passes_locked_doors_opens_them_for_the_turn():
    """Obstacles: "unless they use a card that lets them do so during their move" (the Alohomora ruling)."""
    st = start(2)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^resolve the effect of Test Card, then move$")
    pick(st, "^test: pass Locked Doors")
    pick(st, rf"^move {G1} \(")
    got = destinations(st, G1)
    assert got == within("great_hall", 6, WALK | {"locked_door"}, {"room_of_requirement"})
    assert "trophy_room" in got and "trophy_room" not in within("great_hall", 1, WALK)


def test_dark_pawns_cross_obstacles_but_never_enter_protected_areas():
    """Obstacles: Dark Arts Pawns move freely through obstacles; Protected Area: never pass or end there."""
    st = start(1)
    quiet_turn(st)
    pick(st, "^explore", DARK)
    pick(st, "^play Test Shadow$")
    pick(st, r"^move a Dark Arts Pawn up to 6$")
    pawn = "dark_arts dark_pawn 1"
    pick(st, rf"^move {pawn} \(")
    expected = within("pumpkin_patch", 6, DARK_WALK, region("protected") | {"room_of_requirement"})
    assert destinations(st, pawn) == expected
    assert "black_lake" in expected   # across Water


def test_multi_move_is_one_pawn_for_the_sum_or_two_pawns_never_another_split():
    """House Player Turn > Card Movement: '3 + 3' is 2 pawns each up to 3 or 1 up to 6, nothing else."""
    st = next(s for s in (start(1, seed=k) for k in range(1, 40)) if "Test Double" in zone(s, "acquire_row"))
    pick(st, "^learn", GRYFFINDOR)
    pick(st, "^discard 1 card, take a card from the Acquire Row$")
    pick(st, "^discard Test Card$")
    if offers(st, "^take Test Double$"):
        pick(st, "^take Test Double$")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)                                   # the Dark Arts Player
    top = zone(st, "gryffindor deck")[-1]
    assert top == "Test Double"                      # "placed on the top of the House Player's Draw Deck"
    pick(st, "^replenish", GRYFFINDOR)
    while offers(st, "^discard .* before drawing$"):
        pick(st, "^discard .* before drawing$")
    advance_to(st, GRYFFINDOR)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Double$")
    assert labels(st) == ["one pawn up to 5", "two pawns: 2, then 3", "two pawns: 3, then 2"]
    pick(st, "^two pawns: 2, then 3$")
    pick(st, rf"^move {G1} \(")
    assert destinations(st, G1) == within("great_hall", 2, WALK, {"room_of_requirement"})
    pick(st, rf"^{G1} to entrance_hall$")
    assert not offers(st, rf"^move {G1} \(")          # the second value moves a different pawn
    pick(st, rf"^move {G2} \(")
    assert destinations(st, G2) == within("great_hall", 3, WALK, {"room_of_requirement"})


# ------------------------------------------------------------------ stunning and bumps

def test_gryffindor_stun_worked_example():
    """House Player Turn > Stunning: both pawns stunned; the House Player pushes the Dark Arts Pawn to an adjacent space."""
    st = start(1)
    foe = "dark_arts dark_pawn 4"
    assert space_of(st, foe) == "hogsmeade_road"
    house_move(st, GRYFFINDOR, G1, "hogsmeade_road")
    pushes = {t.split(" to ")[1] for t in labels(st) if t.startswith(f"push {foe} to ")}
    assert pushes == {"broom_shed", "main_gates"}    # its two neighbours, neither a Protected Area
    assert {o["rule"]["name"] for o in st.options()} == {"stun_meeting"}   # offered by the Stunning rule
    assert {o["rule"]["section"] for o in st.options()} == {"House Player Turn > Stunning"}
    pick(st, f"^push {foe} to broom_shed$")
    assert piece_var(st, G1, "stunned") and piece_var(st, foe, "stunned")
    assert space_of(st, foe) == "broom_shed" and space_of(st, G1) == "hogsmeade_road"


def test_a_stunned_pawn_cannot_move_until_replenish():
    """House Player Turn > Stunning; Replenish step 2: stunned pawns stand up."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "hogsmeade_road")
    pick(st, "^push .* to main_gates$")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^move with")
    assert not offers(st, rf"^move {G1} \(") and offers(st, rf"^move {G2} \(")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    pick(st, "^replenish", GRYFFINDOR)
    finish_turn(st, GRYFFINDOR)
    assert not piece_var(st, G1, "stunned")
    assert var(st, "path") == 2   # Replenish step 3: the Dark Arts Marker advances


def test_dark_arts_bump_choice_worked_example():
    """Dark Arts Player Turn > Bumped: the Dark Arts Player picks which pawn; Great Hall; pool; House Marker; 2 cards, keep 1."""
    st = start(4)
    house_move(st, GRYFFINDOR, G1, "quidditch_pitch")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    quiet_turn(st)
    house_move(st, SLYTHERIN, "slytherin student 1", "quidditch_pitch")
    finish_turn(st, SLYTHERIN)
    deck_before = len(zone(st, "dark_arts deck"))
    pick(st, "^explore", DARK)
    pick(st, "^play Test Shadow$")
    pick(st, "^move a Dark Arts Pawn up to 6$")
    pick(st, r"^move dark_arts dark_pawn 3 \(forest_clearing\)")
    pick(st, "^dark_arts dark_pawn 3 to quidditch_pitch$")
    assert labels(st) == [f"bump {G1}", "bump slytherin student 1"]
    pick(st, f"^bump {G1}$")
    assert space_of(st, G1) == "great_hall" and space_of(st, "slytherin student 1") == "quidditch_pitch"
    assert space_of(st, "dark_arts dark_pawn 3") is None
    assert side_var(st, GRYFFINDOR, "marker_taken") and not side_var(st, SLYTHERIN, "marker_taken")
    # two copies of one card drawn: one option (copies of a card are one option)
    assert labels(st) == ["keep Test Reinforcement on the draw deck"]
    pick(st, "^keep ")
    finish_turn(st, DARK)
    assert len(zone(st, "dark_arts deck")) == deck_before + 1
    assert len(view(st)["zones"]["dark_acquire"]["count"] if isinstance(view(st)["zones"]["dark_acquire"], dict)
               else view(st)["zones"]["dark_acquire"]) == 19


def test_every_house_marker_advances_the_dark_arts_marker():
    """Bumped, Note: with every House Marker the marker advances 1 space and the Markers go back."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "quidditch_pitch")
    finish_turn(st, GRYFFINDOR)
    pick(st, "^explore", DARK)
    pick(st, "^play Test Shadow$")
    pick(st, "^move a Dark Arts Pawn up to 6$")
    pick(st, r"^move dark_arts dark_pawn 3 \(")
    pick(st, "^dark_arts dark_pawn 3 to quidditch_pitch$")
    assert var(st, "path") == 2 and not side_var(st, GRYFFINDOR, "marker_taken")


def test_a_reactive_card_cancels_a_bump():
    """House Player Turn > Card Effects: a Reactive Effect is played from the hand when its condition is met."""
    st = start(1, seed=4)
    # Learn the reactive Test Shield from the Acquire Row or deck until it is in hand.
    for _ in range(12):
        if "Test Shield" in zone(st, "gryffindor hand"):
            break
        if st.current_player() == GRYFFINDOR and offers(st, "^learn"):
            pick(st, "^learn")
            pick(st, "^discard 1 card, take a card from the Acquire Row$" if "Test Shield" in zone(st, "acquire_row")
                 else "^discard 1 card, take the top card")
            if offers(st, "^take Test Shield$"):
                pick(st, "^take Test Shield$")
            finish_turn(st, GRYFFINDOR)
            quiet_turn(st)
            pick(st, "^replenish", GRYFFINDOR)
            finish_turn(st, GRYFFINDOR)
        quiet_turn(st)
    if "Test Shield" not in zone(st, "gryffindor hand"):
        pytest.skip("seed did not bring a Test Shield into the hand")
    while st.current_player() != GRYFFINDOR:
        quiet_turn(st)
    house_move(st, GRYFFINDOR, G1, "quidditch_pitch")
    finish_turn(st, GRYFFINDOR)
    assert dark_move(st, "quidditch_pitch") is not None
    pick(st, "^react with Test Shield$", GRYFFINDOR)
    assert space_of(st, G1) == "quidditch_pitch" and not side_var(st, GRYFFINDOR, "marker_taken")


# ------------------------------------------------------------------ the House turn

def test_learn_needs_a_pawn_outside_every_protected_area():
    """House Player Turn > Learn: at least 1 pawn outside any Protected Area."""
    st = start(1)
    assert offers(st, "^learn")
    for pawn in (G1, G2, G3):
        while st.current_player() != GRYFFINDOR:
            quiet_turn(st)
        if not offers(st, "^explore"):
            pick(st, "^replenish")
            finish_turn(st, GRYFFINDOR)
            continue
        house_move(st, GRYFFINDOR, pawn, "headmasters_office")
        finish_turn(st, GRYFFINDOR)
    while st.current_player() != GRYFFINDOR:
        quiet_turn(st)
    assert {space_of(st, p) for p in (G1, G2, G3)} == {"headmasters_office"}
    assert not offers(st, "^learn") and offers(st, "^explore")


def test_play_again_bonus_space_gives_one_more_turn_at_once():
    """Bonus Spaces; Play Again: the House Player takes another turn (at once, not chained: rulings)."""
    st = start(2)
    house_move(st, GRYFFINDOR, G1, "courtyard")
    pick(st, r"^play again \(courtyard\)$")
    finish_turn(st, GRYFFINDOR)
    assert st.current_player() == GRYFFINDOR and offers(st, "^explore")
    house_move(st, GRYFFINDOR, G2, "courtyard")
    assert not offers(st, "^play again")   # an extra turn gives no further one
    finish_turn(st, GRYFFINDOR)
    assert st.current_player() == HUFFLEPUFF


def test_hogwarts_token_taken_then_used_on_a_later_turn():
    """Hogwarts Tokens: take one on landing; from the next turn, return it for an extra Explore with a matching card."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "charms_classroom")
    pick(st, "^take the charms_token$")
    assert space_of(st, "charms_token") is None
    assert not offers(st, "^use the charms_token")          # not on the turn it was taken
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    assert offers(st, "^use the charms_token to explore")   # Test Cards are Charms cards
    pick(st, "^use the charms_token")
    assert space_of(st, "charms_token") == "charms_classroom"
    assert offers(st, "^play Test Card$")


def test_hufflepuff_parchment_scroll_worked_example():
    """Gain a Parchment Scroll: pawns on 2 of the 3 locations; both cards to the bottom; 2 new ones drawn."""
    st = start(2, seed=7)
    quiet_turn(st)                                      # Gryffindor
    locations = zone(st, "hufflepuff locations")
    spaces = [name.removeprefix("Test Location ") for name in locations]
    reach = within("great_hall", 6, WALK, {"room_of_requirement"})
    a, b = [s for s in spaces if s in reach][:2]
    house_move(st, HUFFLEPUFF, "hufflepuff student 1", a)
    finish_turn(st, HUFFLEPUFF)
    quiet_turn(st)
    quiet_turn(st)
    house_move(st, HUFFLEPUFF, "hufflepuff student 2", b)
    while not offers(st, "^gain a Parchment Scroll$"):
        pick(st, "^(leave|keep|do not choose)")
    pick(st, "^gain a Parchment Scroll$")
    finish_turn(st, HUFFLEPUFF)
    assert side_var(st, HUFFLEPUFF, "scrolls") == 1 and var(st, "scrolls_left") == 7
    after = zone(st, "hufflepuff locations")
    assert len(after) == 3 and f"Test Location {a}" not in after and f"Test Location {b}" not in after


# ------------------------------------------------------------------ the Loyalty Track

def test_fifth_space_gives_the_detector_and_reveals_the_room():
    """Hogwarts Loyalty Track; Room of Requirement: fifth space or higher and highest: the Dark Detector; the Room appears."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "kitchens", effect="test: advance 2")
    finish_turn(st, GRYFFINDOR)
    assert side_var(st, GRYFFINDOR, "loyalty") == 3 and var(st, "detector") is None
    quiet_turn(st)
    house_move(st, GRYFFINDOR, G1, "trophy_room", effect="test: advance 2")
    assert side_var(st, GRYFFINDOR, "loyalty") == 5
    assert var(st, "detector") == GRYFFINDOR and var(st, "room_open")


def test_room_of_requirement_gives_a_coin_to_a_pawn_that_enters():
    """Room of Requirement: House Players who enter it when revealed gain a D.A. Coin."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "kitchens", effect="test: advance 2")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^resolve the effect of Test Card, then move$")
    pick(st, "^test: advance 2")
    pick(st, rf"^move {G1} \(")
    assert "room_of_requirement" in destinations(st, G1)
    pick(st, f"^{G1} to room_of_requirement$")
    assert side_var(st, GRYFFINDOR, "coin") and var(st, "coins_left") == 3


def test_slytherin_takes_the_detector_from_ravenclaw_at_the_final_space():
    """Hogwarts Loyalty Track worked example: the hand-over at the final space; Ravenclaw drops back 1 and draws."""
    st = start(4)
    for k in (1, 2, 3):
        quiet_turn(st)                                   # Gryffindor
        quiet_turn(st)                                   # Hufflepuff
        house_move(st, RAVENCLAW, f"ravenclaw student {k}", "kitchens", effect="test: advance 2")
        finish_turn(st, RAVENCLAW)
        if side_var(st, RAVENCLAW, "loyalty") == 5:
            assert var(st, "detector") == RAVENCLAW      # the first to the fifth space
        house_move(st, SLYTHERIN, f"slytherin student {k}", "kitchens", effect="test: advance 2")
        finish_turn(st, SLYTHERIN)
        if 5 <= side_var(st, SLYTHERIN, "loyalty") < 7:
            assert var(st, "detector") == RAVENCLAW      # level with Ravenclaw is not higher
        quiet_turn(st)                                   # the Dark Arts Player
    assert side_var(st, SLYTHERIN, "loyalty") == 7 and var(st, "detector") == SLYTHERIN
    assert side_var(st, RAVENCLAW, "loyalty") == 6


# ------------------------------------------------------------------ the Dark Arts Path and the end

def play_to_path(st, target: int, token_choice: str = "^resolve the Dark Arts part") -> None:
    """House Players Replenish (or play a card) until the marker reaches `target`; the Dark Arts Player plays quietly."""
    while var(st, "path") < target and not st.is_terminal():
        side = st.current_player()
        if side == DARK:
            if offers(st, "^take the .* Progress Token$|^resolve the Dark Arts part"):
                pick(st, token_choice if offers(st, token_choice) else "^(take|resolve)")
            else:
                quiet_turn(st)
        elif offers(st, "^replenish"):
            pick(st, "^replenish")
            if offers(st, "^take the .* Progress Token$|^resolve the Dark Arts part"):
                pick(st, token_choice if offers(st, token_choice) else "^(take|resolve)")
            finish_turn(st, side) if not st.is_terminal() and st.current_player() == side else None
        else:
            quiet_turn(st)
    if not st.is_terminal() and st.current_player() == DARK and offers(st, "^resolve the Dark Arts part"):
        pick(st, token_choice if offers(st, token_choice) else "^(take|resolve)")


def test_event_house_part_then_dark_part_or_the_progress_token():
    """Resolving an Event Card: every House Player resolves the House part, then the Dark Arts Player chooses."""
    st = start(2, log=True)
    pick(st, "^replenish", GRYFFINDOR)
    while offers(st, "before drawing$"):
        pick(st, "^do not choose$")
    assert var(st, "path") == 2 and st.current_player() == DARK
    assert labels(st) == ["take the Giant Progress Token", "resolve the Dark Arts part of Test Event White"]
    parts = [e["event"] for e in st.events if "house part" in e["event"]]
    assert parts == ["white house part for gryffindor", "white house part for hufflepuff"]
    pick(st, "^resolve the Dark Arts part")
    assert not var(st, "giant_taken")


def test_the_token_must_be_taken_at_the_zones_last_event_space():
    """Advancing the Dark Arts Marker: each zone's token before the next zone (forced at its last Event Space)."""
    st = start(1)
    play_to_path(st, 6)          # the Dark Arts Player chooses the event's benefit whenever asked
    assert var(st, "path") == 6 and var(st, "giant_taken")
    assert len(zone(st, "event_discard")) == 3


def test_dementor_token_location_and_pawns_needed():
    """Advancing the Dark Arts Marker; Game End: 3, 2 or 1 pawns depending on the Red Event Space."""
    st = start(1)
    play_to_path(st, 14, token_choice="^take the")
    assert var(st, "dementor_taken") and var(st, "pawns_needed") == 3
    assert zone(st, "dark_target") == ["Test Tomb"]


def test_the_white_tomb_win():
    """Game End worked example: all 3 tokens, location The White Tomb, the required pawns there at once."""
    st = start(1)
    play_to_path(st, 18)         # the Dementor is taken only when forced, at the last space: 1 pawn
    assert var(st, "dementor_taken") and var(st, "pawns_needed") == 1
    needed = var(st, "pawns_needed")
    for _ in range(60):
        if st.is_terminal():
            break
        if st.current_player() == DARK and offers(st, "^(explore|play )"):
            dark_move(st, "the_white_tomb")
            finish_turn(st, DARK)
        else:
            quiet_turn(st)
    assert st.is_terminal() and st.returns()[DARK] == 1.0
    assert sum(1 for p, d in view(st)["pieces"].items() if p.startswith("dark_arts") and d["space"] == "the_white_tomb") >= needed


def test_last_space_then_a_draw_when_everyone_runs_out_of_cards():
    """Advancing the Dark Arts Marker; Game End: after the last space no Replenish; all cards played: a draw."""
    st = start(1)
    play_to_path(st, 18)
    assert var(st, "final_phase")
    assert not offers(st, "^replenish")
    for _ in range(200):
        if st.is_terminal():
            break
        quiet_turn(st)
    assert st.is_terminal() and st.returns() == [0.0] * 5


def test_dark_arts_effects_unlock_with_the_markers_zone():
    """Dark Arts Player Turn > Card Effects: an orange effect is ignored in the White Zone, usable from the Orange Zone."""
    st = start(1)
    quiet_turn(st)
    pick(st, "^explore", DARK)
    pick(st, "^play Test Shadow$")
    assert not offers(st, "resolve the effect")          # orange, the marker is white
    finish_turn(st, DARK)
    play_to_path(st, 7)
    while st.current_player() != DARK:
        quiet_turn(st)
    if not offers(st, "^explore"):
        pick(st, "^replenish")
        finish_turn(st, DARK)
        while st.current_player() != DARK:
            quiet_turn(st)
    pick(st, "^explore", DARK)
    pick(st, "^play Test Shadow$")
    assert offers(st, "^resolve the effect of Test Shadow, then move$")


def test_hufflepuff_win_worked_example():
    """Game End; Collecting a Defence Shield: a Library Book, a Parchment Scroll and the Dark Detector or a
    D.A. Coin, exchanged on a Shield Space; the second Shield wins. The Book goes to the Library's discard."""
    st = start(2, seed=11)
    H = HUFFLEPUFF
    shields = {d["space"]: p for p, d in view(st)["pieces"].items() if "shield_" in p}
    detector_space = next(s for s, p in shields.items() if p.startswith("detector"))
    coin_space = next(s for s, p in shields.items() if p.startswith("coin"))

    def turn(to, effect=None, then=(), keep=()):
        scripted_turn(st, H, to, effect, tuple(then), keep)

    def scroll():
        scripted_scroll(st, H)

    def refill():
        refill_hand(st, H)

    turn("library", effect="test: advance 2", then=["^take the Library Book"])        # loyalty 3, a Book
    scroll()                                                                          # a Parchment Scroll
    refill()
    turn("kitchens" if detector_space != "kitchens" else "entrance_hall", effect="test: advance 2")   # 5: the Detector
    assert var(st, "detector") == H
    refill()
    turn(detector_space, then=["^exchange a Library Book, a Parchment Scroll and the Dark Detector"])
    assert side_var(st, H, "shields") == 1 and var(st, "detector") is None
    assert side_var(st, H, "loyalty") == 2 and zone(st, "library_discard") == ["Test Book"]
    refill()
    turn("library", effect="test: advance 2", then=["^take the Library Book"])        # 4, a second Book
    refill()
    turn("kitchens" if coin_space != "kitchens" else "entrance_hall", effect="test: advance 2")   # 6: the Room opens
    refill()
    turn("room_of_requirement")
    assert side_var(st, H, "coin")
    scroll()
    refill()
    turn(coin_space, then=["^exchange a Library Book, a Parchment Scroll and a D.A. Coin"])
    assert st.is_terminal() and st.returns()[H] == 1.0 and st.returns()[DARK] == -1.0


def test_unchosen_houses_get_no_result():
    """Game Set Up > House Player Board Set Up: the unchosen houses play no part: never asked, and
    when the Dark Arts Player wins the chosen Houses lose while the unchosen ones get nothing."""
    st = start(2)
    play_to_path(st, 18)
    for _ in range(80):
        if st.is_terminal():
            break
        assert st.current_player() in (DARK, GRYFFINDOR, HUFFLEPUFF)
        if st.current_player() == DARK and offers(st, "^(explore|play )"):
            dark_move(st, "the_white_tomb")
            finish_turn(st, DARK)
        else:
            quiet_turn(st)
    assert st.returns() == [1.0, -1.0, -1.0, 0.0, 0.0]


def test_the_white_tomb_win_with_two_pawns_worked_example():
    """Game End worked example: the Dementor taken at the second Red Event Space, so 2 pawns; one already in
    The White Tomb, the second lands there: the Dark Arts Player wins."""
    st = start(1)
    play_to_path(st, 15, token_choice="^resolve the Dark Arts part")
    assert not var(st, "dementor_taken")
    play_to_path(st, 16, token_choice="^take the")
    assert var(st, "dementor_taken") and var(st, "pawns_needed") == 2
    pawns_at_tomb = lambda: sum(1 for p, d in view(st)["pieces"].items()   # noqa: E731
                                if p.startswith("dark_arts") and d["space"] == "the_white_tomb")
    for _ in range(60):
        if st.is_terminal():
            break
        if st.current_player() == DARK and offers(st, "^(explore|play )"):
            dark_move(st, "the_white_tomb")
            if pawns_at_tomb() == 1:
                assert not st.is_terminal()       # one pawn is not enough at the second Red Event Space
            finish_turn(st, DARK)
        else:
            quiet_turn(st)
    assert st.is_terminal() and st.returns()[DARK] == 1.0 and pawns_at_tomb() == 2


def test_no_move_ends_where_the_pawn_started_the_turn():
    """Glossary, Backtrack: a pawn's movement in a turn does not end on the space it started the turn on."""
    st = start(1)
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^move, then resolve the effect of Test Card$")
    pick(st, rf"^move {G1} \(")
    pick(st, rf"^{G1} to kitchens$")
    pick(st, "^leave the bonus")
    pick(st, "^test: move a pawn up to 2 more$")
    pick(st, rf"^move {G1} \(kitchens\)")
    got = destinations(st, G1)
    assert "great_hall" not in got and "grand_staircase" in got    # one step back would end where it began
    pick(st, rf"^{G1} to grand_staircase$")
    finish_turn(st, GRYFFINDOR)
    quiet_turn(st)
    # the next turn starts on the Grand Staircase: the Great Hall is open again
    pick(st, "^explore", GRYFFINDOR)
    pick(st, "^play Test Card$")
    pick(st, "^move with")
    pick(st, rf"^move {G1} \(")
    assert "great_hall" in destinations(st, G1)


def test_a_relinquished_detector_passes_to_the_player_on_the_fifth_space():
    """Using the Dark Detector: the holder drops back 3; another player already on the fifth space or higher
    receives it at once. (Hufflepuff holds it first; Ravenclaw, level on 5, is not higher and waits.)"""
    st = start(3, seed=11)
    H, R = HUFFLEPUFF, RAVENCLAW
    shields = {d["space"]: p for p, d in view(st)["pieces"].items() if "shield_" in p}
    detector_space = next(s for s, p in shields.items() if p.startswith("detector"))
    away = "kitchens" if detector_space != "kitchens" else "entrance_hall"
    scripted_turn(st, H, "library", effect="test: advance 2", then=("^take the Library Book",))
    scripted_turn(st, R, away, effect="test: advance 2")
    scripted_scroll(st, H)
    refill_hand(st, H)
    scripted_turn(st, H, away, effect="test: advance 2")
    assert var(st, "detector") == H
    scripted_turn(st, R, "trophy_room", effect="test: advance 2")
    assert side_var(st, R, "loyalty") == 5 and var(st, "detector") == H
    refill_hand(st, H)
    scripted_turn(st, H, detector_space, then=("^exchange a Library Book, a Parchment Scroll and the Dark Detector",))
    assert side_var(st, H, "shields") == 1 and side_var(st, H, "loyalty") == 2
    assert var(st, "detector") == R


def test_a_bumped_stunned_pawn_stays_stunned():
    """Bumped; Stunning: the bump sends the pawn to the Great Hall; only Replenish or an effect stands it up."""
    st = start(1)
    house_move(st, GRYFFINDOR, G1, "hogsmeade_road")
    pick(st, "^push .* to main_gates$")
    finish_turn(st, GRYFFINDOR)
    assert piece_var(st, G1, "stunned")
    assert dark_move(st, "hogsmeade_road") is not None
    finish_turn(st, DARK)
    assert space_of(st, G1) == "great_hall" and piece_var(st, G1, "stunned")
    assert var(st, "path") == 2          # the only House's Marker: every Marker, so the marker advanced


def test_a_reactive_card_negates_a_dark_arts_effect_aimed_at_you():
    """Glossary, Targets; House Player Turn > Card Effects: a Reactive card negates an effect aimed at its player."""
    for seed in range(1, 30):
        st = start(1, seed=seed)
        if "Test Ward" in zone(st, "acquire_row") and "Test Hex" in zone(st, "dark_arts hand"):
            break
    else:
        pytest.fail("no seed shows a Test Ward and deals the Test Hex")
    pick(st, "^learn", GRYFFINDOR)
    pick(st, "^discard 1 card, take a card from the Acquire Row$")
    pick(st, "^discard Test Card$")
    if offers(st, "^take Test Ward$"):
        pick(st, "^take Test Ward$")
    finish_turn(st, GRYFFINDOR)
    pick(st, "^explore", DARK)                         # the Dark Arts Player keeps the Hex
    pick(st, "^play Test Shadow$")
    finish_turn(st, DARK)
    pick(st, "^replenish", GRYFFINDOR)                 # the Ward, on top of the deck, comes to hand
    while offers(st, "before drawing$"):
        pick(st, "^do not choose$")
    pick(st, "^resolve the Dark Arts part", DARK)    # the Replenish reached the first Event Space
    advance_to(st, DARK)
    assert "Test Ward" in zone(st, "gryffindor hand")
    pick(st, "^explore", DARK)
    pick(st, "^play Test Hex$")
    pick(st, "^resolve the effect of Test Hex, then move$")
    pick(st, f"^stun {G1} ")
    assert labels(st) == ["react with Test Ward", "do not choose"] and st.current_player() == GRYFFINDOR
    pick(st, "^react with Test Ward$")
    assert not piece_var(st, G1, "stunned") and "Test Ward" in zone(st, "gryffindor discard")
