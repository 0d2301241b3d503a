"""Chamber of Secrets Trivia Game: the question cards (schema, positioned errors, the shipped
boxes), typed answers, and `lumos play` asking a person a real question.

Rulebook sections cited in each docstring (rulebooks/chamber-of-secrets-trivia.txt); the
choices of card format are on docs/rulings/chamber-of-secrets-trivia.md.
"""
from __future__ import annotations

import builtins
import io
import re
import sys

import pytest
import yaml

from lumos.api import game_sources, load_game
from lumos.compiler.cards import load_card_file
from lumos.interpreter.questions import is_right, normalise, read_aloud

GAME = "chamber-of-secrets-trivia"
SRC = game_sources(GAME)
SCHEMA = SRC.schema_dir / f"{GAME}.schema.json"
CHOICES = {"quaffle": 2, "keeper": 3, "bludger": 4, "beater": 4}


def shipped_cards() -> list[dict]:
    cards = []
    for path in sorted(SRC.cards_dir.glob("*.yaml")):
        cards += yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
    return cards


def test_every_shipped_card_has_five_questions_with_the_right_choices():
    """Trivia Cards: five questions a card, 2 / 3 / 4 / 4 choices and none for the Golden Snitch,
    and the yellow circle; Game Contents: a box per team (ours: 40 cards, 200 questions each)."""
    cg = load_game(GAME)
    for side in ("gryffindor", "slytherin"):
        assert sum(1 for c in cg.cards if cg.sides[c.deck] == side) == 40
    for c in shipped_cards():
        for category, n in CHOICES.items():
            q = c[category]
            assert len(q["choices"]) == n and q["choices"].count(q["answer"]) == 1, (c["name"], category)
        assert "choices" not in c["snitch"] and c["snitch"]["answer"]
        assert c["circle"] in (0, 1, 2, 3)


def test_the_shipped_questions_are_all_different():
    """Trivia Cards: our own questions, none repeated within a box's card."""
    for c in shipped_cards():
        asks = [c[k]["ask"] for k in ("quaffle", "keeper", "bludger", "beater", "snitch")]
        assert len(set(asks)) == 5, c["name"]


BAD = """\
deck: gryffindor
cards:
  - name: Broken
    type: trivia
    quaffle: {ask: "Q?", choices: ["10", "150"], answer: "Ten"}
    keeper: {ask: "K?", choices: [a, b], answer: a}
    bludger: {ask: "B?", choices: [a, b, c, d], answer: a}
    beater: {ask: "B?", choices: [a, b, c, d], answer: a}
    snitch: {ask: "S?", choices: [a], answer: a}
    circle: 4
"""


def test_a_malformed_question_card_gives_positioned_errors(tmp_path):
    """Trivia Cards: each mistake of a card is reported at its line and column: an answer that
    is not a choice (S111), a wrong number of choices, choices on a Snitch question, a circle
    above 3."""
    path = tmp_path / "broken.yaml"
    path.write_text(BAD, encoding="utf-8")
    cards, diags = load_card_file(path, SCHEMA)
    assert cards == []
    got = [(d.code, d.span.line, d.span.col) for d in diags]
    assert got == [("S111", 5, 58), ("S105", 6, 34), ("S105", 9, 34), ("S105", 10, 13)]
    assert diags[0].message == "the answer `Ten` of `quaffle` is not one of its choices"
    assert diags[2].message == "card `Broken`: field `snitch` `choices` must hold at most 0 items, not 1"


def test_typed_answers_are_compared_without_case_or_punctuation():
    """The Golden Snitch: 'It has no multiple-choice answers': a said answer, compared without
    case or punctuation, with the card's accepted alternatives; with choices, the number or
    letter of a choice counts as its text."""
    snitch = {"ask": "Which ball ends the match?", "answer": "the Golden Snitch", "accept": ["Snitch"]}
    assert is_right(snitch, "The GOLDEN snitch!") and is_right(snitch, "  snitch. ")
    assert not is_right(snitch, "the Quaffle") and not is_right(snitch, "")
    keeper = {"ask": "How many hoops?", "choices": ["two", "three", "four"], "answer": "three"}
    assert is_right(keeper, "2") and is_right(keeper, "b") and is_right(keeper, "Three")
    assert not is_right(keeper, "1") and not is_right(keeper, "4")
    assert normalise("Wingardium  Leviósa!") == "wingardium leviosa"
    assert read_aloud(keeper) == "How many hoops? (1) two (2) three (3) four"


