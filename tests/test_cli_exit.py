"""How `lumos check` (and `test`, `explain`, `schema`, `games`: the commands whose module sets
QUICK_EXIT) ends its process (lumos.cli.entry): with `os._exit` once its output is flushed and
the exit handlers have run, skipping the interpreter's teardown. These tests pin what must
survive that shortcut: every byte of the output, however long, through a pipe; the exit status;
the files a command writes; the program's exit handlers."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"
MISTAKES = 400     # each is a diagnostic: their JSON is several times a pipe's buffer


@pytest.fixture(scope="module")
def many_mistakes(tmp_path_factory) -> Path:
    """A copy of the bundled game whose rules use MISTAKES names nobody declared."""
    root = tmp_path_factory.mktemp("mistakes") / "game"
    shutil.copytree(ROOT / "rules" / GAME, root)
    shutil.copytree(ROOT / "cards" / GAME, root / "cards")
    with open(root / "game.lumos", "a", encoding="utf-8") as fh:
        fh.write("".join(f"\nfunction probe_{i}(n) = cuont_{i} + n\n" for i in range(MISTAKES)))
    return root


# `lumos ARGS` in a fresh process, in the checkout as this process runs, importing the same Lumos
# as this one: `python -m` would put the checkout first on the path, and with Lumos installed
# (not editable) its `lumos/` folder would be another Lumos, reading the checkout's card files.
ENTRY = "import sys; sys.path.pop(0); from lumos.cli import entry; entry()"


def _fresh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True, timeout=300,
                          cwd=str(ROOT), env=dict(os.environ))


def test_a_long_report_arrives_whole_through_a_pipe_with_its_exit_status(many_mistakes, capsys):
    status = main(["check", str(many_mistakes), "--format", "json"])
    expected = json.loads(capsys.readouterr().out)
    proc = _fresh("check", str(many_mistakes), "--format", "json")
    assert len(proc.stdout) > 2 * 65536          # more than a pipe holds at once
    assert proc.returncode == status == 1
    assert json.loads(proc.stdout) == expected
    assert sum("cuont_" in d["message"] for d in expected) == MISTAKES


def test_a_clean_check_ends_with_status_0_and_its_summary(capsys):
    proc = _fresh("check", GAME)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"ok: {GAME} (")


def test_exit_handlers_still_run():
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('handler ran', file=sys.stderr, flush=True))\n"
            f"sys.argv = ['lumos', 'check', {GAME!r}]\n"
            "from lumos.cli import entry\n"
            "entry()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    assert "handler ran" in proc.stderr


STARS = str(ROOT / "examples" / "catch-the-golden-snitch-stars")


@pytest.mark.parametrize("args", [
    ["test", STARS],                                        # card tests: their report and status
    ["explain", "Quick Jinx", "--game", "defenders-of-hogwarts"],
    ["schema", GAME],
    ["games", "--json"],
    ["check", GAME, "--format", "github"],
], ids=lambda a: a[0])
def test_each_quick_command_says_in_a_fresh_process_what_it_says_in_this_one(args, capsys):
    from lumos.cli import COMMAND_NAMES
    from importlib import import_module
    assert getattr(import_module(f"lumos.cli.{args[0]}"), "QUICK_EXIT", False) and args[0] in COMMAND_NAMES
    status = main(list(args))
    expected = capsys.readouterr().out
    proc = _fresh(*args)
    assert (proc.returncode, proc.stdout) == (status, expected)
    assert expected.strip()


def test_a_quick_command_writes_its_files_whole(tmp_path):
    proc = _fresh("schema", GAME, "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    written = sorted((tmp_path / "out").iterdir())
    assert written
    for path in written:
        json.loads(path.read_text(encoding="utf-8"))       # each file complete


def test_other_commands_end_the_ordinary_way():
    code = ("import sys\n"
            "sys.argv = ['lumos', 'replay', '--help']\n"
            "from lumos.cli import entry\n"
            "try:\n"
            "    entry()\n"
            "except SystemExit as exc:\n"
            "    print('exit', exc.code)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("exit 0")


def test_a_profiled_check_still_writes_its_profile(tmp_path):
    """`python -m cProfile -o FILE -m lumos check` writes FILE after the program returns: under a
    profiler the check ends the ordinary way."""
    out = tmp_path / "check.prof"
    proc = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "lumos", "check", GAME],
                          capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    import pstats
    assert pstats.Stats(str(out)).total_calls > 0
