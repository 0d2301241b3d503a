"""A clean `lumos check` is remembered, and only while nothing it depends on has changed.

README, "The cache, and LUMOS_NO_CACHE": a clean check of unchanged files prints the same
result without compiling; a changed or added file, a change of Lumos's own code, or a
result with an error is checked in full; `LUMOS_NO_CACHE=check` turns it off. These tests
run `lumos check` in this process (lumos.cli.main) with the cache in a temporary folder,
on a copy of the example tic-tac-toe given one warning.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import lumos.compiler.game as game_module
import lumos.cli.remembered as remembered
from lumos.cli import main
from lumos.compiler import cache

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "tic-tac-toe"
UNUSED = "function unused_helper(s) = mark of s is none\n"   # W301: never used


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A copy of the tic-tac-toe with one warning, and a cache of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("LUMOS_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_checked", {})
    monkeypatch.setattr(cache, "_warned", set())
    folder = tmp_path / "ttt"
    shutil.copytree(EXAMPLE, folder)
    rules = folder / "game.lumos"
    rules.write_text(rules.read_text(encoding="utf-8") + UNUSED, encoding="utf-8")
    return folder


class _Compiles:
    """Counts the games `lumos check` compiles."""

    def __init__(self, monkeypatch):
        self.count = 0
        original = game_module.check_game

        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(game_module, "check_game", counted)


def _check(capsys, *args) -> tuple[int, str]:
    status = main(["check", *args])
    return status, capsys.readouterr().out


def _verdicts(tmp_path) -> list[Path]:
    return sorted((tmp_path / "cache" / "lumos").glob("verdict-*.json"))


def test_a_clean_check_again_prints_the_same_without_compiling(game, capsys, monkeypatch, tmp_path):
    compiles = _Compiles(monkeypatch)
    first = _check(capsys, str(game))
    first_json = _check(capsys, str(game), "--format", "json")
    assert compiles.count == 1 and len(_verdicts(tmp_path)) == 1
    assert first[0] == 0 and "W301" in first[1] and "ok: ttt" in first[1]
    assert _check(capsys, str(game)) == first
    assert _check(capsys, str(game), "--format", "json") == first_json
    assert _check(capsys, str(game), "--strict")[0] == 1          # the remembered warning still counts
    assert compiles.count == 1
    monkeypatch.setenv("LUMOS_NO_CACHE", "1")
    assert _check(capsys, str(game)) == first                     # what a full check prints
    assert json.loads(_check(capsys, str(game), "--format", "json")[1]) == json.loads(first_json[1])


def test_a_changed_file_is_checked_again(game, capsys, monkeypatch):
    compiles = _Compiles(monkeypatch)
    assert _check(capsys, str(game))[0] == 0
    rules = game / "game.lumos"
    rules.write_text(rules.read_text(encoding="utf-8").replace("set s.mark = me", "set s.mark = nobody"),
                     encoding="utf-8")
    status, out = _check(capsys, str(game))
    assert status == 1 and "nobody" in out and compiles.count == 2


def test_an_added_file_is_checked_again(game, capsys, monkeypatch):
    compiles = _Compiles(monkeypatch)
    assert _check(capsys, str(game))[0] == 0
    (game / "more.lumos").write_text("const broken = \n", encoding="utf-8")
    status, _out = _check(capsys, str(game))
    assert status == 1 and compiles.count == 2


def test_a_change_of_lumos_itself_is_checked_again(game, capsys, monkeypatch):
    compiles = _Compiles(monkeypatch)
    assert _check(capsys, str(game))[0] == 0
    signature = remembered._code_signature()
    monkeypatch.setattr(remembered, "_code_signature", lambda: signature + "\nlumos/cli/check.py:1:2")
    assert _check(capsys, str(game))[0] == 0
    assert compiles.count == 2


def test_a_result_with_an_error_is_never_remembered(game, capsys, monkeypatch, tmp_path):
    compiles = _Compiles(monkeypatch)
    rules = game / "game.lumos"
    rules.write_text(rules.read_text(encoding="utf-8") + "const broken = \n", encoding="utf-8")
    assert _check(capsys, str(game))[0] == 1
    assert _check(capsys, str(game))[0] == 1
    assert compiles.count == 2 and _verdicts(tmp_path) == []


def test_no_cache_check_compiles_every_time(game, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("LUMOS_NO_CACHE", "check")
    compiles = _Compiles(monkeypatch)
    assert _check(capsys, str(game)) == _check(capsys, str(game))
    assert compiles.count == 2 and _verdicts(tmp_path) == []


def test_a_planted_verdict_that_hides_an_error_is_not_believed(game, capsys, monkeypatch, tmp_path):
    """An entry claiming an error-free result made of errors is refused (checked in full)."""
    assert _check(capsys, str(game))[0] == 0
    [entry] = _verdicts(tmp_path)
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["data"]["diags"][0][8] = "error"
    entry.write_text(json.dumps(data), encoding="utf-8")
    compiles = _Compiles(monkeypatch)
    assert _check(capsys, str(game))[0] == 0 and compiles.count == 1
