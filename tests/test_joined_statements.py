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


def outcome(tmp_path, body: str, backend: str, head: str = HEAD, board: str = BOARD):
    """The events of the game (or the error that stops it: code, message, line, column) and
    the compiled game."""
    folder = tmp_path / backend
    folder.mkdir()
    with using_backend(backend):
        cg, diags, _ = write_game(folder, "joined", {"game.lumos": head + body, "board.yaml": board})
    assert cg is not None, [d.headline() for d in diags]
    try:
        state = GameState.new(cg, seed=1, log=True, forced="take")
    except LumosRuntimeError as err:
        d = err.first
        return (d.code, d.message, d.span.line, d.span.col), cg
    return [e["event"] for e in state.events], cg


def same(tmp_path, body: str, head: str = HEAD, board: str = BOARD):
    """What the game does with both back ends (asserted equal) and the specialised game."""
    ref, _ = outcome(tmp_path, body, "reference", head, board)
    new, cg = outcome(tmp_path, body, "specialised", head, board)
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


def test_attributes_read_in_line_give_what_their_getters_give(tmp_path):
    # a piece's holder and name, a side's pieces and name, a space's name, a side's zone, an
    # attribute of a piece known when compiling (`ball`, folded to its value)
    body = """\
    let p = first(pieces of red)
    let q = first(pieces of blue)
    give ball to p
    log "{ball.holder} {ball.holder.name} {p.name} {red.name} {p.side.name} {p.space.name}"
    log "{count(red.pieces)} {count(blue.pieces)} {count(p.side.pieces)} {count(p.side.hand)}"
    log "{ball.kind == runner} {ball.start} {ball.side} {q.name} {q.holder}"
    if p.holder is none and ball.holder == p and red.hand != blue.hand:
        log "held"
    add 2 to ball.hp
    log "{ball.space} {ball.hp} {ball.holder.space}"
    end in a draw
"""
    head = HEAD.replace("var n = 0\n", "var n = 0\npiece ball\nzone hand per side owner\n")
    events, cg = same(tmp_path, body, head)
    assert events[1:] == ["red runner red runner red runner red red a1", "1 0 1 0", "false none none none none", "held",
                          "a1 2 a1", "the game ends in a draw"], events
    assert called(cg, "inline") == []    # every getter with a text written in line


def test_builtins_read_in_line_give_what_the_machine_gives(tmp_path):
    # `other` with every side in play and with one out of it; `occupant` of a space, of an empty
    # one and of none; `distance` between spaces, to none and between unlinked spaces
    body = """\
    let p = first(pieces of red)
    let q = first(pieces of blue)
    let far = c1
    log "{other(red)} {other(p.side)} {other(q.side)}"
    log "{occupant(p.space)} {occupant(far)} {occupant(q.space)}"
    log "{distance(p.space, far, step)} {distance(far, p.space, step)} {distance(p.space, q.space, step)}"
    log "{distance(q.space, far, step)} {distance(p.space, p.space, step)} {distance(p.space, far, jump)}"
    log "{distance(p.space, b1, jump)} {distance(p.space, b2, jump)}"
    remove blue from play
    log "{other(red)} {other(p.side)}"
    end in a draw
"""
    board = BOARD.replace("    orthogonal: step\n", "    orthogonal: step\n    diagonal: jump\n").replace(
        "rows: 1", "rows: 2").replace("    o o o\n", "    o o o\n    o o o\n")
    events, cg = same(tmp_path, body, HEAD.replace("sides red, blue", "sides red, blue, green"), board)
    assert events == ["blue blue none", "red runner none none", "2 2 none", "none 0 2", "none 1",
                      "blue takes no part in this game", "green green", "the game ends in a draw"], events


CALLS = """\
    let t = twice(3, 4)
    let u = twice(t, none)
    let w = nothing()
    repeat t times:
        add 1 to n
    repeat none times:
        add 100 to n
    repeat 0 - 2 times:
        add 100 to n
    log "{t} {u} {w} {n}"
    end in a draw

procedure twice(a, b):
    if b is none:
        return a * 2
    let c = a + b
    repeat 2 times:
        add c to n
    return c + n

procedure nothing():
    add 1 to n
    return
"""


