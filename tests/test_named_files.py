"""Files that are not what they seem: every path a game or an expansion names must be a regular
file inside its own folder (or the game it extends), checked before any byte is read.

DESIGN.md, "Quality bars": every path a game names stays inside its folder and is a regular
file of bounded size. The game-file cases (board, schema, rules and card files) are in the
broken-input corpus (tests/fixtures/broken/cases.yaml, `file-*`); here are the expansion
manifest's `cards:` and `rules:` lists, what `lumos check` prints for them, and the reader.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from lumos.api import game_sources
from lumos.cli import main
from lumos.compiler.named_files import RefusedFile, read_bytes, refusal

GAME = "snitch-snatcher"
OUTSIDE = "../" * 12 + "etc/passwd"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")


def _expansion(tmp_path: Path, manifest: str) -> Path:
    """An expansion folder with the bundled game's two card files and this manifest."""
    root = tmp_path / "exp"
    root.mkdir()
    for name in ("home.yaml", "away.yaml"):
        shutil.copy(game_sources(GAME).cards_dir / name, root / name)
    (root / "expansion.yaml").write_text(f"extends: {GAME}\nname: Odd Files\n{manifest}", encoding="utf-8")
    return root


def _check(capsys, target: Path) -> tuple[int, list[dict], str]:
    status = main(["check", str(target), "--format", "json"])
    diags = json.loads(capsys.readouterr().out)
    main(["check", str(target)])
    return status, diags, capsys.readouterr().out


def test_a_manifest_card_path_out_of_the_folder_is_refused_at_its_line(tmp_path, capsys):
    exp = _expansion(tmp_path, f"cards: [home.yaml, {OUTSIDE}]\n")
    status, diags, shown = _check(capsys, exp)
    assert status == 1
    bad = [d for d in diags if d["code"] == "E102"]
    assert [(d["line"], d["column"]) for d in bad] == [(3, 20)]
    assert bad[0]["message"] == f"the card file `{OUTSIDE}` is outside the folder `exp`"
    assert "root:" not in shown   # the outside file's lines are never printed
    assert f"  cards: [home.yaml, {OUTSIDE}]\n" + " " * 21 + "^" in shown


def test_a_manifest_card_that_links_out_is_refused(tmp_path, capsys):
    exp = _expansion(tmp_path, "cards: [home.yaml, away.yaml, passwd.yaml]\n")
    (exp / "passwd.yaml").symlink_to("/etc/passwd")
    status, diags, shown = _check(capsys, exp)
    assert status == 1
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("E102", 3, 31)]
    assert "is a link to a file outside the folder" in diags[0]["message"]
    assert "root:" not in shown


def test_a_link_out_among_the_default_card_files_is_refused_and_never_shown(tmp_path, capsys):
    exp = _expansion(tmp_path, "")
    (exp / "zz.yaml").symlink_to("/etc/passwd")
    status, diags, shown = _check(capsys, exp)
    assert status == 1
    assert [(d["code"], Path(d["path"]).name, d["line"]) for d in diags] == [("E102", "zz.yaml", 1)]
    assert "root:" not in shown


@needs_fifo
def test_a_fifo_a_manifest_names_is_refused_without_opening_it(tmp_path, capsys):
    exp = _expansion(tmp_path, "cards: [home.yaml, away.yaml, pipe.yaml]\nrules: [pipe.lumos]\n")
    os.mkfifo(exp / "pipe.yaml")
    os.mkfifo(exp / "pipe.lumos")
    status, diags, _shown = _check(capsys, exp)   # opening either would block this test for ever
    assert status == 1
    assert sorted((d["code"], d["line"], d["column"]) for d in diags) == [("E103", 3, 31), ("E103", 4, 9)]
    assert {d["message"] for d in diags} == {
        "the card file `pipe.yaml` is a named pipe (FIFO), not a regular file",
        "the rules file `pipe.lumos` is a named pipe (FIFO), not a regular file"}


@needs_fifo
def test_a_pattern_that_matches_a_fifo_reports_it(tmp_path, capsys):
    exp = _expansion(tmp_path, "cards: ['*.yaml']\n")
    os.mkfifo(exp / "pipe.yaml")
    status, diags, _shown = _check(capsys, exp)
    assert status == 1
    assert [(d["code"], d["line"], d["message"]) for d in diags] == [
        ("E103", 3, "the card file `pipe.yaml` (matched by `*.yaml`) is a named pipe (FIFO), not a regular file")]


def test_a_manifest_rules_path_out_of_the_folder_is_refused(tmp_path, capsys):
    exp = _expansion(tmp_path, f"rules: [{OUTSIDE[:-6]}x.lumos]\n")
    status, diags, _shown = _check(capsys, exp)
    assert status == 1
    assert [(d["code"], d["line"], d["column"]) for d in diags] == [("E102", 3, 9)]


def test_a_card_file_of_the_game_it_extends_may_be_named(tmp_path, capsys):
    """"(or the bundled game it extends)": naming the base game's own card file is allowed."""
    base_cards = game_sources(GAME).cards_dir / "home.yaml"
    exp = _expansion(tmp_path, f"cards: [{os.path.relpath(base_cards, tmp_path / 'exp')}]\n")
    status, diags, _shown = _check(capsys, exp)
    assert not [d for d in diags if d["code"] in ("E102", "E103")]


def test_dev_zero_as_the_board_is_refused_before_reading(tmp_path, capsys):
    """`board "/dev/zero"` used to read until memory ran out."""
    src = game_sources(GAME)
    rules = tmp_path / "game"
    shutil.copytree(src.rules_dir, rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    game = rules / "game.lumos"
    game.write_text(game.read_text(encoding="utf-8").replace('board "board.yaml"', 'board "/dev/zero"'),
                    encoding="utf-8")
    assert main(["check", str(rules)]) == 1
    out = capsys.readouterr().out
    assert "game.lumos:7:7: E102 the board file `/dev/zero` is outside the folder `game`" in out
    assert '  board "/dev/zero"\n        ^^^^^^^^^^^\n  hint: name a file inside the folder' in out


def test_the_reader_checks_size_before_reading(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"x" * 1001)
    with pytest.raises(RefusedFile) as caught:
        read_bytes(big, 1000, [tmp_path])
    assert caught.value.code == "E100" and caught.value.message == "is too big: more than 1000 bytes"
    assert read_bytes(big, 1001, [tmp_path]) == b"x" * 1001


def test_a_device_is_not_a_regular_file(tmp_path):
    assert refusal(Path("/dev/zero"), None)[:2] == ("E103", "is a device, not a regular file")
    assert refusal(Path("/dev/zero"), [tmp_path])[0] == "E102"
