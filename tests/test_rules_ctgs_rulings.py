"""Catch the Golden Snitch: the rulings of docs/rulings/catch-the-golden-snitch.md that the
other rule tests do not already pin — the board we reconstructed, and choices where the
rulebook is silent. Each docstring names the rulebook section and the ruling.
"""
from __future__ import annotations

from games.ctgs_table import pitch_table
from test_rules_ctgs_sequence import (attacking, global_var, logs, new_game, offered, play_until,
                                      step, zone)

from lumos.api import load_game

HC1 = "home chaser 1"


def _adjacent(board, a: str) -> set[str]:
    i = board.index[a]
    return {board.spaces[j] for j in board.neighbours(i, "adjacent")}


def test_pitch_has_twelve_zones_as_reconstructed():
    """Elements of the Game > The Game Board (ruling "The board"): 12 Zones in two Halves,
    the orange Zones in both, Deployment Zones either side of the central circle (two Moves
    apart), each Scoring Area touching its back Zone and both wings; a Snitch Race of 15
    spaces in a line."""
    board = load_game("catch-the-golden-snitch").board
    regions = board.regions
    pitch = {board.spaces[i] for i in regions["pitch"]}
    assert len(pitch) == 12
    home = {board.spaces[i] for i in regions["half_home"]}
    away = {board.spaces[i] for i in regions["half_away"]}
    assert home | away == pitch and home & away == {"centre_north", "centre_south"}
    assert {board.spaces[i] for i in regions["orange_zones"]} == {"centre_north", "centre_south"}
    assert board.distance(board.index["home_deploy"], board.index["away_deploy"], "adjacent") == 2
    for side in ("home", "away"):
        assert _adjacent(board, f"{side}_scoring") == {f"{side}_back", f"{side}_north", f"{side}_south"}
        assert _adjacent(board, f"{side}_deploy") == {f"{side}_back", f"{side}_north", f"{side}_south",
                                                      "centre_north", "centre_south"}
    race = [board.spaces[i] for i in sorted(regions["race"])]
    assert race == [f"r{n}" for n in range(1, 16)]
    assert board.distance(board.index["r1"], board.index["r15"], "race") == 14
    assert not (set(race) & pitch)


def test_one_player_may_act_several_times_in_a_block():
    """Outfield Play > Action Blocks (ruling: nothing limits how many Actions one Player
    takes): one Chaser takes all three Actions of a Block of three."""
    t = pitch_table({HC1: "home_back"}, blocks={"home": 3, "away": 1})
    t.pick(f"move {HC1} from home_back to home_north")
    t.pick(f"move {HC1} from home_north to centre_north")
    assert t.deciding() == "home"
    t.pick(f"move {HC1} from centre_north to away_deploy")
    assert t.where(HC1) == "away_deploy"


def test_a_coach_may_play_its_last_card_as_an_intrepid_move():
    """Intrepid Moves (ruling: only Swift Intrepid Moves may not empty the hand): with one
    card left after the Pitch Actions card, the Coach may still play it as an Intrepid Move."""
    g = new_game(21)
    play_until(g, offered("play "))
    a = attacking(g)
    hand = g.st.zones[g.cg.zone_id("hand", a)]
    deck = g.cg.zone_id("tactical_deck", a)
    for c in list(hand)[2:]:
        g.machine.move_card(c, deck)
    step(g)                                # a's Pitch Actions card: one card left
    step(g)                                # the rival's
    assert g.current_player() == a
    (last,) = zone(g, "hand", a)
    assert f"play {last} as an Intrepid Move" in g.action_labels()
    g.apply_action(g.action_labels().index(f"play {last} as an Intrepid Move"))
    assert zone(g, "hand", a) == [] and zone(g, "intrepid", a) == [last]


def test_snitch_cards_are_taken_by_the_last_coach_to_finish_first():
    """Quick Reference > Game Sequence: "Starting with the last Coach to finish their Action
    Blocks, both Coaches take a Snitch card" (ruling: the step is a rule of every Game
    Sequence, after the Bludger Movement)."""
    checked = 0
    for seed in range(30, 60):
        g = new_game(seed)
        takers = []

        def note(g, labels):
            if labels[0].endswith("from the Snitch row") and global_var(g, "sequence_number") == 1:
                blocks = [line for line in logs(g) if " resolves an Action Block of " in line]
                takers.append((g.current_player(), blocks[-1].split()[0] if blocks else None, len(blocks)))
            if labels[0].endswith("as an Intrepid Move"):
                return "do not choose"
            return labels[0]
        play_until(g, lambda g: global_var(g, "sequence_number") >= 2, note)
        if g.is_terminal() or not takers:
            continue
        total = len([line for line in logs(g) if " resolves an Action Block of " in line])
        after = [(side, last) for side, last, n in takers if n == total]
        if len(after) < 2:
            continue
        last_side = ("home", "away").index(after[0][1])
        assert after[0][0] == last_side and after[1][0] == 1 - last_side
        checked += 1
        if checked == 3:
            break
    assert checked == 3
