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
