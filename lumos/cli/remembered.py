"""A clean `lumos check` of a game, remembered: the same files checked by the same code give the
same result, so a check run again on unchanged files prints it without compiling anything.

Why: most checks are a designer running `lumos check` again after editing something else, or
CI checking every bundled game; compiling a game costs several times Python's start. What
is remembered is plain data in the compiler's cache (lumos.compiler.cache: JSON only, in a
folder only the user can write, refused otherwise): the diagnostics (warnings: a result
with an error is never remembered), the texts of the files they point into, and the `ok:`
line.

The key covers everything the result depends on: every file of the game (names and bytes,
and the listing of its folders, so an added or removed file counts), its card test files,
the paths as given (diagnostics name them), the Python version, Lumos's own code (each
module's size and modification time, as Python's own bytecode cache does) and the
installed packages (their distribution names and versions, from site-packages). Anything
else (expansions, card files or team files given with the game) is checked in full.
`LUMOS_NO_CACHE=1` turns this off with every other cache; `LUMOS_NO_CACHE=check` turns off
only this one.
"""
from __future__ import annotations

import hashlib
import os
import sys
from importlib.util import find_spec
from pathlib import Path

KIND = "verdict"   # cache entries `verdict-...`; LUMOS_NO_CACHE=check turns them off
_CODE_PACKAGES = ("lumos", "lumos.compiler", "lumos.interpreter", "lumos.grammar")
_CODE_SUFFIXES = (".py", ".lark", ".json")
_LIBRARIES = ("lark", "jsonschema", "yaml", "referencing")


def enabled() -> bool:
    from lumos.compiler import cache
    return not cache.disabled() and os.environ.get("LUMOS_NO_CACHE", "") != "check"


def key(target) -> str | None:
    """The cache key of a target's check, or None when it is not one that is remembered."""
    src = target.src
    if target.kind != "game" or src is None or target.extra or target.teams or not enabled():
        return None
    from lumos.compiler import cache
    from lumos.compiler.named_files import read_bytes
    from lumos.compiler.sources import MAX_HASHED_BYTES
    from lumos.toolkit.cardtests import find_test_files
    h = hashlib.sha256()
    h.update(sys.version.encode())
    h.update(_code_signature().encode())
    folders = [src.rules_dir, src.cards_dir, src.schema_dir, *src.overrides, *target.test_roots]
    for folder in folders:
        if folder is not None and Path(folder).is_dir():
            h.update(f"\0dir {folder}\0".encode() + "\0".join(sorted(os.listdir(folder))).encode())
    files = src.all_files() + find_test_files([r for r in target.test_roots if Path(r).is_dir()])
    for f in files:
        h.update(f"\0file {f}\0".encode())
        try:
            h.update(read_bytes(Path(f), MAX_HASHED_BYTES))
        except OSError:
            return None        # an unreadable file: the check says why
    return cache.key(KIND, h.digest())


def _code_signature() -> str:
    """Lumos's modules (path, size, mtime) and the installed distributions' names and versions."""
    parts = []
    for package in _CODE_PACKAGES:
        spec = find_spec(package)
        for root in (spec.submodule_search_locations or []) if spec else []:
            for folder, dirs, names in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(names):
                    if name.endswith(_CODE_SUFFIXES):
                        st = os.stat(os.path.join(folder, name))
                        parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
    sites = set()
    for lib in _LIBRARIES:
        spec = find_spec(lib)
        if spec is not None and spec.origin:
            sites.add(os.path.dirname(os.path.dirname(spec.origin)))
    for site in sorted(sites):
        try:
            parts += sorted(n for n in os.listdir(site) if n.endswith((".dist-info", ".egg-info")))
        except OSError:
            parts.append(f"{site}: unreadable")
    return "\n".join(parts)


def recall(name: str) -> dict | None:
    """The remembered result: {"diags": [Diagnostic], "files": {path: text}, "ok": line}, or None."""
    from lumos.compiler import cache
    data = cache.get(name)
    try:
        from lumos.diagnostics import Diagnostic, Span
        diags = [Diagnostic(d[0], d[1], Span(d[2], d[3], d[4], d[5], d[6]), d[7], d[8]) for d in data["diags"]]
        if any(d.is_error for d in diags) or not all(isinstance(v, str) for v in data["files"].values()) \
                or not isinstance(data["ok"], str):
            return None
        return {"diags": diags, "files": dict(data["files"]), "ok": data["ok"]}
    except (TypeError, KeyError, IndexError, ValueError, AttributeError):
        return None      # missing or not ours: check in full


def remember(name: str, diags: list, files: dict, ok: str) -> None:
    """Store a clean result (no error) under `name`."""
    from lumos.compiler import cache
    if any(d.is_error for d in diags):
        return
    shown = {d.span.file: files[d.span.file] for d in diags if d.span.file in files}
    cache.put(name, {"diags": [[d.code, d.message, d.span.file, d.span.line, d.span.col, d.span.end_line,
                                d.span.end_col, d.hint, d.severity] for d in diags],
                     "files": shown, "ok": ok})
