"""Card test coverage: the results of card test files -> for each folder of cards (a game's
`cards/GAME/`, an expansion's folder), the cards with an effect that no passing case exercised.

A card *has an effect* when it holds statements: an `effect` field or a field named
`..._effect` (the fields the compiler lowers to statements). A passing case *exercises* a
card when, during its choices and steps (not while its position is set up), those
statements ran: the engine notes each card whose statements `play` runs
(`Machine.played`), so a case that only names a card, or holds it in a zone, exercises
nothing. Whether the case's expectations check what the card's text says is the writer's
part; `covers:` in a case states which cards it is about and fails the case when one was
not exercised (T221). The format and the command (`lumos test --coverage`) are documented
in docs/designers.md; nothing here knows a game.

    >>> from lumos.toolkit.cardtests import run_file                      # doctest: +SKIP
    >>> report = measure([run_file("my-expansion/tests/cards.test.yaml")])  # doctest: +SKIP
    >>> [(r.folder, r.uncovered) for r in report]                           # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lumos.toolkit.cardtests import compile_for, effect_fields


@dataclass
class FolderCoverage:
    """One folder of cards: its cards with an effect and the ones some passing case exercised."""

    folder: str
    with_effect: list[str] = field(default_factory=list)
    covered: set[str] = field(default_factory=set)
    without: set[str] = field(default_factory=set)

    @property
    def without_effect(self) -> int:
        """How many cards (by name) have no effect: data the rules read."""
        return len(self.without - set(self.with_effect))

    @property
    def uncovered(self) -> list[str]:
        return [n for n in self.with_effect if n not in self.covered]


def _resolved(card_file: str) -> str:
    return str(Path(card_file).resolve())


def _folder(card_file: str) -> Path:
    return Path(card_file).resolve().parent


def measure(results, extra_cards: dict | None = None) -> list[FolderCoverage]:
    """Coverage of the card folders the results' test files belong to (a test file belongs to
    the card folders it lies in: `cards/GAME/tests/x.test.yaml` to `cards/GAME`), plus the
    folders of `extra_cards` ((card file, name) -> fields: games or expansions without tests)."""
    cards: dict = {(_resolved(f), n): v for (f, n), v in (extra_cards or {}).items()}
    owned: set[Path] = {_folder(f) for f, _n in cards}
    exercised: set = set()
    for r in results:
        if r.cards is None:
            continue
        here = Path(r.path).resolve()
        for (file, name), fields in r.cards.items():
            file = _resolved(file)
            cards.setdefault((file, name), fields)
            if _folder(file) in here.parents:
                owned.add(_folder(file))
        for c in r.cases:
            if c.passed:   # a card is one name in one folder (the same card in several decks is one)
                exercised |= {(_folder(f), n) for f, n in c.exercised}
    out: dict[Path, FolderCoverage] = {}
    for (file, name), fields in sorted(cards.items(), key=lambda kv: (str(_folder(kv[0][0])), kv[0][0])):
        folder = _folder(file)
        if folder not in owned:
            continue
        fc = out.setdefault(folder, FolderCoverage(_shown(folder)))
        if not effect_fields(fields):
            fc.without.add(name)
            continue
        if name not in fc.with_effect:
            fc.with_effect.append(name)
        if (folder, name) in exercised:
            fc.covered.add(name)
    return list(out.values())


def _shown(folder: Path) -> str:
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)


def shipped_cards() -> dict:
    """(card file, name) -> fields of every bundled game and every example expansion, so a
    game or an expansion that ships no test file is reported too."""
    from lumos.api import bundled_games, load_game
    out: dict = {}
    for g in bundled_games():
        cg = load_game(g)
        out.update({(c.span.file, c.name): c.fields for c in cg.cards})
    examples = Path(__file__).resolve().parents[2] / "examples"
    if examples.is_dir():
        from lumos.toolkit.expansions import load_expansion, manifest_path
        for folder in sorted(p for p in examples.iterdir() if manifest_path(p) is not None and p.is_dir()):
            exp, problems, _ = load_expansion(manifest_path(folder))
            if exp is None or problems:
                continue
            cg, _diags, _ = compile_for(str(folder / "coverage"), {"game": exp.extends, "with": ["."]})
            if cg is None:
                continue
            own = [(c.span.file, c.name, c.fields) for c in cg.cards if _folder(c.span.file) == folder.resolve()]
            out.update({(f, n): fields for f, n, fields in own})
    return out
