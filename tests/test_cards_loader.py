"""Card files -> CardSource + diagnostics (compiler/cards.py) and the card JSON Schemas.

The broken files are data: each row is a small card file and the one diagnostic a
designer must see for it, word for word, at its line and column.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import lumos.cards
from lumos.compiler.cards import (
    DEFAULT_COPIES, CardSource, card_validator, load_card_file, load_card_files,
    load_schema_registry,
)
from lumos.diagnostics import Span

SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"
SNITCH = SCHEMA_DIR / "snitch-snatcher.schema.json"
GENERIC = SCHEMA_DIR / "card.schema.json"

VALID = """\
# yaml-language-server: $schema=../schema/snitch-snatcher.schema.json
deck: home
cards:
  - name: Fly Sideways
    type: action
    colour: offense
    threshold: 1
    copies: 2
    text: "Trick manoeuvre! Move one of your Chasers 2 spaces to the left or right."
    effect: |
      choose c from my chasers
      move c 2 spaces sideways
  - name: Keeper Defense
    type: action
    colour: defense
    threshold: 4
    interrupt: true
    window: goal_attempt
    text: Your Keeper blocks the goal and takes the Quaffle.
    effect: block the goal
  - name: Offense Skill
    type: skill
    colour: offense
    copies: 8
  - name: Spot the Golden Snitch (north)
    type: spot
    end: north
    copies: 3
"""


def write(tmp_path: Path, text: str, name: str = "cards.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load(tmp_path: Path, text: str, schema: Path = SNITCH):
    return load_card_file(write(tmp_path, text), schema)


# -- a good file ---------------------------------------------------------------------

def test_valid_file_loads_every_card(tmp_path):
    """Playing Cards: Skill, Action (with an Interrupt card) and Spot the Golden Snitch."""
    cards, diags = load(tmp_path, VALID)
    assert diags == []
    assert [(c.name, c.type, c.copies, c.deck) for c in cards] == [
        ("Fly Sideways", "action", 2, "home"),
        ("Keeper Defense", "action", 1, "home"),
        ("Offense Skill", "skill", 8, "home"),
        ("Spot the Golden Snitch (north)", "spot", 3, "home"),
    ]
    keeper = cards[1].fields
    assert keeper["interrupt"] is True and keeper["threshold"] == 4
    assert type(keeper["name"]) is str  # plain Python, not the loader's marked str


def test_spans_point_at_the_card_and_each_value(tmp_path):
    """Playing Cards > Action Cards > Color-Coded Action Cards: `threshold` is printed."""
    cards, _ = load(tmp_path, VALID)
    fly = cards[0]
    file = str(tmp_path / "cards.yaml")
    assert fly.span == Span(file, 4, 5)
    assert fly.field_spans["threshold"] == Span(file, 7, 16)
    assert fly.field_spans["effect"] == Span(file, 10, 13)  # the `|` indicator
    assert cards[3].span == Span(file, 25, 5)


def test_text_origins_of_block_plain_and_quoted_strings(tmp_path):
    """An effect's content position lets the compiler report rules errors in the YAML file."""
    cards, _ = load(tmp_path, VALID)
    fly, keeper = cards[0], cards[1]
    assert fly.fields["effect"] == "choose c from my chasers\nmove c 2 spaces sideways\n"
    assert fly.text_origins["effect"] == (11, 7, True)  # `|` block: content on the next line
    assert fly.text_origins["text"] == (9, 12, False)  # one past the opening quote
    assert keeper.text_origins["effect"] == (20, 13, False)  # plain one-line effect
    assert keeper.text_origins["window"] == (18, 13, False)


