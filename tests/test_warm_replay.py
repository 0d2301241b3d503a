"""A log written by a warm process replays in a fresh one (issue 10, item 1).

DESIGN.md, "Runtime model > Log" and "Quality bars": the same seed and the same choices give
the same game and the same log, byte for byte, whatever the process ran before. The lowered
rules remember parts of conditions for as long as the process lives (compiler/purity.py);
what they skip must not change the state. So:

- the same seeds played twice in one process (the second time after the first has warmed
  every memo) give the same state at every decision and the same log, for both bundled games
  (Catch the Golden Snitch with the options funding=7 and spectators=on too);
- the logs of one `lumos simulate -n 50 --log-dir` run (every log after the first written by a
  warm process) all replay in a fresh process.
"""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

from lumos.api import load_game
from lumos.cli import main
from lumos.interpreter.agents import agent_seed, make_agent
from lumos.interpreter.engine import GameState
from lumos.interpreter.log import GameLog

MAX_DECISIONS = 5_000
PLAYS = [("catch-the-golden-snitch", {"funding": 7, "spectators": "on"}),
         ("catch-the-golden-snitch", None),
         ("snitch-snatcher", None)]
SEEDS = (1157, 3, 42, 808)


def play_recorded(cg, seed: int, options: dict | None) -> tuple[list[str], str]:
    """One game of two seeded random agents: the state's JSON at every decision, and the log."""
    out = io.StringIO()
    agents = [make_agent("random", agent_seed(seed, k)) for k in range(cg.nsides)]
    writer = GameLog(out, cg, seed, options, ["random"] * cg.nsides)
    state = GameState.new(cg, seed=seed, options=options, log=True)
    writer.start(state)
    snapshots = []
    while not state.is_terminal() and len(snapshots) < MAX_DECISIONS:
        snapshots.append(state.to_json())
        choice = state.sample_chance() if state.is_chance_node() else agents[state.current_player()].choose(state)
        writer.decision(state, choice)
        state.apply_action(choice)
        writer.flush_events(state)
    assert state.is_terminal(), f"seed {seed} did not end within {MAX_DECISIONS} decisions"
    snapshots.append(state.to_json())
    writer.finish(state)
    return snapshots, out.getvalue()


@pytest.mark.parametrize("game,options", PLAYS, ids=lambda v: str(v))
def test_the_same_seeds_twice_in_one_process_give_the_same_games(game, options):
    cg = load_game(game)
    first = {seed: play_recorded(cg, seed, options) for seed in SEEDS}
    for seed in SEEDS:     # every memo of the lowered rules is warm now
        snapshots, log = play_recorded(cg, seed, options)
        before, log_before = first[seed]
        assert len(snapshots) == len(before), f"seed {seed}: the game took another course"
        for k, (a, b) in enumerate(zip(before, snapshots)):
            assert a == b, f"seed {seed}: the state at decision {k} differs in a warm process"
        assert log == log_before, f"seed {seed}: the log differs in a warm process"


REPLAY_ALL = """
import sys
from pathlib import Path
from lumos.api import load_game
from lumos.interpreter.log import replay
cg = load_game(sys.argv[1])
bad = 0
for path in sorted(Path(sys.argv[2]).glob("*.jsonl"), reverse=True):   # not the order they were written
    result = replay(cg, path)
    if not result.ok:
        bad += 1
        print(path.name, result)
print(bad, "diverged")
sys.exit(1 if bad else 0)
"""


@pytest.mark.parametrize("game,flags", [("catch-the-golden-snitch", ["--option", "funding=7", "--option",
                                                                     "spectators=on"]),
                                        ("snitch-snatcher", [])], ids=lambda v: str(v))
def test_every_log_of_a_simulation_replays_in_a_fresh_process(game, flags, tmp_path, capsys):
    assert main(["simulate", game, "-n", "50", "--seed", "1150", "--quiet", "--log-dir", str(tmp_path), *flags]) == 0
    capsys.readouterr()
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 50
    done = subprocess.run([sys.executable, "-c", REPLAY_ALL, game, str(tmp_path)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 diverged")


# A tiny game made for the test (no rulebook): the condition's first part is remembered per
# value of `it` (it reads no state) and writes the argument slot of the inlined `big`; the
# second part reads a variable, so it runs every time.
TINY_BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""
TINY_GAME = """\
game "Memo"
board "board.yaml"
sides red, blue
var score = 0

function big(x) = x > 2

flow:
    loop:
        may choose k from [1, 2, 3, 4] where big(it + 1) and it + score > 0 by red label "take {k}"
        if k is none:
            stop
        set score = score + k
    end in a draw
"""


def test_a_remembered_part_leaves_the_state_as_a_run_would(tmp_path):
    from lumos.compiler.game import GameSources, check_game
    rules = tmp_path / "memo"
    rules.mkdir()
    (rules / "game.lumos").write_text(TINY_GAME)
    (rules / "board.yaml").write_text(TINY_BOARD)
    cg, diags, _ = check_game(GameSources("memo", rules, None, None))
    assert cg is not None, [d.headline() for d in diags]

    def snapshots():
        state, seen = GameState.new(cg, seed=1), []
        for choice in (0, 1, 2):
            seen.append(state.to_json())
            state.apply_action(choice)
        return seen, state.action_labels()
    first, labels = snapshots()
    assert labels == ["take 2", "take 3", "take 4", "do not choose"]
    assert snapshots() == (first, labels), "the warm memo changed a saved state"
