"""`any`/`all` over a short list known when compiling is a chain of its condition's copies, one
per item, with the item a constant in each (`count`: the sum of their truths) (issue 14, speed: "offset is recomputed from a dict of
attributes instead of a neighbour table"; compiler/lower_expr.py, `unrolled`).

What must hold: the same parts run in the same order and stop where the loop stops, and the
state after every step is the reference back end's, the frames' locals included (the loop's item
slot is none after a loop, and a function given the item keeps no slot of its own).
`offset(s, dx, dy)` with a step known when compiling reads a table per space; `first`/`last`
of a known list are that item. `count(S where C)` over such a list is unrolled as `count` is,
its item slot left holding S's last item, as the filter leaves it.
"""
from __future__ import annotations

import json
import re

from lumos.compiler import blocks, fused
from lumos.compiler.fused import using_backend
from support.equivalence import ROOT, compiled, every_step
from support.sources import write_game

GRID = """\
name: Strip
grid:
  columns: abcd
  rows: 3
  links:
    orthogonal: orthogonal
  legend:
    o: {}
  map: |
    o o o o
    o o o o
    o o o o
"""

# Tiny game (no rulebook): marks dropped on free squares; a side wins with three of its marks in
# a row across or up through the last one, or with both ends of a row of its own (a list of
# spaces, one of them none: `offset` off the grid), or when every square next to its last mark
# (a function given the item) is its own, or with a whole row (`row_of`: the first row holding
# a square, remembered per square), or with both squares of a pair of `ends` (a count of a
# filter of the loop's item). The loops' lists are all known when compiling.
RULES = """\
game "Strip"
board "board.yaml"
sides red, blue
var mark: side per space = none
var last: space = none
const steps = [[1, 0], [0, 1]]
const ends = [[a1, d1], [a2, d2], [a3, none]]
const rows = [[a1, b1, c1, d1], [a2, b2, c2, d2], [a3, b3, c3, d3]]

function mine(s, p) = s is not none and mark of s is p
function line_through(s, p) = any d in steps where any j in [0, 1, 2] where all k in [0, 1, 2] where mark of offset(s, (k - j) * first(d), (k - j) * last(d)) is p
function both_ends(p) = any e in ends where all s in e where mine(s, p)
function hemmed(s, p) = all d in [[1, 0], [-1, 0], [0, 1], [0, -1]] where mine(offset(s, first(d), last(d)), p) or offset(s, first(d), last(d)) is none
function counted(p) = count s in [a1, b1, c1] where mine(s, p)
function row_of(s) = first(rows where s in it)
function pair(p) = any e in ends where count(e where mine(it, p)) == 2

action drop:
    with s in spaces where mark of it is none
    label "mark {s}"
    set s.mark = me
    set last = s

flow:
    loop:
        do one of drop by current
        if line_through(last, current) or both_ends(current) or hemmed(last, current) or counted(current) > 2 or pair(current) or count(row_of(last) where mark of it is current) == 4:
            win current
        if all s in spaces where mark of s is not none:
            end in a draw
        set current = other(current)
"""


def _strip(tmp_path, backend: str, rules: str = RULES):
    with using_backend(backend):
        (tmp_path / backend).mkdir()
        cg, diags, _ = write_game(tmp_path / backend, "strip", {"game.lumos": rules, "board.yaml": GRID})
    assert cg is not None, [d.headline() for d in diags]
    return cg


def _same_games(tmp_path, rules: str, seeds=range(1, 41)) -> set:
    """The game of `rules` on the strip, compiled by both back ends: every state after every
    step of each seeded game (frames and locals included) and the events must be the same;
    returns how the games ended (length, result), to show they end more than one way."""
    ref, new = _strip(tmp_path, "reference", rules), _strip(tmp_path, "specialised", rules)
    ends = set()
    for seed in seeds:
        a = [x.replace(str(tmp_path / "reference"), "") for x in every_step(ref, seed)]
        b = [x.replace(str(tmp_path / "specialised"), "") for x in every_step(new, seed)]
        assert a == b, f"seed {seed}"
        ends.add((len(a), str(json.loads(a[-2])["result"])))
    return ends


