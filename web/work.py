"""The board's heavy work, in worker processes: solving a position, reviewing a game,
the chances near the end. Each request's work runs with a deterministic budget in a
process of the pool (workers from the fork server, as the batch commands use), so the
server keeps answering while it runs; a bounded number of requests may wait (more is
:class:`Busy`); answers are kept by the canonical game key, so the same question is
answered once."""
from __future__ import annotations

import asyncio
import functools
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

    def __init__(self, workers: int = 1, queue: int = 8, store: str | None = None):
        self.workers, self.queue = max(1, workers), max(1, queue)
        # hanabi serve --store: the file that keeps the answers (None: in memory only); opened
        # on first use, in the server's event loop, the one thread that reads and writes it
        self.store_path = store
        self.store: Any = None
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
            if self.store_path is not None and self.store is None:
                from .store import AnswerStore

                self.store = AnswerStore(self.store_path)
            kept = self.store.get(key) if self.store is not None else None
            if kept is not None:
                self._cache[key] = kept
                return kept
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
            if self.store is not None:
                self.store.put(key, answer)
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
        if self.store is not None:
            self.store.close()
            self.store = None


# ---- reviews in the background: progress point by point, and a cancel ------------------
class Cancelled(Exception):
    """The review was cancelled (raised in the worker, at the next position)."""


def review_progress_job(game: dict[str, Any], job: str, points: Any, cancel: Any) -> dict[str, Any]:
    """:func:`review_job`, telling ``points`` (a queue) of each position as it is solved and
    stopping at the next one once ``cancel`` (an event) is set."""
    from solver.hanabi.analysis.review import review

    def on_point(p) -> None:
        points.put((job, {"turn": p.turn, "max_score": p.max_score, "upper_bound": p.upper_bound,
                          "exact": p.exact, "score": p.score}))
        if cancel.is_set():
            raise Cancelled()

    return review(_record(game), timeout=SOLVE_SECONDS, on_point=on_point).to_json()


class Reviews:
    """Reviews running in the background (one worker each, from ``workers``' pool): their
    points as they come, their answers when done; each can be cancelled."""

    def __init__(self, workers: Workers):
        self.workers = workers
        self._lock = threading.Lock()
        self.jobs: dict[str, dict[str, Any]] = {}
        self._manager: Any = None
        self._points: Any = None
        self._reader: threading.Thread | None = None
        self._count = 0

    def _start_manager(self) -> None:
        if self._manager is not None and (self._reader is None or not self._reader.is_alive()):
            self._manager = None  # its process was killed: a new one
        if self._manager is None:
            import multiprocessing as mp

            self._manager = mp.get_context("spawn").Manager()
            self._points = self._manager.Queue()
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                item = self._points.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            job, point = item
            with self._lock:
                if job in self.jobs:
                    self.jobs[job]["points"].append(point)

    def start(self, rec: GameRecord) -> str:
        """A review of ``rec`` in the background; its job id (the same review already done
        or running: its job)."""
        key = game_key(rec, "review", None)
        with self._lock:
            for jid, j in self.jobs.items():
                if j["key"] == key and j["status"] in ("running", "done"):
                    return jid
            running = sum(j["status"] == "running" for j in self.jobs.values())
            if running >= self.workers.workers + self.workers.queue:
                raise Busy(f"the server is busy: {running} reviews are running or waiting; try again in a moment")
            self._start_manager()
            self._count += 1
            jid = f"r{self._count}"
            finished = [k for k, j in self.jobs.items() if j["status"] != "running"]
            for k in finished[:max(0, len(self.jobs) - 64)]:  # the oldest finished ones go
                del self.jobs[k]
            cancel = self._manager.Event()
            self.jobs[jid] = {"key": key, "status": "running", "points": [], "total": len(rec.actions) + 1,
                              "answer": None, "error": None, "cancel": cancel}
        fut = self.workers._submit(review_progress_job, rec.to_json(), jid, self._points, cancel)
        fut.add_done_callback(functools.partial(self._finish, jid))
        return jid

    def _finish(self, jid: str, fut: Future) -> None:
        with self._lock:
            j = self.jobs[jid]
            try:
                j["answer"], j["status"] = fut.result(), "done"
            except Cancelled:
                j["status"] = "cancelled"
            except BrokenProcessPool:
                self.workers._pool = None
                j["status"], j["error"] = "error", "a worker stopped while it was reviewing; start it again"
            except Exception as e:  # a bug: said in one line, the server goes on
                j["status"], j["error"] = "error", f"internal error (please report it): {type(e).__name__}: {e}"

    def state(self, jid: str) -> dict[str, Any] | None:
        with self._lock:
            j = self.jobs.get(jid)
            if j is None:
                return None
            return {"job": jid, "status": j["status"], "total": j["total"], "points": list(j["points"]),
                    "review": j["answer"], "error": j["error"]}

    def cancel(self, jid: str) -> bool:
        with self._lock:
            j = self.jobs.get(jid)
            if j is None:
                return False
            if j["status"] == "running":
                j["cancel"].set()
            return True

    def close(self) -> None:
        if self._manager is not None:
            try:
                self._points.put(None)
                self._manager.shutdown()
            except (OSError, EOFError):
                pass
            self._manager = None


# ---- Hand (Hareega): the double-dummy answers ------------------------------------------
def hand_solve_job(text: str, rule: str, seat: int | None) -> dict[str, Any]:
    """``hand solve --json`` of a deal or position given as text (notation or JSON)."""
    from solver.hand.analysis.answers import position_from_text, solve_json, solve_position

    deal, pos = position_from_text(text, "the deal")
    return solve_json(pos, deal, rule, solve_position(pos, "the deal", seat, rule))


def hand_best_job(text: str, rule: str, bid: int | None) -> dict[str, Any]:
    """``hand best --json`` of a position given as text (notation or JSON)."""
    from solver.hand.analysis.answers import best_json, best_position, position_from_text

    _, pos = position_from_text(text, "the position")
    return best_json(best_position(pos, "the position", bid, rule), rule)
