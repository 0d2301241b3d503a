"""Small games written the way a designer writes them from the docs alone (bench/designer-games:
tic-tac-toe and Connect Four in seven shapes: an `or` of function calls, counts of filters, a
procedure with `for each`, a `choose`, pieces on squares, a scan of every space). They are what
the held-out benchmark plays (issue 14: "Lumos games written from the docs alone"), and each
shape takes other paths of the specialised back end (calls in line, unrolled loops and counts,
filters that stop at their first item, state lists read once).

What must hold: each is checked clean, and plays the reference back end's games step by step,
the whole state (frames and locals included) after every step, and ends more than one way.
"""
from __future__ import annotations

import json

import pytest

from lumos.cli import main
from support.equivalence import ROOT, compiled, every_step

GAMES = sorted(p.name for p in (ROOT / "bench" / "designer-games").iterdir() if (p / "game.lumos").exists())


def test_there_are_the_seven_shapes():
    assert len(GAMES) == 7, GAMES


@pytest.mark.parametrize("name", GAMES)
def test_a_designer_game_is_checked_clean_and_plays_the_reference_games(name, capsys):
    game = str(ROOT / "bench" / "designer-games" / name)
    assert main(["check", game]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: {name} (") and "warning" not in out, out
    ref, new = compiled(game, "reference"), compiled(game, "specialised")
    ends = set()
    for seed in range(1, 16):
        a, b = every_step(ref, seed), every_step(new, seed)
        assert a == b, f"{name}, seed {seed}"
        ends.add(str(json.loads(a[-2])["result"]))   # the last state's result
    assert len(ends) > 1   # won by either side, or drawn
