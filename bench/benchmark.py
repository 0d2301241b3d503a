"""Lumos beside its peers and every bundled game: speed ratios, memory, state size, card compilation, cold check.

Run it as ``python bench/benchmark.py [--quick] [--reps N] [--seconds S] [--json]``. It prints
figures only; it passes or fails nothing (speed is measured here, never in timed tests).

In one process, random playouts (each side picks uniformly among its legal actions, chance
draws from the game's own generator; CPU time of this process, time.process_time) of:

- a plain hand-written Python tic-tac-toe (bench/handwritten_tictactoe.py): the baseline;
- the Lumos tic-tac-toe and Connect Four: the benchmark reads them where the repository keeps
  them, examples/tic-tac-toe and examples/connect-four (one copy, so the benchmark always
  runs the game the tests check);
- OpenSpiel's pure-Python tic-tac-toe (open_spiel.python.games.tic_tac_toe) and its C++
  tic_tac_toe and connect_four driven from Python through pyspiel (skipped, with a note,
  when OpenSpiel is not installed);
- every bundled game.

The implementations take turns, repetition after repetition, so that other load on a
shared machine falls on all alike; each one's actions/s (decisions/s for Lumos games:
chance outcomes not counted) is divided by the hand-written baseline's of the same
repetition, and the medians of the rates and of those ratios are printed; so is the median of
the per-repetition ratios of the Lumos tic-tac-toe to OpenSpiel's pure-Python one (the
issue's other tic-tac-toe target).

Then, for every bundled game: games/s of the driver `lumos simulate` uses (play_game with
random agents, forced decisions taken) and of the greedy agent against random; peak memory
(tracemalloc's peak while compiling the game and playing a few games, and the process's
maximum resident size at the end); the size of a serialised state (bytes of ``to_json``)
at the middle decision of a game; cards compiled per second (the time `check_game` spends
loading, validating, parsing and lowering the card files, divided into the number of
cards); the action space's size.

Last, the cold ``lumos check GAME`` of every bundled game in a fresh process against the
bare ``python -c "import lark, jsonschema, yaml, networkx"`` in a fresh process, taken in
turns: the median of the per-repetition ratios, in wall time and in the child's CPU time
(user + system; less sensitive to other load); once compiling the game (``LUMOS_NO_CACHE=check``:
what a designer waits for after an edit, with the JSON caches of earlier runs) and once with
the clean result remembered from the run before. Whether Lumos's own modules had compiled
bytecode (.pyc) to load is printed with it: without (an editable install under
PYTHONDONTWRITEBYTECODE=1), every start compiles them from source.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
EXAMPLES = REPO / "examples"
sys.path.insert(0, str(HERE))     # bench/handwritten_tictactoe.py
BARE_IMPORT = "import lark, jsonschema, yaml, networkx"
MAX_DECISIONS = 100_000   # a random playout that runs longer is cut (counted as played)


def games_per_clock_read(games: int, elapsed: float) -> int:
    """How many games to play before the clock is read again, the same rule for every runner:
    about a millisecond's worth. Read after every game, the clock (time.process_time, ~0.6 us
    here) was ~3% of a hand-written tic-tac-toe game of ~8 actions and next to nothing of a
    Snitch Snatcher game, which tilted the ratios towards the slower games."""
    if not games or elapsed <= 0:
        return 1
    return max(1, min(256, int(0.001 * games / elapsed)))
LUMOS_TTT = "Lumos tic-tac-toe"
OPENSPIEL_PYTHON = "OpenSpiel tic-tac-toe, pure Python"


def playouts(cg, games: int, agents=("random", "random"), seed0: int = 1000) -> dict:
    from lumos.interpreter.agents import agent_seed, make_agent
    from lumos.interpreter.play import play_game
    decisions = errors = 0
    start = time.process_time()   # CPU time: other load on the machine counts less
    for i in range(games):
        seed = seed0 + i
        players = [make_agent(agents[k % len(agents)], agent_seed(seed, k)) for k in range(cg.nsides)]
        r = play_game(cg, players, seed)
        decisions += r.decisions
        errors += r.error is not None
    elapsed = time.process_time() - start
    return {"games": games, "seconds": elapsed, "games_per_second": games / elapsed,
            "decisions_per_second": decisions / elapsed, "mean_decisions": decisions / max(1, games),
            "errors": errors}


def mid_game_state_size(cg, games: int = 10, seed0: int = 2000) -> dict:
    """Bytes of to_json() at the middle decision of each game (first pass counts the decisions)."""
    import random
    sizes = []
    for i in range(games):
        seed = seed0 + i
        n = _play_random(cg, seed, random.Random(seed), stop_at=None)[1]
        state, _ = _play_random(cg, seed, random.Random(seed), stop_at=n // 2)
        sizes.append(len(state.to_json().encode()))
    return {"mean_bytes": statistics.mean(sizes), "max_bytes": max(sizes), "games": games}


def _play_random(cg, seed: int, rng, stop_at: int | None):
    from lumos.api import new_game
    state = new_game(cg, seed=seed)
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        if stop_at is not None and made >= stop_at:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state, made


def card_compile_rate(game: str, repeats: int = 5) -> dict:
    """Time `check_game` spends on the card files (load + schema + parse + lower), per card."""
    import lumos.compiler.game as game_module
    from lumos.api import game_sources
    spent = [0.0]
    original = game_module._lower_cards

    def timed(*args, **kwargs):
        t = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - t

    game_module._lower_cards = timed
    try:
        totals = []
        cg = None
        for _ in range(repeats):
            t = time.process_time()
            cg, _diags, _files = game_module.check_game(game_sources(game))
            totals.append(time.process_time() - t)
    finally:
        game_module._lower_cards = original
    cards = len(cg.cards) if cg else 0
    defs = len(cg.card_defs) if cg else 0
    per_run = spent[0] / repeats
    return {"cards": cards, "card_definitions": defs, "card_seconds": per_run,
            "cards_per_second": cards / per_run if per_run else 0.0,
            "definitions_per_second": defs / per_run if per_run else 0.0,
            "warm_check_seconds": min(totals)}


def peak_memory(game: str, games: int = 5) -> dict:
    from lumos.api import game_sources
    from lumos.compiler.game import check_game
    tracemalloc.start()
    cg, _, _ = check_game(game_sources(game))
    compiled = tracemalloc.get_traced_memory()[1]
    playouts(cg, games)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"compile_peak_mib": compiled / 2**20, "peak_mib": peak / 2**20}


def max_rss_mib() -> float:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on every platform
        return float("nan")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10


def action_space_size(cg) -> dict:
    """The size of the game's fixed action space, and how long numbering it takes."""
    import time
    from lumos.interpreter.options import ActionSpace, _all_keys
    from lumos.api import action_space
    start = time.perf_counter()
    keys = _all_keys(cg)
    seconds = time.perf_counter() - start
    kinds: dict[str, int] = {}
    for k in keys:
        kinds[k[0]] = kinds.get(k[0], 0) + 1
    assert len(ActionSpace(keys)) == len(action_space(cg))
    return {"size": len(keys), "by_kind": kinds, "build_seconds": round(seconds, 4)}


