"""Catch the Golden Snitch: the rules of the Pitch (rules/catch-the-golden-snitch/pitch.lumos).

Each test builds a situation with tests/games/ctgs_table.py (the shipped rules compiled with a
small test deck: home coaches Gryffindor, away Slytherin), forces the dice, and checks the
options offered and the state after choosing. Docstrings cite the rulebook section
(rulebooks/catch-the-golden-snitch.txt); "RULING" marks a choice where the rulebook is
silent (docs/rulings/catch-the-golden-snitch.md).

Test pools: Chasers pass [orange, purple], shoot [orange, orange], steal [purple, black]
(rolled black first: a pool is rolled orange, black, purple), manoeuvre [black]; Keepers
pass [purple], catch [black, purple], steal [black], manoeuvre [black]; Beaters beat
[orange, orange], defense [black, purple], manoeuvre [black].
"""
from __future__ import annotations

import pytest

from games.ctgs_table import AWAY, HOME, Table, compile_test_game, pitch_table
from support.table import drive

HC1, HC2, HC3 = "home chaser 1", "home chaser 2", "home chaser 3"
AC1, AC2, AC3 = "away chaser 1", "away chaser 2", "away chaser 3"
HB1, HB2, AB1, AB2 = "home beater 1", "home beater 2", "away beater 1", "away beater 2"
HK, AK = "home keeper", "away keeper"


def do_pass(t: Table, passer: str, receiver: str) -> None:
    labs = [lab for lab in t.labels() if lab.startswith(f"pass the Quaffle from {passer} (") and f" to {receiver} (" in lab]
    assert labs, f"no pass {passer} -> {receiver}; options: {t.labels()}"
    t.pick(labs[0])


def moves_of(t: Table, piece: str) -> set[str]:
    prefix = f"move {piece} from "
    return {lab.rsplit(" to ", 1)[1] for lab in t.labels() if lab.startswith(prefix)}


def pass_receivers(t: Table, passer: str) -> set[str]:
    prefix = f"pass the Quaffle from {passer} ("
    return {lab.split(" to ", 1)[1].split(" (")[0] for lab in t.labels() if lab.startswith(prefix)}


def log_has(t: Table, text: str) -> bool:
    return any(text in e for e in t.events())


# ======================================================================================
# Action Blocks


def test_a_block_of_two_actions_performs_both():
    """Outfield Play > Action Blocks: "You must perform all the Actions listed in an Action
    Block": a block of 2 lets the Coach act twice before the rival's block."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"}, blocks={"home": 2, "away": 1})
    t.pick(f"move {HC1} from home_back to home_north")
    assert t.deciding() == "home"
    t.pick(f"move {HC1} from home_north to centre_north")
    assert t.deciding() == "away" and t.offered(f"move {AC1} from away_back")


def test_extra_action_from_an_intrepid_move_joins_the_next_block():
    """Intrepid Moves; Outfield Play > Action Blocks: an Intrepid Move's extra Action
    (cards.lumos `extra_action`) adds one Action to the Coach's next Action Block, once."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"}, blocks={"home": (1, 1), "away": 1},
                    sv={"extra_actions": {"home": 1}})
    t.pick(f"move {HC1} from home_back to home_north")
    assert t.deciding() == "home"                         # 1 + 1 extra
    t.pick(f"move {HC1} from home_north to centre_north")
    assert t.side_var("extra_actions", "home") == 0
    t.pick(f"move {AC1} from away_back to away_north")
    t.pick(f"move {HC1} from centre_north to away_deploy")  # the second block: 1 Action
    assert not t.offered(f"move {HC1} from away_deploy")   # no third Action in this block


def test_no_possible_action_forfeits_the_rest_of_the_block():
    """Outfield Play > Action Blocks (RULING: when no Action is possible the rest of the
    block is lost): a lone Chaser at Severe Disadvantage, unstunned, without the Quaffle
    cannot Move, Pass, Shoot, Steal, Beat or Recover."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "centre_north", AC3: "away_back"},
                    ball=AC3, attack="away", blocks={"home": 3, "away": 1})
    # away attacks first: one Action
    t.pick(f"move {AC3} from away_back to away_north")
    # home's block of 3: nothing possible -> straight to the Bludger Movement / next step
    assert log_has(t, "home has no Action it can perform")
    assert t.var("block_over") is True


def test_a_loose_quaffle_ends_the_block_at_once():
    """Change of Possession and Loose Quaffles: "When a Quaffle goes Loose during an Action
    Block ... the Action Block immediately ends, even if there were Actions still to be
    resolved"; the opposing Team becomes the Attacking Team."""
    t = pitch_table({HC1: "home_north", HC2: "home_deploy", AC1: "away_back"}, ball=HC1,
                    blocks={"home": 3, "away": 1})
    do_pass(t, HC1, HC2)
    t.roll("blank", "blank")
    assert t.deciding() == "away"
    t.pick("the Quaffle goes Loose in home_back")
    assert t.attacking() == "away"
    # home had 2 Actions left: the next decision is away's block.
    assert t.deciding() == "away" and t.offered(f"move {AC1} from away_back")


# ======================================================================================
# Move, Shift, picking up the Quaffle


def test_move_goes_to_any_adjacent_zone():
    """Actions > Move: "Choose one of your Players and move it to an adjacent Zone. No dice
    roll is required." (Board reconstruction: home_back touches the Scoring Area, both
    wings and the Deployment Zone.)"""
    t = pitch_table({HC1: "home_back", AC1: "away_back"})
    assert moves_of(t, HC1) == {"home_north", "home_south", "home_deploy"}
    t.pick(f"move {HC1} from home_back to home_deploy")
    assert t.where(HC1) == "home_deploy"


def test_move_not_out_of_disadvantage():
    """Disadvantage: "Players at a Disadvantage or Severe Disadvantage cannot Move out of
    their Zone."; Actions > Move (Slytherin example)."""
    t = pitch_table({HC1: "centre_north", HC2: "home_back", AC1: "centre_north", AC2: "centre_north"})
    assert moves_of(t, HC1) == set()
    assert moves_of(t, HC2)


def test_equal_numbers_are_no_disadvantage():
    """Disadvantage: only "the Players in the minority" are at a Disadvantage."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", HC2: "home_back"})
    assert moves_of(t, HC1)


def test_shift_ignores_disadvantage():
    """Actions > Move: "Shift works the same as a Move Action, ignoring Disadvantage."
    (Breaking the Tempo offers a Shift; the Player at Disadvantage may be Shifted.)"""
    t = pitch_table({HC1: "centre_north", HC2: "centre_north", AC1: "centre_north", AC2: "centre_north",
                     AC3: "centre_north", HB1: "home_back"}, ball=HC1)
    assert moves_of(t, HC1) == set() and moves_of(t, HC2) == set()
    do_pass(t, HC1, HC2)
    t.roll("double success", "double success")  # 4 - 1 (Disadvantage of both ends) = 3
    t.pick("Break the Tempo: Shift a Player")
    t.pick(f"Shift {HC2}")
    t.pick(f"Shift {HC2} to home_north")
    assert t.where(HC2) == "home_north" and t.holder() == HC2


def test_moving_into_the_loose_quaffle_picks_it_up():
    """Change of Possession and Loose Quaffles: "a Player may perform a Move Action to the
    Zone containing the Quaffle, picking it up as they complete the Move. Their Team
    becomes the Attacking Team"."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"}, loose="home_north", attack="away",
                    blocks={"home": 1, "away": 1})
    t.pick(f"move {AC1} from away_back to away_north")
    t.pick(f"move {HC1} from home_back to home_north")
    assert t.holder() == HC1 and t.attacking() == "home"


def test_a_beater_does_not_pick_up_the_quaffle():
    """Change of Possession and Loose Quaffles (RULING: only Chasers and Keepers carry the
    Quaffle, so only they pick it up)."""
    t = pitch_table({HB1: "home_back", AC1: "away_back"}, loose="home_north")
    t.pick(f"move {HB1} from home_back to home_north")
    assert t.holder() is None and t.where("quaffle") == "home_north"


# ======================================================================================
# The Scoring Area


def test_scoring_area_only_for_its_keeper_and_the_chaser_with_the_quaffle():
    """Elements of the Game > The Game Board 3; Score a Goal: "only the Defending Team's
    Keeper and a single Chaser from the Attacking Team in Possession of the Quaffle may be
    inside the Scoring Area". RULING: a Keeper may go back into its own Scoring Area, never
    into the rival's; a Chaser only into the rival's."""
    t = pitch_table({HC1: "away_back", HC2: "away_back", HB1: "away_back", HK: "home_back",
                     AC1: "home_back"}, ball=HC1)
    assert "away_scoring" in moves_of(t, HC1)
    assert "away_scoring" not in moves_of(t, HC2)
    assert "away_scoring" not in moves_of(t, HB1)
    assert "home_scoring" in moves_of(t, HK)


def test_keeper_may_not_enter_the_rival_scoring_area():
    """Elements of the Game > The Game Board 3: no Player but the owning Keeper and the
    attacking Chaser with the Quaffle enter a Scoring Area."""
    t = pitch_table({HK: "away_back", AC1: "home_back"}, ball=HK)
    assert "away_scoring" not in moves_of(t, HK)


