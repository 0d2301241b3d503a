"""Helpers for Catch the Golden Snitch rulebook checks: public lumos.api only."""
from functools import lru_cache
from lumos.api import load_game, load_position

@lru_cache(maxsize=None)
def game():
    return load_game("catch-the-golden-snitch")

BASE = {
    "home keeper": "home_scoring", "home chaser 1": "home_back", "home chaser 2": "home_back",
    "home chaser 3": "home_back", "home beater 1": "home_deploy", "home beater 2": "home_deploy",
    "away chaser 1": "away_back", "away chaser 2": "away_back", "away chaser 3": "away_back",
    "away beater 1": "away_deploy", "away beater 2": "away_deploy", "away keeper": "away_scoring",
    "home seeker": "r1", "away seeker": "r1", "snitch": "r15",
    "bludger_a": "centre_north", "bludger_b": "centre_south",
    "quaffle": {"carried_by": "home chaser 1"},
}
for i in range(1, 5):
    BASE[f"home upwind {i}"] = None; BASE[f"away upwind {i}"] = None; BASE[f"race_die_{i}"] = None

ZONES = {
    "home hand": ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter"],
    "away hand": ["Serpent's Snatch", "Venom Strike", "Cunning Plan"],
    "snitch_row": ["Head Down, Full Speed", "Crosswind", "Trimmed Twigs"],
    "snitch_deck": ["Shoulder to Shoulder", "Flutter in the Stands", "Sudden Swerve", "Cutting the Corner",
                    "Rain Veil", "Above the Clouds", "A Glint of Gold", "Racing Line", "Hovering Low"],
    "snitch_discard": [],
    "home intrepid": [], "away intrepid": [], "home pitch_card": [], "away pitch_card": [],
    "home pitch_choice": [], "away pitch_choice": [],
    "home snitch_in_play": [], "away snitch_in_play": [],
}

def pos(pieces=None, zones=None, side_vars=None, piece_vars=None, vars=None, attacking="home", seed=3, **extra):
    p = dict(BASE)
    if pieces:
        for k, v in pieces.items():
            if isinstance(v, str) and v.startswith("holder:"):
                v = {"carried_by": v[7:]}
            p[k] = v
    z = dict(ZONES); z.update(zones or {})
    if "snitch_deck" not in (zones or {}):
        used = [c for k, v in z.items() if k != "snitch_deck" and k.startswith(("snitch", "home snitch", "away snitch")) for c in v]
        z["snitch_deck"] = [c for c in z["snitch_deck"] if c not in used]
    v = {"attacking": attacking}; v.update(vars or {})
    d = {"pieces": p, "zones": z, "vars": v, "at": {"start_of": "game_sequence"}, "seed": seed}
    if side_vars: d["side_vars"] = side_vars
    if piece_vars: d["piece_vars"] = piece_vars
    d.update(extra)
    return load_position(game(), d)

def labels(s):
    return [o["label"] for o in s.options()]

def find(s, rule=None, kind=None, label=None, **args):
    out = []
    for o in s.options():
        if rule and o["rule"]["name"] != rule: continue
        if kind and o["kind"] != kind: continue
        if label and label not in o["label"]: continue
        if any(o["args"].get(k) != v for k, v in args.items()): continue
        out.append(o)
    return out

def act(s, rule=None, kind=None, label=None, **args):
    m = find(s, rule, kind, label, **args)
    assert m, f"no option {rule} {label} {args}; have {labels(s)[:40]}"
    assert len(m) == 1, f"ambiguous {rule} {label} {args}: {[o['label'] for o in m]}"
    s.apply_action_id(m[0]["id"])
    return s

def P(s): return s.position()
def where(s, piece): return P(s)["pieces"][piece]
def pv(s, name, piece): return P(s)["piece_vars"][name][piece]
def sv(s, name, side): return P(s)["side_vars"][name][side]
def var(s, name): return P(s)["vars"][name]

def rule_of(s):
    o = s.options()
    return o[0]["rule"]["name"] if o else None

def faces(s, *fs):
    """Apply chance outcomes in order by label suffix ('success', 'blank', 'double success'...)."""
    for f in fs:
        assert s.is_chance_node(), labels(s)
        m = [o for o in s.options() if o["label"] == f"roll {f}"]
        assert m, (f, labels(s))
        s.apply_action_id(m[0]["id"])
    return s

def start_blocks(s, home_card, away_card, home_intrepid=(), away_intrepid=()):
    """Choose the Pitch Actions cards and decline (or play) Intrepid Moves."""
    hi, ai = list(home_intrepid), list(away_intrepid)
    for _ in range(30):
        r = rule_of(s)
        if r == "choose_pitch_actions":
            side = "home" if s.current_player() == 0 else "away"
            act(s, label=f"play {home_card if side == 'home' else away_card} as the Pitch Actions card")
        elif r == "offer_intrepid":
            side = "home" if s.current_player() == 0 else "away"
            lst = hi if side == "home" else ai
            if lst:
                act(s, label=f"play {lst.pop(0)} as an Intrepid Move")
            else:
                act(s, label="do not choose")
        else:
            return s
    return s

def roll(s, *fs, keep=True):
    """Resolve a dice roll: the roller's 'roll' menu, the rival's 'let ... roll', the faces, then keep."""
    for _ in range(4):
        if s.is_chance_node():
            break
        m = [o for o in s.options() if o["rule"]["name"] == "roll_pool" and (o["label"].startswith("roll ") or o["label"].startswith("let "))]
        if not m:
            break
        s.apply_action_id(m[0]["id"])
    faces(s, *fs)
    if keep:
        m = [o for o in s.options() if o["rule"]["name"] == "roll_pool" and o["label"].startswith("keep")]
        if m:
            s.apply_action_id(m[0]["id"])
    return s

def no_reaction(s):
    m = [o for o in s.options() if o["label"].startswith("no ") and "Reaction" in o["label"]]
    assert m, labels(s)
    s.apply_action_id(m[0]["id"])
    return s

def take_tempo(s):
    return act(s, label="take a Tempo Point")

def to_snitch_take(s, side=None):
    """Play on (declining everything, blank dice) until a Coach is asked to take a Snitch card."""
    for _ in range(80):
        if rule_of(s) == "take_snitch_card" and s.options()[0]["label"].startswith("take ") and \
                (side is None or s.current_player() == side):
            return s
        if s.is_chance_node():
            m = [o for o in s.options() if o["label"] == "roll blank"]
            s.apply_action_id((m or s.options())[0]["id"])
        else:
            m = [o for o in s.options() if o["label"].startswith("no ") or o["label"] == "do not choose"]
            s.apply_action_id((m or s.options())[0]["id"])
    raise AssertionError(labels(s))

def race_pos(pieces=None, zones=None, **kw):
    """A Game Sequence with trivial blocks, played to the first Snitch card taken at its end (away first)."""
    s = pos(pieces=pieces, zones=zones, **kw)
    start_blocks(s, "Lion's Charge", "Serpent's Snatch")
    act(s, rule="move_action", p="home beater 1", z="home_north")
    act(s, rule="move_action", p="away beater 1", z="away_north")
    return to_snitch_take(s)