# ---------------------------------------------------------------- the side-by-side speed run
class Runner:
    """One implementation in the speed run: `play(seconds, seed)` plays random games for about
    `seconds` of CPU time and returns (games, actions, CPU seconds)."""

    def __init__(self, name: str, play, lumos: bool = False):
        self.name, self.play, self.lumos = name, play, lumos


def handwritten_runner() -> Runner:
    from handwritten_tictactoe import TicTacToe

    def play(seconds: float, seed: int):
        rng = random.Random(seed)
        games = actions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            for _ in range(games_per_clock_read(games, now - start)):
                game = TicTacToe()
                while not game.is_terminal():
                    game.apply_action(rng.choice(game.legal_actions()))
                    actions += 1
                games += 1
        return games, actions, time.process_time() - start
    return Runner("hand-written Python tic-tac-toe", play)


def lumos_runner(name: str, cg) -> Runner:
    """Random playouts through the public state API (new_game, legal_actions, apply_action),
    every decision asked (like OpenSpiel's), chance drawn by the game's own generator."""
    from lumos.api import new_game

    def play(seconds: float, seed: int):
        rng = random.Random(seed)
        games = decisions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            for _ in range(games_per_clock_read(games, now - start)):
                state = new_game(cg, seed=seed + games)
                made = 0
                while not state.is_terminal() and made < MAX_DECISIONS:
                    if state.is_chance_node():
                        state.apply_action(state.sample_chance())
                        continue
                    state.apply_action(rng.choice(state.legal_actions()))
                    made += 1
                decisions += made
                games += 1
        return games, decisions, time.process_time() - start
    return Runner(name, play, lumos=True)


