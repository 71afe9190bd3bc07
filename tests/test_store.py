"""The result store keys on what was solved; its schema migrates; every fault of the
store or of a batch run is one line, exit 2, and nothing committed is lost."""
from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.common.progress import Progress
from solver.errors import SeedMismatchWarning, StoreError
from solver.hanabi.batch import store as store_module
from solver.hanabi.batch.jobs import make_jobs, solve_job
from solver.hanabi.batch.store import FIELDS, SCHEMA_VERSION, V2_FIELDS, Store, budget_text, game_digest
from solver.hanabi.rules import format_compact, load_file

from conftest import HANABLIVE, NV_SAMPLE, assert_clean_error, real_game_files, run_cli

DATA = Path(__file__).parent / "data"
V1_STORE = DATA / "store_v1.sqlite"  # made by the release before schema 2 (see tests/data/README.md)
V2_STORE = DATA / "store_v2.sqlite"  # made by the release before schema 3 (see tests/data/README.md)
ROOT = Path(__file__).resolve().parent.parent


def nv_lines(players: int, n: int, start: int = 0) -> list[str]:
    rows = [x for x in NV_SAMPLE.read_text().splitlines() if x.strip()]
    mine = [x for x in rows if json.loads(x)["players"] == players]
    assert len(mine) >= start + n, f"{NV_SAMPLE} has {len(mine)} decks of {players} players"
    return mine[start:start + n]


def stored(db) -> list:
    with Store(db, readonly=True) as st:
        return st.rows()


def ok(res):
    assert res.exit_code == 0, (res.output, res.exception)
    return res.stdout


# --- the key is the game ---------------------------------------------------------------

def test_the_same_seed_name_for_other_players_is_another_game(tmp_path):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "hello", "--players", "3", "--variant", "No Variant", "--db", db, "--quiet"))
    out = ok(run_cli("analyse", "hello", "--players", "4", "--variant", "No Variant", "--db", db, "--quiet"))
    assert "1 solved" in out and "0 already stored" in out
    rows = stored(db)
    assert sorted(r.players for r in rows) == [3, 4] and {r.name for r in rows} == {"hello"}
    assert len({r.key for r in rows}) == 2
    out = ok(run_cli("analyse", "hello", "--players", "4", "--variant", "No Variant", "--db", db, "--quiet"))
    assert "0 solved" in out and "1 already stored" in out  # a real duplicate is skipped


def test_a_compact_deck_file_for_other_players_is_another_game(tmp_path):
    deck = json.loads(nv_lines(3, 1)[0])
    g = load_file(_write(tmp_path / "d.json", json.dumps({"players": 3, "deck": deck["deck"]}))).game
    one = tmp_path / "one.txt"
    one.write_text(format_compact(g.deck, g.variant) + "\n")
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", one, "--players", "2", "--db", db, "--quiet"))
    out = ok(run_cli("analyse", one, "--players", "5", "--db", db, "--quiet"))
    assert "1 solved" in out
    assert sorted(r.players for r in stored(db)) == [2, 5]


def _write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def test_deck_files_and_game_files_of_one_name_in_two_folders_are_both_solved(tmp_path):
    a, b = nv_lines(3, 2)
    for k, line in (("k1", a), ("k2", b)):
        obj = json.loads(line)
        obj["id"] = "x"  # the same id in both files
        _write(tmp_path / k / "decks.jsonl", json.dumps(obj) + "\n")
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", tmp_path / "k1" / "decks.jsonl", "--db", db, "--quiet"))
    out = ok(run_cli("analyse", tmp_path / "k2" / "decks.jsonl", "--db", db, "--quiet"))
    assert "1 solved" in out
    rows = stored(db)
    assert len(rows) == 2 and len({r.deck for r in rows}) == 2
    assert {r.name for r in rows} == {f"{tmp_path / k / 'decks.jsonl'}:x" for k in ("k1", "k2")}

    games = real_game_files()
    _write(tmp_path / "g1" / "game.json", games[0].read_text())
    _write(tmp_path / "g2" / "game.json", games[1].read_text())
    db2 = tmp_path / "g.sqlite"
    ok(run_cli("analyse", tmp_path / "g1", "--db", db2, "--quiet"))
    out = ok(run_cli("analyse", tmp_path / "g2" / "game.json", "--db", db2, "--quiet"))
    assert "1 solved" in out
    assert sorted(r.players for r in stored(db2)) == sorted(load_file(g).game.num_players for g in games[:2])


