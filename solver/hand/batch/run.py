"""Analysing many Hand deals: the seeds ``start .. start + count - 1``, each
``Deal.random(seed)``, on local worker processes (the default) or a Dask cluster, through
the same worker machinery as ``hanabi analyse`` (:mod:`solver.common.pool`).

Only the calling process writes to the store, one committed row per finished deal, so a
run can be killed at any moment and rerun: stored seeds are skipped. Seeds are checked
against the store :data:`BATCH` at a time and handed out a few chunks per worker ahead,
so memory does not grow with the number of deals.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from solver.common.pool import JobError, dask_results, default_workers, pool_results, stopping
from solver.hand.rules import Deal

from .stats import deal_stats
from .store import DealRow, HandStore, SeatRow

BATCH = 2000  # seeds checked against the store at once
PRELOAD = ("solver.hand.batch.run",)  # what the worker processes' fork server imports once


def analyse_deal(seed: int, budget: dict[str, int]) -> DealRow:
    """The stored row of ``Deal.random(seed)``: :func:`~solver.hand.batch.stats.deal_stats`
    within ``budget`` (``nodes``, ``coop_nodes``), with its CPU time."""
    t0 = time.process_time()
    deal = Deal.random(seed)
    st = deal_stats(deal, nodes=budget["nodes"], coop_nodes=budget["coop_nodes"])
    seats = []
    for r in st.rows:
        b = r.bounds
        scores = tuple(r.scores) if all(x is not None for x in r.scores) else None
        seats.append(SeatRow(b.most, b.fewest, b.exact, scores, r.best_bid, r.best_score))  # type: ignore[arg-type]
    return DealRow(seed, str(deal), deal.dealer, (seats[0], seats[1], seats[2], seats[3]), st.reach, st.nodes,
                   st.coop_nodes_used, round(time.process_time() - t0, 6))


def _analyse_chunk(seeds: list[int], budget: dict[str, int]) -> list[tuple[str, DealRow | str]]:
    out: list[tuple[str, DealRow | str]] = []
    for s in seeds:
        try:
            out.append(("ok", analyse_deal(s, budget)))
        except ValueError as e:  # pragma: no cover - a seed always deals a legal deal
            out.append(("error", f"seed {s}: {e}"))
    return out


def pending_seeds(start: int, count: int, store: HandStore) -> Iterator[int]:
    """The seeds of the range not yet stored, in order, :data:`BATCH` at a time."""
    for lo in range(start, start + count, BATCH):
        hi = min(lo + BATCH, start + count)
        done = store.stored_between(lo, hi)
        yield from (s for s in range(lo, hi) if s not in done)


@dataclass(frozen=True)
class HandBatchResult:
    total: int  # deals asked for
    skipped: int  # found stored (at the start, or stored meanwhile by another writer)
    analysed: int  # analysed and stored by this run


def run_deals(start: int, count: int, store: HandStore, *, workers: int | None = None, dask: str | None = None,
              progress: Callable[[DealRow], None] | None = None,
              on_start: Callable[[int], None] | None = None) -> HandBatchResult:
    """Analyse the deals of seeds ``start .. start + count - 1`` not yet in ``store``
    (with the store's budgets). ``dask``: None (local processes), ``"local"`` or a
    scheduler address. ``on_start(n)`` is told how many deals remain; ``progress(row)`` is
    called after each row is committed."""
    budget = store.budget
    n = count - store.count_between(start, start + count)
    store.check_writable(n, "deals")
    if on_start:
        on_start(n)
    workers = workers or default_workers()
    pending = pending_seeds(start, count, store)
    if not n:
        results: Iterator[tuple[str, DealRow | str]] = iter(())
    elif dask is not None:
        results = dask_results(pending, n, _analyse_chunk, budget, workers, dask)
    elif workers == 1 or n <= 1:
        results = (x for seed in pending for x in _analyse_chunk([seed], budget))
    else:
        results = pool_results(pending, n, _analyse_chunk, budget, workers, PRELOAD, chunk_size=1)
    analysed = 0
    with stopping(results):
        for status, value in results:
            if status != "ok":
                raise JobError(value)  # pragma: no cover
            row = cast(DealRow, value)  # status "ok": a row
            if store.add(row):
                analysed += 1
            if progress:
                progress(row)
    return HandBatchResult(count, count - analysed, analysed)


__all__ = ["BATCH", "HandBatchResult", "analyse_deal", "pending_seeds", "run_deals"]
