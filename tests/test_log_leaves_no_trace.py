"""A game played with a log leaves the same state as the same game played without one (DESIGN,
determinism: same seed, same choices, same game).

A `log` text may call a function whose argument is computed (`{double(turns + 1)}`): the call
stores the argument in a slot of its own among the rule's locals. The text is made only when a
log is written, so that store happened only then, and the saved state (its hash is the log's
last line) differed between a game with a log and one without. The text now runs on a copy of
the locals. A tiny game made for the test (no rulebook), played with both back ends.
"""
from __future__ import annotations

import random

import pytest

import lumos.compiler.fused as fused
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = "name: Dot\nspaces:\n  - {name: a, pos: [0, 0]}\n"

GAME = """\
game "Quiet logs"
board "board.yaml"
sides red, blue
var turns = 0

function double(n) = n + n

flow:
    loop:
        log "{current} at {double(turns + 1)}"
        choose by current:
            option "go on":
                add 1 to turns
            option "stop" if turns > 2:
                win current
        if turns >= 8:
            end in a draw
        set current = other(current)
"""


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_the_state_is_the_same_with_and_without_a_log(tmp_path, backend):
    with fused.using_backend(backend):
        cg, diags, _ = write_game(tmp_path, "quiet", {"game.lumos": GAME, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    for seed in range(1, 6):
        rng = random.Random(seed)
        logged, quiet = GameState.new(cg, seed=seed, log=True), GameState.new(cg, seed=seed)
        while not logged.is_terminal():
            assert logged.to_json() == quiet.to_json()
            i = rng.randrange(len(logged.legal_actions()))
            logged.apply_action(i)
            quiet.apply_action(i)
        assert logged.to_json() == quiet.to_json()
        assert any(e["event"].endswith(" at 2") for e in logged.events)
