"""`lumos test`: card tests a designer writes in YAML (issue 9, item 6), driven as a designer
drives them: test files in, PASS/FAIL lines, positioned messages and an exit status out.

The shipped tests (cards/*/tests, examples/*/tests) each cite the rulebook section and the
card text they check; here they must all pass through the runner. Broken files and failing
expectations are written in the test, and a new card with its test is written by following
docs/designers.md only (its example test file is taken from the page itself).
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
import yaml

from lumos.cli import main
from lumos.toolkit.cardtests import find_test_files, run_file

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = find_test_files([ROOT / "cards", ROOT / "examples"])


@functools.lru_cache(maxsize=None)
def _shipped_result(path: Path):
    """Each shipped test file is run once per session: the pass test and the coverage test
    read the same results (the cases are deterministic)."""
    return run_file(path)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the shipped tests
def test_every_bundled_game_and_example_expansion_ships_card_tests():
    """Issue 9, item 6: each bundled game and each example expansion ships tests for its cards."""
    folders = {p.relative_to(ROOT).parts[:2] for p in SHIPPED}
    from lumos.api import bundled_games
    assert {("cards", g) for g in bundled_games()} <= folders
    assert {("cards", "snitch-snatcher"), ("cards", "catch-the-golden-snitch"),
            ("examples", "snitch-snatcher-expansion"), ("examples", "catch-the-golden-snitch-expansion"),
            ("examples", "catch-the-golden-snitch-stars")} <= folders


@pytest.mark.parametrize("path", SHIPPED, ids=[p.parent.parent.name for p in SHIPPED])
def test_shipped_card_tests_pass(path):
    result = _shipped_result(path)
    assert not result.problems, [d.headline() for d in result.problems]
    assert result.cases
    failed = {c.name: [d.headline() for d in c.failures] for c in result.cases if not c.passed}
    assert failed == {}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.parent.parent.name for p in SHIPPED])
def test_each_shipped_case_cites_its_source(path):
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    assert [c["name"] for c in cases if not str(c.get("source", "")).strip()] == []


def test_lumos_test_runs_the_shipped_tests_by_default(capsys):
    assert main(["test"]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    summary = out.strip().splitlines()[-1]
    assert re.fullmatch(r"== \d+ cases passed, 0 failed in \d+ files ==", summary), summary


# ---------------------------------------------------------------- failures and broken files
FAILING = """\
game: snitch-snatcher
cases:
  - name: Fly Sideways to the wrong space
    source: "Playing Cards > Action Cards"
    position:
      seed: 2
      at: {start_of: play_step}
      pieces: {home chaser 2: d7}
      zones: {home hand: [Fly Sideways], home skills: [Offense Skill]}
    steps:
      - play: Fly Sideways
      - choose: home chaser 1 (b5) flies sideways
      - choose: home chaser 1 to d5
    expect:
      pieces: {home chaser 1: f5}
      zones: {home discard: [Fly Sideways]}
  - name: the kick-off is the away team's
    seed: 0
    expect:
      deciding: away
"""


def test_a_failing_expectation_reports_its_line_and_what_was_found(tmp_path, capsys):
    path = _write(tmp_path, "fly.test.yaml", FAILING)
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  FAIL  Fly Sideways to the wrong space" in out
    assert "  PASS  the kick-off is the away team's" in out
    assert f"{path}:15:31: T220 `home chaser 1` is on d5, not on f5" in out
    assert "== 1 case passed, 1 failed in 1 file ==" in out
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "T220" in line)
    assert lines[at + 1].strip() == "pieces: {home chaser 1: f5}"
    assert lines[at + 2].index("^") == lines[at + 1].index("f5")


def test_the_json_report_names_each_case_and_failure(tmp_path, capsys):
    path = _write(tmp_path, "fly.test.yaml", FAILING)
    assert main(["test", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == {"passed": 1, "failed": 1, "broken_files": 0}
    case = report["files"][0]["cases"][0]
    assert (case["name"], case["passed"]) == ("Fly Sideways to the wrong space", False)
    assert [(f["code"], f["line"], f["column"]) for f in case["failures"]] == [("T220", 15, 31)]


def test_a_step_that_cannot_be_taken_fails_the_case_there(tmp_path, capsys):
    path = _write(tmp_path, "kick.test.yaml", """\
game: snitch-snatcher
cases:
  - name: kick-off
    steps:
      - choose: give the quaffle to away chaser 9
    expect: {deciding: away}
