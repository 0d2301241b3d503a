"""Helpers of the outside examiner's rule checks (tests/test_examiner_*.py): positions built
through `load_position` with a full explicit layout, options picked by words of their label.

`dpos`: a Defenders of Hogwarts position at `start_of: take_turn` (or `dark_turn`) naming every
pawn, Shield and Token and each piece's turn-start space; `tpos`: a Trivia position at
`start_of: take_turn` (seed 2: Gryffindor rolls first, seed 1: Slytherin).
"""
from lumos.api import load_game, load_position, new_game  # noqa: F401  (new_game: re-exported for the checks)
G = {}
def game(name):
    if name not in G: G[name] = load_game(name)
    return G[name]
def start(gname="defenders-of-hogwarts", at="house_turn", seed=3, **kw):
    pos = {"seed": seed}
    if at: pos["at"] = {"start_of": at}
    pos.update(kw)
    return load_position(game(gname), pos)
def labels(s): return [o["label"] for o in s.options()]
def find(s, sub, exact=False):
    m = [o for o in s.options() if (o["label"] == sub if exact else sub.lower() in o["label"].lower())]
    return m
def pick(s, sub, exact=False):
    m = find(s, sub, exact)
    if not m: raise KeyError(f"{sub!r} not in {labels(s)}")
    s.apply_action_id(m[0]["id"]); return m[0]
def has(s, sub): return bool(find(s, sub))


def dark_card_move(s, card, pawn=None):
    """As the Dark Arts Player: explore, play `card` for its movement points ("move with"),
    choose to move a Dark Arts Pawn and, when `pawn` is given ("dark_arts dark_pawn 2"), that
    pawn: the sequence most Dark Arts movement checks start with."""
    pick(s, "explore")
    pick(s, f"play {card}")
    pick(s, "move with")
    pick(s, "move a Dark Arts Pawn")
    if pawn is not None:
        pick(s, f"move {pawn} (")

HOUSES = ["gryffindor", "hufflepuff", "ravenclaw", "slytherin"]
TOKENS = {"charms_token": "charms_classroom", "items_token": "trophy_room", "defence_token": "dada_classroom",
          "transfiguration_token": "transfiguration_classroom", "potions_token": "potions_classroom",
          "herbology_token": "greenhouses", "creatures_token": "paddock"}
DEPLOY = ["pumpkin_patch", "forbidden_forest", "forest_clearing", "hogsmeade_road"]
def dpos(hp=2, pieces=None, zones=None, vars=None, side_vars=None, piece_vars=None, at="take_turn", seed=3, turn_start=True):
    pcs = {}
    for i, h in enumerate(HOUSES):
        for k in (1, 2, 3):
            pcs[f"{h} student {k}"] = "great_hall" if i < hp else None
    for k in range(1, 8):
        pcs[f"dark_arts dark_pawn {k}"] = DEPLOY[k-1] if k <= 4 else None
    pcs.update({"detector_shield_1": "astronomy_tower", "coin_shield_1": "owlery",
                "detector_shield_2": "clock_tower", "coin_shield_2": "boathouse",
                "detector_shield_3": "stone_circle", "coin_shield_3": "quidditch_pitch"})
    for t, sp in TOKENS.items(): pcs[t] = sp
    pcs.update(pieces or {})
    pv = {k: dict(v) for k, v in (piece_vars or {}).items()}
    if turn_start:
        ts = pv.setdefault("turn_start", {})
        for p, sp in pcs.items():
            ts.setdefault(p, sp)
    pos = {"options": {"house_players": hp}, "pieces": pcs, "zones": zones or {},
           "vars": vars or {}, "side_vars": side_vars or {}, "piece_vars": pv, "seed": seed}
    if at: pos["at"] = {"start_of": at}
    return load_position(game("defenders-of-hogwarts"), pos)
def where(s, p): return s.position()["pieces"][p]
def zone(s, z): return s.position()["zones"][z]
def var(s, v): return s.position()["vars"][v]
def svar(s, v, side): return s.position()["side_vars"][v][side]
def pvar(s, v, p): return s.position()["piece_vars"][v][p]

TRIVIA = "chamber-of-secrets-trivia"
def tpos(first="gryffindor", pieces=None, zones=None, advanced=False, vars=None, side_vars=None, options=None, at="take_turn"):
    seed = 2 if first == "gryffindor" else 1
    opts = {"advanced": "on" if advanced else "off"}
    opts.update(options or {})
    pos = {"options": opts, "pieces": pieces or {}, "zones": zones or {}, "vars": vars or {},
           "side_vars": side_vars or {}, "seed": seed}
    if at: pos["at"] = {"start_of": at}
    return load_position(game(TRIVIA), pos)
def roll(s, n): pick(s, f"roll {n}", exact=True)
def tdests(s, mover):
    return sorted(o["args"]["to"] for o in s.options() if o["args"].get("p") == mover and "to" in o["args"])