def test_text_origins_of_folded_indented_and_single_quoted(tmp_path):
    """Block scalars with an indentation digit start at the mapping's indent plus the digit."""
    cards, diags = load(tmp_path, """\
        cards:
          - name: A
            type: anything
            text: >
              folded
              text
            effect: |2
                indented more
            condition: 'quoted'
        """, schema=GENERIC)
    assert diags == []
    card = cards[0]
    assert card.fields["effect"] == "  indented more\n"
    assert card.text_origins == {
        "name": (2, 11, False), "type": (3, 11, False), "text": (5, 7, False),
        "effect": (8, 7, True), "condition": (9, 17, False),
    }


def test_load_card_files_concatenates_in_order(tmp_path):
    home = write(tmp_path, VALID, "home.yaml")
    away = write(tmp_path, "deck: away\ncards:\n  - {name: X, type: skill, colour: oops}\n",
                 name="away.yaml")
    cards, diags = load_card_files([home, away], SNITCH)
    assert len(cards) == 4 and [d.code for d in diags] == ["S104"]
    assert diags[0].span.file == str(away)


# -- broken files: exact code, line, column and words -----------------------------

BROKEN = [
    pytest.param("""\
        cards:
          - name: Fly Sideways
            type: action
            colour: offense
            threshold: 7
            text: t
            effect: e
        """, "S105", 5, 16,
        "card `Fly Sideways`: field `threshold` must be at most 4, not 7",
        id="threshold-too-high"),  # Playing Cards > Action Cards > Color-Coded Action Cards
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colour: offense
            copies: 0
        """, "S105", 5, 13,
        "card `Offense Skill`: field `copies` must be at least 1, not 0", id="copies-zero"),
    pytest.param("""\
        cards:
          - name: Fly Sideways
            type: action
            colour: offense
            text: t
            effect: e
        """, "S101", 2, 5,
        "card `Fly Sideways`: field `threshold` is missing", id="missing-threshold"),
    pytest.param("""\
        cards:
          - name: Keeper Defense
            type: action
            colour: defense
            threshold: 4
            interrupt: true
            text: t
            effect: e
        """, "S101", 2, 5,
        "card `Keeper Defense`: field `window` is missing",
        id="interrupt-without-window"),  # Playing Cards > Action Cards > Interrupt Cards
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colur: offense
        """, "S102", 4, 5,
        "card `Offense Skill` has an unknown field `colur`", id="unknown-field-typo"),
    pytest.param("""\
        cards:
          - name: Spot
            type: spot
            end: north
            threshold: 2
        """, "S102", 5, 5,
        "card `Spot` has an unknown field `threshold`", id="field-of-another-type"),
    pytest.param("""\
        cards:
          - name: Keeper Defense
            type: action
            colour: defense
            threshold: "4"
            text: t
            effect: e
        """, "S103", 5, 16,
        "card `Keeper Defense`: field `threshold` must be a whole number, not the text `4`",
        id="quoted-number"),
    pytest.param("""\
        cards:
          - name: Keeper Defense
            type: action
            colour: defense
            threshold: 4
            interrupt: 1
            window: goal_attempt
            text: t
            effect: e
        """, "S103", 6, 16,
        "card `Keeper Defense`: field `interrupt` must be true or false, not 1",
        id="interrupt-not-boolean"),
    pytest.param("""\
        cards:
          - Fly Sideways
        """, "S103", 2, 5,
        "card #1 must be a mapping of `key: value` fields, not the text `Fly Sideways`",
        id="card-is-text"),
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colour: red
        """, "S104", 4, 13,
        "card `Offense Skill`: field `colour` must be one of `offense`, `defense`, "
        "`wizardry`, not `red`", id="unknown-colour"),  # Color-Coded Action Cards
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skil
            colour: offense
        """, "S104", 3, 11,
        "card `Offense Skill`: field `type` must be one of `skill`, `action`, `spot`, "
        "not `skil`", id="unknown-type"),
    pytest.param("""\
        deck: visitors
        cards: []
        """, "S104", 1, 7,
        "the file: field `deck` must be one of `home`, `away`, not `visitors`", id="deck"),
    pytest.param("""\
        cards:
          - name: Spot
            type: spot
            end: east
        """, "S104", 4, 10,
        "card `Spot`: field `end` must be one of `north`, `south`, not `east`",
        id="spot-end"),  # Playing Cards > Spot the Golden Snitch
    pytest.param("""\
        cards:
          - name: ""
            type: skill
            colour: offense
        """, "S100", 2, 11, "card #1: field `name` must not be empty", id="empty-name"),
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colour: offense
            tags: [skill, skill]
        """, "S100", 5, 11,
        "card `Offense Skill`: field `tags` lists the same value twice", id="repeated-tag"),
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colour: offense
            tags: [skill, 3]
        """, "S103", 5, 19,
        "card `Offense Skill`: field `tags` item 2 must be text, not 3", id="tag-not-text"),
    pytest.param("", "S106", 1, 1, "the card file is empty", id="empty-file"),
    pytest.param("just words\n", "S106", 1, 1,
                 "the card file must be a mapping with a `cards:` list, not the value `just words`",
                 id="top-scalar"),
    pytest.param("""\
        - name: Offense Skill
          type: skill
        """, "S106", 1, 1,
        "the card file must be a mapping with a `cards:` list, not a list", id="top-list"),
    pytest.param("""\
        cards:
          - name: Offense Skill
            type: skill
            colour: offense
          - name: offense skill
            type: skill
            colour: defense
        """, "S110", 5, 11, "card `offense skill` is defined twice in this file",
        id="duplicate-name"),
    pytest.param("""\
        card:
          - name: Offense Skill
        """, "S102", 1, 1, "the file has an unknown field `card`", id="cards-typo"),
]


