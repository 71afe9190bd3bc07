"""The result store: one SQLite file (WAL), one row per solved game.

A row is keyed on **what was solved**: :func:`game_digest` of the canonical game (player
count, starting player, rule options with the variant, the deck, the position's actions).
The human-readable name of the input (a seed, ``FILE:ID``, a game file's path) is a column
beside it, so two different inputs with the same name are both stored and one game given
twice (under any names) is stored once.

Every finished result is committed on its own, so a run killed at any moment (SIGKILL
included) keeps everything that finished. Reading never needs the writer to be alive.
Every SQLite fault (a full disk, a lock held past the busy timeout, a corrupt file) is a
one-line :class:`~solver.errors.StoreError`; committed rows are never touched.

Each row records the deterministic budget it was solved with (``budget``: compact JSON of
:func:`solver.hanabi.methods.portfolio.budget`: the timeout, the confirmations' scale, the search nodes
and SAT conflicts of the first round, the confirmations' SAT conflicts, CP-SAT
deterministic time and nodes), so a store says under which budget each answer was found.

Schema history: version 1 keyed rows on the input's name alone (a seed, or a file's base
name and row id), so a second input with the same name was never solved. Version 2 keyed
every row on its game. Version 3 adds two columns after ``finished_at``: ``budget`` and
``relaxed_nodes`` (the relaxed game's nodes, the effort beside ``nodes``). Opening an
older store for writing migrates it in one transaction: a version-1 store is copied into
a new table, each row keyed on its game, its old key kept as its name; a version-2 store
gains the two columns in place (no copy, however large the store). The old rows' budget
and relaxed nodes are NULL: unknown. Opening an older store read-only leaves the file as
it is: a version-1 store is converted in memory, a version-2 store read through a
temporary view that adds the two columns as NULL.
"""
from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from solver.common.sqlite import SqliteFile
from solver.errors import StoreError

SCHEMA_VERSION = 3
BUSY_TIMEOUT = 30.0  # seconds a writer waits for another one's lock
MAX_SECONDS = 1e7  # a stored solve time above this (115 days) is corrupt

COLUMNS = (
    # name, SQL type, meaning
    ("key", "TEXT PRIMARY KEY", "digest of the canonical game solved (players, start, rules, deck, position)"),
    ("name", "TEXT", "the input's name: the seed, FILE:ID for deck files, the path of a game file"),
    ("seed", "TEXT", "the hanab.live seed whose deal the deck is (checked), else empty"),
    ("players", "INTEGER", "player count"),
    ("start", "INTEGER", "the starting player (seat 0 unless a game file says otherwise)"),
    ("variant", "TEXT", "variant name"),
    ("rules", "TEXT", "the rule options as hanab.live JSON options"),
    ("deck", "TEXT", "the deck in compact notation, top first"),
    ("position", "TEXT", "the actions before the solved position (JSON list of hanab.live actions; [] = start)"),
    ("max_score", "INTEGER", "best score reached by the stored line"),
    ("upper_bound", "INTEGER", "proven upper bound"),
    ("perfect", "INTEGER", "the variant's perfect score"),
    ("exact", "INTEGER", "1 when max_score == upper_bound (proven optimal)"),
    ("proof_kind", "TEXT", "why nothing above upper_bound: perfect, pace, discards, ..., search, unconfirmed, open"),
    ("proof_reason", "TEXT", "the reason in words"),
    ("methods", "TEXT", "comma-separated methods behind the proof"),
    ("seconds", "REAL", "solve time"),
    ("nodes", "INTEGER", "search nodes"),
    ("line", "TEXT", "the best line as a JSON list of hanab.live actions"),
    ("timeout", "REAL", "the per-deck timeout used"),
    ("finished_at", "TEXT", "UTC time the row was written"),
    # schema 3 (after finished_at, so that a version-2 table gains them in place)
    ("budget", "TEXT", "the deterministic budget it was solved with: compact JSON of "
                       "solver.hanabi.methods.portfolio.budget "
                       "(timeout, scale, first-round nodes and SAT conflicts, the confirmations' budgets); "
                       "NULL: unknown (solved before schema 3)"),
    ("relaxed_nodes", "INTEGER", "the relaxed game's nodes (NULL: unknown, solved before schema 3)"),
)
FIELDS = tuple(c[0] for c in COLUMNS)
ROW_FIELDS = tuple(f for f in FIELDS if f != "finished_at")  # what a Row holds (finished_at: the table's default)
NEW_IN_V3 = ("budget", "relaxed_nodes")
V2_FIELDS = tuple(f for f in FIELDS if f not in NEW_IN_V3)
V1_FIELDS = ("key", "seed", "players", "variant", "rules", "deck", "max_score", "upper_bound", "perfect", "exact",
             "proof_kind", "proof_reason", "methods", "seconds", "nodes", "line", "timeout", "finished_at")
