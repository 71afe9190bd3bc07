#!/usr/bin/env python3
"""Benchmark `solve` on reference decks and on random No Variant decks.

Random decks are made as ../shared/decks/README.md describes (``random.Random(id)``
shuffling the 50 cards, id = ``p{players}c1s{k}``), so their answers can be compared with
any other tool. For every group it prints: decided % (exact answers: the maximum with its bound
confirmed), agreement with the ``winnable`` labels where a file has them (a line of 25 for
a winnable deck, a proven bound below 25 for an unwinnable one), the max-score distribution, and mean / median /
p99 / max solve time (wall), and mean / median / total CPU time (every thread of the
process: CP-SAT's too).

    python scripts/bench_solve.py --random 200 --files ../shared/decks/*.jsonl --timeout 10
    python scripts/bench_solve.py --random 100 --compare HEAD~3   # same decks, older version too
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import benchlib
from benchlib import revision, run_previous

ROOT = Path(__file__).resolve().parents[1]


def random_deck(players: int, k: int) -> dict:
    """Random deck ``k`` for ``players`` (:func:`benchlib.random_deck`) as a labelled row."""
    return {"id": f"p{players}c1s{k}", "players": players, "deck": benchlib.random_deck(players, k)}


def run_one(args):
    item, timeout = args
    sys.path.insert(0, str(ROOT))
    from solver import game_from_json, solve  # (the public API: the same in older versions, for --compare)

    obj = {"deck": item["deck"]}
    if "variant" in item and item["variant"] != "No Variant":
        obj["options"] = {"variant": item["variant"]}
    rec = game_from_json(obj, item["id"], players=item["players"])
    t, c = time.perf_counter(), time.process_time()
    sol = solve(rec.game, timeout=timeout)
    dt, dc = time.perf_counter() - t, time.process_time() - c  # (CPU: every thread of the process)
    return {"id": item["id"], "players": item["players"], "group": item["group"], "max": sol.max_score,
            "upper": sol.upper_bound, "exact": sol.exact, "proof": sol.proof.kind, "time": dt, "cpu": dc,
            "winnable": item.get("winnable")}


def pct(x, n):
    return f"{100.0 * x / n:.1f}%" if n else "-"


def table(results, title):
    lines = [f"## {title}", "",
             "| group | players | decks | decided | label agreement | max-score distribution "
             "| mean | median | p99 | max | CPU mean | CPU median | CPU total |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    groups = {}
    for r in results:
        groups.setdefault((r["group"], r["players"]), []).append(r)
    for (g, p), rs in sorted(groups.items()):
        n = len(rs)
        decided = sum(r["exact"] for r in rs)
        labelled = [r for r in rs if r["winnable"] is not None]
        # agreement: a replayed line of 25 for "winnable", a proven bound below 25 otherwise
        agree = sum((r["max"] == 25) if r["winnable"] else (r["upper"] < 25) for r in labelled)
        ag = f"{agree}/{len(labelled)}" if labelled else "-"
        dist = Counter(r["max"] if r["exact"] else f"{r['max']}-{r['upper']}" for r in rs)
        dist_s = " ".join(f"{k}:{v}" for k, v in sorted(dist.items(), key=lambda kv: str(kv[0]), reverse=True))
        ts = sorted(r["time"] for r in rs)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        cs = sorted(r.get("cpu", float("nan")) for r in rs)
        lines.append(f"| {g} | {p} | {n} | {pct(decided, n)} | {ag} | {dist_s} | {1000 * statistics.mean(ts):.1f} ms"
                     f" | {1000 * statistics.median(ts):.1f} ms | {1000 * p99:.0f} ms | {1000 * ts[-1]:.0f} ms"
                     f" | {1000 * statistics.mean(cs):.1f} ms | {1000 * statistics.median(cs):.1f} ms"
                     f" | {sum(cs):.2f} s |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--random", type=int, default=100, help="random decks per player count (default 100)")
    ap.add_argument("--players", default="2,3,4,5,6", help="player counts for random decks")
    ap.add_argument("--files", nargs="*", default=[], help="JSONL deck files (id, players, deck, winnable)")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N decks of each file")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per deck (default 10)")
    ap.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1: clean timings)")
    ap.add_argument("--json", dest="json_out", help="also write all results to this JSON file")
    ap.add_argument("--compare", metavar="GITREF", help="run the same decks on an older version too")
    a = ap.parse_args(argv)

    items = []
    for p in [int(x) for x in a.players.split(",") if x]:
        for k in range(a.random):
            d = random_deck(p, k)
            d["group"] = "random"
            items.append(d)
    for f in a.files:
        with open(f) as fh:
            for i, line in enumerate(fh):
                if a.limit is not None and i >= a.limit:
                    break
                d = json.loads(line)
                d["group"] = Path(f).stem
                items.append(d)
    work = [(it, a.timeout) for it in items]
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as ex:
            results = list(ex.map(run_one, work, chunksize=4))
    else:
        results = [run_one(w) for w in work]
    print(table(results, f"this version ({revision(ROOT) or 'working tree'}), timeout {a.timeout:g} s"))
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(results))
    if a.compare:
        argv2 = ["--random", str(a.random), "--players", a.players, "--timeout", str(a.timeout), "--jobs",
                 str(a.jobs), "--files", *[str(Path(f).resolve()) for f in a.files]]
        if a.limit is not None:
            argv2 += ["--limit", str(a.limit)]
        old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), argv2)
        print()
        print(table(old, f"previous version ({a.compare}), same decks"))


if __name__ == "__main__":
    if os.environ.get("BENCH_ROOT"):
        ROOT = Path(os.environ["BENCH_ROOT"])
    main()
