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
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TypedDict

from solver.common.pool import JobError, batched, dask_results, default_workers, pool_results, stopping

from .jobs import Jobs, solve_job
from .store import Row, Store, rules_text

Budgets = Collection[tuple[int, str]]  # (player count, stored budget) pairs: see larger_budgets


class SkipFlags(TypedDict):
    """Which stored rows a run solves again (the store's ``skipped_*`` arguments)."""

    redo_open: bool
    redo_undecided: bool
    kept_budgets: Budgets

BATCH = 2000  # jobs checked against the store at once


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


def exceeds(a: dict, b: dict) -> bool:
    """Whether the budget ``a`` is larger than ``b`` (both :func:`solver.hanabi.methods.portfolio.budget`):
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
    from solver.hanabi.methods.portfolio import budget

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
    for batch in batched(jobs, BATCH):
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
    (:func:`solver.hanabi.methods.portfolio.budget`)."""
    jobs = Jobs.of(jobs)
    redo = redo_open or redo_undecided
    flags: SkipFlags = {"redo_open": redo_open, "redo_undecided": redo_undecided,
                        "kept_budgets": larger_budgets(store, timeout) if redo else set()}
    skipped = count_skipped(jobs, store, **flags)
    n = len(jobs) - skipped
    store.check_writable(n, "decks")
    if on_start:
        on_start(n)
    workers = workers or default_workers()
    pending = pending_jobs(jobs, store, **flags)
    if not n:
        results: Iterator = iter(())
    elif dask is not None:
        results = dask_results(pending, n, _solve_chunk, timeout, workers, dask)
    elif workers == 1 or n <= 1:
        results = (_solve_safe((j, timeout)) for j in pending)
    else:
        results = _pool_results(pending, n, timeout, workers)
    solved = meanwhile = unchanged = 0
    with stopping(results):
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
    # every job is solved here or found stored: at the start (the count above, for on_start)
    # or, stored meanwhile by another writer, when its batch is checked against the store
    skipped = len(jobs) - (solved + meanwhile + unchanged)
    return BatchResult(len(jobs), skipped, solved, meanwhile, jobs.repeats, unchanged)


PRELOAD = ("solver.hanabi.batch.jobs", "solver.hanabi.methods.portfolio")  # what the fork server imports once


def _pool_results(pending: Iterator[dict], n: int, timeout, workers: int) -> Iterator:
    return pool_results(pending, n, _solve_chunk, timeout, workers, PRELOAD)
