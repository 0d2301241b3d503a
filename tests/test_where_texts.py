"""compiler/fused.py: the generated texts of filters (`S where C`), quantifiers, `... is empty` and
option listings are written tighter (issue 14), and still compute
what the reference back end computes:

- the condition's reads of the item's slot read the loop's variable, also when a part of it is
  given the locals;
- no test for none of an item of a list that holds no none (the pieces of a side, a zone's cards,
  `occupants`, a list literal of named pieces, a filter or a function call of such a list); a
  list literal with `none` in it keeps the test;
- an item is written into its slot only just before a call that could read it (a remembered
  part keyed on the item, when it misses; one other part, not the first thing the condition
  runs), the slot getting the last item back, as after the reference's loop;
- the state object read once per filter or generated function; the row of a remembered part
  keyed on a local made before the filter, and that local's attributes, once per run of it; the
  item's space once per item.

A tiny game made for the test (no rulebook) holds each case; it is played with both back ends
over seeded random games: the logs (which print every filter's value) and the whole state at
every step (a turn's procedure keeps its filters' item slots in its locals while its side
decides: a saved state holds them) must be equal. The generated texts say that each form was
made.
"""
from __future__ import annotations

import random
import re

import pytest

import lumos.compiler.fused as fused
from lumos.compiler import blocks
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Yard
grid:
  columns: abcd
  rows: 4
  links:
    orthogonal: step
  legend:
    F: {}
  map: |
    F F F F
    F F F F
    F F F F
    F F F F
"""

GAME = """\
game "Where texts"
board "board.yaml"
sides red, blue
die d4 faces 1, 2, 3, 4
kinds runner, guard
pieces of red:
    runner at a1, b1
    guard at c1
pieces of blue:
    runner at a4, b4
    guard at d4
piece ball, bell
var rolled = 0
var turns = 0
var tired per piece = false

# a remembered part keyed on the item (`it.kind is runner`), then the rest: a late write
function fresh(s) = pieces of s where it.kind is runner and not it.tired
# one part that reads the item through the locals (a search), not the first thing tested
function crowded(s) = pieces of s where not it.tired and count(reach from it.space by step up to 2) > 4
# none in a list literal: the test for none of the item stays
function maybe(s) = [first(pieces of s where it.tired), none, ball] where it.space is not none or it.tired is none
# a list literal of named pieces: never none
function loose() = [ball, bell] where it.space is none or it.space is it.space
# a filter nested in a filter, the outer item named
function paired(s) = pieces of s as p where count(pieces where it.side is p.side and it.kind is p.kind and not it.tired) >= 1
# a remembered part keyed on a local made before the filter and the item: its row looked up once
function mates(p) = pieces where it.kind is p.kind and not it.tired
# a remembered part keyed on two locals the condition writes (the arguments): no row kept
function alike(p, q) = p.kind is q.kind and q.tired
function unlike(p, q) = p.kind is q.kind and not q.tired
# attributes of a local made before the filter: read once per run
function behind(p) = pieces where it.tired == p.tired and it.space is not p.space
# the item's space read twice, first by the first test: read once per item
function placed(s) = pieces of s where it.space is not none and count(occupants(it.space)) == 1
# read twice, the first read not always made: read at each
function odd(s) = pieces of s where (it.tired and it.space is not none) or it.space is b2
# the pieces on a space: never none
function others(p) = occupants(p.space) where it is not p and it.kind is p.kind

setup:
    place ball at b2

action run:
    with p in fresh(current)
    with to in reach from p.space by step up to rolled onto s where occupant(s) is none
    label "run {p} to {to}"
    place p at to
    set p.tired = true
    log "ran {p}"

action shove:
    with p in pieces of current where not it.tired and count(reach from it.space by step up to 1) > 2 and (others(it) where it.tired) is empty
    label "shove {p}"
    set p.tired = true
    log "shoved {p}"

action rest:
    with p in pieces of current where it.tired and (paired(current) where it is not p) is not empty
    label "rest {p}"
    set p.tired = false
    log "rested {p}"

action wait:
    label "wait"
    set turns = turns + 0

