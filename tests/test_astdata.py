"""lumos.compiler.astdata: a rules file's AST written as JSON comes back exactly as the builder
made it (every field, every span, every type), and a damaged, planted or stale entry is a miss
that builds the AST again: never a traceback, never an object of another class."""
from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from lumos.compiler import astdata as A
from lumos.compiler import nodes as N
from lumos.compiler import parse as P
from lumos.compiler.build_ast import Origin, build
from lumos.diagnostics import LumosSyntaxError, Span

from support.caches import own_cache

ROOT = Path(__file__).resolve().parents[1]
RULES = sorted(glob.glob(str(ROOT / "rules" / "*" / "*.lumos")) + glob.glob(str(ROOT / "examples" / "*" / "*.lumos")))
BIG = next(p for p in RULES if len(Path(p).read_text(encoding="utf-8")) > A.DISK_MIN_CHARS * 4)


def _exact(value):
    """Everything of a value, spans and types included (nodes compare without their spans)."""
    if isinstance(value, N.Node):
        return (type(value).__name__, tuple((k, _exact(v)) for k, v in sorted(vars(value).items())))
    if isinstance(value, tuple):
        return ("tuple", tuple(_exact(v) for v in value))
    if isinstance(value, Span):
        return ("Span", value.file, value.line, value.col, value.end_line, value.end_col)
    return (type(value).__name__, value)


def _built(path: str):
    text = Path(path).read_text(encoding="utf-8")
    return text, build(P.parse(text, path), Origin(path))


@pytest.mark.parametrize("path", RULES, ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_every_rules_file_comes_back_from_json_exactly(path):
    _, tree = _built(path)
    files: list[str] = []
    data = json.loads(json.dumps(A.to_data(tree, files)))
    assert _exact(A.from_data(data, files)) == _exact(tree)


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    folder = own_cache(monkeypatch, tmp_path)
    monkeypatch.setattr(A, "_BUILT", {})
    return folder


def _entry(folder: Path) -> Path:
    [entry] = folder.glob("ast-*.json")
    return entry


def _again(monkeypatch):
    """rules_ast of BIG as a new process would: nothing remembered in memory."""
    monkeypatch.setattr(A, "_BUILT", {})
    text = Path(BIG).read_text(encoding="utf-8")
    return A.rules_ast(text, BIG)


def test_a_rules_file_built_once_comes_back_from_the_cache_without_the_parser(fresh, monkeypatch):
    text, tree = _built(BIG)
    A.rules_ast(text, BIG)
    _entry(fresh)
    monkeypatch.setattr(P, "parse", lambda *a, **k: pytest.fail("parsed again"))
    import lumos.compiler.build_ast as B
    monkeypatch.setattr(B, "build", lambda *a, **k: pytest.fail("built again"))
    assert _exact(_again(monkeypatch)) == _exact(tree)


def test_the_same_text_at_another_path_gets_its_own_spans(fresh, tmp_path):
    text = Path(BIG).read_text(encoding="utf-8")
    A.rules_ast(text, BIG)
    elsewhere = A.rules_ast(text, str(tmp_path / "copy.lumos"))
    assert {d.span.file for d in elsewhere.decls} == {str(tmp_path / "copy.lumos")}
    assert len(list(fresh.glob("ast-*.json"))) == 2


@pytest.mark.parametrize("damage", ["truncated", "not-a-node-class", "a-span-for-a-node", "missing-field",
                                    "extra-field", "bad-span", "deep", "wrong-version", "not-a-game"])
def test_a_damaged_or_planted_entry_is_a_miss_and_is_written_again(fresh, monkeypatch, damage):
    text, tree = _built(BIG)
    A.rules_ast(text, BIG)
    entry = _entry(fresh)
    whole = json.loads(entry.read_text(encoding="utf-8"))
    ast = whole["data"]["ast"]
    first = ast[3][1]     # the first declaration
    if damage == "not-a-node-class":
        first[1] = "Path"        # a class of another module: never made
    elif damage == "a-span-for-a-node":
        ast[3][1] = [2, 0, 1, 1, 1, 1]
    elif damage == "missing-field":
        first.pop()
    elif damage == "extra-field":
        first.append(1)
    elif damage == "bad-span":
        ast[2] = [2, 5, 1, 1, 1, 1]        # a file number that is not listed
    elif damage == "deep":
        nested = 0
        for _ in range(A.MAX_DEPTH + 5):
            nested = [0, nested]
        ast[3] = [0, nested]
    elif damage == "wrong-version":
        whole["lumos-cache"] = "0"
    elif damage == "not-a-game":
        whole["data"]["ast"] = first
    text_out = json.dumps(whole)
    entry.write_text(text_out[:200] if damage == "truncated" else text_out, encoding="utf-8")
    assert _exact(_again(monkeypatch)) == _exact(tree)
    assert json.loads(entry.read_text(encoding="utf-8"))["data"]["ast"][0] == 1    # written again


def test_an_edited_builder_or_text_is_built_again(fresh, monkeypatch):
    text, tree = _built(BIG)
    A.rules_ast(text, BIG)
    monkeypatch.setattr(A, "_stamp", lambda: b"another builder")
    _again(monkeypatch)
    assert len(list(fresh.glob("ast-*.json"))) == 2
    monkeypatch.setattr(A, "_BUILT", {})
    edited = text + "\nconst added_for_the_test = [1]\n"
    assert [d.name for d in A.rules_ast(edited, BIG).decls if isinstance(d, N.Const)][-1] == "added_for_the_test"


def test_a_syntax_error_is_raised_and_nothing_is_written(fresh):
    text = Path(BIG).read_text(encoding="utf-8") + "\nprocedure broken(:\n"
    with pytest.raises(LumosSyntaxError):
        A.rules_ast(text, BIG)
    assert not list(fresh.glob("ast-*.json")) if fresh.exists() else True


def test_only_nodes_spans_tuples_and_plain_values_are_written():
    class Other:
        pass
    for bad in (Other(), [1], {"a": 1}, P.Token("NAME", "x"), N.Num(Span("f", 1, 1), [1])):
        with pytest.raises(TypeError):
            A.to_data(bad, [])