def openspiel_runner(name: str, game) -> Runner:
    def play(seconds: float, seed: int):
        rng = random.Random(seed)
        games = actions = 0
        start = time.process_time()
        while (now := time.process_time()) - start < seconds:
            for _ in range(games_per_clock_read(games, now - start)):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes, probs = zip(*state.chance_outcomes())
                        state.apply_action(rng.choices(outcomes, probs)[0])
                        continue
                    state.apply_action(rng.choice(state.legal_actions()))
                    actions += 1
                games += 1
        return games, actions, time.process_time() - start
    return Runner(name, play)


def runners(notes: list[str], games: list[str]) -> list[Runner]:
    """Every implementation of the speed run, the baseline first; what is missing goes to `notes`."""
    from lumos.api import load_game
    out = [handwritten_runner(),
           lumos_runner(LUMOS_TTT, load_game(str(EXAMPLES / "tic-tac-toe")))]
    try:
        import pyspiel
        import open_spiel.python.games.tic_tac_toe  # noqa: F401 - registers python_tic_tac_toe
        out.append(openspiel_runner(OPENSPIEL_PYTHON, pyspiel.load_game("python_tic_tac_toe")))
        out.append(openspiel_runner("OpenSpiel tic_tac_toe, C++ via pyspiel", pyspiel.load_game("tic_tac_toe")))
        out.append(openspiel_runner("OpenSpiel connect_four, C++ via pyspiel", pyspiel.load_game("connect_four")))
    except ImportError as exc:
        notes.append(f"OpenSpiel skipped: it cannot be imported ({exc}); `pip install open_spiel` to compare")
    out.append(lumos_runner("Lumos Connect Four", load_game(str(EXAMPLES / "connect-four"))))
    out += [lumos_runner(g, load_game(g)) for g in games]
    return out


def speed_run(reps: int, seconds: float, games: list[str]) -> list[dict]:
    """Each implementation `seconds` of CPU time per repetition, in turns; rates and ratios to
    the baseline (the first runner) per repetition, then their medians."""
    notes: list[str] = []
    found = runners(notes, games)
    for r in found:
        r.play(min(seconds, 0.05), 0)       # warm up: first-use caches, imports
    rows = {r.name: {"games": [], "actions": [], "ratio": []} for r in found}
    for rep in range(reps):
        base = None
        for r in found:
            games, actions, spent = r.play(seconds, 1000 * rep + 1)
            rate = actions / spent if spent else 0.0
            base = rate if base is None else base
            row = rows[r.name]
            row["games"].append(games / spent if spent else 0.0)
            row["actions"].append(rate)
            row["ratio"].append(rate / base if base else 0.0)
    out = [{"name": r.name, "lumos": r.lumos, "actions_per_second": statistics.median(rows[r.name]["actions"]),
            "games_per_second": statistics.median(rows[r.name]["games"]),
            "ratio_to_handwritten": statistics.median(rows[r.name]["ratio"]), "reps": reps}
           for r in found]
    peer = rows.get(OPENSPIEL_PYTHON)
    if peer is not None:    # the other tic-tac-toe target: per repetition, then the median
        lumos = rows[LUMOS_TTT]["actions"]
        out.append({"peer": f"{LUMOS_TTT} over {OPENSPIEL_PYTHON}", "ratio": statistics.median(
            [a / b if b else 0.0 for a, b in zip(lumos, peer["actions"])]), "reps": reps})
    return out + [{"note": n} for n in notes]


