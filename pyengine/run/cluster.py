"""A corpus spread over a Dask distributed cluster (`check --dask ADDRESS`, `deck --dask ADDRESS`; the optional
extra `pip install 'pyengine[dask]'`). Each chunk of files is one Dask task; on its worker it runs exactly as
`--jobs` runs it here: answered in one batch in a forked process under the run's `--timeout` and `--memory`,
its files answered again one at a time when the batch did not finish. Results come back in input order, so the
output and the exit code are those of `--jobs`.

The workers read the files and the catalog store by the paths the command was given (a folder every worker
sees at the same path: the same machine, or a shared filesystem), each needs pyengine installed, and each must
be allowed to start processes: Dask's workers are daemons by default, which may not, so they are started with
DASK_DISTRIBUTED__WORKER__DAEMON=False (README, "A corpus on a Dask cluster").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from pyengine.core.errors import InputError
from pyengine.core.limits import limits
from pyengine.core.resources import STORE_ENV
from pyengine.games import game_modules
from pyengine.run.runner import Failure, stop_kept

# Imported on a worker before its first fork, so that every bounded process starts warm.
PRELOAD = ("pyengine.api", "pyengine.core.batch", "pyengine.core.engine", *game_modules())
# How long to wait for the scheduler to answer before the address is called wrong (seconds).
CONNECT_SECONDS = 5
# How often a run on the cluster looks at what has finished and whether the cluster still has workers (seconds).
POLL_SECONDS = 0.5


def _task(run: Callable[..., list[Any]], one: Callable[[Any], Any], many: Callable[[list[Any]], list[Any]],
          chunk: list[Any], bounds: dict[str, Any], store: str | None) -> list[Any]:
    """One chunk on a Dask worker, under the bounds and with the catalog store of the command that sent it."""
    import multiprocessing
    from importlib import import_module

    if multiprocessing.current_process().daemon:
        raise InputError("the Dask workers run as daemons, which cannot start the bounded processes pyengine "
                         "answers in", field="--dask",
                         expected="workers started with DASK_DISTRIBUTED__WORKER__DAEMON=False")
    for module in PRELOAD:
        import_module(module)
    for name, value in bounds.items():
        setattr(limits, name, value)
    if store is not None and os.environ.get(STORE_ENV) != store:
        stop_kept()  # a kept worker reads the store it was forked with
        os.environ[STORE_ENV] = store
    return run(one, many, [chunk], 1, None, True)


def _reachable(address: str, seconds: float) -> None:
    """Refuse at once a TCP address where nothing listens (Dask's connect retries a refused connection until its
    timeout): an OSError names why."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme == "tcp" and parts.hostname and parts.port:
        socket.create_connection((parts.hostname, parts.port), timeout=seconds).close()


def _probe(address: str, seconds: float) -> None:
    """Ask the scheduler who it is, within `seconds` in all: a peer that accepts and never answers (which
    Client() would wait on for ever) is refused here."""
    import asyncio

    from distributed.comm import connect

    async def identity() -> None:
        comm = await connect(address, timeout=seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            await comm.read()
        finally:
            comm.abort()

    try:
        _reachable(address, seconds)
        asyncio.run(asyncio.wait_for(identity(), seconds))
    except (OSError, TimeoutError, ValueError) as error:
        why = str(error) or "no reply"
        raise InputError(f"no Dask scheduler answers at {address!r} within {seconds:g} s ({why})", field="--dask",
                         expected="the scheduler's address, e.g. tcp://10.0.0.5:8786") from None


def answer_on_cluster(address: str, run: Callable[..., list[Any]], one: Callable[[Any], Any],
                      many: Callable[[list[Any]], list[Any]], chunks: list[list[Any]],
                      progress: Callable[[int, int], None] | None) -> list[Any]:
    """Every chunk's results, in input order, computed by `run(one, many, [chunk], 1, None, True)` on the
    cluster (True: each Dask worker keeps its bounded worker warm between chunks). Every wait is bounded: the
    scheduler must answer within CONNECT_SECONDS (or `--timeout`, if shorter); the cluster may be without a
    worker for at most half of `--timeout` (a restarting worker is back well within it); the whole run, from its
    first task sent, may take at most `--timeout`: the files of the chunks not answered by then are each stopped
    at that bound (a Failure in their place), the others answered."""
    try:
        from distributed import Client, wait
    except ImportError:
        raise InputError("--dask needs Dask's distributed scheduler", field="--dask",
                         expected="pip install 'pyengine[dask]'") from None
    import time

    connect_seconds = min(CONNECT_SECONDS, limits.solve_seconds)
    _probe(address, connect_seconds)
    try:
        client = Client(address, timeout=connect_seconds)
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(f"no Dask scheduler answers at {address!r}: {error}", field="--dask",
                         expected="the scheduler's address, e.g. tcp://10.0.0.5:8786") from None
    bounds = asdict(limits)
    store = os.environ.get(STORE_ENV)
    total = sum(len(c) for c in chunks)
    try:
        futures = [client.submit(_task, run, one, many, chunk, bounds, store, pure=False) for chunk in chunks]
        deadline = time.monotonic() + limits.solve_seconds
        index_of = {f.key: i for i, f in enumerate(futures)}
        results: list[list[Any] | None] = [None] * len(chunks)
        pending, done, alone_since = set(futures), 0, None
        while pending:
            try:
                finished, pending = wait(list(pending), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                finished = set()
            for future in finished:
                index = index_of[future.key]
                results[index] = future.result(timeout=connect_seconds)
                done += len(chunks[index])
                if progress:
                    progress(done, total)
            now = time.monotonic()
            workers = client.scheduler_info().get("workers", {}) if client.status == "running" else {}
            alone_since = None if workers else (alone_since or now)
            grace = limits.solve_seconds / 2
            if alone_since is not None and now - alone_since > grace:
                raise InputError(f"the Dask cluster at {address!r} has had no worker for {grace:g} s "
                                 f"({total - done} files unanswered)", field="--dask",
                                 expected="a cluster with living workers")
            if now > deadline and pending:
                client.cancel(list(pending))
                break
    finally:
        client.close(timeout=connect_seconds)
    stopped = Failure(f"stopped: the Dask run took longer than {limits.solve_seconds:g} s (--timeout, over the "
                      "whole run)")
    return [r for chunk, found in zip(chunks, results, strict=True) for r in (found or [stopped] * len(chunk))]
