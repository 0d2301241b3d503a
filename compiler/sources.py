"""Where a game's files are (GameSources): its rules, board, cards and card schema, listed and hashed.

Its own module, light to import (no compiler, no Lark): `lumos check` finds a game's files
and their hash before it knows whether it has anything to compile.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from lumos.compiler.named_files import is_plain_file, read_bytes

MAX_HASHED_BYTES = 8_000_000


@dataclass(frozen=True)
class GameSources:
    """Where one game's files are."""
    id: str
    rules_dir: Path
    cards_dir: Path | None
    schema_dir: Path | None
    # rules files of an expansion: each replaces the game's file of the same name, or is
    # read as one more rules file of the game
    overrides: tuple[Path, ...] = ()

    @property
    def game_file(self) -> Path:
        return next((p for p in self.overrides if p.name == "game.lumos"), self.rules_dir / "game.lumos")

    def rules_files(self) -> list[Path]:
        """game.lumos first, then the other rules files in name order (an override in the place
        of the game's file of its name)."""
        mine = {p.name: p for p in self.rules_dir.glob("*.lumos")}
        mine.update({p.name: p for p in self.overrides})
        return [self.game_file] + [mine[n] for n in sorted(mine) if n != "game.lumos"]

    def card_files(self) -> list[Path]:
        if self.cards_dir is None or not self.cards_dir.is_dir():
            return []
        return sorted(p for p in self.cards_dir.glob("*.yaml") if not p.name.endswith(".test.yaml"))  # card tests

    def roots(self) -> list[Path]:
        """The folders this game's files may be in (links followed): its own and its expansion's."""
        found = [self.rules_dir] + [p.parent for p in self.overrides]
        found += [d for d in (self.cards_dir, self.schema_dir) if d is not None]
        return found

    def all_files(self) -> list[Path]:
        """Every file the game is made of: plain files inside its folders (a FIFO or a link out is left out)."""
        files = self.rules_files() + sorted(self.rules_dir.glob("*.yaml")) + self.card_files()
        if self.schema_dir is not None and self.schema_dir.is_dir():
            files += sorted(self.schema_dir.glob("*.json"))
        return [f for f in files if is_plain_file(f, self.roots())]

    def content_hash(self) -> str:
        h = hashlib.sha256()
        for f in self.all_files():
            h.update(str(f.name).encode())
            try:
                h.update(read_bytes(f, MAX_HASHED_BYTES))
            except OSError:
                h.update(b"\0unreadable")
        return h.hexdigest()[:16]
