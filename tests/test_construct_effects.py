"""Several effects on one card: a card field named `..._effect` holds statements, like `effect`,
and `play CARD.NAME_effect by SIDE` runs them (a card without that field does nothing). Made for
cards whose text has parts chosen by the rules (Rushed / Fast / Perfect Impulses).

A tiny game made for the test (no rulebook), with its own small card schema.
"""
from pathlib import Path

from lumos.compiler.game import GameSources
from lumos.interpreter.engine import GameState

from support.sources import DOT_BOARD, card_schema, write_game

BOARD = DOT_BOARD

SCHEMA = card_schema("impulses", {"copies": {"type": "integer"}, "effect": {"type": "string"}, "fast_effect": {"type": "string"}, "slow_effect": {"type": "string"}})

CARDS = """\
cards:
  - name: Gust
    type: impulse
    effect: |
      add 1 to me.speed
    fast_effect: |
      add 10 to me.speed
      log "{card.name} fast for {me}"
  - name: Calm
    type: impulse
"""

GAME = """\
game "Impulses"
board "board.yaml"
schema "impulses.schema.json"
sides red, blue
zone deck shared public
var speed per side = 0

flow:
    put cards into deck
    for each c in deck:
        play c by red
        play c.fast_effect by blue
        play fast_effect of c by blue
        play c.slow_effect by red
    log "{red.speed} {blue.speed}"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME, cards_text: str = CARDS):
    return write_game(tmp_path, "imp", {"game.lumos": game_text, "board.yaml": BOARD},
                      cards={"impulses.yaml": cards_text}, schemas={"impulses.schema.json": SCHEMA})


def test_play_a_named_effect_of_a_card(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    texts = [e["event"] for e in state.events]
    assert texts == ["Gust fast for blue", "Gust fast for blue", "1 20", "the game ends in a draw"]


def test_errors_in_a_named_effect_point_into_the_yaml(tmp_path):
    cg, diags, _ = make_game(tmp_path, cards_text=CARDS.replace("add 10 to me.speed", "add 10 to me.sped"))
    assert cg is None
    d = next(d for d in diags if d.code == "E202")
    assert d.message.startswith("a side has no attribute `sped`")
    assert d.span.file.endswith("impulses.yaml") and (d.span.line, d.span.col) == (7, 17)


def test_playing_an_effect_field_the_schema_does_not_have(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("play c.slow_effect", "play c.slw_effect"))
    d = next(d for d in diags if d.code == "E202")
    assert d.message == "a card has no attribute `slw_effect`"
    assert d.hint == "did you mean `slow_effect`?"
    assert (d.span.line, d.span.col) == (14, 14)


def test_the_reference_shows_each_named_effect(tmp_path):
    from lumos.reference import GameDoc, game_rst
    make_game(tmp_path)
    doc = GameDoc(GameSources("imp", tmp_path / "imp", tmp_path / "cards", tmp_path / "schema"))
    text = "\n".join(game_rst(doc, "imp"))
    assert "**Fast effect** (``play card.fast_effect``), as written:" in text
    assert ":fast_effect:" not in text    # not listed again among the card's data
    assert "``blue`` plays the fast effect of *c*." in text   # the English of `play c.fast_effect by blue`