""")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:5:17: T210 cannot choose: no option `give the quaffle to away chaser 9` here" in out
    assert "hint: did you mean `give the quaffle to away chaser 3 (f9)`?" in out


@pytest.mark.parametrize("text, where, message", [
    ("game: snitch-snatcher\ncases:\n  - name: x\n    stpes: []\n    expect: {deciding: away}\n",
     "4:5", "T201 a case has no key `stpes`"),
    ("game: snitch-snatcher\ncases:\n  - name: x\n    expect:\n      pieces: {home chaser 9: d5}\n",
     "5:16", "T206 snitch-snatcher has no piece `home chaser 9`"),
    ("game: snitch-snatcher\ncases:\n  - name: x\n    expect:\n      zones: {home hand: [Fly Sidways]}\n",
     "5:27", "T206 snitch-snatcher has no card `Fly Sidways`"),
    ("game: snitch-snatcher\ncases:\n  - name: x\n    options: {goals_to_win: 4}\n    expect: {deciding: away}\n",
     "4:29", "T202 option `goals_to_win` is one of 3, 5, not 4"),
    ("game: snitch-snatcher\ncases:\n  - name: x\n    expect: {}\n",
     "4:13", "T200 case 1 expects nothing: it would always pass"),
    ("game: snitch-snacher\ncases:\n  - name: x\n    expect: {deciding: away}\n",
     "1:7", "T205 no game `snitch-snacher`: neither a bundled game nor a folder holding game.lumos"),
    ("game: snitch-snatcher\ncases:\n  - name: x\n    position: {pieces: {home chaser 9: d5}}\n"
     "    expect: {deciding: away}\n", "4:25", "P102 no piece `home chaser 9` in snitch-snatcher"),
])
def test_a_broken_test_file_is_reported_at_its_place_and_exits_1(tmp_path, capsys, text, where, message):
    path = _write(tmp_path, "broken.test.yaml", text)
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:{where}: {message}" in out
    assert "1 broken test file" in out


def test_a_broken_test_file_has_a_caret_and_a_hint(tmp_path, capsys):
    path = _write(tmp_path, "broken.test.yaml", FAILING.replace("    steps:", "    stpes:"))
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if "T201" in line)
    assert out[at + 1].strip() == "stpes:"
    assert out[at + 2].strip() == "^"
    assert out[at + 3].strip() == "hint: did you mean `steps`?"


def test_bad_yaml_in_a_test_file_is_a_positioned_yaml_error(tmp_path, capsys):
    path = _write(tmp_path, "bad.test.yaml", "game: snitch-snatcher\ncases: [\n")
    assert main(["test", str(path)]) == 1
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: Y00\d ", capsys.readouterr().out)


def test_no_test_file_is_a_usage_error(tmp_path, capsys):
    assert main(["test", str(tmp_path / "missing.test.yaml")]) == 2
    assert "no test file or folder" in capsys.readouterr().err


def test_lumos_check_reports_a_broken_test_file_of_an_expansion(tmp_path, capsys):
    exp = tmp_path / "mine"
    _write(exp, "expansion.yaml", "extends: snitch-snatcher\nname: Mine\ncards: []\n")
    path = _write(exp, "tests/cards.test.yaml",
                  "game: snitch-snatcher\nwith: [..]\ncases:\n  - name: x\n    expect:\n"
                  "      pieces: {home chaser 9: d5}\n")
    assert main(["check", str(exp)]) == 1
    assert f"{path}:6:16: T206 snitch-snatcher has no piece `home chaser 9`" in capsys.readouterr().out


# ---------------------------------------------------------------- a new card, from the docs alone
SIDESTEP = """\
deck: home
cards:
  - name: Sidestep
    type: action
    colour: offense
    threshold: 1
    copies: 1
    text: "One of your Chasers slips 1 space diagonally toward the opposing goal, onto a free dark green space."
    condition: (chasers(me) where forward_steps(it) is not empty) is not empty
    effect: |
      choose c from chasers(me) where forward_steps(it) is not empty label "{c} ({c.space}) sidesteps"
      choose to from forward_steps(c) label "{c} to {to}"
      card_move(c, to)
"""


def _docs_example() -> str:
    """The whole test file of docs/designers.md ("A whole test file")."""
    page = (ROOT / "docs" / "designers.md").read_text(encoding="utf-8")
    section = page.split("### A whole test file", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_a_new_card_and_its_test_written_from_the_docs(tmp_path, capsys):
    """The expansion layout of docs/designers.md ("Expansions"), a card in the style of the
    game's own, and the page's own example test file: every case passes."""
    exp = tmp_path / "sidestep"
    _write(exp, "expansion.yaml", "extends: snitch-snatcher\nname: Sidestep\ncards: [sidestep.yaml]\n")
    _write(exp, "sidestep.yaml", SIDESTEP)
    path = _write(exp, "tests/sidestep.test.yaml", _docs_example())
    assert main(["check", str(exp)]) == 0
    capsys.readouterr()
    assert main(["test", str(exp)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert out.count("  PASS  ") == 3
    assert str(path.relative_to(tmp_path)) in out or "sidestep.test.yaml" in out


def test_the_new_cards_test_fails_when_the_card_does_something_else(tmp_path, capsys):
    """The same test against a Sidestep that forgets to move the Chaser: the docs' test catches it."""
    exp = tmp_path / "sidestep"
    _write(exp, "expansion.yaml", "extends: snitch-snatcher\nname: Sidestep\ncards: [sidestep.yaml]\n")
    _write(exp, "sidestep.yaml", SIDESTEP.replace("card_move(c, to)", 'log "{c} stays"'))
    _write(exp, "tests/sidestep.test.yaml", _docs_example())
    assert main(["test", str(exp)]) == 1
    assert "T220 `home chaser 1` is on b5, not on c6" in capsys.readouterr().out