_INT = {"players", "start", "max_score", "upper_bound", "perfect", "exact", "nodes", "relaxed_nodes"}
_TEXT = {"key", "name", "variant", "rules", "deck", "position", "proof_kind", "proof_reason", "methods", "line"}


def rules_text(options: dict) -> str:
    """The stored form of hanab.live JSON options (sorted keys)."""
    return json.dumps(options, sort_keys=True)


def game_digest(players: int, start: int, rules: str, deck: str, position: str = "[]") -> str:
    """The store key of a game: 128 bits of SHA-256 over its canonical parts (``rules``
    from :func:`rules_text`, ``deck`` in compact notation, ``position`` a JSON list of
    actions, compact)."""
    text = "\x1f".join(("hanabi-solver game 1", str(players), str(start), rules, deck, position))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class Row:
    key: str
    name: str
    seed: str | None
    players: int
    start: int
    variant: str
    rules: str
    deck: str
    position: str
    max_score: int
    upper_bound: int
    perfect: int
    exact: bool
    proof_kind: str
    proof_reason: str
    methods: str
    seconds: float
    nodes: int
    line: str
    timeout: float | None
    budget: str | None = None  # budget_text(solver.hanabi.methods.portfolio.budget(...)); None: unknown
    relaxed_nodes: int | None = None

    def values(self) -> tuple:
        return tuple(getattr(self, f) for f in ROW_FIELDS)

    @property
    def winnable(self) -> bool | None:
        """True/False when decided, None when the bounds straddle the perfect score."""
        if self.max_score == self.perfect:
            return True
        if self.upper_bound < self.perfect:
            return False
        return None


