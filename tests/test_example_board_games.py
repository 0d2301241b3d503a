"""The small board games of examples/ (tic-tac-toe, Connect Four), written with state per
space, list constants and quantifiers, over many random games: every move fills exactly one
empty space and never changes another, a game ends (a line, or a full board) within as many
moves as the board has spaces, and a state restored from JSON at any point continues the same.

Tic-tac-toe: "Players take turns marking an empty square; three in a row wins; a full board is a
draw". Connect Four: "A disc falls to the lowest empty space of its column; four in a row wins".
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

ROOT = Path(__file__).resolve().parents[1]
GAMES = {}


def game(name: str):
    if name not in GAMES:
        cg, diags, _ = check_game(GameSources(name, ROOT / "examples" / name, None, None))
        assert cg is not None, [d.headline() for d in diags]
        GAMES[name] = cg
    return GAMES[name]


def filled(state) -> dict:
    marks = next(iter(state.position()["space_vars"].values()))
    return {s: v for s, v in marks.items() if v is not None}


@pytest.mark.parametrize("name, var", [("tic-tac-toe", "mark"), ("connect-four", "disc")])
@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10_000), restore_at=hs.integers(0, 41))
def test_every_move_fills_one_empty_space(name, var, seed, restore_at):
    cg = game(name)
    rnd = random.Random(seed)
    state = GameState.new(cg, seed=seed)        # every decision asked, the last square's too
    before, moves = filled(state), 0
    while not state.is_terminal():
        if moves == restore_at:
            state = GameState.from_json(cg, state.to_json())
        mover = state.position()["current"]
        state.apply_action(rnd.randrange(len(state.options())))
        after = filled(state)
        moves += 1
        assert {s: after[s] for s in before} == before           # nothing already there changes
        new = set(after) - set(before)
        assert len(new) == 1 and after[new.pop()] == mover       # one space, the mover's
        before = after
    assert moves == len(filled(state)) <= len(cg.board.spaces)
    winner = state.winner()
    assert winner is not None or len(filled(state)) == len(cg.board.spaces)
