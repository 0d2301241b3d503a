"""`lumos play` at a real (pseudo-)terminal, for each bundled game: a scripted session that
starts the game, asks for help, reads a card, makes a few moves and quits.

What a new player must see (issue "Seeing the game", item 3): the board in colour, status
lines in names and numbers (never a Python `False`), `help` listing the commands, `card
NAME` showing the card's text and English. The Catch the Golden Snitch Pitch is drawn as
its Zones (catch-the-golden-snitch.txt, "Elements of the Game > The Game Board": twelve
Zones in two Halves, the Scoring Areas at the ends, the Snitch Race beside the Pitch).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from lumos.api import bundled_games, load_game

pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect")

ROOT = Path(__file__).resolve().parent.parent
PROMPT = [r"choice \[1-\d+, words to filter, help, q\]: ", r"your answer .*: "]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(game: str, seed: int):
    env = dict(os.environ, COLUMNS="100", LINES="50", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "lumos", "play", game, "--seed", str(seed)], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=120, dimensions=(50, 100))
    return child


def until_prompt(child) -> str:
    child.expect(PROMPT)
    return child.before


@pytest.mark.parametrize("game", bundled_games())
def test_a_scripted_session(game):
    cg = load_game(game)
    with_effect = [d for d in cg.card_defs if isinstance(d.fields.get("effect"), str)]
    card = (with_effect or list(cg.card_defs))[0].name
    child = spawn(game, seed=3)
    try:
        first = until_prompt(child)
        assert "Type help for the commands" in first
        assert "\x1b[" in first, "the board and status are drawn in colour"
        plain = ANSI.sub("", first)
        assert cg.board.name in plain
        assert "False" not in plain and "True" not in plain
        child.sendline("help")
        text = ANSI.sub("", until_prompt(child))
        for command in ("card NAME", "hand", "board", "help", "q "):
            assert command in text
        child.sendline(f"card {card}")
        text = ANSI.sub("", until_prompt(child))
        assert re.search(rf"{re.escape(card)} - an? \w+ card", text) and "data:" in text
        assert "in plain English" in text or not with_effect
        for _ in range(3):
            child.sendline("1")
            until_prompt(child)
        child.sendline("q")
        child.expect("quit.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_the_golden_snitch_pitch_is_drawn_as_its_zones():
    """"The Game Board": the 12 Zones by name, the Snitch Race as one track of 15 spaces."""
    child = spawn("catch-the-golden-snitch", seed=1)
    try:
        plain = ANSI.sub("", until_prompt(child))
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    for zone in ("home scoring", "home back", "home north", "home south", "home deploy", "centre north",
                 "centre south", "away deploy", "away north", "away south", "away back", "away scoring"):
        assert zone in plain
    assert re.search(r"Race \(r1 to r15\)", plain)
    assert re.search(r"\b1\s+2\s+3\s.*\b15\b", plain)
    # status lines say names and numbers: each coach's Galleons, Tempo and Goal tokens
    assert re.search(r"home: .*galleons \d+, tempo \d+, goals \d+", plain)
