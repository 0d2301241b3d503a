"""Catch the Golden Snitch, "Build Your Team": the team files of examples/teams/ against the
rules of rules/catch-the-golden-snitch/team.lumos, each broken rule at its line of the file,
and games started with team files.

The placeholder cards of the game cost nothing and have no unique names nor Spectators, so
the tests of Funding, Unique Names and Spectators add a few cards of their own (as an
expansion would).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from lumos.api import game_sources
from lumos.cli import main
from lumos.compiler.game import check_game
from lumos.compiler.teams import check_team_file, check_teams, team_schema
from lumos.interpreter.engine import GameState

GAME = "catch-the-golden-snitch"
ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "examples" / "teams"
HOUSES = ("gryffindor", "slytherin", "ravenclaw", "hufflepuff")

EXTRA_CARDS = """\
cards:
  - {name: Harry Potter, type: player, position: seeker, affiliation: [gryffindor], cost: 2, unique: true}
  - {name: Oliver Wood, type: player, position: keeper, affiliation: [gryffindor], cost: 4, unique: true}
  - name: Fervent Fan
    type: spectator
    free: true
    copies: 2
    stands: [magic]
    effect: |
      pass
    rival_effect: |
      pass
    text: "Cheers for anyone."
  - name: Harry Potter Fan
    type: spectator
    affiliation: [gryffindor]
    cost: 1
    copies: 4
    stands: [magic]
    effect: |
      pass
    rival_effect: |
      pass
    text: "Cheers for Gryffindor."
"""

# another file: a Spectator may have the name of a Player ("As a Player, or as a Spectator")
MORE_CARDS = """\
cards:
  - name: Harry Potter
    type: spectator
    affiliation: [gryffindor]
    cost: 1
    unique: true
    stands: [magic]
    effect: |
      pass
    rival_effect: |
      pass
    text: "The Boy Who Lived, in the stands."
