"""Two constructs of the Chamber of Secrets Trivia Game, on a tiny game made for the test:

- `reach ... exactly N without backtracking`: a walk that may cross itself but never steps
  straight back and never ends where it began ("1. Roll and Move");
- `answer NAME to QUESTION by SIDE chance N`: a question printed on a card, answered right or
  wrong as a weighted chance node that carries the question (never its answer).
"""
from pathlib import Path

import pytest

from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

# A square a-b-c-d-a with a tail d-e.
BOARD = """\
name: Loop
spaces:
  - {name: a, pos: [0, 0]}
  - {name: b, pos: [1, 0]}
  - {name: c, pos: [1, 1]}
  - {name: d, pos: [0, 1]}
  - {name: e, pos: [0, 2]}
links:
  - [a, b, step]
  - [b, c, step]
  - [c, d, step]
  - [d, a, step]
  - [d, e, step]
"""

SCHEMA = """\
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "$id": "https://lumos-games.example/schema/walks.schema.json",
 "type": "object", "properties": {"deck": {"type": "string"}, "cards": {"type": "array", "items": {
   "type": "object", "required": ["name", "type"],
   "properties": {"name": {"type": "string"}, "type": {"type": "string"},
                  "quiz": {"allOf": [{"$ref": "card.schema.json#/$defs/question"}]}},
   "additionalProperties": false}}}}
"""

CARDS = """\
cards:
  - name: Quiz
    type: quiz
    quiz: {ask: "Which is a prime?", choices: ["4", "7", "9"], answer: "7", accept: ["seven"]}
"""

GAME = """\
game "Walks"
board "board.yaml"
schema "walks.schema.json"
sides red, blue
piece token
option red_skill = 70 choices 0, 70, 100
var right = false

function walks(n) = reach from a by step exactly n without backtracking
function paths(n) = reach from a by step exactly n
function walks_avoiding_c(n) = reach from a by step exactly n without backtracking through s where s is not c

flow:
    answer ok to first(cards).quiz by red chance red_skill
    set right = ok
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    rules = tmp_path / "walks"
    rules.mkdir()
    (rules / "game.lumos").write_text(game_text)
    (rules / "board.yaml").write_text(BOARD)
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "quiz.yaml").write_text(CARDS)
    schema = tmp_path / "schema"
    schema.mkdir()
    (schema / "walks.schema.json").write_text(SCHEMA)
    bundled = Path(__file__).resolve().parents[1] / "cards" / "schema" / "card.schema.json"
    (schema / "card.schema.json").write_text(bundled.read_text())
    return check_game(GameSources("walks", rules, cards, schema))


@pytest.fixture()
def game(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None and not [d for d in diags if d.is_error], [d.headline() for d in diags]
    return cg


def test_a_walk_may_cross_itself_but_never_steps_straight_back(tmp_path):
    """1. Roll and Move: 'You cannot end in the space from which you started, nor can you move
    back into a space you just left.' Around the square a-b-c-d (and its tail d-e) a path
    never has 5 steps; a walk of 5 goes round and on (a-b-c-d-a-d is straight back: no)."""
    results = {}
    for expr in ("reach from a by step exactly 5 without backtracking", "reach from a by step exactly 5",
                 "reach from a by step exactly 2 without backtracking",
                 "reach from a by step exactly 4 without backtracking",
                 "reach from a by step exactly 3 without backtracking through s where s is not c",
                 "reach from a by step exactly 2 without backtracking coming from d",
                 "reach from a by step exactly 2 without backtracking coming from none"):
        text = GAME.replace("    answer ok to first(cards).quiz by red chance red_skill\n    set right = ok\n",
                            f"    for each s in {expr.join('()')}:\n        log \"end {{s}}\"\n")
        folder = tmp_path / str(len(results))
        folder.mkdir()
        cg, diags, _ = make_game(folder, text)
        assert cg is not None, [d.headline() for d in diags]
        state = GameState.new(cg, seed=1, log=True)
        results[expr] = {e["event"][4:] for e in state.events if e["event"].startswith("end ")}
    assert results["reach from a by step exactly 2 without backtracking"] == {"c", "e"}      # a-b-c, a-d-c, a-d-e
    assert results["reach from a by step exactly 5 without backtracking"] == {"b", "d"}      # round the square and on
    assert results["reach from a by step exactly 5"] == set()                                # a path has no room for 5
    # a-b-c-d-a and a-d-c-b-a come back to a: never the end; a-b-c-d-e is the one left
    assert results["reach from a by step exactly 4 without backtracking"] == {"e"}
    # every walk of 3 passes c or dead-ends at e
    assert results["reach from a by step exactly 3 without backtracking through s where s is not c"] == set()
    # going on with a walk that arrived at a from d: not back into d first (a-d-c, a-d-e are out)
    assert results["reach from a by step exactly 2 without backtracking coming from d"] == {"c"}
    assert results["reach from a by step exactly 2 without backtracking coming from none"] == {"c", "e"}


def test_an_answer_is_a_weighted_chance_node_that_carries_the_question(game):
    """A question is a chance node 'right answer' / 'wrong answer', weighted by the chance in
    100; the node shows the question and its choices, never the answer."""
    state = GameState.new(game, seed=1)
    assert state.is_chance_node() and state.action_labels() == ["right answer", "wrong answer"]
    assert state.chance_outcomes() == [(0, 0.7), (1, pytest.approx(0.3))]
    q = state.question()
    assert q == {"side": "red", "card": "Quiz", "category": "quiz", "ask": "Which is a prime?",
                 "choices": ["4", "7", "9"]}
    assert state.observation(1)["question"] == q and "answer" not in str(state.observation(1)["question"])
    state.apply_action(state.typed_answer("Seven!"))
    assert state.observation(None)["variables"]["right"] is True
    sure = GameState.new(game, seed=1, options={"red_skill": 100})
    assert sure.chance_outcomes() == [(0, 1.0), (1, 0.0)] and sure.sample_chance() == 0


def test_typed_answers_choose_the_outcome(game):
    state = GameState.new(game, seed=1)
    assert state.typed_answer("2") == 0 and state.typed_answer("b") == 0 and state.typed_answer("7") == 0
    assert state.typed_answer("9") == 1 and state.typed_answer("three") == 1


def test_an_answer_to_what_is_not_a_question_is_refused_at_its_place(tmp_path):
    text = GAME.replace("first(cards).quiz by red chance red_skill", "first(cards).name by red chance \"often\"")
    cg, diags, _ = make_game(tmp_path, text)
    errors = [(d.code, d.span.line, d.span.col, d.message) for d in diags if d.is_error]
    assert errors == [
        ("E203", 14, 18, "the question answered should be a question, not a text"),
        ("E203", 14, 50, "the chance in 100 of a right answer should be a number, not a text"),
    ]


def test_up_to_without_backtracking_is_a_typical_mistake(tmp_path):
    text = GAME.replace("exactly n without backtracking\n", "up to n without backtracking\n", 1)
    cg, diags, _ = make_game(tmp_path, text)
    d = diags[0]
    assert (d.code, d.span.line, d.span.col) == ("L101", 9, 50)
    assert d.message == "`without backtracking` goes with `exactly N`: a walk has an exact length"
