"""Snitch Snatcher: recompute every piece's legal moves from the rulebook and compare with the
engine's options in random play (examiner).  Board per docs/rulings/snitch-snatcher.md."""
import random
import pytest
from games.examiner_snitch import game, P, find
from lumos.api import new_game

COLS = "abcdefg"
def sq(c, r): return f"{COLS[c]}{r}"
def cr(s): return COLS.index(s[0]), int(s[1:])
def dark(c, r): return (c + r) % 2 == 0
GOALS = {"home": {"b1", "d1", "f1"}, "away": {"b13", "d13", "f13"}}
def on_field(c, r): return 0 <= c < 7 and 2 <= r <= 12
def keeper_row(side): return 2 if side == "home" else 12
def rival(side): return "away" if side == "home" else "home"

def occupied(pc):
    return {v: k for k, v in pc.items() if isinstance(v, str) and k not in ("quaffle", "snitch") and not v.startswith("t")}

def chaser_moves(pc, piece, holder):
    side = piece.split()[0]
    occ = occupied(pc)
    start = cr(pc[piece])
    out = set()
    def rec(c, r, steps, seen):
        if steps == 3: return
        for dc in (-1, 1):
            for dr in (-1, 1):
                nc, nr = c + dc, r + dr
                n = sq(nc, nr) if 0 <= nc < 7 and 1 <= nr <= 13 else None
                if not n or n in seen: continue
                if n in GOALS[rival(side)] and holder == piece and n not in occ:
                    out.add(n); continue
                if not on_field(nc, nr) or not dark(nc, nr): continue
                if nr == keeper_row(side): continue
                if n in occ: continue
                out.add(n)
                rec(nc, nr, steps + 1, seen | {n})
    rec(*start, 0, {pc[piece]})
    out.discard(pc[piece])
    return out

def beater_moves(pc, piece):
    side = piece.split()[0]
    occ = occupied(pc)
    out = set()
    def can_knock(victim):
        return victim.split()[0] != side and ("chaser" in victim or "beater" in victim)
    def rec(c, r, steps, seen):
        if steps == 2: return
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nc, nr = c + dc, r + dr
            if not on_field(nc, nr): continue
            n = sq(nc, nr)
            if n in seen: continue
            if n in occ:
                if can_knock(occ[n]): out.add(n)
                continue
            out.add(n)
            rec(nc, nr, steps + 1, seen | {n})
    rec(*cr(pc[piece]), 0, {pc[piece]})
    return out

def keeper_moves(pc, piece):
    side = piece.split()[0]
    occ = occupied(pc)
    kr = keeper_row(side); gr = 1 if side == "home" else 13
    allowed = lambda c, r: (r == kr and dark(c, r)) or sq(c, r) in GOALS[side]
    out = set()
    def rec(c, r, steps, seen):
        if steps == 2: return
        for dc in (-1, 1):
            for dr in (-1, 1):
                nc, nr = c + dc, r + dr
                if not (0 <= nc < 7) or nr not in (kr, gr) or not allowed(nc, nr): continue
                n = sq(nc, nr)
                if n in seen: continue
                if n in occ:
                    v = occ[n]
                    if v.split()[0] != side and nr == kr and "seeker" not in v and "keeper" not in v:
                        out.add(n)
                    continue
                out.add(n)
                rec(nc, nr, steps + 1, seen | {n})
    rec(*cr(pc[piece]), 0, {pc[piece]})
    return out

def audit(s, where):
    if not find(s, rule="move_player"): return
    p = P(s); pc = p["pieces"]; q = pc["quaffle"]
    holder = q["carried_by"] if isinstance(q, dict) else None
    moved = p["piece_vars"]["moved"]
    side = "home" if s.current_player() == 0 else "away"
    for piece, at in pc.items():
        if not piece.startswith(side) or not isinstance(at, str) or at.startswith("t"): continue
        if moved.get(piece): continue
        got = {o["args"]["to"] for o in find(s, rule="move_player", p=piece)}
        if "chaser" in piece: want = chaser_moves(pc, piece, holder)
        elif "beater" in piece: want = beater_moves(pc, piece)
        elif "keeper" in piece:
            want = set() if holder == piece else keeper_moves(pc, piece)
        else: want = set()
        assert got == want, (where, piece, at, "engine-only", sorted(got - want), "rulebook-only", sorted(want - got))

@pytest.mark.parametrize("seed", range(40))
def test_ss_random_play_moves_match_an_independent_reading(seed):
    rnd = random.Random(500 + seed)
    s = new_game(game(), seed=seed)
    for i in range(3000):
        if s.is_terminal(): return
        if s.is_chance_node():
            s.apply_action(s.sample_chance()); continue
        audit(s, (seed, i))
        opts = s.options()
        skill = [o for o in opts if o["label"] == "draw a skill card"]
        s.apply_action_id((skill or [rnd.choice(opts)])[0]["id"] if skill and rnd.random() < 0.9 else rnd.choice(opts)["id"])
