"""Games for tests: a bundled game's rules with test cards, or a small game written in a test.

Rule tests compile a bundled game's shipped rules and board with card files written in
the test (so no test depends on which cards the shipped decks hold), once per test run;
construct tests write a whole small game (rules, board, cards, schemas) into a folder and
check it. Both hand back what `compile_game` / `check_game` return.

    cg = shipped("snitch-snatcher")
    cg = compiled_once(("my-test", extra), lambda: with_cards("snitch-snatcher", {"home.yaml": deck}))
    cg, diags, files = write_game(tmp_path, "ring", {"game.lumos": GAME, "board.yaml": BOARD})
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Callable

from lumos.api import game_sources, load_game
from lumos.compiler.game import GameSources, check_game, compile_game

# Where a game's rules are read from by `with_cards`; a mutation run may point a game at
# an edited copy of its rules ({game name: folder}).
RULES_DIRS: dict[str, Path] = {}


def with_cards(game: str, files: dict[str, str], rules_dir: Path | None = None):
    """The shipped rules and board of `game` (or `rules_dir`) compiled with these card files
    ({file name: YAML text}) instead of the shipped cards."""
    shipped = game_sources(game)
    rules = rules_dir or RULES_DIRS.get(game) or shipped.rules_dir
    with tempfile.TemporaryDirectory() as tmp:
        cards = Path(tmp)
        for name, text in files.items():
            (cards / name).write_text(text, encoding="utf-8")
        return compile_game(GameSources(game, rules, cards, shipped.schema_dir))


_COMPILED: dict = {}


def compiled_once(key, make: Callable[[], object]):
    """`make()` once per test run and `key` (compiling is the slow part of a rule test)."""
    if key not in _COMPILED:
        _COMPILED[key] = make()
    return _COMPILED[key]


def shipped(game: str):
    """A bundled game with its shipped cards, compiled once per test run."""
    return compiled_once(("shipped", game), lambda: load_game(game))


def write_game(tmp_path: Path, name: str, rules: dict[str, str], cards: dict[str, str] | None = None,
               schemas: dict[str, dict] | None = None, schema_dir: Path | None = None):
    """Write a small game into `tmp_path` (rules/board files in a folder named `name`, card
    files in `cards/`, JSON schemas in `schema/`) and check it: (cg or None, diagnostics,
    files). `schema_dir` names an existing schema folder instead."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    for file, text in rules.items():
        (folder / file).write_text(text)
    card_dir = None
    if cards is not None:
        card_dir = tmp_path / "cards"
        card_dir.mkdir(exist_ok=True)
        for file, text in cards.items():
            (card_dir / file).write_text(text)
    if schemas is not None:
        schema_dir = tmp_path / "schema"
        schema_dir.mkdir(exist_ok=True)
        for file, schema in schemas.items():
            (schema_dir / file).write_text(json.dumps(schema))
    return check_game(GameSources(name, folder, card_dir, schema_dir))


# A board of one space, for tiny games made for a test of one construct.
DOT_BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""


def card_schema(name: str, fields: dict) -> dict:
    """The JSON schema of a tiny game's cards: `name` and `type` required, then `fields`
    (field -> JSON schema), nothing else allowed."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://lumos-games.example/schema/{name}.schema.json",
        "type": "object", "required": ["cards"], "additionalProperties": False,
        "properties": {"cards": {"type": "array", "items": {
            "type": "object", "required": ["name", "type"], "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "type": {"type": "string"}, **fields}}}},
    }
