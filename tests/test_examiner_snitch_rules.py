"""Snitch Snatcher rulebook checks (examiner), from rulebook + public docs only."""
import pytest
from games.examiner_snitch import *

def turn(zones=None, **kw):
    z = {"home skill_deck": ["Offense Skill"] * 3, "away skill_deck": ["Offense Skill"] * 3}
    z.update(zones or {})
    s = pos(zones=z, **kw)
    draw_skill(s)
    return s

# ---------- Set up / To Begin a Game ----------
def test_setup_starting_positions():
    s = new_game(game(), seed=5)
    pc = P(s)["pieces"]
    for k, v in START.items():
        if k not in ("quaffle", "snitch"):
            assert pc[k] == v, k

def test_beaters_directly_behind_two_chasers():
    # Set Up 1: "Beaters start ... directly behind two of the Chasers", on light spaces
    assert START["home beater 1"][0] == START["home chaser 1"][0]
    # light: (col + row) odd
    for b in ("home beater 1", "home beater 2", "away beater 1", "away beater 2"):
        sp = START[b]; c = ord(sp[0]) - 97; r = int(sp[1:])
        assert (c + r) % 2 == 1

def _play_to_first_turn(seed, first_roll=(6, 2)):
    s = new_game(game(), seed=seed)
    rolls = list(first_roll)
    while True:
        if s.is_chance_node():
            if s.options()[0]["rule"]["name"] == "roll_off" and rolls:
                roll(s, rolls.pop(0))
            else:
                s.apply_action(s.sample_chance())
        elif find(s, label="draw"):
            return s
        else:
            s.apply_action_id(s.options()[0]["id"])

def test_opening_hand_four_action_cards_no_spot():
    for seed in range(1, 8):
        s = _play_to_first_turn(seed)
        z = P(s)["zones"]
        for side in ("home", "away"):
            assert len(z[f"{side} hand"]) == 4
            assert not any("Spot the Golden Snitch" in c for c in z[f"{side} hand"])
            assert z[f"{side} skills"] == []

def test_first_roll_winner_gets_first_turn_and_quaffle_on_forward_chaser():
    s = _play_to_first_turn(3, (2, 5))   # home rolls 2, away 5 (home rolls first assumed)
    q = P(s)["pieces"]["quaffle"]
    assert q and q["carried_by"].startswith("away chaser")
    assert s.current_player() == 1
    s = _play_to_first_turn(3, (5, 2))
    q = P(s)["pieces"]["quaffle"]
    assert q["carried_by"].startswith("home chaser")
    assert s.current_player() == 0

# ---------- Turn sequence ----------
def test_draw_step_offers_action_or_skill():
    s = pos(zones={"home skill_deck": ["Offense Skill"], "home action_deck": ["Fly Sideways"]})
    assert sorted(labels(s)) == ["draw a skill card", "draw an action card"]

def test_skill_card_drawn_goes_face_up_in_front():
    s = pos(zones={"home skill_deck": ["Defense Skill"]})
    draw_skill(s)
    assert P(s)["zones"]["home skills"] == ["Defense Skill"]
    assert P(s)["zones"]["home hand"] == []

def test_action_card_drawn_goes_to_hand_hidden():
    s = pos(zones={"home action_deck": ["Fly Sideways"]})
    draw_action(s)
    assert P(s)["zones"]["home hand"] == ["Fly Sideways"]
    obs = s.position(for_side=1)["zones"]["home hand"]
    assert obs != ["Fly Sideways"]
    assert s.position(for_side=0)["zones"]["home hand"] == ["Fly Sideways"]
    assert s.observation(0)["zones"]["home hand"] == ["Fly Sideways"]
    assert s.observation(1)["zones"]["home hand"] != ["Fly Sideways"]

def test_two_pitch_plays_then_turn_passes():
    s = turn()
    act(s, rule="move_player", p="home chaser 1", to="c6")
    assert s.current_player() == 0
    act(s, rule="move_player", p="home chaser 3", to="e6")
    assert s.current_player() == 1

def test_player_cannot_move_twice():
    s = turn()
    act(s, rule="move_player", p="home chaser 1", to="c6")
    assert moves(s, "home chaser 1") == []

def test_player_can_move_and_pass_same_turn():
    s = turn()
    act(s, rule="move_player", p="home chaser 2", to="c6")
    assert ("home chaser 2", "home chaser 1") in passes(s)

