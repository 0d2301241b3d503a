"""A compiler cache of a test's own: the cache folder moved under tmp_path (XDG_CACHE_HOME),
caching on, and what the cache module remembers in this process (verdicts, warnings) cleared,
so a test sees exactly the entries it makes."""
from __future__ import annotations

from pathlib import Path

from lumos.compiler import cache


def own_cache(monkeypatch, tmp_path: Path) -> Path:
    """Point the cache at `tmp_path`; return the folder its entries go to (tmp_path / "lumos")."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("LUMOS_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_checked", {})
    monkeypatch.setattr(cache, "_warned", set())
    return tmp_path / "lumos"
