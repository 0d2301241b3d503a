"""Catch the Golden Snitch: the example expansion (examples/catch-the-golden-snitch-expansion)
is checked, simulated and explained like the game's own cards, without touching the game."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "catch-the-golden-snitch-expansion"
GAME = "catch-the-golden-snitch"


def test_the_example_expansion_is_clean(capsys):
    assert main(["check", str(EXAMPLE), "--strict"]) == 0
    assert "Wigtown Wanderers" in capsys.readouterr().out


def test_games_with_the_expansion_complete(capsys):
    """Build Your Team: the expansion's cards join the collection the Coaches build from;
    random games with it (Spectators on) all finish."""
    assert main(["simulate", GAME, "--with", str(EXAMPLE), "-n", "20", "--seed", "3", "--json", "-q",
                 "--option", "spectators=on"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["completed"] == 20 and summary["errors"] == 0


def test_an_expansion_card_is_explained(capsys):
    assert main(["explain", "Quick-Fingered Tess", "--game", GAME, "--with", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "add_successes(1)" in out and "wanderers.yaml" in out


STARS = ROOT / "examples" / "catch-the-golden-snitch-stars"


def test_the_star_players_expansion_is_clean(capsys):
    """Game Contents keeps the box's 28 Player cards; the unique Players with Traits are an
    expansion (Build Your Team: "from their available collection") that checks clean."""
    assert main(["check", str(STARS), "--strict"]) == 0
    assert "Star Players" in capsys.readouterr().out


def test_games_with_the_star_players_complete(capsys):
    """Build Your Team > Galleons: with the Star Players in the collection, Coaches buy unique
    Players within the Funding; random games (Spectators on, a larger Funding) all finish."""
    assert main(["simulate", GAME, "--with", str(STARS), "-n", "20", "--seed", "5", "--json", "-q",
                 "--option", "spectators=on", "--option", "funding=10"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["completed"] == 20 and summary["errors"] == 0


def test_the_api_loads_a_game_with_an_expansion():
    """`lumos.api.load_game(GAME, with_paths)` adds an expansion's cards as `--with` does, so a
    test or a notebook can play them; the game's own cards stay, and a wrong path or an
    expansion of another game is a ValueError that says which."""
    import pytest

    from lumos.api import load_game
    base = load_game(GAME)
    cg = load_game(GAME, [EXAMPLE])
    names = {c.name for c in cg.cards}
    assert "Quick-Fingered Tess" in names and {c.name for c in base.cards} <= names
    assert "Quick-Fingered Tess" not in {c.name for c in base.cards}
    with pytest.raises(ValueError, match="extends `catch-the-golden-snitch`, not `snitch-snatcher`"):
        load_game("snitch-snatcher", [EXAMPLE])
    with pytest.raises(ValueError, match="no expansion or card file"):
        load_game(GAME, [ROOT / "no-such-folder"])