def test_chaser_losing_the_quaffle_inside_shifts_out_before_it_is_placed():
    """Change of Possession and Loose Quaffles, Note: "A Chaser in Possession of the Quaffle
    within the Scoring Area that loses the Possession, must immediately Shift to an
    adjacent Zone outside the Scoring Area (before the Defending Team chooses where to
    place the Quaffle)". RULING: the Chaser's own Coach picks the Zone."""
    t = pitch_table({HC1: "away_scoring", HB1: "home_back", AB1: "away_back", "bludger_a": "away_back"},
                    ball=HC1)
    t.pick(f"move {HB1} from home_back to home_north")
    t.pick(f"{AB1} (away_back) Beats a Bludger at {HC1} (away_scoring)")
    t.roll("success", "blank")
    t.pick(f"no Reaction for {HC1}")
    # first the Chaser Shifts out, its Coach choosing ...
    assert t.deciding() == "home"
    assert set(t.labels()) == {f"Shift {HC1} out of the Scoring Area to {z}" for z in ("away_north", "away_south", "away_back")}
    t.pick(f"Shift {HC1} out of the Scoring Area to away_south")
    # ... then the Beater's Coach places the Quaffle, never in the Scoring Area
    assert t.deciding() == "away"
    assert set(t.labels()) == {f"the Quaffle goes Loose in {z}" for z in ("away_north", "away_south", "away_back")}
    t.pick("the Quaffle goes Loose in away_north")
    assert t.where(HC1) == "away_south" and t.where("quaffle") == "away_north"


def test_missed_shot_with_keeper_out_shifts_shooter_then_rival_places_quaffle():
    """Actions > Shoot: "If the Keeper is not inside the Scoring Area, your rival places
    the Quaffle Loose in a Zone adjacent to that Scoring Area"; the shooter Shifts out first
    (Change of Possession and Loose Quaffles, Note)."""
    t = pitch_table({HC1: "away_scoring", AC1: "centre_north"}, ball=HC1, blocks={"home": 2, "away": 1})
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.roll("blank", "blank")
    assert t.deciding() == "home"
    assert set(t.labels()) == {f"Shift {HC1} out of the Scoring Area to {z}" for z in ("away_north", "away_south", "away_back")}
    t.pick(f"Shift {HC1} out of the Scoring Area to away_south")
    assert t.deciding() == "away"
    assert set(t.labels()) == {f"the Quaffle goes Loose in {z}" for z in ("away_north", "away_south", "away_back")}
    t.pick("the Quaffle goes Loose in away_north")
    assert t.where("quaffle") == "away_north" and t.holder() is None
    assert t.attacking() == "away"
    # Loose: home's second Action is lost.
    assert t.deciding() == "away" and t.offered(f"move {AC1} from centre_north")


# ======================================================================================
# Pass


def test_pass_targets_friendly_chasers_and_keepers_within_two_zones():
    """Actions > Pass: "Target a friendly model up to 2 Zones away"; Quick Reference >
    Actions: "a friendly Chaser". RULING: friendly Chasers and Keepers (the carriers),
    never a Beater; a Player 3 Zones away is out of reach."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", HC3: "away_deploy", HK: "home_scoring",
                     HB1: "home_north", AC1: "away_back"}, ball=HC1)
    # home_north -> centre_north 1, -> away_deploy 2, -> home_scoring 1
    assert pass_receivers(t, HC1) == {HC2, HC3, HK}
    t2 = pitch_table({HC1: "home_back", HC2: "away_deploy", AC1: "away_back"}, ball=HC1)
    # home_back -> away_deploy is 3 Zones (home_deploy, centre_*, away_deploy)
    assert pass_receivers(t2, HC1) == set()


def test_successful_pass_gives_the_quaffle_and_a_tempo_point():
    """Actions > Pass: "If the roll is successful, place the Quaffle in Possession of the
    target Player"; Tempo Points: a successful Pass adds one Tempo Point."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    do_pass(t, HC1, HC2)
    t.roll("success", "blank")
    t.pick("take a Tempo Point")
    assert t.holder() == HC2 and t.side_var("tempo", "home") == 1


def test_worked_example_pass_with_the_target_at_a_disadvantage():
    """Disadvantage, the example: "The Gryffindor Chaser tries to Pass the Quaffle to a
    teammate. Although the Chaser is not at a Disadvantage, the target Player is. The dice
    roll result deducts 1 Success." (Actions > Pass, Note: either Player at a Disadvantage.)"""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "centre_north", AC2: "centre_north"},
                    ball=HC1)
    do_pass(t, HC1, HC2)
    t.roll("success", "blank")          # 1 Success - 1 = 0: the Pass fails
    assert log_has(t, "home chaser 1's pass roll: 0 Successes")
    assert t.deciding() == "away" and t.offered("the Quaffle goes Loose in ")
    t2 = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "centre_north", AC2: "centre_north"},
                     ball=HC1)
    do_pass(t2, HC1, HC2)
    t2.roll("double success", "blank")  # 2 - 1 = 1: the Pass succeeds
    t2.pick("take a Tempo Point")
    assert t2.holder() == HC2


def test_pass_disadvantage_of_both_ends_counts_once():
    """Actions > Pass, Note; Disadvantage (RULING: when both ends are at a Disadvantage,
    the larger penalty applies once, the two are not added)."""
    t = pitch_table({HC1: "home_north", AC3: "home_north", HC2: "centre_north", AC1: "centre_north",
                     AC2: "centre_north"}, ball=HC1)
    # passer: 1 rival vs 1 friend -> none; make it Disadvantaged with a second rival
    t.put({AB1: "home_north"})
    do_pass(t, HC1, HC2)
    t.roll("double success", "blank")   # 2 - max(1, 1) = 1
    t.pick("take a Tempo Point")
    assert t.holder() == HC2


def test_failed_pass_goes_loose_where_the_rival_chooses_never_a_scoring_area():
    """Actions > Pass: "If the roll fails, place the Quaffle Loose – your rival chooses
    whether the Quaffle goes Loose in the target Player's Zone, or a Zone adjacent to it
    (but never in a Scoring Area)."""
    t = pitch_table({HC1: "home_north", HK: "home_scoring", AC1: "away_back"}, ball=HC1)
    do_pass(t, HC1, HK)
    t.roll("blank", "blank")
    assert t.deciding() == "away"
    assert set(t.labels()) == {f"the Quaffle goes Loose in {z}" for z in ("home_back", "home_north", "home_south")}
    t.pick("the Quaffle goes Loose in home_south")
    assert t.where("quaffle") == "home_south" and t.attacking() == "away"


# ======================================================================================
# Shoot, Aim at the Hoop, Goals


def test_only_a_chaser_with_the_quaffle_in_the_rival_scoring_area_shoots():
    """Actions > Shoot: "This Action may only be performed by a Chaser in Possession of the
    Quaffle in the Scoring Area"."""
    t = pitch_table({HC1: "away_back", AC1: "away_north"}, ball=HC1)
    assert not t.offered(f"{HC1} shoots")
    t2 = pitch_table({HC1: "away_scoring", AC1: "away_north"}, ball=HC1)
    assert t2.offered(f"{HC1} shoots")
    t3 = pitch_table({HK: "home_scoring", AC1: "away_north"}, ball=HK)
    assert not t3.offered(f"{HK} shoots")


def shoot_with_keeper(hoop_home: int, hoop_away: int, dice=("success", "blank")) -> Table:
    t = pitch_table({HC1: "away_scoring", AK: "away_scoring", AC1: "away_back", HC2: "centre_north"},
                    ball=HC1, blocks={"home": 2, "away": 1})
    t.pick(f"{HC1} shoots at the Goal Hoops")
    assert t.deciding() == "home"
    t.pick(f"aim at Goal Hoop {hoop_home}")
    assert t.deciding() == "away"
    t.pick(f"guard Goal Hoop {hoop_away}")
    t.roll(*dice)
    return t


def test_aim_at_the_hoop_different_numbers_add_a_success():
    """Score a Goal > Aim at the Hoop: both Coaches choose one of their Goal Hoop cards in
    secret, then reveal; "If the cards display different numbers, the Chaser adds one
    additional Success to their Action roll." The cards go back to their owners."""
    t = shoot_with_keeper(1, 2, ("blank", "blank"))
    t.pick("no Catch Reaction")
    assert log_has(t, "home chaser 1's shoot roll: 1 Success")
    assert sorted(t.zone_names("hoops", "home")) == ["Goal Hoop 1", "Goal Hoop 2", "Goal Hoop 3"]
    assert sorted(t.zone_names("hoops", "away")) == ["Goal Hoop 1", "Goal Hoop 2", "Goal Hoop 3"]


def test_aim_at_the_hoop_same_number_adds_nothing():
    """Score a Goal > Aim at the Hoop: "If the cards display the same number, the Shoot
    Action proceeds as normal.\""""
    t = shoot_with_keeper(3, 3, ("blank", "blank"))
    t.pick("no Catch Reaction")
    assert log_has(t, "home chaser 1's shoot roll: 0 Successes")