def test_receiver_of_pass_may_still_move():
    s = turn()
    act(s, rule="pass_quaffle", p="home chaser 2", r="home chaser 1")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}
    assert "c6" in moves(s, "home chaser 1")

def test_card_play_only_before_pitch_plays():
    s = turn(pieces={"home chaser 1": "a4"}, zones={"home hand": ["Fly Sideways"], "home skills": ["Offense Skill"]})
    assert find(s, label="Fly Sideways"), labels(s)[:5]
    assert find(s, label="do not choose")          # Step 2 is optional
    act(s, label="do not choose")
    act(s, rule="move_player", p="home chaser 2", to="c6")
    assert not find(s, label="Fly Sideways")
    assert find(s, rule="move_player")

def test_card_needs_enough_skill_cards():
    s = turn(zones={"home hand": ["Fly Sideways"], "home skills": []})
    # drew an Offense Skill in turn(); so remove: use a defense skill deck
    s = pos(zones={"home hand": ["Fly Sideways"], "home skill_deck": ["Defense Skill"]})
    draw_skill(s)
    assert not find(s, label="Fly Sideways")

def test_card_needs_skill_of_the_same_colour():
    s = pos(zones={"home hand": ["Keeper Defense", "Fly Sideways"], "home skills": ["Defense Skill"] * 3,
                   "home skill_deck": ["Wizardry Skill"]})
    draw_skill(s)
    assert not find(s, label="Fly Sideways")

def test_fly_sideways_moves_chaser_two_left_or_right():
    s = turn(pieces={"home chaser 1": "c4"}, zones={"home hand": ["Fly Sideways"]})
    o = find(s, label="Fly Sideways")
    s.apply_action_id(o[0]["id"])
    c = find(s, label="home chaser 1")
    assert c, labels(s)
    s.apply_action_id(c[0]["id"])
    ls = labels(s)
    assert sorted(l.split(" to ")[-1] for l in ls) == ["a4", "e4"], ls
    act(s, label="to a4")
    assert where(s, "home chaser 1") == "a4"
    # the card move is not a pitch play (ruling 37): still two plays
    assert P(s)["vars"]["plays_left"] == 2

def test_only_one_action_card_per_turn():
    s = turn(pieces={"home chaser 1": "a4"}, zones={"home hand": ["Fly Sideways", "Fly Sideways"], "home skills": ["Offense Skill"]})
    o = find(s, label="Fly Sideways")
    s.apply_action_id(o[0]["id"])
    for _ in range(3):
        if find(s, rule="move_player"):
            break
        s.apply_action_id(s.options()[0]["id"])
    assert not find(s, label="Fly Sideways")
    assert len(P(s)["zones"]["home hand"]) == 1

def test_played_action_card_goes_to_discard():
    s = turn(pieces={"home chaser 1": "a4"}, zones={"home hand": ["Fly Sideways"]})
    s.apply_action_id(find(s, label="Fly Sideways")[0]["id"])
    for _ in range(3):
        if find(s, rule="move_player"):
            break
        s.apply_action_id(s.options()[0]["id"])
    assert P(s)["zones"]["home discard"] == ["Fly Sideways"]

# ---------- Chasers ----------
def test_chaser_moves_up_to_three_diagonal_on_dark():
    s = turn(pieces={"home chaser 1": "d7", "away chaser 3": "g12", "away chaser 1": "a12", "home chaser 2": "a4", "home chaser 3": "g4",
                     "home beater 1": "a2", "home beater 2": "g2", "quaffle": "holder:home chaser 2"})
    m = moves(s, "home chaser 1")
    for sq in m:
        c = ord(sq[0]) - 97; r = int(sq[1:])
        assert (c + r) % 2 == 0, sq
        assert max(abs(c - 3), abs(r - 7)) <= 3
    assert "d8" not in m and "e7" not in m      # orthogonal
    assert "g10" in m and "a4" not in m and "g4" not in m
    assert "a10" in m and "d9" not in m and "b9" in m  # d9 occupied by away chaser 2

def test_chaser_three_steps_exact_reach():
    s = turn(pieces={"home chaser 1": "d7", "away chaser 3": "g12"})
    m = moves(s, "home chaser 1")
    assert "g10" in m        # 3 straight diagonal
    assert "c12" not in m    # too far (5 rows)
    assert "b11" not in m    # 4 rows

