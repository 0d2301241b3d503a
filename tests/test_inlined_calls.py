"""A user function called with several arguments is lowered in line at its call site, its
parameters hidden slots of the caller's locals (compiler/lower_expr.py, `inline_call`; issue 14,
speed: "calls with three or more arguments build an argument list and write slots through a
generic closure").

What must hold: every argument is made before any slot is written, left to right, and the
slots then hold what the reference back end's call leaves in them (a saved state holds them).
Slots side by side are written by one store of a slice; constants as one tuple. A filter asked
only whether it has an item (`(S where C) is empty`) stops at the first one, its item slot given
S's last item first, as the filter leaves it (compiler/fused.py, `_exists`).
"""
from __future__ import annotations

from test_unrolled_quantifiers import _capture, _same_games

# Tiny game (no rulebook): marks dropped on free squares of a 4x3 strip; three in a row of the
# bottom or top row named square by square (`line` of three constants), three of a column
# through the last mark (`line` of computed squares, one of them maybe off the grid), or
# `span` given its arguments in an order that is not its slots' (a local read twice), or when
# no free square is left of one of its marks (`open_before`: whether a filter has an item, asked
# of a call) and its last mark has one of its own to the left.
RULES = """\
game "Strip"
board "board.yaml"
sides red, blue
var mark: side per space = none
var last: space = none

function line(p, a, b, c) = a is not none and b is not none and c is not none and mark of a is p and mark of b is p and mark of c is p
function span(a, p, b) = line(p, a, offset(a, 1, 0), b)
function bottom(p) = line(p, a1, b1, c1) or line(p, b1, c1, d1) or line(p, a3, b3, c3) or line(p, b3, c3, d3)
function open_before(p) = (spaces where mark of it is none and mark of offset(it, 1, 0) is p) is not empty
function column(s, p) = line(p, offset(s, 0, -1), s, offset(s, 0, 1)) or line(p, s, offset(s, 0, 1), offset(s, 0, 2)) or line(p, offset(s, 0, -2), offset(s, 0, -1), s)

action drop:
    with s in spaces where mark of it is none
    label "mark {s}"
    set s.mark = me
    set last = s

flow:
    loop:
        do one of drop by current
        if bottom(current) or column(last, current) or span(last, current, offset(last, 2, 0)):
            win current
        if not open_before(current) and mark of offset(last, -1, 0) is current:
            win current
        if (spaces where mark of it is none) is empty:
            end in a draw
        set current = other(current)
"""


def test_inlined_calls_leave_the_reference_locals_after_every_step(tmp_path, monkeypatch):
    """Every state of 40 seeded random games (frames and their locals included, so every
    parameter slot) and the events are the reference back end's; the calls of constants store
    their slots as one tuple, and no call writes its slots one by one."""
    texts = _capture(monkeypatch)
    assert len(_same_games(tmp_path, RULES)) > 2   # the games end in more than one way
    flow = [t for t in texts if "L.__setitem__(_" in t]
    assert flow, "the calls store their slots as slices"
    assert not any("), L.__setitem__(" in t for t in texts), "no call writes its slots one by one"
    stops = [t for t in texts if t.startswith("def exists") and "= _items[-1]" in t and "return True" in t]
    assert len(stops) == 2, "both `is empty` tests stop at the first item"