def test_a_test_file_names_a_game_folder_relative_to_itself(tmp_path, capsys):
    """`game:` may be the path of a game folder (a designer's own game), relative to the file."""
    import shutil
    from lumos.api import game_sources
    shipped = game_sources("snitch-snatcher")
    game = tmp_path / "my-snitch"
    shutil.copytree(shipped.rules_dir, game, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(shipped.cards_dir, game / "cards", ignore=shutil.ignore_patterns("tests"))
    path = _write(game, "cards/tests/first.test.yaml", """\
game: ../..
cases:
  - name: the away team has the first turn with seed 0
    source: "Game Play > Roll Off!"
    seed: 0
    expect: {deciding: away}
""")
    assert main(["test", str(path)]) == 0, capsys.readouterr().out


# ---------------------------------------------------------------- coverage (`lumos test --coverage`)
def test_every_card_with_an_effect_is_exercised_by_a_shipped_case():
    """Issue 9, item 6: each bundled game and example expansion ships a test for each card that
    has an effect; a card counts when a passing case ran its statements (docs/designers.md,
    "Coverage")."""
    from lumos.toolkit.coverage import measure, shipped_cards
    report = measure([_shipped_result(p) for p in SHIPPED], shipped_cards())
    folders = {fc.folder for fc in report}
    assert {"cards/defenders-of-hogwarts", "cards/catch-the-golden-snitch",
            "examples/catch-the-golden-snitch-stars"} <= {"/".join(Path(f).resolve().parts[-2:]) for f in folders}   # bundled cards may be installed
    assert {fc.folder: fc.uncovered for fc in report if fc.uncovered} == {}


def test_every_example_expansion_ships_card_tests():
    """Issue 9, item 6: each example expansion (a folder of examples/ with expansion.yaml)."""
    expansions = {p.name for p in (ROOT / "examples").iterdir() if (p / "expansion.yaml").is_file()}
    shipped = {p.relative_to(ROOT).parts[1] for p in SHIPPED if p.relative_to(ROOT).parts[0] == "examples"}
    assert expansions and expansions <= shipped


def _expansion_with_sidestep(tmp_path: Path, tests: str) -> Path:
    exp = tmp_path / "sidestep"
    _write(exp, "expansion.yaml", "extends: snitch-snatcher\nname: Sidestep\ncards: [sidestep.yaml]\n")
    _write(exp, "sidestep.yaml", SIDESTEP)
    _write(exp, "tests/sidestep.test.yaml", tests)
    return exp


def test_coverage_lists_a_card_no_case_plays_and_exits_1(tmp_path, capsys):
    """A case that holds the card in a zone but never plays it exercises nothing."""
    exp = _expansion_with_sidestep(tmp_path, """\
game: snitch-snatcher
with: [..]
cases:
  - name: without an Offense Skill card Sidestep is not offered
    source: "Playing Cards > Action Cards"
    position: {seed: 2, at: {start_of: play_step}, zones: {home hand: [Sidestep], home skills: []}}
    expect: {options_exclude: [play Sidestep]}
""")
    assert main(["test", "--coverage", str(exp)]) == 1
    out = capsys.readouterr().out
    assert "== 1 case passed, 0 failed in 1 file ==" in out
    assert re.search(r"sidestep: 0 of 1 \(0%\)\n    not exercised: Sidestep\n", out), out


def test_coverage_counts_a_card_whose_effect_ran(tmp_path, capsys):
    exp = _expansion_with_sidestep(tmp_path, _docs_example())
    assert main(["test", "--coverage", "--format", "json", str(exp)]) == 0
    report = json.loads(capsys.readouterr().out)["coverage"]
    assert [(Path(r["cards"]).name, r["with_effect"], r["exercised"], r["not_exercised"]) for r in report] == \
        [("sidestep", 1, 1, [])]


def test_a_case_that_covers_a_card_it_does_not_play_fails_with_T221(tmp_path, capsys):
    exp = _expansion_with_sidestep(tmp_path, """\
game: snitch-snatcher
with: [..]
cases:
  - name: Sidestep is in the hand
    source: "Playing Cards > Action Cards"
    covers: [Sidestep]
    position: {seed: 2, at: {start_of: play_step}, zones: {home hand: [Sidestep], home skills: [Offense Skill]}}
    expect: {options_include: [play Sidestep]}
""")
    assert main(["test", str(exp)]) == 1
    out = capsys.readouterr().out
    assert "sidestep.test.yaml:6:14: T221 the case covers `Sidestep`, but no statement of `Sidestep` ran" in out
