"""The result store: one SQLite file (WAL), one row per analysed deck.

Every finished result is committed on its own, so a run killed at any moment (SIGKILL
included) keeps everything that finished; the primary key (the job key: a seed string,
``file:id`` or a game file name) makes a rerun skip what is done and makes duplicates
impossible. Reading never needs the writer to be alive.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..game import MalformedError

SCHEMA_VERSION = 1

COLUMNS = (
    # name, SQL type, meaning
    ("key", "TEXT PRIMARY KEY", "job key: the seed string, FILE:ID for deck files, the file name for games"),
    ("seed", "TEXT", "the hanab.live seed, when the deck came from one"),
    ("players", "INTEGER", "player count"),
    ("variant", "TEXT", "variant name"),
    ("rules", "TEXT", "the rule options as hanab.live JSON options"),
    ("deck", "TEXT", "the deck in compact notation, top first"),
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
)
FIELDS = tuple(c[0] for c in COLUMNS)


@dataclass(frozen=True)
class Row:
    key: str
    seed: str | None
    players: int
    variant: str
    rules: str
    deck: str
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

    def values(self) -> tuple:
        return tuple(getattr(self, f) for f in FIELDS[:-1])

    @property
    def winnable(self) -> bool | None:
        """True/False when decided, None when the bounds straddle the perfect score."""
        if self.max_score == self.perfect:
            return True
        if self.upper_bound < self.perfect:
            return False
        return None


SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite 3 file


class Store:
    """``Store(path)`` opens (creating if needed) a result database."""

    def __init__(self, path, *, create: bool = True):
        self.path = str(path)
        p = Path(self.path)
        if not create and not p.exists():
            raise MalformedError(f"{self.path}: no such store")
        if p.exists() and p.is_dir():
            raise MalformedError(f"{self.path}: is a folder, not a store")
        # SQLite would take a short non-SQLite file for an empty database and overwrite it
        if p.is_file() and p.stat().st_size > 0:
            try:
                with open(p, "rb") as fh:
                    head = fh.read(len(SQLITE_MAGIC))
            except OSError as e:
                raise MalformedError(f"{self.path}: cannot read file: {e.strerror or e}") from None
            if head != SQLITE_MAGIC:
                raise MalformedError(f"{self.path}: not a readable result store (not an SQLite file)")
        try:
            self.db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self._init_schema(create)
        except sqlite3.DatabaseError as e:
            raise MalformedError(f"{self.path}: not a readable result store ({e})") from None

    def _init_schema(self, create: bool):
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "results" in tables:
            row = self.db.execute("SELECT value FROM meta WHERE name='schema'").fetchone() if "meta" in tables else None
            if row is None or int(row[0]) != SCHEMA_VERSION:
                raise MalformedError(f"{self.path}: store schema {row[0] if row else 'unknown'}, "
                                     f"this version reads {SCHEMA_VERSION}")
            have = [r[1] for r in self.db.execute("PRAGMA table_info(results)")]
            if tuple(have) != FIELDS:
                raise MalformedError(f"{self.path}: results table has columns {have}, expected {list(FIELDS)}")
            return
        if tables - {"meta"}:
            raise MalformedError(f"{self.path}: an SQLite file, but not a result store "
                                 f"(tables: {', '.join(sorted(tables))})")
        if not create:
            raise MalformedError(f"{self.path}: empty database, not a result store")
        cols = (", ".join(f"{n} {t}" for n, t, _ in COLUMNS[:-1])
                + ", finished_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))")
        self.db.execute("BEGIN")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
        self.db.execute(f"CREATE TABLE results ({cols})")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        self.db.execute("COMMIT")

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- writing -------------------------------------------------------------------

    def add(self, row: Row) -> bool:
        """Commit one result; False if the key was already stored (the old row stays)."""
        marks = ", ".join("?" * (len(FIELDS) - 1))
        cur = self.db.execute(f"INSERT OR IGNORE INTO results ({', '.join(FIELDS[:-1])}) VALUES ({marks})",
                              row.values())
        return cur.rowcount == 1

    def improve(self, row: Row) -> bool:
        """Replace a stored row whose bounds ``row`` tightens (a better line, a lower bound,
        or both, and neither worse; or the same bounds now confirmed exact); False (the old
        row stays) otherwise."""
        old = self.db.execute("SELECT max_score, upper_bound, exact FROM results WHERE key=?", (row.key,)).fetchone()
        if old is None:
            return self.add(row)
        if row.max_score < old[0] or row.upper_bound > old[1]:
            return False
        if (row.max_score, row.upper_bound) == tuple(old[:2]) and not (row.exact and not old[2]):
            return False  # nothing gained (an equal result counts only if it is newly confirmed)
        marks = ", ".join("?" * (len(FIELDS) - 1))
        self.db.execute(f"INSERT OR REPLACE INTO results ({', '.join(FIELDS[:-1])}) VALUES ({marks})", row.values())
        return True

    # --- reading -------------------------------------------------------------------

    def done_keys(self, keys=None) -> set[str]:
        """The stored keys (among ``keys`` if given, asked in chunks)."""
        if keys is None:
            return {r[0] for r in self.db.execute("SELECT key FROM results")}
        return self._among("SELECT key FROM results WHERE", keys)

    def _among(self, query: str, keys) -> set[str]:
        """``query`` (ending in WHERE) restricted to ``keys``, 500 at a time."""
        keys = list(keys)
        out: set[str] = set()
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            out.update(r[0] for r in self.db.execute(f"{query} key IN ({', '.join('?' * len(chunk))})", chunk))
        return out

    @staticmethod
    def _open_sql(undecided: bool) -> str:
        q = "exact = 0"
        if undecided:
            q += " AND max_score < perfect AND upper_bound >= perfect"
        return q

    def open_keys(self, keys=None, undecided: bool = False) -> set[str]:
        """Stored keys whose maximum is not exact (among ``keys`` if given); with
        ``undecided``, only those where it is open whether the perfect score is reachable
        (no perfect line found, no bound below it proven)."""
        q = f"SELECT key FROM results WHERE {self._open_sql(undecided)}"
        if keys is None:
            return {r[0] for r in self.db.execute(q)}
        return self._among(q + " AND", keys)

    def skipped_between(self, start: str, stop: str, *, redo_open: bool = False, redo_undecided: bool = False):
        """The stored keys ``start <= key < stop`` (an index range scan, streamed) that a
        run skips: all of them, or with ``redo_open`` / ``redo_undecided`` not the ones
        :meth:`open_keys` gives (``undecided`` unless ``redo_open``)."""
        q = "SELECT key FROM results WHERE key >= ? AND key < ?"
        if redo_open or redo_undecided:
            q += f" AND NOT ({self._open_sql(not redo_open)})"
        return (r[0] for r in self.db.execute(q, (start, stop)))

    def __len__(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def rows(self, where: str = "", params=()) -> list[Row]:
        q = f"SELECT {', '.join(FIELDS[:-1])} FROM results {where} ORDER BY key"
        return [Row(*r[:9], bool(r[9]), *r[10:]) for r in self.db.execute(q, params)]

    def dump(self) -> list[dict]:
        """Every row as a dict, ``finished_at`` included, in key order."""
        q = f"SELECT {', '.join(FIELDS)} FROM results ORDER BY key"
        return [dict(zip(FIELDS, r)) for r in self.db.execute(q)]


def line_json(actions) -> str:
    return json.dumps([a.to_json() for a in actions], separators=(",", ":"))