def test_the_hoop_choice_is_secret():
    """Score a Goal > Aim at the Hoop: the Goal Hoop card is chosen "secretly" and placed
    face-down: while the rival chooses, it sees only that a card was chosen."""
    t = pitch_table({HC1: "away_scoring", AK: "away_scoring"}, ball=HC1)
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.pick("aim at Goal Hoop 2")
    assert t.deciding() == "away"
    seen = t.s.observation(AWAY)["zones"]
    assert seen["home hoop_choice"] == {"count": 1} and seen["home hoops"] == {"count": 2}
    assert t.s.observation(HOME)["zones"]["home hoop_choice"] == ["Goal Hoop 2"]


def test_no_aim_when_the_keeper_is_out():
    """Score a Goal > Aim at the Hoop: only "If the rival Keeper is also in the Scoring
    Area"; nor is there a Catch Reaction (Reactions > Catch: a Keeper in the Scoring Area)."""
    t = pitch_table({HC1: "away_scoring", AK: "away_back"}, ball=HC1)
    t.pick(f"{HC1} shoots at the Goal Hoops")
    assert t.s.is_chance_node()
    t.roll("success", "blank")
    assert log_has(t, "GOAL!")


def test_catch_reaction_takes_away_successes_and_the_keeper_takes_the_quaffle():
    """Actions > Shoot; Reactions > Catch: "your Keeper may use their Catch value to make a
    Reaction roll"; the Shoot fails and "place the Quaffle in Possession of the rival
    Team's Keeper ... and your rival immediately performs a Keeper's Kick-Off"."""
    t = shoot_with_keeper(1, 1, ("success", "blank"))
    t.pick("away keeper tries to Catch the shot")
    t.roll("opportunity", "blank")      # black, purple
    assert t.holder() == AK and t.attacking() == "away"
    assert t.deciding() == "home"       # Kick-Off step 1: the shooter Shifts out
    assert t.offered(f"Shift {HC1} out of the Scoring Area to ")


def test_a_goal():
    """Score a Goal; Aim at the Hoop: "the Coach of the Team that scored must take an
    Uncelebrated Goal token ... choose a Snitch card from the face-up row ... Then, the
    Action Block immediately ends." Tempo Points: a Shoot earns a Tempo Point, and it
    cannot Break the Tempo (no choice offered)."""
    t = pitch_table({HC1: "away_scoring", AK: "away_back", AC1: "away_north"}, ball=HC1,
                    blocks={"home": 2, "away": 1})
    row = list(t.zone("snitch_row"))
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.roll("double success", "blank")
    assert t.side_var("goals", "home") == 1 and t.side_var("uncelebrated", "home") == 1
    # the Snitch card (race.lumos): home chooses from the row
    assert t.deciding() == "home" and any("Test Snitch" in lab for lab in t.labels()), t.labels()
    drive(t, lambda t: t.side_var("tempo", "home") == 1 or t.deciding() == "away")
    assert t.side_var("tempo", "home") == 1
    assert not any("Break the Tempo" in lab for lab in t.labels())
    assert row != list(t.zone("snitch_row")) or t.zone("snitch_discard")


def test_after_a_goal_the_quaffle_goes_to_the_rival_keeper_with_a_kick_off():
    """Score a Goal (RULING: the rulebook does not say where the Quaffle goes after a Goal;
    it goes to the rival Keeper, with a Keeper's Kick-Off when the Keeper is in its
    Scoring Area, and the scorer Shifts out); the block ends (home's second Action lost)."""
    t = shoot_with_keeper(1, 2, ("success", "blank"))
    t.pick("no Catch Reaction")
    drive(t, lambda t: t.holder() == AK)
    assert t.attacking() == "away"
    assert t.var("block_over") is True
    drive(t, lambda t: t.where(HC1) != "away_scoring")
    assert t.where(HC1) in ("away_north", "away_south", "away_back")


def test_failed_shot_with_the_keeper_in_keeps_the_block_going():
    """Keeper's Kick-Off: "Once the Keeper's Kick-Off is resolved, the Game Sequence
    continues from the point it left off" (RULING: a failed Shoot caught by the Keeper is
    not a Loose Quaffle, so the shooter's block goes on)."""
    t = shoot_with_keeper(1, 1, ("blank", "blank"))
    t.pick("no Catch Reaction")
    assert t.holder() == AK
    t.pick(f"Shift {HC1} out of the Scoring Area to away_north")
    # Kick-Off step 2: the Attacking Team (away) first, then home
    assert t.deciding() == "away" and t.offered("Kick-Off: Shift ")
    t.decline()
    assert t.deciding() == "home"
    t.decline()
    # step 3: the Keeper's free Pass
    assert t.deciding() == "away"
    t.pick(f"Kick-Off: {AK} passes to {AC1} (away_back)")
    assert t.holder() == AC1 and t.side_var("tempo", "away") == 0
    # home's block: one Action left
    assert t.deciding() == "home" and t.offered(f"move {HC2} from centre_north")


# ======================================================================================
# Keeper's Kick-Off


def test_worked_example_keepers_kick_off():
    """Keeper's Kick-Off, the example: "the Slytherin Keeper performs the Keeper's Kick-Off.
    First, the Gryffindor Chaser that attempted to score is Shifted outside the Scoring
    Area. Next, starting with Slytherin, each Team may Shift one of its Players. Finally,
    the Slytherin Keeper picks a friendly Player within 2 Zones and performs a free Pass,
    which automatically succeeds." (Step 2: not into a Scoring Area; step 3: no roll, no
    Tempo.)"""
    t = pitch_table({HC1: "away_scoring", AK: "away_scoring", AC1: "away_deploy", AC2: "centre_north",
                     HC2: "away_back"}, ball=HC1)
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.pick("aim at Goal Hoop 1")
    t.pick("guard Goal Hoop 1")
    t.roll("blank", "blank")
    t.pick("away keeper tries to Catch the shot")
    t.roll("blank", "blank")
    assert t.holder() == AK
    # 1. the Gryffindor Chaser is Shifted out
    t.pick(f"Shift {HC1} out of the Scoring Area to away_north")
    assert t.where(HC1) == "away_north"
    # 2. Slytherin first, then Gryffindor; never into a Scoring Area
    assert t.deciding() == "away"
    t.pick(f"Kick-Off: Shift {AC2} (centre_north)")
    assert "away_scoring" not in {lab.rsplit(" to ", 1)[1] for lab in t.labels()}
    t.pick(f"Kick-Off: Shift {AC2} to away_north")
    assert t.deciding() == "home"
    t.pick(f"Kick-Off: Shift {HC2} (away_back)")
    assert not any(lab.endswith("away_scoring") for lab in t.labels())
    t.pick(f"Kick-Off: Shift {HC2} to away_deploy")
    # 3. the free Pass: any friendly carrier within 2 Zones, no roll
    assert t.deciding() == "away"
    assert set(t.offered("Kick-Off: away keeper passes to ")) == {
        f"Kick-Off: {AK} passes to {AC1} (away_deploy)", f"Kick-Off: {AK} passes to {AC2} (away_north)"}
    t.pick(f"Kick-Off: {AK} passes to {AC1} (away_deploy)")
    assert t.holder() == AC1 and not t.s.is_chance_node()
    assert t.side_var("tempo", "away") == 0 and t.attacking() == "away"


def test_steal_by_the_keeper_in_its_scoring_area_starts_a_kick_off():
    """Keeper's Kick-Off: "If, after any Action, the Quaffle ends up in the Possession of
    the Keeper within their own Scoring Area, in addition to the Change of Possession"."""
    t = pitch_table({AC1: "home_scoring", HK: "home_scoring", HC1: "centre_north", AC2: "away_back"},
                    ball=AC1, attack="away")
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HK} (home_scoring) tries to Steal the Quaffle from {AC1}")
    t.roll("success")                    # the Keeper's steal: [black]
    t.pick("no Steal Reaction")
    assert t.holder() == HK and t.attacking() == "home"
    # the Chaser Shifts out (its Coach picks), then the Kick-Off goes on
    assert t.deciding() == "away" and t.offered(f"Shift {AC1} out of the Scoring Area to ")
    t.pick(f"Shift {AC1} out of the Scoring Area to home_back")
    assert t.deciding() == "home" and t.offered("Kick-Off: Shift ")


def test_a_pass_to_the_own_keeper_is_no_kick_off():
    """Keeper's Kick-Off (RULING: only with a Change of Possession: a teammate's Pass to the
    Keeper in its Scoring Area starts no Kick-Off)."""
    t = pitch_table({HC1: "home_back", HK: "home_scoring", AC1: "away_back"}, ball=HC1)
    do_pass(t, HC1, HK)
    t.roll("success", "blank")
    t.pick("take a Tempo Point")
    assert t.holder() == HK and not log_has(t, "Keeper's Kick-Off")


# ======================================================================================
# Steal


