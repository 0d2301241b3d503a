"""Game records (lumos.cli.simulate's, with each game's arc) -> a balance report: per side win
rates with Wilson intervals, first-player advantage, game length, and per card how often it
was drawn, played, and how its side fared when it was played against when it was held and
not played; for an expansion, each figure's change against the base game.

Why: "is this card too strong?" deserves an honest answer with its uncertainty, not a bare
rate over a handful of games. A card is *flagged* when the win rate of the side that played
it is above the side's win rate when it held the card and did not play it, by more than both
intervals allow (the played interval's low end above the other's high end), on enough games
(`MIN_SAMPLE` each way). Nothing here knows a game: cards are grouped by name.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
MIN_SAMPLE = 10          # games each way below which a card's comparison is marked too small


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion wins/n (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(wins: int, n: int) -> dict:
    lo, hi = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": (wins / n) if n else None, "low": round(lo, 4), "high": round(hi, 4)}


def report(cg, records: list[dict]) -> dict:
    """The balance figures of one set of games (records with `arc` holding cards)."""
    done = [r for r in records if r["error"] is None]
    n = len(done)
    sides = list(cg.sides)
    per_side = {s: _rate(sum(1 for r in done if r["winner"] == k), n) for k, s in enumerate(sides)}
    draws = sum(1 for r in done if r["winner"] is None)
    firsts = [r for r in done if r["arc"].get("first") is not None]
    first = _rate(sum(1 for r in firsts if r["winner"] == r["arc"]["first"]), len(firsts))
    first["fair"] = round(1 / len(sides), 4)
    lengths = sorted(r["decisions"] for r in done)
    length = {"mean": (sum(lengths) / n) if n else 0.0, "min": lengths[0] if lengths else 0,
              "median": lengths[n // 2] if lengths else 0, "max": lengths[-1] if lengths else 0}
    return {"game": cg.id, "games": len(records), "completed": n, "errors": len(records) - n,
            "sides": per_side, "draws": draws, "first_player": first, "length": length,
            "cards": _cards(cg, done)}


def _cards(cg, done: list[dict]) -> dict:
    stats: dict[str, dict] = {}
    for r in done:
        arc = r["arc"]
        for k, (held, chosen) in enumerate(zip(arc.get("held", []), arc.get("chosen", []))):
            won = r["winner"] == k
            chosen_set = set(chosen)
            for name in held:
                c = stats.setdefault(name, {"drawn": 0, "played": 0, "played_wins": 0, "held": 0, "held_wins": 0})
                c["drawn"] += 1
                if name in chosen_set:
                    c["played"] += 1
                    c["played_wins"] += won
                else:
                    c["held"] += 1
                    c["held_wins"] += won
    n = len(done)
    out = {}
    for name, c in sorted(stats.items()):
        played, held = _rate(c["played_wins"], c["played"]), _rate(c["held_wins"], c["held"])
        small = c["played"] < MIN_SAMPLE or c["held"] < MIN_SAMPLE
        entry = {"drawn": c["drawn"], "drawn_per_game": round(c["drawn"] / n, 4) if n else 0.0,
                 "played": c["played"], "play_rate": round(c["played"] / c["drawn"], 4) if c["drawn"] else 0.0,
                 "win_when_played": played, "win_when_held": held,
                 "lift": (round(played["rate"] - held["rate"], 4)
                          if played["rate"] is not None and held["rate"] is not None else None),
                 "note": "sample too small" if small else ""}
        entry["flag"] = ("strong" if not small and played["low"] > held["high"] else
                         "weak" if not small and played["high"] < held["low"] else "")
        out[name] = entry
    return out


def compare(base: dict, expanded: dict) -> dict:
    """`expanded`'s report with, for each figure, its change against `base` (None: not in the base)."""
    def delta(a, b):
        return None if a is None or b is None else round(b - a, 4)
    out = dict(expanded)
    out["base"] = {"games": base["games"], "sides": base["sides"], "first_player": base["first_player"],
                   "length": base["length"]}
    out["change"] = {
        "sides": {s: delta(base["sides"][s]["rate"], expanded["sides"][s]["rate"]) for s in expanded["sides"]},
        "first_player": delta(base["first_player"]["rate"], expanded["first_player"]["rate"]),
        "length": delta(base["length"]["mean"], expanded["length"]["mean"]),
    }
    cards = {}
    for name, e in expanded["cards"].items():
        b = base["cards"].get(name)
        cards[name] = {"new": b is None,
                       "drawn_per_game": None if b is None else delta(b["drawn_per_game"], e["drawn_per_game"]),
                       "play_rate": None if b is None else delta(b["play_rate"], e["play_rate"]),
                       "win_when_played": None if b is None else delta(b["win_when_played"]["rate"],
                                                                        e["win_when_played"]["rate"])}
    out["change"]["cards"] = cards
    return out


def flagged(rep: dict) -> list[str]:
    """The cards the report singles out (strong first), by how much playing them lifts the win rate."""
    cards = rep["cards"]
    return sorted((c for c in cards if cards[c]["flag"]),
                  key=lambda c: (cards[c]["flag"] != "strong", -(cards[c]["lift"] or 0)))
