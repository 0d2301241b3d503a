"""`score of s`: the game's own estimate of a side's standing, used by the greedy agent, and
`lumos simulate --agents` with one agent per seated side.

Defenders of Hogwarts declares a score from its goals (Game Overview: a House Player collects 2
Defence Shields, each for a Library Book, a Parchment Scroll and the Dark Detector or a D.A. Coin);
the tests compare positions that differ in one item.
"""
from __future__ import annotations

import json
from pathlib import Path

import lumos.cards
from lumos.api import load_game, load_position
from lumos.cli import main
from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.agents import GreedyAgent, evaluate
from lumos.interpreter.engine import GameState

GAME = "defenders-of-hogwarts"
SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"
BOARD = "name: Dot\nspaces:\n  - {name: a, pos: [0, 0]}\n"
TINY = """\
game "Points"
board "board.yaml"
sides red, blue
var points per side = 0                          [source: "Points"]
var decoy per side = 0                           [source: "Points"]
SCORE
flow [source: "Points"]:
    loop:
        choose by current:
            option "score":
                add 1 to current.points
            option "decoy":
                add 5 to current.decoy
        set current = other(current)
"""


def tiny(tmp_path: Path, score: str):
    rules = tmp_path / "points"
    rules.mkdir(parents=True)
    (rules / "game.lumos").write_text(TINY.replace("SCORE", score))
    (rules / "board.yaml").write_text(BOARD)
    return check_game(GameSources("points", rules, None, SCHEMA_DIR))


def test_the_greedy_agent_follows_the_games_score(tmp_path):
    """Without `score` the greedy agent counts every number variable (decoy's +5 wins); with it, only
    what the score says."""
    plain, _, _ = tiny(tmp_path / "a", "")
    scored, diags, _ = tiny(tmp_path / "b", 'score of s [source: "Points"] = s.points')
    assert plain.score is None and scored.score is not None, [d.headline() for d in diags]
    for cg, wanted in ((plain, "decoy"), (scored, "score")):
        state = GameState.new(cg, seed=1)
        pick = GreedyAgent(3).choose(state)
        assert state.action_labels()[state.legal_actions().index(pick)] == wanted


def test_a_score_that_is_not_a_number_is_refused(tmp_path):
    """`score of s` must be a number (E203, docs/language.md "How a side stands")."""
    cg, diags, _ = tiny(tmp_path / "t", 'score of s [source: "Points"] = "high"')
    assert cg is None
    found = [d for d in diags if d.code == "E203"]
    assert found and found[0].span.line == 6, [d.headline() for d in diags]


def test_defenders_score_counts_each_item_toward_a_defence_shield():
    """Game Overview > Collecting a Defence Shield: a Library Book, a Parchment Scroll and a D.A.
    Coin each make a House stand better; the Shield itself more than the three."""
    cg = load_game(GAME)
    base = {"game": GAME, "options": {"house_players": 1}, "seed": 2}

    def score(**side_vars) -> float:
        pos = dict(base, side_vars={k: {"gryffindor": v} for k, v in side_vars.items() if k != "book"})
        if side_vars.get("book"):
            pos["zones"] = {"gryffindor book": ["Hogwarts, A History"]}
        return evaluate(load_position(cg, pos), 1)

    nothing = score()
    assert score(book=True) > nothing and score(scrolls=1) > nothing and score(coin=True) > nothing
    assert score(shields=1) > score(book=True, scrolls=1, coin=True)


def test_agents_one_per_seated_side(capsys):
    """Game Set Up: with one House Player the sides are the Dark Arts Player and Gryffindor; the
    summary lists their wins only."""
    args = ["simulate", GAME, "-n", "2", "--seed", "1", "--json", "-q", "--option", "house_players=1"]
    assert main(args + ["--agents", "random,greedy"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agents"] == {"dark_arts": "random", "gryffindor": "greedy"}
    assert set(summary["wins"]) == {"dark_arts", "gryffindor", "draw"}
    assert sum(summary["wins"].values()) == 2
    assert main(args + ["--agents", "random,greedy,random"]) == 2
    assert "one per seated side" in capsys.readouterr().err


def test_greedy_houses_can_win():
    """Game Overview > Hogwarts House Players: with the game's score, greedy House Players collect
    two Defence Shields against a random Dark Arts Player (seeded games: the same every run)."""
    from lumos.interpreter.agents import RandomAgent, agent_seed
    from lumos.interpreter.play import play_game
    cg = load_game(GAME)
    winners = []
    for seed in (1, 2, 3):
        agents = [RandomAgent(agent_seed(seed, 0))] + [GreedyAgent(agent_seed(seed, k)) for k in range(1, 5)]
        r = play_game(cg, agents, seed, options={"house_players": 1})
        assert r.error is None
        winners.append(r.winner)
    assert 1 in winners, winners