@pytest.mark.parametrize("text, code, line, col, message", BROKEN)
def test_broken_file_gives_one_exact_diagnostic(tmp_path, text, code, line, col, message):
    cards, diags = load(tmp_path, text)
    assert [(d.code, d.span.line, d.span.col, d.message) for d in diags] == [
        (code, line, col, message)]
    assert all(d.span.file == str(tmp_path / "cards.yaml") for d in diags)


def test_yaml_errors_become_diagnostics(tmp_path):
    """The loader's own YAML errors come back as diagnostics, not exceptions."""
    cards, diags = load(tmp_path, """\
        cards:
          - name: Offense Skill
            type: skill
           colour: offense
        """)
    assert cards == [] and [(d.code, d.span.line, d.span.col) for d in diags] == [("Y001", 4, 4)]
    # the wording comes from libyaml or PyYAML, whichever is installed
    assert diags[0].message.startswith("YAML syntax error: ")


def test_hints_say_how_to_fix(tmp_path):
    """Hints: did-you-mean for typos, the reason for a conditional field, quotes to remove."""
    _, diags = load(tmp_path, """\
        cards:
          - name: Keeper Defense
            type: action
            colr: defense
            threshold: "4"
            interrupt: true
            text: t
            effect: e
          - name: Skill
            type: skil
          - name: Fly
            type: action
            colour: offense
            text: t
            effect: e
        """)
    hints = {(d.code, d.span.line): d.hint for d in diags}
    assert hints == {
        ("S101", 2): "an interrupt card (`interrupt: true`) must name the window in which "
                     "it can be played, e.g. `window: goal_attempt`",
        ("S102", 4): "did you mean `colour`?",
        ("S103", 5): "remove the quotes: `threshold: 4`",
        ("S104", 10): "did you mean `skill`?",
        ("S101", 11): "add the Skill threshold field, e.g. `threshold: 1`",
    }


def test_every_problem_of_a_file_is_reported_and_bad_cards_left_out(tmp_path):
    cards, diags = load(tmp_path, """\
        deck: away
        cards:
          - name: Fly Sideways
            type: action
            colour: offense
            threshold: 0
            copies: 99
            text: t
          - name: Defense Skill
            type: skill
            colour: defense
          - name: Fly Sideways
            type: spot
            end: south
        """)
    assert [(d.code, d.span.line) for d in diags] == [
        ("S101", 3), ("S105", 6), ("S105", 7), ("S110", 12)]
    assert [c.name for c in cards] == ["Defense Skill"]