def test_chaser_cannot_move_through_occupied():
    # chaser at a6; b7 blocked -> c8 reached only via b7 (or b5 zigzag? b5-> c6? no: c8 from a6 needs b7)
    s = turn(pieces={"home chaser 1": "a6", "home beater 1": "b7", "home chaser 2": "b5", "quaffle": "holder:home chaser 2"})
    m = moves(s, "home chaser 1")
    assert "b7" not in m and "c8" not in m and "d9" not in m

def test_chaser_blocked_by_opponent_too():
    s = turn(pieces={"home chaser 1": "a6", "away beater 1": "b7", "home chaser 2": "b5",
                     "quaffle": "holder:home chaser 2"})
    m = moves(s, "home chaser 1")
    assert "b7" not in m and "c8" not in m

def test_chaser_cannot_enter_own_keeper_area():
    s = turn(pieces={"home chaser 1": "b3"})
    m = moves(s, "home chaser 1")
    assert not any(sq.endswith("2") and len(sq) == 2 for sq in m)
    assert not any(sq[1:] == "1" for sq in m)

def test_chaser_may_enter_opponent_keeper_area():
    s = turn(pieces={"home chaser 1": "c10", "away chaser 1": "a9", "away beater 1": "a10", "away chaser 2": "g9"})
    m = moves(s, "home chaser 1")
    assert "c12" in m or "e12" in m

def test_chaser_does_not_knock_off():
    s = turn(pieces={"home chaser 1": "c8"})
    assert "d9" not in moves(s, "home chaser 1") and "b9" not in moves(s, "home chaser 1")

def test_chaser_without_quaffle_never_on_goal_space():
    s = turn(pieces={"home chaser 1": "c12", "away keeper": "f13", "home chaser 2": "d5"})
    m = moves(s, "home chaser 1")
    assert "b13" not in m and "d13" not in m

# ---------- Beaters ----------
def test_beater_two_orthogonal_any_green():
    s = turn(pieces={"home beater 1": "d4"})
    m = moves(s, "home beater 1")
    assert "d3" in m and "d2" in m and "c4" in m and "b4" in m and "e4" in m and "f4" not in m
    assert "c3" in m   # corner per ruling 5
    assert "d6" not in m  # d5 occupied
    assert "e5" in m   # via e4
    assert "d1" not in m  # goal space + occupied

def test_beater_no_diagonal_single_step():
    s = turn(pieces={"home beater 1": "d3"})
    m = moves(s, "home beater 1")
    # c2 is reachable by corner d2-c2 or c3-c2; fine. but 3-step squares excluded
    assert "a3" not in m and "d6" not in m

def test_beater_never_on_goal_space():
    s = turn(pieces={"home beater 1": "b2", "home keeper": "f1"})
    m = moves(s, "home beater 1")
    assert "b1" not in m and "d1" not in m

def test_beater_knocks_off_opposing_chaser():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    assert where(s, "home beater 1") == "d8"
    assert where(s, "away chaser 2") is None

def test_beater_knocks_off_opposing_beater():
    s = turn(pieces={"home beater 1": "b8", "away beater 1": "b9", "away chaser 1": "a9"})
    assert "b9" in moves(s, "home beater 1")

def test_beater_cannot_knock_keeper():
    s = turn(pieces={"home beater 1": "d11", "away keeper": "c12"})
    m = moves(s, "home beater 1")
    assert "c12" not in m
    assert "d12" in m

def test_beater_cannot_knock_own_player():
    s = turn(pieces={"home beater 1": "d4"})
    assert "d5" not in moves(s, "home beater 1")

def test_beater_knock_off_two_steps_away():
    s = turn(pieces={"home beater 1": "d6", "away chaser 2": "d8"})
    assert "d8" in moves(s, "home beater 1")

# ---------- Keeper ----------
def test_keeper_moves_two_diagonal_within_goal_and_keeper_area():
    s = turn()
    assert moves(s, "home keeper") == ["b1", "c2", "e2", "f1"]

def test_keeper_cannot_leave_keeper_area():
    s = turn(pieces={"home keeper": "c2"})
    m = moves(s, "home keeper")
    assert all(sq[1:] in ("1", "2") for sq in m), m
    assert "b3" not in m and "d3" not in m

