"""The compiler's on-disk cache holds data that cannot run code, in a folder only the user can write.

DESIGN.md, "Quality bars": no pickle is loaded from a folder anyone else could write. These
tests plant what an attacker would (pickle payloads, damaged JSON) in a cache that a real
`lumos check` filled, and check that nothing runs, that the check still passes and that the
entries are rebuilt; that a folder others can write is refused with one warning; and that
LUMOS_NO_CACHE writes nothing at all.
"""
from __future__ import annotations

import glob
import json
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from lumos.compiler import cache
from lumos.compiler.boards import load_board
from lumos.compiler.parse import parser, tree_from_data, tree_to_data
from lumos.interpreter.board import Board

from support.caches import own_cache

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"


def _check(cache_home: Path, **env) -> subprocess.CompletedProcess:
    """`lumos check` of the bundled game in a fresh process whose cache lives under `cache_home`."""
    full = {k: v for k, v in os.environ.items() if k != "LUMOS_NO_CACHE"}
    full.update(XDG_CACHE_HOME=str(cache_home), **env)
    return subprocess.run([sys.executable, "-m", "lumos", "check", "--game", GAME], env=full,
                          capture_output=True, text=True, timeout=300)


class _Payload:
    """A pickle that, when loaded, creates a folder: proof that the cache ran planted code."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


@pytest.fixture
def filled(tmp_path) -> Path:
    """A cache folder filled by one real `lumos check`."""
    done = _check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = tmp_path / "lumos"
    assert {p.name.split("-")[0] for p in folder.iterdir()} >= {"board", "astparts", "asts", "schema"}
    return folder


def test_the_folder_is_created_private_and_holds_json_only(filled):
    assert stat.S_IMODE(filled.stat().st_mode) == 0o700
    for entry in filled.iterdir():
        assert entry.suffix == ".json", entry.name
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600
        json.loads(entry.read_text(encoding="utf-8"))   # plain JSON, nothing else


def test_planted_pickles_never_run_and_entries_are_rebuilt(filled, tmp_path):
    marker = tmp_path / "the-payload-ran"
    payload = pickle.dumps(_Payload(marker))
    names = [p.name for p in filled.iterdir()]
    for name in names:   # every entry, and the names the old pickle cache used
        (filled / name).write_bytes(payload)
        stem = name.rsplit(".", 1)[0]
        (filled / f"{stem}.pickle").write_bytes(payload)
        (filled / f"{stem}.lark-cache").write_bytes(payload)
    done = _check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists(), "a planted pickle was loaded"
    for name in names:
        json.loads((filled / name).read_text(encoding="utf-8"))   # rebuilt as data


@pytest.mark.parametrize("damage", ["truncated", "wrong-shape", "wrong-version"])
def test_damaged_json_entries_are_ignored_and_rebuilt(filled, tmp_path, damage):
    names = sorted(p.name for p in filled.iterdir())
    for name in names:
        path = filled / name
        entry = json.loads(path.read_text(encoding="utf-8"))
        if damage == "truncated":
            path.write_text(path.read_text(encoding="utf-8")[:100], encoding="utf-8")
        elif damage == "wrong-shape":
            entry["data"] = {"T": [1, "x", {"D": [[1]]}], "spaces": 5}
            path.write_text(json.dumps(entry), encoding="utf-8")
        else:
            entry["lumos-cache"] = "0"
            path.write_text(json.dumps(entry), encoding="utf-8")
    done = _check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "internal error" not in done.stdout + done.stderr
    for name in names:
        assert json.loads((filled / name).read_text(encoding="utf-8"))["lumos-cache"] == cache.VERSION


def test_no_cache_writes_nothing(tmp_path):
    """LUMOS_NO_CACHE turns every cache off, the grammar's too: not even the folder is made."""
    done = _check(tmp_path, LUMOS_NO_CACHE="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """The cache module pointed at `tmp_path`, with its remembered verdicts and warnings cleared."""
    own_cache(monkeypatch, tmp_path)
    return tmp_path


def test_a_folder_others_can_write_is_refused_with_one_warning(fresh, capsys):
    folder = fresh / "lumos"
    folder.mkdir()
    folder.chmod(0o777)
    assert cache.folder() is None
    cache.put("board-x", {"a": 1})
    assert cache.get("board-x") is None
    assert list(folder.iterdir()) == []
    err = capsys.readouterr().err
    assert err.count("warning") == 1
    assert f"not using the cache folder {folder}: others can write in it (mode 0777)" in err


def test_a_symlinked_folder_is_refused(fresh, tmp_path_factory, capsys):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    elsewhere.chmod(0o700)
    (fresh / "lumos").symlink_to(elsewhere)
    assert cache.folder() is None
    assert "it is a symbolic link" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a folder away")
def test_a_folder_of_another_user_is_refused(fresh, capsys):
    folder = fresh / "lumos"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    assert cache.folder() is None
    assert "it belongs to another user (uid 65534)" in capsys.readouterr().err


def test_a_fifo_planted_as_an_entry_is_a_miss_not_a_hang(fresh):
    base = cache.folder()
    assert base is not None
    os.mkfifo(os.path.join(base, "tree-planted.json"))
    assert cache.get("tree-planted") is None


def test_an_entry_round_trips_and_names_itself(fresh):
    cache.put("board-a", {"x": [1, 2]})
    assert cache.get("board-a") == {"x": [1, 2]}
    os.replace(os.path.join(cache.folder(), "board-a.json"), os.path.join(cache.folder(), "board-b.json"))
    assert cache.get("board-b") is None   # an entry copied under another key is not believed


@pytest.mark.parametrize("board", sorted(glob.glob(str(ROOT / "rules" / "*" / "board.yaml"))),
                         ids=lambda p: Path(p).parent.name)
def test_boards_come_back_from_json_unchanged(board):
    b = load_board(board)
    assert Board.from_data(json.loads(json.dumps(b.as_data()))) == b


def _shape(node, rule_type: bool = True):
    """Everything of a parse tree, positions included (Lark's == compares rules and texts only).

    `rule_type`: whether rule names must also agree on being a Token or a str; a parser that
    Lark loads from saved tables (its own pickle cache too) names rules with plain str."""
    if hasattr(node, "children"):
        meta = node.meta
        return (str(node.data), type(node.data).__name__ if rule_type else "", dict(meta.__dict__),
                [_shape(c, rule_type) for c in node.children])
    return (node.type, str(node), node.start_pos, node.line, node.column, node.end_line, node.end_column,
            node.end_pos)


@pytest.mark.parametrize("rules", sorted(glob.glob(str(ROOT / "rules" / "*" / "*.lumos"))),
                         ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_parse_trees_come_back_from_json_with_their_positions(rules):
    tree = parser("game").parse(Path(rules).read_text(encoding="utf-8"))
    back = tree_from_data(json.loads(json.dumps(tree_to_data(tree))))
    assert _shape(back) == _shape(tree)


def test_the_grammar_loaded_from_json_parses_like_a_fresh_one(fresh, monkeypatch):
    """The grammar's tables come back from the cache (not from Lark's pickle) and parse every
    bundled rules file exactly as a parser built from the grammar does."""
    from lumos.compiler import parse as P
    monkeypatch.setattr(P, "_lark", P._lark.__wrapped__)   # no process-wide parser: build, then load
    monkeypatch.setattr(P, "shipped_tables", lambda: None)  # nor the package's own tables
    built = P._lark()
    assert [p.name.split("-")[0] for p in (fresh / "lumos").iterdir()] == ["grammar"]
    loaded = P._lark()
    assert loaded is not built
    for rules in sorted(glob.glob(str(ROOT / "rules" / "*" / "*.lumos"))):
        text = Path(rules).read_text(encoding="utf-8")
        assert _shape(loaded.parse(text, start="game"), False) == _shape(built.parse(text, start="game"), False)
