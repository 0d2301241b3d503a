"""Every rulings page names the tests that pin its choices; those tests must exist.

A ruling whose test was renamed or removed would silently stop being checked, so each
`test_...` name written on docs/rulings/*.md must be a test function of tests/.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "rulings").glob("*.md"))


def _defined_tests() -> set[str]:
    names = set()
    for f in (ROOT / "tests").glob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_\w+)\(", f.read_text(encoding="utf-8"), re.M))
    return names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_test_named_on_a_rulings_page_exists(page):
    named = set(re.findall(r"`(test_\w+)`", page.read_text(encoding="utf-8")))
    assert named, f"{page.name} names no test"
    missing = sorted(named - _defined_tests())
    assert not missing, f"{page.name} names tests that do not exist: {missing}"


def test_the_defenders_page_answers_each_open_question():
    """The Defenders of Hogwarts page answers the 37 open questions of its rulebook one by one
    (rulebooks/open-questions.md), each entry with the test that pins it."""
    text = (ROOT / "docs" / "rulings" / "defenders-of-hogwarts.md").read_text(encoding="utf-8")
    section = text.split("## The open questions, one by one", 1)[1]
    entries = re.findall(r"^(\d+)\. (.*)$", section, re.M)
    assert [int(n) for n, _ in entries] == list(range(1, 38))
    assert all(re.search(r"`test_\w+`", line) for _, line in entries)