def test_keeper_knocks_opponent_in_keeper_area():
    s = turn(pieces={"away chaser 1": "c2", "quaffle": "holder:home chaser 2"})
    act(s, rule="move_player", p="home keeper", to="c2")
    assert where(s, "away chaser 1") is None

def test_keeper_move_light_keeper_area_not_reachable():
    s = turn()
    m = moves(s, "home keeper")
    assert "b2" not in m and "d2" not in m

# ---------- Knock-offs ----------
def test_knocked_off_player_returns_at_start_of_next_turn():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    act(s, rule="move_player", p="home chaser 1", to="c6")
    # away's turn starts: away chaser 2 returns to d9
    assert s.current_player() == 1
    assert where(s, "away chaser 2") == "d9"

def test_knocked_off_player_out_until_own_turn():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    assert where(s, "away chaser 2") is None
    # the second play of home: away chaser 2 still off
    act(s, rule="move_player", p="home chaser 1", to="c6")

def test_knocked_carrier_quaffle_goes_to_closest_opposing_chaser():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8", "quaffle": "holder:away chaser 2",
                     "home chaser 1": "c6", "home chaser 2": "b3", "home chaser 3": "g4"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    # might be a choice if tie; here c6 is closest (2 king steps)
    for _ in range(3):
        if where(s, "quaffle") and where(s, "quaffle").get("carried_by", "").startswith("home"):
            break
        if s.options() and s.current_player() == 0 and find(s, label="home chaser 1"):
            act(s, label="home chaser 1")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}

def test_returned_player_goes_to_start_space_even_if_it_was_the_own():
    s = turn(pieces={"home beater 1": "b8", "away beater 1": "b9", "away chaser 1": "a10"})
    act(s, rule="move_player", p="home beater 1", to="b9")
    act(s, rule="move_player", p="home chaser 1", to="c6")
    assert where(s, "away beater 1") in ("b10", "f10") or where(s, "away beater 1") is None

# ---------- Passing ----------
def test_pass_not_across_middle_line():
    s = turn(pieces={"home chaser 1": "c8", "quaffle": "holder:home chaser 2"})
    assert ("home chaser 2", "home chaser 1") not in passes(s)
    assert ("home chaser 2", "home chaser 3") in passes(s)

def test_chaser_on_middle_line_passes_anywhere():
    s = turn(pieces={"home chaser 1": "c8", "home chaser 2": "d7", "quaffle": "holder:home chaser 2"})
    assert ("home chaser 2", "home chaser 1") in passes(s)
    assert ("home chaser 2", "home chaser 3") in passes(s)

def test_chaser_on_middle_line_receives_from_anywhere():
    s = turn(pieces={"home chaser 1": "c8", "home chaser 2": "d7", "quaffle": "holder:home chaser 1"})
    assert ("home chaser 1", "home chaser 2") in passes(s)

def test_pass_only_to_chasers_not_beaters_or_seekers():
    s = turn()
    rs = {r for _, r in passes(s)}
    assert rs <= {"home chaser 1", "home chaser 3"}

def test_no_pass_to_opponent():
    s = turn(pieces={"away chaser 1": "c6"})
    assert all(r.startswith("home") for _, r in passes(s))

def test_only_carrier_passes():
    s = turn()
    assert {p for p, _ in passes(s)} == {"home chaser 2"}

# ---------- Goals ----------
def _goal_setup(**extra):
    pieces = {"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"}
    pieces.update(extra)
    return turn(pieces=pieces)

def test_chaser_with_quaffle_scores_on_open_goal_space():
    s = _goal_setup()
    m = moves(s, "home chaser 1")
    assert "b13" in m and "d13" in m and "f13" not in m

def test_goal_scores_10_and_resets_and_ends_turn():
    s = _goal_setup()
    act(s, rule="move_player", p="home chaser 1", to="d13")
    # away may be offered an interrupt (no cards in hand: none)
    sv = P(s)["side_vars"]
    assert sv["score"]["home"] == 10
    assert sv["goals_scored"]["home"] == 1
    pc = P(s)["pieces"]
    for k in ("home chaser 1", "home chaser 2", "home chaser 3", "away keeper", "home keeper", "away beater 1"):
        assert pc[k] == START[k], k
    assert s.current_player() == 1
    assert all("give the quaffle to away chaser" in l for l in labels(s)), labels(s)
    act(s, label="away chaser 3")
    assert where(s, "quaffle") == {"carried_by": "away chaser 3"}