def test_unrolled_loops_play_the_reference_games_step_by_step(tmp_path, monkeypatch):
    """Every state of 40 seeded random games (frames and locals included) and the events are the
    reference back end's; every `any`/`all`/`count` loop of the game is unrolled."""
    texts = _capture(monkeypatch)
    assert len(_same_games(tmp_path, RULES)) > 1   # the games end in more than one way
    assert not [t for t in texts if t.startswith("def quantified")]
    assert any(t.count("(1 if ") >= 3 for t in texts)         # `counted`: a sum of three tests
    assert any(t.count("st.xv[0][") >= 18 for t in texts)     # the line test's 18 squares in line
    # `count(e where mine(it, p))`: the filter's slot given its last item, then a sum of two tests
    assert any(re.search(r"L\.__setitem__\(\d+, _\d+\) or \(\(1 if .* else 0\) \+ \(1 if ", t) for t in texts)


def _capture(monkeypatch) -> list[str]:
    """The generated texts compiled from now on."""
    texts = []
    real_def, real = fused._compile_def, fused._compile

    def capture_def(text):
        texts.append(text)
        return real_def(text)

    def capture(text):
        texts.append(text)
        return real(text)
    monkeypatch.setattr(fused, "_compile_def", capture_def)
    monkeypatch.setattr(blocks, "_compile_def", capture_def)   # imported by name there
    monkeypatch.setattr(fused, "_compile", capture)
    return texts


def _texts(monkeypatch, game):
    texts = _capture(monkeypatch)
    cg = compiled(game, "specialised")
    for seed in (1, 2, 3):
        every_step(cg, seed)
    return texts


def test_connect_fours_line_test_reads_step_tables_without_a_loop(monkeypatch):
    """examples/connect-four's `four_through` (`any d in directions where any j in [0, 1, 2, 3]
    where all k in ... where disc of offset(s, (k - j) * first(d), (k - j) * last(d)) is p`):
    no loop and no cell arithmetic is left; each of the 64 steps is a table read."""
    texts = _texts(monkeypatch, str(ROOT / "examples" / "connect-four"))
    assert not any(t.startswith("def quantified") for t in texts)
    flow = [t for t in texts if "m.st.xv[0][" in t and " == L[1]" in t and t.count(" == L[1]") >= 64]
    assert flow, "the line test is written in line, one comparison per step"
    assert all(".get((" not in t for t in flow)   # no cell looked up by its coordinates
    # and the discs' list is read once per call, at its start (fused._state_lists_once)
    once = fused._state_lists_once(flow[0])
    lines = once.split("\n")
    at = lines.index("    _s_xv0 = m.st.xv[0]")      # just before the line test (a line of the flow)
    assert "st.xv[" not in lines[at + 1] and lines[at + 1].count("_s_xv0[") >= 64
    assert len(lines[at + 1]) - len(lines[at + 1].lstrip()) == 4
    read_once = "def f(m, L):\n    return m.st.xv[0][L[1]] is None\n"
    assert fused._state_lists_once(read_once) == read_once   # one read: nothing to gain


def test_a_loop_over_a_list_not_known_when_compiling_stays_a_loop(tmp_path, monkeypatch):
    """`all s in spaces where ...` of a board of 12 spaces is unrolled (12 items at most); a list
    read from the state is not."""
    rules = RULES.replace("const ends = [[a1, d1], [a2, d2], [a3, none]]",
                          "const ends = [[a1, d1], [a2, d2], [a3, none]]\nvar row: list of space = [a1, b1]")
    rules = rules.replace("count s in [a1, b1, c1] where", "count s in row where")
    rules = rules.replace("any e in ends where all s in e where mine(s, p)",
                          "any s in row where mine(s, p) and s is last")
    texts = _capture(monkeypatch)
    with using_backend("specialised"):
        cg, diags, _ = write_game(tmp_path, "strip", {"game.lumos": rules, "board.yaml": GRID})
    assert cg is not None, [d.headline() for d in diags]
    every_step(cg, 1)
    loops = [t for t in texts if t.startswith("def quantified")]
    assert loops and all("st.g[" in t.split("for _it in", 1)[1].split("\n", 1)[0] for t in loops)


