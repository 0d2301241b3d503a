"""Catch the Golden Snitch: broken card files and a broken team file are reported in one
run, each mistake at its line and column with a hint (never a traceback)."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
BROKEN_CARDS = ROOT / "tests" / "fixtures" / "ctgs" / "broken-cards.yaml"
BROKEN_TEAM = ROOT / "examples" / "teams" / "broken.yaml"
GAME = "catch-the-golden-snitch"


def _diagnostics(capsys, *args):
    status = main(["check", "--format", "json", *args])
    return status, [(d["code"], d["line"], d["column"], d["message"]) for d in json.loads(capsys.readouterr().out)]


def test_broken_cards_each_mistake_at_its_line(capsys):
    """Cards; Player Cards; Action Blocks; Swift Intrepid Moves; Snitch Card; Build Your Team >
    Galleons: a wrong Position, a Block of five Actions, a Swift card without its moment, a
    misspelt vocabulary word, an unknown Snitch Type, one Fast Type, an Impulse with a missing
    argument, and a Tactical card without its cost ("Each has a cost in Gold Galleons")."""
    status, diags = _diagnostics(capsys, "--game", GAME, str(BROKEN_CARDS))
    assert status == 1
    assert [(c, line, col) for c, line, col, _ in diags] == [
        ("S104", 6, 15), ("S105", 12, 17), ("S101", 14, 5), ("E205", 30, 7),
        ("S104", 33, 13), ("S105", 34, 19), ("E204", 41, 7), ("S101", 42, 5)]
    messages = [m for *_, m in diags]
    assert "field `position` must be one of `keeper`, `chaser`, `beater`, `seeker`, not `goalie`" in messages[0]
    assert "field `blocks` item 2 must be at most 4, not 5" in messages[1]
    assert messages[3] == "unknown procedure `shift_onee`"
    assert "must hold at least 2 items, not 1" in messages[5]
    assert messages[7] == "card `Priceless Play`: field `cost` is missing"


def test_broken_cards_plain_output_has_the_line_a_caret_and_a_hint(capsys):
    assert main(["check", "--game", GAME, str(BROKEN_CARDS)]) == 1
    out = capsys.readouterr().out
    # the caret marks the unknown name, not its whole call (issue 13: ranges cover the offending token)
    assert "        shift_onee(me)\n        ^^^^^^^^^^\n  hint: did you mean `shift_one`?" in out
    assert out.rstrip().endswith("8 errors, 0 warnings in 1 file")


def test_broken_team_file_each_rule_at_its_line(capsys):
    """Build Your Team: the example broken team file gives each broken rule at its line."""
    status, diags = _diagnostics(capsys, str(BROKEN_TEAM))
    assert status == 1
    assert [(c, line) for c, line, _col, _m in diags] == [("T110", 8), ("T110", 11), ("T110", 14)]
