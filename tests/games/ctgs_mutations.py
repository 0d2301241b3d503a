"""Catch the Golden Snitch: each family of invariant checks fails on a state broken on purpose.

tests/test_invariants.py runs `checks_catch_a_broken_state` so that no check of
tests/games/ctgs_invariants.py is vacuous: a game is played to a stable decision point,
one rule is broken by editing the State, and the family that checks it must fail.
"""
from __future__ import annotations

import random

import pytest

from lumos.api import new_game

from support.drivers import fails
from games.ctgs_invariants import KNOWN_UNFINISHED, TACTICAL_ZONES, Checker


def played(cg, decisions: int, seed: int = 3, act: bool = False):
    """A game some way into the Game Sequence, at a stable decision point with the Quaffle held
    (decisions=0: the first Pitch Actions choice, just after the Kick-Off); `act`: the choice
    of an Action in a Block, a Move among the options."""
    state = new_game(cg, seed=seed, forced="take")
    rnd = random.Random(seed)
    checker = Checker(cg)
    quaffle = checker.quaffle

    def wanted(st):
        if st.decisions < decisions or not checker.stable(st) or st.holder[quaffle] < 0:
            return False
        return not act or (st.pending["kind"] == "act" and any(
            isinstance(o, tuple) and cg.actions[o[0]].name == "move_action" for o in st.pending["options"]))
    while not wanted(state.st):
        assert not state.is_terminal()
        state.apply_action(state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions()))
    return state


