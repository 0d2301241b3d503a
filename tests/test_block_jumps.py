"""A run of simple instructions follows a test, a `for each` step or a jump that goes elsewhere
into the instructions there (compiler/blocks.py), up to MAX_BLOCK in a call: the step limit
(R002) must still fall on the instruction where the reference back end's falls, and an error
inside such a run on its own line. Loops whose lengths do not divide MAX_BLOCK, with tests taken
at every place in a run. Tiny games made for the test (no rulebook).
"""
import pytest

from lumos.compiler.blocks import _path, _size
from lumos.compiler.fused import using_backend
from lumos.interpreter.machine import MAX_BLOCK

from support.equivalence import RUNAWAY, runaway_stops
from support.sources import DOT_BOARD, write_game

BODIES = [
    # a test taken every other time round, a loop of 4 or 5 instructions
    "        add 1 to n\n        if n % 2 == 0:\n            let k = n\n        let j = n",
    # if / else, both ways a jump
    "        add 1 to n\n        if n % 3 == 0:\n            let k = 1\n        else:\n            let k = 2\n"
    "            let j = 3",
    # a `for each` inside the loop: its step leaves the list, then a jump back
    "        for each s in spaces:\n            set s.mark = n\n            if n > 5:\n                let k = n\n"
    "        add 1 to n",
    # an error after some turns of a loop of 3: on its line
    "        add 1 to n\n        let k = n\n        if n == 1000:\n            let s = first(spaces where it.mark > 5)\n"
    "            set s.mark = 1",
]


def outcome(tmp_path, body):
    return runaway_stops(tmp_path, body)


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_step_limit_and_errors_fall_where_the_reference_puts_them(tmp_path, body):
    reference, specialised = outcome(tmp_path, body)
    assert reference[0] in ("R002", "R003", "R005")
    assert specialised == reference


def test_a_loop_of_simple_instructions_is_one_run_of_max_block_instructions(tmp_path):
    with using_backend("specialised"):
        cg, diags, _ = write_game(tmp_path, "runaway", {"game.lumos": RUNAWAY.format(body=BODIES[0]),
                                                        "board.yaml": DOT_BOARD})
    assert cg is not None, [d.headline() for d in diags]
    flow = cg.procs[cg.flow]
    first = next(i for i, ins in enumerate(flow.code) if getattr(ins, "block", None) is not None)
    tree = _path(flow.code, first, 0, [3 * MAX_BLOCK])
    depth, node = 0, tree
    while node is not None:   # the way that falls through goes round the loop
        depth, node = depth + 1, node[3]
    assert depth == MAX_BLOCK
    assert _size(tree) > MAX_BLOCK   # the taken tests' ways are in it too
