"""Running a batch: local worker processes (the default) or a Dask cluster.

Only the calling process writes to the store, one committed row per finished deck, so a
run can be killed at any moment and rerun: finished keys are skipped.
"""
from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import Callable, Iterable

from .jobs import solve_job
from .store import Row, Store


class JobError(Exception):
    """A job failed inside a worker (its key and the one-line reason)."""


@dataclass
class BatchResult:
    total: int  # jobs asked for
    skipped: int  # already in the store
    solved: int  # solved and stored by this run


def _solve_safe(args) -> tuple[str, Row | str]:
    job, timeout = args
    try:
        return "ok", solve_job(job, timeout)
    except ValueError as e:  # our MalformedError / IllegalActionError
        return "error", f"{job['key']}: {e}"


def _solve_chunk(chunk: list[dict], timeout: float | None) -> list[tuple[str, Row | str]]:
    return [_solve_safe((job, timeout)) for job in chunk]


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_batch(jobs: list[dict], store: Store, *, timeout: float | None, workers: int | None = None,
              dask: str | None = None, progress: Callable[[Row], None] | None = None,
              on_start: Callable[[int], None] | None = None, redo_open: bool = False,
              redo_undecided: bool = False) -> BatchResult:
    """Solve every job not yet in ``store``. ``dask``: None (local processes), ``"local"``
    (start a local Dask cluster) or a scheduler address (join an existing cluster).
    ``on_start(n)`` is told how many jobs remain; ``progress(row)`` is called after each
    row is committed. ``redo_open``: also solve again the stored rows that are not exact
    (say with a longer ``timeout``), keeping the new result only where it is tighter;
    ``redo_undecided``: the same for the rows where winnability itself is open."""
    done = store.done_keys(j["key"] for j in jobs)
    redo = redo_open or redo_undecided
    if redo:  # solve the stored open ones again; a result replaces them only if tighter
        done -= store.open_keys(done, undecided=not redo_open)
    pending = [j for j in jobs if j["key"] not in done]
    if on_start:
        on_start(len(pending))
    workers = workers or default_workers()
    if not pending:
        results = iter(())
    elif dask is not None:
        results = _dask_results(pending, timeout, workers, dask)
    elif workers == 1 or len(pending) <= 1:
        results = (_solve_safe((j, timeout)) for j in pending)
    else:
        results = _pool_results(pending, timeout, workers)
    solved = 0
    for status, value in results:
        if status != "ok":
            raise JobError(value)
        if redo:
            store.improve(value)
        else:
            store.add(value)
        solved += 1
        if progress:
            progress(value)
    return BatchResult(len(jobs), len(done), solved)


def _pool_results(pending, timeout, workers) -> Iterable:
    import multiprocessing as mp

    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    pool = ctx.Pool(workers, initializer=_ignore_sigint)
    try:
        chunksize = max(1, min(8, len(pending) // (workers * 50) or 1))
        yield from pool.imap_unordered(_solve_safe, ((j, timeout) for j in pending), chunksize=chunksize)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _dask_results(pending, timeout, workers, where: str) -> Iterable:
    """Jobs go out in chunks, at most a few per worker in flight, so millions of jobs
    never sit in the scheduler's memory at once."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is a dependency
        raise JobError("dask.distributed is not installed (pip install 'dask[distributed]')") from None
    cluster = None
    try:
        if where == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        else:
            try:
                client = Client(where, timeout=10)
            except (OSError, TimeoutError, ValueError) as e:
                raise JobError(f"cannot reach the Dask scheduler at {where}: {e}") from None
        try:
            nworkers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
            size = max(1, min(50, len(pending) // (nworkers * 20) or 1))
            chunks = [pending[i:i + size] for i in range(0, len(pending), size)]
            window = nworkers * 4
            it = iter(chunks)
            futures = as_completed()
            for chunk in [c for _, c in zip(range(window), it)]:
                futures.add(client.submit(_solve_chunk, chunk, timeout, pure=False))
            for fut in futures:
                out = fut.result()
                fut.release()
                nxt = next(it, None)
                if nxt is not None:
                    futures.add(client.submit(_solve_chunk, nxt, timeout, pure=False))
                yield from out
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
