"""Compiled artefacts as plain JSON data on disk, keyed by content hash, in a folder only the
user can write: boards (`board-`), the grammar's tables (`grammar-`), the parse trees of rules
files (`tree-`), the ASTs of rules files (`ast-`, lumos.compiler.astdata), the parse trees of a
game's card texts in one entry (`asts-`, lumos.compiler.astdata.text_bundle), the verdict that a
card schema follows JSON Schema (`schema-`), loaded YAML files (`yaml-`, lumos.compiler.yamldata),
and clean `lumos check` results (`verdict-`).

Why: building a board imports networkx and computes all-pairs distances, parsing the rules
and analysing the grammar take most of a `lumos check`; a designer running it again on
unchanged files should not pay for them. Why JSON and not pickle: loading a pickle runs
whatever code the file names, and a cache folder is a place others can sometimes reach
(a shared home, a CI cache restored from elsewhere, a container image). An entry here is
only ever read with `json.loads` and then rebuilt by the owner's decoder, so a planted
file can at worst be a miss. The folder is refused (no cache, one warning) when it is a
symlink, is not the user's own or is writable by others; a new one is created 0700.

Where: `$XDG_CACHE_HOME/lumos` (default `~/.cache/lumos`). `LUMOS_NO_CACHE=1` turns every
cache off: nothing is read and nothing is written; `LUMOS_NO_CACHE=check` only the remembered
results of a clean `lumos check` (lumos.cli.remembered): the game is compiled again.

>>> key("board", b"name: strip")[:6]
'board-'
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys

VERSION = "4-layout"   # bump when the layout of a cached value changes (4-layout: boards carry their drawing layout)
MAX_ENTRY_BYTES = 64_000_000   # an entry larger than this is not ours: a miss, never read
_SUFFIX = ".json"
_checked: dict[str, str | None] = {}   # folder -> None when usable, else why it is refused
_warned: set[str] = set()


def disabled() -> bool:
    """Whether LUMOS_NO_CACHE turns every cache off (any value but empty, `0` and `check`, which
    turns off only the remembered results of `lumos check`, lumos.cli.remembered)."""
    return os.environ.get("LUMOS_NO_CACHE", "") not in ("", "0", "check")


def location() -> str:
    """The cache folder's path (whether or not it exists or is usable)."""
    root = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(root):  # the XDG spec: a relative path is ignored
        root = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "lumos")


def folder() -> str | None:
    """The cache folder, created 0700 when missing; None when caching is off or the folder is refused."""
    if disabled():
        return None
    path = location()
    if path not in _checked:
        _checked[path] = _prepare(path)
    why = _checked[path]
    if why is None:
        return path
    if path not in _warned:
        _warned.add(path)
        sys.stderr.write(f"lumos: warning: not using the cache folder {path}: {why}; working without a "
                         f"cache (make it yours and mode 0700, set XDG_CACHE_HOME, or set LUMOS_NO_CACHE=1)\n")
    return None


def _prepare(path: str) -> str | None:
    """Create `path` 0700 if missing; None when it is safe to use, else the reason it is not."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        return f"it cannot be created ({exc.strerror or exc})"
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or exc})"
    return refusal(st)


def refusal(st: os.stat_result) -> str | None:
    """Why a folder with this (l)stat must not hold the cache, or None when it may."""
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"others can write in it (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def key(kind: str, data: bytes) -> str:
    return f"{kind}-{hashlib.sha256(VERSION.encode() + data).hexdigest()[:24]}"


def get(name: str, object_hook=None):
    """The plain data stored under `name` (dicts, lists, texts, numbers), or None on any miss.

    `object_hook` is json.loads's: it turns each decoded JSON object into a value (plain data only)."""
    base = folder()
    if base is None:
        return None
    try:
        fd = os.open(os.path.join(base, name + _SUFFIX), os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
                return None
            # read what fstat says is there (+1 to see a file that grew): read(n) allocates n bytes
            # first, and MAX_ENTRY_BYTES each time made every entry cost 61 MiB of memory at its peak
            entry = json.loads(f.read(st.st_size + 1), object_hook=object_hook)
    except (OSError, ValueError, TypeError, KeyError, RecursionError):  # missing, stale or corrupt: just a miss
        return None
    if not isinstance(entry, dict) or entry.get("lumos-cache") != VERSION or entry.get("name") != name:
        return None
    return entry.get("data")


def put(name: str, data) -> None:
    """Store JSON-able `data` under `name`, atomically (temp file + rename); failures are ignored."""
    base = folder()
    if base is None:
        return
    final = os.path.join(base, name + _SUFFIX)
    partial = f"{final}.{os.getpid()}.partial"
    try:
        text = json.dumps({"lumos-cache": VERSION, "name": name, "data": data}, separators=(",", ":"))
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, final)
    except (OSError, ValueError, TypeError, RecursionError):
        try:
            os.remove(partial)
        except OSError:
            pass


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)   # a FIFO planted as an entry must not block the open
