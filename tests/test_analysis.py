"""Batch analysis (jobs, store, runner, report) and game review."""
from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from solver.hanabi.analysis.review import review
from solver.hanabi.batch.jobs import job_game, make_jobs, parse_range, solve_job
from solver.hanabi.batch.run import count_skipped, exceeds, larger_budgets, pending_jobs, run_batch
from solver.hanabi.batch.store import FIELDS, Store, budget_text
from solver.hanabi.methods.portfolio import budget, replay_score, solve
from solver.hanabi.rules import Action, MalformedError, format_compact, load_file

from conftest import HANABLIVE, NV_SAMPLE, SHARED, assert_clean_error, read_rows, real_game_files, run_cli, shared_file

NV = NV_SAMPLE  # a few decks of nv_winnable.jsonl (tests/data/decks), always there
NV_FULL = SHARED / "decks" / "nv_winnable.jsonl"  # all 600: only in the shared data folder


def deck_file(tmp_path, players=2, n=8, start=0, name="decks.jsonl"):
    """The decks p{players}c1s{start} ... s{start + n - 1} of nv_winnable.jsonl (from the copy
    in tests/data/decks), as a deck file ``name`` in ``tmp_path``; returns it and the rows."""
    lines = {json.loads(x)["id"]: x for x in NV.read_text().splitlines() if x.strip()}
    ids = [f"p{players}c1s{k}" for k in range(start, start + n)]
    assert all(i in lines for i in ids), f"not all of {ids} are in {NV}"
    p = tmp_path / name
    p.write_text("\n".join(lines[i] for i in ids) + "\n")
    return p, [json.loads(lines[i]) for i in ids]


# --- seed ranges -------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("p3v0s1..100000", ("p3v0s", 1, 100000)),
    ("p2v0s5..p2v0s7", ("p2v0s", 5, 7)),
    ("abc10..10", ("abc", 10, 10)),
])
def test_parse_range(text, want):
    assert parse_range(text) == want


@pytest.mark.parametrize("text, needle", [
    ("p3v0s10..5", "below first"),
    ("p3v0s1..p2v0s9", "different prefixes"),
    ("p3v0s..9", "expected PREFIX"),
    ("p3v0s1..x", "expected PREFIX"),
])
def test_bad_range(text, needle):
    with pytest.raises(MalformedError, match=needle):
        parse_range(text)


# --- jobs ----------------------------------------------------------------------------

def test_jobs_from_jsonl_keep_ids_players_and_decks(tmp_path):
    p, objs = deck_file(tmp_path, n=5)
    jobs = make_jobs([str(p)])
    assert [j["name"] for j in jobs] == [f"{p}:{o['id']}" for o in objs]
    assert len({j["key"] for j in jobs}) == len(objs)
    for j, o in zip(jobs, objs):
        g = job_game(j)
        assert g.num_players == o["players"]
        assert [c.to_json() for c in g.deck] == o["deck"]


def test_jobs_from_compact_text_and_folder(tmp_path):
    _, objs = deck_file(tmp_path, n=3)
    games = [job_game(j) for j in make_jobs([str(tmp_path / "decks.jsonl")])]
    txt = tmp_path / "decks.txt"
    txt.write_text("# three decks\n" + "\n".join(format_compact(g.deck, g.variant) for g in games) + "\n")
    jobs = make_jobs([str(txt)], players=2)
    assert [job_game(j).deck for j in jobs] == [g.deck for g in games]
    assert [j["name"] for j in jobs] == [f"{txt}:2", f"{txt}:3", f"{txt}:4"]
    # the same games as the .jsonl's: the same keys
    assert [j["key"] for j in jobs] == [j["key"] for j in make_jobs([str(tmp_path / "decks.jsonl")])]
    folder = tmp_path / "games"
    folder.mkdir()
    for f in real_game_files():
        (folder / f.name).write_bytes(f.read_bytes())
    jobs = make_jobs([str(folder)])
    assert [j["name"] for j in jobs] == [str(folder / f.name) for f in real_game_files()]
    assert [job_game(j).deck for j in jobs] == [load_file(f).game.deck for f in real_game_files()]


