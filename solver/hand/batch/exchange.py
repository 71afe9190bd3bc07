"""Deal rows in a portable file: export a range of a deal store, import files into one.

A long run (100,000 deals take about a day of CPU) can be split across machines or
sessions, and the rows behind a published table can travel with it: ``hand export``
writes a store's rows to a gzip-compressed JSON Lines file, ``hand import`` adds such
files to a store (another machine's, or a fresh one) and ``hand analyse`` goes on from
there, skipping every seed already stored.

The format (``hand-deals-export``, version 1; docs/hand.md, "Deal statistics"):

- line 1, a JSON object: ``kind``, ``version``, ``budget`` (the node budgets every row was
  computed with, as in the store's meta) and ``columns`` (the names of the row fields);
- every other line, one deal: a JSON array of those fields, in that order, in seed order.
  The fields are the store's columns without the deal text (``Deal.random(seed)`` gives
  it back), ``reach_count`` (the mask's bit count) and ``finished_at``.

Reading checks everything before the store is touched: the header, every row's types and
ranges (the store's own checks) and the seed order; a bad file is one
:class:`~solver.errors.StoreError` naming the file and the line, and nothing of it is
stored. The rows of one file go into the store in one transaction. Writing goes to a
temporary file renamed into place, so an interrupted export leaves no partial file (and a
symbolic link keeps pointing to the file it names); the gzip header carries no time stamp,
so exporting the same rows twice gives the same bytes.
"""
from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solver.common.outputs import open_output
from solver.errors import StoreError
from solver.hand.rules import Deal

from .store import FIELDS, DealRow, HandStore

KIND = "hand-deals-export"
VERSION = 1
DERIVED = ("deal", "reach_count", "finished_at")  # store columns a file leaves out
COLUMNS = tuple(f for f in FIELDS if f not in DERIVED)
_PICK = tuple(FIELDS.index(c) for c in COLUMNS)


def row_fields(row: DealRow) -> list[object]:
    """The exported fields of a row (:data:`COLUMNS`, in order)."""
    values = row.values()  # FIELDS without finished_at
    return [values[i] for i in _PICK]


def export_rows(rows: Iterable[DealRow], budget: dict[str, int], path: str | os.PathLike[str],
                option: str = "--out") -> int:
    """Write ``rows`` (in seed order) with their ``budget`` to ``path`` (``-``: standard
    output) as every output of the command line is written
    (:func:`solver.common.outputs.open_output`: a regular file replaced whole, a symbolic
    link followed, a folder, device or pipe refused); the number written."""
    n = 0
    with open_output(os.fspath(path), option, binary=True) as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as fh:
        head = {"kind": KIND, "version": VERSION, "budget": budget, "columns": list(COLUMNS)}
        fh.write((json.dumps(head, sort_keys=True) + "\n").encode())
        for row in rows:
            fh.write((json.dumps(row_fields(row), separators=(",", ":")) + "\n").encode())
            n += 1
    return n


@dataclass(frozen=True)
class ExportFile:
    """A read export: its budget and its rows (checked, in seed order)."""

    path: str
    budget: dict[str, int]
    rows: tuple[DealRow, ...]


def _lines(path: str) -> Iterator[tuple[int, str]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            yield from enumerate(fh, 1)
    except FileNotFoundError:
        raise StoreError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise StoreError(f"{path}: is a folder, not an export file") from None
    except OSError as e:  # gzip.BadGzipFile included
        raise StoreError(f"{path}: not a readable export (gzip): {e.strerror or e}") from None
    except (EOFError, zlib.error):
        raise StoreError(f"{path}: the file is truncated or corrupt (gzip stream ends early)") from None
    except UnicodeDecodeError:
        raise StoreError(f"{path}: the file is corrupt (text that is not UTF-8)") from None


def _header(path: str, line: str) -> dict[str, int]:
    try:
        head = json.loads(line)
    except (ValueError, RecursionError):  # (bad syntax, nesting too deep, an integer too long)
        raise StoreError(f"{path}, line 1: not a JSON header") from None
    if not isinstance(head, dict) or head.get("kind") != KIND:
        kind = head.get("kind") if isinstance(head, dict) else None
        raise StoreError(f"{path}: not a Hand deal export (kind {kind!r}, expected {KIND!r})")
    if head.get("version") != VERSION:
        raise StoreError(f"{path}: export version {head.get('version')!r}, this version reads {VERSION}")
    if head.get("columns") != list(COLUMNS):
        raise StoreError(f"{path}: the header's columns are not this version's")
    budget = head.get("budget")
    if not (isinstance(budget, dict) and budget
            and all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
                    for k, v in budget.items())):
        raise StoreError(f"{path}, line 1: the budget is {budget!r}, not node budgets")
    return budget