"""


@pytest.fixture(scope="module")
def game():
    cg, diags, _ = check_game(game_sources(GAME))
    assert cg is not None, [d.headline() for d in diags if d.is_error]
    return cg


@pytest.fixture(scope="module")
def game_plus(tmp_path_factory):
    """The game with a few cards of our own: costs, unique names, Spectators."""
    folder = tmp_path_factory.mktemp("extra")
    (folder / "extra.yaml").write_text(EXTRA_CARDS)
    (folder / "more.yaml").write_text(MORE_CARDS)
    cg, diags, _ = check_game(game_sources(GAME), extra_cards=[folder / "extra.yaml", folder / "more.yaml"])
    assert cg is not None, [d.headline() for d in diags if d.is_error]
    return cg


def problems(cg, tmp_path, text: str) -> list[tuple]:
    path = tmp_path / "team.yaml"
    path.write_text(text)
    return [(d.code, d.span.line, d.span.col, d.message) for d in check_team_file(cg, path)[1]]


def house_team(house: str) -> str:
    return (TEAMS / f"{house}.yaml").read_text()


@pytest.mark.parametrize("house", HOUSES)
def test_each_example_team_keeps_the_rules(game, house):
    """Build Your Team: 1 Keeper, 2 Beaters, 3 Chasers, 1 Seeker; 15 Tactical cards; Affiliation."""
    team, diags = check_team_file(game, TEAMS / f"{house}.yaml")
    assert diags == [], [d.headline() for d in diags]
    assert team.fields == {"house": house, "funding": 5}
    assert [len(team.groups[g]) for g in ("players", "tactical", "spectators")] == [7, 15, 0]


def test_the_broken_example_reports_each_mistake_at_its_line(game):
    """Build Your Team > Galleons: the composition, the Affiliation and the 15-card deck."""
    _, diags = check_team_file(game, TEAMS / "broken.yaml")
    assert [(d.code, d.span.line, d.span.col, d.message) for d in diags] == [
        ("T110", 8, 1, "a Team has exactly 3 Chasers, not 2"),
        ("T110", 11, 5, "Slytherin Beater cannot play for gryffindor: its Affiliation is slytherin"),
        ("T110", 14, 1, "the Tactical deck must hold 15 cards, not 5"),
    ]
    assert diags[0].hint == "a rule of catch-the-golden-snitch: team.lumos line 17"


def test_composition(game, tmp_path):
    """Build Your Team > Galleons: "Teams must always have: 1 Keeper, 1 Seeker, 2 Beaters and 3 Chasers"."""
    text = house_team("gryffindor").replace("  - Gryffindor Seeker\n", "  - Gryffindor Keeper\n")
    assert problems(game, tmp_path, text) == [
        ("T103", 14, 5, "not enough copies of `Gryffindor Keeper` for 1 more: the game has 1, "
                        "this team already holds 1")]
    text = house_team("gryffindor").replace("  - Gryffindor Seeker\n", "")
    assert problems(game, tmp_path, text) == [("T110", 9, 1, "a Team has exactly 1 Seeker, not 0")]


def test_the_tactical_deck_holds_15_cards(game, tmp_path):
    """Build Your Team > Galleons: "The Tactical card deck must always contain 15 cards"."""
    text = house_team("ravenclaw").replace("  - Sapphire Shield\n", "")
    assert problems(game, tmp_path, text) == [("T110", 15, 1, "the Tactical deck must hold 15 cards, not 14")]


def test_affiliation_of_tactical_cards(game, tmp_path):
    """Build Your Team > Galleons: "Only the Teams listed may purchase these elements"."""
    text = house_team("hufflepuff").replace("  - Sunny Chase\n", "  - Tight Marking\n")
    assert problems(game, tmp_path, text) == [
        ("T110", 30, 5, "Tight Marking is not a Tactical card of hufflepuff: its Affiliation is slytherin")]


def test_an_unknown_card_name_suggests_the_closest(game, tmp_path):
    """Player Cards: a card of the team is a card of the game."""
    text = house_team("slytherin").replace("  - Slytherin Seeker\n", "  - Slytherin Seker\n")
    diags = problems(game, tmp_path, text)
    assert diags == [("T101", 14, 5, "catch-the-golden-snitch has no card `Slytherin Seker`")]
    path = tmp_path / "team.yaml"
    assert check_team_file(game, path)[1][0].hint == "did you mean `Slytherin Seeker`?"


def test_a_tactical_card_among_the_players(game, tmp_path):
    """Player Cards: the Players of a team are Player cards."""
    text = house_team("slytherin").replace("  - Slytherin Seeker\n", "  - Serpent's Snatch\n")
    assert problems(game, tmp_path, text) == [
        ("T102", 14, 5, "`Serpent's Snatch` (tactical) cannot be one of `players`")]


def test_a_house_that_is_none_of_the_four(game, tmp_path):
    """Prepare to Play > Team Selection: a Coach picks one of the four Houses."""
    text = house_team("gryffindor").replace("house: gryffindor", "house: durmstrang")
    assert [p[:3] for p in problems(game, tmp_path, text)] == [("S104", 7, 8)]


def test_funding(game_plus, tmp_path):
    """Build Your Team > Galleons: "you may never exceed the Funding value"."""
    text = house_team("gryffindor").replace("  - Gryffindor Keeper\n", "  - Oliver Wood\n") \
        .replace("  - Gryffindor Seeker\n", "  - Harry Potter\n")
    assert problems(game_plus, tmp_path, text) == [
        ("T110", 8, 1, "the Team costs 6 Galleons, more than its Funding of 5")]
    assert problems(game_plus, tmp_path, text.replace("funding: 5", "funding: 6")) == []


def test_spectators(game_plus, tmp_path):
    """Optional Rules > Spectators: a free Fervent Fan, and up to 2 Spectators bought with Galleons."""
    text = house_team("gryffindor") + "spectators:\n  - Fervent Fan\n  - {card: Harry Potter Fan, copies: 3}\n"
    assert problems(game_plus, tmp_path, text.replace("funding: 5", "funding: 9")) == [
        ("T110", 31, 1, "a Coach may buy at most 2 Spectators, not 3")]
    text = text.replace("Fan, copies: 3", "Fan, copies: 2")
    assert problems(game_plus, tmp_path, text) == []
    assert "Harry Potter Fan does not cheer for slytherin: its Affiliation is gryffindor" in [
        p[3] for p in problems(game_plus, tmp_path, text.replace("house: gryffindor", "house: slytherin")
                               .replace("Gryffindor", "Slytherin"))]


def test_unique_names(game_plus, tmp_path):
    """Build Your Team > Unique Names: one Harry Potter in a Team, as a Player or as a Spectator."""
    text = house_team("gryffindor").replace("  - Gryffindor Seeker\n", "  - Harry Potter\n") \
        + "spectators:\n  - Harry Potter\n"
    assert problems(game_plus, tmp_path, text) == [
        ("T110", 14, 5, "Harry Potter may be in a Team only once, as a Player or as a Spectator"),
        ("T110", 32, 5, "Harry Potter may be in a Team only once, as a Player or as a Spectator"),
    ]


def test_a_game_starts_with_the_teams_of_the_files(game):
    """Setup: the Coaches' Teams are in play; the set-up does not build them again."""
    teams, diags = check_teams(game, {"home": TEAMS / "slytherin.yaml", "away": TEAMS / "hufflepuff.yaml"})
    assert diags == []
    state = GameState.new(game, seed=3, teams=teams, forced="take")
    st = state.st
    for side, house in ((0, "slytherin"), (1, "hufflepuff")):
        assert st.sv[game.side_var_names.index("house")][side] == house
        roster = [game.cards[c].name for c in st.zones[game.zone_id("roster", side)]]
        assert sorted(set(roster)) == sorted(f"{house.capitalize()} {p}" for p in
                                             ("Keeper", "Beater", "Chaser", "Seeker"))
        assert all(house in game.cards[c].fields["affiliation"]
                   for zone in ("tactical_deck", "hand") for c in st.zones[game.zone_id(zone, side)])
    assert not any("coach" in label for label in state.action_labels())


