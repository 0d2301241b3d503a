"""bench/benchmark.py's smoke run prints every figure issue 14 asks of it (the structure of
its output only: speed is measured by the benchmark, never asserted by a test)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "benchmark.py"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--game", "snitch-snatcher", *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_quick_run_prints_every_figure():
    out = _run()
    for figure in ("hand-written Python tic-tac-toe", "Lumos tic-tac-toe", "Lumos Connect Four",
                   "snitch-snatcher", "ratio", "decisions/s", "games/s", "peak memory", "mid-game state",
                   "card compilation", "cards/s", "Cold `lumos check GAME`", "bare import", "max resident size"):
        assert figure in out, figure
    assert "OpenSpiel tic-tac-toe, pure Python" in out or "OpenSpiel skipped" in out
    assert "Lumos tic-tac-toe over OpenSpiel tic-tac-toe, pure Python: " in out or "OpenSpiel skipped" in out


def test_quick_run_as_json():
    data = json.loads(_run("--json"))
    names = [r["name"] for r in data["speed"] if "name" in r]
    assert names[0] == "hand-written Python tic-tac-toe"
    assert {"Lumos tic-tac-toe", "Lumos Connect Four", "snitch-snatcher"} <= set(names)
    base = data["speed"][0]
    assert base["ratio_to_handwritten"] == 1.0
    assert all(r["actions_per_second"] > 0 for r in data["speed"] if "name" in r)
    check = data["cold_check"]["games"]["snitch-snatcher"]
    assert {"wall_ratio", "cpu_ratio"} <= set(check)
    game = data["games"][0]
    assert game["game"] == "snitch-snatcher" and game["cards"]["cards"] > 0


WORK = BENCH.parent / "work.py"


def test_bytecode_counts_are_the_same_on_every_run():
    """bench/work.py's figure is deterministic: the same seeds give the same count in two fresh
    processes (that is what makes it a yardstick where timings swing)."""
    def counts():
        done = subprocess.run([sys.executable, str(WORK), "--games", "2", "--game", "tic-tac-toe", "--json"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    first, second = counts(), counts()
    assert first == second
    assert first["tic-tac-toe"]["decisions"] > 0 and first["tic-tac-toe"]["bytecodes"] > 0
    assert first["hand-written tic-tac-toe"]["per_decision"] > 0


INSTRUCTIONS = BENCH.parent / "instructions.py"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (.ci/run installs it)")
def test_instruction_counts_agree_between_runs():
    """bench/instructions.py counts machine instructions per decision under valgrind: two fresh
    runs of the same seeds give the same figure to well within 1% (what makes it a yardstick for
    changes of 1-3% that timings on a shared machine cannot show)."""
    game = str(BENCH.parents[1] / "examples" / "tic-tac-toe")

    def per_decision():
        done = subprocess.run([sys.executable, str(INSTRUCTIONS), "--games", "60", "--warm", "1", "--game", game],
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        found = re.search(r"([\d,]+) decisions\s+([\d,]+) instructions/decision", done.stdout)
        assert found, done.stdout
        return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", ""))
    (made1, first), (made2, second) = per_decision(), per_decision()
    assert made1 == made2 > 0
    assert abs(first - second) <= 0.01 * first


def test_every_runner_reads_the_clock_about_once_a_millisecond():
    """The speed run's runners read the clock after a batch of games worth about a millisecond
    (the same rule for all), not after every game: read per game it weighed ~3% of a
    hand-written tic-tac-toe game and nothing of a long one."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        from benchmark import games_per_clock_read
    finally:
        sys.path.remove(str(BENCH.parent))
    assert games_per_clock_read(0, 0.0) == 1                 # nothing measured yet: one game
    assert games_per_clock_read(100, 0.002) == 50            # 20 us a game: 50 games a millisecond
    assert games_per_clock_read(10, 0.05) == 1               # 5 ms a game: every game
    assert games_per_clock_read(10**6, 0.01) == 256          # a bound on the overshoot
