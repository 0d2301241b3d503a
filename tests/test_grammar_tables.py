"""The grammar's analysed tables shipped with the package (grammar/lumos.tables.json.gz): the
first check on a new machine, or in a CI job with no cache, loads them instead of analysing the
grammar (about 0.6 s, more than the rest of a check). They are JSON, read only when they were
made from this grammar, with these parser options and this Lark version; otherwise the grammar
is analysed as before. After editing grammar/lumos.lark, remake them (`parse.REMAKE_TABLES`).
"""
from __future__ import annotations

import glob
import gzip
import json
from pathlib import Path

import lark
import pytest

from lumos.compiler import parse as P

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "grammar" / P.SHIPPED_TABLES


def _entry() -> dict:
    return json.loads(gzip.decompress(SHIPPED.read_bytes()))


def test_the_shipped_tables_are_this_grammars():
    assert _entry()["grammar"] == P.grammar_key(), \
        f"grammar/lumos.lark changed since its tables were made: run {P.REMAKE_TABLES}"


def test_they_are_read_exactly_when_made_with_this_lark():
    made_with_this_lark = _entry()["lark"] == lark.__version__
    assert (P.shipped_tables() is not None) == made_with_this_lark


@pytest.fixture
def parsers(monkeypatch, tmp_path):
    """A parser loaded from the shipped tables (no cache at all) and one analysed from the grammar."""
    if P.shipped_tables() is None:
        pytest.skip(f"the shipped tables were made with Lark {_entry()['lark']}, this is {lark.__version__}: "
                    f"they are not read (the test above pins that)")
    monkeypatch.setenv("LUMOS_NO_CACHE", "1")
    monkeypatch.setattr(P, "_lark", P._lark.__wrapped__)
    analysed = []
    real = P.Lark.__init__

    def counting(self, *args, **kwargs):
        analysed.append(1)
        real(self, *args, **kwargs)
    monkeypatch.setattr(P.Lark, "__init__", counting)
    loaded = P._lark()
    assert not analysed                      # nothing analysed: the shipped tables were read
    monkeypatch.undo()
    fresh = P._analysed()
    return loaded, fresh


def test_the_shipped_tables_parse_every_rules_file_as_the_grammar_does(parsers):
    loaded, fresh = parsers
    files = sorted(glob.glob(str(ROOT / "rules" / "*" / "*.lumos"))) + \
        sorted(glob.glob(str(ROOT / "examples" / "*" / "*.lumos")))
    assert files
    for path in files:
        text = Path(path).read_text(encoding="utf-8")
        assert _shape(loaded.parse(text, start="game")) == _shape(fresh.parse(text, start="game")), path


def _shape(tree) -> list:
    """A parse tree as data, rule names as plain texts (a loaded parser names rules by text, an
    analysed one by token: the AST builder reads both alike)."""
    data = P.tree_to_data(tree)

    def plain(d):
        if d[0] == 1:
            return [1, d[1], d[3], [plain(c) for c in d[4]]]
        return d
    return plain(data)


@pytest.mark.parametrize("text", ["if x = 1:\n    pass\n", "let x = (1\n", "if x:\npass\n", "let y = 3 +\n"])
def test_and_refuse_what_it_refuses_at_the_same_place_expecting_the_same(parsers, text):
    loaded, fresh = parsers
    errors = []
    for parser in (loaded, fresh):
        with pytest.raises(lark.exceptions.UnexpectedInput) as err:
            parser.parse(text, start="effect")
        e = err.value
        errors.append((type(e).__name__, e.line, e.column, sorted(getattr(e, "expected", None) or ())))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("damage", ["missing", "truncated", "not-json", "other-grammar"])
def test_damaged_or_foreign_tables_are_not_read(monkeypatch, tmp_path, damage):
    folder = tmp_path / "grammar"
    folder.mkdir()
    (folder / "lumos.lark").write_text(P.grammar_text(), encoding="utf-8")
    entry = _entry()
    if damage == "truncated":
        (folder / P.SHIPPED_TABLES).write_bytes(SHIPPED.read_bytes()[:100])
    elif damage == "not-json":
        (folder / P.SHIPPED_TABLES).write_bytes(gzip.compress(b"{not json"))
    elif damage == "other-grammar":
        entry["key"] = entry["key"][:-4] + "0000"
        (folder / P.SHIPPED_TABLES).write_bytes(gzip.compress(json.dumps(entry).encode()))
    monkeypatch.setattr(P.resources, "files", lambda package: folder)
    assert P.shipped_tables() is None
