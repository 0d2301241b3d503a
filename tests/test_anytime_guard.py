"""A decision where no `anytime` rule's guard holds is recorded by its instruction, without
Machine.with_anytime (compiler/anytime_guard.py; issue 14).

The guard of a rule is the first run of its condition's `and` parts (the game's functions written
out) made of names of options, variables and constants, `==`/`is`/`in`, `and`/`or`/`not`. What
is pinned here:
- a guard on an option (`extras == "on"`, inside a function whose body goes on with a filter),
  one on a variable that changes during the game (`open`), and a rule without one (its condition
  begins with the side's variable), each played with both back ends, the option off and on, the
  whole state (`to_json`: frames, locals, `anytime_at`) and the labels compared after every
  decision, and the log at the end;
- the rules' tests: the guard goes only as far as the first part it cannot take, never past it
  (a part after a filter, `count(...) > 0 and extras == "on"`, is no guard);
- with every guard false the decisions hold no `anytime` option, and with one true they do.
"""
from __future__ import annotations

import random

import pytest

from lumos.compiler.fused import using_backend
from lumos.interpreter.engine import GameState
from lumos.interpreter.machine import _never_quiet

from support.sources import write_game

BOARD = """\
name: Ring
palette: {plain: "#cccccc"}
rings:
  - name: ring
    count: 6
    prefix: r
    link: step
    attrs: {colour: plain}
"""

GAME = """\
game "Guarded"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at r1
pieces of blue:
    runner at r4
option extras = "off" choices "off", "on"
var turns = 0
var open = false
var tokens per side = 2

function ready(s) = extras == "on" and turns > 1 and (pieces of s where it.space is not none) is not empty

anytime "spend a token" by s if ready(s) and s.tokens > 0:
    may choose k from [1, 2] by s label "spend {k}"
    if k is not none:
        subtract 1 from s.tokens
        add k to turns

anytime "open play" by s if open and not (extras == "on") and s.tokens > 0:
    subtract 1 from s.tokens
    set open = false

RULE_THREE

action step:
    with p in pieces of me
    with to in reach from p.space by step up to 1 onto t where occupant(t) is none
    label "step {p} to {to}"
    place p at to

procedure turn(s):
    choose by s:
        option "act":
            do one of step by s
        option "wait":
            pass
    choose w from [1, 2] by s label "add {w}"
    add w to turns

flow:
    loop:
        turn(current)
        if turns > 4 and turns < 12:
            set open = true
        if turns >= 16:
            end in a draw
        set current = other(current)
"""

UNGUARDED = """anytime "late" by s if s.tokens > 1 and turns > 6:
    subtract 1 from s.tokens"""


def compiled(tmp_path, text: str, backend: str):
    folder = tmp_path / backend
    folder.mkdir(exist_ok=True)
    with using_backend(backend):
        cg, diags, _ = write_game(folder, "guarded", {"game.lumos": text, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


def trace(cg, seed: int, options) -> list:
    rng = random.Random(seed)
    state = GameState.new(cg, seed=seed, log=True, options=options)
    out = []
    while not state.is_terminal() and len(out) < 300:
        out.append((state.to_json(), state.action_labels()))
        state.apply_action(rng.choice(state.legal_actions()))
    out.append((state.to_json(), [dict(e, rule=e["rule"].rsplit(":", 1)[-1]) for e in state.events]))
    return out


@pytest.mark.parametrize("third", ["", UNGUARDED])
def test_guarded_decisions_play_as_the_reference(tmp_path, third):
    text = GAME.replace("RULE_THREE", third)
    ref, new = compiled(tmp_path, text, "reference"), compiled(tmp_path, text, "specialised")
    offered = set()
    for options in (None, {"extras": "on"}):
        for seed in range(1, 9):
            got = trace(new, seed, options)
            assert got == trace(ref, seed, options), (options, seed)
            offered |= {label for _state, labels in got[:-1] for label in labels
                        if label in ("spend a token", "open play", "late")}
    assert offered >= {"spend a token", "open play"}   # the rules are offered and taken too
    quiet = [rule.quiet is not None for rule in new.anytime]
    assert quiet == ([True, True] + ([False] if third else []))
    assert all(rule.quiet is None for rule in ref.anytime)   # the reference keeps none


def test_a_guard_is_a_first_run_of_parts(tmp_path):
    text = GAME.replace("RULE_THREE", """anytime "after a filter" by s if count(pieces of s where it.space is r2) > 0 and extras == "on":
    pass""")
    cg = compiled(tmp_path, text, "specialised")
    first, second, third = (rule.quiet for rule in cg.anytime)
    assert "extras" not in repr(first.src())   # names are slots and bound constants
    text1, names1 = first.src()
    assert "anytime_at is None" in text1 and "on" in names1.values()
    assert third is None    # its first part is a filter: nothing after it is a guard
    # the function's first part only: `turns > 1` is no safe form (a comparison that may fail)
    assert "turns" not in text1 and text1.count("==") == 1


def test_decisions_with_every_guard_false_hold_no_anytime_option(tmp_path):
    cg = compiled(tmp_path, GAME.replace("RULE_THREE", ""), "specialised")
    state = GameState.new(cg, seed=2)    # extras off, open false at first
    m = state.machine
    assert m.quiet is not _never_quiet and m.quiet(m, None)
    state.st.g[cg.global_names.index("open")] = True
    assert not m.quiet(m, None)          # the second rule's guard holds: the general path
