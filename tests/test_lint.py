"""`lumos check` warns about legal but likely mistakes (lumos.compiler.lint): W310 unused declarations,
W311 cards no rule can ever play.

Each test writes into a copy of the bundled game; warnings the unmodified copy already has
are subtracted, so the tests say what the edit adds.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from lumos.api import game_sources
from lumos.cli import main
from lumos.compiler.game import GameSources, check_game
from lumos.compiler.lint import lint_game

GAME = "snitch-snatcher"
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = re.compile(r"^<!-- check: (W31\d) (\w+) -->\n```(\w+)\n(.*?)^```$", re.M | re.S)

INTERRUPT = """\
deck: home
cards:
  - name: Late Whistle
    type: action
    colour: defense
    threshold: 1
    interrupt: true
    window: {window}
    text: "Blow the whistle."
    effect: |
      log "{{me}} whistles"
"""

SPOT = """\
deck: home
cards:
  - name: Golden Glimpse
    type: spot
    end: north
    effect: |
      log "{me} glimpses the golden snitch"
"""

PLAYABLE = """\
deck: away
cards:
  - name: Loud Cheer
    type: action
    colour: offense
    threshold: 1
    text: "The crowd roars."
    effect: |
      log "{me} cheers"
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    bundled = game_sources(GAME)
    rules = tmp_path / "my-game"
    shutil.copytree(bundled.rules_dir, rules)
    shutil.copytree(bundled.cards_dir, rules / "cards")
    return rules


def _src(rules: Path) -> GameSources:
    return GameSources(GAME, rules, rules / "cards", game_sources(GAME).schema_dir)


def _lint(rules: Path) -> list:
    cg, diags, _ = check_game(_src(rules))
    assert cg is not None, [d.headline() for d in diags if d.is_error]
    return lint_game(cg, _src(rules))


def _added(rules: Path, edit) -> list:
    """The lint warnings an edit of the game copy adds."""
    before = {(d.code, d.message) for d in _lint(rules)}
    edit(rules)
    return [d for d in _lint(rules) if (d.code, d.message) not in before]


def _write(name: str, text: str, cards: bool = False):
    def edit(rules: Path) -> None:
        (rules / "cards" / name if cards else rules / name).write_text(text, encoding="utf-8")
    return edit


# ---------------------------------------------------------------- W310
def test_every_kind_of_unused_declaration_is_reported_at_its_name(game):
    text = ("var spare = 0\n"
            "const spare_limit per side = 1, 2\n"
            "window time_out\n"
            "zone graveyard per side public\n"
            "kinds umpire, mascot\n")
    added = _added(game, _write("extra.lumos", text))
    got = sorted((d.code, d.span.line, d.span.col, d.span.end_col, d.message) for d in added)
    assert got == [
        ("W310", 1, 5, 10, "variable `spare` is never used"),
        ("W310", 2, 7, 18, "constant `spare_limit` is never used"),
        ("W310", 3, 8, 16, "window `time_out` is never used"),
        ("W310", 4, 6, 15, "zone `graveyard` is never used"),
        ("W310", 5, 7, 13, "kind `umpire` is never used"),
        ("W310", 5, 15, 21, "kind `mascot` is never used"),
    ]
    assert all(d.severity == "warning" and d.hint and d.span.file.endswith("extra.lumos") for d in added)


def test_a_use_anywhere_counts(game):
    # read in a text's {...}, set by a card, looked at by a card's condition, named by a card field,
    # given to pieces
    rules = ("var cheers = 0\n"
             "var last_word = 0\n"
             "zone bench per side public\n"
             "window time_out\n"
             "kinds umpire\n"
             "piece whistle\n"
             "pieces of home:\n"
             "    umpire off\n"
             "procedure shout(s):\n"
             "    log \"{s} shouts {last_word}\"\n"
             "when given(p, h):\n"
             "    shout(p.side)\n")
    card = ("deck: home\n"
            "cards:\n"
            "  - name: Loud Cheer\n"
            "    type: action\n"
            "    colour: offense\n"
            "    threshold: 1\n"
            "    interrupt: true\n"
            "    window: time_out\n"
            "    text: \"x\"\n"
            "    condition: my bench is empty\n"
            "    effect: |\n"
            "      add 1 to cheers\n")

    def edit(rules_dir: Path) -> None:
        _write("extra.lumos", rules)(rules_dir)
        _write("extra.yaml", card, cards=True)(rules_dir)
    added = _added(game, edit)
    assert [d for d in added if d.code == "W310"] == []


# ---------------------------------------------------------------- W311
def test_a_card_of_a_type_no_play_takes_is_reported(game):
    added = _added(game, _write("extra.yaml", SPOT, cards=True))
    assert [(d.code, d.span.line) for d in added] == [("W311", 3)]
    d = added[0]
    assert d.severity == "warning" and d.span.file.endswith("extra.yaml")
    assert "Golden Glimpse" in d.message and "spot" in d.message
    assert '`it.type == "action"` is false for it' in d.hint


