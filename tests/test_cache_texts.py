"""The caches a cold `lumos check` reads besides the rules files' trees: the parse trees of a
game's short texts in one entry (lumos.compiler.parse.tree_bundle), and the verdict that a
card schema follows JSON Schema (lumos.compiler.cards). Both are JSON, keyed on what they
depend on, and only ever a miss when damaged, stale or of another version: never a traceback,
never a tree for another text, never a broken schema taken for a good one.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import lumos.cards
from lumos.compiler import cache
from lumos.compiler import cards as C
from lumos.compiler import parse as P

from support.caches import own_cache

SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"
TEXTS = [("effect", "let x = 1\n"), ("condition", "count(hand) > 2"), ("template_expr", "card_of(p)")]


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """An empty cache under tmp_path; no tree parsed yet in this process."""
    folder = own_cache(monkeypatch, tmp_path)
    monkeypatch.setattr(P, "_TREES", {})
    return folder


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.json"))


def _parse_all(texts=TEXTS) -> list:
    with P.tree_bundle(b"game one"):
        return [P.parse(text, "cards.yaml", start) for start, text in texts]


def _no_lark(monkeypatch):
    def refuse(self, text):
        raise AssertionError(f"parsed by Lark: {text!r}")
    monkeypatch.setattr(P._StartParser, "parse", refuse)


def _forget_trees(monkeypatch):
    monkeypatch.setattr(P, "_TREES", {})


def test_short_texts_come_back_from_one_entry_without_lark(fresh, monkeypatch):
    first = _parse_all()
    [entry] = _entries(fresh, "texts")
    assert sorted(json.loads(entry.read_text(encoding="utf-8"))["data"]) == sorted(
        f"{s}\0{t if t.endswith(chr(10)) else t + chr(10)}" for s, t in TEXTS)
    _forget_trees(monkeypatch)
    _no_lark(monkeypatch)
    again = _parse_all()
    assert [t.pretty() for t in again] == [t.pretty() for t in first]
    assert [t.meta.__dict__ for t in again] == [t.meta.__dict__ for t in first]


def test_an_edited_text_is_parsed_again_and_the_others_still_found(fresh, monkeypatch):
    _parse_all()
    _forget_trees(monkeypatch)
    parsed = []
    real = P._StartParser.parse
    monkeypatch.setattr(P._StartParser, "parse", lambda self, text: parsed.append(text) or real(self, text))
    edited = TEXTS[:2] + [("template_expr", "card_of(q)")]
    trees = _parse_all(edited)
    assert parsed == ["card_of(q)\n"]
    assert "q" in trees[2].pretty()
    data = json.loads(_entries(fresh, "texts")[0].read_text(encoding="utf-8"))["data"]
    assert "template_expr\0card_of(p)\n" not in data     # what the block no longer used is dropped


@pytest.mark.parametrize("damage", ["truncated", "not-a-mapping", "bad-tree", "wrong-version", "other-text"])
def test_a_damaged_entry_is_a_miss_and_is_written_again(fresh, monkeypatch, damage):
    first = _parse_all()
    [entry] = _entries(fresh, "texts")
    whole = json.loads(entry.read_text(encoding="utf-8"))
    if damage == "truncated":
        entry.write_text(entry.read_text(encoding="utf-8")[:50], encoding="utf-8")
    elif damage == "not-a-mapping":
        whole["data"] = [1, 2, 3]
    elif damage == "bad-tree":
        whole["data"] = {k: [1, "game", False, "nowhere", [[7]]] for k in whole["data"]}
    elif damage == "wrong-version":
        whole["lumos-cache"] = "0"
    else:    # an entry copied under another bundle's name is not believed
        shutil.copy(entry, entry.with_name("texts-000000000000000000000000.json"))
        entry.unlink()
    if damage not in ("truncated", "other-text"):
        entry.write_text(json.dumps(whole), encoding="utf-8")
    _forget_trees(monkeypatch)
    again = _parse_all()
    assert [t.pretty() for t in again] == [t.pretty() for t in first]
    fixed = json.loads(entry.read_text(encoding="utf-8"))
    assert fixed["lumos-cache"] == cache.VERSION and len(fixed["data"]) == len(TEXTS)


def test_a_syntax_error_is_reported_as_without_the_bundle(fresh):
    with pytest.raises(P.LumosSyntaxError) as with_bundle:
        _parse_all([("effect", "let x = (1\n")])
    P._TREES.clear()
    with pytest.raises(P.LumosSyntaxError) as without:
        P.parse("let x = (1\n", "cards.yaml", "effect")
    assert str(with_bundle.value) == str(without.value)
    assert not _entries(fresh, "texts") or json.loads(
        _entries(fresh, "texts")[0].read_text(encoding="utf-8"))["data"] == {}


def test_without_a_cache_the_bundle_reads_and_writes_nothing(fresh, monkeypatch):
    monkeypatch.setenv("LUMOS_NO_CACHE", "1")
    _parse_all()
    assert not fresh.exists()


# ---------------------------------------------------------------- the schema's verdict
def _schema_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "schema"
    shutil.copytree(SCHEMA_DIR, folder)
    return folder


@pytest.fixture
def checks(monkeypatch):
    """How many times a schema was checked against the meta-schema; validators built anew."""
    C.card_validator.cache_clear()
    C.load_schema_registry.cache_clear()
    done = []
    from jsonschema import Draft202012Validator
    real = Draft202012Validator.check_schema
    monkeypatch.setattr(Draft202012Validator, "check_schema",
                        classmethod(lambda cls, schema, **kw: done.append(1) or real(schema, **kw)))
    yield done
    C.card_validator.cache_clear()
    C.load_schema_registry.cache_clear()


def _validate(folder: Path):
    C.card_validator.cache_clear()
    C.load_schema_registry.cache_clear()
    return C.card_validator(folder / "card.schema.json")


def test_a_schema_checked_once_is_not_checked_again(fresh, tmp_path, checks):
    folder = _schema_copy(tmp_path)
    _validate(folder)
    _validate(folder)
    assert len(checks) == 1 and len(_entries(fresh, "schema")) == 1


def test_an_edited_schema_is_checked_again_and_a_broken_one_refused(fresh, tmp_path, checks):
    folder = _schema_copy(tmp_path)
    _validate(folder)
    schema = json.loads((folder / "card.schema.json").read_text(encoding="utf-8"))
    schema["type"] = 12      # not a JSON Schema any more
    (folder / "card.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(Exception, match="12"):
        _validate(folder)
    assert len(checks) == 2


@pytest.mark.parametrize("damage", ["false", "text", "truncated"])
def test_a_damaged_verdict_means_checking_again(fresh, tmp_path, checks, damage):
    folder = _schema_copy(tmp_path)
    _validate(folder)
    [entry] = _entries(fresh, "schema")
    whole = json.loads(entry.read_text(encoding="utf-8"))
    whole["data"] = {"false": False, "text": "true"}.get(damage)
    entry.write_text(json.dumps(whole)[:20] if damage == "truncated" else json.dumps(whole), encoding="utf-8")
    _validate(folder)
    assert len(checks) == 2
    assert json.loads(entry.read_text(encoding="utf-8"))["data"] is True
