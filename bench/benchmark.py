"""Bundled games -> speed and size figures: playouts, memory, state size, card compilation, cold check.

Run it as ``python bench/benchmark.py [--games N] [--json]``. It prints figures
only; it passes or fails nothing (speed is measured here, never in timed tests).

For every bundled game:

- random playouts on one core: games/s and decisions/s (chance outcomes not counted), in
  CPU time of this process (time.process_time), like the card and warm-check figures;
- the greedy agent against random: games/s (each greedy decision looks one ply ahead);
- peak memory: tracemalloc's peak while compiling the game and playing a few games,
  and the process's maximum resident size at the end;
- the size of a serialised state (bytes of ``to_json``) at the middle decision of
  a game, averaged over a few games;
- cards compiled per second: the time `check_game` spends loading, validating,
  parsing and lowering the card files, divided into the number of cards;
- the wall time of a cold ``lumos check GAME`` (and of ``lumos --help``) in a fresh process;
- CPU time (this process only, so other load on the machine counts less): random-playout
  decisions/s and the time to compile the game (`check_game`, best of 3); the figures of
  every game are printed side by side at the end (Catch the Golden Snitch beside Snitch
  Snatcher).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tracemalloc


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


def cold_command(*args: str, repeats: int = 3) -> float:
    """Best wall time of `python -m lumos ARGS` in a fresh process."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lumos", *args], capture_output=True, check=False)
        best = min(best, time.perf_counter() - t)
    return best


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


def cpu_figures(game: str, games: int, seed0: int = 3000) -> dict:
    """CPU time (time.process_time) of random playouts and of compiling the game."""
    from lumos.api import game_sources, load_game
    from lumos.compiler.game import check_game
    from lumos.interpreter.agents import agent_seed, make_agent
    from lumos.interpreter.play import play_game
    cg = load_game(game)
    decisions = 0
    start = time.process_time()
    for i in range(games):
        players = [make_agent("random", agent_seed(seed0 + i, k)) for k in range(cg.nsides)]
        decisions += play_game(cg, players, seed0 + i).decisions
    spent = time.process_time() - start
    compiles = []
    for _ in range(3):
        t = time.process_time()
        check_game(game_sources(game))
        compiles.append(time.process_time() - t)
    return {"games": games, "cpu_seconds": spent, "decisions_per_cpu_second": decisions / spent if spent else 0.0,
            "mean_decisions": decisions / max(1, games), "compile_cpu_seconds": min(compiles)}


def cpu_table(results: list[dict]) -> str:
    lines = ["CPU time, side by side (random playouts; compile = check_game in a warm process, best of 3)"]
    for r in results:
        c = r["cpu"]
        lines.append(f"  {r['game']:<26} {c['decisions_per_cpu_second']:9.0f} decisions/s"
                     f"  ({c['mean_decisions']:.0f} per game)  compile {c['compile_cpu_seconds'] * 1000:6.0f} ms")
    return "\n".join(lines)


def bench_game(game: str, games: int) -> dict:
    from lumos.api import load_game
    cg = load_game(game)
    playouts(cg, min(5, games))                       # warm up caches
    return {
        "game": game,
        "random": playouts(cg, games),
        "greedy_vs_random": playouts(cg, max(1, games // 20), agents=("greedy", "random")),
        "memory": peak_memory(game),
        "state_size": mid_game_state_size(cg),
        "cards": card_compile_rate(game),
        "cold_check_seconds": cold_command("check", game),
        "cpu": cpu_figures(game, games),
        "action_space": action_space_size(cg),
    }


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


def report(r: dict) -> str:
    rnd, gr, mem, size, cards = r["random"], r["greedy_vs_random"], r["memory"], r["state_size"], r["cards"]
    return "\n".join([
        f"{r['game']}",
        f"  random playouts   {rnd['games_per_second']:8.1f} games/s  {rnd['decisions_per_second']:9.0f} decisions/s"
        f"  ({rnd['games']} games, {rnd['mean_decisions']:.1f} decisions each, {rnd['errors']} errors)",
        f"  greedy vs random  {gr['games_per_second']:8.2f} games/s  {gr['decisions_per_second']:9.0f} decisions/s"
        f"  ({gr['games']} games)",
        f"  peak memory       {mem['compile_peak_mib']:8.1f} MiB compiling, {mem['peak_mib']:.1f} MiB with play"
        f" (tracemalloc)",
        f"  mid-game state    {size['mean_bytes']:8.0f} bytes of JSON (max {size['max_bytes']})",
        f"  card compilation  {cards['cards_per_second']:8.0f} cards/s  ({cards['cards']} cards, "
        f"{cards['card_definitions']} definitions, {cards['card_seconds'] * 1000:.1f} ms;"
        f" warm check {cards['warm_check_seconds'] * 1000:.0f} ms)",
        f"  cold lumos check  {r['cold_check_seconds']:8.2f} s (fresh process)",
        f"  action space      {r['action_space']['size']:8d} ids ("
        + ", ".join(f"{n} {k}" for k, n in r["action_space"]["by_kind"].items())
        + f"; numbered in {r['action_space']['build_seconds'] * 1000:.0f} ms)",
    ])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="random playouts per game (default 200)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    from lumos.api import bundled_games
    results = [bench_game(g, args.games) for g in bundled_games()]
    help_time = cold_command("--help")
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], "games": results, "cold_help_seconds": help_time,
                          "max_rss_mib": max_rss_mib()}, indent=2))
        return 0
    print(f"Lumos benchmark (Python {sys.version.split()[0]}, one core)")
    for r in results:
        print(report(r))
    print(cpu_table(results))
    print(f"cold lumos --help {help_time:8.2f} s")
    print(f"max resident size {max_rss_mib():8.1f} MiB (this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
