"""`lumos simulate` reports the games' arc (lumos.analysis.arc): per action, in how many games
each side took it; per numeric side variable that moved, its mean at the end and in how many
games it moved. Snitch Snatcher, "Game Play > Turn Sequence": each turn a team makes pitch
plays (move a player), so nearly every game has moves (a Spot card can end one before any); a
goal ("Goal Attempts & Scoring") adds 10 to the team's score and the Snitch 150, so the points a
side ends with are a multiple of 10."""
from __future__ import annotations

import json

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