def test_worked_example_steal_with_a_steal_reaction():
    """Actions > Steal, the example: "The Gryffindor Chaser is in the same Zone as the
    Slytherin Chaser with the Quaffle. The Gryffindor Player attempts to Steal the Quaffle
    – but the Slytherin Chaser uses a Reaction to try and keep Possession"; Reactions >
    Steal: the carrier rolls its own Steal value; each Opportunity removes a Success."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "away_back"}, ball=AC1,
                    attack="away", blocks={"home": 1, "away": 1})
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HC1} (centre_north) tries to Steal the Quaffle from {AC1}")
    t.roll("blank", "success")           # black, purple: 1 Success
    assert t.deciding() == "away"
    assert t.labels() == ["no Steal Reaction", f"{AC1} answers with a Steal Reaction"]
    t.pick(f"{AC1} answers with a Steal Reaction")
    t.roll("opportunity", "blank")       # black, purple: 1 Opportunity
    assert t.holder() == AC1 and t.attacking() == "away"
    assert log_has(t, "away chaser 1 keeps the Quaffle")


def test_successful_steal_changes_possession_and_earns_tempo():
    """Actions > Steal: "If the roll is successful, place the Quaffle in Possession of the
    nominated Player"; Change of Possession: the Team in Possession attacks; Tempo Points:
    Steal as an Action earns a Tempo Point."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "away_back"}, ball=AC1,
                    attack="away", blocks={"home": 1, "away": 1})
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HC1} (centre_north) tries to Steal the Quaffle from {AC1}")
    t.roll("success", "blank")
    t.pick("no Steal Reaction")
    assert t.holder() == HC1 and t.attacking() == "home"
    t.pick("take a Tempo Point")
    assert t.side_var("tempo", "home") == 1 and t.side_var("tempo", "away") == 0


def test_steal_only_by_the_defending_team_in_the_carriers_zone():
    """Actions > Steal: "Only a Player on the Defending Team may perform this Action.
    Nominate one of your Players in the same Zone as the Player with the Quaffle." RULING:
    Chasers and Keepers Steal (a Beater in the Zone may not)."""
    t = pitch_table({HC1: "centre_north", HB1: "centre_north", HC2: "away_deploy", AC1: "centre_north",
                     AC2: "away_back"}, ball=AC1, attack="away", blocks={"home": 1, "away": 1})
    assert not t.offered(f"{AC2} (")     # the attacking team has no Steal
    t.pick(f"move {AC2} from away_back to away_north")
    assert t.offered(f"{HC1} (centre_north) tries to Steal")
    assert not t.offered(f"{HC2} (away_deploy) tries to Steal")
    assert not t.offered(f"{HB1} (centre_north) tries to Steal")


def test_steal_immune_team_cannot_be_stolen_from():
    """Intrepid Moves (cards.lumos `protect_from_steals`): rival Steal Actions cannot target
    the protected Team's Players this Game Sequence."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "away_back"}, ball=AC1,
                    attack="away", blocks={"home": 1, "away": 1})
    t.set_side_var("steal_immune", "away", True)
    t.pick(f"move {AC2} from away_back to away_north")
    assert not t.offered(f"{HC1} (centre_north) tries to Steal")


# ======================================================================================
# Beat, Reactions


def beat_table(**kw) -> Table:
    layout = {HB1: "centre_north", "bludger_a": "centre_north", "bludger_b": "home_back",
              AC1: "away_deploy", AB1: "away_deploy", AC2: "away_back", HC1: "home_back"}
    layout.update(kw.pop("layout", {}))
    return pitch_table(layout, **kw)


def test_beat_needs_a_bludger_in_the_beaters_zone_and_reaches_two_zones():
    """Actions > Beat: "Choose one of your Beaters in the same Zone as a Bludger. That
    Beater targets a rival Player up to 2 Zones away." (Quick Reference > Actions.)"""
    t = beat_table(ball=HC1)
    targets = {lab.split(" Beats a Bludger at ")[1].split(" (")[0] for lab in t.offered(f"{HB1} (centre_north) Beats")}
    # centre_north -> away_deploy 1, away_back 2
    assert targets == {AC1, AB1, AC2}
    t2 = beat_table(ball=HC1, layout={"bludger_a": "home_north"})
    assert not t2.offered(f"{HB1} (centre_north) Beats")


def test_worked_example_beat_with_a_defense_reaction():
    """Actions > Beat, the example: "If the target is a Chaser, they may try to evade the
    impact with a Manoeuvre Reaction. If there is a Gryffindor Beater in the target's
    space, they may use the Defense Reaction to protect their teammate." Reactions >
    Defense: a Beater in the target's Zone may Defend; "If the Bludger is not stopped by
    this Reaction, it will still attack the original target"; one Reaction only."""
    t = beat_table(ball=HC1)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "success")          # 2 Successes
    assert t.deciding() == "away"
    assert t.labels() == [f"no Reaction for {AC1}", f"{AC1} Manoeuvres", f"a Beater Defends {AC1}"]
    t.pick(f"a Beater Defends {AC1}")
    t.roll("opportunity", "blank")        # defense [black, purple]: 1 Opportunity
    # 2 - 1 = 1: the Bludger still hits the Chaser; no second Reaction was offered
    assert t.piece_var("stunned", AC1) == 1 and t.piece_var("stunned", AB1) == 0
    # the rival places the Bludger in the target's Zone or next to it
    assert t.deciding() == "away"
    assert set(t.labels()) == {f"place bludger_a in {z}" for z in
                               ("centre_north", "centre_south", "away_deploy", "away_north", "away_south", "away_back")}
    t.pick("place bludger_a in away_back")
    assert t.where("bludger_a") == "away_back"
    t.pick("take a Tempo Point")
    assert t.side_var("tempo", "home") == 1


def test_defense_reaction_that_stops_the_bludger():
    """Reactions > Defense: each Opportunity removes a Success; no Success left: the Beat
    fails (no Stunned token), and the Bludger is still placed by the rival (Actions >
    Beat: "Whether or not this Action is successful")."""
    t = beat_table(ball=HC1)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "blank")
    t.pick(f"a Beater Defends {AC1}")
    t.roll("double opportunity", "blank")
    assert t.piece_var("stunned", AC1) == 0
    assert t.deciding() == "away" and t.offered("place bludger_a in ")
    t.pick("place bludger_a in away_deploy")
    assert t.side_var("tempo", "home") == 0


def test_beat_ignores_disadvantage():
    """Disadvantage: "The exception to the rule is the Beat Action – this Action ignores the
    Disadvantage and Severe Disadvantage rules."""
    t = beat_table(ball=HC1, layout={AC3: "centre_north", AB2: "centre_north"})
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC2} (away_back)")
    t.roll("success", "blank")            # Severe Disadvantage ignored: 1 Success
    t.pick(f"no Reaction for {AC2}")
    assert t.piece_var("stunned", AC2) == 1


def test_beat_on_the_carrier_puts_the_quaffle_loose_where_the_beater_chooses():
    """Actions > Beat: "If that Player was carrying the Quaffle, place it Loose – you may
    choose whether the Quaffle goes Loose in the target Player's Zone, or a Zone adjacent to
    it (but never in a Scoring Area)." The block ends (Loose Quaffle)."""
    t = beat_table(ball=AC2, attack="away", blocks={"home": 2, "away": 1},
                   layout={AC1: "away_north"})
    t.pick(f"move {AC1} from away_north to away_deploy")
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC2} (away_back)")
    t.roll("success", "blank")
    t.pick(f"no Reaction for {AC2}")
    assert t.deciding() == "home"
    assert set(t.labels()) == {f"the Quaffle goes Loose in {z}" for z in ("away_north", "away_south", "away_deploy", "away_back")}
    t.pick("the Quaffle goes Loose in away_north")
    assert t.attacking() == "home" and t.holder() is None
    # RULING: the Bludger may go into a Scoring Area (only Players are kept out)
    assert "place bludger_a in away_scoring" in t.labels()
    t.pick("place bludger_a in away_back")
    t.pick("take a Tempo Point")
    # home's second Action is lost (Loose Quaffle): the Bludger Movement follows
    assert t.var("block_over") is True


def test_beat_on_a_player_with_three_stunned_tokens():
    """Stunned: "to a maximum of 3" (RULING: the Beat still succeeds: Tempo, the Quaffle
    knocked Loose; the token count stays 3)."""
    t = beat_table(ball=AC1, attack="away", blocks={"home": 1, "away": 1})
    t.set_piece_var("stunned", AC1, 3)
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "blank")
    t.pick(f"no Reaction for {AC1}")
    assert t.piece_var("stunned", AC1) == 3
    assert t.offered("the Quaffle goes Loose in ")


def test_manoeuvre_reaction_suffers_stunned():
    """Stunned, the example: "Because the Chaser is Stunned, they must deduct 1 Opportunity
    from their Reaction roll to avoid getting another Stunned token!\""""
    t = beat_table(ball=HC1)
    t.set_piece_var("stunned", AC1, 1)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "blank")
    t.pick(f"{AC1} Manoeuvres")
    t.roll("opportunity")                  # 1 - 1 Stunned = 0 Opportunities
    assert t.piece_var("stunned", AC1) == 2


# ======================================================================================
# Recover


