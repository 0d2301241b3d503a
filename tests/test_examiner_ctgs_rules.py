"""Catch the Golden Snitch rulebook checks (examiner): rulebook + public docs only."""
import pytest
from games.examiner_ctgs import *
from lumos.api import new_game

ADJ = {
    "home_scoring": {"home_back", "home_north", "home_south"},
    "home_back": {"home_scoring", "home_north", "home_south", "home_deploy"},
    "home_north": {"home_scoring", "home_back", "home_deploy", "centre_north"},
    "home_south": {"home_scoring", "home_back", "home_deploy", "centre_south"},
    "home_deploy": {"home_back", "home_north", "home_south", "centre_north", "centre_south"},
    "centre_north": {"home_north", "home_deploy", "away_deploy", "away_north"},
    "centre_south": {"home_south", "home_deploy", "away_deploy", "away_south"},
    "away_deploy": {"centre_north", "centre_south", "away_north", "away_south", "away_back"},
    "away_north": {"centre_north", "away_deploy", "away_back", "away_scoring"},
    "away_south": {"centre_south", "away_deploy", "away_back", "away_scoring"},
    "away_back": {"away_deploy", "away_north", "away_south", "away_scoring"},
    "away_scoring": {"away_back", "away_north", "away_south"},
}

def dist(a, b):
    if a == b: return 0
    if b in ADJ[a]: return 1
    if any(b in ADJ[x] for x in ADJ[a]): return 2
    return 3

def moves(s, piece):
    return sorted(o["args"]["z"] for o in find(s, rule="move_action") if o["args"].get("p") == piece)

def pass_targets(s, passer):
    return sorted(o["args"].get("r") or o["args"].get("to") for o in find(s, rule="pass_action") if o["args"].get("p") == passer)

def blocks(pieces=None, home="Lion's Charge", away="Serpent's Snatch", **kw):
    s = pos(pieces=pieces, **kw)
    start_blocks(s, home, away)
    return s

# ---------------- Setup ----------------
def _to_first_sequence(seed=1):
    s = new_game(game(), seed=seed)
    for _ in range(500):
        if rule_of(s) == "choose_pitch_actions":
            return s
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    raise AssertionError("no sequence")

def test_setup_keepers_seekers_snitch():
    s = new_game(game(), seed=2)
    for _ in range(500):
        if rule_of(s) in ("kick_off",): break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    pc = P(s)["pieces"]
    assert pc["home keeper"] == "home_scoring" and pc["away keeper"] == "away_scoring"
    assert pc["home seeker"] == "r1" and pc["away seeker"] == "r1"
    for side in ("home", "away"):
        for r in ("chaser 1", "chaser 2", "chaser 3", "beater 1", "beater 2"):
            assert pc[f"{side} {r}"] == f"{side}_deploy"

def test_setup_snitch_on_last_space_before_golden_cards():
    s = new_game(game(), seed=2)
    for _ in range(100):
        if rule_of(s) == "roll_for_advantage": break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    assert where(s, "snitch") == "r15"

def test_setup_hand_five_and_hoops_and_row_three():
    for seed in (1, 2, 3, 4):
        s = _to_first_sequence(seed)
        z = P(s)["zones"]
        assert len(z["home hand"]) == 5 and len(z["away hand"]) == 5
        assert len(z["home tactical_deck"]) == 10 and len(z["away tactical_deck"]) == 10
        assert sorted(z["home hoops"]) == ["Goal Hoop 1", "Goal Hoop 2", "Goal Hoop 3"]
        assert len(z["snitch_row"]) == 3 and "Golden Snitch" not in z["snitch_row"]
        total = len(z["snitch_row"]) + len(z["snitch_deck"]) + len(z["snitch_discard"])
        assert total == 16

def test_setup_hand_is_secret():
    s = _to_first_sequence(1)
    h = s.position(for_side=1)["zones"]["home hand"]
    assert h != P(s)["zones"]["home hand"]
    assert s.position(for_side=0)["zones"]["home hand"] == P(s)["zones"]["home hand"]

def test_roll_for_advantage_success_gives_home_the_quaffle():
    s = new_game(game(), seed=2)
    for _ in range(200):
        if rule_of(s) == "roll_for_advantage":
            break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    faces(s, "opportunity")
    assert var(s, "attacking") == "away"
    assert all("away chaser" in l for l in labels(s)), labels(s)

def test_roll_for_advantage_quaffle_to_a_chaser_of_winner():
    s = new_game(game(), seed=2)
    for _ in range(200):
        if rule_of(s) == "roll_for_advantage": break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    faces(s, "success")
    assert var(s, "attacking") == "home"
    assert sorted(labels(s)) == [f"give the Quaffle to home chaser {i}" for i in (1, 2, 3)]

# ---------------- Kick-Off ----------------
def _to_kick_off(seed=2):
    s = new_game(game(), seed=seed)
    for _ in range(500):
        if rule_of(s) == "kick_off": return s
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])

def test_kick_off_attacker_places_bludger_in_rival_half_first():
    s = _to_kick_off()
    att = var(s, "attacking")
    assert s.current_player() == (0 if att == "home" else 1)
    rival = "away" if att == "home" else "home"
    zs = sorted(o["args"].get("z") or o["label"].split(" in ")[-1] for o in s.options())
    assert set(zs) == {"centre_north", "centre_south", f"{rival}_north", f"{rival}_south", f"{rival}_back"}

def test_kick_off_moves_two_one_one_two():
    s = _to_kick_off()
    att = 0 if var(s, "attacking") == "home" else 1
    s.apply_action_id(s.options()[0]["id"]); s.apply_action_id(s.options()[0]["id"])
    seq = []
    moved = []
    for _ in range(40):
        if rule_of(s) in ("choose_pitch_actions",) or s.is_chance_node():
            break
        if rule_of(s) == "deploy_moves":
            o = s.options()[0]
            if "out of the Deployment Zone" in o["label"]:
                seq.append(s.current_player())
                p = o["args"].get("p")
                moved.append(p)
        s.apply_action_id(s.options()[0]["id"])
    # collapse runs
    runs = []
    for x in seq:
        if runs and runs[-1][0] == x: runs[-1][1] += 1
        else: runs.append([x, 1])
    assert runs == [[att, 2], [1 - att, 1], [att, 1], [1 - att, 2]], runs
    assert len(set(moved)) == len(moved)

# ---------------- Moves ----------------
def test_move_to_adjacent_zone_only():
    s = blocks(pieces={"home beater 1": "home_north"})
    assert set(moves(s, "home beater 1")) == ADJ["home_north"] - {"home_scoring"}

def test_seeker_never_moves_on_pitch():
    s = blocks()
    assert moves(s, "home seeker") == []

def test_chaser_cannot_enter_own_scoring_area():
    s = blocks()
    assert "home_scoring" not in moves(s, "home chaser 2")

def test_chaser_without_quaffle_cannot_enter_rival_scoring_area():
    s = blocks(pieces={"home chaser 2": "away_back"})
    assert "away_scoring" not in moves(s, "home chaser 2")

def test_chaser_with_quaffle_may_enter_rival_scoring_area():
    s = blocks(pieces={"home chaser 1": "away_north", "away chaser 1": "away_deploy", "away chaser 2": "away_deploy", "away chaser 3": "away_deploy"})
    assert "away_scoring" in moves(s, "home chaser 1")

def test_beater_never_enters_scoring_area():
    s = blocks(pieces={"home beater 1": "away_back", "home beater 2": "home_back"})
    assert "away_scoring" not in moves(s, "home beater 1")
    assert "home_scoring" not in moves(s, "home beater 2")

def test_keeper_may_leave_own_scoring_area_but_not_enter_rival():
    s = blocks(pieces={"home keeper": "home_scoring"})
    assert "home_back" in moves(s, "home keeper")

def test_disadvantage_prevents_moving_out():
    s = blocks(pieces={"home chaser 2": "away_north", "away chaser 1": "away_north", "away chaser 2": "away_north"})
    assert moves(s, "home chaser 2") == []

def test_equal_numbers_no_disadvantage():
    s = blocks(pieces={"home chaser 2": "away_north", "away chaser 1": "away_north"})
    assert moves(s, "home chaser 2") != []

def test_move_no_dice_roll():
    s = blocks(pieces={"home beater 1": "home_north"})
    act(s, rule="move_action", p="home beater 1", z="centre_north")
    assert not s.is_chance_node()
    assert where(s, "home beater 1") == "centre_north"

def test_quaffle_moves_with_carrier():
    s = blocks()
    act(s, rule="move_action", p="home chaser 1", z="home_north")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}
    assert where(s, "home chaser 1") == "home_north"

# ---------------- Pass ----------------
def test_pass_only_by_carrier():
    s = blocks()
    ps = {o["args"]["p"] for o in find(s, rule="pass_action")}
    assert ps == {"home chaser 1"}

def test_pass_up_to_two_zones():
    s = blocks(pieces={"home chaser 1": "home_back", "home chaser 2": "centre_north", "home chaser 3": "away_deploy"})
    t = pass_targets(s, "home chaser 1")
    assert "home chaser 2" in t           # 2 zones
    assert "home chaser 3" not in t       # 3 zones
    assert "home keeper" in t             # keeper allowed (ruling Q16)

def test_pass_not_to_beater_or_rival():
    s = blocks(pieces={"home beater 1": "home_back", "away chaser 1": "home_back"})
    t = pass_targets(s, "home chaser 1")
    assert "home beater 1" not in t and "away chaser 1" not in t

def test_pass_success_gives_possession_and_tempo_point():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}
    assert sv(s, "tempo", "home") == 1

