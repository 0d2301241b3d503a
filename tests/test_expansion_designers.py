"""What designers writing an expansion met without a word from the checker:

- a card of the expansion named like a card of the game it extends (4 of 10 new names clashed
  silently and `lumos explain` showed the base card) is warned about (W321), naming both files;
- `"x" in it.tags` works (`tags` is a list: card.schema.json declares it an array), and an `in`
  whose right side is a text says how a field becomes a list;
- `lumos new card` offers only windows the game's rules declare.

Uses the bundled Snitch Snatcher and Catch the Golden Snitch ("Playing Cards", "Intrepid Moves").
"""
from __future__ import annotations

from pathlib import Path

import yaml

from lumos.api import game_sources
from lumos.cli import main
from lumos.compiler.analysis import declared_windows
from lumos.compiler.game import check_game

CARDS = """\
deck: home
cards:
  - name: Fly  sideways
    type: action
    colour: offense
    threshold: 1
    text: "A second card of that name."
    effect: |
      log "again"
  - name: Quick Feet
    type: action
    colour: offense
    threshold: 1
    tags: [fast]
    text: "Playable while a card of the deck is tagged fast."
    condition: count(cards where "fast" in it.tags) > 0
    effect: |
      log "quick"
"""


def _check(tmp_path, text):
    path = tmp_path / "more.yaml"
    path.write_text(text, encoding="utf-8")
    return check_game(game_sources("snitch-snatcher"), [path])


def test_a_card_named_like_one_of_the_game_is_a_warning_naming_both_files(tmp_path):
    cg, diags, _ = _check(tmp_path, CARDS)
    assert cg is not None, [d.headline() for d in diags]
    [d] = [d for d in diags if d.code == "W321"]
    assert d.severity == "warning"
    # names compare without case or spacing, as within one file (S110)
    assert d.message.startswith(f"card `Fly  sideways` of {tmp_path.name}/more.yaml is already a card of "
                                "snitch-snatcher, in snitch-snatcher/")
    assert Path(d.span.file).name == "more.yaml" and (d.span.line, d.span.col) == (3, 11)
    assert "a name of its own" in d.hint
    # nothing else is reported: the tagged card checks clean
    assert [x.code for x in diags] == ["W321"]


def test_the_game_alone_and_the_bundled_expansions_have_no_clash():
    for folder in ("snitch-snatcher-expansion", "catch-the-golden-snitch-expansion",
                   "catch-the-golden-snitch-stars", "chamber-of-secrets-trivia-expansion"):
        root = Path(__file__).resolve().parents[1] / "examples" / folder
        manifest = yaml.safe_load((root / "expansion.yaml").read_text(encoding="utf-8"))
        files = [root / f for f in manifest["cards"]]
        _cg, diags, _ = check_game(game_sources(manifest["extends"]), files)
        assert "W321" not in {d.code for d in diags}, folder


def test_in_a_text_says_how_a_field_becomes_a_list(tmp_path):
    cg, diags, _ = _check(tmp_path, CARDS.replace('"fast" in it.tags', '"fast" in it.name'))
    [d] = [d for d in diags if d.code == "E203"]
    assert d.message == "`in` needs a list or a zone on its right, not a text"
    assert d.hint == ('a card field is a list when the game\'s schema declares it an array '
                      '(`"type": "array"`, as `tags`); to compare two texts, write `==`')


def test_new_card_names_only_windows_the_rules_declare(capsys):
    """Catch the Golden Snitch's schema gave `action_rolled` as its sample window; the rules open
    `after_roll` (Intrepid Moves > Swift Intrepid Moves)."""
    assert main(["new", "card", "catch-the-golden-snitch", "--type", "tactical"]) == 0
    text = capsys.readouterr().out
    windows = declared_windows(game_sources("catch-the-golden-snitch"))
    named = {w for line in text.splitlines() for w in _backquoted_windows(line)}
    assert "# window: after_roll" in text and named <= set(windows), named - set(windows)


def _backquoted_windows(line: str) -> set[str]:
    import re
    return set(re.findall(r"`(?:window: )?([a-z_]+_[a-z_]+|targeted)`", line)) | \
        set(re.findall(r"# window: ([a-z_]+)", line))


def test_the_games_own_card_written_again_is_more_copies_not_a_clash(tmp_path):
    """The same card (every field alike but `copies`) adds copies of it: nothing to warn about."""
    base = yaml.safe_load((Path(game_sources("snitch-snatcher").cards_dir) / "home.yaml").read_text(encoding="utf-8"))
    card = dict(base["cards"][0], copies=1)
    cg, diags, _ = _check(tmp_path, yaml.safe_dump({"deck": "home", "cards": [card]}, sort_keys=False))
    assert cg is not None and "W321" not in {d.code for d in diags}, [d.headline() for d in diags]
