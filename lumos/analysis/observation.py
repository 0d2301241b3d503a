"""A GameState and a side -> a fixed-length vector of numbers: what that side may see, for
learning code (the PettingZoo environment's observations).

Why fixed and generic: a learner needs one shape per game, whatever happens; the layout comes
from the compiled game's declarations alone. What a side may not see is never encoded: a card
is placed only in a zone the side sees (interpreter/visibility.py), else in the "unseen" slot,
and variables that hold cards are left out (their value would name a hidden card). Layout, in
order: each piece's space (one-hot, plus "off the board") and its carrier (one-hot, plus
"none"); the numeric, flag, side and piece variables (globals, then per side, then per piece;
a side or piece as its index + 1, none as 0); each zone's size; each card's zone as the side
sees it (one-hot, plus "in the box" and "unseen"); who decides (one-hot per side, plus
chance/over).
"""
from __future__ import annotations

from lumos.interpreter.visibility import zone_seen

_KINDS = ("number", "flag", "side", "piece")


def _encodable(cg, where: str, k: int) -> bool:
    kind = cg.var_types.get((where, k))
    if kind is None:   # an option or an internal value: numbers kept, the rest read as 0
        return all(not (w == where and i == k) for w, i, _l, _d in cg.card_vars)
    return kind in _KINDS


def _value(v) -> float:
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    return 0.0


class Layout:
    """The vector's layout for one compiled game (sizes and the variables encoded)."""

    def __init__(self, cg):
        self.cg = cg
        ns = cg.nsides
        self.np, self.nsp, self.nc, self.nz = len(cg.pieces), len(cg.board.spaces), len(cg.cards), len(cg.zones) * ns
        self.g = [i for i in range(len(cg.global_names)) if _encodable(cg, "g", i)]
        self.sv = [i for i in range(len(cg.side_var_names)) if _encodable(cg, "sv", i)]
        self.pv = [i for i in range(len(cg.piece_var_names)) if _encodable(cg, "pv", i)]
        self.size = (self.np * (self.nsp + 1) + self.np * (self.np + 1) + len(self.g) + len(self.sv) * ns +
                     len(self.pv) * self.np + self.nz + self.nc * (self.nz + 2) + ns + 1)

    def encode(self, state, side: int) -> list[float]:
        cg, st = self.cg, state.st
        ns = cg.nsides
        out = [0.0] * self.size
        at = 0
        for i in range(self.np):
            sp = state.machine.space_of(i)
            out[at + (self.nsp if sp is None else sp)] = 1.0
            at += self.nsp + 1
        for i in range(self.np):
            h = st.holder[i]
            out[at + (self.np if h < 0 else h)] = 1.0
            at += self.np + 1
        for i in self.g:
            out[at] = self._typed(cg.var_types.get(("g", i)), st.g[i])
            at += 1
        for i in self.sv:
            kind = cg.var_types.get(("sv", i))
            for s in range(ns):
                out[at] = self._typed(kind, st.sv[i][s])
                at += 1
        for i in self.pv:
            kind = cg.var_types.get(("pv", i))
            for p in range(self.np):
                out[at] = self._typed(kind, st.pv[i][p])
                at += 1
        for zid in range(self.nz):
            out[at + zid] = float(len(st.zones[zid]))
        at += self.nz
        for c in range(self.nc):
            zid = st.card_zone[c]
            slot = self.nz if zid < 0 else (zid if zone_seen(cg, zid, side) else self.nz + 1)
            out[at + slot] = 1.0
            at += self.nz + 2
        if st.result is None and st.pending is not None and st.pending["side"] >= 0:
            out[at + st.pending["side"]] = 1.0
        else:
            out[at + ns] = 1.0
        return out

    @staticmethod
    def _typed(kind, v) -> float:
        if kind in ("side", "piece"):
            return 0.0 if v is None or isinstance(v, bool) or not isinstance(v, int) else float(v + 1)
        return _value(v)
