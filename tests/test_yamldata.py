"""lumos.compiler.yamldata: a card file's loaded YAML comes back from the JSON cache exactly as
the loader made it (values, types, every position and text style), and a damaged, stale or
planted entry is a miss that loads the text again; a text with a problem is never cached."""
from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from lumos.compiler import yamldata as D
from lumos.compiler import yamlload as Y
from lumos.diagnostics import LumosSyntaxError

from support.caches import own_cache

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in glob.glob(str(ROOT / "cards" / "**" / "*.yaml"), recursive=True) +
               glob.glob(str(ROOT / "examples" / "**" / "*.yaml"), recursive=True)
               if len(Path(p).read_text(encoding="utf-8")) >= D.MIN_CHARS)
BIG = max(FILES, key=lambda p: len(Path(p).read_text(encoding="utf-8")))


def _exact(value):
    """Everything of loaded data: values, types, positions, styles."""
    if isinstance(value, Y.MarkedDict):
        return ("map", value.start, [(_exact(k), _exact(v), value.key_marks[k], value.value_marks[k])
                                     for k, v in value.items()])
    if isinstance(value, Y.MarkedList):
        return ("list", value.start, [(_exact(v), m) for v, m in zip(value, value.marks)])
    if isinstance(value, Y.MarkedStr):
        return ("str", str(value), value.start, value.style)
    return (type(value).__name__, value)


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    folder = own_cache(monkeypatch, tmp_path)
    return folder


@pytest.mark.parametrize("path", FILES, ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_every_yaml_file_comes_back_from_json_exactly(path):
    loaded = Y._load(Path(path).read_text(encoding="utf-8"), path)
    try:
        data = D.to_data(loaded)
    except TypeError:
        pytest.skip("holds a value that is not cached")
    assert _exact(D.from_data(json.loads(json.dumps(data)))) == _exact(loaded)


def test_a_card_file_loaded_once_comes_back_from_the_cache(fresh, monkeypatch):
    text = Path(BIG).read_text(encoding="utf-8")
    first = Y.load_yaml(text, BIG)
    assert len(list(fresh.glob("yaml-*.json"))) == 1
    monkeypatch.setattr(Y, "_load", lambda *a: pytest.fail("loaded again"))
    assert _exact(Y.load_yaml(text, BIG)) == _exact(first)


@pytest.mark.parametrize("damage", ["truncated", "not-a-list", "odd-mapping", "bad-mark", "list-key",
                                    "twice-the-key", "wrong-version"])
def test_a_damaged_entry_is_a_miss_and_is_written_again(fresh, damage):
    text = Path(BIG).read_text(encoding="utf-8")
    first = Y.load_yaml(text, BIG)
    [entry] = fresh.glob("yaml-*.json")
    whole = json.loads(entry.read_text(encoding="utf-8"))
    data = whole["data"]
    if damage == "not-a-list":
        whole["data"] = {"cards": []}
    elif damage == "odd-mapping":
        data.append(1)
    elif damage == "bad-mark":
        data[1] = "one"
    elif damage == "list-key":
        data[3] = [2, 1, 1]
    elif damage == "twice-the-key":
        data[9:15] = data[3:9]
    elif damage == "wrong-version":
        whole["lumos-cache"] = "0"
    out = json.dumps(whole)
    entry.write_text(out[:100] if damage == "truncated" else out, encoding="utf-8")
    assert _exact(Y.load_yaml(text, BIG)) == _exact(first)
    assert json.loads(entry.read_text(encoding="utf-8"))["data"] == D.to_data(first)


def test_a_text_with_a_problem_or_an_alias_is_not_cached(fresh):
    broken = "cards:\n" + "".join(f"  - name: C{i}\n    type: x\n" for i in range(100)) + "  - answer: yes\n"
    for _ in range(2):     # the same error both times
        with pytest.raises(LumosSyntaxError, match="ambiguous"):
            Y.load_yaml(broken, "f.yaml")
    aliased = "base: &b {type: x}\ncards:\n" + "".join(f"  - name: C{i}\n    more: *b\n" for i in range(100))
    assert Y.load_yaml(aliased, "f.yaml")["cards"][0]["more"] == {"type": "x"}
    assert not list(fresh.glob("yaml-*.json")) if fresh.exists() else True


def test_only_plain_values_are_cached():
    for bad in (float("inf"), b"bytes", {"plain": "dict"}, ["plain list"], object()):
        with pytest.raises(TypeError):
            D.to_data(bad)
