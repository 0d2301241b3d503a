"""Chunks of seeds -> game records played on a Dask cluster (`--dask ADDRESS`, or `--dask local`
for a LocalCluster on this machine); the `dask` extra.

Why Dask: simulations of thousands of games scale past one machine's cores. Each task is a
chunk of seeds played by `runner.run_batch`; a worker builds the compiled game from its
sources the first time a task asks for it and keeps it (`runner.worker_game`), so the game is
compiled once per worker, never pickled. Records come back as plain data and are sorted by
seed, so the result is the serial run's, game by game. On a remote cluster the workers need
Lumos installed and the game's sources at the same path (bundled games always are).
"""
from __future__ import annotations

from typing import Callable

LOCAL_WORKERS = 2


def _client(address: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        from lumos.cli.common import UsageError
        raise UsageError("--dask needs the dask extra: pip install 'lumos-games[dask]'") from None
    if address == "local":
        cluster = LocalCluster(n_workers=LOCAL_WORKERS, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster
    return Client(address), None


def run_on_dask(address: str, run_batch: Callable, game: str, chunks: list[list[int]], args: tuple,
                advance: Callable[[int], None]) -> list[dict]:
    """Every chunk's records (unsorted), each chunk played by `run_batch(game, chunk, *args)`
    (`runner.run_batch`) on the cluster at `address`."""
    from dask.distributed import as_completed

    client, cluster = _client(address)
    try:
        futures = [client.submit(run_batch, game, chunk, *args, pure=False) for chunk in chunks]
        records: list[dict] = []
        for fut in as_completed(futures):
            batch = fut.result()
            records.extend(batch)
            advance(len(batch))
        return records
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