def test_goal_attempt_as_first_play_ends_turn():
    s = _goal_setup()
    act(s, rule="move_player", p="home chaser 1", to="b13")
    assert s.current_player() != 0

def test_goal_reset_keeps_seekers():
    s = _goal_setup(**{"home seeker": "t3", "away seeker": "t19"})
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert where(s, "home seeker") == "t3" and where(s, "away seeker") == "t19"

def test_goal_on_own_goal_not_allowed():
    s = turn(pieces={"home chaser 1": "c4", "quaffle": "holder:home chaser 1", "home keeper": "f1"})
    m = moves(s, "home chaser 1")
    assert "b1" not in m and "d1" not in m

def test_game_over_at_three_goals():
    s = pos(pieces={"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"},
            zones={"home skill_deck": ["Offense Skill"]},
            side_vars={"score": {"home": 20, "away": 0}, "goals_scored": {"home": 2, "away": 0}})
    draw_skill(s)
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert s.is_terminal()
    assert s.returns()[0] > s.returns()[1]

def test_game_not_over_at_three_goals_with_five_option():
    s = pos(options={"goals_to_win": 5}, pieces={"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"},
            zones={"home skill_deck": ["Offense Skill"]},
            side_vars={"score": {"home": 20, "away": 0}, "goals_scored": {"home": 2, "away": 0}})
    draw_skill(s)
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert not s.is_terminal()

def test_goal_blocked_by_keeper_defense():
    s = turn(pieces={"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"},
             zones={"away hand": ["Keeper Defense"], "away skills": ["Defense Skill"] * 4})
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert s.current_player() == 1
    c = find(s, label="Keeper Defense")
    assert c, labels(s)
    s.apply_action_id(c[0]["id"])
    for _ in range(3):
        if s.current_player() == 1 and find(s, label="draw"):
            break
        if s.is_terminal(): break
        if s.current_player() == 0 and not find(s, label="draw"):
            s.apply_action_id(s.options()[0]["id"])
        else:
            break
    pc = P(s)["pieces"]
    assert pc["quaffle"] == {"carried_by": "away keeper"}
    assert P(s)["side_vars"]["score"]["home"] == 0
    assert pc["home chaser 1"] in ("b5", "d5", "f5", None)
    assert P(s)["zones"]["away discard"] == ["Keeper Defense"]

def test_keeper_defense_needs_four_defense_skills():
    s = turn(pieces={"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"},
             zones={"away hand": ["Keeper Defense"], "away skills": ["Defense Skill"] * 3})
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert P(s)["side_vars"]["score"]["home"] == 10

def test_keeper_with_quaffle_must_pass_to_chaser():
    s = pos(current="away", pieces={"quaffle": "holder:away keeper"},
            zones={"away skill_deck": ["Offense Skill"]})
    draw_skill(s)
    ps = passes(s)
    assert ps and all(p == "away keeper" for p, _ in ps)
    assert all(r.startswith("away chaser") for _, r in ps)

def test_keeper_pass_not_across_middle_line():
    s = pos(current="away", pieces={"quaffle": "holder:away keeper", "away chaser 1": "b7",
                                   "away chaser 2": "c6", "away chaser 3": "e6"},
            zones={"away skill_deck": ["Offense Skill"]})
    draw_skill(s)
    rs = {r for _, r in passes(s)}
    assert "away chaser 2" not in rs and "away chaser 3" not in rs
    assert "away chaser 1" in rs

# ---------- Hand limit ----------
def test_hand_limit_seven_at_end_of_turn():
    hand = ["Fly Sideways", "Quick Pass", "Immobilus", "Burst of Speed", "Accio Quaffle", "Confundo", "Power Dive"]
    s = pos(zones={"home hand": hand, "home action_deck": ["Barrel Roll"]})
    draw_action(s)
    assert len(P(s)["zones"]["home hand"]) == 8
    act(s, rule="move_player", p="home chaser 1", to="c6")
    act(s, rule="move_player", p="home chaser 3", to="e6")
    # now home must discard one
    assert s.current_player() == 0, labels(s)
    s.apply_action_id(s.options()[0]["id"])
    assert len(P(s)["zones"]["home hand"]) == 7
    assert len(P(s)["zones"]["home discard"]) == 1

