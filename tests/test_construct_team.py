"""Team files: a game's `team:` block says what a team file (YAML) holds — `field`s, and `group`s
of cards put into a zone of the side — and the rules a team must keep (`require`). `lumos check`
reports each broken rule at the line of the team file it concerns; a game started with team
files has their cards in its zones and their fields as side attributes before `setup` runs.
Made for "Build Your Team" of Catch the Golden Snitch (budget, composition, affiliation,
unique names, deck size).

A tiny game made for the test (no rulebook): two sides pick a small team of runners and tricks.
"""
import json
from pathlib import Path

import pytest

from lumos.compiler.game import GameSources
from lumos.compiler.teams import check_team_file, check_teams, looks_like_team_file, team_schema
from lumos.interpreter.engine import GameState

from support.sources import DOT_BOARD, card_schema, write_game

BOARD = DOT_BOARD

SCHEMA = card_schema("pocket", {"copies": {"type": "integer"}, "position": {"enum": ["keeper", "chaser"]}, "affiliation": {"type": "array", "items": {"type": "string"}}, "cost": {"type": "integer"}, "unique": {"type": "boolean"}})

CARDS = """\
cards:
  - {name: Red Keeper, type: player, position: keeper, affiliation: [red], cost: 0, copies: 2}
  - {name: Red Chaser, type: player, position: chaser, affiliation: [red], cost: 0, copies: 3}
  - {name: Blue Keeper, type: player, position: keeper, affiliation: [blue], cost: 0}
  - {name: Blue Chaser, type: player, position: chaser, affiliation: [blue], cost: 0, copies: 2}
  - {name: Star, type: player, position: chaser, affiliation: [red, blue], cost: 2, unique: true, copies: 2}
  - {name: Dash, type: trick, affiliation: [red, blue], cost: 0, copies: 6}
  - {name: Feint, type: trick, affiliation: [blue], cost: 1, copies: 2}
"""

GAME = """\
game "Pocket League"
board "board.yaml"
schema "pocket.schema.json"
sides home, away
zone roster per side public
zone tricks per side hidden

team:
    field colour: text choices "red", "blue"
    field funding: number = 2
    group runners into roster where it.type == "player"
    group tricks into tricks where it.type == "trick"
    require count(runners where it.position == "keeper") == 1 else "a team has 1 keeper, not {count(runners where it.position == \\"keeper\\")}"
    require count(runners where it.position == "chaser") == 2 else "a team has 2 chasers, not {count(runners where it.position == \\"chaser\\")}" at runners
    require count(tricks) == 3 else "the tricks must be 3 cards, not {count(tricks)}"
    require sum(runners.cost) + sum(tricks.cost) <= funding else "the team costs {sum(runners.cost) + sum(tricks.cost)}, more than {funding}" at funding
    require each c in runners: colour in c.affiliation else "{c} cannot play for {colour}"
    require each c in runners where it.unique: count(runners where it.name == c.name) == 1 else "only one {c} in a team"

setup:
    for each s in sides:
        if s.roster is empty:
            set s.colour = if s == home then "red" else "blue"
            for each c in cards where it.type == "player" and s.colour in it.affiliation and it.cost == 0:
                if count(s.roster where it.name == c.name) < 1 or c.position == "chaser":
                    if count(s.roster) < 3 and c not in home.roster and c not in away.roster:
                        put c into s.roster

flow:
    for each s in sides:
        log "{s} ({s.colour}, {s.funding}): {s.roster.name}; {count(s.tricks)} tricks"
    end in a draw
"""

