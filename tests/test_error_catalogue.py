"""docs/errors.md lists every diagnostic code, and its examples give the codes they show.

Each example of the page is preceded by a hidden line `<!-- check: CODE WHERE -->` (the
convention is explained at the top of the page): the block is written into a copy of
the bundled Snitch Snatcher game and checked; the checker must report that code and no
other. Codes that a small file cannot produce are listed in EXEMPT with the reason.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lumos.api import game_sources
from lumos.compiler.game import GameSources, check_game

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "errors.md"
CODE_DIRS = ("compiler", "interpreter", "lumos")

EXEMPT = {
    "E000": "reported only when the compiler fails without a diagnostic (a bug in Lumos)",
    "E101": "needs a rules file in another encoding; a Markdown example is UTF-8 text",
    "Y003": "needs a file of more than 200 000 values or very deep nesting",
    "Y008": "needs bytes that are not UTF-8, or a NUL byte, which a Markdown example cannot hold",
    "B100": "raised only by load_board() on a missing file; a game reports E100 at its `board` header",
    "L103": "a file always ends with the end of a line, so the parser reports L100 or L101 first",
    "R001": "runtime: happens while a game is played, not when it is checked",
    "R002": "runtime: happens while a game is played, not when it is checked",
    "R003": "runtime: happens while a game is played, not when it is checked",
    "R004": "runtime: happens while a game is played, not when it is checked",
    "R005": "runtime: happens while a game is played, not when it is checked",
    "R011": "runtime: raised by legal_action_ids() while a game is played, not when it is checked",
    "P100": "position files are read by load_position and card tests, not by `lumos check`",
    "P101": "position files are read by load_position and card tests, not by `lumos check`",
    "P102": "position files are read by load_position and card tests, not by `lumos check`",
    "P103": "position files are read by load_position and card tests, not by `lumos check`",
    "P104": "position files are read by load_position and card tests, not by `lumos check`",
    "P105": "position files are read by load_position and card tests, not by `lumos check`",
    "P106": "position files are read by load_position and card tests, not by `lumos check`",
    "R010": "runtime: reported by `lumos simulate --max-decisions`",
    "V100": "reported by `lumos view` on a file that is not a game log, not by `lumos check`",
    "V101": "reported by `lumos view` on a log that does not replay, not by `lumos check`",
    "W321": "needs an expansion's card file next to the game's own (`--with`); the examples are files of the game",
}

EXAMPLE = re.compile(r"^<!-- check: ([A-Z]\d{3}) (\w+) -->\n```(\w+)\n(.*?)^```$", re.M | re.S)
HEADING = re.compile(r"^### ([A-Z]\d{3}) ", re.M)


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def emitted_codes() -> set[str]:
    """Every code written as a string literal in the engine's Python."""
    codes: set[str] = set()
    for folder in CODE_DIRS:
        for path in (ROOT / folder).rglob("*.py"):
            codes |= set(re.findall(r"""["']([EYSBLRWTPV][0-9]{3})["']""", path.read_text(encoding="utf-8")))
    return codes


def examples() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(4)) for m in EXAMPLE.finditer(_page())]


def test_every_emitted_code_is_in_the_catalogue():
    emitted = emitted_codes()
    assert len(emitted) > 40, "the scan found too few codes: has the layout of the repository changed?"
    documented = set(HEADING.findall(_page()))
    assert sorted(emitted - documented) == [], "codes the engine can report but docs/errors.md does not explain"


def test_the_catalogue_lists_no_code_the_engine_cannot_report():
    assert sorted(set(HEADING.findall(_page())) - emitted_codes()) == []


def test_every_code_has_an_example_or_a_reason():
    with_example = {code for code, _, _ in examples()}
    documented = set(HEADING.findall(_page()))
    assert sorted(documented - with_example - set(EXEMPT)) == []
    assert sorted(with_example & set(EXEMPT)) == [], "an exempt code has an example: remove it from EXEMPT"
    assert sorted(set(EXEMPT) - documented) == []


