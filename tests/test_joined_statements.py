"""Statements written as text in a run's function (compiler/blocks.py) instead of called: each
text must do what the closure it replaces does, with the same values, the same writes and the
same error (code, message, line) at the same step. Each game is played with the reference back
end (every instruction its closure) and the specialised one, and the two must agree.

Tiny games made for the test (no rulebook): one red runner on a row of three squares.
"""
import pytest

from lumos.compiler.fused import using_backend
from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Line
grid:
  columns: abc
  rows: 1
  links:
    orthogonal: step
  legend:
    o: {colour: grey}
  map: |
    o o o
"""

HEAD = """\
game "Joined"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a1
var n = 0
var capped = 1 min 0 max 3
var tempo per side = 2 min 0 max 5
var score per side = 0
var hp per piece = 0
var stun per piece = 0 max 2
var mark per space = 0

flow:
"""


def outcome(tmp_path, body: str, backend: str):
    """The events of the game (or the error that stops it: code, message, line, column) and
    the compiled game."""
    folder = tmp_path / backend
    folder.mkdir()
    with using_backend(backend):
        cg, diags, _ = write_game(folder, "joined", {"game.lumos": HEAD + body, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    try:
        state = GameState.new(cg, seed=1, log=True, forced="take")
    except LumosRuntimeError as err:
        d = err.first
        return (d.code, d.message, d.span.line, d.span.col), cg
    return [e["event"] for e in state.events], cg


def same(tmp_path, body: str):
    """What the game does with both back ends (asserted equal) and the specialised game."""
    ref, _ = outcome(tmp_path, body, "reference")
    new, cg = outcome(tmp_path, body, "specialised")
    assert new == ref
    return new, cg


def called(cg, attr: str) -> list:
    """The closures with `attr` that the flow's runs still call instead of writing them in line."""
    out = []
    for fn in cg.procs[cg.flow].run:
        if getattr(fn, "__name__", "") == "block":
            out += [v for v in fn.__globals__.values() if callable(v) and hasattr(v, attr)]
    return out


STORES = """\
    let p = first(pieces of red)
    let s = p.space
    let k = 1
    set k = k + 1
    set n = k * 10
    set red.score = n + 1
    set p.hp = red.score - 4
    set s.mark = p.hp + 1
    add 5 to capped
    subtract 2 to red.tempo
    add 9 to blue.tempo
    add 1 to p.stun
    add 4 to p.stun
    set capped = -7
    add 2 to s.mark
    log "{k} {n} {red.score} {p.hp} {s.mark} {capped} {red.tempo} {blue.tempo} {p.stun}"
    end in a draw
"""


def test_set_and_add_write_what_the_store_closures_write(tmp_path):
    events, cg = same(tmp_path, STORES.replace("subtract 2 to", "subtract 2 from"))
    assert events == ["2 20 21 17 20 0 0 5 2", "the game ends in a draw"]
    assert called(cg, "put") == []    # every store written in line


@pytest.mark.parametrize("body", [
    # a space of none (a piece off the board): R003 on the `set` line
    "    let p = first(pieces of red)\n    place p off\n    let s = p.space\n    set n = 1\n"
    "    set s.mark = 3\n    end in a draw\n",
    # the value is computed before the space is looked at: its error first
    "    let p = first(pieces of red)\n    place p off\n    let s = p.space\n    set n = 1\n"
    "    add 1 to s.mark\n    end in a draw\n",
    # a piece of none, a side of none: a Python error inside the rules (R005), on its line
    "    let w = first(pieces of blue)\n    set n = 2\n    set w.hp = 1\n    end in a draw\n",
    "    let w = first(pieces of blue)\n    set n = 2\n    add 3 to w.side.score\n    end in a draw\n",
], ids=["space-of-none", "add-to-space-of-none", "piece-of-none", "side-of-none"])
def test_a_store_that_fails_fails_on_the_same_line_with_the_same_error(tmp_path, body):
    got, _ = same(tmp_path, body)
    assert isinstance(got, tuple) and got[0] in ("R003", "R005"), got
