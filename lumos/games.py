"""Where the games are: the bundled games shipped as package data, and a game's source files
(its rules, cards and schema folders) for a bundled id or a folder holding game.lumos.

The bottom of the tools: lumos.api, the expansions and the command line find games here,
so none of them needs another to do it.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from lumos.compiler.sources import GameSources


def _package_dir(package: str) -> Path:
    return Path(str(resources.files(package)))


def bundled_games() -> list[str]:
    """Ids of the games shipped with Lumos (folders of `rules/` with a game.lumos)."""
    root = _package_dir("lumos.rules")
    return sorted(p.name for p in root.iterdir() if (p / "game.lumos").is_file())


def game_sources(game: str | Path, cards: str | Path | None = None) -> GameSources:
    """Sources for a bundled game id, or for a folder holding game.lumos."""
    if isinstance(game, str) and game in bundled_games():
        rules = _package_dir("lumos.rules") / game
        return GameSources(game, rules, _package_dir("lumos.cards") / game, _package_dir("lumos.cards") / "schema")
    path = Path(game)
    rules = path if path.is_dir() else path.parent
    card_dir = Path(cards) if cards else (rules / "cards" if (rules / "cards").is_dir() else None)
    schema_dir = card_dir / "schema" if card_dir and (card_dir / "schema").is_dir() else \
        _package_dir("lumos.cards") / "schema"
    return GameSources(rules.resolve().name, rules, card_dir, schema_dir)   # `.` is named after its folder