def test_recover_removes_a_stunned_token_of_any_friendly_player():
    """Actions > Recover: "Remove a Stunned token from the Player card of one of your
    Players." RULING: any friendly Player (not only the one performing it)."""
    t = pitch_table({HC1: "home_back", HB1: "centre_north", AC1: "away_back"}, pv={"stunned": {HB1: 2}})
    assert t.offered(f"recover {HB1} (2 Stunned)")
    assert not t.offered(f"recover {HC1}")
    t.pick(f"recover {HB1} (2 Stunned)")
    assert t.piece_var("stunned", HB1) == 1


# ======================================================================================
# Dice rolls


def test_pool_comes_from_the_player_card_and_double_success_counts_two():
    """Dice > Dice Rolls: a Player rolls "as many dice as listed on the Action on their
    Player card"; "the double Success symbol counts as two Successes"."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "centre_north", AC2: "centre_north",
                     AC3: "centre_north"}, ball=HC1)
    do_pass(t, HC1, HC2)
    assert t.s.is_chance_node()
    t.roll("double success")               # orange
    assert t.s.is_chance_node()            # the purple die
    t.roll("blank")
    # 2 - 2 (the target at Severe Disadvantage) = 0: fails
    assert log_has(t, "pass roll: 0 Successes") and t.offered("the Quaffle goes Loose")


def test_severe_disadvantage_and_stunned_add_up():
    """Disadvantage: Severe Disadvantage deducts 2 Successes; Stunned: "These reductions are
    also cumulative with the Disadvantaged rule."""
    t = pitch_table({HC1: "centre_north", HC2: "home_north", AC1: "centre_north", AC2: "centre_north",
                     AB1: "centre_north"}, ball=HC1)
    t.set_piece_var("stunned", HC1, 1)
    do_pass(t, HC1, HC2)
    t.roll("double success", "double success")   # 4 - 2 - 1 = 1
    assert log_has(t, "pass roll: 1 Success")


def test_bonus_dice_tokens_add_dice_spent_by_the_owner():
    """Dice Tokens: "they may spend accumulated Bonus Dice tokens to add dice of the same
    colour to the roll"."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t.set_piece_var("bonus_black", HC1, 1)
    do_pass(t, HC1, HC2)
    assert t.deciding() == "home"
    assert t.labels() == [f"roll {HC1}'s dice (1 orange, 0 black, 1 purple)",
                          f"spend a black Bonus Dice token of {HC1}"]
    t.pick(f"spend a black Bonus Dice token of {HC1}")
    # no token left: the dice are rolled without asking
    t.roll("blank", "success", "blank")    # orange, black, purple
    assert t.piece_var("bonus_black", HC1) == 0
    t.pick("take a Tempo Point")
    assert t.holder() == HC2


def test_penalty_dice_tokens_are_spent_by_the_rival():
    """Dice Tokens: "if a Player has any Penalty Dice tokens on their card, the rival may
    spend them on the roll of their choice ... the Player must discard one die before
    rolling". RULING: only while the pool holds a die of that colour."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t.set_piece_var("penalty_orange", HC1, 1)
    t.set_piece_var("penalty_black", HC1, 1)
    do_pass(t, HC1, HC2)
    assert t.deciding() == "away"
    assert t.labels() == [f"let {HC1} roll (1 orange, 0 black, 1 purple)",
                          f"spend an orange Penalty Dice token of {HC1}"]
    t.pick(f"spend an orange Penalty Dice token of {HC1}")
    t.roll("success")                       # only the purple die is left
    assert not t.s.is_chance_node()
    assert t.piece_var("penalty_orange", HC1) == 0 and t.piece_var("penalty_black", HC1) == 1


def test_roll_bonus_and_boosts_add_successes():
    """Intrepid Moves (cards.lumos `boost_action`, `boost_actions`): Successes added to the
    Action rolls of the Team this Game Sequence; Dice > Dice Rolls: success when at least
    one Success remains."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t.set_side_var("pass_boost", "home", 1)
    do_pass(t, HC1, HC2)
    t.roll("blank", "blank")
    t.pick("take a Tempo Point")
    assert t.holder() == HC2
    t2 = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t2.set_side_var("action_boost", "home", 1)
    t2.set_side_var("steal_boost", "home", 5)   # another Action's boost does not count
    do_pass(t2, HC1, HC2)
    t2.roll("blank", "blank")
    assert log_has(t2, "pass roll: 1 Success")


def test_reaction_opportunities_never_below_zero_and_boosted():
    """Reactions; Intrepid Moves (cards.lumos `boost_reactions`): Opportunities added to the
    Team's Reaction rolls; Disadvantage deducts Opportunities, never below none."""
    t = beat_table(ball=HC1)
    t.set_side_var("reaction_boost", "away", 1)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "blank")
    t.pick(f"{AC1} Manoeuvres")
    t.roll("blank")                          # 0 + 1 boost = 1: avoided
    assert t.piece_var("stunned", AC1) == 0


def test_goal_token_reroll_once_per_action_in_the_dice_colour():
    """Goal Tokens: "Once per Action or Reaction, one of your Players ... may re-roll a dice
    by flipping over one of your Uncelebrated Goal tokens to its Celebrated side." Dice >
    Dice Rolls: "The rerolled score always counts, even if it is worse"; the die is rolled
    again in its own colour."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t.set_side_var("uncelebrated", "home", 2)
    t.set_side_var("goals", "home", 2)
    do_pass(t, HC1, HC2)
    t.roll("blank", "success")               # orange blank, purple success
    assert t.labels() == [f"keep {HC1}'s dice", f"flip a Goal token: reroll an orange die of {HC1}",
                          f"flip a Goal token: reroll a purple die of {HC1}"]
    t.pick(f"flip a Goal token: reroll a purple die of {HC1}")
    # the purple die (one: taken without asking) is rolled again with the purple faces
    # the orange die's two blank faces are one outcome, twice as likely (options as data)
    assert t.labels() == ["roll success", "roll double success", "roll opportunity",
                          "roll double opportunity", "roll blank"]
    t.roll("blank")                          # worse, and it counts
    assert t.side_var("uncelebrated", "home") == 1 and t.side_var("goals", "home") == 2
    # no second reroll in the same Action
    assert t.deciding() == "away" and t.offered("the Quaffle goes Loose")


def test_stunned_tokens_stop_at_three():
    """Stunned: "A Player may have more than one Stunned token at the same time, to a
    maximum of 3"."""
    t = beat_table(ball=HC1)
    t.set_piece_var("stunned", AC1, 3)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "blank")
    t.pick(f"no Reaction for {AC1}")
    assert t.piece_var("stunned", AC1) == 3


def test_at_most_one_reaction_per_action():
    """Reactions: "No more than one Reaction may be performed against the same Action.\""""
    t = beat_table(ball=HC1)
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC1} (away_deploy)")
    t.roll("success", "success")
    t.pick(f"{AC1} Manoeuvres")
    t.roll("blank")
    # straight on to the Bludger's placement: no Defense offered after the Manoeuvre
    assert t.offered("place bludger_a in ") and not t.offered("a Beater Defends")


# ======================================================================================
# Tempo


def test_tempo_more_than_three_takes_a_snitch_card():
    """Tempo Points: "Any time you accumulate more than 3 Tempo Points, you must use them
    to acquire cards from the face-up row of Snitch cards. Discard all your Tempo Points"."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    t.set_side_var("tempo", "home", 3)
    do_pass(t, HC1, HC2)
    t.roll("success", "blank")
    t.pick("take a Tempo Point")
    assert t.side_var("tempo", "home") == 0
    assert t.deciding() == "home" and any("Test Snitch" in lab for lab in t.labels()), t.labels()


def test_no_tempo_without_a_roll_and_none_for_a_move():
    """Tempo Points: only Pass, Beat, Steal and Shoot earn Tempo; "You do not earn Tempo
    Points if you didn't make a dice roll" (the Kick-Off Pass, a Move)."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"})
    t.pick(f"move {HC1} from home_back to home_north")
    assert t.side_var("tempo", "home") == 0


