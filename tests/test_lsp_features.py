"""`lumos lsp` helps while typing: a scripted editor (JSON-RPC over stdin/stdout) asks hover,
go to definition, completion and quick fixes on the bundled Snitch Snatcher files, and
reads diagnostic ranges in UTF-16 units (issue 13, part 3: "The editor helps while typing").

The names asked about are the game's own (rules/snitch-snatcher/game.lumos, cards.lumos,
cards/snitch-snatcher/home.yaml); nothing is written to the bundled files: edits are
unsaved text, which the server checks from the editor's copy.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.lspclient import Client

from lumos.api import game_sources

pytest.importorskip("pygls")

GAME = game_sources("snitch-snatcher")
RULES = GAME.rules_dir / "game.lumos"
CARDS = GAME.cards_dir / "home.yaml"


def _find(path: Path, needle: str, after: str = "") -> tuple[int, int]:
    """0-based (line, character) of the first `needle` on a line containing `after`."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if needle in line and after in line:
            return i, line.index(needle, line.index(after) if after else 0)
    raise AssertionError(f"{needle!r} not in {path}")


def _decl_line(path: Path, start: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if line.startswith(start))


@pytest.fixture(scope="module")
def client():
    c = Client(GAME.rules_dir)
    try:
        init = c.initialize(GAME.rules_dir)
        caps = init["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"]
        assert "." in caps["completionProvider"]["triggerCharacters"]
        assert caps["codeActionProvider"]["codeActionKinds"] == ["quickfix"]
        c.rules = c.open(RULES)
        assert c.diagnostics(c.rules, 1) == []
        c.cards = c.open(CARDS, language="yaml")
        assert c.diagnostics(c.cards, 1) == []
        yield c
    finally:
        c.close()


# ---------------------------------------------------------------- hover
def test_hover_shows_the_declaration_its_english_and_where(client):
    from lumos.editor.features import english_of
    from lumos.editor.symbols import GameIndex
    line, char = _find(RULES, "plays_left", "while")
    got = client.at("textDocument/hover", client.rules, line, char + 3)
    text = got["contents"]["value"]
    assert text.startswith("**variable** `plays_left`")
    declared = 1 + next(i for i, ln in enumerate(RULES.read_text(encoding="utf-8").splitlines())
                        if ln.startswith("var plays_left"))
    assert "var plays_left = 0" in text and f"game.lumos:{declared}" in text
    index = GameIndex.build(GAME)
    english = english_of(index, index.symbols["plays_left"])   # the reference's renderer, whatever it says
    assert english and english in text
    assert got["range"] == {"start": {"line": line, "character": char},
                            "end": {"line": line, "character": char + len("plays_left")}}


def test_hover_inside_a_card_effect_names_the_procedure_it_calls(client):
    line, char = _find(CARDS, "card_move", "card_move(c, to)")
    text = client.at("textDocument/hover", client.cards, line, char)["contents"]["value"]
    assert text.startswith("**procedure** `card_move`") and "cards.lumos:" in text


def test_hover_on_a_card_name_gives_its_type_and_text(client):
    line, char = _find(CARDS, "Quick Pass", "name:")
    text = client.at("textDocument/hover", client.cards, line, char + 2)["contents"]["value"]
    assert text.startswith("**card** `Quick Pass`") and "action card" in text and "A flick of the wrist!" in text


def test_no_hover_over_a_cards_prose(client):
    # "Snitch Snatcher: Playing Cards": a card's `text` is what the card says, not rules
    line, char = _find(CARDS, "Chaser", "text:")
    assert client.at("textDocument/hover", client.cards, line, char + 1) is None


