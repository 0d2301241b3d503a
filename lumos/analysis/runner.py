"""Seeds and agents -> one plain record per game, played serially, in worker processes
(`--jobs`), or on a Dask cluster (`--dask`): the engine of `lumos simulate` and `lumos balance`.

Why one place: the three ways must give the same records for the same seeds (a game's seed
fixes its agents' seeds too: agents.agent_seed), so they share `play_seeds`, and records are
sorted by seed whatever order they finish in. Workers rebuild the compiled game from its
sources (a bundled id or a folder, and the `--with` paths) once per process: a compiled game
holds closures and is never pickled.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable


def play_seeds(cg, seeds: list[int], agents: list[str], options: dict, log_dir: str | None,
               max_decisions: int, teams: dict | None = None, cards: bool = False) -> list[dict]:
    """Play these seeds serially: one plain record per game (seed, winner, returns, decisions,
    error, and its arc: lumos.analysis.arc)."""
    from lumos.analysis.arc import ArcWatch
    from lumos.interpreter.agents import agent_seed, make_agent
    from lumos.interpreter.play import play_game
    out = []
    for seed in seeds:
        players = [make_agent(name, agent_seed(seed, k)) for k, name in enumerate(agents)]
        watch = ArcWatch(cg, cards=cards)
        if log_dir:
            path = Path(log_dir) / f"{cg.id}-{seed}.jsonl"
            with open(path, "w", encoding="utf-8") as fh:
                r = play_game(cg, players, seed, options=options, log=fh, max_decisions=max_decisions,
                              agent_names=agents, teams=teams, watch=watch)
        else:
            r = play_game(cg, players, seed, options=options, max_decisions=max_decisions, teams=teams,
                          watch=watch)
        out.append({"seed": seed, "winner": r.winner, "returns": r.returns, "decisions": r.decisions,
                    "error": r.error, "arc": watch.record()})
    return out


_compiled: dict = {}   # (game, with paths) -> compiled game, once per worker process


def worker_game(game: str, with_paths: tuple[str, ...] = ()):
    """The compiled game in this process, built from its sources the first time it is asked for."""
    key = (game, tuple(with_paths))
    if key not in _compiled:
        from lumos.api import load_game, settle_memory
        if with_paths:
            from lumos.cli.common import load_with
            _compiled[key] = load_with(game, tuple(with_paths))
            settle_memory()
        else:
            _compiled[key] = load_game(game)
    return _compiled[key]


def run_batch(game: str, seeds: list[int], agents: list[str], options: dict, log_dir: str | None,
              max_decisions: int, with_paths: tuple[str, ...] = (), teams: dict | None = None,
              cards: bool = False) -> list[dict]:
    """Play the games with these seeds in a worker (a process of --jobs, a Dask worker)."""
    cg = worker_game(game, with_paths)
    return play_seeds(cg, seeds, agents, options, log_dir, max_decisions, teams, cards)


def chunks(seeds: list[int], jobs: int) -> list[list[int]]:
    size = max(1, min(50, len(seeds) // (jobs * 4) or 1))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run_games(cg, game_arg: str, seeds: list[int], agents: list[str], options: dict, *,
              log_dir: str | None = None, max_decisions: int = 100_000, teams: dict | None = None,
              with_paths: tuple[str, ...] = (), cards: bool = False, jobs: int = 1, dask: str | None = None,
              advance: Callable[[int], None] = lambda k: None) -> list[dict]:
    """Every seed's record, sorted by seed; `advance(k)` is called as games finish."""
    records: list[dict] = []
    with_paths = tuple(str(Path(p).resolve()) for p in with_paths)
    args = (agents, options, log_dir, max_decisions, with_paths, teams, cards)
    if dask:
        from lumos.analysis.dask import run_on_dask
        records = run_on_dask(dask, run_batch, game_arg, chunks(seeds, 8), args, advance)
    elif jobs > 1 and len(seeds) > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_batch, game_arg, chunk, *args) for chunk in chunks(seeds, jobs)]
            for fut in futures:
                batch = fut.result()
                records.extend(batch)
                advance(len(batch))
    else:
        for seed in seeds:
            records.extend(play_seeds(cg, [seed], agents, options, log_dir, max_decisions, teams, cards))
            advance(1)
    records.sort(key=lambda r: r["seed"])
    return records
