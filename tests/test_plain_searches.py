"""A search with no condition depends on the board alone (docs/speed.md; issue 14): `reach ... exactly
1` reads a table of each space's neighbours, `up to N` (N written in the rules) a table of each
space's answer, and a walk without conditions (`exactly n without
backtracking`, also `coming from` a space) is kept per start, length and space it came from.
Both give what Machine.reach_exact and Machine.walk give, on both back ends.

A tiny race game made for the test (no rulebook): two runners on a ring of eight squares with
a spur, moving a d3's worth; the spaces a runner may end on are logged every turn.
"""
from __future__ import annotations

import random

import pytest

import lumos.compiler.fused as fused
from lumos.interpreter.engine import GameState

from support.equivalence import every_step
from support.sources import write_game

BOARD = """\
name: Ring with a spur
capacity: 0
rings:
  - name: track
    count: 8
    prefix: t
    link: step
spaces:
  - name: spur
    pos: [2, 2]
links:
  - [t3, spur, step]
"""

GAME = """\
game "Plain searches"
board "board.yaml"
sides red, blue
die d3 faces 1, 2, 3
kinds runner
pieces of red:
    runner at t1
pieces of blue:
    runner at t5
var turns = 0
var behind: space per piece = none

function next_to(s) = reach from s by step exactly 1
function ahead(p, n) = reach from p.space by step exactly n without backtracking coming from p.behind
function anywhere(p, n) = reach from p.space by step exactly n without backtracking
function near(s) = reach from s by step up to 2

action run:
    with p in pieces of current
    with to in ahead(p, turns % 3 + 1)
    label "run {p} to {to}"
    set p.behind = first(next_to(to) where it is not to)
    place p at to

procedure turn(s):
    log "{s} next to {next_to(first(pieces of s).space)}, anywhere {anywhere(first(pieces of s), 2)}, near {near(first(pieces of s).space)}"
    do one of run by s

flow:
    loop:
        turn(current)
        add 1 to turns
        if turns >= 24:
            end in a draw
        set current = other(current)
"""


def compiled(tmp_path, backend: str):
    with fused.using_backend(backend):
        cg, diags, _ = write_game(tmp_path, "plain", {"game.lumos": GAME, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


steps = every_step


def test_plain_searches_play_alike_on_both_back_ends(tmp_path):
    ref, new = compiled(tmp_path, "reference"), compiled(tmp_path, "specialised")
    for seed in range(1, 9):
        assert steps(ref, seed) == steps(new, seed), f"seed {seed}"


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_the_answers_are_the_machines(tmp_path, backend):
    """At every decision, the squares a runner is offered (a kept walk `coming from` the square it
    left) are what Machine.walk finds for its square, the roll and that square; the neighbours
    of a square (`exactly 1`, a table) are what Machine.reach finds."""
    cg = compiled(tmp_path, backend)
    index = cg.board.index
    checked = 0
    for seed in range(1, 6):
        rng = random.Random(seed)
        state = GameState.new(cg, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            pos = state.position()
            m = state.machine
            offered: dict = {}
            for o in state.options():
                offered.setdefault(o["args"]["p"], set()).add(index[o["args"]["to"]])
            n = pos["vars"]["turns"] % 3 + 1
            for piece, ends in offered.items():
                here = index[pos["pieces"][piece]]
                came = pos["piece_vars"]["behind"].get(piece)
                came = None if came is None else index[came]
                assert ends == set(m.walk(here, "step", n, None, None, [], -1, -1, came))
                checked += 1
            for s in range(len(cg.board.spaces)):
                assert m.reach(s, "step", 1, True, None, None, [], -1, -1) == \
                    tuple(sorted(set(cg.board.links["step"][s]) - {s}))
            state.apply_action(rng.randrange(len(state.legal_actions())))
    assert checked > 50


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_up_to_a_number_written_in_the_rules_is_every_space_within_it(tmp_path, backend):
    """`reach from s by step up to 2` (a table made when the rules are lowered): red's runner on
    t1 of the ring of eight has t2, t3, t7 and t8 within two steps (the spur is three away)."""
    cg = compiled(tmp_path, backend)
    state = GameState.new(cg, seed=1, log=True)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    first = next(e["event"] for e in state.events if e["event"].startswith("red next to"))
    assert first.endswith("near t2, t3, t7, t8"), first