def test_hand_of_seven_keeps_all():
    hand = ["Fly Sideways", "Quick Pass", "Immobilus", "Burst of Speed", "Accio Quaffle", "Confundo"]
    s = pos(zones={"home hand": hand, "home action_deck": ["Barrel Roll"]})
    draw_action(s)
    act(s, rule="move_player", p="home chaser 1", to="c6")
    act(s, rule="move_player", p="home chaser 3", to="e6")
    assert s.current_player() == 1
    assert len(P(s)["zones"]["home hand"]) == 7

def test_empty_action_deck_reshuffles_discard():
    s = pos(zones={"home action_deck": [], "home discard": ["Fly Sideways", "Confundo"], "home skill_deck": []})
    assert find(s, label="draw an action card")
    draw_action(s)
    while s.is_chance_node():
        s.apply_action(s.sample_chance())
    z = P(s)["zones"]
    assert len(z["home hand"]) == 1 and z["home discard"] == [] and len(z["home action_deck"]) == 1

def test_skill_cards_never_discarded():
    s = pos(pieces={"home chaser 1": "a4"}, zones={"home skills": ["Offense Skill"] * 2, "home hand": ["Fly Sideways"], "home skill_deck": ["Offense Skill"]})
    draw_skill(s)
    s.apply_action_id(find(s, label="Fly Sideways")[0]["id"])
    assert P(s)["zones"]["home skills"] == ["Offense Skill"] * 3

# ---------- Spot the Golden Snitch ----------
def _spot(card="Spot the Golden Snitch (north)", hs="t4", as_="t18"):
    s = pos(zones={"home action_deck": ["Confundo", card]}, pieces={"home seeker": hs, "away seeker": as_})
    draw_action(s)
    return s

def test_spot_exact_roll_catches_and_wins_150():
    s = _spot(); roll(s, 3)
    assert s.is_terminal()
    assert P(s)["side_vars"]["score"]["home"] == 150
    assert s.returns()[0] > s.returns()[1]

def test_spot_overshoot_does_not_advance():
    s = _spot(); roll(s, 6)
    assert where(s, "home seeker") == "t4"

def test_spot_short_roll_advances_toward():
    s = _spot(); roll(s, 2)
    assert where(s, "home seeker") == "t2"

def test_spot_both_seekers_roll():
    s = _spot(); roll(s, 2)
    assert s.is_chance_node()
    roll(s, 2)
    assert where(s, "away seeker") == "t20"

def test_spot_away_catches_on_home_draw():
    s = _spot(); roll(s, 1); roll(s, 3)
    assert s.is_terminal() and s.returns()[1] > s.returns()[0]
    assert P(s)["side_vars"]["score"]["away"] == 150

def test_spot_then_draw_another_card_and_complete_turn():
    s = _spot(); roll(s, 1); roll(s, 1)
    assert P(s)["zones"]["home hand"] == [] or True
    assert s.current_player() == 0
    # draws another card
    assert find(s, label="draw"), labels(s)
    draw_action(s)
    assert P(s)["zones"]["home hand"] == ["Confundo"]
    assert find(s, rule="move_player")

def test_spot_south_snitch_placed_at_south():
    s = _spot("Spot the Golden Snitch (south)", hs="t8", as_="t14")
    roll(s, 3)
    assert s.is_terminal()

def test_seeker_cannot_cross_snitch():
    s = _spot(hs="t2", as_="t16"); roll(s, 4)
    assert where(s, "home seeker") == "t2"

def test_seekers_make_no_pitch_play():
    s = turn()
    assert moves(s, "home seeker") == []

def test_spot_drawn_at_open_is_put_back():
    # covered by opening hand check; plus spot cards never in hand at turn 1
    test_opening_hand_four_action_cards_no_spot()


def test_pitch_plays_compulsory_no_skip_option():
    s = turn()
    assert all(o["rule"]["name"] in ("move_player", "pass_quaffle") for o in s.options()), labels(s)
    act(s, rule="move_player", p="home chaser 1", to="c6")
    assert all(o["rule"]["name"] in ("move_player", "pass_quaffle") for o in s.options()), labels(s)

def test_draw_compulsory_no_skip():
    s = pos(zones={"home skill_deck": ["Offense Skill"], "home action_deck": ["Fly Sideways"]})
    assert all(o["rule"]["name"] == "draw_step" for o in s.options())

