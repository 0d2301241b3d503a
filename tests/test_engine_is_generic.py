"""The engine knows generic ideas only: no game's vocabulary in compiler/, interpreter/, grammar/
and lumos/diagnostics.py.

A game lives entirely in rules/ and cards/ (DESIGN.md). This test reads every source file
of the engine and fails on a word that belongs to one of the four games, so a rule that
slipped into Python is caught at once.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ("compiler", "interpreter", "grammar")
GAME_WORDS = ("quaffle", "snitch", "seeker", "chaser", "beater", "keeper", "bludger", "gryffindor",
              "slytherin", "ravenclaw", "hufflepuff", "dark arts", "horcrux", "tempo", "intrepid",
              "galleon", "hogwarts", "spectator", "wizard", "trivia", "dementor", "scoring area", "house")
# A word between non-letters: `chaser_ground` and `move_seekers` count, `household` does not.
PATTERN = re.compile(r"(?<![a-z])(" + "|".join(re.escape(w) for w in GAME_WORDS) + r")s?(?![a-z])", re.I)
# the diagnostics module sits under both the compiler and the interpreter
FILES = sorted([p for d in ENGINE for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".lark")]
               + [ROOT / "lumos" / "diagnostics.py"])


def test_the_engine_has_source_files():
    assert len(FILES) > 10


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_vocabulary_in_the_engine(path):
    hits = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PATTERN.search(line)]
    assert not hits, "game words in the engine:\n" + "\n".join(hits)
