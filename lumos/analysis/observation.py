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
        self.seen = [[zone_seen(cg, z, s) for z in range(self.nz)] for s in range(ns)]
        self.size = (self.np * (self.nsp + 1) + self.np * (self.np + 1) + len(self.g) + len(self.sv) * ns +
                     len(self.pv) * self.np + self.nz + self.nc * (self.nz + 2) + ns + 1)

    def encode_array(self, state, side: int):
        """`encode` as a numpy float32 array, made with whole-array operations (the same numbers;
        OpenSpiel asks for it at every step)."""
        import numpy as np
        if getattr(self, "_np", None) is None:
            self._np = self._arrays()
        ar = self._np
        cg, st = self.cg, state.st
        ns = cg.nsides
        out = np.zeros(self.size, np.float32)
        m = state.machine
        spaces = np.fromiter((self.nsp if (sp := m.space_of(i)) is None else sp for i in range(self.np)),
                             np.int64, self.np)
        out[ar["piece_at"] + spaces] = 1.0
        holders = np.asarray(st.holder, np.int64) if self.np else np.zeros(0, np.int64)
        out[ar["holder_at"] + np.where(holders < 0, self.np, holders)] = 1.0
        at = ar["vars_at"]
        values = [self._typed(kind, st.g[i]) for i, kind in ar["g"]]
        for i, kind in ar["sv"]:
            values.extend(self._typed(kind, v) for v in st.sv[i])
        for i, kind in ar["pv"]:
            values.extend(self._typed(kind, v) for v in st.pv[i])
        out[at:at + len(values)] = values
        at += len(values)
        out[at:at + self.nz] = [len(z) for z in st.zones]
        at += self.nz
        if self.nc:
            cz = np.asarray(st.card_zone, np.int64)
            slot = np.where(cz < 0, self.nz, np.where(ar["seen"][side][np.maximum(cz, 0)], cz, self.nz + 1))
            out[at + ar["card_rows"] + slot] = 1.0
        at += self.nc * (self.nz + 2)
        if st.result is None and st.pending is not None and st.pending["side"] >= 0:
            out[at + st.pending["side"]] = 1.0
        else:
            out[at + ns] = 1.0
        return out

    def _arrays(self) -> dict:
        import numpy as np
        cg = self.cg
        return {"piece_at": np.arange(self.np, dtype=np.int64) * (self.nsp + 1),
                "holder_at": self.np * (self.nsp + 1) + np.arange(self.np, dtype=np.int64) * (self.np + 1),
                "vars_at": self.np * (self.nsp + 1) + self.np * (self.np + 1),
                "g": [(i, cg.var_types.get(("g", i))) for i in self.g],
                "sv": [(i, cg.var_types.get(("sv", i))) for i in self.sv],
                "pv": [(i, cg.var_types.get(("pv", i))) for i in self.pv],
                "seen": [np.asarray(row, bool) for row in self.seen],
                "card_rows": np.arange(self.nc, dtype=np.int64) * (self.nz + 2)}

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
        seen, box, unseen, step = self.seen[side], self.nz, self.nz + 1, self.nz + 2
        for zid in st.card_zone:
            out[at + (box if zid < 0 else (zid if seen[zid] else unseen))] = 1.0
            at += step
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


def _frozen(v):
    return tuple(v) if isinstance(v, list) else v


class Keys:
    """What a side sees as one hashable tuple, exactly the observation's content (interpreter/observe.py)
    in numbers: cheap enough to take at every decision (OpenSpiel's observation and information
    state strings are made from it), never holding a card the side may not see."""

    def __init__(self, cg):
        self.cg = cg
        self.cards = {(w, i): (is_list, declared) for w, i, is_list, declared in cg.card_vars}
        self.g = [i for i in range(len(cg.global_names)) if ("g", i) not in self.cards]
        self.sv = [i for i in range(len(cg.side_var_names)) if ("sv", i) not in self.cards]
        self.pv = [i for i in range(len(cg.piece_var_names)) if ("pv", i) not in self.cards]
        ns = cg.nsides
        self.seen = [[zone_seen(cg, z, s) for z in range(len(cg.zones) * ns)] for s in range(ns)]

    def key(self, state, side: int, own_ids=None) -> tuple:
        """The tuple for `side`; `own_ids`: the pending decision's action ids, shown to its decider only."""
        from lumos.interpreter.visibility import card_seen, card_variables
        cg, st = self.cg, state.st
        zones = tuple(tuple(cards) if seen else len(cards) for cards, seen in zip(st.zones, self.seen[side]))
        shown = []
        for _w, _i, owner, values, k, is_list, declared in card_variables(cg, st):
            v = values[k]
            if v is None:
                shown.append(None)
            elif is_list:
                shown.append(tuple(c if card_seen(cg, st, c, side, declared, owner) else -2 for c in v))
            else:
                shown.append(v if card_seen(cg, st, v, side, declared, owner) else -2)
        g, sv, pv = st.g, st.sv, st.pv
        pend = st.pending
        decider = None if pend is None or st.result is not None else pend["side"]
        # lists inside are kept as they are: the key is compared and written out (repr), never hashed
        return (tuple(st.loc), tuple(st.holder), tuple(g[i] for i in self.g),
                tuple(tuple(sv[i]) for i in self.sv), tuple(tuple(pv[i]) for i in self.pv),
                tuple(tuple(row) for row in st.xv), zones, tuple(shown), decider,
                tuple(own_ids) if own_ids is not None and decider == side else None,
                None if pend is None else _frozen(pend.get("question")),
                None if st.result is None else tuple(st.result))
