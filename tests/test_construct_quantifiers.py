"""List constants (lists of lists too), `for x in L`, and the quantifiers `any x in L where C`,
`all x in L where C`, `count x in L where C`: "a line of three" is one line, not an 8-way `or`.

A tiny game made for the test (no rulebook), and the Connect Four of examples/.
"""
from pathlib import Path

from lumos.api import load_position
from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

from support.sources import write_game

ROOT = Path(__file__).resolve().parents[1]

BOARD = """\
name: Square
grid:
  columns: ab
  rows: 2
  links:
    orthogonal: orthogonal
  legend:
    o: {}
  map: |
    o o
    o o
"""

GAME = """\
game "Lists"
board "board.yaml"
sides red, blue
const rows = [[a1, b1], [a2, b2]]
const weights = [3, 1, 4]
const none_yet = []

flow:
    for row in rows:
        log "{row} {count(row)}"
    for each w in weights:
        log "w {w}"
    log "{any w in weights where w > 3} {any w in weights where w > 4} {all w in weights where w > 0}"
    log "{all w in none_yet where w > 0} {any w in none_yet where w > 0} {count w in weights where w >= 3}"
    log "{any r in rows where all s in r where s.row == 2} {count r in rows where a1 in r}"
    log "{weights where any v in weights where v > it}"
    end in a draw
"""


def make(tmp_path, text=GAME):
    return write_game(tmp_path, "lists", {"game.lumos": text, "board.yaml": BOARD})


def events(cg):
    return [e["event"] for e in GameState.new(cg, seed=1, log=True, forced="take").events]


def test_lists_and_quantifiers(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    assert events(cg)[:9] == [
        "a1, b1 2", "a2, b2 2",                  # `for row in rows`: each inner list in turn
        "w 3", "w 1", "w 4",                       # `for each` reads the same
        "true false true",
        "true false 2",                            # `all` of nothing holds; `any` of nothing does not
        "true 1",                                  # nested: a row all of whose spaces are in row 2
        "3, 1",                                    # `it` inside a quantifier is still the outer item
    ]


def _diag(tmp_path, text, code):
    cg, diags, _ = make(tmp_path, text)
    found = [d for d in diags if d.code == code]
    assert found, [d.headline() for d in diags]
    return found[0]


def test_a_quantifier_needs_a_list(tmp_path):
    d = _diag(tmp_path, GAME.replace("{all w in weights where w > 0}", "{all w in 3 where w > 0}"), "E223")
    assert d.message == "`all w in` needs a list or a zone, not a number"
    assert d.hint == "write `all w in LIST where CONDITION`"
    assert (d.span.line, d.span.col) == (13, 82)


def test_a_quantifier_condition_is_a_flag(tmp_path):
    d = _diag(tmp_path, GAME.replace("{count w in weights where w >= 3}", "{count w in weights where w + 1}"), "E203")
    assert d.message == "the condition after `count w in ... where` should be true or false, not a number"


def test_the_items_of_a_list_constant_are_of_one_kind(tmp_path):
    d = _diag(tmp_path, GAME.replace("const weights = [3, 1, 4]", 'const weights = [3, "one", 4]'), "E203")
    assert d.message == "the items of a list are of one kind: a text among numbers"
    assert (d.span.line, d.span.col) == (5, 21)


def test_two_values_for_a_constant_point_at_brackets(tmp_path):
    d = _diag(tmp_path, GAME.replace("const weights = [3, 1, 4]", "const weights = 3, 1, 4"), "E204")
    assert d.hint == "a list is written in brackets: `const weights = [a, b, c]`"


def _connect_four():
    cg, diags, _ = check_game(GameSources("connect-four", ROOT / "examples" / "connect-four", None, None))
    assert cg is not None, [d.headline() for d in diags]
    return cg


def test_connect_four_a_disc_falls_to_the_lowest_empty_space():
    """Connect Four: "A disc dropped in a column falls to the lowest empty space"."""
    cg = _connect_four()
    state = load_position(cg, {"space_vars": {"disc": {"c1": "yellow", "c2": "red"}}})
    state.apply_action(state.option_index(label="drop a disc in column c"))
    assert state.position()["space_vars"]["disc"]["c3"] == "red"


def test_connect_four_a_full_column_is_not_offered():
    cg = _connect_four()
    full = {f"a{r}": ("red" if r % 2 else "yellow") for r in range(1, 7)}
    state = load_position(cg, {"space_vars": {"disc": full}})
    assert "drop a disc in column a" not in [o["label"] for o in state.options()]
    assert len(state.options()) == 6


def test_connect_four_four_in_a_row_wins_across_up_and_diagonally():
    """Connect Four: "Four in a row (across, up or diagonally) wins"."""
    cg = _connect_four()
    shapes = {
        "d": {"a1": "red", "b1": "red", "c1": "red"},                                       # across
        "e": {"e1": "red", "e2": "red", "e3": "red"},                                       # up
        "g": {"d1": "red", "e1": "yellow", "e2": "red", "f1": "yellow", "f2": "yellow",     # diagonally
              "f3": "red", "g1": "yellow", "g2": "yellow", "g3": "yellow"},
    }
    for column, discs in shapes.items():
        state = load_position(cg, {"space_vars": {"disc": discs}})
        assert not state.is_terminal()
        state.apply_action(state.option_index(label=f"drop a disc in column {column}"))
        assert state.is_terminal() and state.returns() == [1, -1], column


def test_connect_four_three_in_a_row_does_not_win():
    cg = _connect_four()
    state = load_position(cg, {"space_vars": {"disc": {"a1": "red", "b1": "red"}}})
    state.apply_action(state.option_index(label="drop a disc in column c"))
    assert not state.is_terminal()


def test_names_that_start_like_a_quantifier_are_names(tmp_path):
    """`counter`, `allowed`, `anyone` are names, not `count`, `all`, `any` and more."""
    text = GAME.replace("const none_yet = []\n", "const none_yet = []\nconst counter = 2\nconst allowed = true\n"
                        "const anyone = [1]\n").replace(
        '    end in a draw', '    log "{counter + count(anyone)} {allowed and count(anyone) == 1}"\n    end in a draw')
    cg, diags, _ = make(tmp_path, text)
    assert cg is not None, [d.headline() for d in diags]
    assert events(cg)[9] == "3 true"