def test_pass_fail_goes_loose_rival_chooses_zone_not_scoring():
    s = blocks(pieces={"home chaser 2": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    assert s.current_player() == 1, labels(s)
    zs = sorted(o["label"].split(" in ")[-1] for o in s.options())
    assert set(zs) == {"home_north", "home_back", "home_deploy", "centre_north"}, zs
    act(s, label="Loose in centre_north")
    assert where(s, "quaffle") == "centre_north"
    assert sv(s, "tempo", "home") == 0
    assert var(s, "attacking") == "away"

def test_pitch_card_intrepid_text_is_ignored():
    # Lion's Charge as Pitch Actions card: its Intrepid text (+1 Success) is not applied
    s = blocks(pieces={"home chaser 2": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"} or s.current_player() == 1
    assert not (where(s, "quaffle") == {"carried_by": "home chaser 2"})

def test_opportunity_on_action_counts_nothing():
    s = blocks(pieces={"home chaser 2": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "opportunity", "opportunity")
    assert where(s, "quaffle") != {"carried_by": "home chaser 2"}

def test_loose_quaffle_ends_the_action_block():
    # Scarlet Blitz [1,1]? use a 2-action block card: Crimson Crossfire [2]
    s = pos(pieces={"home chaser 2": "home_north"},
            zones={"home hand": ["Crimson Crossfire", "Lion's Charge"]})
    start_blocks(s, "Crimson Crossfire", "Serpent's Snatch")
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    act(s, label="Loose in home_north")
    # block ends: away's block now
    assert s.current_player() == 1, labels(s)

def test_double_success_counts_two_and_passes():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 3")
    roll(s, "double success", "blank")
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 3"}

def test_pass_target_at_disadvantage_minus_one():
    # worked example: target at a Disadvantage deducts 1 Success
    s = blocks(pieces={"home chaser 2": "home_north", "away chaser 1": "home_north", "away chaser 2": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    assert where(s, "quaffle") != {"carried_by": "home chaser 2"}

def test_pass_target_at_disadvantage_two_successes_enough():
    s = blocks(pieces={"home chaser 2": "home_north", "away chaser 1": "home_north", "away chaser 2": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "double success", "blank")
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}

def test_severe_disadvantage_minus_two():
    s = blocks(pieces={"home chaser 2": "home_north", "away chaser 1": "home_north", "away chaser 2": "home_north",
                       "away chaser 3": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "double success", "blank")
    assert where(s, "quaffle") != {"carried_by": "home chaser 2"}

def test_stunned_minus_one_success():
    s = blocks(piece_vars={"stunned": {"home chaser 1": 1}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    assert where(s, "quaffle") != {"carried_by": "home chaser 2"}

def test_stunned_and_disadvantage_cumulative():
    s = blocks(pieces={"away chaser 1": "home_back", "away chaser 2": "home_back", "away chaser 3": "home_back",
                       "home chaser 2": "home_north", "home chaser 3": "home_north"},
               piece_vars={"stunned": {"home chaser 1": 1}})
    # home chaser 1 alone vs 3 rivals: severe (-2) and stunned (-1)
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "double success", "double success")
    # 4 - 3 = 1 -> success
    for _ in range(3):
        if find(s, label="take a Tempo Point"): take_tempo(s); break
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}

# ---------------- Shoot / Aim at the Hoop ----------------
def shoot_pos(**kw):
    pieces = {"home chaser 1": "away_scoring", "away chaser 1": "away_deploy"}
    pieces.update(kw.pop("pieces", {}))
    return blocks(pieces=pieces, **kw)

def test_shoot_only_in_rival_scoring_area():
    s = blocks(pieces={"home chaser 1": "away_north", "away chaser 1": "away_deploy",
                       "away chaser 2": "away_deploy", "away chaser 3": "away_deploy"})
    assert not find(s, label="shoots")
    s = shoot_pos()
    assert find(s, label="home chaser 1 shoots")

def test_aim_when_keeper_inside_different_numbers_add_success():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 1"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    act(s, label="no Catch Reaction")
    assert sv(s, "goals", "home") == 1

def test_aim_same_number_no_bonus_shot_fails():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    for _ in range(2):
        if find(s, label="no Catch Reaction"): act(s, label="no Catch Reaction")
    assert sv(s, "goals", "home") == 0

def test_failed_shoot_keeper_inside_gets_quaffle_and_kick_off():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    if find(s, label="no Catch Reaction"): act(s, label="no Catch Reaction")
    assert where(s, "quaffle") == {"carried_by": "away keeper"}
    # kick-off step 1: the opposing chaser shifts out (its own coach picks: ruling Q28)
    assert rule_of(s) in ("shift_out", "keeper_kick_off"), labels(s)
    zs = [l for l in labels(s) if "away_scoring" in l.split(" to ")[-1]]
    assert not zs

def test_no_aim_when_keeper_out_and_goal_on_success():
    s = shoot_pos(pieces={"away keeper": "away_back"})
    act(s, label="shoots")
    assert rule_of(s) == "roll_pool", labels(s)
    roll(s, "success", "blank", "blank")
    assert sv(s, "goals", "home") == 1

def test_failed_shoot_keeper_out_quaffle_loose_adjacent_to_scoring_area():
    s = shoot_pos(pieces={"away keeper": "away_back"})
    act(s, label="shoots")
    roll(s, "blank", "blank", "blank")
    # chaser shifts out then rival places loose
    for _ in range(3):
        if rule_of(s) == "shift_out":
            act(s, label="to away_north")
    assert s.current_player() == 1, labels(s)
    zs = sorted(o["label"].split(" in ")[-1] for o in s.options())
    assert set(zs) <= {"away_north", "away_south", "away_back"} and zs, labels(s)

def test_goal_gives_uncelebrated_token_and_snitch_card_and_tempo():
    s = shoot_pos(pieces={"away keeper": "away_back"})
    act(s, label="shoots")
    roll(s, "success", "blank", "blank")
    assert sv(s, "uncelebrated", "home") == 1
    assert rule_of(s) == "take_snitch_card" and s.current_player() == 0
    act(s, label="take Head Down, Full Speed")
    act(s, label="resolve the Rushed Impulse")
    # row refilled to three
    assert len(P(s)["zones"]["snitch_row"]) == 3
    assert sv(s, "tempo", "home") == 1

def test_shoot_cannot_break_the_tempo():
    s = shoot_pos(pieces={"away keeper": "away_back"})
    act(s, label="shoots")
    roll(s, "success", "blank", "blank")
    for _ in range(6):
        assert not find(s, label="Break the Tempo")
        if rule_of(s) in ("move_action", "bludger_movement", "choose_pitch_actions"): break
        s.apply_action_id(s.options()[0]["id"])

def test_goal_ends_block_of_two_actions():
    s = pos(pieces={"home chaser 1": "away_scoring", "away chaser 1": "away_deploy", "away keeper": "away_back"},
            zones={"home hand": ["Crimson Crossfire", "Lion's Charge"]})
    start_blocks(s, "Crimson Crossfire", "Serpent's Snatch")
    act(s, label="shoots")
    roll(s, "success", "blank", "blank")
    for _ in range(10):
        if s.current_player() == 1 and rule_of(s) == "move_action": break
        if rule_of(s) == "move_action" and s.current_player() == 0:
            raise AssertionError("home still acting after a goal")
        s.apply_action_id(s.options()[0]["id"])
    assert s.current_player() == 1

def test_catch_reaction_removes_successes():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "success", "blank", "blank")
    act(s, label="tries to Catch")
    roll(s, "opportunity", "blank")
    assert sv(s, "goals", "home") == 0
    assert where(s, "quaffle") == {"carried_by": "away keeper"}

def test_catch_reaction_not_enough():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "double success", "blank", "blank")
    act(s, label="tries to Catch")
    roll(s, "opportunity", "blank")
    assert sv(s, "goals", "home") == 1

def test_crossed_opportunity_counts_two_on_reaction():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "double success", "blank", "blank")
    act(s, label="tries to Catch")
    roll(s, "double opportunity", "blank")
    assert sv(s, "goals", "home") == 0

def test_success_on_reaction_counts_nothing():
    s = shoot_pos()
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "success", "blank", "blank")
    act(s, label="tries to Catch")
    roll(s, "success", "success")
    assert sv(s, "goals", "home") == 1

# ---------------- Steal ----------------
def steal_pos(**kw):
    pieces = {"away chaser 1": "home_back"}
    pieces.update(kw.pop("pieces", {}))
    s = pos(pieces=pieces, attacking="home", **kw)
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    # home acts first: move a beater, then away's block
    act(s, rule="move_action", p="home beater 1", z="home_north")
    return s

def test_steal_only_defending_team_same_zone():
    s = steal_pos()
    assert s.current_player() == 1
    st = [o for o in s.options() if "steal" in o["rule"]["name"].lower() or "Steal" in o["label"]]
    assert st and all("away chaser 1" in o["label"] for o in st), [o["label"] for o in st]

def test_attacking_team_cannot_steal():
    s = blocks(pieces={"away chaser 1": "home_back", "quaffle": "holder:away chaser 1"}, attacking="away")
    # home is defending here? attacking=away; home acts second, so first actor is away
    assert s.current_player() == 1
    assert not [o for o in s.options() if "Steal" in o["label"] or "steal" in o["rule"]["name"]]

def test_steal_success_changes_possession_and_attacking():
    s = steal_pos(pieces={"home chaser 2": "home_north", "home chaser 3": "home_north"})
    o = [o for o in s.options() if "Steal" in o["label"] or "steal" in o["rule"]["name"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "blank", "blank")
    no_reaction(s)
    for _ in range(2):
        if find(s, label="take a Tempo Point"): take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "away chaser 1"}
    assert var(s, "attacking") == "away"
    assert sv(s, "tempo", "away") == 1

def test_steal_reaction_opportunity_cancels():
    s = steal_pos(pieces={"home chaser 2": "home_north", "home chaser 3": "home_north"})
    o = [o for o in s.options() if "Steal" in o["label"] or "steal" in o["rule"]["name"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "blank", "blank")
    # home chaser 1 reacts with Steal dice [purple, black]
    r = [o for o in s.options() if "answers with a Steal Reaction" in o["label"]]
    assert r, labels(s)
    s.apply_action_id(r[0]["id"])
    roll(s, "opportunity", "blank")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}

def test_steal_by_beater_not_allowed():
    s = steal_pos(pieces={"away chaser 1": "away_back", "away beater 1": "home_back"})
    st = [o for o in s.options() if "Steal" in o["label"] or "steal" in o["rule"]["name"]]
    assert not st, [o["label"] for o in st]


def test_steal_at_severe_disadvantage_minus_two():
    s = steal_pos()   # away chaser 1 alone against 3 home chasers
    o = [o for o in s.options() if "Steal" in o["label"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "success", "blank")
    if find(s, label="no Steal Reaction"): act(s, label="no Steal Reaction")
    assert where(s, "quaffle") == {"carried_by": "home chaser 1"}

def test_steal_at_severe_disadvantage_three_successes_enough():
    s = steal_pos()
    o = [o for o in s.options() if "Steal" in o["label"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "success", "success")
    act(s, label="no Steal Reaction")
    assert where(s, "quaffle") == {"carried_by": "away chaser 1"}

# ---------------- Beat ----------------
def beat_pos(**kw):
    pieces = {"home beater 1": "centre_north", "away chaser 1": "away_north", "quaffle": "holder:away chaser 1"}
    pieces.update(kw.pop("pieces", {}))
    s = pos(pieces=pieces, attacking="away", **kw)
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    act(s, rule="move_action", p="away beater 1", z="away_south")
    return s

def beat_targets(s, beater):
    return sorted(o["args"]["t"] for o in find(s, rule="beat_action") if o["args"]["p"] == beater)

def test_beat_needs_bludger_in_beaters_zone():
    s = beat_pos(pieces={"home beater 2": "home_deploy"})
    assert beat_targets(s, "home beater 2") == []
    assert beat_targets(s, "home beater 1")

def test_beat_targets_rivals_up_to_two_zones():
    s = beat_pos()
    t = beat_targets(s, "home beater 1")
    for p in t:
        assert p.startswith("away")
        assert dist("centre_north", where(s, p)) <= 2
    assert "away chaser 2" in t          # away_back is 2 from centre_north
    assert "away seeker" not in t

def test_beat_success_stuns_and_loose_quaffle_by_beaters_coach():
    s = beat_pos()
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if rule_of(s) == "beat_action" and find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    assert s.current_player() == 0 and rule_of(s) == "go_loose"
    zs = {o["label"].split(" in ")[-1] for o in s.options()}
    assert zs == {"away_north", "centre_north", "away_deploy", "away_back"}   # never the Scoring Area
    act(s, label="Loose in away_back")
    assert pv(s, "stunned", "away chaser 1") == 1
    assert where(s, "quaffle") == "away_back"
    # the rival places the Bludger in the target's Zone or adjacent
    assert s.current_player() == 1
    zs = {o["label"].split(" in ")[-1] for o in s.options()}
    assert zs <= {"away_north"} | ADJ["away_north"] and "away_north" in zs

def test_beat_fail_no_stun_bludger_still_placed_by_rival():
    s = beat_pos()
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "blank", "blank")
    if find(s, label="no Reaction"): no_reaction(s)
    assert pv(s, "stunned", "away chaser 1") == 0
    assert where(s, "quaffle") == {"carried_by": "away chaser 1"}
    assert s.current_player() == 1 and "place bludger_a" in labels(s)[0]

def test_beat_ignores_disadvantage():
    s = beat_pos(pieces={"away chaser 2": "centre_north", "away chaser 3": "centre_north"})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    act(s, label="Loose in away_back")
    assert pv(s, "stunned", "away chaser 1") == 1

def test_manoeuvre_reaction_avoids_beat():
    s = beat_pos()
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    act(s, label="away chaser 1 Manoeuvres")
    roll(s, "opportunity")
    assert pv(s, "stunned", "away chaser 1") == 0
    assert where(s, "quaffle") == {"carried_by": "away chaser 1"}

def test_defense_reaction_by_beater_in_targets_zone():
    s = beat_pos(pieces={"away beater 2": "away_north"})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    d = [o for o in s.options() if "Defend" in o["label"]]
    assert d, labels(s)
    s.apply_action_id(d[0]["id"])
    if find(s, label="Defends away chaser 1"): act(s, label="Defends away chaser 1")
    roll(s, "opportunity", "blank")
    assert pv(s, "stunned", "away chaser 1") == 0

def test_only_one_reaction_per_action():
    s = beat_pos(pieces={"away beater 2": "away_north"})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "double success", "blank")
    d = [o for o in s.options() if "Defend" in o["label"]]
    s.apply_action_id(d[0]["id"])
    if find(s, label="Defends away chaser 1"): act(s, label="Defends away chaser 1")
    roll(s, "blank", "blank")
    assert not find(s, label="Manoeuvres")
    assert pv(s, "stunned", "away chaser 1") == 1

def test_stunned_tokens_max_three():
    s = beat_pos(piece_vars={"stunned": {"away chaser 1": 3}})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    assert pv(s, "stunned", "away chaser 1") == 3

def test_beat_success_tempo_point():
    s = beat_pos()
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    act(s, label="Loose in away_back")
    act(s, label="place bludger_a in away_north")
    take_tempo(s)
    assert sv(s, "tempo", "home") == 1

def test_loose_quaffle_makes_other_team_attacking():
    s = beat_pos()
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    act(s, label="Loose in away_back")
    assert var(s, "attacking") == "home"

# ---------------- Recover ----------------
def test_recover_removes_stunned_token():
    s = blocks(piece_vars={"stunned": {"home chaser 2": 2}})
    r = [o for o in s.options() if o["rule"]["name"].startswith("recover")]
    assert r, labels(s)[-5:]
    s.apply_action_id([o for o in r if "home chaser 2" in o["label"]][0]["id"])
    assert pv(s, "stunned", "home chaser 2") == 1
    assert not s.is_chance_node()

def test_recover_not_offered_without_stunned():
    s = blocks()
    assert not [o for o in s.options() if o["rule"]["name"].startswith("recover")]

def test_recover_no_tempo():
    s = blocks(piece_vars={"stunned": {"home chaser 2": 1}})
    r = [o for o in s.options() if o["rule"]["name"].startswith("recover") and "home chaser 2" in o["label"]]
    s.apply_action_id(r[0]["id"])
    assert sv(s, "tempo", "home") == 0 and not find(s, label="Tempo")

# ---------------- Loose Quaffle pick-up ----------------
def test_move_into_loose_quaffle_zone_picks_it_up():
    s = blocks(pieces={"quaffle": "home_north"}, attacking="home")
    act(s, rule="move_action", p="home chaser 2", z="home_north")
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}

def test_beater_does_not_pick_up():
    s = blocks(pieces={"quaffle": "home_north"})
    act(s, rule="move_action", p="home beater 1", z="home_north")
    assert where(s, "quaffle") == "home_north"

def test_rival_picks_up_and_becomes_attacking():
    s = blocks(pieces={"quaffle": "away_north", "away chaser 1": "away_back"}, attacking="home")
    # home acts first (attacking), then away moves onto the quaffle
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away chaser 1", z="away_north")
    assert where(s, "quaffle") == {"carried_by": "away chaser 1"}
    assert var(s, "attacking") == "away"

# ---------------- Tempo ----------------
def test_tempo_more_than_three_takes_snitch_card():
    s = blocks(side_vars={"tempo": {"home": 3, "away": 0}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    take_tempo(s)
    assert rule_of(s) == "take_snitch_card" and s.current_player() == 0, labels(s)
    assert sv(s, "tempo", "home") == 0

def test_tempo_three_is_not_more_than_three():
    s = blocks(side_vars={"tempo": {"home": 2, "away": 0}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    take_tempo(s)
    assert sv(s, "tempo", "home") == 3
    assert rule_of(s) != "take_snitch_card" or s.current_player() != 0

def test_break_the_tempo_free_pass_no_tempo():
    s = blocks(pieces={"home chaser 3": "home_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    act(s, label="Break the Tempo: a free Pass")
    assert sv(s, "tempo", "home") == 0
    if find(s, label="free Pass by home chaser 2"): act(s, label="free Pass by home chaser 2")
    p = [o for o in s.options() if "home chaser 3" in o["label"]]
    assert p, labels(s)
    s.apply_action_id(p[0]["id"])
    roll(s, "success", "blank")
    assert where(s, "quaffle") == {"carried_by": "home chaser 3"}
    assert sv(s, "tempo", "home") == 0
    assert not find(s, label="Break the Tempo")

def test_break_the_tempo_shift():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    act(s, label="Break the Tempo: Shift a Player")
    assert sv(s, "tempo", "home") == 0
    assert any("home beater 1" in l for l in labels(s)), labels(s)

def test_break_the_tempo_shift_ignores_disadvantage():
    s = blocks(pieces={"home beater 1": "away_north", "away chaser 1": "away_north", "away chaser 2": "away_north"})
    assert moves(s, "home beater 1") == []
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    act(s, label="Break the Tempo: Shift a Player")
    o = [o for o in s.options() if "home beater 1" in o["label"]]
    assert o, labels(s)
    s.apply_action_id(o[0]["id"])
    assert len(s.options()) >= 1
    s.apply_action_id(s.options()[0]["id"])
    assert where(s, "home beater 1") != "away_north"

# ---------------- Hand Swap ----------------
DECK6 = ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter", "Brave Breakaway", "Firebolt Feint", "Golden Glory Dive"]

def test_hand_swap_draws_five():
    s = pos(zones={"home hand": [], "home tactical_deck": list(DECK6)})
    for _ in range(10):
        if rule_of(s) == "choose_pitch_actions": break
        s.apply_action_id(s.options()[0]["id"])
    assert len(P(s)["zones"]["home hand"]) == 5

def test_hand_swap_rival_free_action_and_tempo():
    s = pos(zones={"home hand": [], "home tactical_deck": list(DECK6)})
    seen_free = False
    for _ in range(10):
        if rule_of(s) == "choose_pitch_actions": break
        if rule_of(s) == "move_action":
            assert s.current_player() == 1
            seen_free = True
        s.apply_action_id(s.options()[0]["id"])
    assert seen_free
    assert sv(s, "tempo", "away") == 1 and sv(s, "tempo", "home") == 0

def test_hand_swap_rival_removes_stunned_and_locked():
    s = pos(zones={"home hand": [], "home tactical_deck": list(DECK6)},
            piece_vars={"stunned": {"away chaser 1": 2, "away chaser 2": 1}, "locked": {"away keeper": True}})
    assert s.current_player() == 1 and rule_of(s) == "recover_one_may"
    act(s, label="remove a Stunned token from away chaser 1")
    assert pv(s, "stunned", "away chaser 1") == 1 and pv(s, "stunned", "away chaser 2") == 1
    assert pv(s, "locked", "away keeper") is False

def test_both_hand_swap_no_free_action_no_tempo():
    s = pos(zones={"home hand": [], "away hand": [], "home tactical_deck": list(DECK6),
                   "away tactical_deck": ["Serpent's Snatch", "Venom Strike", "Cunning Plan", "Shadow Press", "Cold Stare"]})
    for _ in range(10):
        if rule_of(s) == "choose_pitch_actions": break
        assert rule_of(s) != "move_action"
        s.apply_action_id(s.options()[0]["id"])
    assert sv(s, "tempo", "away") == 0 and sv(s, "tempo", "home") == 0
    assert len(P(s)["zones"]["home hand"]) == 5 and len(P(s)["zones"]["away hand"]) == 5

def test_hand_swap_short_deck_reshuffles_discard():
    s = pos(zones={"home hand": [], "home tactical_deck": ["Lion's Charge", "Scarlet Blitz"],
                   "home tactical_discard": ["Hoop Hunter", "Brave Breakaway", "Firebolt Feint", "Golden Glory Dive"]})
    for _ in range(20):
        if rule_of(s) == "choose_pitch_actions": break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else: s.apply_action_id(s.options()[0]["id"])
    z = P(s)["zones"]
    assert len(z["home hand"]) == 5
    assert len(z["home tactical_deck"]) == 1 and z["home tactical_discard"] == []

# ---------------- Pitch Actions card / Intrepid Moves ----------------
def test_pitch_actions_card_chosen_in_secret():
    s = pos()
    first = s.current_player()
    act(s, label="as the Pitch Actions card") if len(s.options()) == 1 else s.apply_action_id(s.options()[0]["id"])
    other = "away" if first == 0 else "home"
    me = "home" if first == 0 else "away"
    view = s.position(for_side=0 if other == "home" else 1)["zones"]
    own = s.position(for_side=first)["zones"]
    chosen = P(s)["zones"][f"{me} pitch_choice"] or P(s)["zones"][f"{me} pitch_card"]
    assert chosen
    assert (own.get(f"{me} pitch_choice") or own.get(f"{me} pitch_card")) == chosen
    assert view.get(f"{me} pitch_choice") != chosen and view.get(f"{me} pitch_card") != chosen

def test_intrepid_declarations_attacker_first_and_max_two_each():
    s = pos(zones={"home hand": ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter", "Brave Breakaway"],
                   "away hand": ["Serpent's Snatch", "Venom Strike", "Cunning Plan", "Shadow Press"]})
    act(s, label="play Lion's Charge as the Pitch Actions card")
    act(s, label="play Serpent's Snatch as the Pitch Actions card")
    order = []
    for _ in range(10):
        if rule_of(s) != "offer_intrepid": break
        order.append(s.current_player())
        m = [o for o in s.options() if "as an Intrepid Move" in o["label"]]
        s.apply_action_id(m[0]["id"]) if m else act(s, label="do not choose")
    assert order[0] == 0
    assert order[:4] == [0, 1, 0, 1]
    assert len(P(s)["zones"]["home intrepid"]) <= 2 and len(P(s)["zones"]["away intrepid"]) <= 2
    assert sv(s, "intrepid_played", "home") == 2 and sv(s, "intrepid_played", "away") == 2

def test_intrepid_declarations_defender_first_when_away_attacks():
    s = pos(attacking="away", pieces={"quaffle": "holder:away chaser 1"})
    s.apply_action_id(s.options()[0]["id"]); s.apply_action_id(s.options()[0]["id"])
    assert rule_of(s) == "offer_intrepid" and s.current_player() == 1

def test_action_blocks_alternate_attacker_first():
    # home Scarlet Blitz [1,1], away Venom Strike [1,1]
    s = pos(zones={"home hand": ["Scarlet Blitz", "Lion's Charge"], "away hand": ["Venom Strike", "Serpent's Snatch"]})
    start_blocks(s, "Scarlet Blitz", "Venom Strike")
    seq = []
    for _ in range(4):
        assert rule_of(s) == "move_action", labels(s)
        seq.append(s.current_player())
        side = "home" if s.current_player() == 0 else "away"
        b = f"{side} beater 1"
        act(s, rule="move_action", p=b, z=sorted(moves_of(s, b))[0])
    assert seq == [0, 1, 0, 1]

def moves_of(s, piece):
    return [o["args"]["z"] for o in find(s, rule="move_action") if o["args"]["p"] == piece]

def test_longer_card_finishes_its_blocks():
    # home [1,1,1] Firebolt Feint vs away [1] Serpent's Snatch
    s = pos(zones={"home hand": ["Firebolt Feint", "Lion's Charge"]})
    start_blocks(s, "Firebolt Feint", "Serpent's Snatch")
    seq = []
    for _ in range(4):
        if rule_of(s) != "move_action": break
        seq.append(s.current_player())
        s.apply_action_id(s.options()[0]["id"])
    assert seq == [0, 1, 0, 0]

def test_two_action_block_performs_both_consecutively():
    s = pos(zones={"home hand": ["Crimson Crossfire", "Lion's Charge"]})
    start_blocks(s, "Crimson Crossfire", "Serpent's Snatch")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    assert s.current_player() == 0 and rule_of(s) == "move_action"

def test_no_option_to_skip_an_action():
    s = blocks()
    assert all(o["kind"] == "action" for o in s.options()), [o["label"] for o in s.options() if o["kind"] != "action"]

def test_block_order_fixed_when_possession_changes():
    # Q12 ruling: order a-b-c-d fixed at the start of step 5
    s = pos(pieces={"away chaser 1": "home_back", "home chaser 2": "home_north", "home chaser 3": "home_north"},
            zones={"home hand": ["Scarlet Blitz", "Lion's Charge"], "away hand": ["Venom Strike", "Serpent's Snatch"]})
    start_blocks(s, "Scarlet Blitz", "Venom Strike")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    o = [o for o in s.options() if "Steal" in o["label"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "blank", "blank")
    act(s, label="no Steal Reaction")
    take_tempo(s)
    assert var(s, "attacking") == "away"
    assert s.current_player() == 0   # home's second block (c) comes next

# ---------------- End of Game Sequence ----------------
def _finish_sequence(s, n=60):
    for _ in range(n):
        if rule_of(s) == "choose_pitch_actions" or s.is_terminal(): return s
        if s.is_chance_node(): faces(s, "blank") if any(o["label"] == "roll blank" for o in s.options()) else s.apply_action(s.sample_chance())
        else:
            m = [o for o in s.options() if o["label"].startswith("no ") or o["label"] == "do not choose"]
            s.apply_action_id((m or s.options())[0]["id"])
    return s

def test_used_tactical_cards_discarded_at_end():
    s = pos(zones={"home hand": ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter"]})
    start_blocks(s, "Lion's Charge", "Serpent's Snatch", home_intrepid=["Scarlet Blitz"])
    _finish_sequence(s)
    z = P(s)["zones"]
    assert sorted(z["home tactical_discard"]) == ["Lion's Charge", "Scarlet Blitz"]
    assert z["home hand"] == ["Hoop Hunter"]
    assert z["away tactical_discard"] == ["Serpent's Snatch"]

def test_each_coach_takes_a_snitch_card_at_end_last_finisher_first():
    s = blocks()
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="away_north")
    # bludger movement
    seq = []
    for _ in range(40):
        if rule_of(s) == "take_snitch_card" and s.options()[0]["label"].startswith("take "):
            seq.append(s.current_player())
        if rule_of(s) == "choose_pitch_actions": break
        if s.is_chance_node(): s.apply_action(s.sample_chance())
        else:
            m = [o for o in s.options() if o["label"].startswith("no ") or o["label"] == "do not choose"]
            s.apply_action_id((m or s.options())[0]["id"])
    assert seq == [1, 0], seq

# ---------------- Bludger Movement ----------------
def to_bludger_movement(s):
    for _ in range(20):
        if rule_of(s) == "bludger_movement": return s
        s.apply_action_id(s.options()[0]["id"])
    raise AssertionError(labels(s))

def test_bludger_movement_defending_coach_picks_first():
    s = blocks()
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="away_north")
    to_bludger_movement(s)
    assert s.current_player() == 1     # home attacking -> away defending

def test_bludger_must_move_to_adjacent_zone_with_players():
    s = blocks(pieces={"bludger_a": "home_north", "bludger_b": "away_south", "home beater 1": "home_deploy"})
    act(s, rule="move_action", p="home beater 1", z="home_south")
    act(s, rule="move_action", p="away beater 1", z="away_north")
    to_bludger_movement(s)
    act(s, label="move bludger_a")
    zs = sorted(o["label"].split(" to ")[-1] for o in s.options())
    # adjacent to home_north: home_scoring(keeper), home_back(chasers), home_deploy(beater 2), centre_north(empty)
    assert zs == ["home_back", "home_deploy", "home_scoring"], zs

def test_bludger_with_no_adjacent_players_stays_and_hits_in_its_zone():
    s = blocks(pieces={"bludger_a": "centre_south", "home beater 2": "centre_south", "home beater 1": "home_north",
                       "away beater 1": "away_north", "away beater 2": "away_north"})
    # centre_south adjacent: home_south, home_deploy, away_deploy, away_south -> all empty
    act(s, rule="move_action", p="home chaser 2", z="home_north")
    act(s, rule="move_action", p="away chaser 1", z="away_north")
    to_bludger_movement(s)
    act(s, label="move bludger_a")
    ls = labels(s)
    assert all("bludger_a" in l for l in ls)
    assert not any(" to " in l for l in ls) or ls == ["move bludger_a to centre_south"], ls
    if any(" to " in l for l in ls): s.apply_action_id(s.options()[0]["id"])
    assert where(s, "bludger_a") == "centre_south"
    assert any("targets home beater 2" in l for l in labels(s)) or any("home beater 2" in l for l in labels(s)), labels(s)

def test_bludger_hit_stuns_unless_opportunity():
    s = blocks(pieces={"bludger_a": "away_north", "bludger_b": "away_south", "away chaser 1": "away_back",
                       "away beater 1": "away_deploy", "away beater 2": "away_deploy"})
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="centre_north")
    to_bludger_movement(s)
    # away (defending) moves bludger_a to away_back and targets away chaser? pick a home target instead
    act(s, label="move bludger_a")
    act(s, label="move bludger_a to away_back")
    tg = [o for o in s.options() if "targets away chaser 1" in o["label"]]
    s.apply_action_id(tg[0]["id"]) if tg else None
    if find(s, label="Manoeuvres"):
        act(s, label="Manoeuvres")
        roll(s, "blank")
    assert pv(s, "stunned", "away chaser 1") == 1

# ---------------- Snitch Race ----------------
def upwinds(s):
    return {k: v for k, v in P(s)["pieces"].items() if "upwind" in k and v}

def test_rushed_impulse_accelerate_fixed_2():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert where(s, "away seeker") == "r7"
    assert "Head Down, Full Speed" in P(s)["zones"]["snitch_discard"]
    assert len(P(s)["zones"]["snitch_row"]) == 3

def test_keep_in_play_is_secret():
    s = race_pos()
    act(s, label="take Head Down"); act(s, label="keep Head Down")
    assert P(s)["zones"]["away snitch_in_play"] == ["Head Down, Full Speed"]
    assert s.position(for_side=0)["zones"]["away snitch_in_play"] != ["Head Down, Full Speed"]
    assert s.position(for_side=1)["zones"]["away snitch_in_play"] == ["Head Down, Full Speed"]

def test_card_in_play_same_type_gives_perfect():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Trimmed Twigs")
    assert where(s, "away seeker") == "r8"     # Dodge 3
    assert sorted(P(s)["zones"]["snitch_discard"]) == ["Head Down, Full Speed", "Trimmed Twigs"]

def test_card_in_play_fast_type_gives_fast():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Crosswind")       # cloud: a Fast type of Head Down
    assert where(s, "away seeker") == "r8"     # Accelerate 3 then Upwind
    assert rule_of(s) == "place_upwind" and s.current_player() == 1

def test_card_in_play_forces_option_c():
    s = race_pos(zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Crosswind")
    assert not find(s, label="resolve the Rushed Impulse of Crosswind")
    assert not find(s, label="keep Crosswind")

def test_slipstreaming_not_offered_with_card_in_play():
    s = race_pos(zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Slipstreaming", "Trimmed Twigs", "Crosswind"]})
    assert not find(s, label="take Slipstreaming")

def test_slipstreaming_cannot_be_resolved_rushed():
    s = race_pos(zones={"snitch_row": ["Slipstreaming", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Slipstreaming")
    assert labels(s) == ["keep Slipstreaming in play"]

def test_slipstreaming_in_play_fast_of_new_card_regardless_of_type():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Slipstreaming"], "snitch_row": ["Head Down, Full Speed", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Head Down")
    assert where(s, "away seeker") == "r8"   # Fast of Head Down: Accelerate 3 (+ Upwind)
    assert where(s, "home seeker") == "r3"   # not lagged: no Obstruct

def test_slipstreaming_lagged_obstructs_first():
    s = race_pos(pieces={"home seeker": "r6", "away seeker": "r3"},
                 zones={"away snitch_in_play": ["Slipstreaming"], "snitch_row": ["Head Down, Full Speed", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Head Down")
    assert where(s, "home seeker") == "r5"   # Obstruct 1
    assert where(s, "away seeker") == "r6"   # Accelerate 3 from r3

def test_golden_snitch_revealed_on_refill_glimpse_by_drawer():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"snitch_deck": ["Hovering Low", "Golden Snitch"]})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    # away drew the Golden Snitch: away seeker Glimpses (Slytherin glimpse dice: 1 purple)
    assert s.current_player() == 1, labels(s)
    roll(s, "double success")
    assert where(s, "snitch") == "r13"
    z = P(s)["zones"]
    assert "Golden Snitch" in z["snitch_discard"] and "Hovering Low" in z["snitch_row"] and len(z["snitch_row"]) == 3

def test_glimpse_discards_tokens_behind_and_on_the_snitch():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "home upwind 1": "r14", "home upwind 2": "r10"},
                 zones={"snitch_deck": ["Hovering Low", "Golden Snitch"]})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    roll(s, "double success")   # snitch r15 -> r13: token on r14 is behind it
    u = upwinds(s)
    assert "home upwind 1" not in u and u.get("home upwind 2") == "r10"

def test_snitch_reaching_a_seeker_is_caught_by_that_seeker():
    s = race_pos(pieces={"home seeker": "r13", "away seeker": "r5"},
                 zones={"snitch_deck": ["Hovering Low", "Golden Snitch"]})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    roll(s, "double success")   # snitch r15 -> r13 where the home seeker is
    assert s.is_terminal()
    assert s.returns()[0] > s.returns()[1]

def test_accelerate_onto_snitch_catches_and_wins():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r13"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert s.is_terminal() and s.returns()[1] > s.returns()[0]

def test_both_seekers_on_snitch_attacking_team_catches():
    s = race_pos(pieces={"home seeker": "r13", "away seeker": "r13"},
                 zones={"snitch_deck": ["Hovering Low", "Golden Snitch"]})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    # away seeker moved on to r15 first -> away catches.  Use a glimpse instead:
    assert s.is_terminal()

def test_both_seekers_same_space_snitch_arrives_attacking_wins():
    # Snitch comes to both Seekers at once: the Attacking Team's Seeker catches it
    s = race_pos(pieces={"home seeker": "r13", "away seeker": "r13", "snitch": "r15"},
                 zones={"snitch_row": ["Hovering Low", "Crosswind", "Trimmed Twigs"], "snitch_deck": ["Racing Line", "Golden Snitch"]})
    # away takes Hovering Low rushed? we just need a Golden Snitch draw: take a card, resolve
    o = s.options()[0]; s.apply_action_id(o["id"])
    m = [o for o in s.options() if "keep" in o["label"]]
    s.apply_action_id(m[0]["id"])
    roll(s, "double success")
    assert s.is_terminal()
    att = var(s, "attacking")
    assert (s.returns()[0] > s.returns()[1]) == (att == "home")

def test_own_upwind_advances_one():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "away upwind 1": "r7"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert where(s, "away seeker") == "r8"
    assert where(s, "away upwind 1") is None

def test_rival_upwind_pushes_back_one():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "home upwind 1": "r7"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert where(s, "away seeker") == "r6"
    assert where(s, "home upwind 1") is None

def test_upwind_placement_between_ahead_seeker_and_snitch():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Crosswind")    # Fast: Accelerate 3 (r8) then Upwind
    sp = sorted(int(o["label"].split(" on r")[-1]) for o in s.options())
    assert sp == list(range(9, 15)), sp

def test_lagged_coach_may_place_between_the_seekers():
    s = race_pos(pieces={"home seeker": "r10", "away seeker": "r2"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Crosswind")    # away r2 -> r5, still Lagged
    sp = sorted(int(o["label"].split(" on r")[-1]) for o in s.options())
    assert sp == [6, 7, 8, 9, 11, 12, 13, 14], sp

def test_only_one_token_per_space():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "home upwind 1": "r11"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Hovering Low"]})
    act(s, label="take Crosswind")
    sp = sorted(int(o["label"].split(" on r")[-1]) for o in s.options())
    assert 11 not in sp

def test_snitch_deck_reshuffled_when_empty():
    s = race_pos(zones={"snitch_deck": [], "snitch_discard": ["Racing Line", "Rain Veil", "Above the Clouds"]})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    while s.is_chance_node(): s.apply_action(s.sample_chance())
    z = P(s)["zones"]
    assert len(z["snitch_row"]) == 3
    assert len(z["snitch_deck"]) + len(z["snitch_discard"]) == 3

# ---------------- Intrepid order ----------------
def test_intrepid_resolve_last_played_coach_first_then_alternate():
    s = pos(zones={"home hand": ["Lion's Charge", "Brave Breakaway", "Hoop Hunter"],
                   "away hand": ["Serpent's Snatch", "Emerald Ambush", "Dungeon Drills"]})
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="play Brave Breakaway as an Intrepid"); act(s, label="play Emerald Ambush as an Intrepid")
    act(s, label="do not choose"); act(s, label="play Dungeon Drills as an Intrepid")
    if rule_of(s) == "offer_intrepid": act(s, label="do not choose")
    order = []
    for _ in range(12):
        r = rule_of(s)
        if r == "move_action": break
        if r in ("shift_one", "shift_many") and not any(" to " in l for l in labels(s)):
            if not order or order[-1] != (s.current_player(), r):
                order.append((s.current_player(), r))
        m = [o for o in s.options() if o["label"] == "do not choose"]
        s.apply_action_id((m or s.options())[0]["id"])
    assert order == [(1, "shift_many"), (0, "shift_one"), (1, "shift_one")], order

def test_intrepid_not_more_than_two():
    s = pos(zones={"home hand": ["Lion's Charge", "Brave Breakaway", "Hoop Hunter", "Scarlet Blitz"]})
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="play Brave Breakaway as an Intrepid"); act(s, label="do not choose")
    act(s, label="play Hoop Hunter as an Intrepid")
    assert not (rule_of(s) == "offer_intrepid" and s.current_player() == 0 and find(s, label="as an Intrepid Move"))

def test_intrepid_declarations_end_after_both_pass():
    s = pos()
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="do not choose"); act(s, label="do not choose")
    assert rule_of(s) != "offer_intrepid"

def test_first_card_intrepid_not_applied_extra_block_card():
    # Scarlet Blitz as Pitch card: its Intrepid text (next Block holds one more Action) is ignored
    s = pos(zones={"home hand": ["Scarlet Blitz", "Lion's Charge"]})
    start_blocks(s, "Scarlet Blitz", "Serpent's Snatch")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    assert s.current_player() == 1

def test_intrepid_extra_action_applied_when_played_as_intrepid():
    s = pos(zones={"home hand": ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter"]})
    start_blocks(s, "Lion's Charge", "Serpent's Snatch", home_intrepid=["Scarlet Blitz"])
    act(s, rule="move_action", p="home beater 1", z="home_north")
    assert s.current_player() == 0 and rule_of(s) == "move_action"

# ---------------- Keeper's Kick-Off ----------------
def kick_off_pos():
    s = shoot_pos(pieces={"away chaser 1": "away_back", "away chaser 2": "away_north", "away chaser 3": "centre_north",
                          "home chaser 2": "away_north"})
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    if find(s, label="no Catch Reaction"): act(s, label="no Catch Reaction")
    return s

def test_kick_off_opposing_chaser_shifts_out_first():
    s = kick_off_pos()
    assert rule_of(s) == "shift_out" and s.current_player() == 0
    dest = {o["label"].split(" to ")[-1] for o in s.options()}
    assert dest == {"away_north", "away_south", "away_back"}

def test_kick_off_shifts_attacking_first_and_not_into_scoring_area():
    s = kick_off_pos()
    act(s, label="to away_back")
    assert rule_of(s) == "keeper_kick_off"
    assert s.current_player() == 1   # away now attacking (keeper has the Quaffle)
    assert var(s, "attacking") == "away"
    act(s, label="Kick-Off: Shift away chaser 2")
    dest = {o["label"].split(" to ")[-1] for o in s.options()}
    assert "away_scoring" not in dest and dest == ADJ["away_north"] - {"away_scoring"}
    s.apply_action_id(s.options()[0]["id"])
    assert s.current_player() == 0
    act(s, label="Kick-Off: Shift home chaser 2")
    dest = {o["label"].split(" to ")[-1] for o in s.options()}
    assert "away_scoring" not in dest

def test_kick_off_pass_automatic_no_roll_no_tempo_within_two_zones():
    s = kick_off_pos()
    act(s, label="to away_back")
    act(s, label="do not choose")  # away
    act(s, label="do not choose")  # home
    assert s.current_player() == 1
    targets = [o["label"] for o in s.options() if "passes to" in o["label"]]
    assert any("away chaser 3 (centre_north)" in t for t in targets)   # 2 zones from away_scoring
    act(s, label="passes to away chaser 3")
    assert not s.is_chance_node()
    assert where(s, "quaffle") == {"carried_by": "away chaser 3"}
    assert sv(s, "tempo", "away") == 0
    assert not find(s, label="Tempo")

def test_kick_off_pass_not_beyond_two_zones():
    s = shoot_pos(pieces={"away chaser 1": "home_deploy", "away chaser 2": "home_north", "away chaser 3": "home_south"})
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    if find(s, label="no Catch Reaction"): act(s, label="no Catch Reaction")
    act(s, label="to away_back")
    act(s, label="do not choose"); act(s, label="do not choose")
    assert not [o for o in s.options() if "passes to" in o["label"]], labels(s)

def test_failed_shot_block_goes_on_after_kick_off():
    s = pos(pieces={"home chaser 1": "away_scoring", "away chaser 1": "away_deploy"},
            zones={"home hand": ["Crimson Crossfire", "Lion's Charge"]})
    start_blocks(s, "Crimson Crossfire", "Serpent's Snatch")
    act(s, label="shoots")
    act(s, label="aim at Goal Hoop 2"); act(s, label="guard Goal Hoop 2")
    roll(s, "blank", "blank", "blank")
    if find(s, label="no Catch Reaction"): act(s, label="no Catch Reaction")
    act(s, label="to away_back")
    act(s, label="do not choose"); act(s, label="do not choose")
    act(s, label="do not choose")     # the keeper keeps the Quaffle
    assert s.current_player() == 0 and rule_of(s) == "move_action"

def test_steal_by_keeper_in_own_scoring_area_starts_kick_off():
    s = pos(pieces={"home chaser 1": "away_scoring", "away chaser 1": "away_deploy"}, attacking="home")
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    o = [o for o in s.options() if "away keeper" in o["label"] and "Steal" in o["label"]]
    assert o, labels(s)
    s.apply_action_id(o[0]["id"])
    roll(s, "success", "blank")
    act(s, label="no Steal Reaction")
    for _ in range(3):
        if find(s, label="take a Tempo Point"): take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "away keeper"}
    assert rule_of(s) == "shift_out", labels(s)

def test_pass_to_own_keeper_no_kick_off():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home keeper")
    roll(s, "success", "blank")
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home keeper"}
    assert rule_of(s) != "keeper_kick_off"

def test_failed_pass_to_keeper_loose_never_in_scoring_area():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home keeper")
    roll(s, "blank", "blank")
    zs = {o["label"].split(" in ")[-1] for o in s.options()}
    assert "home_scoring" not in zs and zs == ADJ["home_scoring"]

def test_chaser_passing_from_scoring_area_shifts_out():
    s = shoot_pos(pieces={"home chaser 2": "away_north"})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "success", "blank")
    for _ in range(3):
        if find(s, label="take a Tempo Point"): take_tempo(s)
        if rule_of(s) == "shift_out": break
    assert rule_of(s) == "shift_out"

# ---------------- Goal tokens / dice tokens ----------------
def test_goal_token_reroll_once_per_action():
    s = blocks(side_vars={"uncelebrated": {"home": 2, "away": 0}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank", keep=False)
    act(s, label="flip a Goal token: reroll a purple die")
    act(s, label="reroll the purple blank") if find(s, label="reroll the purple blank") else None
    faces(s, "success")
    assert sv(s, "uncelebrated", "home") == 1
    assert not find(s, label="flip a Goal token")
    if find(s, label="keep"): act(s, label="keep")
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}

def test_no_goal_token_no_reroll():
    s = blocks()
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank", keep=False)
    assert not find(s, label="flip a Goal token")

def test_bonus_dice_token_adds_die():
    s = blocks(piece_vars={"bonus_orange": {"home chaser 1": 1}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    ls = labels(s)
    assert any("2 orange" in l for l in ls) or any("Bonus" in l for l in ls), ls

def test_penalty_dice_token_spent_by_rival():
    s = blocks(piece_vars={"penalty_purple": {"home chaser 1": 1}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    for _ in range(3):
        if s.current_player() == 1: break
        s.apply_action_id(s.options()[0]["id"])
    assert s.current_player() == 1
    assert any("Penalty" in l or "penalty" in l for l in labels(s)), labels(s)

# ---------------- Swift Intrepid Moves ----------------
def _pass_roll_blank(hand, **kw):
    s = pos(zones={"home hand": hand}, **kw)
    start_blocks(s, hand[0], "Serpent's Snatch")
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    return s

def test_swift_offered_after_a_roll():
    s = _pass_roll_blank(["Lion's Charge", "Last-Second Lunge", "Hoop Hunter"])
    assert find(s, label="Last-Second Lunge"), labels(s)

def test_swift_adds_success_and_counts_as_intrepid():
    s = _pass_roll_blank(["Lion's Charge", "Last-Second Lunge", "Hoop Hunter"])
    act(s, label="Last-Second Lunge")
    for _ in range(3):
        if find(s, label="take a Tempo Point"): break
        if find(s, label="do not choose"): act(s, label="do not choose")
        else: break
    take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}
    assert sv(s, "intrepid_played", "home") == 1
    assert "Last-Second Lunge" in P(s)["zones"]["home intrepid"]

def test_swift_not_played_if_it_would_empty_the_hand():
    s = _pass_roll_blank(["Lion's Charge", "Last-Second Lunge"])
    assert not find(s, label="Last-Second Lunge")

def test_swift_not_played_after_two_intrepid_moves():
    s = pos(zones={"home hand": ["Lion's Charge", "Brave Breakaway", "Hoop Hunter", "Last-Second Lunge", "Scarlet Blitz"]})
    start_blocks(s, "Lion's Charge", "Serpent's Snatch", home_intrepid=["Brave Breakaway", "Hoop Hunter"])
    for _ in range(6):
        if rule_of(s) == "move_action": break
        s.apply_action_id(s.options()[0]["id"])
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    assert not find(s, label="Last-Second Lunge")

# ---------------- more Tempo ----------------
def test_hand_swap_tempo_point_over_three_takes_snitch_card():
    s = pos(zones={"home hand": [], "home tactical_deck": list(DECK6)}, side_vars={"tempo": {"home": 0, "away": 3}})
    for _ in range(12):
        if rule_of(s) in ("take_snitch_card", "choose_pitch_actions"): break
        m = [o for o in s.options() if o["label"] == "do not choose"]
        s.apply_action_id((m or s.options())[0]["id"])
    assert rule_of(s) == "take_snitch_card" and s.current_player() == 1
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert sv(s, "tempo", "away") == 0

def test_steal_reaction_success_earns_no_tempo():
    s = steal_pos(pieces={"home chaser 2": "home_north", "home chaser 3": "home_north"})
    o = [o for o in s.options() if "Steal" in o["label"]][0]
    s.apply_action_id(o["id"])
    roll(s, "success", "blank", "blank")
    act(s, label="answers with a Steal Reaction")
    roll(s, "opportunity", "blank")
    assert sv(s, "tempo", "home") == 0 and sv(s, "tempo", "away") == 0

# ---------------- Beat a carrier inside the Scoring Area ----------------
def test_beaten_chaser_inside_scoring_area_shifts_out_before_loose():
    s = pos(pieces={"home chaser 1": "away_scoring", "away beater 1": "away_back", "bludger_a": "away_back",
                    "away chaser 1": "away_deploy"}, attacking="home")
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="beat_action", p="away beater 1", t="home chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    no_reaction(s)
    assert rule_of(s) == "shift_out" and s.current_player() == 0, labels(s)
    act(s, label="to away_north")
    assert s.current_player() == 1 and rule_of(s) == "go_loose"
    zs = {o["label"].split(" in ")[-1] for o in s.options()}
    assert "away_scoring" not in zs

# ---------------- Race: tokens, Obstruct, Dodge, Ahead/Lagged ----------------
def test_token_discarded_when_both_seekers_passed():
    s = race_pos(pieces={"home seeker": "r8", "away seeker": "r5", "home upwind 1": "r6"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")   # away r5 -> r7, passing r6
    assert where(s, "home upwind 1") is None

def test_token_kept_while_a_seeker_is_behind():
    s = race_pos(pieces={"home seeker": "r2", "away seeker": "r5", "home upwind 1": "r6"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert where(s, "home upwind 1") == "r6"

def test_sly_obstruction_not_playable_when_rival_lagged():
    s = pos(pieces={"home seeker": "r2", "away seeker": "r6"},
            zones={"away hand": ["Serpent's Snatch", "Sly Obstruction", "Venom Strike"]})
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="do not choose")
    assert not find(s, label="Sly Obstruction")

def test_sly_obstruction_pushes_rival_back():
    s = pos(pieces={"home seeker": "r8", "away seeker": "r6"},
            zones={"away hand": ["Serpent's Snatch", "Sly Obstruction", "Venom Strike"]})
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="do not choose"); act(s, label="play Sly Obstruction as an Intrepid")
    for _ in range(3):
        if rule_of(s) == "offer_intrepid": act(s, label="do not choose")
    roll(s, "blank", "blank")        # Slytherin obstruct dice [black, black], +1 Success
    assert where(s, "home seeker") == "r7"

def test_sly_obstruction_allowed_when_seekers_share_space():
    s = pos(pieces={"home seeker": "r6", "away seeker": "r6"},
            zones={"away hand": ["Serpent's Snatch", "Sly Obstruction", "Venom Strike"]})
    act(s, label="play Lion's Charge as the Pitch"); act(s, label="play Serpent's Snatch as the Pitch")
    act(s, label="do not choose")
    assert find(s, label="Sly Obstruction")

def test_setup_golden_snitch_resolved_with_attacking_team():
    for seed in range(1, 40):
        s = new_game(game(), seed=seed)
        for _ in range(300):
            if rule_of(s) in ("kick_off",): break
            if rule_of(s) == "roll_pool" and not s.is_chance_node():
                att = var(s, "attacking")
                assert att and s.options()[0]["label"].find(f"{att} seeker") >= 0, (seed, labels(s), att)
            if s.is_chance_node(): s.apply_action(s.sample_chance())
            else: s.apply_action_id(s.options()[0]["id"])

def test_game_ends_when_snitch_caught_only():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r13"},
                 side_vars={"goals": {"home": 5, "away": 0}, "uncelebrated": {"home": 5, "away": 0}})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert s.is_terminal() and s.returns()[1] > s.returns()[0]

def test_card_in_play_no_type_match_gives_rushed_of_card_in_play():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Shoulder to Shoulder", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Shoulder to Shoulder")     # star: no match for Head Down (broom; wing, cloud)
    assert where(s, "away seeker") == "r7"        # Rushed of Head Down: Accelerate 2
    assert where(s, "home seeker") == "r3"        # the new card's own effects are not used
    assert sorted(P(s)["zones"]["snitch_discard"]) == ["Head Down, Full Speed", "Shoulder to Shoulder"]

def test_obstruct_skipped_against_lagged_rival_accelerate_still_applies():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r8"},
                 zones={"snitch_row": ["Shoulder to Shoulder", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Shoulder to Shoulder"); act(s, label="resolve the Rushed")
    assert where(s, "home seeker") == "r3"
    assert where(s, "away seeker") == "r9"

def test_obstruct_pushes_ahead_rival_back():
    s = race_pos(pieces={"home seeker": "r9", "away seeker": "r5"},
                 zones={"snitch_row": ["Shoulder to Shoulder", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Shoulder to Shoulder"); act(s, label="resolve the Rushed")
    assert where(s, "home seeker") == "r8"
    assert where(s, "away seeker") == "r6"

def test_obstruct_spends_token_where_pushed_seeker_ends():
    s = race_pos(pieces={"home seeker": "r9", "away seeker": "r5", "away upwind 1": "r8"},
                 zones={"snitch_row": ["Shoulder to Shoulder", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Shoulder to Shoulder"); act(s, label="resolve the Rushed")
    # home pushed to r8 onto an away (rival) flag: back one more -> r7; token discarded
    assert where(s, "away upwind 1") is None
    assert where(s, "home seeker") == "r7"

def test_dodge_may_ignore_token():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "home upwind 1": "r7"},
                 zones={"snitch_row": ["Racing Line", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take Racing Line"); act(s, label="resolve the Rushed")   # Dodge 2 -> r7
    ig = [o for o in s.options() if "dodge" in o["label"].lower() or "ignore" in o["label"].lower()]
    assert ig, labels(s)
    s.apply_action_id(ig[0]["id"])
    assert where(s, "away seeker") == "r7" and where(s, "home upwind 1") == "r7"

def test_accelerate_must_spend_token():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "home upwind 1": "r7"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert not [o for o in s.options() if "ignore" in o["label"].lower()]
    assert where(s, "away seeker") == "r6"

def test_upwind_own_then_rival_once_each():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "away upwind 1": "r7", "home upwind 1": "r8"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")   # r7 own -> r8 rival -> r7
    assert where(s, "away seeker") == "r7"
    assert where(s, "away upwind 1") is None and where(s, "home upwind 1") is None

def test_upwind_second_own_flag_not_used_in_same_move():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5", "away upwind 1": "r7", "away upwind 2": "r8"})
    act(s, label="take Head Down"); act(s, label="resolve the Rushed")
    assert where(s, "away seeker") == "r8"

def test_glimpse_fixed_moves_snitch():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Hovering Low"], "snitch_row": ["A Glint of Gold", "Trimmed Twigs", "Crosswind"]})
    act(s, label="take A Glint of Gold")     # wing = Perfect of Hovering Low: Glimpse 4
    assert where(s, "snitch") == "r11"

def test_ahead_seeker_is_closer_to_snitch_tokens_after_it():
    s = race_pos(pieces={"home seeker": "r9", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Racing Line"]})
    act(s, label="take Crosswind")     # away r5 -> r8 (still lagged), place Upwind
    sp = sorted(int(o["label"].split(" on r")[-1]) for o in s.options())
    assert sp == [9 - 0 + 1 - 1 + i for i in range(0)] or sp == list(range(10, 15)) + [] or sp == [10, 11, 12, 13, 14] or True
    # home ahead at r9: window r10..r14; away lagged: also strictly between r8 and r9 (none)
    assert sp == [10, 11, 12, 13, 14], sp

def test_seekers_on_same_space_tokens_after_it():
    s = race_pos(pieces={"home seeker": "r8", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Racing Line"]})
    act(s, label="take Crosswind")     # away r5 -> r8: both on r8, nobody ahead
    sp = sorted(int(o["label"].split(" on r")[-1]) for o in s.options())
    assert sp == [9, 10, 11, 12, 13, 14], sp

def test_race_dice_token_placed_and_taken():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"away snitch_in_play": ["Racing Line"], "snitch_row": ["Trimmed Twigs", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Trimmed Twigs")       # broom = Perfect of Racing Line: Dodge 4 + orange Bonus Dice token
    for _ in range(4):
        if s.current_player() != 1 or rule_of(s) == "take_snitch_card": break
        ls = labels(s)
        s.apply_action_id(s.options()[0]["id"])
    assert where(s, "away seeker") == "r9"
    dice = [k for k, v in P(s)["pieces"].items() if k.startswith("race_die") and v]
    assert dice

# ---------------- penalties on Reactions and Beat ----------------
def test_stunned_applies_to_beat():
    s = beat_pos(piece_vars={"stunned": {"home beater 1": 1}})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    if find(s, label="no Reaction"): no_reaction(s)
    assert pv(s, "stunned", "away chaser 1") == 0

def test_reaction_at_disadvantage_loses_an_opportunity():
    # away chaser 1 targeted by a Beat while outnumbered in its zone
    s = beat_pos(pieces={"home chaser 2": "away_north", "home chaser 3": "away_north"})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    act(s, label="away chaser 1 Manoeuvres")
    roll(s, "opportunity")
    assert pv(s, "stunned", "away chaser 1") == 1

def test_reaction_stunned_loses_an_opportunity():
    s = beat_pos(piece_vars={"stunned": {"away chaser 1": 1}})
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    act(s, label="away chaser 1 Manoeuvres")
    roll(s, "opportunity")
    assert pv(s, "stunned", "away chaser 1") == 2

def test_bludger_movement_hit_avoided_by_one_opportunity():
    s = blocks(pieces={"bludger_a": "away_north", "bludger_b": "away_south", "away chaser 1": "away_back",
                       "away beater 1": "away_deploy", "away beater 2": "away_deploy"})
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="centre_north")
    to_bludger_movement(s)
    act(s, label="move bludger_a")
    act(s, label="move bludger_a to away_back")
    tg = [o for o in s.options() if "targets away chaser 1" in o["label"]]
    if tg: s.apply_action_id(tg[0]["id"])
    act(s, label="Manoeuvres")
    roll(s, "opportunity")
    assert pv(s, "stunned", "away chaser 1") == 0

def test_kick_off_second_bludger_in_attackers_half():
    s = _to_kick_off()
    att = var(s, "attacking")
    s.apply_action_id(s.options()[0]["id"])
    assert rule_of(s) == "kick_off", labels(s)
    assert s.current_player() == (1 if att == "home" else 0)
    zs = {o["label"].split(" in ")[-1] for o in s.options()}
    assert zs == {"centre_north", "centre_south", f"{att}_north", f"{att}_south", f"{att}_back"}

def test_bonus_dice_token_is_optional_and_spent():
    s = blocks(piece_vars={"bonus_orange": {"home chaser 1": 1}})
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    ls = labels(s)
    assert len(ls) >= 2, ls     # use it or not
    with_tok = [o for o in s.options() if "2 orange" in o["label"] or "Bonus" in o["label"]]
    s.apply_action_id(with_tok[0]["id"])
    for _ in range(3):
        if s.is_chance_node(): break
        s.apply_action_id(s.options()[0]["id"])
    n = 0
    while s.is_chance_node():
        faces(s, "blank"); n += 1
    assert n == 3
    assert pv(s, "bonus_orange", "home chaser 1") == 0

def test_glimpse_reaching_ahead_seeker_first_it_catches():
    s = race_pos(pieces={"home seeker": "r12", "away seeker": "r13"},
                 zones={"away snitch_in_play": ["Hovering Low"], "snitch_row": ["A Glint of Gold", "Trimmed Twigs", "Crosswind"]},
                 attacking="home")
    act(s, label="take A Glint of Gold")     # Glimpse 4: r15 -> r13 (away) first
    assert s.is_terminal() and s.returns()[1] > s.returns()[0]

def test_no_free_space_token_not_placed():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r11"},
                 zones={"away snitch_in_play": ["Head Down, Full Speed"], "snitch_row": ["Crosswind", "Trimmed Twigs", "Racing Line"]})
    act(s, label="take Crosswind")     # Fast: Accelerate 3 -> r14, then Upwind: no space before r15
    assert where(s, "away seeker") == "r14"
    assert not (rule_of(s) == "place_upwind")
    assert not upwinds(s)

def test_lions_charge_as_intrepid_adds_success_to_action_rolls():
    s = pos(zones={"home hand": ["Hoop Hunter", "Lion's Charge", "Scarlet Blitz"]})
    start_blocks(s, "Hoop Hunter", "Serpent's Snatch", home_intrepid=["Lion's Charge"])
    act(s, rule="pass_action", p="home chaser 1", r="home chaser 2")
    roll(s, "blank", "blank")
    for _ in range(2):
        if find(s, label="take a Tempo Point"): take_tempo(s)
    assert where(s, "quaffle") == {"carried_by": "home chaser 2"}

def test_until_end_of_sequence_effects_expire():
    s = pos(zones={"home hand": ["Hoop Hunter", "Lion's Charge", "Scarlet Blitz"]})
    start_blocks(s, "Hoop Hunter", "Serpent's Snatch", home_intrepid=["Lion's Charge"])
    boost = P(s)["side_vars"]["action_boost"]["home"]
    assert boost == 1
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="away_north")
    act(s, rule="move_action", p="home beater 2", z="home_south")
    from test_examiner_ctgs_rules import _finish_sequence
    _finish_sequence(s)
    assert P(s)["side_vars"]["action_boost"]["home"] == 0

def test_rolled_accelerate_with_plus_modifier():
    # Trimmed Twigs Rushed: Accelerate (roll +1); Slytherin Seeker accelerate dice [orange, purple]
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"snitch_row": ["Trimmed Twigs", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Trimmed Twigs"); act(s, label="resolve the Rushed")
    roll(s, "blank", "blank")
    assert where(s, "away seeker") == "r6"

def test_rolled_accelerate_counts_successes():
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"snitch_row": ["Trimmed Twigs", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Trimmed Twigs"); act(s, label="resolve the Rushed")
    roll(s, "double success", "opportunity")
    assert where(s, "away seeker") == "r8"

def test_rolled_obstruct_not_against_lagged_rival():
    # Sudden Swerve Rushed: Obstruct (roll +1): home is Lagged -> nothing happens
    s = race_pos(pieces={"home seeker": "r3", "away seeker": "r5"},
                 zones={"snitch_row": ["Sudden Swerve", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Sudden Swerve"); act(s, label="resolve the Rushed")
    assert not s.is_chance_node() and rule_of(s) != "roll_pool"
    assert where(s, "home seeker") == "r3"

def test_rolled_obstruct_against_ahead_rival():
    s = race_pos(pieces={"home seeker": "r9", "away seeker": "r5"},
                 zones={"snitch_row": ["Sudden Swerve", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Sudden Swerve"); act(s, label="resolve the Rushed")
    roll(s, "success", "blank")      # Slytherin obstruct dice [black, black]: 1 + 1
    assert where(s, "home seeker") == "r7"

def test_obstruct_does_not_push_past_first_space():
    s = race_pos(pieces={"home seeker": "r2", "away seeker": "r2"},
                 zones={"snitch_row": ["Sudden Swerve", "Crosswind", "Head Down, Full Speed"]})
    act(s, label="take Sudden Swerve"); act(s, label="resolve the Rushed")
    roll(s, "success", "success")
    assert where(s, "home seeker") == "r1"

def test_rules_conflict_active_coach_first_in_after_roll_window():
    # Rules Conflict: "the active Coach resolves first, then the other Coach"
    s = pos(pieces={"home beater 1": "centre_north", "away chaser 1": "away_north", "quaffle": "holder:away chaser 1"},
            attacking="away",
            zones={"home hand": ["Lion's Charge", "Last-Second Lunge", "Hoop Hunter"],
                   "away hand": ["Serpent's Snatch", "Sneaky Elbow", "Venom Strike"]})
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    act(s, rule="move_action", p="away beater 1", z="away_south")
    act(s, rule="beat_action", p="home beater 1", t="away chaser 1")
    if find(s, label="Beat bludger_a"): act(s, label="Beat bludger_a")
    roll(s, "success", "blank")
    seq = []
    for _ in range(6):
        if find(s, label="Last-Second Lunge") or find(s, label="Sneaky Elbow"):
            seq.append(s.current_player())
            act(s, label="do not choose") if find(s, label="do not choose") else s.apply_action_id(s.options()[-1]["id"])
        else:
            break
    assert seq[:2] == [0, 1], (seq, labels(s))

def test_blocks_in_printed_order_two_then_one():
    # Brave Breakaway [2, 1] vs Serpent's Snatch [1]: A A | D | A
    s = pos(zones={"home hand": ["Brave Breakaway", "Lion's Charge"]})
    start_blocks(s, "Brave Breakaway", "Serpent's Snatch")
    seq = []
    for _ in range(4):
        if rule_of(s) != "move_action": break
        seq.append(s.current_player())
        side = "home" if s.current_player() == 0 else "away"
        o = [o for o in find(s, rule="move_action") if "beater" in o["args"]["p"]][0]
        s.apply_action_id(o["id"])
    assert seq == [0, 0, 1, 0], seq

def test_defender_with_longer_card_goes_on_after_attacker_runs_out():
    s = pos(zones={"away hand": ["Coiled Defence", "Serpent's Snatch"]})
    start_blocks(s, "Lion's Charge", "Coiled Defence")   # [1] vs [1,1,1]
    seq = []
    for _ in range(4):
        if rule_of(s) != "move_action": break
        seq.append(s.current_player())
        o = [o for o in find(s, rule="move_action") if "beater" in o["args"]["p"]][0]
        s.apply_action_id(o["id"])
    assert seq == [0, 1, 1, 1], seq
