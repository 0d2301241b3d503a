"""A state and a side -> how well that side stands: the heuristic agents use when they look ahead.

Why: a search cannot play every game to its end, so it needs a judgement of an unfinished
position. A game may write its own (`score of s = ...`, docs/language.md); without one, the
generic judgement sums the side's numeric variables against its rivals'. Either way an ended
game counts `WIN_WEIGHT` times its return, so winning outweighs any lead.
"""
from __future__ import annotations

WIN_WEIGHT = 1000.0


def declared_score(state, side: int) -> float:
    """The game's `score of s` for `side` (the game must declare one)."""
    fn, nslots = state.cg.score
    local = [None] * max(1, nslots)
    local[0] = side
    value = fn(state.machine, local)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _generic(st, side: int, ns: int) -> float:
    score = 0.0
    for values in st.sv:
        mine = values[side]
        if type(mine) not in (int, float):   # flags and texts say nothing about who is ahead
            continue
        if ns > 1:
            others = [v for k, v in enumerate(values) if k != side and type(v) in (int, float)]
            score += mine - (sum(others) / len(others) if others else 0)
        else:
            score += mine
    return score


def standing(state, side: int) -> float:
    """The side's score minus its rivals' average (its `score of s` if the game declares one)."""
    cg, st = state.cg, state.st
    ns = cg.nsides
    if cg.score is None:
        return _generic(st, side, ns)
    mine = declared_score(state, side)
    others = [declared_score(state, k) for k in state.sides_in_play() if k != side]   # a side out of play does not count
    if not others:
        return mine
    return mine - sum(others) / len(others)


def evaluate(state, side: int) -> float:
    """`WIN_WEIGHT` x the side's return once the game has ended, plus its standing."""
    st = state.st
    score = WIN_WEIGHT * st.result[side] if st.result is not None else 0.0
    return score + standing(state, side)
