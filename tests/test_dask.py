"""`--dask local`: the games of `lumos simulate` and `lumos balance` spread over a LocalCluster
of 2 workers give the serial run's results, game by game (a game's seed fixes its agents' seeds;
workers rebuild the compiled game from its sources). Needs the `dask` extra; skipped without it."""
from __future__ import annotations

import pytest

pytest.importorskip("dask.distributed")


def test_a_local_cluster_plays_the_same_games_as_the_serial_run():
    from lumos.analysis.dask import run_on_dask
    from lumos.analysis.runner import chunks, run_batch, run_games
    from lumos.api import load_game
    cg = load_game("snitch-snatcher")
    seeds = list(range(12))
    args = (["random", "greedy"], {}, None, 100_000, (), None, True)
    serial = run_games(cg, "snitch-snatcher", seeds, ["random", "greedy"], {}, cards=True)
    spread = sorted(run_on_dask("local", run_batch, "snitch-snatcher", chunks(seeds, 8), args, lambda k: None),
                    key=lambda r: r["seed"])
    assert [r["seed"] for r in spread] == seeds
    assert spread == serial


def test_simulate_and_balance_on_a_local_cluster_match_the_serial_run(capsys):
    import json

    from lumos.cli import main

    def run(*extra):
        assert main([*extra, "-n", "8", "--seed", "5", "-q", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds", None)
        out.pop("games_per_second", None)
        return out
    assert run("simulate", "snitch-snatcher", "--dask", "local") == run("simulate", "snitch-snatcher")
    assert run("balance", "snitch-snatcher", "--dask", "local") == run("balance", "snitch-snatcher")


def _progress_and_compiles(n: int, seeds_per_chunk: int):
    """Plays `n` seeded games serially and on a local cluster; returns (serial, spread, progress calls,
    compiles per worker)."""
    from lumos.analysis.dask import run_on_dask
    from lumos.analysis.runner import chunks, run_batch, run_games
    from lumos.api import load_game
    cg = load_game("snitch-snatcher")
    seeds = list(range(n))
    args = (["random", "random"], {}, None, 100_000, (), None, True)
    serial = run_games(cg, "snitch-snatcher", seeds, ["random", "random"], {}, cards=True)
    seen: list[int] = []
    spread = run_on_dask("local", run_batch, "snitch-snatcher", chunks(seeds, seeds_per_chunk), args, seen.append)
    return serial, sorted(spread, key=lambda r: r["seed"]), seen


def test_forty_games_match_game_by_game_and_progress_follows_each_batch():
    serial, spread, seen = _progress_and_compiles(40, 8)
    assert [r["seed"] for r in spread] == list(range(40)) and spread == serial
    assert sum(seen) == 40 and len(seen) > 1   # one report per finished batch, not one at the end


def test_a_worker_compiles_the_game_once_whatever_the_number_of_batches():
    """The compiled game is built from its sources once per worker process and reused by every
    later batch there (runner.worker_game), never shipped per game."""
    from dask.distributed import Client, LocalCluster

    from lumos.analysis.runner import run_batch

    def compiles():
        from lumos.analysis import runner
        return len(runner._compiled), id(runner.worker_game("snitch-snatcher"))

    args = (["random", "random"], {}, None, 100_000, (), None, False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        before = client.run(compiles)
        futures = [client.submit(run_batch, "snitch-snatcher", [s], *args, pure=False) for s in range(6)]
        client.gather(futures)
        after = client.run(compiles)
    (worker,) = after
    assert after[worker][0] == 1 and before[worker][1] == after[worker][1]


@pytest.mark.slow
def test_two_thousand_games_serially_and_on_a_local_cluster_are_the_same_game_by_game():
    """Issue 15's check: the same 2,000 games, serially and on a LocalCluster, compared game by game
    (winner, returns, decisions and the whole arc of each)."""
    serial, spread, seen = _progress_and_compiles(2000, 8)
    assert len(serial) == 2000 and [r["seed"] for r in spread] == list(range(2000))
    for a, b in zip(serial, spread):
        assert a == b, a["seed"]
    assert sum(seen) == 2000 and len(seen) >= 40
