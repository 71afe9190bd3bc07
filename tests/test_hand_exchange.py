"""``hand export`` / ``hand import``: a deal store's rows in a portable file and back.

The round trip keeps every row exactly; a run split across stores and merged through
files equals one run; every bad file is one line naming the file and the line, and
nothing of a bad file reaches the store."""
from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from cli.hand import hand
from solver.hand.batch import HandStore, read_export
from solver.hand.batch.exchange import COLUMNS, KIND

from conftest import assert_clean_error

TINY = ["--nodes", "300", "--coop-nodes", "300"]  # fast; many values undecided (None)
TINY_BUDGET = {"nodes": 300, "coop_nodes": 300}


def run_hand(*args):
    return CliRunner().invoke(hand, [str(a) for a in args])


def rows_of(db):
    with HandStore(db, None, readonly=True) as st:
        return list(st.rows())


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store of seeds 1..10 under a tiny budget."""
    db = tmp_path_factory.mktemp("ex") / "a.sqlite"
    res = run_hand("analyse", "--deals", 10, "--seed", 1, "--db", db, "--jobs", 1, *TINY, "--quiet")
    assert res.exit_code == 0, res.output
    return db


def test_round_trip_keeps_every_row(store, tmp_path):
    out = tmp_path / "all.jsonl.gz"
    res = run_hand("export", store, "--out", out)
    assert res.exit_code == 0 and "10 deals written" in res.output, res.output
    db = tmp_path / "b.sqlite"
    res = run_hand("import", out, "--db", db)
    assert res.exit_code == 0 and "10 deals added, 0 already stored" in res.output, res.output
    assert rows_of(db) == rows_of(store)
    assert any(not r.complete for r in rows_of(db))  # undecided values (None) travel too
    with HandStore(db, None, readonly=True) as st:
        assert st.budget == TINY_BUDGET
    # importing again adds nothing and changes nothing
    res = run_hand("import", out, "--db", db)
    assert res.exit_code == 0 and "0 deals added, 10 already stored" in res.output
    assert rows_of(db) == rows_of(store)
    # the same rows give the same bytes (no time stamp in the file)
    again = tmp_path / "again.jsonl.gz"
    assert run_hand("export", db, "--out", again).exit_code == 0
    assert again.read_bytes() == out.read_bytes()


def test_ranges_split_and_merge(store, tmp_path):
    lo, hi = tmp_path / "lo.jsonl.gz", tmp_path / "hi.jsonl.gz"
    assert "4 deals written" in run_hand("export", store, "--out", lo, "--to", 4).output
    assert "6 deals written" in run_hand("export", store, "--out", hi, "--from", 5, "--to", 99).output
    with HandStore(store, None, readonly=True) as st:
        f = read_export(hi, st)
    assert [r.seed for r in f.rows] == list(range(5, 11)) and f.budget == TINY_BUDGET
    db = tmp_path / "m.sqlite"
    res = run_hand("import", hi, lo, "--db", db)
    assert res.exit_code == 0, res.output
    assert rows_of(db) == rows_of(store)
    # a merged store goes on like the original: the next run skips every imported seed
    res = run_hand("analyse", "--deals", 12, "--seed", 1, "--db", db, "--jobs", 1, *TINY, "--json")
    assert json.loads(res.output)["analysed"] == 2


def test_the_file_is_documented_json_lines(store, tmp_path):
    out = tmp_path / "x.jsonl.gz"
    assert run_hand("export", store, "--out", out).exit_code == 0
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    head = json.loads(lines[0])
    assert head == {"kind": KIND, "version": 1, "budget": TINY_BUDGET, "columns": list(COLUMNS)}
    first = dict(zip(COLUMNS, json.loads(lines[1])))
    row = rows_of(store)[0]
    assert first["seed"] == 1 and first["reach"] == (None if row.reach is None else f"{row.reach:x}")
    assert first["scores_0"] == (None if row.seats[0].scores is None else ",".join(map(str, row.seats[0].scores)))
    assert len(lines) == 11


def _write(path, head, rows):
    with gzip.open(path, "wt") as fh:
        if head is not None:
            fh.write(json.dumps(head) + "\n")
        for r in rows:
            fh.write((r if isinstance(r, str) else json.dumps(r)) + "\n")


def _good(store, tmp_path):
    out = tmp_path / "good.jsonl.gz"
    assert run_hand("export", store, "--out", out).exit_code == 0
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def _set(row, column, value):
    row = list(row)
    row[COLUMNS.index(column)] = value
    return row


@pytest.mark.parametrize("damage,needle", [
    (lambda h, r: (h, r[:3] + ["{not json"] + r[4:]), "line 5: not a JSON row"),
    (lambda h, r: (h, r[:2] + [r[2][:-1]] + r[3:]), "line 4: a row is a JSON array of 30 fields"),
    (lambda h, r: (h, r[:1] + [_set(r[1], "most_2", 9)] + r[2:]), "line 3 (seed 2): most_2 is 9"),
    (lambda h, r: (h, r[:1] + [_set(r[1], "scores_1", "1,x")] + r[2:]), "line 3 (seed 2): scores_1"),
    (lambda h, r: (h, r[:1] + [_set(r[1], "reach", "zz")] + r[2:]), "line 3 (seed 2): reach is 'zz'"),
    (lambda h, r: (h, r[:1] + [_set(r[1], "dealer", 7)] + r[2:]), "line 3 (seed 2): dealer is 7"),
    (lambda h, r: (h, r[:1] + [_set(r[1], "seed", "2")] + r[2:]), "line 3: seed is '2'"),
    (lambda h, r: (h, [r[1], r[0]] + r[2:]), "line 3: seed 1 out of order (after 2)"),
    (lambda h, r: (h, r[:4] + [""] + r[4:]), "line 6: an empty line"),
    (lambda h, r: ({**h, "kind": "hanabi"}, r), "not a Hand deal export (kind 'hanabi'"),
    (lambda h, r: ({**h, "version": 2}, r), "export version 2, this version reads 1"),
    (lambda h, r: ({**h, "columns": h["columns"][:-1]}, r), "columns are not this version's"),
    (lambda h, r: ({**h, "budget": {"nodes": -1}}, r), "line 1: the budget is"),
    (lambda h, r: (None, []), "an empty file"),
])
def test_a_bad_file_is_named_and_nothing_is_stored(store, tmp_path, damage, needle):
    head, rows = damage(*_good(store, tmp_path))
    bad = tmp_path / "bad.jsonl.gz"
    _write(bad, head, rows)
    db = tmp_path / "t.sqlite"
    run_hand("analyse", "--deals", 1, "--seed", 50, "--db", db, "--jobs", 1, *TINY, "--quiet")
    before = rows_of(db)
    err = assert_clean_error(run_hand("import", bad, "--db", db), str(bad), needle)
    assert "Traceback" not in err
    assert rows_of(db) == before


def test_truncated_foreign_and_mismatched_files(store, tmp_path):
    out = tmp_path / "x.jsonl.gz"
    assert run_hand("export", store, "--out", out).exit_code == 0
    db = tmp_path / "t.sqlite"
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(out.read_bytes()[:-30])
    assert_clean_error(run_hand("import", cut, "--db", db), "cut.jsonl.gz", "truncated")
    plain = tmp_path / "plain.txt"
    plain.write_text("hello")
    assert_clean_error(run_hand("import", plain, "--db", db), "plain.txt", "not a readable export")
    assert_clean_error(run_hand("import", tmp_path / "none.jsonl.gz", "--db", db), "no such file")
    # a store made with other budgets refuses the rows, and keeps its own
    other = tmp_path / "other.sqlite"
    run_hand("analyse", "--deals", 1, "--seed", 50, "--db", other, "--jobs", 1, "--nodes", "200", "--coop-nodes",
             "200", "--quiet")
    before = rows_of(other)
    assert_clean_error(run_hand("import", out, "--db", other), "other node budgets")
    assert rows_of(other) == before
    # export: a missing store, an empty range, an unwritable place
    assert_clean_error(run_hand("export", tmp_path / "missing.sqlite", "--out", out), "no such store")
    assert_clean_error(run_hand("export", store, "--out", out, "--from", 5, "--to", 2), "an empty range")
    assert_clean_error(run_hand("export", store, "--out", tmp_path / "no" / "x.gz"), "cannot write")
    before = store.read_bytes()
    assert_clean_error(run_hand("export", store, "--out", store), "the store itself")
    assert store.read_bytes() == before
    assert not list((tmp_path / "").glob("*.part"))