class Store(SqliteFile):
    """``Store(path)`` opens (creating if needed) a result database; ``create=False``
    needs an existing store; ``readonly=True`` opens it read-only and never writes (a
    store of an older schema is then converted in memory)."""

    def __init__(self, path, *, create: bool = True, readonly: bool = False, busy_timeout: float | None = None):
        self._connect(path, create=create, readonly=readonly,
                      busy_timeout=BUSY_TIMEOUT if busy_timeout is None else busy_timeout)
        try:
            with self._sql("open"):
                self._init_schema(create and not self.readonly)
        except BaseException:
            self.db.close()
            raise

    # --- the schema ------------------------------------------------------------------

    def _schema_version(self, tables: set[str]) -> int | None:
        row = self.db.execute("SELECT value FROM meta WHERE name='schema'").fetchone() if "meta" in tables else None
        if row is None:
            return None
        try:
            return int(row[0])
        except (TypeError, ValueError):
            raise StoreError(f"{self.path}: corrupt store: meta.schema is {row[0]!r}, not a number") from None

    def _init_schema(self, create: bool) -> None:
        """Check the file is a store of a schema this version reads (before any PRAGMA or
        write, so a foreign SQLite file is left exactly as it was); create it if it is
        empty (race-free: under a write lock, re-checked inside); migrate an older one."""
        tables = self._tables()
        if "results" not in tables:
            if tables - {"meta"}:
                raise StoreError(f"{self.path}: an SQLite file, but not a result store "
                                 f"(tables: {', '.join(sorted(tables))})")
            if not create:
                raise StoreError(f"{self.path}: empty database, not a result store")
        version = self._schema_version(tables) if "results" in tables else None
        if "results" in tables:
            if version is None or version > SCHEMA_VERSION or version < 1:
                raise StoreError(f"{self.path}: store schema {version if version is not None else 'unknown'}, "
                                 f"this version reads 1..{SCHEMA_VERSION}")
            want = {1: V1_FIELDS, 2: V2_FIELDS}.get(version, FIELDS)
            have = tuple(r[1] for r in self.db.execute("PRAGMA table_info(results)"))
            if have != want:
                raise StoreError(f"{self.path}: results table has columns {list(have)}, expected {list(want)}")
        if self.readonly:
            if version == 1:
                self._convert_in_memory()
            elif version == 2:
                self._view_v2()
            return
        if version != SCHEMA_VERSION:
            self.db.execute("BEGIN IMMEDIATE")  # the write lock: one creator or migrator at a time
            tables = self._tables()  # again: another process may have created or migrated it meanwhile
            if "results" not in tables:
                self._create()
            elif (now := self._schema_version(tables)) == 1:
                self._migrate_v1()
            elif now == 2:
                self._migrate_v2()
            self.db.execute("COMMIT")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")

    def _create(self, db: sqlite3.Connection | None = None) -> None:
        db = db or self.db
        cols = ", ".join(f"{n} {t}" + (" DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))" if n == "finished_at" else "")
                         for n, t, _ in COLUMNS)
        db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
        db.execute(f"CREATE TABLE results ({cols})")
        db.execute("CREATE INDEX results_seed ON results (seed)")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _v1_rows(self) -> Iterator[tuple]:
        """The rows of a version-1 table in version 2's columns (:data:`V2_FIELDS`), best
        first (exact, then the tightest bounds), so that of two rows of one game the better
        is kept."""
        from solver.hanabi.rules import Rules, parse_compact
        from solver.hanabi.rules.seeds import seed_deals

        q = (f"SELECT {', '.join(V1_FIELDS)} FROM results "
             "ORDER BY exact DESC, upper_bound - max_score, key")
        for r in self.db.execute(q).fetchall():
            old = dict(zip(V1_FIELDS, r))
            seed = old["seed"]
            if seed is not None and seed != old["key"]:
                # version 1 kept a file's "seed" field as it was: keep it only if it deals this deck
                try:
                    variant = Rules.from_json_options(json.loads(old["rules"])).variant
                    deck = parse_compact(old["deck"], variant)
                except (ValueError, TypeError):
                    seed = None
                else:
                    seed = seed if seed_deals(seed, old["players"], variant, deck) else None
            # version 1 solved every deck from the start with seat 0 first
            key = game_digest(old["players"], 0, old["rules"], old["deck"])
            yield (key, old["key"], seed, old["players"], 0, old["variant"], old["rules"], old["deck"], "[]",
                   *(old[f] for f in V2_FIELDS[9:]))

    @staticmethod
    def _insert_sql(verb: str, fields: tuple[str, ...]) -> str:
        return f"{verb} INTO results ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})"

    def _migrate_v1(self) -> None:
        """Version 1 → 3, inside the caller's transaction: every row keyed on its game, its
        budget unknown."""
        rows = list(self._v1_rows())
        self.db.execute("ALTER TABLE results RENAME TO results_v1")
        self._create()
        self.db.executemany(self._insert_sql("INSERT OR IGNORE", V2_FIELDS), rows)
        self.db.execute("DROP TABLE results_v1")

    def _migrate_v2(self) -> None:
        """Version 2 → 3, inside the caller's transaction: the new columns added in place
        (SQLite does not rewrite the rows), NULL in every old row."""
        for name, sql_type, _ in COLUMNS:
            if name in NEW_IN_V3:
                self.db.execute(f"ALTER TABLE results ADD COLUMN {name} {sql_type}")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _view_v2(self) -> None:
        """A read-only version-2 store read as version 3: a temporary view (in memory;
        unqualified names find it before the file's table) adds the new columns as NULL."""
        nulls = ", ".join(f"NULL AS {name}" for name in NEW_IN_V3)
        self.db.execute(f"CREATE TEMP VIEW results AS SELECT *, {nulls} FROM main.results")

    def _convert_in_memory(self) -> None:
        rows = list(self._v1_rows())
        mem = sqlite3.connect(":memory:", isolation_level=None)
        self._create(mem)
        mem.executemany(self._insert_sql("INSERT OR IGNORE", V2_FIELDS), rows)
        self.db.close()
        self.db = mem

    # --- writing -------------------------------------------------------------------

    def add(self, row: Row) -> bool:
        """Commit one result; False if its game was already stored (the old row stays)."""
        with self._sql("write to"):  # finished_at: the table's default
            cur = self.db.execute(self._insert_sql("INSERT OR IGNORE", ROW_FIELDS), row.values())
        return cur.rowcount == 1

    def improve(self, row: Row) -> bool:
        """Replace a stored row whose bounds ``row`` tightens (a better line, a lower bound,
        or both, and neither worse; or the same bounds now confirmed exact); False (the old
        row stays) otherwise. Atomic: read and replace under one write lock."""
        with self._sql("write to"):
            self.db.execute("BEGIN IMMEDIATE")
            old = self.db.execute("SELECT max_score, upper_bound, exact FROM results WHERE key=?",
                                  (row.key,)).fetchone()
            better = old is None or not (
                row.max_score < old[0] or row.upper_bound > old[1]
                # an equal result counts only if it is newly confirmed
                or ((row.max_score, row.upper_bound) == tuple(old[:2]) and not (row.exact and not old[2])))
            if better:
                self.db.execute(self._insert_sql("INSERT OR REPLACE", ROW_FIELDS), row.values())
            self.db.execute("COMMIT")
        return better

    # --- reading -------------------------------------------------------------------

    def done_keys(self) -> set[str]:
        """Every stored key."""
        with self._sql("read"):
            return {r[0] for r in self.db.execute("SELECT key FROM results")}

    def _among(self, query: str, column: str, values: Iterable, params: tuple = ()) -> set[str]:
        """``query`` (ending in WHERE or AND) restricted to ``column IN values``, 500 at a time."""
        values = list(values)
        out: set[str] = set()
        for i in range(0, len(values), 500):
            chunk = values[i:i + 500]
            out.update(r[0] for r in self.db.execute(f"{query} {column} IN ({', '.join('?' * len(chunk))})",
                                                     (*params, *chunk)))
        return out

    @staticmethod
    def _open_sql(undecided: bool) -> str:
        q = "exact = 0"
        if undecided:
            q += " AND max_score < perfect AND upper_bound >= perfect"
        return q

    def open_keys(self, undecided: bool = False) -> set[str]:
        """The stored keys whose maximum is not exact; with ``undecided``, only those where
        it is open whether the perfect score is reachable (no perfect line found, no bound
        below it proven)."""
        with self._sql("read"):
            return {r[0] for r in self.db.execute(f"SELECT key FROM results WHERE {self._open_sql(undecided)}")}

    def skipped_keys(self, keys: Iterable[str], *, redo_open: bool = False, redo_undecided: bool = False,
                     kept_budgets: Collection[tuple[int, str]] = ()) -> set[str]:
        """Among ``keys``, the stored ones a run skips: all of them, or with ``redo_open`` /
        ``redo_undecided`` the decided ones (as :meth:`open_keys` tells them apart) and
        the open ones solved with a budget of ``kept_budgets`` (pairs of a player count
        and a stored ``budget``: larger budgets than the run's, see
        :func:`~.run.larger_budgets`)."""
        skip, params = self._skip_sql(redo_open, redo_undecided, kept_budgets)
        with self._sql("read"):
            return self._among(f"SELECT key FROM results WHERE 1{skip} AND", "key", keys, params)

    # The seed lookups: a row with a seed holds the deck that seed deals (jobs and the
    # migration check it), so a seed with the player count and the rules names one game,
    # and a seed range's stored rows are found without dealing a single seed.
    _SEED_GAME = "players = ? AND rules = ? AND start = 0 AND position = '[]'"

    def _skip_sql(self, redo_open: bool, redo_undecided: bool,
                  kept_budgets: Collection[tuple[int, str]]) -> tuple[str, tuple]:
        """The condition (`` AND ...``, with its parameters) of a stored row a run skips."""
        if not (redo_open or redo_undecided):
            return "", ()
        redo = self._open_sql(not redo_open)
        kept = sorted(kept_budgets)
        if not kept:
            return f" AND NOT ({redo})", ()
        larger = " OR ".join(["(players = ? AND budget = ?)"] * len(kept))
        return f" AND NOT ({redo} AND NOT ({larger}))", tuple(x for pair in kept for x in pair)

    def skipped_seeds(self, seeds: Iterable[str], players: int, rules: str, *, redo_open: bool = False,
                      redo_undecided: bool = False, kept_budgets: Collection[tuple[int, str]] = ()) -> set[str]:
        """Among ``seeds`` (dealt for ``players`` under ``rules``), the stored ones a run
        skips (as :meth:`skipped_keys`)."""
        skip, params = self._skip_sql(redo_open, redo_undecided, kept_budgets)
        q = f"SELECT seed FROM results WHERE {self._SEED_GAME}{skip} AND"
        with self._sql("read"):
            return self._among(q, "seed", seeds, (players, rules, *params))

    def skipped_between(self, start: str, stop: str, players: int, rules: str, *, redo_open: bool = False,
                        redo_undecided: bool = False,
                        kept_budgets: Collection[tuple[int, str]] = ()) -> Iterator[str]:
        """The stored seeds ``start <= seed < stop`` (an index range scan, streamed) of
        games dealt for ``players`` under ``rules`` that a run skips (as :meth:`skipped_keys`)."""
        skip, params = self._skip_sql(redo_open, redo_undecided, kept_budgets)
        q = f"SELECT seed FROM results WHERE seed >= ? AND seed < ? AND {self._SEED_GAME}{skip}"
        with self._sql("read"):
            yield from (r[0] for r in self.db.execute(q, (start, stop, players, rules, *params)))

    def budgets(self, *, open_only: bool = False) -> list[BudgetRows]:
        """The budgets the rows were solved with (each with its player count and how many
        rows; ``open_only``: of the rows that are not exact), NULL (unknown) first, then
        by budget. A budget that is not a JSON object of numbers is a StoreError."""
        q = (f"SELECT budget, players, COUNT(*) FROM results {'WHERE exact = 0 ' if open_only else ''}"
             "GROUP BY budget, players ORDER BY budget, players")
        with self._sql("read"):
            found = self.db.execute(q).fetchall()
        out = []
        for text, players, n in found:
            if text is None:
                out.append(BudgetRows(None, None, players, n))
                continue
            value = _budget_value(text)
            if value is None:
                with self._sql("read"):
                    name = self.db.execute("SELECT name FROM results WHERE budget = ? ORDER BY name LIMIT 1",
                                           (text,)).fetchone()
                raise StoreError(f"{self.path}: corrupt row {name[0] if name else None!r}: budget is {text!r}, "
                                 f"not a JSON object of numbers")
            out.append(BudgetRows(text, value, players, n))
        return out

    def __len__(self) -> int:
        with self._sql("read"):
            return self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def _checked(self, r: tuple) -> dict:
        """A stored row as a dict, every value of its column's type and the bounds in
        order (else a StoreError naming the row and the column)."""
        d = dict(zip(FIELDS, r))
        for f, v in d.items():
            if not _valid(f, v):
                raise StoreError(f"{self.path}: corrupt row {d.get('name')!r}: {f} is {v!r}")
        if not 0 <= d["max_score"] <= d["upper_bound"]:
            raise StoreError(f"{self.path}: corrupt row {d['name']!r}: max_score {d['max_score']} and "
                             f"upper_bound {d['upper_bound']} are not in order")
        return d

    def _select(self, where: str, params) -> Iterator[dict]:
        q = f"SELECT {', '.join(FIELDS)} FROM results {where} ORDER BY name, key"
        with self._sql("read"):
            for r in self.db.execute(q, params):
                yield self._checked(r)

    def rows(self, where: str = "", params=()) -> list[Row]:
        out = []
        for d in self._select(where, params):
            d.pop("finished_at")
            d["exact"] = bool(d["exact"])
            out.append(Row(**d))
        return out

    def dump(self) -> list[dict]:
        """Every row as a dict, ``finished_at`` included, in name order."""
        return list(self._select("", ()))


