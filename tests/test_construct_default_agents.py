"""`default agents: ...`: the agents a game is played by when a command is not told which
(docs/language.md, "Who plays by default"): `lumos simulate` and `lumos balance` seat them without
`--agents`; `--agents` still wins; a game without the declaration keeps random agents. Its near
misses are positioned errors E280-E283 (docs/errors.md).

Defenders of Hogwarts declares `default agents: greedy` (random House Players never collect a
Shield: Game Overview > Hogwarts House Players).
"""
from __future__ import annotations

import json

import pytest

from lumos.api import load_game
from lumos.cli import main
from support.sources import DOT_BOARD, write_game

RACE = """\
game "Race"
board "board.yaml"
sides red, blue
var points per side = 0                          [source: "Points"]
DEFAULT
flow [source: "Points"]:
    loop:
        choose by current:
            option "score":
                add 1 to current.points
            option "wait":
                pass
        if current.points >= 3:
            win current
        set current = other(current)
"""


def race(tmp_path, line: str):
    cg, diags, _ = write_game(tmp_path, "race", {"game.lumos": RACE.replace("DEFAULT", line),
                                                 "board.yaml": DOT_BOARD})
    return cg, [d for d in diags if d.severity == "error"]


def simulate(capsys, path, *extra) -> dict:
    assert main(["simulate", str(path), "-n", "3", "--seed", "1", "--json", "-q", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_default_agent_seats_every_side(tmp_path, capsys):
    cg, errors = race(tmp_path, "default agents: greedy")
    assert errors == [] and cg.default_agents == ("greedy", "greedy")
    assert simulate(capsys, tmp_path / "race")["agents"] == {"red": "greedy", "blue": "greedy"}


def test_one_default_agent_per_side_and_agents_flag_wins(tmp_path, capsys):
    cg, errors = race(tmp_path, 'default agents: random, "mcts:5"')
    assert errors == [] and cg.default_agents == ("random", "mcts:5")
    assert simulate(capsys, tmp_path / "race")["agents"] == {"red": "random", "blue": "mcts:5"}
    assert simulate(capsys, tmp_path / "race", "--agents", "greedy")["agents"] == {"red": "greedy", "blue": "greedy"}


def test_without_the_declaration_random_plays(tmp_path, capsys):
    cg, errors = race(tmp_path, "")
    assert errors == [] and cg.default_agents is None
    assert simulate(capsys, tmp_path / "race")["agents"] == {"red": "random", "blue": "random"}


@pytest.mark.parametrize("line, code, col, words", [
    ("default agents: greedie", "E280", 17, "did you mean `greedy`?"),
    ('default agents: "greedy:3"', "E280", 17, "no parameters"),
    ("default agents: random, greedy, random", "E281", 1, "3 default agents for 2 sides"),
    ("default agents: greedy\ndefault agents: random", "E282", 1, "already says its default agents on line 5"),
    ("default agent: greedy", "E283", 1, "`default agents:` (plural)"),
])
def test_near_misses_are_positioned_errors(tmp_path, line, code, col, words):
    cg, errors = race(tmp_path, line)
    assert cg is None and [d.code for d in errors] == [code]
    d = errors[0]
    assert d.span.line == (6 if code == "E282" else 5) and d.span.col == col
    assert words in d.message + " " + (d.hint or "")


def test_defenders_is_played_by_greedy_agents_by_default():
    """Game Overview: with the game's score the greedy agents play both the Dark Arts Player and the
    House Players; the other games keep random agents."""
    assert load_game("defenders-of-hogwarts").default_agents == ("greedy",) * 5
    for game in ("snitch-snatcher", "catch-the-golden-snitch", "chamber-of-secrets-trivia"):
        assert load_game(game).default_agents is None
