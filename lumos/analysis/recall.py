"""A game's steps -> each side's information state: what it saw after every step and the moves
it could see (its own actions, the chance outcomes, the visible part of the others' actions).

Why: OpenSpiel's information state must be a function of what one side has seen since the
start (an action-observation history, perfect recall), never of what it could not see. The
whole history as text grows with the game and random_sim_test asks for it at every step, so
it is kept as a running digest per side: each step folds (the move as that side saw it, what
it sees after it) into the previous digest, so a step costs one observation key per side
(lumos.analysis.observation.Keys) whatever the game's length. A rival's move shows its rule
and its arguments, a card the side does not see (before the move) as -2; chance outcomes (die
faces, a question's right or wrong) are public. Nothing here knows a game.
"""
from __future__ import annotations

from hashlib import blake2b

from lumos.interpreter.options import _decision_op
from lumos.interpreter.visibility import card_seen

UNSEEN = -2
DIGEST = 12   # bytes of each digest: collisions are out of reach for any number of games


def digest(prev: bytes, token, key) -> bytes:
    return blake2b(repr((prev, token, key)).encode(), digest_size=DIGEST).digest()


def seen_move(state, index: int, side: int) -> tuple:
    """The option `index` of the pending decision of another side, as `side` sees it (before it is applied)."""
    cg, st = state.cg, state.st
    pend, fr, op, proc = _decision_op(state)
    value = pend["options"][index]
    if isinstance(value, dict):
        return ("anytime", cg.anytime[value["anytime"]].label)
    if value is None:
        return ("pass", proc.name)
    kind = getattr(op, "kind", "choice")
    rule = cg.actions[value[0]].name if kind == "action" else getattr(op, "site", proc.name)
    if not hasattr(op, "args"):
        return (kind, rule)
    args = []
    for name, (v, t) in op.args(state.machine, fr, value).items():
        if t == "card" and isinstance(v, int):
            v = v if card_seen(cg, st, v, side) else UNSEEN
        elif t == "list:card" and isinstance(v, (list, tuple)):
            v = tuple(c if card_seen(cg, st, c, side) else UNSEEN for c in v)
        elif isinstance(v, list):
            v = tuple(v)
        args.append((name, v))
    return (kind, rule, tuple(args))


class Recall:
    """Per side: the running digest, the number of steps folded in, and its own actions counted
    (dense action id -> times), for the information state tensor. Plain data: copied with a
    clone, pickled with a serialised state."""

    __slots__ = ("digests", "steps", "counts")

    def __init__(self, keys: list[tuple]):
        self.digests = [digest(b"", "start", k) for k in keys]
        self.steps = 0
        self.counts: list[dict[int, int]] = [{} for _ in keys]

    def copy(self) -> "Recall":
        twin = Recall.__new__(Recall)
        twin.digests, twin.steps, twin.counts = list(self.digests), self.steps, [dict(c) for c in self.counts]
        return twin

    def fold(self, tokens: list, keys: list[tuple]) -> None:
        """One step: `tokens[side]` the move as that side saw it, `keys[side]` what it sees now."""
        self.digests = [digest(d, t, k) for d, t, k in zip(self.digests, tokens, keys)]
        self.steps += 1

    def own(self, side: int, action: int) -> None:
        counts = self.counts[side]
        counts[action] = counts.get(action, 0) + 1

    def __deepcopy__(self, memo) -> "Recall":
        return self.copy()

    def __getstate__(self):
        return (self.digests, self.steps, self.counts)

    def __setstate__(self, data):
        self.digests, self.steps, self.counts = data