def test_duplicate_job_keys_are_rejected(tmp_path):
    p, _ = deck_file(tmp_path, n=2)
    with pytest.raises(MalformedError, match="given twice"):
        make_jobs([str(p), str(p)])


# --- running and storing ---------------------------------------------------------------

def stable(row: dict) -> tuple:
    """A stored row without its timings."""
    return tuple(v for k, v in row.items() if k not in ("seconds", "nodes", "finished_at"))


def test_analyse_stores_what_solve_computes_and_resumes(tmp_path):
    p, objs = deck_file(tmp_path, players=3, n=6)  # 3-player decks: fast and deterministic
    db = tmp_path / "r.sqlite"
    res = run_cli("analyse", p, "--db", db, "--jobs", "2", "--quiet")
    assert res.exit_code == 0, res.output
    assert "6 solved" in res.stdout
    with Store(db) as st:
        rows = st.rows()
        assert len(rows) == 6 and [r.name for r in rows] == sorted(f"{p}:{o['id']}" for o in objs)
        for r in rows:
            job = next(j for j in make_jobs([str(p)]) if j["key"] == r.key)
            assert job["name"] == r.name
            g = job_game(job)
            sol = solve(g, timeout=10)
            assert (r.max_score, r.upper_bound, r.exact) == (sol.max_score, sol.upper_bound, sol.exact)
            line = [Action.from_json(a) for a in json.loads(r.line)]
            assert replay_score(g.initial_state(), line) == r.max_score
            assert r.deck == format_compact(g.deck, g.variant)
        first = st.dump()
    res = run_cli("analyse", p, "--db", db, "--quiet")
    assert res.exit_code == 0 and "0 solved" in res.stdout and "6 already stored" in res.stdout
    with Store(db) as st:
        assert st.dump() == first  # nothing rewritten