def _row(path: str, i: int, line: str, check: HandStore) -> DealRow:
    try:
        vals = json.loads(line)
    except (ValueError, RecursionError):
        raise StoreError(f"{path}, line {i}: not a JSON row") from None
    if not isinstance(vals, list) or len(vals) != len(COLUMNS):
        raise StoreError(f"{path}, line {i}: a row is a JSON array of {len(COLUMNS)} fields")
    d = dict(zip(COLUMNS, vals))
    seed, dealer, reach = d["seed"], d["dealer"], d["reach"]
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2 ** 63):
        raise StoreError(f"{path}, line {i}: seed is {seed!r}")
    if dealer not in range(4) or isinstance(dealer, bool):
        raise StoreError(f"{path}, line {i} (seed {seed}): dealer is {dealer!r}")
    d["deal"] = str(Deal.random(seed, dealer))
    d["finished_at"] = None
    try:
        d["reach_count"] = None if reach is None else int(reach, 16).bit_count()
    except (TypeError, ValueError):
        raise StoreError(f"{path}, line {i} (seed {seed}): reach is {reach!r}") from None
    try:
        return check.checked(tuple(d[f] for f in FIELDS))
    except StoreError as e:  # the store's message, moved to the file and the line
        what = str(e).split("): ", 1)[-1]  # "<store>: corrupt row (seed N): <column> is <value>"
        raise StoreError(f"{path}, line {i} (seed {seed}): {what}") from None


def read_export(path: str | os.PathLike[str], check: HandStore) -> ExportFile:
    """Read and check a whole export file (``check``: any open store, whose row checks
    are used); a :class:`StoreError` naming the line for the first fault."""
    p = str(path)
    budget: dict[str, int] | None = None
    rows: list[DealRow] = []
    last = -1
    for i, line in _lines(p):
        if i == 1:
            budget = _header(p, line)
            continue
        if not line.strip():
            raise StoreError(f"{p}, line {i}: an empty line")
        row = _row(p, i, line, check)
        if row.seed <= last:
            raise StoreError(f"{p}, line {i}: seed {row.seed} out of order (after {last})")
        last = row.seed
        rows.append(row)
    if budget is None:
        raise StoreError(f"{p}: an empty file, not a Hand deal export")
    return ExportFile(p, budget, tuple(rows))


@dataclass(frozen=True)
class ImportResult:
    path: str
    rows: int  # rows in the file
    added: int  # new to the store


def import_file(path: str | os.PathLike[str], store: HandStore) -> ImportResult:
    """Add an export file's rows to ``store`` in one transaction (seeds already stored
    keep their rows). The file's budgets must be the store's."""
    f = read_export(path, store)
    if f.budget != store.budget:
        have = ", ".join(f"{k} {v:,}" for k, v in sorted(f.budget.items()))
        mine = ", ".join(f"{k} {v:,}" for k, v in sorted(store.budget.items()))
        raise StoreError(f"{f.path}: rows made with other node budgets ({have}) than the store's ({mine})")
    added = store.add_many(f.rows)
    return ImportResult(f.path, len(f.rows), added)


def file_budget(path: str | os.PathLike[str]) -> dict[str, int]:
    """The budgets in an export file's header (to create a store for it)."""
    p = str(path)
    for _, line in _lines(p):
        return _header(p, line)
    raise StoreError(f"{p}: an empty file, not a Hand deal export")


__all__ = ["COLUMNS", "KIND", "VERSION", "ExportFile", "ImportResult", "export_rows", "file_budget", "import_file",
           "read_export", "row_fields"]
