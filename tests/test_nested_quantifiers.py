"""A quantifier in the condition of another (`any line in lines where all s in line where ...`)
is a nested loop of the outer one's generated function in the specialised back end
(compiler/fused.py, _nested_lines); it must give what the reference back end gives: the
values, the early stops, the error and its line, and the locals a saved state holds.

A tiny game made for the test (no rulebook).
"""
import pytest

from lumos.compiler.fused import using_backend
from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Square
grid:
  columns: ab
  rows: 2
  links:
    orthogonal: orthogonal
  legend:
    o: {}
  map: |
    o o
    o o
"""

HEADER = """\
game "Nested"
board "board.yaml"
sides red, blue
const lists = [[], [1, 2], [], [3]]
const later = [[1], [2, 5], []]
const empty = []
function deeper(n) = deeper(n + 1)

action poke:
    with s in spaces
    label "poke {s}"
    log "poked"

"""

VALUES = """\
flow:
    log "{any r in lists where all x in r where x > 1} {all r in lists where any x in r where x > 0}"
    log "{count r in lists where all x in r where x > 2} {any r in empty where all x in r where x > 0}"
    log "{any r in lists where (count x in r where x > 1) >= 2} {count r in lists where not (any x in r where x == 3)}"
    log "{any r in lists where all x in r where x > 0 and x < 3} {all r in later where all x in r where x < 9}"
    log "{any r in later where any x in r where any y in r where x + y == 7}"
    log "{any r in lists where all x in r where x == 1 or deeper(x) > 0}"
    log "{all r in later where any x in r where x < 3 or deeper(x) > 0}"
    let found = any r in later where all x in r where x < 5
    do one of poke by red
    log "{found}"
    end in a draw
"""

ERROR = """\
flow:
    log "before"
    let n = count r in later where all x in r where x == 1 or deeper(x) > 0
    end in a draw
"""


def both(tmp_path, flow):
    """The game compiled by each back end."""
    out = {}
    for backend in ("reference", "specialised"):
        with using_backend(backend):
            folder = tmp_path / backend
            folder.mkdir()
            cg, diags, _ = write_game(folder, "nested", {"game.lumos": HEADER + flow, "board.yaml": BOARD})
        assert cg is not None, [d.headline() for d in diags]
        out[backend] = cg
    return out


def test_nested_quantifiers_give_the_reference_values_and_locals(tmp_path):
    games = both(tmp_path, VALUES)
    states = {b: GameState.new(cg, seed=1, log=True, forced="take") for b, cg in games.items()}
    logs = {b: [e["event"] for e in st.events] for b, st in states.items()}
    # empty inner lists (all: true, any: false), early stops (the `deeper` parts never run)
    assert logs["reference"] == ["true false", "3 false", "false 3", "true true", "true", "true", "false"]
    assert logs["specialised"] == logs["reference"]
    # waiting for red's decision, the flow's locals (the items' slots among them) are saved
    assert states["specialised"].to_json() == states["reference"].to_json()


def test_an_error_in_the_inner_condition_is_the_same_error_at_the_same_line(tmp_path):
    games = both(tmp_path, ERROR)
    errors = {}
    for backend, cg in games.items():
        with pytest.raises(LumosRuntimeError) as info:
            GameState.new(cg, seed=1, forced="take")
        d = info.value.first
        errors[backend] = (d.code, d.message, d.span.line, d.span.col)
    assert errors["reference"][0] == "R005"
    assert errors["specialised"] == errors["reference"]