def test_unreadable_file_is_a_diagnostic(tmp_path):
    cards, diags = load_card_file(tmp_path / "missing.yaml", SNITCH)
    assert cards == [] and [d.code for d in diags] == ["S106"]


def test_generic_schema_alone_checks_common_fields(tmp_path):
    """The loader knows no game: card.schema.json works as a schema on its own."""
    _, diags = load(tmp_path, "cards:\n  - {name: A, type: x, copies: 61}\n", schema=GENERIC)
    assert [(d.code, d.message) for d in diags] == [
        ("S105", "card `A`: field `copies` must be at most 60, not 61")]


def test_any_schema_rule_is_reported_by_the_generic_fallback(tmp_path):
    """Rules without a dedicated message still name the card and field (S100)."""
    schema_dir = tmp_path / "schema"
    schema_dir.mkdir()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": "urn:test:game", "type": "object",
              "properties": {"cards": {"type": "array", "items": {
                  "properties": {"name": {"type": "string", "pattern": "^[A-Z]"}}}}}}
    (schema_dir / "game.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    _, diags = load(tmp_path, "cards:\n  - name: lower\n", schema=schema_dir / "game.schema.json")
    assert [(d.code, d.span.line, d.span.col, d.message) for d in diags] == [
        ("S100", 2, 11, "card `lower`: field `name` breaks the rule `pattern`: "
                        "'lower' does not match '^[A-Z]'")]


# -- the schemas themselves ------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.json")), ids=lambda p: p.name)
def test_schemas_are_valid_draft_2020_12(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"] and schema["description"]


def _properties(node):
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield name, sub
        for value in node.values():
            yield from _properties(value)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value)


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.json")), ids=lambda p: p.name)
def test_every_property_is_documented(path):
    """Editors show title/description/examples on hover; `$ref`s are followed."""
    registry = load_schema_registry(SCHEMA_DIR)
    schema = json.loads(path.read_text(encoding="utf-8"))
    resolver = registry.resolver(base_uri=schema["$id"])
    for name, sub in _properties(schema):
        if sub.get("$ref") is None and "title" not in sub:
            continue  # `if` conditions, e.g. {"const": "action"}, document nothing
        resolved = resolver.lookup(sub["$ref"]).contents if "$ref" in sub else sub
        for key in ("title", "description", "examples"):
            assert resolved.get(key), f"{path.name}: property `{name}` has no {key}"


def test_plain_jsonschema_with_the_registry_rejects_a_broken_card():
    """Any JSON Schema tool with the registry agrees with the loader (Action Cards)."""
    registry = load_schema_registry(SCHEMA_DIR)
    snitch_id = json.loads(SNITCH.read_text(encoding="utf-8"))["$id"]
    validator = Draft202012Validator(registry.contents(snitch_id), registry=registry)
    broken = {"cards": [{"name": "Fly Sideways", "type": "action", "colour": "offense",
                         "threshold": 9, "text": "t", "effect": "e"}]}
    assert [e.validator for e in validator.iter_errors(broken)] == ["maximum"]
    assert validator.is_valid({"cards": [{"name": "S", "type": "skill", "colour": "offense"}]})


def test_validator_and_registry_are_built_once():
    assert card_validator(SNITCH) is card_validator(SNITCH)
    assert load_schema_registry(SCHEMA_DIR) is load_schema_registry(SCHEMA_DIR)


def test_default_copies_matches_the_schema():
    schema = json.loads(GENERIC.read_text(encoding="utf-8"))
    assert schema["$defs"]["copies"]["default"] == DEFAULT_COPIES


def test_card_source_is_picklable(tmp_path):
    import pickle
    cards, _ = load(tmp_path, VALID)
    assert pickle.loads(pickle.dumps(cards)) == cards
    assert isinstance(cards[0], CardSource)
