"""Running a batch: local worker processes (the default) or a Dask cluster.

Only the calling process writes to the store, one committed row per finished deck, so a
run can be killed at any moment and rerun: finished keys are skipped.

Jobs stream: they are made on demand (:class:`~.jobs.Jobs`), checked against the store
:data:`BATCH` keys at a time, and handed to the workers with a bounded number in flight,
so memory does not grow with the number of jobs: a run over 100 million seeds holds a
few thousand of them at a time.
The count for the progress bar comes before any work, without making the jobs: a seed
range's size is arithmetic and its stored keys are one index range scan of the store.
"""
from __future__ import annotations

import math
import os
import signal
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TypedDict

from .jobs import Jobs, solve_job
from .store import Row, Store, rules_text

Budgets = Collection[tuple[int, str]]  # (player count, stored budget) pairs: see larger_budgets


class SkipFlags(TypedDict):
    """Which stored rows a run solves again (the store's ``skipped_*`` arguments)."""

    redo_open: bool
    redo_undecided: bool
    kept_budgets: Budgets

BATCH = 2000  # jobs checked against the store at once
IN_FLIGHT = 4  # chunks of jobs per worker handed out ahead (process pool and Dask)


class JobError(Exception):
    """A job failed inside a worker (its key and the one-line reason)."""


@dataclass
class BatchResult:
    total: int  # jobs asked for
    skipped: int  # found in the store: at the start, or (another writer's) when their batch was checked
    solved: int  # solved and stored by this run (real inserts or replacements)
    stored_meanwhile: int = 0  # solved, but meanwhile stored by another writer (or the same game twice)
    repeats: int = 0  # inputs dropped before the run as the same game as an earlier one
    unchanged: int = 0  # re-solved (redo) without a tighter result: the stored row stays


def _solve_safe(args) -> tuple[str, Row | str]:
    job, timeout = args
    try:
        return "ok", solve_job(job, timeout)
    except ValueError as e:  # our MalformedError / IllegalActionError
        return "error", f"{job['name']}: {e}"


def _solve_chunk(chunk: list[dict], timeout: float | None) -> list[tuple[str, Row | str]]:
    return [_solve_safe((job, timeout)) for job in chunk]