TEAM = """\
team: Reds
colour: red
runners:
  - Red Keeper
  - Star
  - Red Chaser
tricks:
  - {card: Dash, copies: 3}
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "pocket", {"game.lumos": game_text, "board.yaml": BOARD},
                      cards={"pocket.yaml": CARDS}, schemas={"pocket.schema.json": SCHEMA})


@pytest.fixture
def game(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    return cg


def team_problems(tmp_path, cg, text: str) -> list:
    path = tmp_path / "team.yaml"
    path.write_text(text)
    team, diags = check_team_file(cg, path)
    assert (team is None) == bool(diags)
    return [(d.code, d.span.line, d.span.col, d.message) for d in diags]


def test_a_good_team_checks_clean(tmp_path, game):
    assert team_problems(tmp_path, game, TEAM) == []


def test_a_game_started_with_teams_has_their_cards_and_fields(tmp_path, game):
    (tmp_path / "reds.yaml").write_text(TEAM)
    (tmp_path / "blues.yaml").write_text("team: Blues\ncolour: blue\nfunding: 4\nruns: []\n"
                                         .replace("runs: []\n", "runners: [Blue Keeper, Blue Chaser, Star]\n"
                                                  "tricks: [Feint, Feint, Dash]\n"))
    teams, diags = check_teams(game, {"home": tmp_path / "reds.yaml", "away": tmp_path / "blues.yaml"})
    assert diags == [], [d.headline() for d in diags]
    state = GameState.new(game, seed=1, log=True, teams=teams, forced="take")
    texts = [e["event"] for e in state.events]
    assert texts[:2] == ["home (red, 2): Red Keeper, Star, Red Chaser; 3 tricks",
                         "away (blue, 4): Blue Keeper, Blue Chaser, Star; 3 tricks"]
    # the two Stars are different copies of the card
    assert len({c for t in teams.values() for ids in t["cards"].values() for c in ids}) == 12


def test_without_a_team_file_the_setup_builds_one(game):
    state = GameState.new(game, seed=1, log=True, forced="take")
    texts = [e["event"] for e in state.events]
    assert texts[:2] == ["home (red, 2): Red Keeper, Red Chaser, Red Chaser; 0 tricks",
                         "away (blue, 2): Blue Keeper, Blue Chaser, Blue Chaser; 0 tricks"]


def test_one_side_with_a_team_file_the_other_without(tmp_path, game):
    (tmp_path / "reds.yaml").write_text(TEAM)
    teams, diags = check_teams(game, {"away": tmp_path / "reds.yaml"})
    state = GameState.new(game, seed=1, log=True, teams=teams, forced="take")
    texts = [e["event"] for e in state.events]
    assert texts[:2] == ["home (red, 2): Red Keeper, Red Chaser, Red Chaser; 0 tricks",
                         "away (red, 2): Red Keeper, Star, Red Chaser; 3 tricks"]


# ---------------------------------------------------------------- the game's rules, each at its place
def test_composition_is_reported_at_the_group_key(tmp_path, game):
    text = TEAM.replace("  - Red Chaser\n", "")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 3, 1, "a team has 2 chasers, not 1")]


def test_a_rule_without_at_is_reported_at_the_first_key_it_names(tmp_path, game):
    text = TEAM.replace("  - Red Keeper\n", "  - Red Chaser\n")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 3, 1, "a team has 1 keeper, not 0"), ("T110", 3, 1, "a team has 2 chasers, not 3")]


def test_deck_size(tmp_path, game):
    assert team_problems(tmp_path, game, TEAM.replace("copies: 3", "copies: 4")) == [
        ("T110", 7, 1, "the tricks must be 3 cards, not 4")]


def test_over_budget_is_reported_at_the_funding_or_at_the_team_name(tmp_path, game):
    text = TEAM.replace("  - {card: Dash, copies: 3}\n", "  - {card: Dash, copies: 2}\n  - Feint\n")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 1, 1, "the team costs 3, more than 2")]     # `funding` is not in the file: at `team:`
    text = text.replace("colour: red\n", "colour: red\nfunding: 1\n")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 3, 1, "the team costs 3, more than 1")]


def test_each_is_reported_at_the_item(tmp_path, game):
    text = TEAM.replace("  - Red Chaser\n", "  - Blue Chaser\n")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 6, 5, "Blue Chaser cannot play for red")]


def test_a_unique_name_twice(tmp_path, game):
    text = TEAM.replace("  - Red Chaser\n", "  - Star\n").replace("team: Reds\n", "team: Reds\nfunding: 9\n")
    assert team_problems(tmp_path, game, text) == [
        ("T110", 6, 5, "only one Star in a team"), ("T110", 7, 5, "only one Star in a team")]


# ---------------------------------------------------------------- names and copies
def test_an_unknown_card_name_with_a_suggestion(tmp_path, game):
    diags = team_problems(tmp_path, game, TEAM.replace("  - Star\n", "  - Stra\n"))
    assert diags == [("T101", 5, 5, "pocket has no card `Stra`")]


def test_a_card_of_another_group(tmp_path, game):
    assert team_problems(tmp_path, game, TEAM.replace("  - Star\n", "  - Dash\n")) == [
        ("T102", 5, 5, "`Dash` (trick) cannot be one of `runners`")]


def test_more_copies_than_the_game_has(tmp_path, game):
    assert team_problems(tmp_path, game, TEAM.replace("copies: 3", "copies: 7")) == [
        ("T103", 8, 12, "not enough copies of `Dash` for 7 more: the game has 6")]


def test_two_teams_share_the_copies(tmp_path, game):
    (tmp_path / "a.yaml").write_text(TEAM)
    (tmp_path / "b.yaml").write_text(TEAM.replace("copies: 3", "copies: 4"))
    teams, diags = check_teams(game, {"home": tmp_path / "a.yaml", "away": tmp_path / "b.yaml"})
    assert teams is None
    assert [(d.code, d.span.file[-6:], d.message) for d in diags] == [
        ("T103", "b.yaml", "not enough copies of `Dash` for 4 more: the game has 6, another team holds 3")]


# ---------------------------------------------------------------- the file itself
def test_schema_problems(tmp_path, game):
    text = "team: Reds\ncolour: green\nfunding: two\nrunner: []\ntricks:\n  - {card: Dash, copies: 0}\n"
    assert [(c, line, col) for c, line, col, _ in team_problems(tmp_path, game, text)] == [
        ("S104", 2, 9), ("S103", 3, 10), ("S102", 4, 1), ("S105", 6, 26)]


def test_a_missing_field(tmp_path, game):
    problems = team_problems(tmp_path, game, TEAM.replace("colour: red\n", ""))
    assert problems == [("S101", 1, 1, "the team's `colour` is missing")]


def test_not_a_team_file(tmp_path, game):
    assert team_problems(tmp_path, game, "- a\n- b\n")[0][:3] == ("T100", 1, 1)
    assert team_problems(tmp_path, game, "game: chess\n" + TEAM)[0][:3] == ("T100", 1, 7)
    assert team_problems(tmp_path, game, "team: [\n")[0][0] == "Y001"


def test_a_game_without_a_team_declaration(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.split("team:")[0] + "flow:\n    end in a draw\n")
    assert team_problems(tmp_path, cg, TEAM)[0][:2] == ("T100", 1)


def test_team_files_are_told_from_card_files(tmp_path):
    (tmp_path / "t.yaml").write_text("# a team\nteam: Reds\n")
    (tmp_path / "c.yaml").write_text("cards:\n  - name: team\n")
    assert looks_like_team_file(tmp_path / "t.yaml") and not looks_like_team_file(tmp_path / "c.yaml")


def test_the_schema_of_team_files(game):
    schema = team_schema(game)
    assert schema["required"] == ["team", "colour"]
    assert schema["properties"]["colour"]["enum"] == ["red", "blue"]
    names = schema["properties"]["runners"]["items"]["anyOf"][0]["enum"]
    assert names == ["Blue Chaser", "Blue Keeper", "Red Chaser", "Red Keeper", "Star"]


# ---------------------------------------------------------------- errors in the declaration
def declaration_error(tmp_path, old, new, code):
    cg, diags, _ = make_game(tmp_path, GAME.replace(old, new, 1))
    assert cg is None, "the change checks clean"
    return next(d for d in diags if d.code == code)


def test_a_group_into_an_unknown_zone(tmp_path):
    d = declaration_error(tmp_path, "into roster", "into rooster", "E201")
    assert (d.message, d.span.line, d.span.col, d.hint) == ("unknown zone `rooster`", 11, 5, "did you mean `roster`?")


def test_a_rule_at_an_unknown_key(tmp_path):
    d = declaration_error(tmp_path, "at runners", "at runner", "E201")
    assert (d.message, d.span.line, d.span.col) == ("the team has no field or group `runner`", 14, 5)


def test_a_rule_must_be_a_flag(tmp_path):
    d = declaration_error(tmp_path, "require count(tricks) == 3", "require count(tricks)", "E203")
    assert (d.message, d.span.line, d.span.col) == ("a team rule should be true or false, not a number", 15, 13)


def test_a_field_needs_a_kind(tmp_path):
    d = declaration_error(tmp_path, "field colour: text choices", "field colour choices", "E210")
    assert (d.message, d.span.line) == ("say what the field `colour` holds", 9)


def test_two_keys_with_one_name(tmp_path):
    d = declaration_error(tmp_path, "group tricks into", "group colour into", "E206")
    assert (d.message, d.span.line) == ("the team key `colour` is already used on line 9", 12)


def test_two_team_blocks(tmp_path):
    d = declaration_error(tmp_path, "setup:", "team:\n    field x = 1\n\nsetup:", "E206")
    assert (d.message, d.span.line) == ("the game already has a `team` declaration on line 8", 20)


# ---------------------------------------------------------------- English and the reference
def test_the_reference_shows_the_team_in_english(tmp_path):
    from lumos.reference import GameDoc, game_rst
    make_game(tmp_path)
    doc = GameDoc(GameSources("pocket", tmp_path / "pocket", tmp_path / "cards", tmp_path / "schema"))
    text = "\n".join(game_rst(doc, "pocket"))
    assert ".. lumos:rule:: team" in text
    assert "under *runners*: the names of cards for which its type is “player”; they are put into the " \
           "side's :lumos:rule:`roster` before the setup." in text
    assert "#. For each *c* among *runners*: *colour* is one of the affiliation of *c*; otherwise the check " \
           "says “c cannot play for colour” at that card." in text


def test_a_field_fills_the_games_own_variable_of_its_name(tmp_path):
    text = GAME.replace("zone roster per side public\n", "zone roster per side public\nvar colour: text per side = none\n")
    cg, diags, _ = make_game(tmp_path, text)
    assert cg is not None, [d.headline() for d in diags]
    assert cg.side_var_names.count("colour") == 1
    (tmp_path / "reds.yaml").write_text(TEAM)
    teams, _ = check_teams(cg, {"away": tmp_path / "reds.yaml"})
    state = GameState.new(cg, seed=1, teams=teams, forced="take")
    assert state.st.sv[cg.side_var_names.index("colour")] == ["red", "red"]


def test_a_field_and_the_variable_of_its_name_hold_one_kind(tmp_path):
    d = declaration_error(tmp_path, "zone roster per side public\n",
                          "zone roster per side public\nvar colour per side = 0\n", "E203")
    assert d.message == "the field `colour` holds a text, but the variable `colour` per side holds a number"


def test_require_each_goes_through_a_list(tmp_path):
    d = declaration_error(tmp_path, "require each c in runners:", "require each c in funding:", "E203")
    assert (d.message, d.span.line, d.span.col) == ("`require each` goes through a list, not a number", 17, 23)


def test_a_group_goes_into_a_zone_of_each_side(tmp_path):
    d = declaration_error(tmp_path, "zone tricks per side hidden", "zone tricks shared hidden", "E210")
    assert (d.message, d.span.line, d.span.col) == (
        "the cards of a team go into a zone of its side; `tricks` is shared", 12, 5)


def test_the_default_is_one_of_the_choices(tmp_path):
    d = declaration_error(tmp_path, 'choices "red", "blue"', 'choices "red", "blue" = "green"', "E210")
    assert (d.message, d.span.line, d.span.col) == (
        "the default 'green' of field `colour` is not one of its choices", 9, 48)


def test_a_field_holds_a_plain_value(tmp_path):
    d = declaration_error(tmp_path, "field funding: number = 2", "field funding: card", "E203")
    assert (d.message, d.span.line, d.span.col) == (
        "a team field holds a number, a flag or a text, not a card", 10, 5)
    d = declaration_error(tmp_path, 'choices "red", "blue"', 'choices "red", 2', "E203")
    assert (d.message, d.span.line, d.span.col) == ("each choice of `colour` must be a text", 9, 39)


def test_a_card_file_given_as_a_team(tmp_path, game):
    assert team_problems(tmp_path, game, "cards:\n  - name: X\n")[0] == (
        "T100", 1, 1, "this is a card file, not a team file")


def test_lumos_check_finds_team_files_in_folders_and_expansions(tmp_path, capsys):
    """An expansion's team file may use the expansion's cards; `lumos check` tells it by `team:`."""
    from lumos.cli import main
    folder = tmp_path / "pocket"           # a game folder as a designer has it: cards/ and cards/schema/
    (folder / "cards" / "schema").mkdir(parents=True)
    (folder / "game.lumos").write_text(GAME)
    (folder / "board.yaml").write_text(BOARD)
    (folder / "cards" / "pocket.yaml").write_text(CARDS)
    (folder / "cards" / "schema" / "pocket.schema.json").write_text(json.dumps(SCHEMA))
    exp = tmp_path / "exp"
    exp.mkdir()
    (exp / "expansion.yaml").write_text(f"extends: {folder}\nname: More\n")
    (exp / "more.yaml").write_text("cards:\n  - {name: Comet, type: player, position: chaser, "
                                   "affiliation: [red], cost: 0}\n")
    (exp / "team.yaml").write_text(TEAM.replace("  - Star\n", "  - Comet\n"))
    assert main(["check", str(exp)]) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.endswith("ok: More (extends pocket: 1 card in 1 file, 1 team file)\n")
    assert main(["check", "--game", str(folder), str(exp / "more.yaml"), str(exp / "team.yaml")]) == 0
    assert capsys.readouterr().out == "ok: 1 card file and 1 team file against pocket (1 card)\n"
    assert main(["check", "--game", str(folder), str(exp / "team.yaml")]) == 1   # without the expansion's cards
    assert "team.yaml:5:5: T101 pocket has no card `Comet`" in capsys.readouterr().out
    assert main(["check", str(exp / "team.yaml")]) == 2               # no `game:`: name the game
    (exp / "team.yaml").write_text(f"game: {folder}\n" + TEAM)
    assert main(["check", str(exp / "team.yaml")]) == 0


def test_a_log_records_the_teams_and_the_replay_puts_them_back(tmp_path, game):
    from lumos.interpreter.agents import make_agent
    from lumos.interpreter.play import play_game
    from lumos.interpreter.log import log_header, replay
    (tmp_path / "reds.yaml").write_text(TEAM)
    teams, _ = check_teams(game, {"away": tmp_path / "reds.yaml"})
    log = tmp_path / "game.jsonl"
    with open(log, "w", encoding="utf-8") as fh:
        play_game(game, [make_agent("random", 1), make_agent("random", 2)], 5, log=fh, teams=teams)
    assert log_header(log)["teams"]["away"]["fields"] == {"colour": "red", "funding": 2}
    assert replay(game, log).ok
    text = log.read_text().replace('"colour":"red"', '"colour":"blue"', 1)
    log.write_text(text)
    assert not replay(game, log).ok          # another team gives another game: the replay says so
