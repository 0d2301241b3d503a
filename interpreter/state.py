"""Game state as plain data: lists of ints, strings and bools, plus an explicit frame stack.

Everything needed to continue a game is here — piece positions, card zones in
order, variables, the random generator's state, whose decision it is and where in
the rules the game stands (frames of (procedure, program counter, locals)). So a
state clones by copying lists, and serialises to JSON and back at any decision point.
"""
from __future__ import annotations

import json
from typing import Any

MASK64 = (1 << 64) - 1


def _tuplify(value):
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


class Rng:
    """splitmix64: tiny, fast, and its whole state is one integer kept in the game state."""

    @staticmethod
    def next(state: "State") -> int:
        state.rng = z = (state.rng + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    @staticmethod
    def below(state: "State", n: int) -> int:
        """A uniform integer in [0, n): `next` written in line (every die roll and chance node
        draws through here; `shuffle` writes the same draws in line)."""
        limit = (MASK64 + 1) - ((MASK64 + 1) % n)
        while True:
            state.rng = z = (state.rng + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    @staticmethod
    def shuffle(state: "State", items: list) -> None:
        """Fisher-Yates from the top, each swap's index drawn as `below(state, i + 1)` does (in line)."""
        z = state.rng
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = (MASK64 + 1) - ((MASK64 + 1) % n)
            while True:
                z = (z + 0x9E3779B97F4A7C15) & MASK64
                x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
                x ^= x >> 31
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        state.rng = z


class State:
    """The mutable state of one game. See the module docstring for what each field holds."""

    FIELDS = ("rng", "g", "sv", "pv", "xv", "cv", "loc", "holder", "occ", "occ_next", "zones", "card_zone",
              "frames", "pending", "result", "decisions", "steps", "forced", "anytime_at")
    # what the state keeps to save work, never part of the position (not saved, hashed or
    # compared; a copy starts without it): see `occ_log` and `kept` below
    __slots__ = FIELDS + ("occ_log", "kept")

    def __init__(self):
        self.rng = 0
        self.g: list = []            # global variables by slot
        self.sv: list = []           # side variables: [var][side]
        self.pv: list = []           # piece variables: [var][piece]
        self.xv: list = []           # space variables: [var][space] (`var ... per space`)
        self.cv: list = []           # card variables: [var][card] (`var ... per card`)
        self.loc: list[int] = []     # piece -> space index, -1 off the board
        self.holder: list[int] = []  # piece -> the piece carrying it, -1 if none
        self.occ: list[int] = []     # space -> the first piece standing on it, -1 if empty
        self.occ_next: list[int] = []  # piece -> the next piece standing on its space, -1 if last
        self.zones: list[list[int]] = []  # zone id -> card ids, bottom first (top is the end)
        self.card_zone: list[int] = []    # card -> zone id, -1 if in the box
        self.frames: list[list] = []      # [proc, pc, locals, result_slot]
        self.pending: dict | None = None  # the decision the game waits for
        self.result: list | None = None   # returns per side once the game is over
        self.decisions = 0
        self.steps = 0
        # the single-option policy: False asks every decision, even one with a single option;
        # True takes a forced decision (one option, no `may`) without asking (faster play)
        self.forced = False
        # [depth, proc, pc] of the decision an `anytime` rule was taken at: asked again, that
        # decision does not offer anytime rules (so declining inside one cannot loop)
        self.anytime_at: list | None = None
        # each space whose first piece changed, in order (Machine.place and leave write it), and
        # the searches' answers kept per what they read, with the spaces they met and how long
        # the log was (lumos.compiler.fused, _keep_lines): an answer holds while none of those
        # spaces is in the log after that
        self.occ_log: list[int] = []
        self.kept: dict = {}

    def forget_kept(self) -> None:
        """Drop the kept answers and the log they are checked against: when the log grows long,
        and when pieces are laid out without the log (a position read onto a played state)."""
        self.occ_log.clear()
        self.kept.clear()

    def clone(self) -> "State":
        # `map(list.copy, ...)` copies each inner list without a comprehension's frame, and an
        # empty table (a game without pieces, cards or such variables) is not mapped at all: a
        # new game is a clone of its prepared start, so this is on the path of every game
        c = State.__new__(State)
        c.rng = self.rng
        c.g = self.g[:]
        copy = list.copy
        c.sv = [*map(copy, self.sv)] if self.sv else []
        c.pv = [*map(copy, self.pv)] if self.pv else []
        c.xv = [*map(copy, self.xv)] if self.xv else []
        c.cv = [*map(copy, self.cv)] if self.cv else []
        c.loc = self.loc[:]
        c.holder = self.holder[:]
        c.occ = self.occ[:]
        c.occ_next = self.occ_next[:]
        c.zones = [*map(copy, self.zones)] if self.zones else []
        c.card_zone = self.card_zone[:]
        frames = self.frames
        if len(frames) == 1:   # a game at its first decision, often: no comprehension's frame
            (p, pc, local, slot), = frames
            c.frames = [[p, pc, local[:], slot]]
        else:
            c.frames = [[p, pc, local[:], slot] for p, pc, local, slot in frames]
        pending = self.pending
        c.pending = None if pending is None else pending.copy()
        c.result = None if self.result is None else self.result[:]
        c.decisions = self.decisions
        c.steps = self.steps
        c.forced = self.forced
        c.anytime_at = self.anytime_at   # replaced, never changed in place
        c.occ_log = []
        c.kept = {}
        return c

    def to_dict(self) -> dict[str, Any]:
        # `xv` and `cv` only when the game has variables per space or per card: the states (and the
        # logged state hashes) of games without them are what they were before
        return {name: getattr(self, name) for name in State.FIELDS
                if name not in ("xv", "cv") or getattr(self, name)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        s = cls()
        for name in cls.FIELDS:
            if name == "occ_next" and name not in data:  # saved before spaces held several pieces
                s.occ_next = [-1] * len(data["loc"])
                continue
            if name == "forced" and name not in data:     # saved before the policy was a choice
                s.forced = True
                continue
            if name == "anytime_at" and name not in data:  # saved before `anytime` rules
                continue
            if name in ("xv", "cv") and name not in data:   # a game without variables per space or card
                continue
            setattr(s, name, data[name])
        s.g = [_tuplify(v) for v in s.g]
        s.frames = [[f[0], f[1], [_tuplify(v) for v in f[2]], f[3]] for f in s.frames]
        if s.pending is not None:
            s.pending = dict(s.pending)
            s.pending["options"] = [_tuplify(o) for o in s.pending["options"]]
        return s

    @classmethod
    def from_json(cls, text: str) -> "State":
        return cls.from_dict(json.loads(text))