def test_breaking_the_tempo_free_pass_earns_nothing():
    """Tempo Points > Breaking the Tempo: instead of the Tempo Point, "A free Pass Action
    with one of your Players"; "Performing a Pass Action by Breaking the Tempo doesn't give
    you a Tempo Point." RULING: that Pass is rolled and cannot Break the Tempo again."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", HC3: "away_deploy", AC1: "away_back"},
                    ball=HC1, blocks={"home": 2, "away": 1})
    do_pass(t, HC1, HC2)
    t.roll("success", "blank")
    assert t.labels() == ["take a Tempo Point", "Break the Tempo: a free Pass", "Break the Tempo: Shift a Player"]
    t.pick("Break the Tempo: a free Pass")
    t.pick(f"free Pass from {HC2} to {HC3} (away_deploy)")
    t.roll("success", "blank")
    assert t.holder() == HC3 and t.side_var("tempo", "home") == 0
    # no Tempo choice after the free Pass: home's second Action follows
    assert t.deciding() == "home" and t.offered("move ")


# ======================================================================================
# Hand Swap


def to_next_sequence(t: Table) -> Table:
    return drive(t, lambda t: t.var("sequence_number") == 2)


def hand_swap_table(**kw) -> Table:
    layout = {HC1: "home_back", HC2: "home_north", AC1: "away_back", "bludger_a": None, "bludger_b": None}
    t = pitch_table(layout, ball=HC1, **kw)
    t.pick(f"move {HC2} from home_north to home_deploy")
    t.pick(f"move {AC1} from away_back to away_north")
    return t


def test_hand_swap_rival_takes_a_free_action_and_a_tempo_point():
    """Hand Swap: "If you perform a Hand Swap but the other Coach does not, your rival
    immediately interrupts the sequence of play and performs one free Action with one of
    their Players. As soon as this Action is resolved, the opposing Coach gains 1 Tempo
    Point"; "you must draw 5 cards"."""
    t = hand_swap_table()
    t.hand("away")                           # away's hand is empty at the next Game Sequence
    to_next_sequence(t)
    assert len(t.zone("hand", "away")) == 5
    assert t.deciding() == "home" and t.offered(f"move {HC1} from home_back")
    t.pick(f"move {HC2} from home_deploy to centre_north")
    assert t.side_var("tempo", "home") == 1
    assert t.offered("play ") and t.labels()[0].endswith("as the Pitch Actions card")


def test_hand_swap_rival_recovers_a_stunned_token_and_unlocks():
    """Hand Swap: "When your rival makes a Hand Swap, you may immediately remove 1 Stunned
    token from a Player on your Team ... and all Locked tokens from the cards of your
    Team.\""""
    t = hand_swap_table()
    t.hand("away")
    t.set_piece_var("stunned", HC1, 2)
    t.set_piece_var("locked", HC2, True)
    to_next_sequence(t)
    assert t.deciding() == "home" and t.offered(f"remove a Stunned token from {HC1}")
    t.pick(f"remove a Stunned token from {HC1}")
    assert t.piece_var("stunned", HC1) == 1 and t.piece_var("locked", HC2) is False


def test_both_hand_swap_nothing_but_recovery():
    """Hand Swap: "If both Coaches perform a Hand Swap in the same Game Sequence, nothing
    will happen and play will continue normally." RULING: no free Action and no Tempo, but
    each Coach still removes a Stunned token and the Locked tokens (each rival did swap)."""
    t = hand_swap_table()
    t.hand("away")
    t.hand("home")
    t.set_piece_var("stunned", AC1, 1)
    to_next_sequence(t)
    assert t.deciding() == "away" and t.offered(f"remove a Stunned token from {AC1}")
    t.pick(f"remove a Stunned token from {AC1}")
    assert t.labels()[0].endswith("as the Pitch Actions card")
    assert t.side_var("tempo", "home") == 0 and t.side_var("tempo", "away") == 0


# ======================================================================================
# Bludger Movement


def to_bludgers(t: Table) -> Table:
    return drive(t, lambda t: any(lab.endswith(") first") for lab in t.labels()) or t.offered("move bludger"))


def test_worked_example_bludger_b_moved_into_zone_a_targets_the_chaser():
    """Bludger Movement, the example: "Bludger B is moved into Zone A by the Slytherin
    Coach. The Coach selects the Gryffindor Chaser in that Zone as the Bludger's target."
    The Defending Coach picks a Bludger first; it must go to an adjacent Zone with Players;
    a hit is one Success: Stunned, and a carried Quaffle goes Loose."""
    t = pitch_table({HC1: "away_back", HC2: "centre_north", AC1: "away_back", "bludger_b": "away_north",
                     "bludger_a": "home_scoring"}, ball=HC1)
    t.pick(f"move {HC2} from centre_north to home_deploy")
    t.pick(f"move {AC1} from away_back to away_deploy")
    # the Defending Coach (Slytherin, away) moves a Bludger first
    assert t.deciding() == "away"
    t.pick("move bludger_b (away_north) first")
    # Zones next to away_north holding Players: away_back (Zone A), away_deploy
    assert set(t.labels()) == {"move bludger_b to away_deploy", "move bludger_b to away_back"}
    t.pick("move bludger_b to away_back")
    # one Player in Zone A: the Gryffindor Chaser is the target
    assert t.deciding() == "home"
    assert t.labels() == [f"no Reaction for {HC1}", f"{HC1} Manoeuvres"]
    t.pick(f"{HC1} Manoeuvres")
    t.roll("blank")
    assert t.piece_var("stunned", HC1) == 1
    # the Quaffle goes Loose where the Bludger's Coach chooses
    assert t.deciding() == "away" and t.offered("the Quaffle goes Loose in ")
    t.pick("the Quaffle goes Loose in away_north")
    assert t.attacking() == "away"


def test_bludger_with_no_players_next_to_it_stays():
    """Bludger Movement 1-3: the Bludger must go to an adjacent Zone with Players (one
    such Zone: no choice); "If there are no Players in an adjacent Zone, the Bludger
    remains where it is", and still targets a Player in its own Zone (RULING: any Player,
    even of its own Coach's Team); a targeted Beater may Defend itself; an Opportunity
    avoids the hit."""
    t = pitch_table({HC1: "home_back", AC1: "away_back", HB2: "home_south", "bludger_a": "away_back",
                     "bludger_b": "home_south"}, ball=HC1)
    t.pick(f"move {HC1} from home_back to home_north")
    t.pick(f"move {AC1} from away_back to away_deploy")
    assert t.deciding() == "away"
    t.pick("move bludger_a (away_back) first")
    # away_back's neighbours with Players: away_deploy only; its only Player is the target
    assert t.where("bludger_a") == "away_deploy"
    t.pick(f"{AC1} Manoeuvres")
    t.roll("opportunity")
    assert t.piece_var("stunned", AC1) == 0
    # the Attacking Coach's Bludger: no Player next to home_south, it stays and targets
    # the only Player there, home's own Beater
    assert t.where("bludger_b") == "home_south" and log_has(t, "bludger_b stays in home_south")
    assert t.deciding() == "home"
    assert t.labels() == [f"no Reaction for {HB2}", f"{HB2} Manoeuvres", f"a Beater Defends {HB2}"]


def test_bludger_shield_keeps_a_team_out_of_reach():
    """Bludger Movement; Intrepid Moves (cards.lumos `shield_from_bludgers`): the Bludger
    Movement cannot target the shielded Team's Players this Game Sequence."""
    t = pitch_table({HC1: "away_back", AC1: "away_back", "bludger_a": "away_back", "bludger_b": None},
                    ball=HC1, sv={"bludger_shield": {"home": True}})
    t.pick(f"move {HC1} from away_back to away_north")
    t.pick(f"move {AC1} from away_back to away_north")
    # bludger_a goes to away_north (the only Zone next to it with Players) and may only
    # target the away Chaser
    assert t.where("bludger_a") == "away_north"
    assert t.deciding() == "away"
    assert t.labels() == [f"no Reaction for {AC1}", f"{AC1} Manoeuvres"]


def test_defense_reaction_against_the_moving_bludger():
    """Bludger Movement 3: "If there is a friendly Beater in the Zone (or they are
    designated as the target of the Bludger) they may perform a Defense Reaction." The hit
    "is resolved as if a Player had rolled a Success": one Opportunity avoids it."""
    t = pitch_table({HC1: "home_back", HB1: "home_back", AC1: "away_back", "bludger_a": "home_back",
                     "bludger_b": None}, ball=HC1, pv={"stunned": {HC1: 1}})
    t.pick(f"recover {HC1} (1 Stunned)")
    t.pick(f"move {AC1} from away_back to away_north")
    # nobody next to home_back: the Bludger stays; away chooses its target
    assert t.deciding() == "away"
    assert set(t.labels()) == {f"bludger_a targets {HC1}", f"bludger_a targets {HB1}"}
    t.pick(f"bludger_a targets {HC1}")
    assert t.labels() == [f"no Reaction for {HC1}", f"{HC1} Manoeuvres", f"a Beater Defends {HC1}"]
    t.pick(f"a Beater Defends {HC1}")
    t.roll("opportunity", "blank")         # HB1's Defense [black, purple]
    assert t.piece_var("stunned", HC1) == 0 and t.holder() == HC1


# ======================================================================================
# Attacking and Defending


