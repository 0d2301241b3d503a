"""Lists that grow and shrink: `add x to items` puts x (or every item of a list or zone x) at the
end of a list named by `let`; `subtract x from items` takes out the first item equal to x (for a
list, one per item). Made for dice pools: keep some dice, reroll the others.

A tiny game made for the test (no rulebook): a side rolls three dice, may reroll each blank once.
"""
from pathlib import Path

from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Rerolls"
board "board.yaml"
sides red, blue
die orange faces "hit", "blank", "block"

flow:
    roll results with 3 orange by red
    let rerolled = []
    loop:
        may choose f from results where it == "blank" by red label "reroll a {f}"
        if f is none:
            stop
        subtract f from results
        roll again with orange by red
        add again to rerolled
        if again != "blank":
            add again to results
    log "kept {results}; rerolled {rerolled}"
    let both = results
    add rerolled to both
    subtract ["hit", "hit", "wild"] from both
    log "both {both}; {count(both)}"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "rerolls", {"game.lumos": game_text, "board.yaml": BOARD})


def test_keep_some_dice_and_reroll_the_others(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    for face in (1, 0, 1):                      # blank, hit, blank
        state.apply_action(face)
    # the two blanks are one option: rerolling either does the same (options as data)
    assert state.action_labels() == ["reroll a blank", "do not choose"]
    state.apply_action(0)
    state.apply_action(2)                       # the reroll gives a block
    state.apply_action(0)
    state.apply_action(1)                       # ... and then a blank: it is left out
    assert state.is_terminal()
    texts = [e["event"] for e in state.events]
    assert "kept hit, block; rerolled block, blank" in texts
    assert "both block, block, blank; 3" in texts


def error(tmp_path, old, new, code):
    cg, diags, _ = make_game(tmp_path, GAME.replace(old, new, 1))
    assert cg is None
    return next(d for d in diags if d.code == code)


def test_the_item_must_be_of_the_list_kind(tmp_path):
    d = error(tmp_path, "add again to rerolled", "add 3 to results", "E203")
    assert d.message == "cannot add a number to a list of texts"
    assert (d.span.line, d.span.col) == (15, 13)


def test_only_a_list_named_by_let_grows(tmp_path):
    d = error(tmp_path, "add again to rerolled", "add red to sides", "E206")
    assert d.message == "only a list named by `let` can grow or shrink"
    assert (d.span.line, d.span.col) == (15, 20)


def test_numbers_still_add_as_before(tmp_path):
    d = error(tmp_path, '    end in a draw', '    let n = 1\n    add "x" to n\n    end in a draw', "E203")
    assert d.message == "the amount should be a number, not a text"


FIRST_LAST = """\
game "Ends"
board "board.yaml"
schema "card.schema.json"
sides red, blue
zone pile shared public
flow:
    let xs = [3, 5, 8]
    log "first {first(xs)} last {last(xs)} none {last(xs where it > 9)}"
    put cards where it.name != "Zero" into pile
    draw top from pile into pile
    log "top {last(pile)} bottom {first(pile)} drawn {top}"
    end in a draw
"""


def test_last_is_the_end_of_a_list_and_the_top_of_a_zone(tmp_path):
    """`last(L)`: the last item of a list; of a zone, its top card — the one `draw` takes."""
    rules = tmp_path / "ends"
    rules.mkdir()
    (rules / "game.lumos").write_text(FIRST_LAST)
    (rules / "board.yaml").write_text(BOARD)
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "c.yaml").write_text("cards:\n  - {name: One, type: x}\n  - {name: Two, type: x}\n  - {name: Three, type: x}\n")
    schemas = Path(__file__).resolve().parents[1] / "cards" / "schema"
    cg, diags, _ = check_game(GameSources("ends", rules, cards, schemas))
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    texts = [e["event"] for e in state.events]
    assert "first 3 last 8 none none" in texts
    assert "top Three bottom One drawn Three" in texts


LEARNS = """\
game "Learns"
board "board.yaml"
sides red, blue
procedure pick():
    let found = none
    for each s in sides:
        set found = s
    return found
flow:
    let w = pick()
    log "picked {w}"
    win w
"""


def test_a_name_that_starts_as_none_learns_the_kind_it_is_set_to(tmp_path):
    """`let found = none` then `set found = s`: the value is a side from then on, so the
    procedure returns a side and `log` writes its name (not a number)."""
    cg, diags, _ = make_game(tmp_path, LEARNS)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert "picked blue" in [e["event"] for e in state.events]