def test_the_schema_of_team_files_is_current(game):
    """examples/teams/*.team.schema.json is `lumos schema GAME --team --no-names`."""
    written = json.loads((TEAMS / f"{GAME}.team.schema.json").read_text())
    assert written == team_schema(game, names=False)
    assert "Gryffindor Keeper" in team_schema(game)["properties"]["players"]["items"]["anyOf"][0]["enum"]


def test_lumos_check_and_simulate_with_team_files(capsys):
    """The tools: `lumos check` tells team files by `team:`; `simulate --team SIDE=FILE` uses them."""
    assert main(["check", str(TEAMS / "gryffindor.yaml")]) == 0
    assert capsys.readouterr().out == f"ok: 1 team file against {GAME}\n"
    assert main(["check", "--game", GAME, str(TEAMS)]) == 1
    out = capsys.readouterr().out
    assert "broken.yaml:8:1: T110 a Team has exactly 3 Chasers, not 2" in out
    assert "3 errors" in out
    assert main(["simulate", GAME, "-n", "1", "-q", "--json", "--max-decisions", "50",
                 "--team", f"home={TEAMS / 'ravenclaw.yaml'}"]) == 0
    assert json.loads(capsys.readouterr().out)["teams"] == {"home": str(TEAMS / "ravenclaw.yaml")}
    assert main(["simulate", GAME, "-n", "1", "-q", "--team", f"away={TEAMS / 'broken.yaml'}"]) == 1
    assert "T110" in capsys.readouterr().err
    assert main(["simulate", GAME, "-n", "1", "-q", "--team", "nobody=x.yaml"]) == 2


def test_the_language_server_checks_team_files_with_unsaved_text():
    """`lumos lsp`: a team file's problems (its game found by `game:`), the editor's text first."""
    from lumos.editor.lsp import check_file
    path = TEAMS / "broken.yaml"
    found = check_file(path)
    assert [d.code for d in found[str(path.resolve())]] == ["T110", "T110", "T110"]
    text = path.read_text().replace("Slytherin Beater", "Gryffindor Beater")
    found = check_file(path, overlays={str(path): text})
    assert [d.message for d in found[str(path.resolve())]] == [
        "a Team has exactly 3 Chasers, not 2", "the Tactical deck must hold 15 cards, not 5"]
    assert check_file(TEAMS / "gryffindor.yaml") == {str((TEAMS / "gryffindor.yaml").resolve()): []}


def test_both_coaches_have_the_same_funding(game, tmp_path):
    """Build Your Team > Galleons: "Each Coach has an identical Funding limit": team files
    given together with different Funding are refused (T111) at the later file's `funding:`."""
    away = tmp_path / "slytherin.yaml"
    away.write_text((TEAMS / "slytherin.yaml").read_text().replace("funding: 5", "funding: 7"))
    teams, diags = check_teams(game, {"home": TEAMS / "gryffindor.yaml", "away": away})
    assert teams is None
    assert [(d.code, d.span.file, d.span.line) for d in diags] == [("T111", str(away), 8)]
    assert diags[0].message.startswith("`funding` is 7 here but 5 in home's team (gryffindor.yaml)")
    same, diags = check_teams(game, {"home": TEAMS / "gryffindor.yaml", "away": TEAMS / "slytherin.yaml"})
    assert diags == [] and same is not None
