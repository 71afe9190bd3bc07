"""An SQLite file that a batch command writes its results to: opening it safely (a
foreign or truncated file is refused before SQLite touches it), read-only access (also on
a read-only medium), and every SQLite fault as a one-line
:class:`~solver.errors.StoreError` naming the file and the cause in plain words.

The Hanabi result store (:mod:`.store`) and the Hand deal store
(:mod:`solver.hand.batch.store`) are built on it; each adds its own schema.
"""
from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from solver.errors import StoreError

SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite 3 file


def _cause(e: sqlite3.Error, timeout: float) -> str:
    """The cause of an SQLite error in plain words."""
    text = str(e)
    low = text.lower()
    if "full" in low:
        return "the disk is full (the rows stored before are kept)"
    if "locked" in low or "busy" in low:
        return f"the store is locked by another process (waited {timeout:g} s); try again when it is done"
    if "readonly" in low or "read-only" in low:
        return "the store is read-only"
    if "unable to open" in low:
        return "cannot open the file"
    if "malformed" in low or "not a database" in low or "corrupt" in low:
        return f"the file is corrupt ({text})"
    return text


class SqliteFile:
    """The connection half of a store: :meth:`_connect` (called by the subclass's
    constructor before its schema check), :meth:`_sql` around every statement,
    :meth:`close` and the context manager. ``WHAT`` names the kind of store in messages."""

    WHAT = "result store"
    path: str
    busy_timeout: float
    readonly: bool
    read_only_why: str | None  # opened to write, but the file or its folder is read-only: why
    db: sqlite3.Connection

    def _connect(self, path, *, create: bool, readonly: bool, busy_timeout: float) -> None:
        self.path = str(path)
        self.busy_timeout = busy_timeout
        self.read_only_why = None
        self._check_path(create and not readonly)
        if not readonly and Path(self.path).exists():
            # a store that cannot be written is read as it is: a run with nothing to write
            # succeeds, one that has rows to store says why it cannot before any work
            self.read_only_why = self._why_read_only()
            readonly = self.read_only_why is not None
        self.readonly = readonly
        try:
            if readonly:
                self.db = self._connect_readonly()
            else:
                self.db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: not a readable {self.WHAT}: {_cause(e, self.busy_timeout)}") from None
        except UnicodeDecodeError:  # names in the schema that are not text: a damaged file
            raise StoreError(f"{self.path}: not a readable {self.WHAT}: the file is corrupt") from None

    def _check_path(self, create: bool) -> None:
        if not self.path:
            raise StoreError("the store's path is empty: name a file, e.g. --db results.sqlite")
        p = Path(self.path)
        if p.is_dir():
            raise StoreError(f"{self.path}: is a folder, not a store")
        if not p.exists():
            if not create:
                raise StoreError(f"{self.path}: no such store")
            parent = p.parent if str(p.parent) else Path(".")
            if not parent.is_dir():
                raise StoreError(f"{self.path}: cannot create the store: folder {str(parent)!r} does not exist")
            return
        # SQLite would take a short non-SQLite file for an empty database and overwrite it
        try:
            with open(p, "rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except OSError as e:
            raise StoreError(f"{self.path}: cannot read file: {e.strerror or e}") from None
        if head and head != SQLITE_MAGIC:
            raise StoreError(f"{self.path}: not a readable {self.WHAT} (not an SQLite file)")
        if not head and not create:
            raise StoreError(f"{self.path}: empty file, not a {self.WHAT}")

    def _why_read_only(self) -> str | None:
        """Why the existing store cannot be written, or None: the file, or the folder where
        SQLite writes its journal (``-wal``, ``-shm``) beside it."""
        p = Path(self.path)
        denied = (errno.EACCES, errno.EPERM, errno.EROFS)
        try:
            with open(p, "r+b"):
                pass
        except OSError as e:
            if e.errno in denied:
                return "the file is read-only"
            raise StoreError(f"{self.path}: cannot open the store: {e.strerror or e}") from None
        folder = p.parent if str(p.parent) else Path(".")
        try:
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".store-probe-")
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            if e.errno in denied:
                return f"its folder {str(folder)!r} is read-only, and SQLite writes its journal there"
            raise StoreError(f"{self.path}: cannot open the store: {e.strerror or e}") from None
        return None

    def check_writable(self, rows: int, what: str) -> None:
        """Before any work: a store opened to write that is read-only refuses ``rows`` more
        rows (``what`` names them) with a one-line error saying why."""
        if rows and self.read_only_why is not None:
            raise StoreError(f"{self.path}: the store is read-only ({self.read_only_why}); {what} not stored yet: "
                             f"{rows}; make it writable, or name another store")

    def _connect_readonly(self) -> sqlite3.Connection:
        uri = "file:" + urllib.parse.quote(str(Path(self.path).resolve())) + "?mode=ro"
        db = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout, isolation_level=None)
        try:
            db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
            return db
        except sqlite3.OperationalError:
            db.close()
        # a WAL store on a read-only medium: nobody can be writing it, read it as immutable
        db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
        try:
            db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error:
            db.close()
            raise
        return db

    @contextmanager
    def _sql(self, doing: str) -> Iterator[None]:
        """SQLite errors as one-line :class:`StoreError`\\ s naming the file and the cause."""
        try:
            yield
        except (sqlite3.Error, UnicodeDecodeError) as e:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            cause = (_cause(e, self.busy_timeout) if isinstance(e, sqlite3.Error)
                     else "the file is corrupt (text that is not UTF-8)")
            raise StoreError(f"{self.path}: cannot {doing} the store: {cause}") from None

    def _tables(self) -> set[str]:
        """The names of the file's tables."""
        return {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
