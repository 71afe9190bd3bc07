#!/usr/bin/env python3
"""Benchmark the Hand solver on seeded random deals (``Deal.random(k)``, k = 0 .. N-1).

For each deal: one seat's paranoid bounds and exact set (seat k % 4), the full 4 x 9 bid
table, the cooperative set of trick vectors, and best card in a 4-card endgame (the deal
played on for 4 tricks by a seeded random legal line, the mover's bid 1). Prints CPU
seconds (median, p99, max) beside wall time for each, with the issue's goals.

    python scripts/bench_hand.py --deals 100
    python scripts/bench_hand.py --deals 50 --tasks bounds,best --compare HEAD~3   # same deals, older version too
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from benchlib import revision, run_previous

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("bounds", "bids", "coop", "best")
GOALS = {"bounds": "median <= 0.2 s, p99 <= 3 s", "bids": "median <= 1 s", "coop": "median <= 2 s",
         "best": "<= 5 ms"}
TITLES = {"bounds": "one seat: bounds + exact set", "bids": "bid table, 4 x 9", "coop": "cooperative set",
          "best": "best card, 4-card endgame"}


def endgame(deal, seed: int):
    """The deal after 4 tricks of a seeded random legal line: a 4-card endgame."""
    from solver.hand.rules import Round

    rng = random.Random(seed)
    r = Round(deal)
    while r.tricks_left > 4:
        r.push(rng.choice(r.legal_moves()).index)
    return r.position()


def run_one(k: int, tasks: list[str]) -> dict:
    sys.path.insert(0, str(ROOT))
    from solver.hand import best_cards, bid_table, reachable, seat_bounds
    from solver.hand.rules import Deal

    d = Deal.random(k)
    out: dict = {"deal": k}
    for task in tasks:
        if task == "best":
            pos = endgame(d, k)
        t, c = time.perf_counter(), time.process_time()
        info: object  # the task's answer, as JSON
        if task == "bounds":
            res = seat_bounds(d, k % 4)
            info = [res.most, res.fewest, list(res.exact) if res.exact is not None else None]
        elif task == "bids":
            tab = bid_table(d)
            info = [[r.best_bid, r.best_score] for r in tab.rows]
        elif task == "coop":
            vec = reachable(d).vectors
            info = None if vec is None else len(vec)
        else:
            b = best_cards(pos, 1)
            info = [[str(ch.cards[0]), ch.score] for ch in b.choices]
        out[task] = {"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "answer": info}
    return out


def quantiles(xs: list[float]) -> tuple[float, float, float]:
    s = sorted(xs)
    return statistics.median(s), s[min(len(s) - 1, int(0.99 * len(s)))], s[-1]


def fmt(x: float) -> str:
    return f"{1000 * x:.1f} ms" if x < 1 else f"{x:.2f} s"


def table(results: list[dict], tasks: list[str], title: str) -> str:
    lines = [f"## {title}", "", "| task | deals | CPU median | CPU p99 | CPU max | wall median | wall p99 | wall max "
             "| goal (CPU) |", "|---|---|---|---|---|---|---|---|---|"]
    for task in tasks:
        rs = [r[task] for r in results if task in r]
        if not rs:
            continue
        cm, cp, cx = quantiles([r["cpu"] for r in rs])
        wm, wp, wx = quantiles([r["wall"] for r in rs])
        lines.append(f"| {TITLES[task]} | {len(rs)} | {fmt(cm)} | {fmt(cp)} | {fmt(cx)} | {fmt(wm)} | {fmt(wp)} "
                     f"| {fmt(wx)} | {GOALS[task]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="seeded random deals 0 .. N-1 (default 100)")
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed (default 0)")
    ap.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated, of {', '.join(TASKS)}")
    ap.add_argument("--json", dest="json_out", help="also write every result to this JSON file")
    ap.add_argument("--compare", metavar="GITREF", help="run the same deals on an older version too")
    a = ap.parse_args(argv)
    tasks = [t for t in a.tasks.split(",") if t]
    bad = [t for t in tasks if t not in TASKS]
    if bad:
        ap.error(f"unknown task {bad[0]!r} (one of {', '.join(TASKS)})")
    results = [run_one(k, tasks) for k in range(a.first, a.first + a.deals)]
    deals = f"deals {a.first}..{a.first + a.deals - 1}"
    print(table(results, tasks, f"this version ({revision(ROOT) or 'working tree'}), {deals}"))
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(results))
    if a.compare:
        argv2 = ["--deals", str(a.deals), "--first", str(a.first), "--tasks", ",".join(tasks)]
        old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), argv2, pythonpath=True)
        print()
        print(table(old, tasks, f"previous version ({a.compare}), same deals"))
        same = sum(o.get(t, {}).get("answer") == n.get(t, {}).get("answer")
                   for o, n in zip(old, results) for t in tasks)
        print(f"\nsame answers: {same} of {len(results) * len(tasks)}")


if __name__ == "__main__":
    if os.environ.get("BENCH_ROOT"):
        ROOT = Path(os.environ["BENCH_ROOT"])
    main()
