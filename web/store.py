"""The board's answers kept in a file (``hanabi serve --store FILE``): an SQLite file of
``(key, answer)`` rows, the key a question about a game (:func:`.work.game_key`), the answer
its JSON. A board opened again, even after a restart, is answered from it at once."""
from __future__ import annotations

import json
import os
from typing import Any

from solver.common.sqlite import SqliteFile
from solver.errors import StoreError

KIND = "hanabi-solver board answers"
SCHEMA = "1"


class AnswerStore(SqliteFile):
    WHAT = "board answer store"

    def __init__(self, path: str | os.PathLike[str]):
        self._connect(path, create=True, readonly=False, busy_timeout=30.0)
        try:
            with self._sql("open"):
                self._init_schema()
        except BaseException:
            self.db.close()
            raise

    def _init_schema(self) -> None:
        tables = self._tables()
        if "answers" not in tables:
            if tables:
                raise StoreError(f"{self.path}: an SQLite file, but not a {self.WHAT} "
                                 f"(tables: {', '.join(sorted(tables))})")
            if self.readonly:
                raise StoreError(f"{self.path}: empty database, and read-only ({self.read_only_why})")
            self.db.execute("BEGIN IMMEDIATE")
            if "answers" not in self._tables():
                self.db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
                self.db.execute("CREATE TABLE answers (key TEXT PRIMARY KEY, answer TEXT NOT NULL, "
                                "stored_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))")
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", [("kind", KIND), ("schema", SCHEMA)])
            self.db.execute("COMMIT")
        meta = dict(self.db.execute("SELECT name, value FROM meta").fetchall()) if "meta" in self._tables() else {}
        if meta.get("kind") != KIND or meta.get("schema") != SCHEMA:
            raise StoreError(f"{self.path}: not a {self.WHAT} of this version (meta {meta!r})")
        if not self.readonly:
            self.db.execute("PRAGMA journal_mode=WAL")

    def get(self, key: str) -> Any | None:
        with self._sql("read"):
            row = self.db.execute("SELECT answer FROM answers WHERE key=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, answer: Any) -> None:
        if self.readonly:
            return  # a read-only store answers what it holds and keeps nothing new
        with self._sql("write to"):
            self.db.execute("INSERT OR REPLACE INTO answers (key, answer) VALUES (?, ?)",
                            (key, json.dumps(answer, separators=(",", ":"))))

    def count(self) -> int:
        with self._sql("read"):
            return int(self.db.execute("SELECT count(*) FROM answers").fetchone()[0])
