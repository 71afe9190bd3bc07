"""The Hand deal store: one SQLite file (WAL), one row per analysed deal.

A row is keyed on the deal's seed: the deal is ``Deal.random(seed)`` (dealer 3, seat 0
leads), and its text is kept beside the seed and checked against it when read. The store
records the node budgets its rows were computed with (``meta``): a run with other budgets
refuses to mix its rows in, so every row of a store answers the same questions.

Every finished deal is committed on its own, so a run killed at any moment (SIGKILL
included) keeps everything that finished, and a rerun skips it. Every SQLite fault is a
one-line :class:`~solver.errors.StoreError`; committed rows are never touched.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from solver.common.sqlite import SqliteFile
from solver.errors import StoreError
from solver.hand.rules import Deal

SCHEMA_VERSION = 1
KIND = "hand-deals"  # meta.kind: what the file is (a Hanabi result store is another kind)
BUSY_TIMEOUT = 30.0
SEATS = range(4)
MAX_SECONDS = 1e7

# name, SQL type, meaning; the seat columns are repeated for s = 0..3 (absolute seats)
SEAT_COLUMNS = (
    ("most", "INTEGER", "the most tricks the seat can force against the other three (NULL: undecided)"),
    ("fewest", "INTEGER", "the fewest tricks it can force"),
    ("exact", "TEXT", "the trick counts it can force exactly, comma-separated ('' none; NULL undecided)"),
    ("scores", "TEXT", "the score it can guarantee with each bid 0..8, comma-separated (NULL: undecided)"),
    ("best_bid", "INTEGER", "the bid with the highest guaranteed score, the lowest of equals"),
    ("best_score", "INTEGER", "that score"),
)
COLUMNS = (
    ("seed", "INTEGER PRIMARY KEY", "the deal is Deal.random(seed)"),
    ("deal", "TEXT", "the deal in text notation (docs/hand.md)"),
    ("dealer", "INTEGER", "the dealer; the next seat leads the first trick"),
    *((f"{name}_{s}", t, f"seat {s}: {m}") for s in SEATS for name, t, m in SEAT_COLUMNS),
    ("reach", "TEXT", "the reachable trick vectors: hex mask over the 165 whole-round vectors in "
                      "lexicographic order (solver.hand.batch.stats.VECTORS); NULL: undecided"),
    ("reach_count", "INTEGER", "how many of the 165 vectors are reachable (NULL: undecided)"),
    ("nodes", "INTEGER", "paranoid search nodes (the four seats' bid tables)"),
    ("coop_nodes", "INTEGER", "cooperative search nodes"),
    ("seconds", "REAL", "CPU seconds of the analysis"),
    ("finished_at", "TEXT", "UTC time the row was written"),
)
FIELDS = tuple(c[0] for c in COLUMNS)
# the range of each seat value: trick counts 0..8; a score +80 at best (8 tricks bid and
# made), -160 at worst (16 tricks off: no interval narrower than every count is forcible)
RANGES = {"most": (0, 8), "fewest": (0, 8), "exact": (0, 8), "best_bid": (0, 8), "best_score": (-160, 80),
          "scores": (-160, 80)}
ROW_FIELDS = FIELDS[:-1]  # finished_at: the table's default
# one deal's row (a seed already stored keeps its row)
INSERT_ROW = f"INSERT OR IGNORE INTO deals ({', '.join(ROW_FIELDS)}) VALUES ({', '.join('?' * len(ROW_FIELDS))})"


@dataclass(frozen=True)
class SeatRow:
    most: int | None
    fewest: int | None
    exact: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    best_bid: int | None
    best_score: int | None

    @property
    def complete(self) -> bool:
        return None not in (self.most, self.fewest, self.exact, self.scores, self.best_bid, self.best_score)


@dataclass(frozen=True)
class DealRow:
    """A stored deal: its seed, text, dealer, the four seats' values, the reachable
    vectors' mask (None: undecided) and the effort."""

    seed: int
    deal: str
    dealer: int
    seats: tuple[SeatRow, SeatRow, SeatRow, SeatRow]
    reach: int | None
    nodes: int
    coop_nodes: int
    seconds: float

    @property
    def leader(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def reach_count(self) -> int | None:
        return None if self.reach is None else self.reach.bit_count()

    @property
    def complete(self) -> bool:
        return self.reach is not None and all(s.complete for s in self.seats)

    def values(self) -> tuple[object, ...]:
        out: list[object] = [self.seed, self.deal, self.dealer]
        for s in self.seats:
            out += [s.most, s.fewest, _ints_text(s.exact), _ints_text(s.scores), s.best_bid, s.best_score]
        out += [None if self.reach is None else f"{self.reach:x}", self.reach_count, self.nodes, self.coop_nodes,
                self.seconds]
        return tuple(out)


def _ints_text(xs: tuple[int, ...] | None) -> str | None:
    return None if xs is None else ",".join(map(str, xs))


def _ints(text: object) -> tuple[int, ...] | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(text)
    return tuple(int(x) for x in text.split(",")) if text else ()


class HandStore(SqliteFile):
    """``HandStore(path, budget)`` opens (creating if needed) a deal store made with the
    node ``budget`` (a dict: ``nodes``, ``coop_nodes``); ``budget=None`` opens any (to
    read); ``readonly=True`` never writes; ``create=False`` needs an existing store."""

    WHAT = "Hand deal store"

    def __init__(self, path: str | os.PathLike[str], budget: dict[str, int] | None = None, *, create: bool = True,
                 readonly: bool = False, busy_timeout: float | None = None):
        self._connect(path, create=create, readonly=readonly,
                      busy_timeout=BUSY_TIMEOUT if busy_timeout is None else busy_timeout)
        try:
            with self._sql("open"):
                self.budget = self._init_schema(create and not self.readonly, budget)
        except BaseException:
            self.db.close()
            raise

    def _meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT name, value FROM meta").fetchall())

    def _init_schema(self, create: bool, budget: dict[str, int] | None) -> dict[str, int]:
        """Check the file is a deal store of this schema made with ``budget`` (before any
        PRAGMA or write, so a foreign SQLite file is left as it was); create it if empty
        (under a write lock, re-checked inside). The store's budgets."""
        tables = self._tables()
        if "deals" not in tables:
            if tables:
                raise StoreError(f"{self.path}: an SQLite file, but not a {self.WHAT} "
                                 f"(tables: {', '.join(sorted(tables))})")
            if not create:
                raise StoreError(f"{self.path}: empty database, not a {self.WHAT}")
            if budget is None:
                raise StoreError(f"{self.path}: a new store needs the node budgets")  # pragma: no cover
            self.db.execute("BEGIN IMMEDIATE")
            if "deals" not in self._tables():  # again: another process may have created it meanwhile
                cols = ", ".join(f"{n} {t}" + (" DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))"
                                               if n == "finished_at" else "") for n, t, _ in COLUMNS)
                self.db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
                self.db.execute(f"CREATE TABLE deals ({cols})")
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("kind", KIND), ("schema", str(SCHEMA_VERSION)),
                    ("budget", json.dumps(budget, sort_keys=True))])
            self.db.execute("COMMIT")
        tables = self._tables()
        meta = self._meta() if "meta" in tables else {}
        if meta.get("kind") != KIND:
            raise StoreError(f"{self.path}: not a {self.WHAT} (meta.kind is {meta.get('kind')!r})")
        if meta.get("schema") != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path}: {self.WHAT} schema {meta.get('schema')!r}, this version reads "
                             f"{SCHEMA_VERSION}")
        have = tuple(r[1] for r in self.db.execute("PRAGMA table_info(deals)"))
        if have != FIELDS:
            raise StoreError(f"{self.path}: the deals table has other columns than this version's")
        try:
            stored = json.loads(meta.get("budget", ""))
            if not (isinstance(stored, dict) and all(isinstance(v, int) for v in stored.values())):
                raise ValueError
        except ValueError:
            raise StoreError(f"{self.path}: corrupt store: meta.budget is {meta.get('budget')!r}") from None
        if budget is not None and stored != budget:
            have_b = ", ".join(f"{k} {v:,}" for k, v in sorted(stored.items()))
            raise StoreError(f"{self.path}: made with other node budgets ({have_b}); give the same budgets "
                             f"or another --db")
        if not self.readonly:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        return stored

    # --- writing -------------------------------------------------------------------

    def add(self, row: DealRow) -> bool:
        """Commit one deal; False if its seed was already stored (the old row stays)."""
        with self._sql("write to"):
            cur = self.db.execute(INSERT_ROW, row.values())
        return cur.rowcount == 1

    def add_many(self, rows: Iterable[DealRow]) -> int:
        """Commit many deals in one transaction (all or none); how many were new (seeds
        already stored keep their rows)."""
        added = 0
        with self._sql("write to"):
            self.db.execute("BEGIN IMMEDIATE")
            for row in rows:
                added += self.db.execute(INSERT_ROW, row.values()).rowcount
            self.db.execute("COMMIT")
        return added

    # --- reading -------------------------------------------------------------------

    def stored_between(self, start: int, stop: int) -> set[int]:
        """The stored seeds ``start <= seed < stop`` (an index range scan)."""
        with self._sql("read"):
            return {r[0] for r in self.db.execute("SELECT seed FROM deals WHERE seed >= ? AND seed < ?",
                                                  (start, stop))}

    def count_between(self, start: int, stop: int) -> int:
        """How many seeds ``start <= seed < stop`` are stored."""
        with self._sql("read"):
            return int(self.db.execute("SELECT COUNT(*) FROM deals WHERE seed >= ? AND seed < ?",
                                       (start, stop)).fetchone()[0])

    def __len__(self) -> int:
        with self._sql("read"):
            return int(self.db.execute("SELECT COUNT(*) FROM deals").fetchone()[0])

    def rows(self, start: int | None = None, stop: int | None = None) -> Iterator[DealRow]:
        """Every stored deal in seed order (or those ``start <= seed < stop``), each checked
        (a value of the wrong type or out of range is a StoreError naming the seed and the
        column)."""
        q = f"SELECT {', '.join(FIELDS)} FROM deals WHERE seed >= ? AND seed < ? ORDER BY seed"
        lo = -(2 ** 63) if start is None else start
        hi = 2 ** 63 - 1 if stop is None else stop
        with self._sql("read"):
            cur = self.db.execute(q, (lo, hi))
            while batch := cur.fetchmany(1000):
                for r in batch:
                    yield self.checked(r)

    def checked(self, r: tuple[Any, ...]) -> DealRow:
        """A row of values in :data:`FIELDS` order as a :class:`DealRow`, checked."""
        d = dict(zip(FIELDS, r))
        col = ""
        try:
            col = "seed"
            if not isinstance(d["seed"], int):
                raise ValueError
            col = "dealer"
            if d["dealer"] not in range(4):
                raise ValueError
            seats = []
            for s in SEATS:
                vals = []
                for name, _, _ in SEAT_COLUMNS:
                    col = f"{name}_{s}"
                    v = d[col]
                    if name in ("exact", "scores"):
                        v = _ints(v)
                        if v is not None and not all(lo <= x <= hi for x in v for lo, hi in (RANGES[name],)):
                            raise ValueError
                    elif v is not None and (not isinstance(v, int) or not RANGES[name][0] <= v <= RANGES[name][1]):
                        raise ValueError
                    vals.append(v)
                seats.append(SeatRow(*vals))
            col = "reach"
            reach = None if d["reach"] is None else int(d["reach"], 16)
            col = "reach_count"
            if d["reach_count"] != (None if reach is None else reach.bit_count()):
                raise ValueError
            for col in ("nodes", "coop_nodes"):
                if not isinstance(d[col], int) or d[col] < 0:
                    raise ValueError
            col = "seconds"
            sec = d["seconds"]
            if not isinstance(sec, (int, float)) or not (math.isfinite(sec) and 0 <= sec <= MAX_SECONDS):
                raise ValueError
            col = "deal"
            if d["deal"] != str(Deal.random(d["seed"], d["dealer"])):
                raise ValueError
        except (ValueError, TypeError):
            raise StoreError(f"{self.path}: corrupt row (seed {d.get('seed')!r}): {col} is {d.get(col)!r}") from None
        return DealRow(d["seed"], d["deal"], d["dealer"], (seats[0], seats[1], seats[2], seats[3]), reach,
                       d["nodes"], d["coop_nodes"], float(sec))