def test_loose_quaffle_makes_the_other_team_attacking():
    """Outfield Play > Attacking Team / Defending Team: "If the other Team takes Possession,
    or if the Quaffle goes Loose, the rival Team automatically becomes the new Attacking
    Team"."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    assert t.attacking() == "home"
    do_pass(t, HC1, HC2)
    t.roll("blank", "blank")
    t.pick("the Quaffle goes Loose in centre_north")
    assert t.attacking() == "away"


# ======================================================================================
# Windows: Swift Intrepid Moves and Traits

WINDOW_CARDS = """\
  - name: {House} Swift Boost
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    swift: true
    window: after_roll
    copies: 3
    text: "Swift: one more Success on this roll."
    effect: |
      add_successes(1)
  - name: {House} Swift Guard
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    swift: true
    window: targeted
    text: "Swift: one more Opportunity on the Reaction."
    effect: |
      add_opportunities(1)
  - name: {House} Swift Focus
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    swift: true
    window: before_action
    text: "Swift: one more Success on the coming roll."
    effect: |
      add_successes(1)
  - name: {House} Swift Late
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    swift: true
    window: end_of_blocks
    text: "Swift: a Tempo Point at the end of the Action Blocks."
    effect: |
      gain_tempo(me, 1)
  - name: {House} Shift
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    text: "Intrepid Move: Shift one of your Players."
    effect: |
      shift_one(me)
  - name: {House} Rush
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    text: "Intrepid Move: four Tempo Points."
    effect: |
      gain_tempo(me, 4)
  - name: {House} Strike
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    text: "Intrepid Move: Stun a rival Player in a Zone with a Bludger."
    effect: |
      stun_rival_near_bludger(me)
  - name: {House} Extra
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    text: "Intrepid Move: one more Action in your next Action Block."
    effect: |
      extra_action(me)
  - name: Test {House} Wall Keeper
    type: player
    position: keeper
    affiliation: [{house}]
    catch_dice: [black, purple]
    trait: "After a rival rolls to Shoot, 2 more Opportunities on the Catch."
    window: after_roll
    condition: "current_action == \\"shoot\\" and current_actor.side is not me"
    effect: |
      add_opportunities(2)
  - name: Test {House} Lucky Chaser
    type: player
    position: chaser
    affiliation: [{house}]
    pass_dice: [orange]
    steal_dice: [black]
    trait: "After rolling, one more Success. Locked."
    window: after_roll
    lockable: true
    effect: |
      add_successes(1)
"""


@pytest.fixture(scope="module")
def window_game():
    return compile_test_game(WINDOW_CARDS)


def card_id(t: Table, name: str) -> int:
    return next(i for i, c in enumerate(t.cg.cards) if c.name == name)


def test_swift_intrepid_move_is_offered_in_its_window_and_counts(window_game):
    """Intrepid Moves > Swift Intrepid Moves: played "from the hand as an Intrepid Move at
    the time specified"; placed on top of the Intrepid Moves, "counting towards the limit
    of 2"."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1,
                    cg=window_game, hands={"home": ["Gryffindor Swift Boost", "Gryffindor One"]})
    do_pass(t, HC1, HC2)
    t.roll("blank", "blank")
    assert t.labels() == ["play the Swift Intrepid Move Gryffindor Swift Boost", "do not choose"]
    t.pick("play the Swift Intrepid Move Gryffindor Swift Boost")
    assert t.zone_names("intrepid", "home") == ["Gryffindor Swift Boost"]
    assert t.side_var("intrepid_played", "home") == 1
    t.pick("take a Tempo Point")
    assert t.holder() == HC2


def test_swift_intrepid_move_never_empties_the_hand_nor_passes_the_limit(window_game):
    """Intrepid Moves > Swift Intrepid Moves: "You may not use this type of card if, by
    using it, you would run out of cards in your hand"; "you cannot play more Swift
    Intrepid Moves if there are already 2 Intrepid Moves played" (per Coach)."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1,
                    cg=window_game, hands={"home": ["Gryffindor Swift Boost"]})
    # the Swift card is the last card of the hand
    assert t.zone_names("hand", "home") == ["Gryffindor Swift Boost"]
    do_pass(t, HC1, HC2)
    t.roll("blank", "blank")
    assert not t.offered("play the Swift")
    t2 = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1,
                     cg=window_game, hands={"home": ["Gryffindor Swift Boost", "Gryffindor One"]})
    t2.set_side_var("intrepid_played", "home", 2)
    do_pass(t2, HC1, HC2)
    t2.roll("blank", "blank")
    assert not t2.offered("play the Swift")


def test_swift_guard_in_the_targeted_window(window_game):
    """Intrepid Moves > Swift Intrepid Moves; Reactions: a card played when a Player is
    targeted adds an Opportunity to its Reaction."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "away_back"}, ball=AC1,
                    attack="away", cg=window_game, hands={"away": ["Slytherin Swift Guard", "Slytherin One"]})
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HC1} (centre_north) tries to Steal the Quaffle from {AC1}")
    assert t.deciding() == "away"
    t.pick("play the Swift Intrepid Move Slytherin Swift Guard")
    t.roll("blank", "success")
    t.pick(f"{AC1} answers with a Steal Reaction")
    t.roll("blank", "blank")             # 0 + 1 = 1 Opportunity: the Steal fails
    assert t.holder() == AC1


def test_trait_in_its_window_locks_its_card(window_game):
    """Prepare to Play > Player Cards, 6 Trait and Locked: "when the rule is used, you must
    place the Locked token on the card – the rule cannot be used again until the token is
    removed"; a Trait is offered for the Player concerned by the roll."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1,
                    cg=window_game, blocks={"home": 2, "away": 1})
    t.set_piece_var("player_card", HC1, card_id(t, "Test Gryffindor Lucky Chaser"))
    do_pass(t, HC1, HC2)
    t.roll("blank")                        # the Lucky Chaser passes with one orange die
    assert t.labels() == [f"use the Trait of {HC1} (Test Gryffindor Lucky Chaser)", "do not choose"]
    t.pick(f"use the Trait of {HC1} (Test Gryffindor Lucky Chaser)")
    assert t.piece_var("locked", HC1) is True
    t.pick("take a Tempo Point")
    assert t.holder() == HC2
    # Passing back: the Trait is Locked now, not offered.
    do_pass(t, HC2, HC1)
    t.roll("success", "blank")
    assert not t.offered("use the Trait")


def test_trait_of_a_player_not_concerned_is_not_offered(window_game):
    """Prepare to Play > Player Cards, 6 Trait: a Player's Trait works for that Player: it
    is offered when the Player acts, is targeted or reacts (here: the receiver of a Pass),
    not for the roll of Players it has nothing to do with."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", HC3: "home_back", AC1: "away_back"},
                    ball=HC2, cg=window_game)
    t.set_piece_var("player_card", HC3, card_id(t, "Test Gryffindor Lucky Chaser"))
    do_pass(t, HC2, HC1)
    t.roll("blank", "blank")
    assert not t.offered("use the Trait")
    t2 = pitch_table({HC1: "home_north", HC2: "centre_north", HC3: "home_back", AC1: "away_back"},
                     ball=HC2, cg=window_game)
    t2.set_piece_var("player_card", HC1, card_id(t2, "Test Gryffindor Lucky Chaser"))
    do_pass(t2, HC2, HC1)
    t2.roll("blank", "blank")
    assert t2.offered(f"use the Trait of {HC1}")


def test_rules_conflict_the_active_coach_first(window_game):
    """Dice > Dice Rolls, Rules Conflict: "the active Coach resolves first, then the other
    Coach": before a Steal, the stealing Coach's window opens before the carrier's."""
    t = pitch_table({HC1: "centre_north", AC1: "centre_north", AC2: "away_back"}, ball=AC1, attack="away",
                    cg=window_game, hands={"home": ["Gryffindor Swift Focus", "Gryffindor One"],
                                           "away": ["Slytherin Swift Guard", "Slytherin One"]})
    t.pick(f"move {AC2} from away_back to away_north")
    t.pick(f"{HC1} (centre_north) tries to Steal the Quaffle from {AC1}")
    assert t.deciding() == "home" and t.offered("play the Swift Intrepid Move Gryffindor Swift Focus")
    t.pick("play the Swift Intrepid Move Gryffindor Swift Focus")
    assert t.deciding() == "away" and t.offered("play the Swift Intrepid Move Slytherin Swift Guard")
    t.decline()
    t.roll("blank", "blank")               # 0 + 1 (Swift Focus) = 1 Success
    t.pick("no Steal Reaction")
    assert t.holder() == HC1


def test_end_of_blocks_window_the_last_coach_to_act_first(window_game):
    """Dice > Dice Rolls, Rules Conflict: with no active Coach, "the Player who played an
    Action the last time resolves first": at the end of the Action Blocks, the Coach who
    finished last is offered its Swift Intrepid Move first (Quick Reference > Swift
    Intrepid Moves: "at the time specified in the text")."""
    hands = {"home": ["Gryffindor Swift Late", "Gryffindor One"], "away": ["Slytherin Swift Late", "Slytherin One"]}
    t = pitch_table({HC1: "home_back", AC1: "away_back", "bludger_a": None, "bludger_b": None},
                    cg=window_game, hands=hands)
    t.pick(f"move {HC1} from home_back to home_north")
    t.pick(f"move {AC1} from away_back to away_north")
    assert t.deciding() == "away" and t.labels() == ["play the Swift Intrepid Move Slytherin Swift Late", "do not choose"]
    t.pick("play the Swift Intrepid Move Slytherin Swift Late")
    assert t.side_var("tempo", "away") == 1
    assert t.deciding() == "home" and t.offered("play the Swift Intrepid Move Gryffindor Swift Late")


