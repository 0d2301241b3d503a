"""`lumos simulate` reports the games' arc (lumos.analysis.arc): per action, in how many games
each side took it; per numeric side variable that moved, its mean at the end and in how many
games it moved. Snitch Snatcher, "Game Play > Turn Sequence": each turn a team makes pitch
plays (move a player), so nearly every game has moves (a Spot card can end one before any); a
goal ("Goal Attempts & Scoring") adds 10 to the team's score and the Snitch 150, so the points a
side ends with are a multiple of 10."""
from __future__ import annotations

import json

import pytest

from lumos.cli import main


def test_the_summary_counts_actions_and_final_values(capsys):
    assert main(["simulate", "snitch-snatcher", "-n", "12", "--seed", "1", "-q", "--json",
                 "--agents", "greedy"]) == 0
    s = json.loads(capsys.readouterr().out)
    arc = s["arc"]
    moves = arc["actions"]["move_player"]
    assert s["completed"] // 2 < max(moves["home"]["games"], moves["away"]["games"]) <= s["completed"]
    for name, per in arc["final_means"].items():
        assert set(per) == {"home", "away"} and name in arc["final_moved"]
    points = arc["final_means"]["score"]
    assert all(round(mean * s["completed"]) % 10 == 0 for mean in points.values())
    assert sum(arc["final_moved"]["score"].values()) >= 1


def test_the_table_shows_the_arc(capsys):
    assert main(["simulate", "snitch-snatcher", "-n", "3", "-q"]) == 0
    out = capsys.readouterr().out
    assert "the games' arc" in out and "move_player" in out


TALLY = """\
game "Tally"
board "board.yaml"
sides red, blue
var points per side = 0
action score_point:
    label "score a point"
    add 1 to me.points
action wait:
    label "wait"
    pass
statistic "Points" of s = s.points
statistic "Scored" of s counts score_point
statistic "Ahead" of s = s.points > 0
flow:
    do one of score_point, wait by red
    end in a draw
"""


def test_declared_statistics_are_reported_per_side(capsys, tmp_path):
    """A game's `statistic`s (docs/language.md): a value at the end (its mean, the games where it
    was not 0), a count of an action's takings, a flag (the games where it held). In Tally red
    scores one point or waits, once: the three agree game by game, and blue never scores."""
    from support.sources import DOT_BOARD, write_game
    cg, diags, _ = write_game(tmp_path, "tally", {"game.lumos": TALLY, "board.yaml": DOT_BOARD})
    assert cg is not None, diags
    assert main(["simulate", str(tmp_path / "tally"), "-n", "20", "-q", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["arc"]["statistics"]
    assert list(stats) == ["Points", "Scored", "Ahead"]
    assert [stats[t]["kind"] for t in stats] == ["number", "count", "flag"]
    red = {t: stats[t]["sides"]["red"] for t in stats}
    assert 0 < red["Points"]["games"] < 20
    assert red["Points"]["games"] == red["Scored"]["games"] == red["Ahead"]["games"]
    assert red["Points"]["mean"] == red["Scored"]["mean"] == red["Ahead"]["mean"] == red["Points"]["games"] / 20
    assert all(stats[t]["sides"]["blue"]["games"] == 0 for t in stats)
    assert stats["Points"]["any_side"]["games"] == red["Points"]["games"]
    assert all(stats[t]["every_side"]["games"] == 0 for t in stats)   # blue never scores


def test_the_table_shows_the_statistics(capsys):
    """Snitch Snatcher declares its Goals, Passes and whether the Golden Snitch was caught
    ("Goal Attempts & Scoring", "Spot the Golden Snitch"): a Spot card ends most random games,
    and a catch wins, so one side at most catches it in a game."""
    assert main(["simulate", "snitch-snatcher", "-n", "6", "-q"]) == 0
    out = capsys.readouterr().out
    assert "statistics" in out and "Golden Snitch caught" in out and "any side" in out and "every side" in out
    assert main(["simulate", "snitch-snatcher", "-n", "12", "-q", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["arc"]["statistics"]
    caught = stats["Golden Snitch caught"]
    assert sum(s["games"] for s in caught["sides"].values()) == caught["any_side"]["games"] <= 12


def test_a_statistic_counting_an_unknown_action_is_a_positioned_error(tmp_path):
    from support.sources import DOT_BOARD, write_game
    text = TALLY.replace("counts score_point", "counts score_pont")
    cg, diags, files = write_game(tmp_path, "tally", {"game.lumos": text, "board.yaml": DOT_BOARD})
    (d,) = [d for d in diags if d.is_error]
    assert cg is None and d.code == "E291" and "score_pont" in d.message
    row = next(i for i, line in enumerate(text.splitlines()) if "score_pont" in line)
    assert d.span.line == row + 1 and d.span.col == text.splitlines()[row].index("score_pont") + 1
    assert "score_point" in d.hint


@pytest.mark.slow
def test_search_agents_race_both_seekers_and_take_shots(capsys):
    """Catch the Golden Snitch between search agents ("The Snitch Race", "Actions > Shoot",
    "Score a Goal"): both Seekers fly up the Snitch Race in every game, and Shoots are taken
    and Goals scored in some (random agents: a Goal in 1 game of 100). Measured with mcts:50:d0
    on seeds 0-19: Goals in most games (docs/analysis.md; tests/test_mcts.py checks that claim)."""
    assert main(["simulate", "catch-the-golden-snitch", "-n", "20", "-q", "--json", "--agents", "mcts:50:d0"]) == 0
    stats = json.loads(capsys.readouterr().out)["arc"]["statistics"]
    race = stats["Snitch Race steps of the Seeker"]["sides"]
    assert all(per["share"] == 1.0 for per in race.values())
    assert stats["Shoots"]["any_side"]["games"] >= 1 and stats["Goals"]["any_side"]["games"] >= 1
    assert stats["Snitch Race steps of the Seeker"]["every_side"]["games"] == 20