def test_calls_returns_and_repeats_do_what_their_closures_do(tmp_path):
    events, cg = same(tmp_path, CALLS)
    assert events == ["21 42 none 36", "the game ends in a draw"], events
    texts = [fn for p in cg.procs for fn in p.run if getattr(fn, "__name__", "") == "block"]
    ops = [v for fn in texts for v in fn.__globals__.values() if getattr(v, "block", ("",))[0] == "tail"]
    assert texts and ops == []   # the calls and returns written in line, not called


@pytest.mark.parametrize("body", [
    # a loop that calls a procedure and repeats: the step limit on the same instruction
    "        repeat 3 times:\n            add 1 to n\n        bump(n)\n",
    # a repeat of a count that is an error (minus none): on its line
    "        add 1 to n\n        if n == 30:\n            let s = first(spaces where it.mark > 5)\n"
    "            repeat -s.mark times:\n                add 1 to n\n",
    # an argument that is an error: on the line of the call
    "        add 1 to n\n        if n == 30:\n            let s = first(spaces where it.mark > 5)\n"
    "            bump(-s.mark)\n",
], ids=["loop-with-call", "repeat-of-error", "argument-error"])
def test_the_step_limit_and_errors_fall_where_the_reference_puts_them(tmp_path, body):
    from support.equivalence import RUNAWAY, runaway_stops
    game = body + "\nprocedure bump(k):\n    set n = k\n    return\n"
    reference, specialised = runaway_stops(tmp_path, game)
    assert reference[0] == ("R002" if "bump(n)" in body else "R005")
    assert specialised == reference


LISTS = """\
    let p = first(pieces of red)
    let items = []
    add 3 to items
    add none to items
    add [4, 5, 3] to items
    subtract 3 from items
    subtract [5, 9] from items
    let few = []
    subtract 1 from few
    let held = []
    add red.hand to held
    set red.score = 7
    set blue.score = 2
    set p.hp = 4
    set a1.mark = 6
    set n = 8
    reset score
    reset hp
    reset mark
    reset n
    log "{items} {few} {count(held)} {red.score} {blue.score} {p.hp} {a1.mark} {n}"
    log "{sum3(1, 2, 3)} {pair(n, sum3(n, 1, 2))} {pair(p.hp, p.hp)} {max(items)} {min(items)} {max([])}"
    log "{count(red.hand)} {[] == []} {count([p.space, none])} {min([pair(1, 2), 1 + 1])}"
    end in a draw

function sum3(a, b, c) = a + b * 10 + c * 100
function pair(a, b) = a - b
"""


def test_lists_resets_and_calls_of_functions_do_what_their_closures_do(tmp_path):
    head = HEAD.replace("var n = 0\n", "var n = 0\nzone hand per side owner\n")
    events, cg = same(tmp_path, LISTS, head)
    assert events == ["4, 3  0 0 0 0 0 0", "321 -210 0 4 3 0", "0 true 2 -1", "the game ends in a draw"], events
    texts = [fn for fn in cg.procs[cg.flow].run if getattr(fn, "__name__", "") == "block"]
    names = [v for fn in texts for v in fn.__globals__.values()]
    assert [v for v in names if getattr(v, "block", ("",))[0] == "plain"] == []   # resets, adds in line
    assert [v for v in names if getattr(v, "__name__", "") in ("inline", "inline1", "inline2")] == []


def test_fixed_attribute_tests_and_minus_do_what_their_closures_do(tmp_path):
    # a fixed attribute of a computed value compared with a constant (none, a match, no match)
    body = """\
    let p = first(pieces of red)
    let q = first(pieces of blue)
    log "{first(pieces of red).kind == runner} {first(pieces of blue).kind == runner}"
    log "{first(pieces of red).kind != runner} {first(pieces of blue).kind != runner} {-count(red.pieces)}"
    end in a draw
"""
    events, cg = same(tmp_path, body)
    assert events == ["true false", "false true -1", "the game ends in a draw"], events
    (tmp_path / "error").mkdir()
    error, _ = same(tmp_path / "error", body.replace("    end in a draw", "    set n = 1\n    let k = -q.hp\n    end in a draw"))
    assert error[0] == "R005" and error[2] == 21, error   # minus none: on its line
