"""Run-time texts agree with their numbers: an option label or a log line with a number hole
reads "1 Galleon", "2 Galleons", as a card's own text would (English is a product; the rules
reference does the same through lumos.reference.phrases.fill).

A tiny game made for the test (no rulebook): red pays 1, 2 or 3 Galleons.
"""
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Purse"
board "board.yaml"
sides red, blue

flow:
    choose n from [1, 2, 3] by red label "pay {n} Galleons ({3 - n} Galleons left)"
    log "red paid {n} Galleons, {n} more Successes; {n} is paid"
    log "round {n}: power {n} points {3 - n}; {n} hits, {n} blocks"
    end in a draw
"""


def play(tmp_path, pick: int):
    cg, diags, _ = write_game(tmp_path, "purse", {"game.lumos": GAME, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=0, log=True, forced="take")
    labels = state.action_labels()
    state.apply_action(pick)
    return labels, [e["event"] for e in state.events]


def test_a_label_reads_singular_after_one_and_plural_after_other_numbers(tmp_path):
    labels, _ = play(tmp_path, 0)
    assert labels == ["pay 1 Galleon (2 Galleons left)", "pay 2 Galleons (1 Galleon left)",
                      "pay 3 Galleons (0 Galleons left)"]


def test_a_log_line_agrees_with_its_number_and_leaves_verbs_alone(tmp_path):
    _, one = play(tmp_path, 0)
    assert "red paid 1 Galleon, 1 more Success; 1 is paid" in one
    _, two = play(tmp_path, 1)
    assert "red paid 2 Galleons, 2 more Successes; 2 is paid" in two


def test_a_plural_word_right_before_another_number_names_that_number(tmp_path):
    """"power {p} points {q}": `points` names the value after it, and stays as written."""
    _, one = play(tmp_path, 0)
    assert "round 1: power 1 points 2; 1 hit, 1 block" in one


ME_GAME = """\
game "Marks"
board "board.yaml"
sides red, blue

action mark:
    with s in spaces
    label "{me} marks {s}"
    log "{me} marked {s}"

flow:
    do one of mark by blue
    end in a draw
"""


def test_me_in_an_action_label_is_the_side_the_option_is_for(tmp_path):
    """docs/language.md: `me` in an action is the acting side; its label and its log say who
    (they used to read "none marks a")."""
    cg, diags, _ = write_game(tmp_path, "marks", {"game.lumos": ME_GAME, "board.yaml": BOARD})
    assert cg is not None, diags
    state = GameState.new(cg, seed=1)
    assert state.action_labels() == ["blue marks a"]