# ---------------------------------------------------------------- definition
@pytest.mark.parametrize("needle,after,path,declared", [
    ("chasers", "condition: (chasers(me)", CARDS, "function chasers("),     # a function, from a card
    ("goal_attempt", "window: goal_attempt", CARDS, "window goal_attempt"),  # a window named by a card
    ("quaffle", "function holds_ball", RULES, "piece quaffle"),              # a piece
    ("hand", "zone hand", RULES, "zone hand"),                               # a zone, on itself
    ("keeper_area", "s not in p.side.keeper_area", RULES, "const keeper_area"),  # a constant, as attribute
    ("plays_left", "subtract 1 from plays_left", RULES, "var plays_left"),   # a variable
])
def test_definition_of_the_games_names(client, needle, after, path, declared):
    line, char = _find(path, needle, after)
    uri = client.cards if path == CARDS else client.rules
    (loc,) = client.at("textDocument/definition", uri, line, char + 1)
    assert loc["uri"] == RULES.resolve().as_uri()
    assert loc["range"]["start"]["line"] == _decl_line(RULES, declared)
    start, end = loc["range"]["start"]["character"], loc["range"]["end"]["character"]
    assert RULES.read_text(encoding="utf-8").splitlines()[_decl_line(RULES, declared)][start:end] == needle


def test_definition_of_a_procedure_in_another_rules_file_and_of_a_local(client):
    line, char = _find(CARDS, "card_move", "card_move(c, to)")
    (loc,) = client.at("textDocument/definition", client.cards, line, char)
    assert loc["uri"].endswith("/cards.lumos")
    line, char = _find(CARDS, "(c, to)", "card_move(c, to)")
    (loc,) = client.at("textDocument/definition", client.cards, line, char + 1)   # `c`: the choose above it
    assert loc["uri"] == CARDS.resolve().as_uri() and loc["range"]["start"]["line"] == line - 2


def test_definition_of_a_card_by_name_in_a_team_file():
    team = Path(__file__).resolve().parents[1] / "examples" / "teams" / "gryffindor.yaml"
    c = Client(team.parent)
    try:
        c.initialize(team.parent)
        uri = c.open(team, language="yaml")
        c.diagnostics(uri)
        line, char = _find(team, "Gryffindor Chaser", "{card:")
        (loc,) = c.at("textDocument/definition", uri, line, char + 3)
        cards = game_sources("catch-the-golden-snitch").cards_dir
        path = Path(loc["uri"].removeprefix("file://"))
        assert path.parent == cards.resolve()
        assert "Gryffindor Chaser" in path.read_text(encoding="utf-8").splitlines()[loc["range"]["start"]["line"]]
    finally:
        c.close()


# ---------------------------------------------------------------- completion
def _labels(client, uri, line, char) -> dict[str, dict]:
    got = client.at("textDocument/completion", uri, line, char)
    return {item["label"]: item for item in got["items"]}


def test_completion_offers_the_names_in_scope(client):
    line, char = _find(RULES, "chasers(s) where", "function forward_most")
    items = _labels(client, client.rules, line, char + 3)      # after `cha`
    assert {"chasers", "chaser", "chaser_moves"} <= set(items)
    assert all(label.startswith("cha") for label in items)
    assert items["chasers"]["detail"].startswith("function chasers(s)")
    line, char = _find(RULES, "(s)", "function forward_most")
    items = _labels(client, client.rules, line, char + 1)     # nothing typed yet: all names, keywords too
    assert {"s", "plays_left", "goal_attempt", "hand", "quaffle", "home", "it", "where"} <= set(items)


def test_no_completion_in_a_comment_or_a_text(client):
    line, char = _find(RULES, "# +1: the side attacks")
    assert _labels(client, client.rules, line, char + 5) == {}
    line, char = _find(CARDS, '"{c} to {to}"')
    assert _labels(client, client.cards, line, char + 5) == {}          # `{c} t|o`: the words of the label
    assert "c" in _labels(client, client.cards, line, char + 2)          # `{c|}`: a hole is an expression


def test_completion_offers_a_cards_locals_in_its_effect(client):
    line, char = _find(CARDS, "card_move(c, to)")
    items = _labels(client, client.cards, line, char)
    assert {"c", "to", "card", "me", "card_move", "chasers"} <= set(items)


def test_completion_after_a_dot_offers_attributes_and_card_fields(client):
    line, char = _find(RULES, ".colour", "function affordable")
    items = _labels(client, client.rules, line, char + 1)
    assert {"space", "kind", "colour", "threshold", "skills", "keeper_area"} <= set(items)