def test_one_game_under_two_names_is_solved_once(tmp_path):
    """The seed p3v0s1 and a deck file holding the deck it deals: one game, one row."""
    (job,) = make_jobs(["p3v0s1"])
    from solver.hanabi.batch.jobs import job_game

    g = job_game(job)
    game = _write(tmp_path / "copy.json", json.dumps({"players": 3, "deck": [c.to_json() for c in g.deck]}))
    db = tmp_path / "s.sqlite"
    out = ok(run_cli("analyse", "p3v0s1", game, "--db", db, "--quiet"))
    assert "1 solved" in out and "1 inputs repeat an earlier game" in out
    (row,) = stored(db)
    assert row.name == "p3v0s1" and row.seed == "p3v0s1"
    out = ok(run_cli("analyse", game, "--db", db, "--quiet"))
    assert "0 solved" in out and "1 already stored" in out


def test_a_game_files_starting_player_is_part_of_the_game(tmp_path):
    src = json.loads(real_game_files()[0].read_text())
    src.setdefault("options", {})["startingPlayer"] = 1
    p = _write(tmp_path / "start1.json", json.dumps(src))
    (job,) = make_jobs([str(p)])
    (plain,) = make_jobs([str(real_game_files()[0])])
    assert job["start"] == 1 and plain["start"] == 0 and job["key"] != plain["key"]
    row = solve_job(job, timeout=10)
    assert row.start == 1 and row.key == job["key"]


def test_a_file_seed_that_does_not_deal_the_deck_is_not_kept(tmp_path):
    obj = json.loads(nv_lines(3, 1)[0])
    obj["seed"] = "p3v0s1"  # not this deck's seed
    p = _write(tmp_path / "d.jsonl", json.dumps(obj) + "\n")
    with pytest.warns(SeedMismatchWarning, match="seed 'p3v0s1' does not deal this deck"):
        (job,) = make_jobs([str(p)])
    assert job["seed"] is None
    real = next(f for f in real_game_files() if f.name.startswith("p3v0s1_"))
    obj = json.loads(real.read_text())
    obj["seed"] = "p3v0s1"
    (job,) = make_jobs([str(_write(tmp_path / "r.json", json.dumps(obj)))])
    assert job["seed"] == "p3v0s1"


def test_the_key_is_the_digest_of_the_canonical_game():
    (job,) = make_jobs(["p3v0s1"])
    g = load_file(next(f for f in real_game_files() if f.name.startswith("p3v0s1_"))).game
    assert job["key"] == game_digest(3, 0, "{}", format_compact(g.deck, g.variant))
    assert len({game_digest(3, 0, "{}", "r1"), game_digest(4, 0, "{}", "r1"), game_digest(3, 1, "{}", "r1"),
                game_digest(3, 0, '{"oneExtraCard": true}', "r1"), game_digest(3, 0, "{}", "r1", '[{"type":0}]')}) == 5


# --- schema version and migration -----------------------------------------------------------------