class Typist:
    """Stands in for a person at `lumos play`: it reads what the game printed, picks options
    that bring its Chaser to a Quaffle Space and attempt the question, and types the card's
    answer (in other case and with punctuation), or a wrong one."""

    def __init__(self, out: io.StringIO, right: bool):
        self.out, self.right, self.seen, self.calls = out, right, 0, 0
        self.answers = {c["name"]: c for c in shipped_cards()}

    def __call__(self, prompt: str = "") -> str:
        self.calls += 1
        text = self.out.getvalue()
        new, self.seen = text[self.seen:], len(text)
        answered = "right!" in text or "wrong: the answer was" in text
        if self.calls > 600 or re.search(r"scores a Quaffle|blocks the Quaffle", text) or \
                (answered and re.search(r"^\s+\d+\. move gryffindor", text.split("right!" if self.right else
                                                                          "wrong: the answer was")[-1], re.M)):
            raise EOFError
        if prompt.startswith("your answer"):
            m = re.search(r"your (\w+) question \((.+?)\):", new)
            q = self.answers[m.group(2)][m.group(1)]
            return q["answer"].upper() + "!" if self.right else "certainly not this"
        options = re.findall(r"^\s+(\d+)\. (.*)$", new, re.M)
        for number, label in options:
            if label.startswith("attempt a Quaffle question"):
                return number
        for number, label in options:
            if re.match(r"move gryffindor chaser from \S+ to (b3|c3|f3|g3|b10|c10|f10|g10)$", label):
                return number
        for number, label in options:
            if label.startswith("move gryffindor chaser"):
                return number
        return options[0][0] if options else "1"


@pytest.mark.parametrize("right", [True, False])
def test_play_asks_the_question_and_scores_the_typed_answer(monkeypatch, right):
    """2. Offense: 'Team Two draws a card from their box and reads the appropriate question
    along with all multiple choice answers. Team One attempts to answer.' In `lumos play` the
    person's typed answer decides it: right scores the Quaffle (unless the rival's Keeper
    blocks it), wrong scores nothing and shows the answer."""
    from lumos.cli import main
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(builtins, "input", Typist(out, right))
    assert main(["play", GAME, "--seed", "3", "--as", "gryffindor"]) == 0
    text = out.getvalue()
    assert "your quaffle question (" in text and " (1) " in text    # the question and its two choices
    block = re.search(r"your quaffle question \((.+?)\):\n  (.+)\n   1\. (.+)\n   2\. (.+)\n", text)
    assert block, text[-2000:]
    if right:
        after = text.split("right!")[1]
        assert re.search(r"gryffindor scores a Quaffle|slytherin blocks the Quaffle", after), after[:800]
    else:
        assert "wrong: the answer was" in text
        assert "gryffindor scores a Quaffle" not in text.split("wrong: the answer was")[1]


@pytest.mark.parametrize("advanced", ["off", "on"])
def test_a_logged_game_with_questions_replays(tmp_path, advanced):
    """Determinism: a game's log (seed, options, choices; questions as chance decisions drawn
    by their weights) replays to the same game, line for line."""
    from lumos.interpreter.agents import GreedyAgent, RandomAgent
    from lumos.interpreter.log import replay
    from lumos.interpreter.play import write_game_log
    cg = load_game(GAME)
    path = tmp_path / "game.jsonl"
    write_game_log(cg, path, seed=4, agents=[RandomAgent(1), GreedyAgent(2)], options={"advanced": advanced})
    text = path.read_text(encoding="utf-8")
    assert '"right answer"' in text or '"wrong answer"' in text
    result = replay(cg, path)
    assert result.ok, result.divergence


def test_a_designer_adds_trivia_cards_as_an_expansion(capsys):
    """Game Contents: the boxes of cards; an expansion adds cards to them (the example
    expansion, two cards a box), checked and played like the game's own."""
    import json
    from pathlib import Path
    from lumos.cli import main
    folder = Path(__file__).resolve().parents[1] / "examples" / "chamber-of-secrets-trivia-expansion"
    assert main(["check", str(folder)]) == 0
    assert "ok: Garden and Sky (extends chamber-of-secrets-trivia: 4 cards in 2 files)" in capsys.readouterr().out
    assert main(["simulate", GAME, "-n", "2", "--seed", "1", "--with", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["completed"] == 2


def test_the_trivia_card_example_of_designers_md_checks_clean(tmp_path):
    """docs/designers.md's trivia card is a card the game accepts (Trivia Cards)."""
    from pathlib import Path
    page = (Path(__file__).resolve().parents[1] / "docs" / "designers.md").read_text(encoding="utf-8")
    part = page.split("## Writing trivia cards for the Chamber of Secrets Trivia Game", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", part, re.S).group(1)
    path = tmp_path / "owls.yaml"
    path.write_text(block, encoding="utf-8")
    cards, diags = load_card_file(path, SCHEMA)
    assert [c.name for c in cards] == ["Owl Post 1"] and diags == []


def test_lumos_new_card_gives_a_trivia_card_that_checks(tmp_path, capsys):
    """Trivia Cards: `lumos new card` writes the five questions as mappings (ask, choices,
    answer) and the circle, a card the schema accepts."""
    from lumos.cli import main
    assert main(["new", "card", GAME, "--type", "trivia"]) == 0
    path = tmp_path / "new.yaml"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    cards, diags = load_card_file(path, SCHEMA)
    assert diags == [] and len(cards) == 1 and cards[0].fields["quaffle"]["answer"] == "10"
