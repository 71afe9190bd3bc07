#!/usr/bin/env python3
"""Kill a batch analysis with SIGKILL at random moments, resume it each time, and compare
the final store with an uninterrupted run's.

    .venv/bin/python scripts/kill_resume.py p3v0s1..10000 --kills 5

Prints, per kill, how many rows the store held; then whether the final store has every
key exactly once and agrees with the uninterrupted run (same deck; same maximum where both
are exact; overlapping bounds otherwise), and how many rows are byte-identical.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.hanabi.batch.store import Store  # noqa: E402


def analyse_cmd(inputs, db, args) -> list[str]:
    cmd = [sys.executable, "-m", "cli.hanabi", "analyse", *inputs, "--db", str(db), "--quiet",
           "--timeout", str(args.timeout)]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    return cmd


def count(db) -> int:
    try:
        con = sqlite3.connect(db)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", default=["p3v0s1..10000"])
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1, help="random seed for the kill moments")
    ap.add_argument("--dir", help="keep the stores here (default: a temporary folder)")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="kill_resume_"))
    folder.mkdir(parents=True, exist_ok=True)
    clean, killed = folder / "clean.sqlite", folder / "killed.sqlite"
    for p in (clean, killed):
        for suffix in ("", "-wal", "-shm"):
            Path(str(p) + suffix).unlink(missing_ok=True)

    t0 = time.monotonic()
    subprocess.run(analyse_cmd(args.inputs, clean, args), check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    full_time = time.monotonic() - t0
    print(f"uninterrupted run: {count(clean)} rows in {full_time:.1f} s")

    for k in range(args.kills):
        before = count(killed)
        proc = subprocess.Popen(analyse_cmd(args.inputs, killed, args), cwd=ROOT, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        delay = rng.uniform(0.5, max(1.0, 0.8 * full_time / args.kills))
        time.sleep(delay)
        alive = proc.poll() is None
        if alive:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        print(f"kill {k + 1}: after {delay:.2f} s ({'killed' if alive else 'had already finished'}); "
              f"rows {before} -> {count(killed)}")
    subprocess.run(analyse_cmd(args.inputs, killed, args), check=True, cwd=ROOT, stdout=subprocess.DEVNULL)

    with Store(clean) as a, Store(killed) as b:
        ra, rb = a.dump(), b.dump()
    keys_a, keys_b = [r["key"] for r in ra], [r["key"] for r in rb]
    agree = identical = 0
    bad = []
    for x, y in zip(ra, rb):
        ok = x["key"] == y["key"] and x["deck"] == y["deck"] and (
            x["max_score"] == y["max_score"] if x["exact"] and y["exact"]
            else max(x["max_score"], y["max_score"]) <= min(x["upper_bound"], y["upper_bound"]))
        agree += ok
        if not ok:
            bad.append(x["key"])
        strip = ("seconds", "nodes", "finished_at")
        identical += all(x[f] == y[f] for f in x if f not in strip)
    print(f"final store: {len(rb)} rows, {len(set(keys_b))} distinct keys; uninterrupted: {len(ra)} rows")
    print(f"same keys: {keys_a == keys_b}; agreeing results: {agree}/{len(ra)}; "
          f"identical apart from timings: {identical}/{len(ra)}")
    if bad:
        print("disagreements:", ", ".join(bad[:20]))
    ok = keys_a == keys_b and len(set(keys_b)) == len(rb) and agree == len(ra)
    print("RESULT:", "stores agree" if ok else "STORES DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