def test_contract_shift_one_respects_the_scoring_area_and_ignores_disadvantage(window_game):
    """Actions > Move (Shift ignores Disadvantage); Elements of the Game > The Game Board 3
    ("not even by any Trait or effect"): cards.lumos `shift_one`, played as an Intrepid
    Move."""
    t = pitch_table({HC1: "away_back", AC1: "away_back", AC2: "away_back", HC2: "home_back"},
                    ball=HC2, cg=window_game, hands={"home": ["Gryffindor Shift", "Gryffindor One"]},
                    intrepid=[("home", "Gryffindor Shift")])
    assert t.deciding() == "home"
    t.pick(f"Shift {HC1}")
    assert {lab.rsplit(" to ", 1)[1] for lab in t.labels()} == {"away_north", "away_south", "away_deploy"}
    t.pick(f"Shift {HC1} to away_north")
    assert t.where(HC1) == "away_north"


def test_contract_gain_tempo_over_three_takes_a_snitch_card(window_game):
    """Tempo Points; Intrepid Moves: cards.lumos `gain_tempo` adds Tempo Points one by one;
    the fourth makes more than 3: discard them all and take a Snitch card."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"}, cg=window_game,
                    hands={"home": ["Gryffindor Rush", "Gryffindor One"]}, intrepid=[("home", "Gryffindor Rush")])
    assert t.side_var("tempo", "home") == 0
    assert t.deciding() == "home" and any("Test Snitch" in lab for lab in t.labels()), t.labels()


def test_contract_stun_a_rival_near_a_bludger(window_game):
    """Stunned; Intrepid Moves: cards.lumos `stun_rival_near_bludger` puts a Stunned token on
    a rival Player in a Zone with a Bludger."""
    t = pitch_table({HC1: "home_back", AC1: "away_back", AC2: "away_north", "bludger_a": "away_back",
                     "bludger_b": None}, cg=window_game,
                    hands={"home": ["Gryffindor Strike", "Gryffindor One"]}, intrepid=[("home", "Gryffindor Strike")])
    assert t.piece_var("stunned", AC1) == 1 and t.piece_var("stunned", AC2) == 0


def test_contract_extra_action(window_game):
    """Intrepid Moves; Outfield Play > Action Blocks: cards.lumos `extra_action` gives one
    more Action in the Coach's next Action Block."""
    t = pitch_table({HC1: "home_back", AC1: "away_back"}, cg=window_game,
                    hands={"home": ["Gryffindor Extra", "Gryffindor One"]}, intrepid=[("home", "Gryffindor Extra")])
    t.pick(f"move {HC1} from home_back to home_north")
    assert t.deciding() == "home"
    t.pick(f"move {HC1} from home_north to home_deploy")
    assert t.deciding() == "away"


def test_recover_picks_up_the_loose_quaffle_in_the_zone():
    """Change of Possession and Loose Quaffles: "Any Player in the same Zone as a Loose
    Quaffle during one of their Actions ... can automatically pick it up" (RULING: the
    recovered Player performs the Recover)."""
    t = pitch_table({HC1: "home_north", AC1: "away_back"}, loose="home_north", pv={"stunned": {HC1: 1}})
    t.pick(f"recover {HC1} (1 Stunned)")
    assert t.holder() == HC1 and t.attacking() == "home"


def test_keeper_may_leave_its_scoring_area():
    """Elements of the Game > Teams: "the Keeper behaves like a Chaser while outside the
    Scoring Area" (RULING: a Keeper may Move out of its Scoring Area like any Player)."""
    t = pitch_table({HK: "home_scoring", AC1: "away_back"})
    assert moves_of(t, HK) == {"home_back", "home_north", "home_south"}


def test_a_chaser_passing_from_the_scoring_area_shifts_out():
    """Elements of the Game > The Game Board 3: only "a single Chaser from the Attacking
    Team in Possession of the Quaffle" may be in the Scoring Area (RULING: a Pass gives up
    the Possession, so the passer Shifts out as the Note of Change of Possession says)."""
    t = pitch_table({HC1: "away_scoring", HC2: "away_back", AC1: "centre_north"}, ball=HC1)
    do_pass(t, HC1, HC2)
    t.roll("success", "blank")
    assert t.holder() == HC2
    assert t.deciding() == "home" and t.offered(f"Shift {HC1} out of the Scoring Area to ")
    t.pick(f"Shift {HC1} out of the Scoring Area to away_north")
    t.pick("take a Tempo Point")
    assert t.where(HC1) == "away_north"


def test_a_window_opens_for_both_coaches_the_active_one_first(window_game):
    """Dice > Dice Rolls, Rules Conflict: the active Coach resolves first, "then the other
    Coach": after a Shoot roll the rival Keeper's Trait (window after_roll) is offered to
    the rival Coach, and its Opportunities count in the Catch Reaction."""
    t = pitch_table({HC1: "away_scoring", AK: "away_scoring", AC1: "away_back"}, ball=HC1, cg=window_game)
    t.set_piece_var("player_card", AK, card_id(t, "Test Slytherin Wall Keeper"))
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.pick("aim at Goal Hoop 1")
    t.pick("guard Goal Hoop 1")
    t.roll("double success", "blank")     # 2 Successes
    assert t.deciding() == "away"
    t.pick(f"use the Trait of {AK} (Test Slytherin Wall Keeper)")
    t.pick(f"{AK} tries to Catch the shot")
    t.roll("blank", "blank")               # 0 + 2 Opportunities: the shot fails
    assert t.holder() == AK and t.side_var("goals", "home") == 0


def test_opportunities_on_an_action_roll_count_nothing():
    """Dice > Dice Rolls: "on Actions each result of the Success symbol on a die is 1
    Success" (RULING: Opportunity symbols on an Action roll have no effect)."""
    t = pitch_table({HC1: "home_north", HC2: "centre_north", AC1: "away_back"}, ball=HC1)
    do_pass(t, HC1, HC2)
    t.roll("opportunity", "double opportunity")
    assert log_has(t, "pass roll: 0 Successes") and t.offered("the Quaffle goes Loose in ")


def test_a_reaction_to_a_beat_suffers_disadvantage():
    """Disadvantage: "Players at a Disadvantage deduct ... 1 Opportunity from their Reaction
    rolls"; only "the Beat Action" ignores it (RULING: the Manoeuvre or Defense against a
    Beat does not)."""
    t = beat_table(ball=HC1, layout={HC2: "away_back", HC3: "away_back", HB2: "away_back"})
    # away chaser 2 alone with three home Players in away_back: Severe Disadvantage
    t.pick(f"{HB1} (centre_north) Beats a Bludger at {AC2} (away_back)")
    t.roll("success", "blank")
    t.pick(f"{AC2} Manoeuvres")
    t.roll("double opportunity")            # 2 - 2 = 0 Opportunities: hit
    assert t.piece_var("stunned", AC2) == 1


# ------------------------------------------------------------------ findings of the invariant soak, pinned

def test_a_chaser_who_passes_from_the_rival_scoring_area_leaves_it():
    """The Game Board (3): "Only the Keeper of the Defending Team and up to one Chaser of the
    Attacking Team in Possession of the Quaffle may occupy this Zone"; Change of Possession and
    Loose Quaffles, Note: a Chaser in the Scoring Area who loses the Possession "must
    immediately Shift to an adjacent Zone outside the Scoring Area". Found by the soak (a
    Chaser passed the Quaffle out of the rival Scoring Area and stayed there without it)."""
    hc1, hc2 = "home chaser 1", "home chaser 2"
    t = pitch_table({hc1: "away_scoring", hc2: "away_back", "away chaser 1": "home_back"}, ball=hc1)
    labels = [lab for lab in t.labels() if lab.startswith(f"pass the Quaffle from {hc1} (") and f" to {hc2} (" in lab]
    assert labels, t.labels()
    t.pick(labels[0])
    while t.deciding() == "chance":
        t.roll("success")
    # the Tempo Point (or Breaking the Tempo) and the Coach's choices after the Pass
    while t.deciding() != "over" and t.holder() == hc2 and not t.offered("move ") and not t.offered("play "):
        t.first()
    assert t.holder() == hc2
    assert t.where(hc1) != "away_scoring", f"{hc1} stays in the rival Scoring Area without the Quaffle"


def test_a_kick_off_is_counted_for_the_keepers_side():
    """Keeper's Kick-Off: the Slytherin Keeper "performs the Keeper's Kick-Off" after catching
    the shot; the rules count it for the Keeper's side (`kick_offs`, the statistic "Keeper's
    Kick-Offs" of `lumos simulate`), and for no other."""
    t = pitch_table({HC1: "away_scoring", AK: "away_scoring", AC1: "away_deploy"}, ball=HC1)
    assert t.side_var("kick_offs", "away") == 0
    t.pick(f"{HC1} shoots at the Goal Hoops")
    t.pick("aim at Goal Hoop 1")
    t.pick("guard Goal Hoop 1")
    t.roll("blank", "blank")
    t.pick("away keeper tries to Catch the shot")
    t.roll("blank", "blank")
    assert t.holder() == AK and t.side_var("kick_offs", "away") == 0   # the shooter Shifts out first
    t.pick(f"Shift {HC1} out of the Scoring Area to away_north")
    assert t.deciding() == "away" and t.offered("Kick-Off: Shift ")
    assert t.side_var("kick_offs", "away") == 1 and t.side_var("kick_offs", "home") == 0
