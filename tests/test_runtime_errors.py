"""Rules that go wrong while a game is played stop with a positioned error, never a traceback.

A tiny made-up game (no rulebook) on the ring board of test_triggers.
"""
import pytest

from lumos.interpreter.engine import GameState
from lumos.diagnostics import LumosRuntimeError
from test_triggers import make_game

HEADER = """\
game "Broken on purpose"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at r1
pieces of blue:
    runner at r4
"""


def start(tmp_path, body: str):
    cg, diags, _ = make_game(tmp_path, HEADER + body)
    assert cg is not None, [d.headline() for d in diags]
    with pytest.raises(LumosRuntimeError) as info:
        GameState.new(cg, seed=1, forced="take")
    return info.value.first


def test_a_function_that_calls_itself_forever_is_r005(tmp_path):
    d = start(tmp_path, "function deeper(n) = deeper(n + 1)\n"
                        "flow:\n"
                        "    let x = deeper(1)\n"
                        "    end in a draw\n")
    assert d.code == "R005"
    # it would never stop, and it goes past the depth Lumos nests functions: the message says that depth
    assert d.message.startswith("`deeper` calls itself more than 200 calls deep")
    assert (d.span.line, d.span.file.endswith("game.lumos")) == (11, True)


def test_a_procedure_loop_without_decisions_is_r002(tmp_path):
    d = start(tmp_path, "flow:\n"
                        "    loop:\n"
                        "        pass\n")
    assert d.code == "R002"
    assert "flow" in d.message


def test_none_where_a_zone_is_needed_is_r005_at_its_line(tmp_path):
    d = start(tmp_path, "var nowhere: zone = none\n"
                        "flow:\n"
                        "    shuffle nowhere\n"
                        "    end in a draw\n")
    assert d.code == "R005"
    assert d.span.line == 11
    assert "is not none" in d.hint


def test_a_flow_that_ends_without_a_result_is_r001_at_the_flow(tmp_path):
    d = start(tmp_path, "flow:\n"
                        "    pass\n")
    assert d.code == "R001"
    assert d.span.file.endswith("game.lumos") and d.span.line == 10
