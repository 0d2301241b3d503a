"""Constant arguments of an inlined call, and constant folding (compiler/lower_expr.py): a
parameter given a constant (`dice(p, "b")`) is that constant in the body, so comparisons,
`if ... then ... else`, `and`/`or`/`not`, sums and `-x` of constants are computed while lowering.
Each folded value must be what the same expression gives when its arguments are read from the
state at run time (not folded), with both back ends; the texts of a folded call hold no chain of
tests; a state saved after a folded call loads and goes on as the game does.

Tiny games made for the test (no rulebook): one red runner on a row of three squares.
"""
import pytest

from lumos.compiler import blocks, fused
from lumos.compiler.fused import using_backend
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
game "Folding"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a1
var hp per piece = 7
var stun per piece = 3
var vx = "x"
var vy = "y"
var vz = "z"
var vb = "b"
var vn: text = none
var nn: number = none
var fn: flag = none
var v0 = 0
var v1 = 1
var v2 = 2
var v3 = 3
var vm = -4
var vt = true
var vf = false

function pick(a) = if a == "x" then 1 else if a == "y" then 2 else if a is none then 4 else 3
function same(a, b) = a == b
function differ(a, b) = a is not b
function lt(a, b) = a < b
function ge(a, b) = a >= b
function both(a, b) = a and b
function either(a, b) = a or b
function all3(a, b, c) = a and b and c
function any3(a, b, c) = a or b or c
function no(a) = not a
function plus(a, b) = a + b * 2 - 1
function div(a, b) = a / b
function mod(a, b) = a % b
function neg(a) = -a
function shadow(a) = any a in [1, 2, 3] where a == 3
function shadowed(a) = count([1, 2, 3] where it != a)
function down(n) = if n <= 0 then 0 else 1 + down(n - 1)
function outer(a, b) = pick(a) + plus(b, b)
function dice(p, a) = if a == "a" then p.hp else if a == "b" then p.stun else if a == "c" then 0 else -1
function near(p, a) = a == "x" and p.space is not none
function far(p, a) = a == "x" or p.hp > 5

