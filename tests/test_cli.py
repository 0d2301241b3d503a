"""The `lumos` command line, driven as a user drives it: arguments in, text and exit status out.

Most tests call `main([...])` in-process (fast); a few run `python -m lumos` in a
fresh process to check the entry point, piped input and the absence of tracebacks.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"


def run(*args, stdin: str | None = None, env: dict | None = None):
    """`python -m lumos ARGS` in a fresh process."""
    return subprocess.run([sys.executable, "-m", "lumos", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


@pytest.fixture(scope="module")
def broken_game(tmp_path_factory) -> Path:
    """A copy of the bundled game whose rules use a name nobody declared."""
    root = tmp_path_factory.mktemp("broken") / "game"
    shutil.copytree(ROOT / "rules" / GAME, root)
    shutil.copytree(ROOT / "cards" / GAME, root / "cards")
    with open(root / "game.lumos", "a", encoding="utf-8") as fh:
        fh.write("\nfunction broken_probe(count) = cuont + 1\n")
    return root


@pytest.fixture(scope="module")
def sim_logs(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("logs")
    assert main(["simulate", GAME, "-n", "4", "--seed", "20", "--json", "--log-dir", str(out), "-q"]) == 0
    return out


# ---------------------------------------------------------------- games, help
def test_games_lists_the_bundled_game(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert GAME in out and "Snitch Snatcher" in out
    assert main(["games", "--json"]) == 0
    assert GAME in [g["id"] for g in json.loads(capsys.readouterr().out)]


def test_help_and_usage_errors(capsys):
    assert main(["--help"]) == 0
    assert "simulate" in capsys.readouterr().out
    assert main([]) == 2
    assert main(["simulate"]) == 2
    assert main(["check", "no-such-game"]) == 2
    assert "unknown game `no-such-game`" in capsys.readouterr().err
    assert main(["simulate", GAME, "--agents", "random,clever"]) == 2
    assert "unknown agent `clever`" in capsys.readouterr().err
    assert main(["simulate", GAME, "--option", "nonsense=1"]) == 2


# ---------------------------------------------------------------- check
def test_check_bundled_game_is_clean(capsys):
    assert main(["check", GAME]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^ok: {GAME} \(\d+ rules, \d+ cards\)", out, re.M)
    assert main(["check"]) == 0          # no arguments: every bundled game


def test_check_broken_copy_points_at_the_line(broken_game, capsys):
    assert main(["check", str(broken_game)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if " E201 " in line)
    m = re.match(r"^(.+game\.lumos):(\d+):(\d+): E201 unknown name `cuont`$", lines[head])
    assert m, lines[head]
    text = (broken_game / "game.lumos").read_text(encoding="utf-8").splitlines()
    assert int(m.group(2)) == len(text) and text[-1].index("cuont") + 1 == int(m.group(3))
    assert lines[head + 1] == "  " + text[-1]
    assert lines[head + 2].strip() == "^^^^^" and lines[head + 2].index("^") == 2 + text[-1].index("cuont")
    assert "hint: did you mean `count`?" in lines[head + 3]
    assert re.search(r"^1 error, \d+ warnings? in 1 file$", out, re.M)


def test_check_json(broken_game, capsys):
    assert main(["check", str(broken_game), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    e201 = [d for d in diags if d["code"] == "E201"]
    assert e201 and e201[0]["severity"] == "error" and e201[0]["path"].endswith("game.lumos")
    assert {"path", "line", "column", "code", "message", "hint"} <= set(e201[0])
    assert main(["check", GAME, "--format", "json"]) == 0
    assert all(d["severity"] == "warning" for d in json.loads(capsys.readouterr().out))


def test_other_commands_render_compile_errors(broken_game, capsys):
    assert main(["simulate", str(broken_game), "-n", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert "E201 unknown name `cuont`" in err and "^^^^^" in err and "Traceback" not in err


# ---------------------------------------------------------------- simulate
def test_simulate_json_is_reproducible(capsys):
    args = ["simulate", GAME, "-n", "5", "--seed", "7", "--json", "-q"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert without_timing(first) == without_timing(second)
    assert first["games"] == 5 and first["completed"] + first["errors"] == 5
    assert sum(first["wins"].values()) == first["completed"]
    assert set(first["wins"]) == {"home", "away", "draw"}
    assert first["seed"] == 7 and first["game"] == GAME
    assert {"mean_decisions", "games_per_second", "agents"} <= set(first)


def test_simulate_table_and_agents(capsys):
    assert main(["simulate", GAME, "-n", "2", "--agents", "greedy,random", "--option", "goals_to_win=5"]) == 0
    out = capsys.readouterr().out
    assert "completed" in out and "games/s" in out and "greedy" in out


def test_simulate_in_processes_matches_serial(capsys):
    base = ["simulate", GAME, "-n", "6", "--seed", "3", "--json", "-q"]
    assert main(base) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(base + ["--jobs", "2"]) == 0
    parallel = json.loads(capsys.readouterr().out)
    assert without_timing(serial) == without_timing(parallel)


def test_simulate_writes_logs(sim_logs):
    logs = sorted(sim_logs.glob("*.jsonl"))
    assert [p.name for p in logs] == sorted(f"{GAME}-{s}.jsonl" for s in range(20, 24))
    head = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])
    assert head["game"] == GAME and head["agents"] == ["random", "random"]


def test_stopped_games_are_counted_and_shown_without_traceback(capsys):
    assert main(["simulate", GAME, "-n", "3", "--seed", "5", "--max-decisions", "1", "--json", "-q"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["errors"] == summary["error_codes"].get("R010", 0) == 3 - summary["completed"]
    if summary["errors"]:
        assert "R010 the game did not end within 1 decision" in captured.err
        assert "Traceback" not in captured.err


# ---------------------------------------------------------------- replay
def test_replay_reproduces_and_detects_tampering(sim_logs, tmp_path, capsys):
    log = sim_logs / f"{GAME}-21.jsonl"
    assert main(["replay", str(log)]) == 0
    assert "reproduced" in capsys.readouterr().out
    lines = log.read_text(encoding="utf-8").splitlines()
    i = next(k for k, t in enumerate(lines) if '"event"' in t)
    rec = json.loads(lines[i])
    rec["event"] = rec["event"] + " (edited)"
    lines[i] = json.dumps(rec)
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"tampered.jsonl:{i + 1}: the replay diverges" in out
    assert "(edited)" in out
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


# ---------------------------------------------------------------- play
def test_play_with_piped_input():
    res = run("play", GAME, "--seed", "4", stdin="1\nnot a number\n99\n1\n1\nq\n")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "you play home" in out
    assert re.search(r"^\s+1\. ", out, re.M)               # numbered options
    assert "please type a number" in out                     # bad input asks again
    assert out.rstrip().endswith("quit.")
    assert "Traceback" not in res.stderr


def test_play_to_the_end_as_second_side(capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 2000))
    assert main(["play", GAME, "--seed", "1", "--as", "away", "--agent", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "you play away" in out
    assert "game over:" in out or "quit." in out
    assert main(["play", GAME, "--as", "nobody"]) == 2


# ---------------------------------------------------------------- board
def test_board_exports(tmp_path, capsys):
    for fmt in ("svg", "graphml", "json"):
        out = tmp_path / f"board.{fmt}"
        assert main(["board", GAME, "--format", fmt, "-o", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        if fmt == "json":
            data = json.loads(text)
            assert data
        else:
            root = ET.fromstring(text)
            assert root.tag.endswith("svg" if fmt == "svg" else "graphml")
    capsys.readouterr()
    assert main(["board", GAME, "--format", "json"]) == 0      # no -o: the export goes to stdout
    assert json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------- the entry point
def test_module_entry_point_and_internal_errors(tmp_path):
    res = run("check", GAME)
    assert res.returncode == 0 and f"ok: {GAME}" in res.stdout
    # an unreadable log is reported in one line, never with a traceback
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\xff\xfe not text")
    res = run("replay", str(log))
    assert res.returncode == 1 and "Traceback" not in res.stderr + res.stdout


def test_internal_errors_are_one_line(monkeypatch, capsys):
    import lumos.cli.games as games

    def broken(args):
        raise KeyError("oops")
    monkeypatch.setattr(games, "run", broken)
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and "LUMOS_DEBUG" in err
    monkeypatch.setenv("LUMOS_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["games"])