def budget_text(budget: dict) -> str:
    """The stored form of a budget (:func:`solver.hanabi.methods.portfolio.budget`): compact JSON, sorted
    keys, so that one budget is always the same text."""
    return json.dumps(budget, sort_keys=True, separators=(",", ":"))


def _budget_value(text: str) -> dict | None:
    """A stored budget read back: a JSON object of numbers (or null), else None."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not all(
            x is None or (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x))
            for x in value.values()):
        return None
    return value


@dataclass(frozen=True)
class BudgetRows:
    """A budget of a store (``text`` as stored and its ``value``; both None: unknown), the
    player count of its rows and how many rows."""

    text: str | None
    value: dict | None
    players: int
    rows: int


def _valid(field: str, v: object) -> bool:
    """Whether ``v`` is a sound value of the column ``field``."""
    if field in ("seed", "finished_at", "budget"):
        return v is None or isinstance(v, str)
    if field == "relaxed_nodes" and v is None:
        return True
    if field in ("seconds", "timeout"):
        if v is None:
            return field == "timeout"
        return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and (0 <= v <= MAX_SECONDS if field == "seconds" else v > 0))
    if field == "exact":
        return v in (0, 1) and isinstance(v, int)
    if field in _INT:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0
    return isinstance(v, str)


def line_json(actions) -> str:
    return json.dumps([a.to_json() for a in actions], separators=(",", ":"))