def test_store_rejects_duplicates_and_foreign_files(tmp_path):
    p, _ = deck_file(tmp_path, players=3, n=1)
    row = solve_job(make_jobs([str(p)])[0], timeout=10)
    with Store(tmp_path / "a.sqlite") as st:
        assert st.add(row) is True
        assert st.add(row) is False
        assert len(st) == 1
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(MalformedError, match="not a result store"):
        Store(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("this is not a database at all, just some text" * 20)
    with pytest.raises(MalformedError, match="not a readable result store"):
        Store(junk)
    short = tmp_path / "short.sqlite"  # shorter than SQLite's header: SQLite alone would overwrite it
    short.write_text("x")
    with pytest.raises(MalformedError, match="not a readable result store"):
        Store(short)
    assert short.read_text() == "x"
    empty = tmp_path / "empty.sqlite"  # an empty file becomes a new store
    empty.write_bytes(b"")
    with Store(empty) as st:
        assert len(st) == 0


def test_run_batch_in_process_and_pool_agree(tmp_path):
    p, _ = deck_file(tmp_path, players=5, n=6)  # 5-player decks
    jobs = make_jobs([str(p)])
    with Store(tmp_path / "one.sqlite") as a, Store(tmp_path / "two.sqlite") as b:
        r1 = run_batch(jobs, a, timeout=10, workers=1)
        r2 = run_batch(jobs, b, timeout=10, workers=2)
        assert (r1.solved, r2.solved) == (6, 6)
        assert [stable(r) for r in a.dump()] == [stable(r) for r in b.dump()]


def test_rows_record_the_budget_and_two_runs_give_the_same_rows(tmp_path):
    """Every row records the deterministic budget it was solved with; the same jobs
    analysed twice (one worker, then two) give the same rows, nodes and budget included:
    only the times differ."""
    p, _ = deck_file(tmp_path, players=2, n=1, start=190)  # maximum 24, confirmed by SAT and CP-SAT
    inputs = ["p3v0s1..3", "p5v0s1", str(p)]
    dumps = []
    for i, workers in enumerate(("1", "2")):
        db = tmp_path / f"r{i}.sqlite"
        res = run_cli("analyse", *inputs, "--db", db, "--timeout", "10", "--jobs", workers, "--quiet")
        assert res.exit_code == 0 and "5 solved" in res.stdout, res.output
        with Store(db) as st:
            dumps.append(st.dump())
    first, second = dumps
    for d in first:
        assert d["budget"] == budget_text(budget(10.0, d["players"]))
        assert json.loads(d["budget"]) == budget(10, d["players"])
    assert {json.loads(d["budget"])["first_nodes"] for d in first} == {2000, 10000}  # 2-3 and 5 players
    hard = next(d for d in first if d["players"] == 2)
    assert (hard["max_score"], hard["exact"], hard["methods"]) == (24, 1, "cpsat,sat") and hard["nodes"] > 0
    assert hard["relaxed_nodes"] == 0  # SAT and CP-SAT agreed: the relaxed game never ran

    def timeless(rows):
        return [{k: v for k, v in d.items() if k not in ("seconds", "finished_at")} for d in rows]

    assert timeless(first) == timeless(second)


def test_budgets_compare_part_by_part():
    assert exceeds(budget(60, 2), budget(10, 2)) and not exceeds(budget(10, 2), budget(60, 2))
    assert exceeds(budget(30, 2), budget(10, 2))  # the same scale, a later deadline
    assert not exceeds(budget(10, 2), budget(10, 2))  # the same budget is not larger
    assert exceeds(budget(None, 2), budget(10, 2)) and not exceeds(budget(10, 2), budget(None, 2))
    other = dict(budget(60, 2), sat_solver=1)  # another version's parts: not comparable
    assert not exceeds(other, budget(10, 2)) and not exceeds(budget(60, 2), other)
    smaller_one_part = dict(budget(60, 2), first_nodes=10)
    assert not exceeds(smaller_one_part, budget(10, 2))


def test_a_redo_leaves_the_rows_solved_with_a_larger_budget(tmp_path):
    """--redo-open solves again the inexact rows of an unknown, smaller or equal budget,
    and leaves those solved with a larger one; the count and the streamed jobs agree, for
    listed seeds (by key) and a seed range (by seed)."""
    from dataclasses import replace

    seeds = ["p3v0s1", "p3v0s2", "p3v0s3", "p3v0s4", "p3v0s5"]
    rows = [solve_job(j, timeout=10) for j in make_jobs(seeds)]
    assert all(r.exact and r.max_score == 25 for r in rows)
    budgets = [None, budget_text(budget(5, 3)), budget_text(budget(10, 3)), budget_text(budget(60, 3)), None]
    db = tmp_path / "b.sqlite"
    with Store(db) as st:
        for r, b in zip(rows[:4], budgets):  # as runs of other timeouts left them: open
            st.add(replace(r, max_score=23, exact=False, proof_kind="open", budget=b))
        st.add(rows[4])  # exact: never redone
        assert larger_budgets(st, 10) == {(3, budgets[3])}
        assert larger_budgets(st, 60) == set()
        assert larger_budgets(st, 3) == {(3, b) for b in budgets[1:4]}  # 5 s > 3 s at the same scale
        for jobs in (make_jobs(seeds), make_jobs(["p3v0s1..5"])):
            kept = larger_budgets(st, 10)
            assert count_skipped(jobs, st, redo_open=True, kept_budgets=kept) == 2
            assert [j["name"] for j in pending_jobs(jobs, st, redo_open=True, kept_budgets=kept)] == seeds[:3]
            assert [j["name"] for j in pending_jobs(jobs, st, redo_undecided=True, kept_budgets=kept)] == seeds[:3]
            assert [j["name"] for j in pending_jobs(jobs, st, redo_open=True)] == seeds[:4]
            assert count_skipped(jobs, st) == 5
    res = run_cli("analyse", *seeds, "--db", db, "--timeout", "10", "--redo-open", "--jobs", "1", "--quiet")
    assert res.exit_code == 0 and "3 solved" in res.stdout and "2 already stored" in res.stdout, res.output
    with Store(db) as st:
        got = {r.name: r for r in st.rows()}
    ten = budget_text(budget(10, 3))
    for name in seeds[:3]:  # re-solved: exact now, under this run's budget
        assert got[name].exact and got[name].budget == ten
    assert (got["p3v0s4"].exact, got["p3v0s4"].max_score, got["p3v0s4"].budget) == (False, 23, budgets[3])
    assert got["p3v0s5"].budget == ten and got["p3v0s5"].exact
    # a run with a budget as large solves it again
    res = run_cli("analyse", *seeds, "--db", db, "--timeout", "60", "--redo-open", "--jobs", "1", "--quiet")
    assert res.exit_code == 0 and "1 solved" in res.stdout, res.output
    with Store(db) as st:
        assert st.rows("WHERE name = 'p3v0s4'")[0].exact


def same_facts(a: dict, b: dict) -> bool:
    """Two results of one deck agree: same deck, and where both are exact the same maximum;
    otherwise their [best, bound] intervals overlap (a timeout may stop one earlier)."""
    if a["deck"] != b["deck"]:
        return False
    if a["exact"] and b["exact"]:
        return a["max_score"] == b["max_score"]
    return max(a["max_score"], b["max_score"]) <= min(a["upper_bound"], b["upper_bound"])


def test_killed_run_loses_nothing_and_duplicates_nothing(tmp_path):
    """SIGKILL a batch mid-way, check the store is intact, resume, and compare with an
    uninterrupted run."""
    p = tmp_path / "decks.jsonl"
    p.write_text(shared_file(NV_FULL).read_text())  # 600 decks
    assert len(read_rows(p)) == 600
    db = tmp_path / "killed.sqlite"
    cmd = [sys.executable, "-m", "cli.hanabi", "analyse", str(p), "--db", str(db), "--jobs", "2",
           "--timeout", "2", "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
        if db.exists():
            con = sqlite3.connect(db)
            try:
                n = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                n = 0
            finally:
                con.close()
            if n >= 20:
                break
    assert proc.poll() is None, "the batch finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(db) as st:
        partial = {r["key"]: r for r in st.dump()}
    assert 20 <= len(partial) < 600, len(partial)  # killed mid-way, what finished is there
    res = run_cli("analyse", p, "--db", db, "--jobs", "2", "--timeout", "2", "--quiet")
    assert res.exit_code == 0, res.output
    assert f"{len(partial)} already stored" in res.stdout
    clean = tmp_path / "clean.sqlite"
    assert run_cli("analyse", p, "--db", clean, "--jobs", "2", "--timeout", "2", "--quiet").exit_code == 0
    with Store(db) as a, Store(clean) as b:
        resumed, full = a.dump(), b.dump()
        assert len(a.done_keys()) == len(resumed) == 600  # no duplicates, nothing missing
    assert [r["key"] for r in resumed] == [r["key"] for r in full]
    assert all(same_facts(x, y) for x, y in zip(resumed, full))
    for r in resumed:  # rows that finished before the kill are the very same rows
        if r["key"] in partial:
            assert r == partial[r["key"]]


def test_dask_local_cluster_and_scheduler_address(tmp_path):
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    p, _ = deck_file(tmp_path, players=3, n=4)
    db = tmp_path / "dask.sqlite"
    res = run_cli("analyse", p, "--db", db, "--dask", "--jobs", "2", "--quiet")
    assert res.exit_code == 0, res.output
    ref = tmp_path / "ref.sqlite"
    assert run_cli("analyse", p, "--db", ref, "--jobs", "1", "--quiet").exit_code == 0
    with Store(db) as a, Store(ref) as b:
        assert [stable(r) for r in a.dump()] == [stable(r) for r in b.dump()]
    p2, _ = deck_file(tmp_path, players=3, n=3, start=20, name="more.jsonl")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        res = run_cli("analyse", p2, "--db", db, "--scheduler", cluster.scheduler_address, "--quiet")
    assert res.exit_code == 0, res.output
    with Store(db) as a:
        assert len(a) == 7


# --- report --------------------------------------------------------------------------------

def test_report_text_json_csv_and_plots(tmp_path):
    p, objs = deck_file(tmp_path, players=2, n=6)  # 2-player decks
    q, more = deck_file(tmp_path, players=3, n=4, name="three.jsonl")
    db = tmp_path / "r.sqlite"
    assert run_cli("analyse", p, q, "--db", db, "--jobs", "2", "--quiet").exit_code == 0
    res = run_cli("report", db, "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    groups = {(g["variant"], g["players"]): g for g in summary["groups"]}
    assert set(groups) == {("No Variant", 2), ("No Variant", 3)}
    with Store(db) as st:
        rows = st.rows()
    for (_v, n), g in groups.items():
        mine = [r for r in rows if r.players == n]
        assert g["decks"] == len(mine)
        assert g["winnable"] == sum(r.max_score == 25 for r in mine)
        assert sum(g["max_scores"].values()) == sum(r.exact for r in mine)
    labels = ({f"decks.jsonl:{o['id']}": o["winnable"] for o in objs}
              | {f"three.jsonl:{o['id']}": o["winnable"] for o in more})
    assert groups[("No Variant", 2)]["winnable"] == sum(v for k, v in labels.items() if k.startswith("decks"))
    assert summary["slowest"][0]["seconds"] == max(r.seconds for r in rows)
    text = run_cli("report", db).stdout
    assert "No Variant" in text and "slowest decks" in text
    # the budget the rows were solved with: one line per budget, in the JSON too
    assert summary["budgets"] == [{"budget": budget(10, 2), "players": [2, 3], "rows": 10}]
    (line,) = [x for x in text.splitlines() if x.startswith("budget:")]
    assert line == ("budget: timeout 10 s (stopped at 20 s) = 2 rounds from 2,000 search nodes and 20,000 SAT "
                    "conflicts (doubling each round), confirmations 200,000 SAT conflicts, CP-SAT deterministic "
                    "time 15, 400,000 nodes; 2, 3 players, 10 rows")
    out = tmp_path / "rows.csv"
    plots = tmp_path / "plots"
    res = run_cli("report", db, "--csv", out, "--plot", plots)
    assert res.exit_code == 0, res.output
    with open(out) as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == 10 and list(got[0]) == list(FIELDS)
    for name in ("max_scores.png", "winnable_share.png"):
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plots_of_groups_without_decided_decks(tmp_path):
    from solver.hanabi.batch.report import plot

    groups = [
        {"variant": "No Variant", "players": 2, "decks": 3, "exact": 0, "winnable_share": None,
         "winnable_share_95": [0.0, 1.0], "max_scores": {}},
        {"variant": "Black (6 Suits)", "players": 4, "decks": 5, "exact": 5, "winnable_share": 0.8,
         "winnable_share_95": [0.37, 0.96], "max_scores": {"30": 4, "26": 1}},
    ]
    written = plot({"groups": groups}, str(tmp_path))
    assert sorted(os.path.basename(p) for p in written) == ["max_scores.png", "winnable_share.png"]
    assert all(os.path.getsize(p) > 1000 for p in written)


# --- review ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", real_game_files(), ids=lambda p: p.name)
def test_review_of_real_games(path):
    rec = load_file(path)
    rv = review(rec, timeout=30)
    pts = rv.points
    assert len(pts) == len(rec.actions) + 1
    assert all(p.exact for p in pts)
    assert all(b.max_score <= a.max_score for a, b in zip(pts, pts[1:])), "the maximum rose"
    final = rec.state_after()
    assert pts[-1].max_score == final.score == rv.final_score
    # every drop: the best line before the action reaches the old maximum in the engine,
    # and the exact maximum after it is lower
    for d in rv.drops:  # d.turn: the turn the action was made at (the position before it)
        before = rec.state_after(d.turn)
        assert replay_score(before, pts[d.turn].best_line) == d.before
        assert rec.actions[d.turn].describe(rec.game).split(" (")[0] in d.action
        after = rec.state_after(d.turn + 1)
        sol = solve(after, timeout=30)
        assert sol.exact and sol.max_score == d.after < d.before
        assert d.certain
    # turns without a drop keep the maximum
    drop_turns = {d.turn + 1 for d in rv.drops}
    for i in range(1, len(pts)):
        if i not in drop_turns:
            assert pts[i].max_score == pts[i - 1].max_score
    assert sum(d.before - d.after for d in rv.drops) == pts[0].max_score - pts[-1].max_score


def test_review_cli_finds_the_drops_of_the_5_player_game(tmp_path):
    path = next(p for p in real_game_files() if p.name.startswith("p5v0s198"))
    png = tmp_path / "review.png"
    res = run_cli("review", path, "--json", "--plot", png)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["final_score"] == 23 and out["turns"][0]["max_score"] == 25
    assert [(d["before"], d["after"]) for d in out["drops"]] and out["drops"][-1]["after"] == 23
    assert png.read_bytes()[:4] == b"\x89PNG"
    text = run_cli("review", path).stdout
    assert "drop" in text and "Final score 23/25" in text


# --- bad input ---------------------------------------------------------------------------------

def test_bad_inputs_give_one_line_errors(tmp_path):
    assert_clean_error(run_cli("analyse", "p3v0s9..1", "--db", tmp_path / "x.sqlite"), "below first")
    assert_clean_error(run_cli("analyse", "nofile.jsonl", "--db", tmp_path / "x.sqlite"), "nofile.jsonl")
    p, _ = deck_file(tmp_path, n=1)
    assert_clean_error(run_cli("analyse", p, "--db", tmp_path / "x.sqlite", "--timeout", "0"), "--timeout")
    assert_clean_error(run_cli("analyse", p, "--dask", "--scheduler", "tcp://x:1", "--db", tmp_path / "x.sqlite"),
                       "not both")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database, " * 100)
    assert_clean_error(run_cli("analyse", p, "--db", junk), "not a readable result store")
    assert junk.read_text() == "not a database, " * 100  # untouched
    assert_clean_error(run_cli("report", tmp_path / "missing.sqlite"), "no such store")
    assert not (tmp_path / "missing.sqlite").exists()
    assert_clean_error(run_cli("report", junk), "not a readable result store")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(NV.read_text().splitlines()[0] + "\n" + '{"id": "x", "players": 2, "deck": [\n')
    assert_clean_error(run_cli("analyse", bad, "--db", tmp_path / "y.sqlite"), "line 2")
    assert_clean_error(run_cli("review", tmp_path / "nothing.json"), "nothing.json")
    assert_clean_error(run_cli("review", real_game_files()[0], "--plot", tmp_path / "x.txt"), ".png")


# --- seeds -------------------------------------------------------------------------------------

def test_seed_range_jobs_deal_as_the_site(tmp_path):
    from conftest import expected_results

    jobs = make_jobs(["p3v0s1..3", "p5v0s198"])
    assert [j["name"] for j in jobs] == ["p3v0s1", "p3v0s2", "p3v0s3", "p5v0s198"]
    files = {exp["seed"]: name for name, exp in expected_results().items()}
    for j in jobs:
        g = job_game(j)
        assert g.num_players == int(j["name"][1])
        if j["name"] in files:
            real = load_file(HANABLIVE / files[j["name"]]).game
            assert g.deck == real.deck
    assert job_game(jobs[1]).deck != job_game(jobs[0]).deck
    db = tmp_path / "s.sqlite"
    res = run_cli("analyse", "p3v0s1..4", "--db", db, "--quiet")
    assert res.exit_code == 0, res.output
    with Store(db) as st:
        rows = st.rows()
    assert [r.seed for r in rows] == ["p3v0s1", "p3v0s2", "p3v0s3", "p3v0s4"]
    assert all(r.players == 3 and r.variant == "No Variant" for r in rows)


def test_bad_seeds_give_one_line_errors(tmp_path):
    db = tmp_path / "x.sqlite"
    assert_clean_error(run_cli("analyse", "p9v0s1..3", "--db", db), "p9v0s1")
    assert_clean_error(run_cli("analyse", "p3v9999s1..3", "--db", db), "9999")
    assert_clean_error(run_cli("analyse", "myseed1..3", "--db", db), "myseed1")
    res = run_cli("analyse", "myseed1..2", "--players", "2", "--variant", "6 Suits", "--db", db, "--quiet")
    assert res.exit_code == 0, res.output
    with Store(db) as st:
        assert [(r.name, r.players, r.variant, r.perfect) for r in st.rows()] == [
            ("myseed1", 2, "6 Suits", 30), ("myseed2", 2, "6 Suits", 30)]


def test_redo_undecided_only_touches_open_winnability(tmp_path):
    from dataclasses import replace

    db = tmp_path / "u.sqlite"
    seeds = ["p3v0s1", "p3v0s9221"]  # winnable; maximum 24 (a late card)
    rows = [solve_job(j, timeout=30) for j in make_jobs(seeds)]
    assert [r.max_score for r in rows] == [25, 24] and all(r.exact for r in rows)
    with Store(db) as st:
        # winnability open (no perfect line, no bound below 25) vs decided (bound 24) but not exact
        st.add(replace(rows[0], max_score=23, exact=False, proof_kind="open"))
        st.add(replace(rows[1], max_score=22, exact=False, proof_kind="open"))
        key = {r.seed: r.key for r in rows}
        assert st.open_keys(undecided=True) == {key["p3v0s1"]}
        assert st.open_keys() == {key["p3v0s1"], key["p3v0s9221"]}
    res = run_cli("analyse", *seeds, "--db", db, "--timeout", "30", "--redo-undecided", "--jobs", "1", "--quiet")
    assert res.exit_code == 0, res.output
    assert "1 solved" in res.stdout
    with Store(db) as st:
        got = {r.name: r for r in st.rows()}
    assert got["p3v0s1"].exact and got["p3v0s1"].max_score == 25
    assert not got["p3v0s9221"].exact and got["p3v0s9221"].max_score == 22
    res = run_cli("analyse", *seeds, "--db", db, "--timeout", "30", "--redo-open", "--jobs", "1", "--quiet")
    assert res.exit_code == 0 and "1 solved" in res.stdout, res.output
    with Store(db) as st:
        got = {r.name: r for r in st.rows()}
    assert got["p3v0s9221"].exact and got["p3v0s9221"].max_score == 24


def test_redo_open_replaces_only_with_tighter_results(tmp_path):
    from dataclasses import replace

    p, _ = deck_file(tmp_path, players=3, n=3)
    db = tmp_path / "r.sqlite"
    jobs = make_jobs([str(p)])
    rows = [solve_job(j, timeout=30) for j in jobs]
    assert all(r.exact for r in rows)
    with Store(db) as st:  # as a timed-out run leaves them: the first open, the others exact
        st.add(replace(rows[0], max_score=rows[0].max_score - 2, exact=False, proof_kind="open"))
        for r in rows[1:]:
            st.add(r)
        before = {r["key"]: r for r in st.dump()}
    res = run_cli("analyse", p, "--db", db, "--timeout", "30", "--redo-open", "--jobs", "1", "--quiet")
    assert res.exit_code == 0, res.output
    assert "1 solved" in res.stdout
    with Store(db) as st:
        after = {r["key"]: r for r in st.dump()}
        assert all(r["exact"] for r in after.values())
        assert after[rows[0].key]["max_score"] == rows[0].max_score
        for r in rows[1:]:
            assert after[r.key] == before[r.key]  # exact rows are never redone
        # a looser result never replaces a stored one; an equal one only if newly exact
        assert st.improve(replace(rows[1], max_score=rows[1].max_score - 1, exact=False)) is False
        assert st.improve(rows[1]) is False
        assert st.dump() == list(after.values())


def test_review_of_a_seed_with_a_line_is_the_review_of_the_game(tmp_path):
    src = json.loads(next(f for f in real_game_files() if f.name.startswith("p3v0s1_")).read_text())
    src["options"] = {}  # the seed's rules (the example game plays with deck plays)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(src))
    rec = load_file(game)
    line = tmp_path / "line.json"
    line.write_text(json.dumps([a.to_json() for a in rec.actions]))
    a = run_cli("review", game, "--json", "--timeout", "10")
    b = run_cli("review", "--seed", "p3v0s1", "--actions", f"@{line}", "--json", "--timeout", "10")
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert [t["max_score"] for t in ja["turns"]] == [t["max_score"] for t in jb["turns"]]
    assert len(jb["turns"]) == len(rec.actions) + 1 and ja["final_score"] == jb["final_score"]
    assert_clean_error(run_cli("review", game, "--actions", "[]"), "--actions is for an input without them")
    assert_clean_error(run_cli("review", "--seed", "p3v0s1", "--actions", '[{"type": 0, "target": 99}]'),
                       "action 0")


def test_review_checks_the_plot_path_before_the_work(tmp_path, monkeypatch):
    import solver.hanabi.analysis.review as rv

    def never(*a, **kw):
        raise AssertionError("the review ran before the output path was checked")

    monkeypatch.setattr(rv, "review", never)
    assert_clean_error(run_cli("review", real_game_files()[0], "--plot", tmp_path / "no" / "r.png"),
                       "does not exist")
    assert_clean_error(run_cli("review", real_game_files()[0], "--plot", ""), "--plot")
