"""`lumos view` on the command line: what it accepts, its positioned errors, and the page it
serves (on 127.0.0.1 only) for a log and for a live game."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from lumos.api import load_game
from lumos.cli import main
from lumos.interpreter.play import write_game_log

ROOT = Path(__file__).resolve().parent.parent
GAME = "catch-the-golden-snitch"


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("viewcli") / "game.jsonl"
    write_game_log(load_game(GAME), path, seed=2)
    return path


def test_a_file_that_is_not_a_log_is_v100(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n", encoding="utf-8")
    assert main(["view", str(notes), "--no-open"]) == 1
    err = capsys.readouterr().err
    assert "notes.txt:1:1: V100 `notes.txt` is not a Lumos game log" in err
    assert "lumos simulate GAME --log-dir DIR" in err


def test_a_log_that_does_not_replay_is_v101_at_its_line(log, tmp_path, capsys):
    lines = log.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if '"choice"' in line and json.loads(line)["choice"] == 0)
    rec = json.loads(lines[k])
    rec["choice"] = 1
    lines[k] = json.dumps(rec)
    bad = tmp_path / "edited.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["view", str(bad), "--no-open"]) == 1
    err = capsys.readouterr().err
    assert f"edited.jsonl:{k + 1}:1: V101 the log does not replay" in err
    assert "lumos replay LOG" in err


def test_seed_with_a_log_is_a_usage_error(log, capsys):
    assert main(["view", str(log), "--seed", "1", "--no-open"]) == 2
    assert "--seed plays a game live" in capsys.readouterr().err


def _serve(*args):
    """Start `lumos view ... --no-open --port 0`, return (process, base address)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "lumos", "view", *args, "--no-open", "--port", "0"],
                            cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, line.split(" at ", 1)[1].split()[0].rstrip("/")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as e:
        with e:
            return e.code


def _stop(proc) -> None:
    proc.terminate()
    proc.communicate(timeout=60)


def test_view_serves_a_log_on_the_loopback_address(log):
    proc, base = _serve(str(log))
    try:
        with urllib.request.urlopen(base + "/sides.json", timeout=60) as r:
            sides = json.load(r)
        assert sides["sides"] == ["home", "away"] and sides["live"] is False
        assert _status(base + "/data/away.json") == 200
        assert _status(base + "/viewer.js") == 200
    finally:
        _stop(proc)


def test_view_of_a_game_plays_it_live_and_hides_the_agents_side():
    proc, base = _serve(GAME, "--seed", "2", "--as", "away")
    try:
        with urllib.request.urlopen(base + "/sides.json", timeout=60) as r:
            assert json.load(r) == {"sides": ["away"], "title": load_game(GAME).title, "live": True}
        assert _status(base + "/data/away.json") == 200
        assert _status(base + "/data/home.json") == 403
    finally:
        _stop(proc)
