"""Searches and recursion that run away stop with a positioned error that says the limit (issue 10, item 4).

DESIGN.md, "Runtime model > Bounded": a runaway chain is stopped by a step limit with a clear
error naming the rule, never a hang. `reach ... exactly N` lists every path of N steps that
never visits a space twice, so its work grows about exponentially with N: the paths it tries
count against the step limit (R002), and a number of steps the board cannot hold (a path
never visits a space twice) finds nothing at once. A function that calls itself runs on
Python's stack: past the documented depth it stops with R005 saying so, not "without end".

A tiny game made for the test (no rulebook) on a 7 x 7 grid.
"""
from pathlib import Path

import pytest

from lumos.compiler.game import GameSources, check_game
from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.engine import GameState
from lumos.interpreter.machine import CALL_DEPTH_LIMIT, STEP_LIMIT

BOARD = """\
name: Square
palette: {plain: "#cccccc"}
grid:
  columns: abcdefg
  rows: 7
  links:
    orthogonal: orthogonal
  legend:
    P: {colour: plain}
  map: |
    P P P P P P P
    P P P P P P P
    P P P P P P P
    P P P P P P P
    P P P P P P P
    P P P P P P P
    P P P P P P P
"""

HEADER = """\
game "Searches"
board "board.yaml"
sides red, blue
"""


def make(tmp_path: Path, body: str):
    rules = tmp_path / "searches"
    rules.mkdir()
    (rules / "game.lumos").write_text(HEADER + body)
    (rules / "board.yaml").write_text(BOARD)
    cg, diags, _ = check_game(GameSources("searches", rules, None, None))
    assert cg is not None, [d.headline() for d in diags]
    return cg


def events(cg) -> list[str]:
    return [e["event"] for e in GameState.new(cg, seed=1, log=True).events]


def failure(cg):
    with pytest.raises(LumosRuntimeError) as info:
        GameState.new(cg, seed=1, log=True)
    return info.value.first


def test_exactly_n_lists_the_ends_of_paths_that_never_come_back(tmp_path):
    cg = make(tmp_path, 'flow:\n'
                        '    log "{reach from a1 by orthogonal exactly 2}"\n'
                        '    end in a draw\n')
    assert events(cg)[0] == "c1, b2, a3"      # b2 is the end of two paths, listed once


def test_more_steps_than_the_board_has_spaces_finds_nothing_at_once(tmp_path):
    cg = make(tmp_path, 'flow:\n'
                        '    log "{count(reach from a1 by orthogonal exactly 1000000)}"\n'
                        '    end in a draw\n')
    assert events(cg)[0] == "0"


def test_a_search_that_runs_away_is_r002_at_the_reach(tmp_path):
    cg = make(tmp_path, 'procedure far(side):\n'
                        '    log "{count(reach from d4 by orthogonal exactly 40)}"\n'
                        'flow:\n'
                        '    far(red)\n'
                        '    end in a draw\n')
    d = failure(cg)
    assert d.code == "R002"
    assert d.message == (f"`reach ... exactly 40` tried more than {STEP_LIMIT} steps of paths without a "
                         "decision (in `far`)")
    assert (d.span.line, d.span.col) == (5, 17)
    assert "through" in d.hint


def test_searches_between_two_decisions_share_the_step_limit(tmp_path):
    """Each search alone stays under the limit; a loop of them does not."""
    cg = make(tmp_path, 'flow:\n'
                        '    repeat 1000 times:\n'
                        '        log "{count(reach from a1 by orthogonal exactly 12)}"\n'
                        '    end in a draw\n')
    d = failure(cg)
    assert (d.code, d.span.line) == ("R002", 6)
    assert d.message.startswith("`reach ... exactly 12` tried more than")


DOWN = "function down(n) = if n <= 0 then 0 else 1 + down(n - 1)\n"


def test_a_deep_recursion_within_the_limit_finishes(tmp_path):
    cg = make(tmp_path, DOWN + f'flow:\n    log "{{down({CALL_DEPTH_LIMIT - 1})}}"\n    end in a draw\n')
    assert events(cg)[0] == str(CALL_DEPTH_LIMIT - 1)


@pytest.mark.parametrize("depth", [CALL_DEPTH_LIMIT + 1, 100_000])
def test_a_recursion_past_the_limit_says_the_limit(tmp_path, depth):
    """A recursion that would finish, but deeper than Lumos nests functions: the message says
    how deep is allowed, not that the rules call themselves without end."""
    cg = make(tmp_path, DOWN + f'flow:\n    log "{{down({depth})}}"\n    end in a draw\n')
    d = failure(cg)
    assert d.code == "R005"
    assert d.message == (f"`down` calls itself more than {CALL_DEPTH_LIMIT} calls deep, the most Lumos nests a "
                         "function (in `flow`)")
    assert d.span.line == 6
    assert "`loop` in a procedure" in d.hint