def test_an_interrupt_card_whose_window_no_rule_opens_is_reported(game):
    def edit(rules: Path) -> None:
        _write("extra.lumos", "window time_out\n")(rules)
        _write("extra.yaml", INTERRUPT.format(window="time_out"), cards=True)(rules)
    added = _added(game, edit)
    assert [(d.code, d.span.line) for d in added] == [("W311", 3)]   # the card's field uses the window
    assert "no rule passes the window `time_out`" in added[0].hint


def test_playable_cards_are_not_reported(game):
    def edit(rules: Path) -> None:
        _write("extra.yaml", INTERRUPT.format(window="goal_attempt"), cards=True)(rules)
        _write("more.yaml", PLAYABLE, cards=True)(rules)
    assert _added(game, edit) == []


def test_a_card_without_effect_is_data_not_an_unplayable_card(game):
    text = "deck: home\ncards:\n  - name: Quiet Spot\n    type: spot\n    end: south\n"
    assert _added(game, _write("extra.yaml", text, cards=True)) == []


def test_a_play_of_an_unfiltered_card_could_play_any_card(game):
    rules = ("procedure play_top(s):\n"
             "    draw c from s.hand into s.discard\n"
             "    if c is not none:\n"
             "        play c by s\n"
             "when given(p, h):\n"
             "    play_top(p.side)\n")

    def edit(rules_dir: Path) -> None:
        _write("extra.lumos", rules)(rules_dir)
        _write("extra.yaml", SPOT, cards=True)(rules_dir)
    assert [d.code for d in _added(game, edit)] == []


# ---------------------------------------------------------------- through `lumos check`
def test_check_reports_lint_warnings_for_card_files(tmp_path, capsys):
    card = tmp_path / "glimpse.yaml"
    card.write_text(SPOT, encoding="utf-8")
    assert main(["check", "--game", GAME, str(card)]) == 0
    out = capsys.readouterr().out
    assert "W311 warning: card `Golden Glimpse` can never be played" in out
    assert "W310" not in out, "checking card files shows no warning about the base game's rules"
    assert main(["check", "--game", GAME, str(card), "--strict", "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["line"], d["severity"]) for d in diags] == [("W311", 3, "warning")]


def test_check_reports_lint_warnings_of_an_expansion(tmp_path, capsys):
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "expansion.yaml").write_text(f"extends: {GAME}\nname: Glimpses\n", encoding="utf-8")
    (exp / "cards.yaml").write_text(SPOT, encoding="utf-8")
    assert main(["check", str(exp), "--format", "json"]) == 0
    diags = json.loads(capsys.readouterr().out)
    assert [(d["code"], Path(d["path"]).name) for d in diags] == [("W311", "cards.yaml")]


def test_check_of_a_game_folder_reports_unused_declarations(game, capsys):
    (game / "extra.lumos").write_text("window time_out\n", encoding="utf-8")
    assert main(["check", str(game), "--format", "json"]) == 0
    diags = json.loads(capsys.readouterr().out)
    assert ("W310", "extra.lumos", 1, 8) in {(d["code"], Path(d["path"]).name, d["line"], d["column"])
                                              for d in diags}


def test_no_lint_when_the_compiler_finds_errors(game, capsys):
    (game / "extra.lumos").write_text("window time_out\nvar x = 0\nfunction f() = nosuchname\n", encoding="utf-8")
    assert main(["check", str(game), "--format", "json"]) == 1
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert "E201" in codes and not codes & {"W310", "W311"}


# ---------------------------------------------------------------- the catalogue's examples
def _catalogue_examples() -> list[tuple[str, str, str]]:
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), m.group(4)) for m in EXAMPLE.finditer(page)]


def test_the_catalogue_documents_each_lint_code():
    from lumos.compiler.lint import CODES
    assert sorted(code for code, _, _ in _catalogue_examples()) == sorted(CODES)


@pytest.mark.parametrize("code, where, text", _catalogue_examples(), ids=lambda v: v if len(v) == 4 else "")
def test_catalogue_example_gives_its_code(game, code, where, text):
    assert where in ("rules", "card")
    added = _added(game, _write("example.lumos" if where == "rules" else "example.yaml", text,
                                cards=where == "card"))
    assert {d.code for d in added} == {code}, [d.headline() for d in added]


def test_a_card_chosen_at_several_places_is_admitted_by_any(game):
    rules = ("procedure play_spot(s):\n"
             "    may choose c from s.hand where it.type == \"skill\" by s\n"
             "    if c is none:\n"
             "        may choose c from s.hand where it.type == \"spot\" by s\n"
             "    if c is not none:\n"
             "        play c by s\n"
             "when given(p, h):\n"
             "    play_spot(p.side)\n")

    def edit(rules_dir: Path) -> None:
        _write("extra.lumos", rules)(rules_dir)
        _write("extra.yaml", SPOT, cards=True)(rules_dir)
    assert [d.code for d in _added(game, edit)] == []


def test_per_side_declarations_read_and_set_through_attributes_count(game):
    text = "const start_cheers per side = 1, 2\nvar cheers per side = 0\nwhen given(p, h):\n" \
           "    set p.side.cheers = p.side.start_cheers\n"
    added = _added(game, _write("extra.lumos", text))
    assert [d for d in added if d.code == "W310"] == []