def checks_catch_a_broken_state(cg) -> None:
    """Each family of checks fails on a state broken on purpose (so they are not vacuous)."""
    probe = Checker(cg)
    space = cg.board.index

    def breaks(mutate, family: str, at: int = 70) -> bool:
        """The family passes on a played state and fails once `mutate` broke it."""
        state = played(cg, at, act=at > 0)
        wanted = {family, "options"} if family == "disadvantage" else {family}
        checker = Checker(cg, skip=tuple(f for f in Checker.FAMILIES if f not in wanted))
        if family not in KNOWN_UNFINISHED:
            checker.check(state)
        checker.kick_off_checked = False
        mutate(state.st)
        return fails(checker, state)

    def move(st, piece, to):
        """Move a piece by hand, keeping occ/occ_next consistent (so only the rule breaks)."""
        i = probe.piece[piece]
        old = st.loc[i]
        if old >= 0:
            if st.occ[old] == i:
                st.occ[old] = st.occ_next[i]
            else:
                j = st.occ[old]
                while st.occ_next[j] != i:
                    j = st.occ_next[j]
                st.occ_next[j] = st.occ_next[i]
        st.occ_next[i] = st.occ[to]
        st.occ[to] = i
        st.loc[i] = to

    def chaser_in_the_race(st):
        move(st, "home chaser 1", space["r5"])

    def bludger_in_the_race(st):
        move(st, "bludger_b", space["r3"])

    def two_tokens_on_one_space(st):
        move(st, "home upwind 3", space["r9"])
        move(st, "away upwind 3", space["r9"])

    def seeker_on_the_pitch(st):
        move(st, "away seeker", space["centre_north"])

    def beater_in_a_scoring_area(st):
        move(st, "home beater 1", space["away_scoring"])

    def keeper_in_the_rival_scoring_area(st):
        move(st, "away keeper", space["home_scoring"])

    def chaser_without_quaffle_in_scoring_area(st):
        holder = st.holder[probe.quaffle]
        side = cg.pieces[holder].side
        rival = 1 - side
        chaser = next(i for i in probe.players if cg.pieces[i].side == rival and cg.pieces[i].kind == "chaser")
        move(st, cg.pieces[chaser].name, probe.scoring[side])

    def loose_quaffle_in_scoring_area(st):
        st.holder[probe.quaffle] = -1
        move(st, "quaffle", space["home_scoring"])

    def loose_and_still_attacking(st):
        holder = st.holder[probe.quaffle]
        st.holder[probe.quaffle] = -1
        move(st, "quaffle", st.loc[holder] if st.loc[holder] not in probe.scoring.values() else space["centre_north"])

    def beater_holds_quaffle(st):
        st.holder[probe.quaffle] = probe.piece["home beater 1"]

    def possession_not_attacking(st):
        st.g[probe.g["attacking"]] = 1 - cg.pieces[st.holder[probe.quaffle]].side

    def four_stunned(st):
        st.pv[probe.pv["stunned"]][probe.piece["home chaser 2"]] = 4

    def snitch_card_lost(st):
        deck = st.zones[cg.zone_id("snitch_deck", 0)]
        c = deck.pop()
        st.card_zone[c] = -1

    def short_row(st):
        row = st.zones[cg.zone_id("snitch_row", 0)]
        c = row.pop()
        st.zones[cg.zone_id("snitch_discard", 0)].append(c)
        st.card_zone[c] = cg.zone_id("snitch_discard", 0)

    def golden_in_row(st):
        row = st.zones[cg.zone_id("snitch_row", 0)]
        golden = next(c for c, card in enumerate(cg.cards) if card.type == "golden"
                      and st.card_zone[c] != cg.zone_id("snitch_row", 0))
        old = st.card_zone[golden]
        st.zones[old].remove(golden)
        out = row.pop()
        st.zones[old].append(out)
        st.card_zone[out] = old
        row.append(golden)
        st.card_zone[golden] = cg.zone_id("snitch_row", 0)

    def tactical_cards(st, side):
        """Side's Tactical cards wherever they are (zone id, card), the discard pile first."""
        return [(cg.zone_id(z, side), c) for z in reversed(TACTICAL_ZONES) for c in st.zones[cg.zone_id(z, side)]
                if z != "intrepid"]

    def tactical_card_lost(st):
        z, c = tactical_cards(st, 0)[0]
        st.zones[z].remove(c)
        st.card_zone[c] = -1

    def three_intrepid(st):
        intrepid = cg.zone_id("intrepid", 0)
        while len(st.zones[intrepid]) < 3:
            z, c = tactical_cards(st, 0)[0]
            st.zones[z].remove(c)
            st.zones[intrepid].append(c)
            st.card_zone[c] = intrepid

    def overspent(st):
        st.g[probe.g["funding"]] = -1

    def hoop_lost(st):
        c = st.zones[cg.zone_id("hoops", 1)].pop()
        st.card_zone[c] = -1

    def four_tempo(st):
        st.sv[probe.sv["tempo"]][0] = 4

    def seeker_past_snitch(st):
        move(st, "home seeker", space["r15"])

    def card_twice(st):
        z, c = tactical_cards(st, 1)[0]
        st.zones[cg.zone_id("hoops", 1)].append(c)

    def wrong_roster(st):
        roster = st.zones[cg.zone_id("roster", 0)]
        keeper = next(c for c in roster if cg.cards[c].fields["position"] == "keeper")
        chaser = next(c for c, card in enumerate(cg.cards) if card.type == "player"
                      and card.fields["position"] == "chaser" and st.card_zone[c] == -1)
        roster[roster.index(keeper)] = chaser
        st.card_zone[keeper], st.card_zone[chaser] = -1, cg.zone_id("roster", 0)

    def token_past_snitch(st):
        move(st, "home upwind 1", st.loc[probe.snitch])

    def token_behind_both_seekers(st):
        move(st, "home seeker", space["r4"])
        move(st, "away seeker", space["r5"])
        move(st, "away upwind 2", space["r2"])

    def celebrating_more_than_scored(st):
        st.sv[probe.sv["uncelebrated"]][1] = st.sv[probe.sv["goals"]][1] + 1

    def galleons_miscounted(st):
        st.sv[probe.sv["galleons"]][0] += 1

    def move_offered_from_afar(st):
        """The first Move offered now starts from a Zone not adjacent to its destination."""
        a, (p, z) = next(o for o in st.pending["options"] if isinstance(o, tuple)
                         and cg.actions[o[0]].name == "move_action")
        far = next(i for i in probe.pitch if cg.board.distances["adjacent"][i][z] >= 2
                   and i not in probe.scoring.values())
        move(st, cg.pieces[p].name, far)

    def move_offered_at_a_disadvantage(st):
        """Rivals outnumbering its team join the Zone of a Player offered a Move (outside the
        Scoring Areas), whose side no Intrepid Move lets ignore Disadvantage."""
        a, (p, z) = next(o for o in st.pending["options"] if isinstance(o, tuple)
                         and cg.actions[o[0]].name == "move_action" and st.loc[o[1][0]] not in probe.scoring.values())
        st.sv[probe.sv["ignores_disadvantage"]][cg.pieces[p].side] = False
        rivals = [i for i in probe.players if cg.pieces[i].side != cg.pieces[p].side and cg.pieces[i].kind != "keeper"]
        friends = probe.players_in(st, st.loc[p], cg.pieces[p].side)
        for i in rivals[:friends + 1]:      # enough rivals to outnumber the Player's team there
            move(st, cg.pieces[i].name, st.loc[p])

    def block_goes_on_after_a_loose_quaffle(st):
        holder = st.holder[probe.quaffle]
        st.holder[probe.quaffle] = -1
        move(st, "quaffle", st.loc[holder] if st.loc[holder] not in probe.scoring.values() else space["centre_north"])
        st.g[probe.g["attacking"]] = 1 - cg.pieces[holder].side

    def block_goes_on_after_a_goal(st):
        st.sv[probe.sv["goals"]][0] += 1

    mutations = (
        ("block_end", block_goes_on_after_a_loose_quaffle), ("block_end", block_goes_on_after_a_goal),
        ("positions", chaser_in_the_race), ("positions", seeker_on_the_pitch),
        ("positions", bludger_in_the_race), ("positions", two_tokens_on_one_space),
        ("scoring_area", beater_in_a_scoring_area), ("scoring_area", keeper_in_the_rival_scoring_area),
        ("scoring_area", chaser_without_quaffle_in_scoring_area), ("balls", loose_quaffle_in_scoring_area),
        ("balls", beater_holds_quaffle),
        ("balls", loose_and_still_attacking), ("balls", possession_not_attacking), ("stunned", four_stunned),
        ("snitch_cards", snitch_card_lost), ("snitch_cards", short_row), ("snitch_row", golden_in_row),
        ("tactical", tactical_card_lost), ("tactical", three_intrepid), ("galleons", overspent),
        ("hoops", hoop_lost), ("tempo", four_tempo), ("catch", seeker_past_snitch), ("bookkeeping", card_twice),
        ("team", wrong_roster), ("race_tokens", token_past_snitch), ("race_tokens", token_behind_both_seekers),
        ("goals", celebrating_more_than_scored), ("galleons", galleons_miscounted),
        ("options", move_offered_from_afar), ("disadvantage", move_offered_at_a_disadvantage))
    missed = [(f, m.__name__) for f, m in mutations if not breaks(m, f)]
    assert not missed, missed

    # the Kick-Off checks, at the first Pitch Actions choice
    def bludger_in_deployment(st):
        move(st, "bludger_a", space["home_deploy"])

    def bludgers_in_one_half(st):
        move(st, "bludger_a", space["home_north"])
        move(st, "bludger_b", space["home_south"])

    def nobody_left_in_deployment(st):
        for name in ("chaser 1", "chaser 2", "chaser 3", "beater 1", "beater 2"):
            i = probe.piece["away " + name]
            if st.loc[i] == space["away_deploy"]:
                move(st, "away " + name, space["away_back"])

    def quaffle_to_a_beater(st):
        attacking = st.g[probe.g["attacking"]]
        st.holder[probe.quaffle] = probe.piece[cg.sides[attacking] + " beater 1"]

    kick_off = (bludger_in_deployment, bludgers_in_one_half, nobody_left_in_deployment, quaffle_to_a_beater)
    missed = [m.__name__ for m in kick_off if not breaks(m, "kick_off", at=0)]
    assert not missed, missed

    # the Snitch moving away is seen by comparing two checks
    state = played(cg, 70)
    start = state.st.loc[probe.snitch]
    for i in probe.seekers.values():
        move(state.st, cg.pieces[i].name, space["r1"])
    at_step = {step: i for i, step in probe.step.items()}
    move(state.st, "snitch", at_step[probe.step[start] - 1])
    checker = Checker(cg, skip=tuple(f for f in Checker.FAMILIES if f != "catch"))
    checker.check(state)
    move(state.st, "snitch", start)
    with pytest.raises(AssertionError, match="moved away"):
        checker.check(state)


