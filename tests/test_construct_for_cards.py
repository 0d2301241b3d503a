"""Card vocabulary: `function NAME(...) for cards` and `procedure NAME(...) for cards` are
words written for card effects; they are checked like any rule, and not reported as never
used (W301) while no card of the game uses them yet (Catch the Golden Snitch: the Traits of
unique Players, which the box's Player cards do not have, Game Contents).

A tiny game made for the test (no rulebook).
"""
from __future__ import annotations

from pathlib import Path

from lumos.api import load_game
from lumos.compiler.game import GameSources, check_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Words"
board "board.yaml"
sides red, blue
var score per side = 0

function doubled(n) for cards = n * 2
procedure reward(s, n) for cards:
    add doubled(n) to s.score
function unused(n) = n + 1

flow:
    end in a draw
"""


def diagnostics(tmp_path: Path, text: str = GAME):
    rules = tmp_path / "words"
    rules.mkdir(exist_ok=True)
    (rules / "game.lumos").write_text(text)
    (rules / "board.yaml").write_text(BOARD)
    _cg, diags, _ = check_game(GameSources("words", rules, None, None))
    return [(d.code, d.span.line, d.message) for d in diags]


def test_card_vocabulary_is_not_reported_unused_and_the_rest_is(tmp_path):
    assert diagnostics(tmp_path) == [("W301", 9, "function `unused` is never used")]


def test_card_vocabulary_is_still_checked(tmp_path):
    text = GAME.replace("add doubled(n) to s.score", "add doubled(n) to s.scor")
    errors = [d for d in diagnostics(tmp_path, text) if d[0] != "W301"]
    assert errors and all(code == "E202" and line == 8 and "`scor`" in m for code, line, m in errors)


def test_for_cards_is_only_for_procedures_and_functions(tmp_path):
    text = GAME.replace("flow:", "action act for cards:\n    pass\n\nflow:")
    [(code, line, _message)] = diagnostics(tmp_path, text)
    assert (code, line) == ("L100", 11)


def test_the_trait_words_of_catch_the_golden_snitch_are_card_vocabulary():
    """Game Contents: the box's 28 Player cards have no Traits, so no shipped card uses the
    Trait words; the game still checks clean (they are `for cards`)."""
    cg = load_game("catch-the-golden-snitch")
    assert not [c for c in cg.cards if c.type == "player" and c.fields.get("unique")]