def test_the_first_item_of_a_known_list_is_remembered_per_local(tmp_path):
    """`first(rows where s in it)` (a list known when compiling, a condition that reads no state
    and no local but `s`) is remembered per square (fused._first_memo): after play, what is
    remembered is each square's own row, and the games are the reference's (the first test)."""
    import gc
    new = _strip(tmp_path, "specialised")
    for seed in range(1, 21):
        every_step(new, seed)
    gc.unfreeze()   # lumos freezes what it loaded: look at every function
    memos = [f for f in gc.get_objects() if type(f).__name__ == "function" and f.__name__ == "remember_first"
             and f.cache]
    rows = [[new.board.index[f"{c}{r}"] for c in "abcd"] for r in (1, 2, 3)]
    row_memos = [f.cache for f in memos if all(type(v) is tuple and len(v) == 4 for v in f.cache.values())]
    assert row_memos, "row_of is remembered"
    for cache in row_memos:
        assert len(cache) > 1
        for square, row in cache.items():
            assert list(row) == next(r for r in rows if square in r)


# Tic-tac-toe written with pieces instead of a variable per square (as a designer might write
# it from the language page): a mark is a piece placed on the square, and a square's owner is
# its occupant's side.
PIECES = """\
game "Tic-tac-toe with pieces"
board "board.yaml"
sides x, o
kinds mark
pieces of x:
    mark off
    mark off
    mark off
    mark off
    mark off
pieces of o:
    mark off
    mark off
    mark off
    mark off
const lines = [[a1, b1, c1], [a2, b2, c2], [a3, b3, c3], [a1, a2, a3], [b1, b2, b3], [c1, c2, c3], [a1, b2, c3], [a3, b2, c1]]

function owner(s) = if occupant(s) is none then none else occupant(s).side
function has_line(p) = any line in lines where all s in line where owner(s) is p

action place_mark:
    with s in spaces where occupant(it) is none
    label "mark {s}"
    place first(pieces of me where it.space is none) at s

flow:
    loop:
        do one of place_mark by current
        if has_line(current):
            win current
        if all s in spaces where occupant(s) is not none:
            end in a draw
        set current = other(current)
"""


def test_occupant_of_a_known_square_is_read_in_line(tmp_path, monkeypatch):
    """`occupant(s) is none` of a square known when compiling (the unrolled `owner(s)`) is a
    read of the board's occupancy in the line test's text, not a closure per square, and
    `occupant(s)` of one reads its first piece with no test of none; the games
    are the reference back end's, step by step."""
    texts = _capture(monkeypatch)
    board = (ROOT / "examples" / "tic-tac-toe" / "board.yaml").read_text()
    built = {}
    for backend in ("reference", "specialised"):
        with using_backend(backend):
            (tmp_path / backend).mkdir()
            cg, diags, _ = write_game(tmp_path / backend, "ttt", {"game.lumos": PIECES, "board.yaml": board})
        assert cg is not None, [d.headline() for d in diags]
        built[backend] = cg
    for seed in range(1, 31):
        a = [x.replace(str(tmp_path / "reference"), "") for x in every_step(built["reference"], seed)]
        b = [x.replace(str(tmp_path / "specialised"), "") for x in every_step(built["specialised"], seed)]
        assert a == b, f"seed {seed}"
    # each square tested in line, its number known: one read of the board, no test of none
    lines = [t for t in texts if len(re.findall(r"\(m\.st\.occ\[_\d+\] < 0\)", t)) >= 24]
    assert lines and not any(") is None or m.st.occ[" in t for t in lines)
