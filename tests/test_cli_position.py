"""`lumos position`: a game's position written out in names, and position files checked.

A test or a bug report starts from a position (docs/language.md, "Positions"); the command
shows one the game writes itself, with the options open there, and checks a written file
with the messages `load_position` gives.
"""
from __future__ import annotations

import yaml

from lumos.api import load_game, load_position
from lumos.cli import main


def test_a_position_at_a_sides_turn_is_written_and_reads_back(capsys, tmp_path):
    """chamber-of-secrets-trivia.txt, "1. Roll and Move": the teams take turns; the position
    at the start of Slytherin's first turn names the Movers, the boxes and whose turn it is,
    and the written YAML (the 64-bit generator state included) reads back to the same position."""
    assert main(["position", "chamber-of-secrets-trivia", "--at", "take_turn", "--current", "slytherin",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    written = yaml.safe_load(out)
    assert written["current"] == "slytherin" and written["pieces"]["slytherin seeker"] == "s_seeker"
    assert "# chance decides here" in out
    path = tmp_path / "spot.yaml"
    path.write_text(out, encoding="utf-8")
    cg = load_game("chamber-of-secrets-trivia")
    assert load_position(cg, path).position() == written
    assert main(["position", "chamber-of-secrets-trivia", str(path)]) == 0
    assert yaml.safe_load(capsys.readouterr().out) == written


def test_the_options_open_at_the_position_follow_as_comments(capsys):
    """defenders-of-hogwarts.txt, "House Player Turn": a House player takes one Main Action:
    Explore, Learn or Replenish; they are the options listed under the position."""
    assert main(["position", "defenders-of-hogwarts", "--option", "house_players=1", "--at", "house_turn"]) == 0
    out = capsys.readouterr().out
    comments = [line for line in out.splitlines() if line.startswith("#")]
    assert comments[0] == "# gryffindor decides here; the options:"
    assert [c.split(". ", 1)[1].split(":")[0] for c in comments[1:]] == ["explore", "learn", "replenish"]


def test_one_sides_position_leaves_out_what_it_cannot_see(capsys):
    """defenders-of-hogwarts.txt, "Game Set Up": each player's deck is shuffled face down; the
    Dark Arts player's own view shows a House's hand only as its size."""
    assert main(["position", "defenders-of-hogwarts", "--option", "house_players=1", "--at", "house_turn",
                 "--for", "dark_arts"]) == 0
    written = yaml.safe_load(capsys.readouterr().out.split("\n#", 1)[0])
    hand = written["zones"]["gryffindor hand"]
    assert isinstance(hand, dict) and set(hand) == {"hidden"}


def test_a_mistake_in_a_position_file_is_shown_at_its_place(capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("options: {house_players: 1}\npieces:\n  gryffindor studnt 1: library\n"
                    "  ravenclaw student 1: library\n", encoding="utf-8")
    assert main(["position", "defenders-of-hogwarts", str(path)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml:3:3: P102 no piece `gryffindor studnt 1`" in err and "did you mean `gryffindor student 1`?" in err
    # "Game Set Up": with one House player the other Houses' components leave the game
    assert "bad.yaml:4:24: P103 `ravenclaw student 1` is a piece of ravenclaw, who is not in this game" in err
    assert "Traceback" not in err


def test_flags_that_belong_in_the_file_are_refused_with_a_file(capsys, tmp_path):
    path = tmp_path / "spot.yaml"
    path.write_text("seed: 1\n", encoding="utf-8")
    assert main(["position", "snitch-snatcher", str(path), "--seed", "3"]) == 2
    assert "write `at:`, `current:`, `seed:` and `options:` in the file" in capsys.readouterr().err