def _init_worker():
    """A pool worker ignores Ctrl-C (the parent stops the pool) and dies quietly on
    SIGTERM (the parent's handler, inherited through fork, is not for it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _batched(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def exceeds(a: dict, b: dict) -> bool:
    """Whether the budget ``a`` is larger than ``b`` (both :func:`solver.portfolio.budget`):
    the same parts, each at least as large (no timeout: the largest), one larger. Budgets
    of other parts (another version's) are not comparable: False."""
    if a.keys() != b.keys():
        return False

    def part(x) -> float:
        return math.inf if x is None else x

    return a != b and all(part(a[k]) >= part(b[k]) for k in a)


def larger_budgets(store: Store, timeout: float | None) -> set[tuple[int, str]]:
    """The budgets of the store's inexact rows that are larger than the one a run with
    ``timeout`` solves their games with (:func:`exceeds`), as (player count, stored
    budget) pairs. A redo leaves those rows as they are: a smaller budget is not expected
    to tighten them. Rows of an unknown budget (stored before schema 3), a smaller one or
    the same one are solved again (the wall clock may have cut a solve short). One scan
    of the store's inexact rows."""
    from ..portfolio import budget

    return {(b.players, b.text) for b in store.budgets(open_only=True)
            if b.text is not None and b.value is not None and exceeds(b.value, budget(timeout, b.players))}


def count_skipped(jobs: Jobs, store: Store, *, redo_open: bool = False, redo_undecided: bool = False,
                  kept_budgets: Budgets = ()) -> int:
    """How many of ``jobs`` a run skips (stored, and not to be redone), without making a
    range's jobs: the stored seeds under a range's prefix followed by a digit (of games
    dealt for its player count and rules) are one index range scan, each checked
    arithmetically; the listed jobs are looked up by key. ``kept_budgets``: the budgets
    of rows a redo keeps (:func:`larger_budgets`)."""
    flags: SkipFlags = {"redo_open": redo_open, "redo_undecided": redo_undecided, "kept_budgets": kept_budgets}
    n = 0
    for r in jobs.ranges():
        seeds = store.skipped_between(r.prefix + "0", r.prefix + ":", r.players, rules_text(r.options), **flags)
        n += sum(r.number(k) is not None for k in seeds)
    listed = [j["key"] for j in jobs.listed()]
    if listed:
        n += len(store.skipped_keys(listed, **flags))
    return n


def _skipped(batch: list[dict], store: Store, flags: SkipFlags) -> set[str]:
    """The names of the jobs of ``batch`` a run skips: the listed ones by key, a range's
    by seed (its games are dealt by the workers). ``flags``: as :func:`pending_jobs`'s."""
    out: set[str] = set()
    keyed = {j["key"]: j["name"] for j in batch if j["key"] is not None}
    if keyed:
        out.update(keyed[k] for k in store.skipped_keys(keyed, **flags))
    by_game: dict[tuple, list[str]] = {}
    for j in batch:
        if j["key"] is None:
            by_game.setdefault((j["players"], rules_text(j["options"])), []).append(j["seed"])
    for (players, rules), seeds in by_game.items():
        out.update(store.skipped_seeds(seeds, players, rules, **flags))
    return out


def pending_jobs(jobs: Iterable[dict], store: Store, *, redo_open: bool = False,
                 redo_undecided: bool = False, kept_budgets: Budgets = ()) -> Iterator[dict]:
    """The jobs not yet stored (or stored but to be redone), in order, checking the store
    :data:`BATCH` jobs at a time."""
    flags: SkipFlags = {"redo_open": redo_open, "redo_undecided": redo_undecided, "kept_budgets": kept_budgets}
    for batch in _batched(jobs, BATCH):
        done = _skipped(batch, store, flags)
        for j in batch:
            if j["name"] not in done:
                yield j


def run_batch(jobs: Iterable[dict], store: Store, *, timeout: float | None, workers: int | None = None,
              dask: str | None = None, progress: Callable[[Row], None] | None = None,
              on_start: Callable[[int], None] | None = None, redo_open: bool = False,
              redo_undecided: bool = False) -> BatchResult:
    """Solve every job not yet in ``store``. ``jobs``: a :class:`~.jobs.Jobs` (from
    :func:`~.jobs.make_jobs`; streamed) or any iterable of jobs (read into a list).
    ``dask``: None (local processes), ``"local"`` (start a local Dask cluster) or a
    scheduler address (join an existing cluster). ``on_start(n)`` is told how many jobs
    remain; ``progress(row)`` is called after each row is committed. ``redo_open``: also
    solve again the stored rows that are not exact (say with a longer ``timeout``),
    keeping the new result only where it is tighter; ``redo_undecided``: the same for the
    rows where winnability itself is open. A redo leaves the rows solved with a larger
    budget than ``timeout`` gives (:func:`larger_budgets`); every row records its budget
    (:func:`solver.portfolio.budget`)."""
    jobs = Jobs.of(jobs)
    redo = redo_open or redo_undecided
    flags: SkipFlags = {"redo_open": redo_open, "redo_undecided": redo_undecided,
                        "kept_budgets": larger_budgets(store, timeout) if redo else set()}
    skipped = count_skipped(jobs, store, **flags)
    n = len(jobs) - skipped
    if on_start:
        on_start(n)
    workers = workers or default_workers()
    pending = pending_jobs(jobs, store, **flags)
    if not n:
        results: Iterable = iter(())
    elif dask is not None:
        results = _dask_results(pending, n, timeout, workers, dask)
    elif workers == 1 or n <= 1:
        results = (_solve_safe((j, timeout)) for j in pending)
    else:
        results = _pool_results(pending, n, timeout, workers)
    solved = meanwhile = unchanged = 0
    try:
        for status, value in results:
            if status != "ok":
                raise JobError(value)
            stored = store.improve(value) if redo else store.add(value)
            # counted as solved only when this run's row is the one now stored
            if stored:
                solved += 1
            elif redo:
                unchanged += 1
            else:
                meanwhile += 1
            if progress:
                progress(value)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stop the workers now (a store error, an interrupt), not at garbage collection
    # every job is solved here or found stored: at the start (the count above, for on_start)
    # or, stored meanwhile by another writer, when its batch is checked against the store
    skipped = len(jobs) - (solved + meanwhile + unchanged)
    return BatchResult(len(jobs), skipped, solved, meanwhile, jobs.repeats, unchanged)


def _pool_context():
    """Workers come from a fork server (a clean process that has imported the solver), not
    from forks of this one: a fork copies whatever locks this process's threads hold (the
    SAT timer's, OR-Tools' thread pool, a test runner's), and a worker that needs one then
    waits forever. Where there is no fork server (not POSIX), the platform's default."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():  # pragma: no cover - not POSIX
        return mp.get_context()
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["solver.analysis.jobs", "solver.portfolio"])
    return ctx


def _pool_results(pending: Iterator[dict], n: int, timeout, workers: int) -> Iterator:
    """Results from a process pool, chunks of jobs handed out as others come back (at
    most ``IN_FLIGHT`` per worker), so the jobs are read from ``pending`` (and the store)
    in this thread, as they are needed."""
    import queue

    ctx = _pool_context()
    chunks = _batched(pending, max(1, min(8, n // (workers * 50) or 1)))
    back: queue.SimpleQueue = queue.SimpleQueue()
    pool = ctx.Pool(workers, initializer=_init_worker)
    try:
        in_flight = 0
        for chunk in islice(chunks, workers * IN_FLIGHT):
            pool.apply_async(_solve_chunk, (chunk, timeout), callback=back.put,
                             error_callback=lambda e: back.put(e))
            in_flight += 1
        while in_flight:
            out = back.get()
            in_flight -= 1
            if isinstance(out, BaseException):
                raise out
            nxt = next(chunks, None)
            if nxt is not None:
                pool.apply_async(_solve_chunk, (nxt, timeout), callback=back.put,
                                 error_callback=lambda e: back.put(e))
                in_flight += 1
            yield from out
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _dask_results(pending: Iterator[dict], n: int, timeout, workers: int, where: str) -> Iterator:
    """Jobs go out in chunks, at most a few per worker in flight, so millions of jobs
    never sit in the scheduler's memory (or this one's) at once."""
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
            chunks = _batched(pending, max(1, min(50, n // (nworkers * 20) or 1)))
            futures = as_completed()
            for chunk in islice(chunks, nworkers * IN_FLIGHT):
                futures.add(client.submit(_solve_chunk, chunk, timeout, pure=False))
            for fut in futures:
                out = fut.result()
                fut.release()
                nxt = next(chunks, None)
                if nxt is not None:
                    futures.add(client.submit(_solve_chunk, nxt, timeout, pure=False))
                yield from out
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
