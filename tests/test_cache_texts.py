"""The caches a cold `lumos check` reads besides the rules files' ASTs: the ASTs of a game's
short texts in one entry (lumos.compiler.astdata.text_bundle), and the verdict that a card
schema follows JSON Schema (lumos.compiler.cards). Both are JSON, keyed on what they depend
on, and only ever a miss when damaged, stale or of another version: never a traceback, never
an AST for another text or another place, never a broken schema taken for a good one.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lumos.cards
from lumos.api import bundled_games
from lumos.compiler import astdata as A
from lumos.compiler import cache
from lumos.compiler import cards as C
from lumos.compiler import parse as P
from lumos.compiler.build_ast import build
from lumos.compiler.origin import Origin

from support.caches import own_cache

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_DIR = Path(lumos.cards.__file__).parent / "schema"
TEXTS = [("effect", "let x = 1\nif x > 0:\n    pass\n"), ("condition", "count(hand) > 2"),
         ("template_expr", "card_of(p)")]
HERE = Origin("cards.yaml", 7, 12, True)          # a `|` block: every line starts at column 12
MOVED = Origin("cards.yaml", 19, 3, False)        # the same texts further down, after an edit above


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """An empty cache under tmp_path; no text parsed or built yet in this process."""
    folder = own_cache(monkeypatch, tmp_path)
    _forget(monkeypatch)
    return folder


def _forget(monkeypatch):
    monkeypatch.setattr(P, "_TREES", {})
    monkeypatch.setattr(A, "_MADE", {})
    monkeypatch.setattr(A, "_DATA", {})


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.json"))


def _build_all(texts=TEXTS, origin=HERE) -> list:
    with A.text_bundle(b"game one"):
        return [A.text_ast(text, start, origin) for start, text in texts]


def _direct(texts=TEXTS, origin=HERE) -> list:
    """What the parser and the builder make of the texts, without any cache."""
    return [build(P.parse(text, origin.file, start, origin), origin) for start, text in texts]


def _as_data(nodes) -> list:
    """The nodes with their spans (nodes compare without them)."""
    files: list = []
    return [A.to_data(n, files) for n in nodes], files


def _no_lark(monkeypatch):
    def refuse(self, text):
        raise AssertionError(f"parsed by Lark: {text!r}")
    monkeypatch.setattr(P._StartParser, "parse", refuse)


def test_short_texts_come_back_from_one_entry_without_lark_placed_where_they_are(fresh, monkeypatch):
    first = _build_all()
    assert _as_data(first) == _as_data(_direct())
    [entry] = _entries(fresh, "asts")
    assert sorted(json.loads(entry.read_text(encoding="utf-8"))["data"]) == sorted(f"{s}\0{t}" for s, t in TEXTS)
    _forget(monkeypatch)
    _no_lark(monkeypatch)
    again = _build_all()
    assert _as_data(again) == _as_data(first)
    moved = _build_all(origin=MOVED)          # found by its text; its spans where it is now
    monkeypatch.undo()
    assert _as_data(moved) == _as_data(_direct(origin=MOVED)) != _as_data(first)


def test_an_edited_text_is_parsed_again_and_the_others_still_found(fresh, monkeypatch):
    _build_all()
    _forget(monkeypatch)
    parsed = []
    real = P._StartParser.parse
    monkeypatch.setattr(P._StartParser, "parse", lambda self, text: parsed.append(text) or real(self, text))
    edited = TEXTS[:2] + [("template_expr", "card_of(q)")]
    nodes = _build_all(edited)
    assert parsed == ["card_of(q)\n"]
    assert nodes[2].args[0].name == "q"
    data = json.loads(_entries(fresh, "asts")[0].read_text(encoding="utf-8"))["data"]
    assert "template_expr\0card_of(p)" not in data     # what the block no longer used is dropped


@pytest.mark.parametrize("damage", ["truncated", "not-a-mapping", "bad-ast", "other-kind", "wrong-version",
                                    "other-text"])
def test_a_damaged_entry_is_a_miss_and_is_written_again(fresh, monkeypatch, damage):
    first = _build_all()
    [entry] = _entries(fresh, "asts")
    whole = json.loads(entry.read_text(encoding="utf-8"))
    if damage == "truncated":
        entry.write_text(entry.read_text(encoding="utf-8")[:50], encoding="utf-8")
    elif damage == "not-a-mapping":
        whole["data"] = [1, 2, 3]
    elif damage == "bad-ast":
        whole["data"] = {k: [1, "Num", [2, 5, 1, 1, 1, 2], 3] for k in whole["data"]}   # a span of no file
    elif damage == "other-kind":      # the effect's entry holds an expression, the condition's statements
        data = whole["data"]
        effect, condition = (next(k for k in data if k.startswith(s)) for s in ("effect", "condition"))
        data[effect], data[condition] = data[condition], data[effect]
    elif damage == "wrong-version":
        whole["lumos-cache"] = "0"
    else:    # an entry copied under another bundle's name is not believed
        shutil.copy(entry, entry.with_name("asts-000000000000000000000000.json"))
        entry.unlink()
    if damage not in ("truncated", "other-text"):
        entry.write_text(json.dumps(whole), encoding="utf-8")
    _forget(monkeypatch)
    again = _build_all()
    assert _as_data(again) == _as_data(first)
    fixed = json.loads(entry.read_text(encoding="utf-8"))
    assert fixed["lumos-cache"] == cache.VERSION and len(fixed["data"]) == len(TEXTS)


def test_a_syntax_error_is_reported_as_without_the_bundle(fresh):
    with pytest.raises(P.LumosSyntaxError) as with_bundle:
        _build_all([("effect", "let x = (1\n")])
    P._TREES.clear()
    with pytest.raises(P.LumosSyntaxError) as without:
        P.parse("let x = (1\n", HERE.file, "effect", HERE)
    assert str(with_bundle.value) == str(without.value)
    assert not _entries(fresh, "asts") or json.loads(
        _entries(fresh, "asts")[0].read_text(encoding="utf-8"))["data"] == {}


def test_without_a_cache_the_bundle_reads_and_writes_nothing(fresh, monkeypatch):
    monkeypatch.setenv("LUMOS_NO_CACHE", "1")
    _build_all()
    assert not fresh.exists()


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_every_text_of_a_bundled_game_comes_back_as_the_parser_builds_it(game, fresh, monkeypatch):
    """A check of the game fills the entry; a second, with nothing kept in memory, reads every
    card text, `{...}` hole and short rules file from it: each AST, spans included, is the one
    the parser and the builder make of that text at that place."""
    from lumos.api import load_game
    from lumos.compiler.game import check_game
    from lumos.games import game_sources
    src = game_sources(game)
    with A.text_bundle(b"every text"):
        check_game(src)
    _forget(monkeypatch)
    seen = []
    real = A.text_ast

    def recording(text, start, origin):
        node = real(text, start, origin)
        seen.append((text, start, origin, node))
        return node
    monkeypatch.setattr(A, "text_ast", recording)
    monkeypatch.setattr(P._StartParser, "parse", lambda self, text: pytest.fail(f"parsed by Lark: {text!r}"))
    with A.text_bundle(b"every text"):
        cg, diags, _files = check_game(src)
    monkeypatch.undo()
    assert cg is not None and not [d for d in diags if d.is_error]
    from lumos.reference.english import english_sources
    written = {v for cd in load_game(game).card_defs for v in english_sources(cd.fields).values()}
    assert seen and written <= {text for text, *_ in seen}     # Trivia's cards hold questions, no effects
    for text, start, origin, node in seen:
        expected = build(P.parse(text, origin.file, start, origin), origin)
        assert _as_data([node]) == _as_data([expected]), (start, text, origin)


def test_a_warm_check_in_a_fresh_process_never_imports_lark(tmp_path):
    """The second check of a game reads every AST from the cache: Lark is not even imported."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "LUMOS_NO_CACHE": "check"}
    code = ("import sys\n"
            "from lumos.cli import main\n"
            "status = main(['check', 'catch-the-golden-snitch'])\n"
            "print(status, sorted(m for m in sys.modules if m == 'lark' or m.startswith('lark.')))\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env,
                           cwd=str(ROOT)) for _ in range(2)]
    first, second = (r.stdout.strip().splitlines()[-1] for r in runs)
    assert first.startswith("0 ['lark'")       # the first one parsed
    assert second == "0 []", runs[1].stderr


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