procedure turn(s):
    roll n with d4 by s
    set rolled = n
    let a = fresh(s)
    let b = crowded(s)
    let c = maybe(s)
    let d = paired(s)
    let e = loose()
    let f = count(pieces where it.kind is runner and not it.tired and count(reach from it.space by step up to 1) > 2)
    let g = mates(first(pieces of other(s) where not it.tired))
    let h = pieces where alike(first(occupants(it.space)), first(pieces of other(it.side)))
    let i = behind(first(pieces of s))
    let j = pieces where unlike(first(occupants(it.space)), first(pieces of other(it.side) where not it.tired))
    let k = placed(s)
    let l = odd(s)
    log "{s}: {a} / {b} / {c} / {d} / {e} / {f} / {g} / {h} / {i} / {j} / {k} / {l}"
    if any q in pieces of s where q.kind is runner and not q.tired:
        log "a fresh runner"
    if all q in pieces of s where q.kind is guard or q.tired:
        log "every runner tired"
    do one of run, shove, rest, wait by s

flow:
    loop:
        turn(current)
        add 1 to turns
        if turns >= 24:
            end in a draw
        set current = other(current)
"""


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """(specialised, reference, the specialised game's generated texts)."""
    texts: list[str] = []
    real, real_def = fused._compile, fused._compile_def

    def spy(text):
        texts.append(text)
        return real(text)

    def spy_def(text):
        texts.append(text)
        return real_def(text)
    made = {}
    folder = tmp_path_factory.mktemp("where")   # one folder: the logs name the rules' file
    for backend in ("specialised", "reference"):
        # a joined function takes the compiler its lowering finds: spied on while lowering
        if backend == "specialised":
            fused._compile, fused._compile_def, blocks._compile_def = spy, spy_def, spy_def
        try:
            with fused.using_backend(backend):
                cg, diags, _ = write_game(folder, "where-texts", {"game.lumos": GAME, "board.yaml": BOARD})
        finally:
            fused._compile, fused._compile_def, blocks._compile_def = real, real_def, real_def
        assert cg is not None, [d.headline() for d in diags]
        made[backend] = cg
    for seed in range(1, 4):
        steps(made["specialised"], seed)
    return made["specialised"], made["reference"], texts


def steps(cg, seed: int) -> list[str]:
    """The whole state after every step of a seeded random game, then its log."""
    rng = random.Random(seed)
    state = GameState.new(cg, seed=seed, log=True)
    seen = [state.to_json()]
    while not state.is_terminal():
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
        seen.append(state.to_json())
    return seen + [repr(state.events)]


@pytest.mark.parametrize("seed", range(1, 13))
def test_both_back_ends_play_the_same(games, seed):
    fast, reference, _texts = games
    got, want = steps(fast, seed), steps(reference, seed)
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want)):
        assert a == b, f"seed {seed}: the states part at step {i}"


def test_the_game_exercises_its_filters(games):
    """The logs print non-empty filters, and `run`, `shove` and `rest` are all taken: the cases
    are not vacuous."""
    fast, _reference, _texts = games
    events = []
    for seed in range(1, 13):
        rng = random.Random(seed)
        state = GameState.new(fast, seed=seed, log=True)
        while not state.is_terminal():
            state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
        events.append(repr(state.events))
    text = "\n".join(events)
    for word in ("ran ", "shoved ", "rested ", "a fresh runner", "every runner tired"):
        assert word in text, word


def _filters(texts):
    return [t for t in texts if "tuple([" in t]


def test_item_reads_are_the_loop_variable(games):
    """No filter of the game reads its own item's slot in its condition: each reads the
    comprehension's variable (the slot is only written)."""
    _fast, _reference, texts = games
    seen = 0
    for t in _filters(texts):
        for mt in re.finditer(r"tuple\(\[(_\d+) for \1 in (_\d+) if ", t):
            seen += 1
    assert seen >= 5
    joined = "\n".join(texts)
    # the item slot of a filter written before each item is never read back by its own text
    for mt in re.finditer(r"if \((_\d+)\((\d+), (_\d+)\) or ", joined):
        slot = mt.group(2)
        close = joined.find("]) if ", mt.end())
        assert f"L[{slot}]" not in joined[mt.end():close], slot


