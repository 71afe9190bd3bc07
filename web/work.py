"""The board's heavy work, in worker processes: solving a position, reviewing a game,
the chances near the end. Each request's work runs with a deterministic budget in a
process of the pool (workers from the fork server, as the batch commands use), so the
server keeps answering while it runs; a bounded number of requests may wait (more is
:class:`Busy`); answers are kept by the canonical game key, so the same question is
answered once."""
from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from solver.common.pool import pool_context
from solver.hanabi.batch.store import game_digest, line_json, rules_text
from solver.hanabi.rules import GameRecord, format_compact, load_text

SOLVE_SECONDS = 10.0  # each request's budget: the deterministic budget of solve(timeout=10)
PRELOAD = ("solver", "solver.hanabi.methods.portfolio", "solver.hanabi.analysis.review")
CACHE = 256  # answers kept in memory


class Busy(Exception):
    """Every worker is busy and the queue of waiting requests is full."""


def game_key(rec: GameRecord, kind: str, turn: int | None) -> str:
    """The cache key of a question about a game: the game itself (players, first player,
    rules, deck, actions), not its names, notes or source."""
    g = rec.game
    digest = game_digest(g.num_players, g.starting_player, rules_text(g.rules.to_json_options()),
                         format_compact(g.deck, g.variant), line_json(rec.actions))
    return f"{kind}:{digest}:{turn}"


# ---- the work itself, in a worker process (module-level functions: picklable) ----------
def _record(game: dict[str, Any]) -> GameRecord:
    import json

    return load_text(json.dumps(game), "the game")


def solve_job(game: dict[str, Any], turn: int | None) -> dict[str, Any]:
    from solver.hanabi.analysis.answers import solve_answer

    return solve_answer(_record(game), turn, timeout=SOLVE_SECONDS)


def review_job(game: dict[str, Any]) -> dict[str, Any]:
    from solver.hanabi.analysis.review import review

    return review(_record(game), timeout=SOLVE_SECONDS).to_json()


def chances_job(game: dict[str, Any], turn: int | None) -> dict[str, Any]:
    from solver.hanabi.analysis.answers import chances_answer

    return chances_answer(_record(game), turn, objective="both")  # as hanabi chances answers by default


class Workers:
    """A process pool with a bounded queue and an answer cache."""

    def __init__(self, workers: int = 1, queue: int = 8):
        self.workers, self.queue = max(1, workers), max(1, queue)
        self._lock = threading.Lock()
        self._pending = 0
        self._pool: ProcessPoolExecutor | None = None
        self._cache: OrderedDict[str, Any] = OrderedDict()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=pool_context(PRELOAD))
        return self._pool

    async def run(self, key: str, fn, *args) -> Any:
        """``fn(*args)`` in a worker (the cached answer if ``key`` was asked before)."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            if self._pending >= self.workers + self.queue:
                raise Busy(f"the server is busy: {self._pending} requests are being answered or waiting; try "
                           f"again in a moment")
            self._pending += 1
        try:
            fut = self._submit(fn, *args)
            answer = await asyncio.wrap_future(fut)
        except BrokenProcessPool:  # a worker was killed while it answered: the next request gets a new pool
            self._pool = None
            raise Busy("a worker stopped while it was answering; ask again") from None
        finally:
            with self._lock:
                self._pending -= 1
        with self._lock:
            self._cache[key] = answer
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return answer

    def _submit(self, fn, *args) -> Future:
        try:
            return self._executor().submit(fn, *args)
        except BrokenProcessPool:  # a worker was killed: a new pool, the server goes on
            self._pool = None
            return self._executor().submit(fn, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