def test_completion_of_a_cards_keys_comes_from_the_schema(client):
    line, _ = _find(CARDS, "threshold:", "")
    items = _labels(client, client.cards, line, 5)             # `    t`
    assert {"threshold", "text", "type", "tags"} <= set(items)
    assert all(label.startswith("t") for label in items)
    assert items["threshold"]["detail"] == "field of action cards"


# ---------------------------------------------------------------- ranges, UTF-16 and quick fixes
_versions = iter(range(2, 10_000))


def _change(client, uri: str, text: str) -> list[dict]:
    return client.change(uri, text, next(_versions))


def test_a_misspelt_name_is_marked_whole_and_fixed_by_a_quick_fix(client):
    saved = RULES.read_text(encoding="utf-8")
    edited = saved.replace("while plays_left > 0", "while plays_lft > 0", 1)
    line, char = _find(RULES, "plays_left", "while")
    try:
        (diag,) = _change(client, client.rules, edited)
        assert diag["code"] == "E201" and diag["range"] == {
            "start": {"line": line, "character": char}, "end": {"line": line, "character": char + len("plays_lft")}}
        (action,) = client.request("textDocument/codeAction", {
            "textDocument": {"uri": client.rules}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        assert action["kind"] == "quickfix" and action["title"] == "Change to `plays_left`"
        (edit,) = action["edit"]["changes"][client.rules]
        lines = edited.splitlines()
        lines[line] = lines[line][:char] + edit["newText"] + lines[line][edit["range"]["end"]["character"]:]
        assert "\n".join(lines) + "\n" == saved
    finally:
        assert _change(client, client.rules, saved) == []


def test_a_misspelt_call_in_a_card_is_marked_on_its_name_and_fixed(client):
    saved = CARDS.read_text(encoding="utf-8")
    edited = saved.replace("      card_move(c, to)\n", "      card_mve(c, to)\n", 1)
    line, char = _find(CARDS, "card_move(c, to)")
    try:
        (diag,) = _change(client, client.cards, edited)
        assert diag["code"] == "E205" and diag["range"]["start"] == {"line": line, "character": char}
        assert diag["range"]["end"] == {"line": line, "character": char + len("card_mve")}
        (action,) = client.request("textDocument/codeAction", {
            "textDocument": {"uri": client.cards}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        assert action["edit"]["changes"][client.cards][0]["newText"] == "card_move"
    finally:
        assert _change(client, client.cards, saved) == []


def test_the_quick_fix_of_a_misspelt_attribute_changes_only_the_attribute(client):
    saved = CARDS.read_text(encoding="utf-8")
    edited = saved.replace('label "{c} ({c.space}) flies sideways"', 'label "{c} ({c.spce}) flies sideways"', 1)
    line, char = next((i, t.index("c.spce")) for i, t in enumerate(edited.splitlines()) if "c.spce" in t)
    try:
        (diag,) = _change(client, client.cards, edited)
        assert diag["code"] == "E202" and diag["range"]["start"] == {"line": line, "character": char}
        (action,) = client.request("textDocument/codeAction", {
            "textDocument": {"uri": client.cards}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        (edit,) = action["edit"]["changes"][client.cards]
        assert edit["newText"] == "space" and edit["range"] == {
            "start": {"line": line, "character": char + 2}, "end": {"line": line, "character": char + len("c.spce")}}
    finally:
        assert _change(client, client.cards, saved) == []


def test_positions_are_utf16_units_after_an_emoji(client):
    # the protocol counts UTF-16 code units: 🦉 (outside the BMP) is two of them
    saved = RULES.read_text(encoding="utf-8")
    edited = saved.replace("= occupant(s) is none\n", '= occupant(s) is none and "🦉🦉" != plays_lft\n', 1)
    line = next(i for i, t in enumerate(edited.splitlines()) if "🦉" in t)
    char = edited.splitlines()[line].index("plays_lft")
    try:
        diags = _change(client, client.rules, edited)
        (diag,) = [d for d in diags if d["code"] == "E201"]
        assert diag["range"]["start"] == {"line": line, "character": char + 2}
        assert diag["range"]["end"] == {"line": line, "character": char + 2 + len("plays_lft")}
        got = client.at("textDocument/hover", client.rules, line, char + 2 + 1)   # a position after the emoji
        assert got is None or "plays_lft" not in got["contents"]["value"]
        got = client.at("textDocument/definition", client.rules, line, char + 2 - 5)  # `==`: nothing
        assert got is None
    finally:
        assert _change(client, client.rules, saved) == []


def test_lumos_check_json_covers_a_whole_yaml_value(tmp_path):
    rules = tmp_path / "g"
    shutil.copytree(GAME.rules_dir, rules, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(GAME.cards_dir, rules / "cards", ignore=shutil.ignore_patterns("__pycache__", "tests"))
    home = rules / "cards" / "home.yaml"
    home.write_text(home.read_text(encoding="utf-8").replace("colour: offense", "colour: ofense", 1), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "lumos", "check", str(rules), "--format", "json"],
                         capture_output=True, text=True, cwd=tmp_path)
    (d,) = json.loads(out.stdout)
    assert d["code"] == "S104" and d["end_line"] == d["line"]
    assert d["end_column"] - d["column"] == len("ofense")


def test_a_card_test_file_is_checked_and_its_card_names_lead_to_the_cards(client):
    # docs/card-tests.md: a test names the game's cards, pieces and variables; a wrong one is T2xx
    tests = GAME.cards_dir / "tests" / "cards.test.yaml"
    uri = client.open(tests, language="yaml")
    assert client.diagnostics(uri, 1) == []
    line, char = _find(tests, "Fly Sideways", "- play:")
    (loc,) = client.at("textDocument/definition", uri, line, char + 4)
    assert loc["uri"].endswith("/cards/snitch-snatcher/home.yaml") or loc["uri"].endswith("/away.yaml")
    saved = tests.read_text(encoding="utf-8")
    edited = saved.replace("plays_left: 2", "plays_lft: 2", 1)
    line, char = next((i, t.index("plays_lft")) for i, t in enumerate(edited.splitlines()) if "plays_lft" in t)
    try:
        (diag,) = _change(client, uri, edited)
        assert diag["range"] == {"start": {"line": line, "character": char},
                                 "end": {"line": line, "character": char + len("plays_lft")}}
        (action,) = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        assert action["edit"]["changes"][uri][0]["newText"] == "plays_left"
    finally:
        assert _change(client, uri, saved) == []


def test_a_client_that_counts_utf8_gets_utf8_positions(tmp_path):
    # LSP 3.17 "Position encodings": the server takes the client's preference when it can
    c = Client(GAME.rules_dir)
    try:
        init = c.initialize(GAME.rules_dir, {"general": {"positionEncodings": ["utf-8", "utf-16"]}})
        assert init["capabilities"]["positionEncoding"] == "utf-8"
        uri = c.open(RULES)
        assert c.diagnostics(uri, 1) == []
        edited = RULES.read_text(encoding="utf-8").replace(
            "= occupant(s) is none\n", '= occupant(s) is none and "🦉" != plays_lft\n', 1)
        line = next(i for i, t in enumerate(edited.splitlines()) if "🦉" in t)
        char = edited.splitlines()[line].index("plays_lft")
        (diag,) = c.change(uri, edited, 2)
        assert diag["range"]["start"] == {"line": line, "character": char + 3}    # 🦉 is 4 bytes
    finally:
        c.close()


def test_hover_english_of_a_card_with_two_parts_says_both():
    """defenders-of-hogwarts.txt, "Dark Arts Path > Resolving an Event Card": every House
    player resolves the House part, then the Dark Arts player the Dark Arts part; the hover's
    English of an Event card says both parts, as the reference does."""
    from lumos.editor.features import english_of
    from lumos.editor.symbols import GameIndex
    index = GameIndex.build(game_sources("defenders-of-hogwarts"))
    text = english_of(index, index.card("Prefects on Patrol"))
    assert "House effect:" in text and "Dark Arts effect:" in text