def test_examples_are_found():
    found = examples()
    assert len(found) >= 50
    codes = [code for code, _, _ in found]
    assert len(codes) == len(set(codes)), "one example per code"
    assert {where for _, where, _ in found} <= {"rules", "card", "board", "game", "team", "teams", "test",
                                                "question"}


# `team` examples: a team file checked against the copy of Snitch Snatcher with this block added
TEAM_RULES = """\
team [source: "Equipment & Set-Up > Set Up"]:
    field rounds: number = 3 shared
    group actions into action_deck where it.type == "action"
    require count(actions) == 6 else "an action deck holds 6 cards, not {count(actions)}" at actions
"""


def _check(tmp_path: Path, where: str, text: str) -> list:
    if where == "test":    # a card test file, run as `lumos test` runs it
        from lumos.toolkit.cardtests import run_file
        path = tmp_path / "example.test.yaml"
        path.write_text(text, encoding="utf-8")
        result = run_file(path)
        return result.problems + [d for c in result.cases for d in c.failures]
    if where == "question":   # a card of the Chamber of Secrets Trivia Game, whose fields are questions
        trivia = game_sources("chamber-of-secrets-trivia")
        cards = tmp_path / "cards"
        shutil.copytree(trivia.cards_dir, cards)
        (cards / "example.yaml").write_text(text, encoding="utf-8")
        return check_game(GameSources(trivia.id, trivia.rules_dir, cards, trivia.schema_dir))[1]
    bundled = game_sources("snitch-snatcher")
    rules = tmp_path / "my-snitch"
    shutil.copytree(bundled.rules_dir, rules)
    cards = rules / "cards"
    shutil.copytree(bundled.cards_dir, cards)
    if where == "rules":
        (rules / "example.lumos").write_text(text, encoding="utf-8")
    elif where == "card":
        (cards / "example.yaml").write_text(text, encoding="utf-8")
    elif where == "board":
        (rules / "board.yaml").write_text(text, encoding="utf-8")
    elif where in ("team", "teams"):
        from lumos.compiler.teams import check_team_file, check_teams
        (rules / "team.lumos").write_text(TEAM_RULES, encoding="utf-8")
        cg, diags, _ = check_game(GameSources("snitch-snatcher", rules, cards, bundled.schema_dir))
        assert cg is not None, [d.headline() for d in diags if d.is_error]
        if where == "teams":   # two team files, home's and away's, separated by a `---` line
            paths = {}
            for side, part in zip(("home", "away"), text.split("\n---\n")):
                paths[side] = tmp_path / f"{side}.yaml"
                paths[side].write_text(part, encoding="utf-8")
            return check_teams(cg, paths)[1]
        (tmp_path / "team.yaml").write_text(text, encoding="utf-8")
        return check_team_file(cg, tmp_path / "team.yaml")[1]
    elif where == "game":
        for path in rules.glob("*.lumos"):
            path.unlink()
        shutil.rmtree(cards)
        (rules / "game.lumos").write_text(text, encoding="utf-8")
    else:
        raise AssertionError(f"unknown place `{where}` for an example")
    src = GameSources("snitch-snatcher", rules, cards, bundled.schema_dir)
    cg, diags, _ = check_game(src)
    if cg is not None and not any(d.is_error for d in diags):   # as `lumos check` does
        from lumos.compiler.lint import lint_game
        from lumos.toolkit.textcheck import text_warnings
        diags = list(diags) + lint_game(cg, src) + text_warnings(cg, src)
    return diags


def test_the_bundled_game_checks_clean(tmp_path):
    assert [d.code for d in _check(tmp_path, "rules", "")] == []


@pytest.mark.parametrize("code, where, text", examples(), ids=[code for code, _, _ in examples()])
def test_example_gives_its_code(tmp_path, code, where, text):
    diags = _check(tmp_path, where, text)
    shown = "\n".join(d.headline() if hasattr(d, "headline") else str(d) for d in diags)
    assert diags, f"the example of {code} checks clean"
    assert {d.code for d in diags} == {code}, shown