def test_a_version_1_store_is_migrated_and_keeps_working(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(V1_STORE, db)
    con = sqlite3.connect(db)
    old = {r[0]: r for r in con.execute("SELECT key, deck, players, max_score, upper_bound, exact FROM results")}
    con.close()
    assert len(old) == 12  # the seed p3v0s2 and a file holding its deck among them
    with Store(db) as st:
        assert st.db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()[0] == str(SCHEMA_VERSION)
        rows = st.rows()
    assert len(rows) == 11  # one game under two names: stored once, under the first name
    assert {r.name for r in rows} == set(old) - {"same_as_p3v0s2.jsonl:copy"}
    for r in rows:
        k, deck, players, mx, ub, exact = old[r.name]
        assert (r.deck, r.players, r.max_score, r.upper_bound, r.exact) == (deck, players, mx, ub, bool(exact))
        assert r.key == game_digest(players, 0, r.rules, deck) and r.position == "[]" and r.start == 0
    # the migrated store answers as a new one: nothing of it is solved again
    out = ok(run_cli("analyse", "p3v0s1..4", "p4v0s7", "--db", db, "--quiet"))
    assert "0 solved" in out and "5 already stored" in out
    out = ok(run_cli("analyse", "p3v0s5", "--db", db, "--quiet"))
    assert "1 solved" in out


def test_a_version_1_store_is_read_without_being_changed(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(V1_STORE, db)
    before = db.read_bytes()
    res = run_cli("report", db, "--json")
    summary = json.loads(ok(res))
    assert summary["rows"] == 11
    assert db.read_bytes() == before and not Path(f"{db}-wal").exists()


def test_the_migration_keeps_a_file_seed_only_if_it_deals_the_deck(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(V1_STORE, db)
    con = sqlite3.connect(db)
    con.execute("UPDATE results SET seed = 'p3v0s1' WHERE key = 'decks.jsonl:p3c1s0'")  # not its deal
    con.execute("UPDATE results SET seed = 'p4v0s7' WHERE key = 'same_as_p3v0s2.jsonl:copy'")
    con.execute("UPDATE results SET key = 'a', seed = 'p3v0s2' WHERE key = 'p3v0s2'")  # its deal, another name
    con.commit()
    con.close()
    with Store(db) as st:
        seeds = {r.name: r.seed for r in st.rows()}
    assert seeds["decks.jsonl:p3c1s0"] is None
    assert seeds["a"] == "p3v0s2" and "same_as_p3v0s2.jsonl:copy" not in seeds


def _v2_rows(db) -> dict[str, tuple]:
    """Every row of a version-2 store, all its columns, by name (read with sqlite3 alone)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert tuple(r[1] for r in con.execute("PRAGMA table_info(results)")) == V2_FIELDS
        return {r[1]: r for r in con.execute(f"SELECT {', '.join(V2_FIELDS)} FROM results")}
    finally:
        con.close()


def test_a_version_2_store_is_migrated_in_place_with_its_budgets_unknown(tmp_path):
    db = tmp_path / "v2.sqlite"
    shutil.copy(V2_STORE, db)
    old = _v2_rows(db)
    assert len(old) == 8 and sum(r[V2_FIELDS.index("exact")] == 0 for r in old.values()) == 3
    with Store(db) as st:
        assert st.db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()[0] == "3" == str(SCHEMA_VERSION)
        assert tuple(r[1] for r in st.db.execute("PRAGMA table_info(results)")) == FIELDS
        assert st.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = {d["name"]: d for d in st.dump()}
    assert set(rows) == set(old)
    for name, d in rows.items():
        assert tuple(d[f] for f in V2_FIELDS) == old[name]  # every old value, finished_at included
        assert d["budget"] is None and d["relaxed_nodes"] is None
    # nothing of it is solved again; a new game is, with its budget
    out = ok(run_cli("analyse", "p3v0s1..4", "p2v0s1", "--db", db, "--quiet"))
    assert "0 solved" in out and "5 already stored" in out
    ok(run_cli("analyse", "p3v0s5", "--db", db, "--quiet"))
    with Store(db) as st:
        budgets = {d["name"]: d["budget"] for d in st.dump()}
    from solver.hanabi.methods.portfolio import budget

    assert budgets.pop("p3v0s5") == budget_text(budget(10.0, 3))
    assert set(budgets.values()) == {None}


def test_a_failed_version_2_migration_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    """The migration is one transaction: cut short after its first change, the file is
    still a whole version-2 store."""
    db = tmp_path / "v2.sqlite"
    shutil.copy(V2_STORE, db)
    old = _v2_rows(db)
    real = Store._migrate_v2

    def failing(self):
        real(self)  # the columns added and meta.schema set ...
        raise sqlite3.OperationalError("disk I/O error")  # ... then a fault before the commit

    monkeypatch.setattr(Store, "_migrate_v2", failing)
    with pytest.raises(StoreError, match="cannot open the store: disk I/O error"):
        Store(db)
    monkeypatch.undo()
    assert _v2_rows(db) == old
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE name='schema'").fetchone()[0] == "2"
    con.close()
    with Store(db) as st:  # and it migrates when opened again
        assert len(st) == 8 and {d["budget"] for d in st.dump()} == {None}


def test_a_version_2_store_is_read_without_being_changed(tmp_path):
    db = tmp_path / "v2.sqlite"
    shutil.copy(V2_STORE, db)
    before = db.read_bytes()
    summary = json.loads(ok(run_cli("report", db, "--json")))
    assert summary["rows"] == 8
    assert summary["budgets"] == [{"budget": None, "players": [2, 3], "rows": 8}]
    assert "budget: unknown (solved before the store recorded budgets); 2, 3 players, 8 rows" in ok(
        run_cli("report", db))
    with Store(db, readonly=True) as st:
        assert {r.budget for r in st.rows()} == {None} and len(st.rows()) == 8
    assert db.read_bytes() == before
    assert list(_v2_rows(db)) and len(_v2_rows(db)) == 8  # still version 2, its columns unchanged


def test_a_newer_or_corrupt_schema_is_refused(tmp_path):
    db = tmp_path / "s.sqlite"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = '99' WHERE name = 'schema'")
    con.commit()
    assert_clean_error(run_cli("report", db), "schema 99")
    con.execute("UPDATE meta SET value = 'abc' WHERE name = 'schema'")
    con.commit()
    con.close()
    assert_clean_error(run_cli("report", db), "meta.schema is 'abc', not a number")
    assert_clean_error(run_cli("analyse", "p3v0s1", "--db", db), "meta.schema")


@pytest.mark.parametrize("column, value, needle", [
    ("max_score", "'x'", "max_score is 'x'"),
    ("max_score", "30", "not in order"),
    ("seconds", "-1", "seconds is -1"),
    ("seconds", "1e300", "seconds is 1e+300"),
    ("exact", "7", "exact is 7"),
    ("rules", "NULL", "rules is None"),
    ("relaxed_nodes", "-1", "relaxed_nodes is -1"),
    ("budget", "3", "budget is '3', not a JSON object"),  # TEXT affinity: the text 3
    ("budget", "'{\"timeout\": 10'", "budget is '{\"timeout\": 10', not a JSON object of numbers"),
    ("budget", "'[10]'", "budget is '[10]', not a JSON object"),
    ("budget", "'{\"timeout\": \"ten\"}'", "not a JSON object of numbers"),
])
def test_corrupt_values_in_a_store_are_one_line_errors(tmp_path, column, value, needle):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "p3v0s1", "--db", db, "--quiet"))
    con = sqlite3.connect(db)
    con.execute(f"UPDATE results SET {column} = {value}")
    con.commit()
    con.close()
    assert_clean_error(run_cli("report", db), "corrupt row 'p3v0s1'", needle)


# --- faults ---------------------------------------------------------------------------------

def _full_after(monkeypatch, pages_more: int):
    """Every Store opened from now on has room for ``pages_more`` more pages: SQLite's
    max_page_count, a real 'database or disk is full' (SQLITE_FULL) when it is reached."""
    real_init = Store.__init__

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        n = self.db.execute("PRAGMA page_count").fetchone()[0]
        self.db.execute(f"PRAGMA max_page_count = {n + pages_more}")

    monkeypatch.setattr(Store, "__init__", init)


def test_a_full_disk_during_analyse_is_one_line_and_keeps_the_rows(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "p3v0s1..3", "--db", db, "--quiet"))
    before = [(r.key, r.max_score) for r in stored(db)]
    _full_after(monkeypatch, 0)
    err = assert_clean_error(run_cli("analyse", "p3v0s4..40", "--db", db, "--jobs", "1", "--quiet"), "disk is full")
    assert str(db) in err
    monkeypatch.undo()
    after = [(r.key, r.max_score) for r in stored(db)]
    assert set(before) <= set(after) and len(after) < 40  # what fitted is kept, whole
    out = ok(run_cli("analyse", "p3v0s1..6", "--db", db, "--quiet"))  # and the store goes on
    assert f"{len(after)} already stored" in out and f"{6 - len(after)} solved" in out


def test_a_full_disk_when_the_store_is_created(tmp_path, monkeypatch):
    def refuse(*a, **kw):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "_create", refuse)
    assert_clean_error(run_cli("analyse", "p3v0s1", "--db", tmp_path / "n.sqlite"), "disk is full")


def test_a_store_locked_past_the_busy_timeout(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "p3v0s1", "--db", db, "--quiet"))
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.2)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        assert_clean_error(run_cli("analyse", "p3v0s2", "--db", db, "--jobs", "1", "--quiet"),
                           "locked by another process", "0.2 s")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert [r.name for r in stored(db)] == ["p3v0s1"]


def test_report_csv_on_a_full_disk_leaves_no_partial_file(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "p3v0s1..3", "--db", db, "--quiet"))
    out = tmp_path / "rows.csv"
    out.write_text("the old export\n")
    import solver.common.outputs

    def full(*a, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(solver.common.outputs.os, "replace", full)
    assert_clean_error(run_cli("report", db, "--csv", out), "No space left on device")
    monkeypatch.undo()
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.csv", "s.sqlite"] + (
        ["s.sqlite-shm", "s.sqlite-wal"] if (tmp_path / "s.sqlite-wal").exists() else [])
    if os.path.exists("/dev/full"):  # (a device is refused before anything is written: tests/test_outputs.py)
        assert_clean_error(run_cli("report", db, "--csv", "/dev/full"), "/dev/full: is a device, not a file")


def test_report_leaves_a_foreign_sqlite_file_untouched(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    assert_clean_error(run_cli("report", other), "not a result store")
    assert_clean_error(run_cli("analyse", "p3v0s1", "--db", other), "not a result store")
    assert other.read_bytes() == before
    con = sqlite3.connect(other)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


def test_report_opens_the_store_read_only(tmp_path, monkeypatch):
    db = tmp_path / "s.sqlite"
    ok(run_cli("analyse", "p3v0s1..2", "--db", db, "--quiet"))
    seen = []
    real = sqlite3.connect

    def connect(target, *a, **kw):
        seen.append((str(target), kw.get("uri", False)))
        return real(target, *a, **kw)

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    ok(run_cli("report", db, "--json"))
    assert seen and all(uri and "mode=ro" in t for t, uri in seen)
    with Store(db, readonly=True) as st, pytest.raises(StoreError, match="read-only"):
        st.add(stored(db)[0])


@pytest.mark.parametrize("db, needle", [
    ("", "path is empty"),
    ("missing/folder/s.sqlite", "folder 'missing/folder' does not exist"),
    (".", "is a folder"),
])
def test_store_paths_name_the_real_cause(tmp_path, monkeypatch, db, needle):
    monkeypatch.chdir(tmp_path)
    assert_clean_error(run_cli("analyse", "p3v0s1", "--db", db), needle)


def test_analyse_flags_that_contradict(tmp_path):
    assert_clean_error(run_cli("analyse", "p3v0s1", "--redo-open", "--redo-undecided", "--db", tmp_path / "s"),
                       "--redo-open", "--redo-undecided")
    assert not (tmp_path / "s").exists()
    assert_clean_error(run_cli("report", tmp_path / "s", "--slowest", "-5"), "--slowest")


def test_a_folder_with_a_non_game_json_skips_it_with_a_warning(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    for f in real_game_files():
        shutil.copy(f, folder / f.name)
    shutil.copy(HANABLIVE / "expected.json", folder / "expected.json")
    res = run_cli("analyse", folder, "--db", tmp_path / "s.sqlite", "--quiet")
    out = ok(res)
    assert f"warning: {folder / 'expected.json'}: skipped, not a game" in res.stderr
    assert f"{len(real_game_files())} solved" in out


# --- concurrent writers ---------------------------------------------------------------------------

def _analyse(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cli.hanabi", "analyse", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_several_runs_create_one_new_store_at_once(tmp_path):
    db = tmp_path / "new.sqlite"
    procs = [_analyse(f"p3v0s{10 * k + 1}..{10 * k + 3}", "--db", db, "--jobs", "1", "--quiet") for k in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0 and err == "", err
        assert "3 solved" in out
    assert len(stored(db)) == 12


def test_two_writers_of_the_same_jobs_count_only_their_real_inserts(tmp_path):
    db = tmp_path / "s.sqlite"
    Store(db).close()
    procs = [_analyse("p3v0s1..30", "--db", db, "--jobs", "1", "--quiet", "--json") for _ in range(2)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    runs = [json.loads(o) for o in outs]
    assert sum(r["solved"] for r in runs) == len(stored(db)) == 30, outs
    for r in runs:  # each job of each run: solved and stored, stored meanwhile, or found stored at the start
        assert r["solved"] + r["stored_meanwhile"] + r["skipped"] == r["total"] == 30


def test_a_job_another_writer_stores_after_the_count_is_counted_as_skipped(tmp_path):
    """Seen once in CI (two writers): a row stored by another run between the count at the
    start and the check of its batch was counted nowhere (0 + 15 + 14 of 30)."""
    from solver.hanabi.batch.run import run_batch

    db = tmp_path / "s.sqlite"
    jobs = make_jobs(["p3v0s1..4"])
    other_row = solve_job(jobs[1], timeout=10)

    def another_writer_meanwhile(n):
        assert n == 4  # counted before the other run's row lands
        with Store(db) as other:
            assert other.add(other_row)

    with Store(db) as st:
        res = run_batch(jobs, st, timeout=10, workers=1, on_start=another_writer_meanwhile)
    assert (res.total, res.solved, res.stored_meanwhile, res.skipped) == (4, 3, 0, 1)
    assert len(stored(db)) == 4


# --- SIGTERM ---------------------------------------------------------------------------------------

def test_sigterm_to_analyse_stops_the_workers_quietly_and_keeps_the_rows(tmp_path):
    db = tmp_path / "s.sqlite"
    proc = _analyse("p2v0s20001..40000", "--db", db, "--jobs", "2", "--quiet", "--timeout", "5")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if db.exists():
            try:
                with Store(db, readonly=True) as st:
                    if len(st) >= 3:
                        break
            except StoreError:
                pass
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, (out, err)
    assert "Traceback" not in err and "BrokenPipe" not in err
    assert err.count("\n") == 1 and "stopped by SIGTERM" in err, err
    rows = stored(db)
    assert len(rows) >= 3
    n = int(err.split(": stopped by SIGTERM: ")[1].split(" rows")[0])
    assert n == len(rows)
    # every kept row is whole: its line replays to its score
    from solver.hanabi.batch.jobs import job_game
    from solver.hanabi.methods.portfolio import replay_score
    from solver.hanabi.rules import Action

    for r in rows[:5]:
        (job,) = make_jobs([r.name])
        g = job_game(job)
        assert replay_score(g.initial_state(), [Action.from_json(a) for a in json.loads(r.line)]) == r.max_score


# --- progress ---------------------------------------------------------------------------------------

class _Tty:
    def __init__(self, tty: bool):
        self.tty, self.text, self.writes = tty, "", 0

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text += s
        self.writes += 1

    def flush(self):
        pass


def test_the_progress_line_is_throttled_and_only_on_a_terminal():
    now = [0.0]
    tty = _Tty(True)
    with Progress(600, "solving 600 decks", tty, clock=lambda: now[0]) as bar:
        for _ in range(600):
            now[0] += 1 / 600  # 600 decks in one second
            bar.update(1, "p3v0s1")
    assert 3 <= tty.writes <= 7  # a few redraws (and the last one, and the newline), not 600
    assert "600/600 (100%)" in tty.text
    pipe = _Tty(False)
    with Progress(600, "solving", pipe) as bar:
        for _ in range(600):
            bar.update(1)
    assert pipe.writes == 0


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1", "1e30"])
def test_batch_timeouts_are_finite_and_positive(tmp_path, value):
    assert_clean_error(run_cli("analyse", "p3v0s1", "--timeout", value, "--db", tmp_path / "s"), "--timeout")
    assert_clean_error(run_cli("review", real_game_files()[0], "--timeout", value), "--timeout")
    assert not (tmp_path / "s").exists()
