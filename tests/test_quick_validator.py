"""The quick yes/no card validator (every `$ref` inlined) agrees with the full validator.

`load_card_file` trusts the quick validator's "valid" and skips the detailed report, so a
file it wrongly accepted would hide a designer's mistake. Checked on the bundled decks,
the example expansion and every broken card file of the corpora.
"""
from pathlib import Path

import pytest
import yaml

from lumos.api import game_sources
from lumos.compiler.cards import card_validator, quick_validator

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = game_sources("snitch-snatcher").schema_dir / "snitch-snatcher.schema.json"


def documents():
    files = sorted(game_sources("snitch-snatcher").cards_dir.glob("*.yaml"))
    files += sorted((ROOT / "examples").rglob("*.yaml"))
    files += sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
    for path in files:
        if path.stat().st_size > 50_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
            if "&" in text and "*" in text:   # alias bombs belong to the loader's tests
                continue
            data = yaml.safe_load(text)
        except (yaml.YAMLError, UnicodeDecodeError, ValueError):
            continue
        if isinstance(data, dict) and "cards" in data:
            yield pytest.param(data, id=str(path.relative_to(ROOT)) if ROOT in path.parents else path.name)


@pytest.mark.parametrize("data", list(documents()))
def test_quick_and_full_validators_agree(data):
    full_valid = not any(True for _ in card_validator(SCHEMA).iter_errors(data))
    assert quick_validator(SCHEMA).is_valid(data) == full_valid


def test_the_corpus_has_both_valid_and_invalid_files():
    verdicts = {quick_validator(SCHEMA).is_valid(p.values[0]) for p in documents()}
    assert verdicts == {True, False}