flow:
"""

# (call with constants, the same call with the arguments read from variables)
CASES = [
    ('pick("x")', "pick(vx)"), ('pick("y")', "pick(vy)"), ('pick("z")', "pick(vz)"), ("pick(none)", "pick(vn)"),
    ('same("x", "x")', "same(vx, vx)"), ('same("x", "y")', "same(vx, vy)"), ("same(none, none)", "same(vn, vn)"),
    ('same("x", none)', "same(vx, vn)"), ("same(1, 1)", "same(v1, v1)"), ("same(1, 2)", "same(v1, v2)"),
    ('differ("x", "y")', "differ(vx, vy)"), ("differ(none, none)", "differ(vn, vn)"), ("differ(1, none)", "differ(v1, nn)"),
    ("lt(1, 2)", "lt(v1, v2)"), ("lt(2, 1)", "lt(v2, v1)"), ("lt(none, 2)", "lt(nn, v2)"), ("lt(2, none)", "lt(v2, nn)"),
    ("ge(3, 3)", "ge(v3, v3)"), ("ge(-4, 0)", "ge(vm, v0)"), ("ge(none, none)", "ge(nn, nn)"),
    ("both(true, true)", "both(vt, vt)"), ("both(true, false)", "both(vt, vf)"), ("both(none, true)", "both(fn, vt)"),
    ("both(true, vf)", "both(vt, vf)"), ("both(vt, true)", "both(vt, vt)"), ("both(false, vt)", "both(vf, vt)"),
    ("either(false, false)", "either(vf, vf)"), ("either(false, vt)", "either(vf, vt)"), ("either(true, vf)", "either(vt, vf)"),
    ("either(vf, false)", "either(vf, vf)"), ("either(none, false)", "either(fn, vf)"),
    ("all3(true, vt, false)", "all3(vt, vt, vf)"), ("all3(vt, true, vt)", "all3(vt, vt, vt)"),
    ("all3(true, true, true)", "all3(vt, vt, vt)"), ("any3(false, vf, true)", "any3(vf, vf, vt)"),
    ("any3(vf, false, vf)", "any3(vf, vf, vf)"), ("any3(false, false, false)", "any3(vf, vf, vf)"),
    ("no(true)", "no(vt)"), ("no(none)", "no(fn)"), ("no(false)", "no(vf)"),
    ("plus(1, 2)", "plus(v1, v2)"), ("plus(none, 2)", "plus(nn, v2)"), ("plus(3, none)", "plus(v3, nn)"),
    ("plus(-4, 3)", "plus(vm, v3)"), ("div(3, 2)", "div(v3, v2)"), ("div(3, 0)", "div(v3, v0)"),
    ("div(-4, 3)", "div(vm, v3)"), ("mod(3, 2)", "mod(v3, v2)"), ("mod(-4, 3)", "mod(vm, v3)"),
    ("mod(2, 0)", "mod(v2, v0)"), ("neg(3)", "neg(v3)"), ("neg(-4)", "neg(vm)"), ("-1 + 0", "-v1 + v0"),
    ("shadow(5)", "shadow(v2)"), ("shadowed(2)", "shadowed(v2)"), ("shadowed(none)", "shadowed(nn)"),
    ("down(3)", "down(v3)"), ("down(0)", "down(v0)"), ('outer("y", 2)', "outer(vy, v2)"),
    ('outer(none, none)', "outer(vn, nn)"),
    ('dice(p, "a")', "dice(p, _a)"), ('dice(p, "b")', "dice(p, _b)"), ('dice(p, "c")', "dice(p, _c)"),
    ('dice(p, "d")', "dice(p, _d)"), ('near(p, "x")', "near(p, vx)"), ('near(p, "y")', "near(p, vy)"),
    ('far(p, "x")', "far(p, vx)"), ('far(p, "y")', "far(p, vy)"),
    ('if pick("x") == 1 then "one" else "other"', 'if pick(vx) == 1 then "one" else "other"'),
    ('(1 + 2) * 3 - 10 / 4 > 5', "(v1 + v2) * v3 - 10 / 4 > 5"),
    # one side a number written in the rules (its text tests only the other side for none)
    ("v1 < 2", "v1 < v2"), ("nn < 2", "nn < v2"), ("2 > nn", "v2 > nn"), ("3 >= v3", "v3 >= v3"),
    ("v3 / 0", "v3 / v0"), ("v3 % 0", "v3 % v0"), ("nn + 1", "nn + v1"), ("1 - nn", "v1 - nn"),
    ("3 / v0", "v3 / v0"), ("3 % v2", "v3 % v2"), ("v3 - 1", "v3 - v1"), ("-4 * v3", "vm * v3"),
    ("v3 / 2", "v3 / v2"), ("vm / 3", "vm / v3"), ("vm % 3", "vm % v3"), ("nn / 2", "nn / v2"),
    # compared with none (`is None` in the texts): 0 and false are not none
    ("vx is none", "vx is vn"), ("vn is none", "vn is vn"), ("vn is not none", "vn is not vn"),
    ("v0 == none", "v0 == nn"), ("vf is none", "vf is fn"), ("v0 is not none", "v0 != nn"),
    ("fn is none", "fn is fn"),
    # chains inside chains, `not` and `if` (their parts' tests in line; the reference as before)
    ("(v1 == 1 and vf) or (vt and not vf)", "(v1 == v1 and vf) or (vt and not vf)"),
    ("(v1 == 1 or fn) and (vt or vf) and not (vt and vf)", "(v1 == v1 or fn) and (vt or vf) and not (vt and vf)"),
    ("if vt and v1 > 0 then 1 else 2", "if vt and v1 > v0 then v1 else v2"),
    ("if fn or vf then 1 else 2", "if fn or vf then v1 else v2"),
    ("not (fn or (vf and vt))", "not (fn or (vf and vt))"),
]


def folding_body() -> str:
    lines = ["    let p = first(pieces of red)", '    let _a = "a"', '    let _b = "b"', '    let _c = "c"',
             '    let _d = "d"']
    for i, (folded, run) in enumerate(CASES):
        lines += [f"    let f{i} = {folded}", f"    let r{i} = {run}", f'    log "{i}: {{f{i}}} = {{r{i}}}"']
    return "\n".join(lines) + "\n    end in a draw\n"


def compiled(tmp_path, name: str, body: str, backend: str, head: str = HEAD):
    folder = tmp_path / f"{name}-{backend}"
    folder.mkdir()
    with using_backend(backend):
        cg, diags, _ = write_game(folder, name, {"game.lumos": head + body, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


def events(cg) -> list:
    state = GameState.new(cg, seed=1, log=True, forced="take")
    return [e["event"] for e in state.events]


@pytest.mark.parametrize("backend", ["reference", "specialised"])
def test_folded_values_are_what_the_unfolded_expressions_give(tmp_path, backend):
    got = events(compiled(tmp_path, "folding", folding_body(), backend))
    lines = [e for e in got if ": " in e]
    assert len(lines) == len(CASES)
    for line in lines:
        i, values = line.split(": ", 1)
        folded, run = values.split(" = ")
        assert folded == run, (CASES[int(i)], line)
    assert lines[0] == "0: 1 = 1" and lines[3] == "3: 4 = 4"


def test_both_back_ends_log_the_same(tmp_path):
    body = folding_body()
    assert events(compiled(tmp_path, "folding", body, "reference")) == \
        events(compiled(tmp_path, "folding", body, "specialised"))


def texts_of(tmp_path, name: str, body: str, monkeypatch, head: str = HEAD) -> list:
    """Every text the specialised back end compiles while playing the game."""
    texts: list = []
    plain, plain_def = fused._compile, fused._compile_def

    def capture(text):
        texts.append(text)
        return plain(text)

    def capture_def(text):
        texts.append(text)
        return plain_def(text)
    monkeypatch.setattr(fused, "_compile", capture)
    monkeypatch.setattr(fused, "_compile_def", capture_def)
    monkeypatch.setattr(blocks, "_compile_def", capture_def)
    events(compiled(tmp_path, name, body, "specialised", head))
    monkeypatch.undo()
    assert texts
    return texts


def test_a_constant_argument_leaves_no_chain_of_tests_in_the_texts(tmp_path, monkeypatch):
    call = '    let p = first(pieces of red)\n    let k = dice(p, "b")\n    log "{k}"\n    end in a draw\n'
    folded = texts_of(tmp_path, "folded", call, monkeypatch)
    run = texts_of(tmp_path, "run", call.replace('"b")', "vb)"), monkeypatch)
    # the argument read from a variable: the body tests it against "a", then "b"
    assert any(t.count(" == ") >= 2 for t in run), run
    # a constant: the branch for "b" only (the piece's stun), no test and no store of "b"
    assert not any(" == " in t for t in folded), folded


def test_a_constant_argument_in_an_actions_list_is_folded_and_lists_the_same(tmp_path, monkeypatch):
    head = HEAD.replace("flow:\n", "action go:\n    with s in spaces where dice(first(pieces of red), \"b\") > 2 "
                        "and it != a1\n    label \"go {s}\"\n    log \"went {s}\"\n\nflow:\n")
    body = "    do one of go by red\n    do one of go by red\n    end in a draw\n"
    ref = compiled(tmp_path, "listed", body, "reference", head)
    new = compiled(tmp_path, "listed", body, "specialised", head)
    a, b = GameState.new(ref, seed=1, log=True), GameState.new(new, seed=1, log=True)
    assert a.action_labels() == b.action_labels() == ["go b1", "go c1"]
    texts = texts_of(tmp_path, "listed-texts", body, monkeypatch, head)
    assert not any(" == " in t for t in texts), texts


def test_a_state_saved_after_a_folded_call_loads_and_goes_on(tmp_path):
    head = HEAD.replace("flow:\n", "action go:\n    with s in spaces\n    label \"go {s}\"\n    log \"went {s}\"\n\nflow:\n")
    body = ('    let p = first(pieces of red)\n    let k = dice(p, "a") + pick("y")\n'
            '    do one of go by red\n    let j = dice(p, "b")\n    let t = plus(k, 1)\n    log "{k} {j} {t}"\n    end in a draw\n')
    for backend in ("reference", "specialised"):
        cg = compiled(tmp_path, "saved", body, backend, head)
        state = GameState.new(cg, seed=1, log=True)
        saved = state.to_json()
        loaded = GameState.from_json(cg, saved)
        assert loaded.to_json() == saved
        assert '"a",' in saved   # the constant argument kept in its slot, as before (the same state)
        state.apply_action(1)
        loaded.apply_action(1)
        assert state.is_terminal() and loaded.is_terminal()
        assert loaded.to_json() == state.to_json()
        assert [e["event"] for e in state.events][-3:-1] == ["went b1", "9 3 10"]


def test_a_branch_never_taken_is_still_checked(tmp_path):
    head = HEAD.replace("flow:\n", 'function sure(a) = if a == "x" then 1 else nope + 1\n\nflow:\n')
    folder = tmp_path / "checked"
    folder.mkdir()
    cg, diags, _ = write_game(folder, "checked", {"game.lumos": head + '    let k = sure("x")\n    end in a draw\n',
                                                  "board.yaml": BOARD})
    assert cg is None
    errors = [d for d in diags if d.code == "E201"]
    assert errors and "`nope`" in errors[0].message
    line = head.splitlines().index('function sure(a) = if a == "x" then 1 else nope + 1') + 1
    assert (errors[0].span.line, errors[0].span.col) == (line, 44)   # where `nope` is written
