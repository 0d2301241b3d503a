"""Shared zones and the bottom of a deck: `zone NAME shared public|hidden` is one zone for all
sides, read by its plain name; `put X at bottom of ZONE` slides cards under those there.

A tiny game made for the test (no rulebook): a shared deck of four numbered cards and a shared
face-up row; each side has a hand.
"""
from pathlib import Path

import lumos.cards
from lumos.interpreter.engine import GameState

from support.sources import write_game

SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

CARDS = """\
cards:
  - {name: One, type: plain}
  - {name: Two, type: plain}
  - {name: Three, type: plain}
  - {name: Four, type: plain}
"""

GAME = """\
game "Rows"
board "board.yaml"
schema "card.schema.json"
sides red, blue
zone pile shared hidden                  [source: "Cards"]
zone row shared public
zone hand per side owner

flow:
    put cards into pile
    log "pile {pile where true}"
    draw c from pile into row
    put c at bottom of pile
    log "pile {pile where true}; row {count(row)}"
    draw d from pile into red.hand
    put [first(pile), d] at bottom of row
    log "pile {pile where true}; row {row where true}; in {c.name} {c in pile}"
    put row at bottom of pile
    log "pile {pile where true}"
    choose x from pile by blue
    put x into blue.hand
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "rows", {"game.lumos": game_text, "board.yaml": BOARD},
                      cards={"deck.yaml": CARDS}, schema_dir=SCHEMA_DIR)


def test_bottom_of_a_shared_deck(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    logs = [e["event"] for e in state.events if not e["event"].startswith("draws")]
    assert logs == [
        "pile One, Two, Three, Four",
        "pile Four, One, Two, Three; row 0",
        "pile One, Two; row Four, Three; in Four false",   # the list keeps its order at the bottom
        "pile Four, Three, One, Two",
    ]
    assert state.action_labels() == ["Four", "Three", "One", "Two"]


def test_a_shared_zone_is_one_zone_seen_by_all(tmp_path):
    cg, _, _ = make_game(tmp_path)
    state = GameState.new(cg, seed=1, forced="take")
    red, blue = state.observation(0), state.observation(1)
    assert red["zones"]["pile"] == blue["zones"]["pile"] == {"count": 4}
    assert "red pile" not in red["zones"] and "blue row" not in red["zones"]
    assert red["zones"]["row"] == []
    assert red["zones"]["red hand"] == [] and blue["zones"]["red hand"] == {"count": 0}


def test_a_shared_zone_is_not_an_attribute_of_a_side(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace('log "pile {pile where true}"\n', 'log "{red.pile}"\n', 1))
    d = next(d for d in diags if d.code == "E202")
    assert d.message == "a side has no attribute `pile`"


def test_a_shared_zone_has_no_owner(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("zone row shared public", "zone row shared owner"))
    d = next(d for d in diags if d.code == "E210")
    assert d.message == "the shared zone `row` has no owner: it is `public` or `hidden`"
    assert (d.span.line, d.span.col) == (6, 1)


DEAL = """\
game "Rows"
board "board.yaml"
schema "card.schema.json"
sides red, blue
zone pile shared hidden
zone row shared public

procedure deal(r, n) [source: "Cards"]:
    while count(r) < n and pile is not empty:
        draw c from pile into r

flow:
    put cards into pile
    deal(row, 2)
    log "row {count(row)}, pile {count(pile)}"
    end in a draw
"""


def test_a_zone_passed_to_a_procedure_is_counted_afresh(tmp_path):
    """`count(r) < n and ...` with r a parameter holding a zone: its cards change while the
    loop runs, so the test is never remembered (it was, as if r's cards never changed)."""
    cg, diags, _ = make_game(tmp_path, DEAL)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True)
    assert [e["event"] for e in state.events if e["event"].startswith("row")] == ["row 2, pile 2"]
