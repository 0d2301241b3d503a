"""Chance decision instructions: a die rolled, a pool of dice rolled one die at a time, a
question answered right or wrong. Each is an object the machine calls (it records a pending
chance decision) and resumes with the outcome; `describe` names an outcome for the options.
Lowered from `roll`, `roll ... with N DIE and ...` and `answer` by lower_stmt.py.
"""
from __future__ import annotations

import math

from lumos.interpreter.program import CHANCE

__all__ = ["RollOp", "PoolOp", "AnswerOp"]


class RollOp:
    """`roll DIE`: a chance node over the die's faces."""
    kind = "chance"

    def __init__(self, slot, faces, side):
        self.slot, self.faces, self.side = slot, faces, side
        self.site = "roll"

    def __call__(self, m, fr):
        side = self.side(m, fr[2])
        m.decide("chance", CHANCE, list(self.faces), False)
        m.st.pending["for"] = side

    def resume(self, m, fr, value, side=None):
        fr[2][self.slot] = value
        fr[1] += 1
        if m.events is not None:  # no text is built when nobody logs
            m.emit(fr, f"{m.fmt(self.side(m, fr[2]), 'side')} rolled {value}")

    def describe(self, m, fr, value):
        return f"roll {value}"

    def args(self, m, fr, value) -> dict:
        return {"face": (value, "any")}


class PoolOp:
    """One chance node per die of a pool; the faces gather in a hidden local, then the list is set."""

    kind = "chance"

    def __init__(self, slot, plan, got, side):
        self.slot, self.plan, self.got, self.side = slot, plan, got, side
        self.site = "roll"

    def __call__(self, m, fr):
        L = fr[2]
        plan, got = L[self.plan], L[self.got]
        if len(got) < len(plan):
            m.decide("chance", CHANCE, list(plan[len(got)]), False)
            m.st.pending["for"] = self.side(m, L)
            return
        L[self.slot] = got
        L[self.plan] = L[self.got] = None
        fr[1] += 1
        if m.events is not None and got:  # no text is built when nobody logs; an empty pool rolls nothing
            m.emit(fr, f"{m.fmt(self.side(m, L), 'side')} rolled {', '.join(map(str, got))}")

    def resume(self, m, fr, value, side=None):
        L = fr[2]
        L[self.got] = L[self.got] + (value,)   # the same instruction runs again for the next die

    def describe(self, m, fr, value):
        return f"roll {value}"

    def args(self, m, fr, value) -> dict:
        return {"face": (value, "any")}


class AnswerOp:
    """A question answered right or wrong: a chance node with two outcomes, weighted by the
    chance in 100 of a right answer. The question (card and field) rides on the pending
    decision, so a person at the table can be shown it and settle the node by typing."""

    kind = "chance"
    outcomes = ("right", "wrong")   # the action space's names of the two outcomes

    def __init__(self, slot, question, side, chance):
        self.slot, self.question, self.side, self.chance = slot, question, side, chance
        self.site = "answer"

    def __call__(self, m, fr):
        L = fr[2]
        q = self.question(m, L)
        if q is None:
            m.fail_runtime("R003", "`answer` needs a question here, not none", fr,
                           "the card has no such question; test `c.FIELD is not none` first")
        p = min(max(self.chance(m, L) or 0, 0), 100)
        side = self.side(m, L)
        if m.events is not None:
            from lumos.interpreter.questions import read_aloud
            m.emit(fr, f"{m.fmt(side, 'side')} is asked: {read_aloud(m.cg.cards[q[0]].fields[q[1]])}")
        m.decide("question", CHANCE, [True, False], False)
        pend = m.st.pending
        pend["for"] = side
        # right on p faces of 100, as a die would be: the draw lists an outcome per face
        k = math.gcd(p, 100)
        pend["draw"] = [0] * (p // k) + [1] * ((100 - p) // k)
        pend["question"] = [q[0], q[1]]

    def resume(self, m, fr, value, side=None):
        fr[2][self.slot] = value
        fr[1] += 1
        if m.events is not None:
            m.emit(fr, f"{m.fmt(self.side(m, fr[2]), 'side')} answers {'right' if value else 'wrong'}")

    def describe(self, m, fr, value):
        return "right answer" if value else "wrong answer"

    def args(self, m, fr, value) -> dict:
        return {"answer": ("right" if value else "wrong", "text")}