def test_interrupt_card_not_played_on_own_turn():
    s = turn(pieces={"home chaser 1": "a4"}, zones={"home hand": ["Keeper Defense"], "home skills": ["Defense Skill"] * 5})
    assert not find(s, label="Keeper Defense")

def test_keeper_knocks_opposing_beater_on_dark_keeper_area_space():
    s = turn(pieces={"away beater 1": "c2", "away chaser 1": "a10"})
    assert "c2" in moves(s, "home keeper")
    act(s, rule="move_player", p="home keeper", to="c2")
    assert where(s, "away beater 1") is None

def test_keeper_knocking_carrier_gives_quaffle_to_keepers_team_chaser():
    s = turn(pieces={"away chaser 1": "c2", "quaffle": "holder:away chaser 1", "home chaser 1": "b3",
                     "home chaser 2": "d7", "home chaser 3": "g8"})
    act(s, rule="move_player", p="home keeper", to="c2")
    for _ in range(2):
        if find(s, label="give the quaffle"):
            act(s, label="home chaser 1")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}

def test_keeper_with_quaffle_does_not_move():
    s = pos(current="away", pieces={"quaffle": "holder:away keeper"}, zones={"away skill_deck": ["Offense Skill"]})
    draw_skill(s)
    assert moves(s, "away keeper") == []

def test_seeker_catch_wins_even_when_behind_on_goals():
    s = pos(zones={"home action_deck": ["Confundo", "Spot the Golden Snitch (north)"]},
            pieces={"home seeker": "t4", "away seeker": "t18"},
            side_vars={"score": {"home": 0, "away": 20}, "goals_scored": {"home": 0, "away": 2}})
    draw_action(s); roll(s, 3)
    assert s.is_terminal() and s.returns()[0] > s.returns()[1]
    assert P(s)["side_vars"]["score"]["home"] == 150

def test_spot_card_discarded_after_play():
    s = _spot(); roll(s, 1); roll(s, 1)
    assert P(s)["zones"]["home discard"] == ["Spot the Golden Snitch (north)"]

def test_two_spots_in_a_row_both_played():
    s = pos(zones={"home action_deck": ["Confundo", "Spot the Golden Snitch (south)", "Spot the Golden Snitch (north)"]},
            pieces={"home seeker": "t6", "away seeker": "t16"})
    draw_action(s); roll(s, 1); roll(s, 1)
    assert where(s, "home seeker") == "t5" and where(s, "away seeker") == "t17"
    draw_action(s)
    # second Spot (south t11) played right away
    assert s.is_chance_node()
    roll(s, 1); roll(s, 1)
    assert where(s, "home seeker") == "t6" and where(s, "away seeker") == "t16"

def test_goal_then_scored_against_team_plays_next():
    s = _goal_setup()
    act(s, rule="move_player", p="home chaser 1", to="d13")
    act(s, label="away chaser 1")
    assert s.current_player() == 1

def test_beater_seeker_never_hold_quaffle():
    s = turn()
    rs = {r for _, r in passes(s)}
    assert not any("beater" in r or "seeker" in r or "keeper" in r for r in rs)

def test_goal_ends_turn_even_with_plays_left_no_more_home_options():
    s = _goal_setup()
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert s.current_player() == 1 and not find(s, rule="move_player", p="home chaser 2")

def test_beater_cannot_knock_seeker_or_move_on_track():
    s = turn(pieces={"home beater 1": "a6"})
    assert not any(m.startswith("t") for m in moves(s, "home beater 1"))

def test_chaser_zigzag_allowed():
    # Chasers: "They can move in a straight diagonal line or zigzag"
    s = turn(pieces={"home chaser 1": "c6", "home chaser 2": "a4", "quaffle": "holder:home chaser 2"})
    m = moves(s, "home chaser 1")
    assert "e6" in m      # c6-d7-e6 zigzag
    assert "c8" in m      # c6-b7-c8 / d7-c8

def test_knocked_off_chaser_start_taken_returns_elsewhere_or_waits():
    # Rules of the Pitch 3: if all starting positions are occupied, players must wait
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8",
                     "home chaser 1": "b9", "home chaser 3": "f9", "home chaser 2": "d9",
                     "away chaser 1": "a12", "away chaser 3": "g12", "quaffle": "holder:home chaser 2"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    act(s, rule="pass_quaffle", p="home chaser 2", r="home chaser 1")
    assert s.current_player() == 1
    assert where(s, "away chaser 2") is None

