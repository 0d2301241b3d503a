"""One game as it is played -> a plain record of its arc: the actions each side took, the final
value of each numeric side variable, the game's declared statistics (`statistic "Goals" of s =
...`, compiler/statistics.py), and (for the balance report) the cards each side held and chose.

Why: win rates alone do not say whether agents play the game as people do (a Quidditch game
with no Goal is not the game). The driver (`play_game(..., watch=ArcWatch(cg))`) tells the
watch of each decision; nothing here knows a game. "Held" is a card lying in a zone only its
side sees (a hand: `zone ... per side owner`) at one of that side's decisions; "chosen" is a card
the side picked in a decision (played, used or discarded: a card option).
"""
from __future__ import annotations

from lumos.interpreter.options import chosen_action, chosen_cards


class ArcWatch:
    """Counts per game; `record()` gives them as plain data (JSON-ready, picklable)."""

    def __init__(self, cg, cards: bool = False):
        self.cg = cg
        self.cards = cards
        ns = cg.nsides
        self.actions: list[dict[str, int]] = [{} for _ in range(ns)]
        self.held: list[set] = [set() for _ in range(ns)]
        self.chosen: list[set] = [set() for _ in range(ns)]
        self.final: dict[str, list] = {}
        self.first: int | None = None   # the side that took the game's first decision
        self._own_zones = [[z * ns + s for z, (_n, vis) in enumerate(cg.zones)
                            if vis == "owner" and z not in cg.shared_zones] for s in range(ns)]

    def decision(self, state, choice: int) -> None:
        side = state.current_player()
        if self.first is None and len(state.st.pending["options"]) > 1:
            self.first = side
        name = chosen_action(state, choice)
        if name is not None:
            counts = self.actions[side]
            counts[name] = counts.get(name, 0) + 1
        if self.cards:
            zones = state.st.zones
            held = self.held[side]
            for zid in self._own_zones[side]:
                held.update(zones[zid])
            for c in chosen_cards(state, choice):
                self.chosen[side].add(c)
                held.add(c)

    def end(self, state) -> None:
        st = state.st
        for k, name in enumerate(self.cg.side_var_names):
            values = st.sv[k]
            if all(type(v) in (int, float) for v in values):
                self.final[name] = list(values)
        self.statistics = statistics_of(state, self.actions)

    def record(self) -> dict:
        names = [c.name for c in self.cg.cards]
        out = {"actions": [dict(a) for a in self.actions], "final": dict(self.final), "first": self.first,
               "statistics": getattr(self, "statistics", {})}
        if self.cards:
            out["held"] = [sorted({names[c] for c in h}) for h in self.held]
            out["chosen"] = [sorted({names[c] for c in h}) for h in self.chosen]
        return out


def statistics_of(state, actions: list[dict[str, int]]) -> dict[str, list]:
    """Each declared statistic per side at the end of a game: a count of the side's takings of
    its action, or its value (a flag as 0 or 1; None when it cannot be worked out there)."""
    from lumos.diagnostics import LumosError
    out: dict[str, list] = {}
    ns = state.cg.nsides
    for info in state.cg.statistics:
        if info.kind == "count":
            out[info.title] = [actions[s].get(info.action, 0) for s in range(ns)]
            continue
        row = []
        for s in range(ns):
            local = [None] * info.nslots
            local[0] = s
            try:
                v = info.fn(state.machine, local)
            except LumosError:
                v = None
            row.append(int(v) if isinstance(v, bool) else (v if isinstance(v, (int, float)) else None))
        out[info.title] = row
    return out


def summarise_statistics(cg, arcs: list[dict]) -> dict:
    """Per declared statistic and side: in how many games it happened (a count or value other
    than 0, a flag that held), that share of the games, and its mean per game; and in how many
    games it happened for some side (Goals were scored in 9 games of 10) and for every side
    (both Seekers flew up the Snitch Race in all 10)."""
    out: dict[str, dict] = {}
    for info in cg.statistics:
        rows = [arc["statistics"][info.title] for arc in arcs if info.title in arc.get("statistics", {})]
        per = {}
        for s, side in enumerate(cg.sides):
            values = [r[s] for r in rows if r[s] is not None]
            happened = sum(1 for v in values if v)
            per[side] = {"games": happened, "share": happened / len(values) if values else 0.0,
                         "mean": sum(values) / len(values) if values else 0.0, "of": len(values)}
        anyone = sum(1 for r in rows if any(r))
        everyone = sum(1 for r in rows if None not in r and all(r))
        out[info.title] = {"kind": info.kind, "section": info.section, "sides": per,
                           "any_side": {"games": anyone, "share": anyone / len(rows) if rows else 0.0},
                           "every_side": {"games": everyone, "share": everyone / len(rows) if rows else 0.0}}
    return out


def summarise_arcs(cg, arcs: list[dict]) -> dict:
    """Per action: games where each side took it and the mean count per game; per numeric side
    variable that changed in some game: its mean final value per side, and in how many games it
    ended away from its starting value (Goals scored in 7 games of 10)."""
    n = len(arcs)
    sides = cg.sides
    actions: dict[str, dict] = {}
    for arc in arcs:
        for s, counts in enumerate(arc["actions"]):
            for name, k in counts.items():
                a = actions.setdefault(name, {"games": [0] * len(sides), "total": [0] * len(sides)})
                a["games"][s] += 1
                a["total"][s] += k
    initial = {name: list(vals) for name, vals in zip(cg.side_var_names, cg.side_vars_init)}
    finals: dict[str, dict] = {}
    moved: dict[str, dict] = {}   # in how many games the variable ended away from its start
    for name in cg.side_var_names:
        rows = [arc["final"][name] for arc in arcs if name in arc.get("final", {})]
        if not rows or all(r == initial.get(name) for r in rows):
            continue   # never moved: says nothing about the arc
        finals[name] = {side: sum(r[s] for r in rows) / len(rows) for s, side in enumerate(sides)}
        start = initial.get(name) or [None] * len(sides)
        moved[name] = {side: sum(1 for r in rows if r[s] != start[s]) for s, side in enumerate(sides)}
    return {
        "actions": {name: {side: {"games": a["games"][s], "per_game": a["total"][s] / n if n else 0.0}
                           for s, side in enumerate(sides)} for name, a in sorted(actions.items())},
        "final_means": finals,
        "final_moved": moved,
        "statistics": summarise_statistics(cg, arcs),
    }
