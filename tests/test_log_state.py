"""A game's state is the same whether or not its texts are built (DESIGN.md, "Determinism and
state as data": same seed and same choices, same game, whatever else the process does).

A log line or a label is built only when someone reads it: a log being kept, an agent or a
person shown the options. A `{...}` hole that calls a function of the rules has that call
written out, its arguments in slots of the running procedure's locals; those slots go back to
none once the text is built (lumos.compiler.lower, `template`). Before, a game played with its
log kept Defenders of Hogwarts' `advance_path` locals holding `path_zone`'s argument, and the
same game played without a log did not: two positions, one game.
"""
from __future__ import annotations

import json
import random

import pytest

from lumos.compiler.fused import using_backend
from lumos.interpreter.engine import GameState

from support.equivalence import every_game, game_name
from support.sources import DOT_BOARD, shipped, write_game

# A tiny game made for this test (no rulebook): a log line and labels whose holes call functions
# with arguments (written out into slots), one of them inside a filter; the procedure decides
# again after its log line, so its locals are part of the position then.
GAME = """\
game "Told"
board "board.yaml"
sides red, blue
var turns = 0

function size(k) = if k <= 2 then "small" else "large"
function twice(k) = k + k

procedure turn(s):
    choose k from [1, 2, 3, 4] by s label "take {size(k)} {twice(k)}"
    add k to turns
    log "{s} takes {k}: now {size(turns)} ({count([1, 2, 3] where twice(it) > k)} below)"
    choose w from [0, 1] by s label "then {size(w + k)}"
    add w to turns

flow:
    loop:
        turn(current)
        if turns >= 12:
            end in a draw
        set current = other(current)
"""


def _compiled(tmp_path, backend: str):
    folder = tmp_path / backend
    folder.mkdir(exist_ok=True)
    with using_backend(backend):
        cg, diags, _ = write_game(folder, "told", {"game.lumos": GAME, "board.yaml": DOT_BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


def _positions(cg, seed: int, log: bool, labels: bool, limit: int = 400) -> list[str]:
    """The position (to_json: frames and their locals) after every step of a seeded random game,
    its log kept or not, its labels asked for at every decision or never."""
    rng = random.Random(seed)
    state = GameState.new(cg, seed=seed, log=log)
    seen = [state.to_json()]
    while not state.is_terminal() and len(seen) < limit:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            if labels:
                state.action_labels()
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.to_json())
    return seen


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_texts_built_or_not_leave_the_same_positions(tmp_path, backend):
    cg = _compiled(tmp_path, backend)
    for seed in range(1, 6):
        quiet = _positions(cg, seed, log=False, labels=False)
        assert _positions(cg, seed, log=True, labels=False) == quiet
        assert _positions(cg, seed, log=True, labels=True) == quiet
        assert _positions(cg, seed, log=False, labels=True) == quiet


def test_the_texts_still_say_what_the_holes_compute(tmp_path):
    cg = _compiled(tmp_path, "specialised")
    state = GameState.new(cg, seed=3, log=True)
    assert state.action_labels() == ["take small 2", "take small 4", "take large 6", "take large 8"]
    state.apply_action(state.legal_actions()[2])      # red takes 3
    said = [e["event"] for e in state.events]
    assert "red takes 3: now large (2 below)" in said     # twice(2) = 4 and twice(3) = 6 are above 3
    assert state.action_labels() == ["then large (w 0)", "then large (w 1)"]   # two alike: told apart


@pytest.mark.parametrize("game", every_game(), ids=game_name)
def test_every_bundled_game_is_the_same_with_its_log_kept_or_not(game):
    cg = shipped(game)
    for seed in range(1, 4):
        kept = [json.loads(p) for p in _positions(cg, seed, log=True, labels=False)]
        quiet = [json.loads(p) for p in _positions(cg, seed, log=False, labels=False)]
        assert kept == quiet, f"seed {seed}: the positions part at step " \
                              f"{next(i for i, (a, b) in enumerate(zip(kept, quiet)) if a != b)}"