def test_chaser_cannot_zigzag_around_when_only_path_blocked():
    s = turn(pieces={"home chaser 1": "c6", "home beater 1": "d7"})
    m = moves(s, "home chaser 1")
    assert "e8" not in m and "d7" not in m
    assert "b7" in m and "a8" in m

def test_goal_reset_returns_knocked_off_players_too():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8", "home chaser 1": "c12",
                     "quaffle": "holder:home chaser 1", "away keeper": "f13"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    assert where(s, "away chaser 2") is None
    act(s, rule="move_player", p="home chaser 1", to="d13")
    for _ in range(2):
        if find(s, label="give the quaffle"):
            act(s, label="away chaser 1")
    assert where(s, "away chaser 2") == "d9"
    assert where(s, "home beater 1") == "b4"

def test_return_is_not_a_pitch_play_and_returned_player_can_move():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"})
    act(s, rule="move_player", p="home beater 1", to="d8")
    act(s, rule="move_player", p="home chaser 1", to="c6")
    draw_skill(s)
    assert P(s)["vars"]["plays_left"] == 2
    assert moves(s, "away chaser 2")

def test_only_action_draw_when_skill_deck_empty():
    s = pos(zones={"home skill_deck": [], "home action_deck": ["Fly Sideways"]})
    assert labels(s) == ["draw an action card"]

def test_score_two_goals_not_over():
    s = pos(pieces={"home chaser 1": "c12", "quaffle": "holder:home chaser 1", "away keeper": "f13"},
            zones={"home skill_deck": ["Offense Skill"]},
            side_vars={"score": {"home": 10, "away": 0}, "goals_scored": {"home": 1, "away": 0}})
    draw_skill(s)
    act(s, rule="move_player", p="home chaser 1", to="d13")
    assert not s.is_terminal()
    assert P(s)["side_vars"]["score"]["home"] == 20

# ---------- Interrupt cards ----------
def test_knock_off_interrupt_offered_to_victims_team_when_not_its_turn():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"},
             zones={"away hand": ["Barrel Roll"], "away skills": ["Offense Skill"] * 2})
    act(s, rule="move_player", p="home beater 1", z=None) if False else act(s, rule="move_player", p="home beater 1", to="d8")
    assert s.current_player() == 1
    assert find(s, label="Barrel Roll"), labels(s)
    act(s, label="Barrel Roll")
    assert where(s, "away chaser 2") == "d8" and where(s, "home beater 1") == "d7"
    assert P(s)["zones"]["away discard"] == ["Barrel Roll"]
    # the pitch play is spent (ruling 38); home has one play left
    assert s.current_player() == 0 and P(s)["vars"]["plays_left"] == 1

def test_knock_off_interrupt_needs_skills():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8"},
             zones={"away hand": ["Barrel Roll"], "away skills": ["Offense Skill"]})
    act(s, rule="move_player", p="home beater 1", to="d8")
    assert not find(s, label="Barrel Roll")
    assert where(s, "away chaser 2") is None

def test_interrupt_does_not_use_next_turn_card_play():
    s = turn(pieces={"home beater 1": "d7", "away chaser 2": "d8", "away chaser 1": "a8"},
             zones={"away hand": ["Barrel Roll", "Fly Sideways"], "away skills": ["Offense Skill"] * 2})
    act(s, rule="move_player", p="home beater 1", to="d8")
    act(s, label="Barrel Roll")
    act(s, rule="move_player", p="home chaser 1", to="c6")
    draw_skill(s)
    assert find(s, label="Fly Sideways"), labels(s)

def test_keeper_pass_must_be_one_of_the_two_plays():
    # Goal Attempts & Scoring 4: "must use one of their pitch plays to pass the Quaffle from their Keeper"
    s = pos(current="away", pieces={"quaffle": "holder:away keeper"}, zones={"away skill_deck": ["Offense Skill"]})
    draw_skill(s)
    act(s, rule="move_player", p="away beater 1", to="a10")
    assert s.current_player() == 1
    assert all(o["rule"]["name"] == "pass_quaffle" and o["args"]["p"] == "away keeper" for o in s.options()), labels(s)