def test_late_writes_and_kept_tests_for_none(games):
    _fast, _reference, texts = games
    joined = "\n".join(texts)
    # a remembered part keyed on the item gets it just before its call and the last item after it
    assert re.search(r"\((_\d+)\((\d+), (_\d+)\) or _\d+\(m, L\), \1\(\2, (_\d+)\[-1\]\)\)\[0\]", joined)
    # one other part reading the locals: the item just before it, the last item after the loop
    assert re.search(r"\(tuple\(\[.*\]\), (_\d+)\(\d+, _\d+\[-1\]\)\)\[0\] if ", joined)
    # the state read once per filter
    assert re.search(r"\(_\d+ := m\.st\) is not None", joined)
    # the row of a remembered part keyed on a local made before the filter, once per run
    assert re.search(r"\((_\d+) := (_\d+)\.get\(L\[\d+\]\) or \2\.setdefault\(L\[\d+\], \{\}\)\) is not None", joined)
    # the item's space read once per item
    assert re.search(r"\((_\d+) := \(None if \(_\d+ := _\d+\.loc\[(_\d+)\]\) < 0 else _\d+\) if _\d+\.holder\[\2\] < 0 "
                     r"else m\.space_of\(\2\)\)[^\n]*m\.occupants\(\(*\1\)", joined)
    # an attribute of a local made before the filter, read once per run
    assert re.search(r" and \(\(_\d+ := \(None if \(_\d+ := L\[\d+\]\) is None else \(\(None if ", joined)
    # the list literal holding none keeps its test for none of the item; the pieces of a side
    # need none
    guarded = [mt.group(1) for mt in re.finditer(r"tuple\(\[(_\d+) for \1 in _\d+ if ", joined)
               if re.search(rf"\(None if \(_\d+ := {mt.group(1)}\) is None", joined)]
    assert guarded, "the filter of a list with none in it tests its items for none"


def test_never_none_lists():
    """What _never_none says of the lists it is asked about."""
    assert fused._never_none(fused._const((1, 2, 3)))
    assert not fused._never_none(fused._const((1, None)))
    assert not fused._never_none(fused._const(None)) and not fused._never_none(fused._local(3))
    fn = lambda m, L: None  # noqa: E731
    fn.static = (((0, 1), None, ()), 2, None)
    assert fused._never_none(fn)
    fn.static = (((0, None),), 2, None)
    assert not fused._never_none(fn)
    assert fused._never_none(fused._mark_never_none(lambda m, L: ()))


def test_unguarded_only_the_item():
    it = "_9"
    text = "((None if (_1 := _9) is None else _2[_1]) == (None if (_3 := L[4]) is None else _2[_3]))"
    assert fused._unguarded(text, it) == "((_2[_9]) == (None if (_3 := L[4]) is None else _2[_3]))"
    # a name bound to the item and to something else too: left as it was
    odd = "(None if (_1 := _9) is None else _1) + (_1 := 5)"
    assert fused._unguarded(odd, it) == odd


def test_a_text_that_writes_the_slot_keeps_its_reads():
    text = "(L.__setitem__(4, 2) or L[4] == _7)"
    assert fused._item_text(text, 4, "_9") == text
    assert fused._item_text("(L[4] == _7 and L[14] == L[4])", 4, "_9") == "(_9 == _7 and L[14] == _9)"
    assert fused._writes_slot("_12(4, _9)", 4) and fused._writes_slot("L[4] = None", 4)
    assert not fused._writes_slot("L[4] == None", 4)


def test_truth_only_where_only_truth_counts():
    """`True if X else False` goes only where the value's truth is all that is used."""
    assert fused._truth("(True if (a) and (True if b or not (True if c else False) else False) else False)") \
        == "((a) and ((b) or (not (c))))"
    # a value that is not a test's: kept (`x + (True if c else False)`), as is any other `if`
    assert fused._truth("x + (True if c else False)") == "(x + (True if c else False))"
    assert fused._truth("x if y else z") == "(x if y else z)"
