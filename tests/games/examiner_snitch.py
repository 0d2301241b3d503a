"""Helpers for Snitch Snatcher rulebook checks: public lumos.api only."""
from functools import lru_cache
from lumos.api import load_game, load_position, new_game

START = {
    "home keeper": "d1", "home beater 1": "b4", "home beater 2": "f4",
    "home chaser 1": "b5", "home chaser 2": "d5", "home chaser 3": "f5",
    "away chaser 1": "b9", "away chaser 2": "d9", "away chaser 3": "f9",
    "away beater 1": "b10", "away beater 2": "f10", "away keeper": "d13",
    "home seeker": "t6", "away seeker": "t16", "quaffle": None, "snitch": None,
}

@lru_cache(maxsize=None)
def game():
    return load_game("snitch-snatcher")

def pos(pieces=None, zones=None, current="home", seed=7, g=None, **extra):
    p = dict(START)
    p["quaffle"] = {"carried_by": f"{current} chaser 2"}
    if pieces:
        for k, v in pieces.items():
            if isinstance(v, str) and v.startswith("holder:"):
                v = {"carried_by": v[7:]}
            p[k] = v
    z = {"home hand": [], "away hand": [], "home skills": [], "away skills": [],
         "home discard": [], "away discard": []}
    if zones:
        z.update(zones)
    d = {"pieces": p, "zones": z, "at": {"start_of": "take_turn"}, "current": current, "seed": seed}
    d.update(extra)
    return load_position(g or game(), d)

def opts(s):
    return s.options()

def labels(s):
    return [o["label"] for o in s.options()]

def find(s, rule=None, kind=None, label=None, **args):
    out = []
    for o in s.options():
        if rule and o["rule"]["name"] != rule:
            continue
        if kind and o["kind"] != kind:
            continue
        if label and label not in o["label"]:
            continue
        if any(o["args"].get(k) != v for k, v in args.items()):
            continue
        out.append(o)
    return out

def act(s, rule=None, kind=None, label=None, **args):
    m = find(s, rule, kind, label, **args)
    assert len(m) >= 1, f"no option {rule} {label} {args}; have {labels(s)[:40]}"
    assert len(m) == 1, f"ambiguous {rule} {label} {args}: {[o['label'] for o in m]}"
    s.apply_action_id(m[0]["id"])
    return s

def draw_skill(s):
    return act(s, label="draw a skill card")

def draw_action(s):
    return act(s, label="draw an action card")

def moves(s, piece):
    return sorted(o["args"]["to"] for o in find(s, rule="move_player", p=piece))

def passes(s, passer=None):
    return sorted((o["args"]["p"], o["args"]["r"]) for o in find(s, rule="pass_quaffle")
                  if passer is None or o["args"]["p"] == passer)

def where(s, piece):
    return s.position()["pieces"][piece]

def P(s):
    return s.position()

def roll(s, face):
    """Apply die face `face` at a chance node."""
    assert s.is_chance_node(), labels(s)
    for o in s.options():
        if o["label"].endswith(str(face)) or o["args"].get("face") == face or o["args"].get("value") == face:
            s.apply_action_id(o["id"]); return s
    raise AssertionError(f"no face {face} in {[ (o['label'],o['args']) for o in s.options()]}")
