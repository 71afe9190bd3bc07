"""``hand analyse`` and ``hand report``: the deal store (one row per seed, resumable, the
same rows whatever the number of workers, killed runs lose nothing), the summary's counts
against hand-made rows, and bad input as one line, exit code 2."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.hand import hand
from solver.hand import bid_table, reachable
from solver.hand.batch import DealRow, HandStore, SeatRow, analyse_deal, read_export, summarise
from solver.hand.batch.report import format_markdown
from solver.hand.batch.stats import ALL_VECTORS, VECTOR_INDEX, VECTORS, vector_mask
from solver.hand.rules import Deal, round_score

from conftest import REPO, assert_clean_error

TINY = ["--nodes", "300", "--coop-nodes", "300"]  # most answers undecided: fast, and exercises None
FULL = {"nodes": 2_000_000, "coop_nodes": 2_000_000}
QUICK_SEEDS = (12, 19)  # deals the full budget decides in well under a second


def run_hand(*args):
    return CliRunner().invoke(hand, [str(a) for a in args])


def stable(r: DealRow) -> tuple:
    """A row without its CPU time."""
    return r.values()[:-1]


def rows_of(db) -> list[DealRow]:
    with HandStore(db, None, readonly=True) as st:
        return list(st.rows())


@pytest.mark.parametrize("seed", QUICK_SEEDS)
def test_a_row_is_what_the_solver_says(seed, tmp_path):
    row = analyse_deal(seed, FULL)
    deal = Deal.random(seed)
    table = bid_table(deal)
    reach = reachable(deal).vectors
    assert row.deal == str(deal) and row.dealer == deal.dealer and row.complete
    for s, seat in enumerate(row.seats):
        r = table.row(s)
        assert (seat.most, seat.fewest, seat.exact) == (r.bounds.most, r.bounds.fewest, r.bounds.exact)
        assert seat.scores == r.scores and (seat.best_bid, seat.best_score) == (r.best_bid, r.best_score)
        # the definitions tie them together: a count forced exactly scores its made bid,
        # the best score is the top of the row, exact counts lie between the bounds
        assert seat.best_score == max(seat.scores) and seat.scores.index(seat.best_score) == seat.best_bid
        for k in seat.exact:
            assert seat.fewest <= k <= seat.most and seat.scores[k] == round_score(k, k)
    assert row.reach == vector_mask(reach) and row.reach_count == len(reach)
    assert all(sum(v) == 8 for v in reach) and row.reach & ~ALL_VECTORS == 0
    # through the store and back
    with HandStore(tmp_path / "one.sqlite", FULL) as st:
        assert st.add(row) and not st.add(row)
        assert list(st.rows()) == [row]


def test_extreme_values_are_stored_and_read_back(tmp_path):
    """The whole range of every seat value: a bid of 8 made (+80), 16 tricks off (-160)."""
    deal = Deal.random(5)
    top = SeatRow(8, 8, (8,), (-80, -70, -60, -50, -40, -30, -20, -10, 80), 8, 80)
    low = SeatRow(0, 8, (), (-160,) * 9, 0, -160)
    row = DealRow(5, str(deal), deal.dealer, (top, low, low, low), ALL_VECTORS, 1, 1, 0.0)
    with HandStore(tmp_path / "x.sqlite", FULL) as st:
        st.add(row)
        assert list(st.rows()) == [row]


def test_vectors_are_every_share_of_eight_tricks():
    assert len(VECTORS) == 165 == len(set(VECTORS)) and all(sum(v) == 8 and min(v) >= 0 for v in VECTORS)
    assert list(VECTORS) == sorted(VECTORS) and all(VECTOR_INDEX[v] == i for i, v in enumerate(VECTORS))


def test_rerun_skips_and_workers_change_nothing(tmp_path):
    db = tmp_path / "a.sqlite"
    res = run_hand("analyse", "--deals", 8, "--seed", 1, "--db", db, "--jobs", 1, *TINY)
    assert res.exit_code == 0, res.output
    assert "8 deals analysed" in res.output and "0 already stored" in res.output
    first = rows_of(db)
    assert [r.seed for r in first] == list(range(1, 9))
    res = run_hand("analyse", "--deals", 12, "--seed", 1, "--db", db, "--jobs", 2, *TINY, "--json")
    assert res.exit_code == 0, res.output
    js = json.loads(res.output)
    assert (js["total"], js["analysed"], js["skipped"]) == (12, 4, 8)
    both = rows_of(db)
    assert both[:8] == first  # the stored rows untouched
    ref = tmp_path / "ref.sqlite"
    assert run_hand("analyse", "--deals", 12, "--seed", 1, "--db", ref, "--jobs", 2, *TINY).exit_code == 0
    assert [stable(r) for r in rows_of(ref)] == [stable(r) for r in both]
    # a tiny budget leaves answers undecided (None), and what it decides agrees with the full one
    full = analyse_deal(1, FULL)
    tiny = both[0]
    assert not tiny.complete
    for a, b in zip(tiny.seats, full.seats):
        for f in ("most", "fewest", "exact", "scores", "best_bid", "best_score"):
            assert getattr(a, f) is None or getattr(a, f) == getattr(b, f), f


def test_dask_gives_the_same_rows(tmp_path):
    pytest.importorskip("dask.distributed")
    db, ref = tmp_path / "d.sqlite", tmp_path / "ref.sqlite"
    res = run_hand("analyse", "--deals", 4, "--seed", 30, "--db", db, "--dask", "--jobs", 2, "--quiet", *TINY)
    assert res.exit_code == 0, res.output
    assert run_hand("analyse", "--deals", 4, "--seed", 30, "--db", ref, "--jobs", 1, *TINY).exit_code == 0
    assert [stable(r) for r in rows_of(db)] == [stable(r) for r in rows_of(ref)]
    assert len(rows_of(db)) == 4


def _start_and_wait(db: Path, cwd: Path, rows: int) -> subprocess.Popen:
    """``hand analyse`` of 400 deals (tiny budgets) in its own process group, returned
    once the store holds ``rows`` rows (still running)."""
    cmd = [sys.executable, "-m", "cli.hand", "analyse", "--deals", "400", "--seed", "1", "--db", str(db),
           "--jobs", "2", "--quiet", *TINY]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    n = 0
    while time.monotonic() < deadline and proc.poll() is None and n < rows:
        time.sleep(0.2)
        if db.exists():
            try:
                n = sqlite3.connect(db).execute("SELECT COUNT(*) FROM deals").fetchone()[0]
            except sqlite3.Error:
                n = 0
    if proc.poll() is not None:
        raise AssertionError("the run finished before it could be stopped")
    return proc


def test_terminated_run_says_what_it_kept(tmp_path):
    db = tmp_path / "t.sqlite"
    proc = _start_and_wait(db, tmp_path, 5)
    try:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err.count("\n") == 1 and "stopped by SIGTERM" in err and "run the same command again" in err, err
    n = int(err.split(": stopped by SIGTERM: ")[1].split(" deals")[0])
    assert n == len(rows_of(db)) >= 5


def test_killed_run_loses_nothing(tmp_path):
    """SIGKILL a run mid-way: what finished is stored whole; the rerun completes it."""
    db = tmp_path / "k.sqlite"
    proc = _start_and_wait(db, tmp_path, 15)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    partial = rows_of(db)
    assert 15 <= len(partial) < 400
    res = run_hand("analyse", "--deals", 400, "--seed", 1, "--db", db, "--jobs", 2, "--json", *TINY)
    assert res.exit_code == 0, res.output
    js = json.loads(res.output)
    assert js["analysed"] == 400 - len(partial) and js["skipped"] == len(partial)
    done = rows_of(db)
    assert [r.seed for r in done] == list(range(1, 401))
    by_seed = {r.seed: r for r in done}
    for r in partial:
        assert by_seed[r.seed] == r
    for seed in (partial[0].seed, done[-1].seed):  # rows on either side of the kill are what a fresh run gives
        assert stable(by_seed[seed]) == stable(analyse_deal(seed, {"nodes": 300, "coop_nodes": 300}))


# --- the summary ---------------------------------------------------------------------------

def _seat(bid, score, exact=(), most=1, fewest=4):
    scores = tuple(score if b == bid else score - 10 for b in range(9))
    return SeatRow(most, fewest, exact, scores, bid, score)


def _row(seed, seats, vectors):
    return DealRow(seed, "", 3, seats, None if vectors is None else vector_mask(frozenset(vectors)), 10, 5, 0.5)


def test_summary_counts_hand_made_rows():
    every = set(VECTORS)
    rows = [
        # best bids 2 1 3 2 (sum 8), reachable; every vector reachable; the leader forces 2 exactly
        _row(1, (_seat(2, 20, (2,), most=2, fewest=2), _seat(1, -10), _seat(3, -20), _seat(2, -10)), every),
        # best bids 1 1 1 1 (sum 4); (8,0,0,0) unreachable
        _row(2, (_seat(1, -10), _seat(1, -10), _seat(1, -30), _seat(1, -20)), every - {(8, 0, 0, 0)}),
        # best bids 3 3 1 1 (sum 8) but that vector unreachable; reach undecided for none
        _row(3, (_seat(3, -10), _seat(3, -20), _seat(1, -10), _seat(1, -10)), every - {(3, 3, 1, 1)}),
        # reach undecided, and the fourth seat undecided
        _row(4, (_seat(0, 25, (0,), most=0, fewest=0), _seat(2, -20), _seat(2, -20),
                 SeatRow(None, None, None, None, None, None)), None),
    ]
    s = summarise(rows, "mem")
    assert s["deals"] == 4 and s["complete"] == 3
    lead = s["places"][0]
    assert lead["decided"] == 4 and lead["best_bid"] == {"0": 1, "1": 1, "2": 1, "3": 1}
    assert lead["can_force_exactly"]["count"] == 2 and lead["can_force_exactly"]["of"] == 4
    assert lead["mean_best_score"] == pytest.approx((20 - 10 - 10 + 25) / 4)
    fourth = s["places"][3]
    assert fourth["decided"] == 3 and fourth["seats"] == 4
    assert s["best_bids_sum"] == {"4": 1, "8": 2}
    assert (s["best_bids_sum_8"]["count"], s["best_bids_sum_8"]["of"]) == (2, 3)
    assert (s["best_bids_made_together"]["count"], s["best_bids_made_together"]["of"]) == (1, 3)
    assert (s["all_vectors_reachable"]["count"], s["all_vectors_reachable"]["of"]) == (1, 3)
    assert s["reachable_vectors"] == {"164": 2, "165": 1}
    assert {tuple(v["vector"]): v["unreachable"] for v in s["most_often_unreachable"]} == {
        (8, 0, 0, 0): 1, (3, 3, 1, 1): 1}
    others = [(20 - 10 - 10 + 25) / 4, (-10 - 10 - 20 - 20 - 30 - 10 - 20 - 10 - 10 - 20 - 20) / 11]
    assert s["leading"]["mean_best_score"] == pytest.approx(others)
    md = format_markdown(s)
    assert "| leader | 4 |" in md and "66.7%" in md


def test_report_text_json_markdown_and_plots(tmp_path):
    db = tmp_path / "r.sqlite"
    with HandStore(db, FULL) as st:
        for seed in QUICK_SEEDS:
            st.add(analyse_deal(seed, FULL))
    res = run_hand("report", db, "--json")
    assert res.exit_code == 0, res.output
    js = json.loads(res.output)
    rows = rows_of(db)
    assert js["deals"] == 2 and js["complete"] == 2
    assert sum(int(k) * v for k, v in js["best_bids_sum"].items()) == sum(
        sum(s.best_bid for s in r.seats) for r in rows)
    assert js["mean_reachable"] == pytest.approx(sum(r.reach_count for r in rows) / 2)
    text = run_hand("report", db)
    assert text.exit_code == 0 and text.output.startswith(f"{db}: 2 deals (2 fully decided)")
    md = run_hand("report", db, "--markdown")
    assert md.exit_code == 0 and md.output.startswith("| seat (from the leader) |")
    plots = tmp_path / "plots"
    res = run_hand("report", db, "--plot", plots)
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["hand_best_bids.png", "hand_guaranteed_scores.png", "hand_table.png"]
    assert all((plots / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)


# --- bad input -----------------------------------------------------------------------------

def test_bad_input_is_one_line(tmp_path):
    db = tmp_path / "b.sqlite"
    assert run_hand("analyse", "--deals", 2, "--db", db, *TINY, "--jobs", 1).exit_code == 0
    assert_clean_error(run_hand("analyse", "--deals", 2, "--db", db, "--jobs", 1), "other node budgets",
                       "nodes 300")
    for bad in (["--deals", "0"], ["--deals", "2", "--seed", "-1"], ["--deals", "2", "--jobs", "0"],
                ["--deals", "2", "--seed", str(2 ** 64)]):
        # usage errors: through the console entry point, as a user meets them
        p = subprocess.run([sys.executable, "-m", "cli.hand", "analyse", "--db", str(db), *bad], cwd=tmp_path,
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        assert p.returncode == 2 and p.stdout == "" and p.stderr.startswith("error:") and p.stderr.count("\n") == 1
        assert bad[-2] in p.stderr, p.stderr
    assert_clean_error(run_hand("analyse", "--deals", 2, "--db", tmp_path), "is a folder")
    assert_clean_error(run_hand("analyse", "--deals", 2, "--db", tmp_path / "no" / "x.sqlite"), "does not exist")
    assert_clean_error(run_hand("analyse", "--deals", 2, "--dask", "--scheduler", "tcp://x:1", "--db", db),
                       "not both")
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    assert_clean_error(run_hand("report", text), "not an SQLite file")
    assert text.read_text() == "not a database"
    assert_clean_error(run_hand("report", tmp_path / "missing.sqlite"), "no such store")
    # a Hanabi result store is another kind of store, left as it was
    from solver.hanabi.batch.store import Store

    Store(tmp_path / "hanabi.sqlite").close()
    before = (tmp_path / "hanabi.sqlite").read_bytes()
    assert_clean_error(run_hand("report", tmp_path / "hanabi.sqlite"), "not a Hand deal store")
    assert_clean_error(run_hand("analyse", "--deals", 1, "--db", tmp_path / "hanabi.sqlite"), "not a Hand deal store")
    assert (tmp_path / "hanabi.sqlite").read_bytes() == before
    assert_clean_error(run_hand("report", db, "--json", "--markdown"), "not both")
    assert_clean_error(run_hand("report", db, "--plot", ""), "--plot")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_clean_error(run_hand("report", db, "--plot", blocker / "sub"), "cannot write")


@pytest.mark.parametrize("column,value,needle", [
    ("deal", "dealer 3: S:AKQJT987 H:- D:- C:- / - / - / -", "deal is"),
    ("scores_2", "1,2,x", "scores_2"),
    ("best_score_0", 99, "best_score_0"),
    ("reach_count", 7, "reach_count"),
    ("seconds", -1.0, "seconds"),
    ("most_1", 9, "most_1"),
    ("exact_3", "2,9", "exact_3"),
])
def test_a_corrupt_row_is_named(tmp_path, column, value, needle):
    db = tmp_path / "c.sqlite"
    assert run_hand("analyse", "--deals", 2, "--db", db, *TINY, "--jobs", 1).exit_code == 0
    con = sqlite3.connect(db)
    with con:
        con.execute(f"UPDATE deals SET {column} = ? WHERE seed = 2", (value,))
    con.close()
    err = assert_clean_error(run_hand("report", db), "corrupt row (seed 2)", needle)
    assert "Traceback" not in err


def test_report_never_writes(tmp_path):
    db = tmp_path / "ro.sqlite"
    assert run_hand("analyse", "--deals", 2, "--db", db, *TINY, "--jobs", 1).exit_code == 0
    for p in Path(tmp_path).glob("ro.sqlite*"):
        if p.name != "ro.sqlite":
            p.unlink()
    before = db.read_bytes()
    os.chmod(db, 0o444)
    try:
        assert run_hand("report", db).exit_code == 0
    finally:
        os.chmod(db, 0o644)
    assert db.read_bytes() == before


def test_stats_block_is_written_between_its_markers(tmp_path):
    sys.path.insert(0, str(REPO / "scripts"))
    import hand_stats_block

    db = tmp_path / "r.sqlite"
    with HandStore(db, FULL) as st:
        for seed in QUICK_SEEDS:
            st.add(analyse_deal(seed, FULL))
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{hand_stats_block.BEGIN}\nOLD-BLOCK\n{hand_stats_block.END}\nafter\n")
    data = tmp_path / "deals"
    hand_stats_block.main([str(db), "--page", str(readme), "--plots", str(tmp_path / "p"), "--data", str(data)])
    # the rows behind the block, published as export files: one per block of seeds, and
    # importing them gives the store back
    assert sorted(p.name for p in data.iterdir()) == ["seeds-0000001-0010000.jsonl.gz"]
    back = tmp_path / "back.sqlite"
    assert run_hand("import", *data.iterdir(), "--db", back).exit_code == 0
    assert rows_of(back) == rows_of(db)
    text = readme.read_text()
    assert text.startswith(f"before\n{hand_stats_block.BEGIN}\n2 deals (2 seeds between 12 and 19), 2 fully decided.")
    assert text.endswith(f"{hand_stats_block.END}\nafter\n") and "OLD-BLOCK" not in text
    assert "| leader | 2 |" in text and len(list((tmp_path / "p").iterdir())) == 3


def test_stats_data_files_follow_seed_blocks(tmp_path):
    """Seeds 10000 and 10001 lie in two blocks: two files, each holding its own rows."""
    sys.path.insert(0, str(REPO / "scripts"))
    import hand_stats_block

    low = SeatRow(0, 8, (), (-160,) * 9, 0, -160)
    db = tmp_path / "blocks.sqlite"
    with HandStore(db, FULL) as st:
        for seed in (10_000, 10_001, 25_000):
            deal = Deal.random(seed)
            st.add(DealRow(seed, str(deal), deal.dealer, (low, low, low, low), ALL_VECTORS, 1, 1, 0.5))
        files = hand_stats_block.write_data(st, [10_000, 10_001, 25_000], tmp_path / "d")
    assert [f.name for f in files] == ["seeds-0000001-0010000.jsonl.gz", "seeds-0010001-0020000.jsonl.gz",
                                       "seeds-0020001-0030000.jsonl.gz"]
    for f, seeds in zip(files, ([10_000], [10_001], [25_000])):
        with HandStore(db, None, readonly=True) as st:
            assert [r.seed for r in read_export(f, st).rows] == seeds


def test_the_stats_block_is_what_its_published_rows_say(tmp_path):
    """The Hand statistics block of docs/hand-guide.md, rewritten from the rows published beside it
    (results/hand-stats/deals, imported into a new store), comes out the same to the letter."""
    sys.path.insert(0, str(REPO / "scripts"))
    import hand_stats_block

    files = sorted((REPO / "results" / "hand-stats" / "deals").glob("seeds-*.jsonl.gz"))
    assert files, "results/hand-stats/deals holds no export files"
    db = tmp_path / "published.sqlite"
    assert run_hand("import", *files, "--db", db).exit_code == 0
    readme = tmp_path / "hand-guide.md"
    readme.write_text((REPO / "docs" / "hand-guide.md").read_text())
    hand_stats_block.main([str(db), "--page", str(readme), "--plots", str(tmp_path / "p")])
    assert readme.read_text() == (REPO / "docs" / "hand-guide.md").read_text()
    assert len(list((tmp_path / "p").iterdir())) == 3
