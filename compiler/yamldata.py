"""Loaded YAML data with its positions (MarkedDict, MarkedList, MarkedStr: what
lumos.compiler.yamlload makes) <-> plain JSON lists, and the cache of a file's loaded data keyed
on its text.

Why: the YAML of a game's card files and card tests is a tenth of a cold `lumos check`, most
of it Python building marked values one by one; the same values written as JSON come back in
a third of the time. Only a text that loaded without a problem is cached (a problem is
reported by loading it again), and only when it holds no alias (shared values would come
back as copies) and every value is a text, a whole or finite number, a flag or empty.

Encoding: a mapping `[1, line, col, key, value, key line, key col, value line, value col, ...]`,
a list `[2, line, col, item, line, col, ...]`, a text `[3, text, line, col, style]`, other
values as themselves.
"""
from __future__ import annotations

import functools
import hashlib
import math
from pathlib import Path


class MarkedDict(dict):
    """A dict whose keys and values know their 1-based (line, col)."""

    key_marks: dict
    value_marks: dict

    def mark(self, key) -> tuple[int, int]:
        return self.value_marks.get(key, self.start)

    def key_mark(self, key) -> tuple[int, int]:
        return self.key_marks.get(key, self.start)


class MarkedList(list):
    """A list whose items know their 1-based (line, col)."""

    marks: list

    def mark(self, i: int) -> tuple[int, int]:
        return self.marks[i] if 0 <= i < len(self.marks) else self.start


class MarkedStr(str):
    """A string scalar that knows where its text starts and how it was written."""

    start: tuple[int, int]
    style: str | None  # None plain, '|' literal, '>' folded, quotes


MIN_CHARS = 1000    # shorter texts load faster than an entry is read
MAX_DEPTH = 200
_PLAIN = frozenset((int, bool, type(None)))


def to_data(value, depth: int = 0):
    """Marked YAML data as JSON-able lists; TypeError for any value of another kind."""
    if depth > MAX_DEPTH:
        raise TypeError("too deep to cache")
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise TypeError("a number JSON cannot hold")
        return value
    if kind is MarkedStr:
        return [3, str(value), *value.start, value.style]
    if kind is MarkedDict:
        out = [1, *value.start]
        for k, v in value.items():
            out += [to_data(k, depth + 1), to_data(v, depth + 1), *value.key_marks[k], *value.value_marks[k]]
        return out
    if kind is MarkedList:
        if len(value.marks) != len(value):
            raise TypeError("a list whose marks are not one per item")
        out = [2, *value.start]
        for item, mark in zip(value, value.marks):
            out += [to_data(item, depth + 1), *mark]
        return out
    raise TypeError(f"cannot cache a {kind.__name__} of YAML data")


def from_data(data, depth: int = 0):
    """The value `to_data` wrote; ValueError, TypeError or IndexError when it is not such data."""
    if type(data) in _PLAIN or type(data) is float:
        return data
    if type(data) is not list or not data or depth > MAX_DEPTH:
        raise ValueError("not YAML data")
    tag = data[0]
    if tag == 3:
        _, text, line, col, style = data
        if type(text) is not str or not (style is None or type(style) is str):
            raise ValueError("not a YAML text")
        value = MarkedStr(text)
        value.start, value.style = _mark(line, col), style
        return value
    if tag == 1:
        if (len(data) - 3) % 6:
            raise ValueError("not a YAML mapping")
        out = MarkedDict()
        out.start = _mark(data[1], data[2])
        out.key_marks, out.value_marks = {}, {}
        for i in range(3, len(data), 6):
            key = from_data(data[i], depth + 1)
            if key in out or isinstance(key, (MarkedDict, MarkedList)):
                raise ValueError("a key twice, or not a plain value")
            out[key] = from_data(data[i + 1], depth + 1)
            out.key_marks[key] = _mark(data[i + 2], data[i + 3])
            out.value_marks[key] = _mark(data[i + 4], data[i + 5])
        return out
    if tag == 2:
        if (len(data) - 3) % 3:
            raise ValueError("not a YAML list")
        out = MarkedList(from_data(data[i], depth + 1) for i in range(3, len(data), 3))
        out.start = _mark(data[1], data[2])
        out.marks = [_mark(data[i + 1], data[i + 2]) for i in range(3, len(data), 3)]
        return out
    raise ValueError("not YAML data")


def _mark(line, col) -> tuple[int, int]:
    if type(line) is not int or type(col) is not int:
        raise ValueError("not a position")
    return (line, col)


@functools.lru_cache(maxsize=1)
def _stamp() -> bytes:
    """What loaded data depends on besides the text: the loader's code and PyYAML's version."""
    import yaml
    loader = Path(__file__).with_name("yamlload.py")
    return hashlib.sha256(yaml.__version__.encode() + b"\0" + loader.read_bytes()
                          + Path(__file__).read_bytes()).digest()


def cache_name(text: str) -> str | None:
    """The cache entry of this text's loaded data, or None when it is not one that is cached."""
    from lumos.compiler import cache
    if len(text) < MIN_CHARS or ("&" in text and "*" in text) or cache.folder() is None:
        return None
    try:
        return cache.key("yaml", _stamp() + text.encode("utf-8"))
    except OSError:
        return None


def saved(name: str):
    """The data cached under `name`, or None (missing, damaged, of another version)."""
    from lumos.compiler import cache
    entry = cache.get(name)
    if entry is None:
        return None
    try:
        value = from_data(entry)
    except (ValueError, TypeError, IndexError, RecursionError):
        return None
    return value if isinstance(value, MarkedDict) else None


def save(name: str, value) -> None:
    """Cache a loaded document (a mapping: a card file, a card test file); others are skipped."""
    from lumos.compiler import cache
    if not isinstance(value, MarkedDict):
        return
    try:
        data = to_data(value)
    except (TypeError, KeyError, RecursionError):
        return
    cache.put(name, data)
