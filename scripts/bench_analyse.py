"""Throughput of ``hanabi analyse`` on a seed range: wall time and CPU time (the command
and all its descendants, the forkserver's workers among them), decks per second, the
share decided exactly, per-deck time percentiles, and the projected wall time for 100,000 seeds. ``--compare
GITREF`` runs the same range with an older version (a git worktree) in the same run, when
that version has ``hanabi analyse``.

``--hand``: the same for ``hand analyse`` (Hand deal statistics) on the deals of the seeds
RANGE = ``FIRST..LAST`` (default 1..200): deals per second, the share fully decided, the
per-deal CPU percentiles and the projected wall time for 100,000 deals with these workers.

    .venv/bin/python scripts/bench_analyse.py p3v0s1..100000
    .venv/bin/python scripts/bench_analyse.py p2v0s1..10000 --compare HEAD~5
    .venv/bin/python scripts/bench_analyse.py --hand 1..200 --jobs 2
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import build_kernel

ROOT = Path(__file__).resolve().parents[1]


def _proc_cpu(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds so far) of a live process, from /proc; None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick


def _tree_cpu(root: int, seen: dict[int, float]) -> None:
    """Record in ``seen`` the CPU seconds of ``root`` and every live descendant."""
    parent: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            info = _proc_cpu(int(name))
            if info is not None:
                parent[int(name)] = info
    tree = {root}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in parent.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    for pid in tree:
        if pid in parent:
            seen[pid] = max(seen.get(pid, 0.0), parent[pid][1])


def run(tree: Path, rng: str, db: Path, args) -> tuple[float, float]:
    """Run the analysis; (wall seconds, CPU seconds of the command and its descendants).

    The workers are children of multiprocessing's forkserver, which nobody waits for, so
    ``RUSAGE_CHILDREN`` misses them: the process tree is read from /proc every 0.2 s
    instead, each process's last reading kept (what it spends after the last reading, a
    fraction of 0.2 s per process, is missed)."""
    new_layout = (tree / "cli").is_dir()  # (before 0.2.0 the commands were hanabi_cli and hand_cli)
    hanabi, hand = ("cli.hanabi", "cli.hand") if new_layout else ("hanabi_cli", "hand_cli")
    if args.hand:
        first, last = _hand_range(rng)
        cmd = [sys.executable, "-m", hand, "analyse", "--deals", str(last - first + 1), "--seed", str(first),
               "--db", str(db), "--quiet"]
    else:
        cmd = [sys.executable, "-m", hanabi, "analyse", rng, "--db", str(db), "--quiet",
               "--timeout", str(args.timeout)]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    seen: dict[int, float] = {}
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL)
    while proc.poll() is None:
        _tree_cpu(proc.pid, seen)
        time.sleep(0.2)
    wall = time.monotonic() - t0
    if proc.returncode:
        raise SystemExit(f"bench_analyse: {' '.join(cmd)} failed with exit code {proc.returncode}")
    return wall, sum(seen.values())


def _hand_range(rng: str) -> tuple[int, int]:
    try:
        first, last = (int(x) for x in rng.split(".."))
    except ValueError:
        raise SystemExit(f"bench_analyse: --hand takes seeds FIRST..LAST, got {rng!r}") from None
    if not 0 <= first <= last:
        raise SystemExit(f"bench_analyse: --hand: empty or negative seed range {rng!r}")
    return first, last


def describe_hand(label: str, db: Path, times: tuple[float, float]) -> str:
    wall, cpu = times
    con = sqlite3.connect(db)
    cols = ", ".join(f"best_bid_{s} IS NOT NULL" for s in range(4))
    rows = con.execute(f"SELECT seconds, reach IS NOT NULL, {cols} FROM deals").fetchall()
    con.close()
    n = len(rows)
    secs = sorted(r[0] for r in rows)
    pct = lambda q: secs[min(n - 1, int(q * n))]  # noqa: E731
    decided = sum(all(r[1:]) for r in rows)
    return (f"{label:<12} {n:>7} deals  {wall:8.1f} s wall  {cpu:8.1f} s CPU ({cpu / n:.3f} s a deal)  "
            f"{n / wall:7.2f} deals/s  decided {100 * decided / n:6.2f}%  "
            f"per deal (CPU in the worker) mean {sum(secs) / n:6.3f} s  median {pct(0.5):6.3f} s  "
            f"p99 {pct(0.99):6.3f} s  max {secs[-1]:6.2f} s  "
            f"-> 100,000 deals in {100000 / (n / wall) / 3600:5.1f} h wall ({100000 * cpu / n / 3600:5.1f} CPU-hours)")


def describe(label: str, db: Path, times: tuple[float, float]) -> str:
    wall, cpu = times
    con = sqlite3.connect(db)
    rows = con.execute("SELECT seconds, exact, max_score = perfect FROM results").fetchall()
    con.close()
    n = len(rows)
    secs = sorted(r[0] for r in rows)
    pct = lambda q: secs[min(n - 1, int(q * n))]  # noqa: E731
    return (f"{label:<12} {n:>7} decks  {wall:8.1f} s wall  {cpu:8.1f} s CPU ({1000 * cpu / n:.1f} ms a deck)  "
            f"{n / wall:8.1f} decks/s  "
            f"exact {100 * sum(r[1] for r in rows) / n:6.2f}%  winnable {100 * sum(r[2] for r in rows) / n:6.2f}%  "
            f"per deck mean {1000 * sum(secs) / n:7.1f} ms  median {1000 * pct(0.5):6.1f} ms  "
            f"p99 {1000 * pct(0.99):7.1f} ms  max {secs[-1]:6.2f} s  "
            f"-> 100,000 decks in {100000 / (n / wall) / 60:5.1f} min")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("range", nargs="?", default=None, help="seed range (default p3v0s1..10000; --hand: 1..200)")
    ap.add_argument("--hand", action="store_true", help="benchmark hand analyse on the deals of seeds RANGE")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--compare", metavar="GITREF", help="also run an older version")
    args = ap.parse_args(argv)
    if args.range is None:
        args.range = "1..200" if args.hand else "p3v0s1..10000"
    show = describe_hand if args.hand else describe
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        lines = []
        if args.compare:
            tree = tmp / "old"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.compare], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                build_kernel(tree)  # the older version runs compiled code too, as this one does
                db = tmp / "old.sqlite"
                lines.append(show(args.compare, db, run(tree, args.range, db, args)))
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
        db = tmp / "new.sqlite"
        lines.append(show("current", db, run(ROOT, args.range, db, args)))
    if args.hand:
        print(f"hand analyse (seeds {args.range}) --jobs {args.jobs or 'all'}")
    else:
        print(f"hanabi analyse {args.range} --timeout {args.timeout} --jobs {args.jobs or 'all'}")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
