"""Audit every offered option against the rulebook during random play (examiner)."""
import random
import pytest
from games.examiner_ctgs import game, P, rule_of
from test_examiner_ctgs_rules import ADJ, dist
from lumos.api import new_game

def side_of(p): return p.split()[0]

def disadvantaged(pc, piece):
    z = pc[piece]
    me = side_of(piece)
    mine = sum(1 for k, v in pc.items() if v == z and side_of(k) == me and any(r in k for r in (" chaser", " beater", " keeper")))
    theirs = sum(1 for k, v in pc.items() if v == z and side_of(k) != me and any(r in k for r in (" chaser", " beater", " keeper")))
    return theirs > mine

def audit(s, where):
    p = P(s); pc = p["pieces"]; q = pc["quaffle"]
    holder = q["carried_by"] if isinstance(q, dict) else None
    for o in s.options():
        r = o["rule"]["name"]; a = o["args"]
        if r == "move_action" and "p" in a and "z" in a:
            piece, z = a["p"], a["z"]
            assert z in ADJ[pc[piece]], (where, o["label"])
            if not p["side_vars"]["ignores_disadvantage"][side_of(piece)]:
                assert not disadvantaged(pc, piece), (where, "move at disadvantage", o["label"])
            assert "seeker" not in piece
            if z.endswith("_scoring"):
                owner = z.split("_")[0]
                if "keeper" in piece:
                    assert side_of(piece) == owner, (where, o["label"])
                else:
                    assert "chaser" in piece and side_of(piece) != owner and holder == piece, (where, o["label"])
        elif r == "move_action":
            print("other move_action args", a, o["label"])
        elif r == "pass_action" and "p" in a:
            assert a["p"] == holder, (where, o["label"])
            t = a["r"]
            assert side_of(t) == side_of(holder) and t != holder and ("chaser" in t or "keeper" in t), (where, o["label"])
            assert dist(pc[holder], pc[t]) <= 2, (where, o["label"])
        elif r == "beat_action" and "p" in a and "t" in a:
            b, t = a["p"], a["t"]
            assert "beater" in b and side_of(t) != side_of(b)
            assert pc[b] in (pc["bludger_a"], pc["bludger_b"]), (where, o["label"])
            assert dist(pc[b], pc[t]) <= 2, (where, o["label"])
        elif r == "go_loose":
            z = o["label"].split(" in ")[-1]
            assert not z.endswith("_scoring"), (where, o["label"])
        elif "steal" in r and "Steal the Quaffle" in o["label"]:
            assert holder and side_of(o["label"].split(" (")[0]) != side_of(holder)
            assert side_of(holder) == p["vars"]["attacking"]

@pytest.mark.parametrize("seed", range(30))
def test_random_play_options_follow_the_rulebook(seed):
    rnd = random.Random(1000 + seed)
    s = new_game(game(), seed=seed)
    for i in range(4000):
        if s.is_terminal(): return
        if not s.is_chance_node():
            audit(s, (seed, i, rule_of(s)))
            s.apply_action_id(rnd.choice(s.options())["id"])
        else:
            s.apply_action(s.sample_chance())