def speed_table(rows: list[dict]) -> str:
    lines = ["Random playouts, side by side (CPU time; medians over repetitions taken in turns;"
             " ratio = actions/s over the hand-written tic-tac-toe's, per repetition)",
             f"  {'implementation':<40} {'actions/s':>11} {'games/s':>10} {'ratio':>8}"]
    for r in rows:
        if "note" in r:
            lines.append(f"  note: {r['note']}")
            continue
        if "peer" in r:
            lines.append(f"  {r['peer']}: {r['ratio']:.2f}x (median of the per-repetition ratios)")
            continue
        unit = "decisions/s" if r["lumos"] else "actions/s"
        lines.append(f"  {r['name']:<40} {r['actions_per_second']:11.0f} {r['games_per_second']:10.1f}"
                     f" {r['ratio_to_handwritten']:8.4f}x" + ("  (decisions)" if unit == "decisions/s" else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- cold check
def _child(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall time and the child's CPU time (user + system) of a command run in a fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=str(REPO), env=env)
    if hasattr(os, "wait4"):
        _pid, _status, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        return time.perf_counter() - start, usage.ru_utime + usage.ru_stime
    proc.wait()  # pragma: no cover - no wait4: wall time only
    return time.perf_counter() - start, float("nan")


def has_bytecode() -> bool:
    """Whether Lumos's own modules have compiled bytecode (.pyc) beside their sources."""
    import importlib.util
    import lumos.compiler.game as module
    return os.path.exists(importlib.util.cache_from_source(module.__file__))


# The three cold checks measured: compiling the game (what a designer waits for after an edit;
# the JSON caches of boards, grammar, ASTs and card texts warm, lumos.compiler.cache), a clean
# check remembered from the run before (lumos.cli.remembered), and the first check on a new
# machine or in a CI job (an empty cache folder, made anew for every run). LUMOS_NO_CACHE=1 in
# the benchmark's own environment turns every cache off for all three.
EMPTY = "empty"
COLD_MODES = (("compiling", "check"), ("remembered", None), ("empty cache", EMPTY))


def _check_in_mode(games: list[str], no_cache: str | None) -> tuple[float, float]:
    """`lumos check GAMES` in a fresh process in one of COLD_MODES (an empty cache folder is
    made for the run and removed after it)."""
    env = _mode_env(no_cache)
    try:
        return _child([sys.executable, "-m", "lumos", "check", *games], env)
    finally:
        if no_cache == EMPTY:
            shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)


def _mode_env(no_cache: str | None) -> dict:
    env = dict(os.environ)
    if no_cache == EMPTY:
        env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="lumos-bench-cache-")
        return env
    if no_cache is not None and env.get("LUMOS_NO_CACHE", "") in ("", "0", "check"):
        env["LUMOS_NO_CACHE"] = no_cache
    return env


def cold_check(games: list[str], reps: int) -> dict:
    """`lumos check GAME` in a fresh process against the bare import of its libraries, taken
    in turns (bare, every game in every mode, bare, ...): the medians of the per-repetition
    ratios (each check over the bare import just before it). `games` holds the compiling
    check, `remembered` the one remembered from the run before."""
    bare_cmd = [sys.executable, "-c", BARE_IMPORT]
    _child(bare_cmd)                                    # warm the file cache
    for _mode, no_cache in COLD_MODES:                  # and Lumos's own caches
        _check_in_mode(games, no_cache)
    empty = {"wall": [], "cpu": [], "wall_ratio": [], "cpu_ratio": []}
    out = {mode: {g: {k: [] for k in empty} for g in games} for mode, _ in COLD_MODES}
    bare = {"wall": [], "cpu": []}
    for _ in range(reps):
        for g in games:
            for mode, no_cache in COLD_MODES:
                bw, bc = _child(bare_cmd)
                cw, cc = _check_in_mode([g], no_cache)
                bare["wall"].append(bw)
                bare["cpu"].append(bc)
                o = out[mode][g]
                o["wall"].append(cw)
                o["cpu"].append(cc)
                o["wall_ratio"].append(cw / bw)
                o["cpu_ratio"].append(cc / bc if bc else float("nan"))
    med = statistics.median
    summary = {mode: {g: {k: med(v) for k, v in o.items()} for g, o in by_game.items()}
               for mode, by_game in out.items()}
    return {"bare_wall_seconds": med(bare["wall"]), "bare_cpu_seconds": med(bare["cpu"]), "reps": reps,
            "bytecode": has_bytecode(), "no_cache": os.environ.get("LUMOS_NO_CACHE", "") not in ("", "0", "check"),
            "games": summary["compiling"], "remembered": summary["remembered"], "empty": summary["empty cache"]}


def cold_table(c: dict) -> str:
    lines = [f"Cold `lumos check GAME`, fresh process, against `python -c \"{BARE_IMPORT}\"` "
             f"(medians of {c['reps']} ratios taken in turns; Lumos bytecode "
             f"{'present' if c['bytecode'] else 'absent: modules compiled from source'}"
             f"{'; LUMOS_NO_CACHE set: no cache at all' if c['no_cache'] else ''})",
             f"  {'bare import':<40} {c['bare_wall_seconds']:7.3f} s wall {c['bare_cpu_seconds']:7.3f} s CPU"]
    for mode, key in (("compiling", "games"), ("remembered", "remembered"), ("empty cache", "empty")):
        for g, o in c[key].items():
            label = f"{g} ({mode})"
            lines.append(f"  {label:<40} {o['wall']:7.3f} s wall {o['cpu']:7.3f} s CPU   ratio "
                         f"{o['wall_ratio']:5.2f}x wall {o['cpu_ratio']:5.2f}x CPU")
    return "\n".join(lines)


# ---------------------------------------------------------------- per game details
def bench_game(game: str, games: int, repeats: int) -> dict:
    from lumos.api import load_game
    cg = load_game(game)
    playouts(cg, min(3, games))                       # warm up caches
    return {
        "game": game,
        "random": playouts(cg, games),
        "greedy_vs_random": playouts(cg, max(1, games // 20), agents=("greedy", "random")),
        "memory": peak_memory(game, min(5, games)),
        "state_size": mid_game_state_size(cg, min(10, games)),
        "cards": card_compile_rate(game, repeats),
        "action_space": action_space_size(cg),
    }


def report(r: dict) -> str:
    rnd, gr, mem, size, cards = r["random"], r["greedy_vs_random"], r["memory"], r["state_size"], r["cards"]
    return "\n".join([
        f"{r['game']}",
        f"  random playouts   {rnd['games_per_second']:8.1f} games/s  {rnd['decisions_per_second']:9.0f} decisions/s"
        f"  ({rnd['games']} games with play_game, forced decisions taken, {rnd['mean_decisions']:.1f} decisions"
        f" each, {rnd['errors']} errors)",
        f"  greedy vs random  {gr['games_per_second']:8.2f} games/s  {gr['decisions_per_second']:9.0f} decisions/s"
        f"  ({gr['games']} games)",
        f"  peak memory       {mem['compile_peak_mib']:8.1f} MiB compiling, {mem['peak_mib']:.1f} MiB with play"
        f" (tracemalloc)",
        f"  mid-game state    {size['mean_bytes']:8.0f} bytes of JSON (max {size['max_bytes']})",
        f"  card compilation  {cards['cards_per_second']:8.0f} cards/s  ({cards['cards']} cards, "
        f"{cards['card_definitions']} definitions, {cards['card_seconds'] * 1000:.1f} ms;"
        f" warm check {cards['warm_check_seconds'] * 1000:.0f} ms)",
        f"  action space      {r['action_space']['size']:8d} ids ("
        + ", ".join(f"{n} {k}" for k, n in r["action_space"]["by_kind"].items())
        + f"; numbered in {r['action_space']['build_seconds'] * 1000:.0f} ms)",
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a fast smoke run: every figure, few repetitions")
    p.add_argument("--reps", type=int, default=None, help="repetitions of the speed run (default 7; quick 1)")
    p.add_argument("--seconds", type=float, default=None,
                   help="CPU seconds per implementation per repetition (default 1; quick 0.05)")
    p.add_argument("--games", type=int, default=None, help="games per bundled game for the details (default 200)")
    p.add_argument("--cold-reps", type=int, default=None, help="repetitions of the cold check (default 5; quick 1)")
    p.add_argument("--game", action="append", metavar="GAME",
                   help="only this bundled game (repeat for more; default: every bundled game)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    quick = args.quick
    reps = args.reps or (1 if quick else 7)
    seconds = args.seconds or (0.05 if quick else 1.0)
    games = args.games or (2 if quick else 200)
    cold_reps = args.cold_reps or (1 if quick else 5)
    from lumos.api import bundled_games
    chosen = args.game or bundled_games()
    unknown = [g for g in chosen if g not in bundled_games()]
    if unknown:
        p.error(f"not a bundled game: {', '.join(unknown)} (bundled: {', '.join(bundled_games())})")
    speed = speed_run(reps, seconds, chosen)
    details = [bench_game(g, games, 1 if quick else 5) for g in chosen]
    cold = cold_check(chosen[:1] if quick else chosen, cold_reps)
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "speed": speed, "games": details, "cold_check": cold,
                          "max_rss_mib": max_rss_mib()}, indent=2))
        return 0
    print(f"Lumos benchmark (Python {sys.version.split()[0]}{', quick' if quick else ''})")
    print(speed_table(speed))
    for r in details:
        print(report(r))
    print(cold_table(cold))
    print(f"max resident size {max_rss_mib():8.1f} MiB (this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
