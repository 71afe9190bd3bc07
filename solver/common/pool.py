"""The worker machinery of the batch commands (``hanabi analyse``, ``hand analyse``):
local worker processes or a Dask cluster, fed in chunks as results come back.

A batch hands :func:`pool_results` or :func:`dask_results` an iterator of jobs and a
chunk function ``work(chunk, arg) -> list`` (a module-level function, so that workers can
import it). At most :data:`IN_FLIGHT` chunks per worker are out at a time, so the jobs are
read from the iterator (and whatever store it checks) as they are needed: memory does not
grow with the number of jobs. Only the calling process sees the results, in the order
they come back; it is the one that writes them down.

A worker sends its finished results back at least every :data:`HOLD` seconds: it runs a
chunk's jobs one at a time and, once that long has passed, returns what it has finished
with the jobs it has not started, which go out again first (:func:`timed_chunk`). So the
finished work a kill of the batch can lose is under ``HOLD`` seconds a worker, besides the
jobs running at that moment.
"""
from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import Any

IN_FLIGHT = 4  # chunks of jobs per worker handed out ahead (process pool and Dask)
HOLD = 0.25  # seconds a worker may hold finished results before it sends them back

Work = Callable[[list, Any], list]


class JobError(Exception):
    """A job failed inside a worker (its key and the one-line reason)."""


@contextmanager
def stopping(results: Iterator) -> Iterator[Iterator]:
    """``with stopping(results) as rs: for r in rs: ...``: the workers behind ``results``
    are stopped when the block ends (a store error, an interrupt), not at garbage
    collection."""
    try:
        yield results
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def batched(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def timed_chunk(work: Work, chunk: list, arg: Any, hold: float = HOLD) -> tuple[list, list]:
    """``work`` on the jobs of ``chunk`` one at a time until ``hold`` seconds have passed:
    (the results, the jobs not started). Runs in a worker."""
    out: list = []
    t0 = time.monotonic()
    for i, job in enumerate(chunk):
        if i and time.monotonic() - t0 >= hold:
            return out, chunk[i:]
        out.extend(work([job], arg))
    return out, []


def _init_worker() -> None:
    """A pool worker ignores Ctrl-C (the parent stops the pool) and dies quietly on
    SIGTERM (the parent's handler, inherited through fork, is not for it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def pool_context(preload: Sequence[str]):
    """Workers come from a fork server (a clean process that has imported ``preload``),
    not from forks of this one: a fork copies whatever locks this process's threads hold
    (the SAT timer's, OR-Tools' thread pool, a test runner's), and a worker that needs one
    then waits forever. Where there is no fork server (not POSIX), the platform's default."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():  # pragma: no cover - not POSIX
        return mp.get_context()
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(preload))
    return ctx


def pool_results(pending: Iterator, n: int, work: Work, arg: Any, workers: int, preload: Sequence[str],
                 chunk_size: int | None = None) -> Iterator:
    """The results of ``work(chunk, arg)`` over chunks of ``pending`` (``n`` jobs) from a
    process pool of ``workers``, chunks handed out as others come back (at most
    :data:`IN_FLIGHT` per worker), so the jobs are read from ``pending`` in this thread,
    as they are needed. ``chunk_size``: default from ``n`` (at most 8)."""
    import queue

    ctx = pool_context(preload)
    size = chunk_size or max(1, min(8, n // (workers * 50) or 1))
    chunks = batched(pending, size)
    back: queue.SimpleQueue = queue.SimpleQueue()
    pool = ctx.Pool(workers, initializer=_init_worker)
    try:
        in_flight = 0
        for chunk in islice(chunks, workers * IN_FLIGHT):
            pool.apply_async(timed_chunk, (work, chunk, arg), callback=back.put, error_callback=back.put)
            in_flight += 1
        while in_flight:
            got = back.get()
            in_flight -= 1
            if isinstance(got, BaseException):
                raise got
            out, rest = got
            nxt = rest or next(chunks, None)  # the jobs a worker did not start go out again first
            if nxt:
                pool.apply_async(timed_chunk, (work, nxt, arg), callback=back.put, error_callback=back.put)
                in_flight += 1
            yield from out
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def dask_results(pending: Iterator, n: int, work: Work, arg: Any, workers: int, where: str) -> Iterator:
    """The results of ``work(chunk, arg)`` on a Dask cluster: ``where`` is ``"local"``
    (start a local cluster of ``workers`` processes) or a scheduler address. Jobs go out
    in chunks, at most a few per worker in flight, so millions of jobs never sit in the
    scheduler's memory (or this one's) at once."""
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
            chunks = batched(pending, max(1, min(50, n // (nworkers * 20) or 1)))
            futures = as_completed()
            for chunk in islice(chunks, nworkers * IN_FLIGHT):
                futures.add(client.submit(timed_chunk, work, chunk, arg, pure=False))
            for fut in futures:
                out, rest = fut.result()
                fut.release()
                nxt = rest or next(chunks, None)  # the jobs a worker did not start go out again first
                if nxt:
                    futures.add(client.submit(timed_chunk, work, nxt, arg, pure=False))
                yield from out
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
