"""A small on-disk cache of compiled artefacts that are plain data (boards), keyed by content hash.

Why: building a board imports networkx and computes all-pairs distances; a designer
running `lumos check` again on an unchanged board should not pay for that. Entries
are pickles written atomically (temp file + rename) in the user's cache folder;
any problem reading or writing simply means "not cached".
"""
from __future__ import annotations

import hashlib
import os
import pickle

VERSION = "2"  # bump when the layout of a cached object changes


def folder() -> str | None:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(root, "lumos")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    return path


def key(kind: str, data: bytes) -> str:
    return f"{kind}-{hashlib.sha256(VERSION.encode() + data).hexdigest()[:24]}"


def get(name: str):
    base = folder()
    if base is None or os.environ.get("LUMOS_NO_CACHE"):
        return None
    try:
        with open(os.path.join(base, name + ".pickle"), "rb") as f:
            return pickle.load(f)
    except Exception:  # a missing, stale or corrupt entry is just a miss
        return None


def put(name: str, value) -> None:
    base = folder()
    if base is None or os.environ.get("LUMOS_NO_CACHE"):
        return
    final = os.path.join(base, name + ".pickle")
    partial = f"{final}.{os.getpid()}.partial"
    try:
        with open(partial, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, final)
    except Exception:
        try:
            os.remove(partial)
        except OSError:
            pass
