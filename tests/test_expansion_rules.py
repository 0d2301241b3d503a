"""Expansions that replace or add rules files (`rules:` in expansion.yaml): a designer
changes a rule of a bundled game from their own folder, without touching the package."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.api import game_sources
from lumos.cli import main
from lumos.cli.common import compile_or_fail

GAME = "snitch-snatcher"
CARD = """\
deck: {side}
cards:
  - name: Deep Run
    type: action
    colour: offense
    threshold: 1
    text: "Log how many of your Chasers stand in the rival half."
    effect: |
      log "{{count(deep_chasers(me))}} deep"
"""
HOUSE_RULES = """\
# A new function for the expansion's cards.
function deep_chasers(s) [source: "Quidditch Players > Chasers"] = chasers(s) where advance(it) > 7
"""


def _expansion(tmp_path: Path, rules: list[str], files: dict[str, str]) -> Path:
    root = tmp_path / "exp"
    root.mkdir()
    lines = ["extends: snitch-snatcher", "name: House Rules", "cards: [home.yaml, away.yaml]"]
    if rules:
        lines.append("rules: [" + ", ".join(rules) + "]")
    (root / "expansion.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for side in ("home", "away"):
        (root / f"{side}.yaml").write_text(CARD.format(side=side), encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_new_rules_file_gives_the_cards_new_words(tmp_path, capsys):
    exp = _expansion(tmp_path, ["house_rules.lumos"], {"house_rules.lumos": HOUSE_RULES})
    assert main(["check", str(exp)]) == 0
    assert main(["simulate", GAME, "--with", str(exp), "-n", "5", "--seed", "1", "--json", "-q"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{"):])["errors"] == 0


def test_without_the_rules_file_the_word_is_unknown(tmp_path, capsys):
    exp = _expansion(tmp_path, [], {"house_rules.lumos": HOUSE_RULES})
    assert main(["check", str(exp)]) == 1
    assert "E205 unknown function `deep_chasers`" in capsys.readouterr().out


def test_a_rules_file_of_the_same_name_replaces_the_games(tmp_path, capsys):
    """The expansion's cards.lumos (the game's, plus a function) is read instead of the game's:
    the card using the new function checks clean, and the game's file is not read twice."""
    shipped = game_sources(GAME).rules_dir / "cards.lumos"
    changed = shipped.read_text(encoding="utf-8") + "\n" + HOUSE_RULES
    exp = _expansion(tmp_path, ["cards.lumos"], {"cards.lumos": changed})
    cg, src = compile_or_fail(GAME, [str(exp)])
    assert exp / "cards.lumos" in src.rules_files() and shipped not in src.rules_files()
    assert main(["check", str(exp), "--strict"]) == 0
    assert "E206" not in capsys.readouterr().out     # nothing declared twice


def test_a_mistake_in_an_expansion_rules_file_is_reported_there(tmp_path, capsys):
    exp = _expansion(tmp_path, ["house_rules.lumos"], {"house_rules.lumos": HOUSE_RULES.replace("> 7", "> ")})
    assert main(["check", str(exp)]) == 1
    out = capsys.readouterr().out
    assert f"{exp / 'house_rules.lumos'}:2:".replace(str(Path.cwd()) + "/", "") in out or "house_rules.lumos:2:" in out


def test_manifest_rules_must_be_existing_lumos_files(tmp_path, capsys):
    exp = _expansion(tmp_path, ["house_rule.lumos", "notes.txt"], {"house_rules.lumos": HOUSE_RULES})
    assert main(["check", str(exp), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    found = {(d["code"], d["line"], d["column"]) for d in diags}
    assert ("E100", 4, 9) in found and ("S103", 4, 27) in found
    assert next(d for d in diags if d["code"] == "E100")["hint"] == "did you mean `house_rules.lumos`?"


def test_the_reference_of_a_game_with_the_expansion_shows_its_rules(tmp_path):
    """`lumos docs --with EXPANSION`: the expansion's own rules file is in the reference."""
    from lumos.reference.model import game_doc
    from lumos.reference.writer import game_rst
    exp = _expansion(tmp_path, ["house_rules.lumos"], {"house_rules.lumos": HOUSE_RULES})
    doc = game_doc(GAME, tmp_path, [str(exp)])
    text = "\n".join(game_rst(doc, GAME))
    assert "deep_chasers" in text and "Deep Run" in text
