#!/usr/bin/env python3
"""Benchmark the endgame chances (``solver.hanabi.chances``) on real hanab.live seeds.

Positions: for each player count and seed k = 1 .. N, the No Variant deck hanab.live deals
for ``p{P}v0s{k}``, played by the greedy strategy until at most ``--left`` cards remain in
the pile (``--left2`` for two players); a seed whose greedy game ends before that is
counted as such and skipped. Each position: ``chances(state, objective="win")``, the
target the most its cards allow, the node budget ``--nodes``, no clairvoyant value: the
position's exact P(target) (``--all-moves``: every move's exact value too, as ``hanabi
chances`` shows them). Prints
per player count the CPU seconds a position (median, p99, max) beside wall time, the share
exact within 10 CPU-s, the nodes and the peak memory of a worker.

    python scripts/bench_chances.py --seeds 100
    python scripts/bench_chances.py --seeds 100 --compare HEAD~1   # the same on an older commit too
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import project_module, revision, run_previous

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

GOAL_CPU = 10.0  # seconds a position, for 99% of them
GOAL_MEDIAN = 0.05


def position(players: int, seed: int, left: int):
    import solver
    game = solver.game_from_seed(f"p{players}v0s{seed}")
    state = game.initial_state()
    line, _ = solver.greedy_line(state)
    for a in line:
        if state.deck_left <= left:
            break
        state.apply(a)
    return state


def one(job: tuple[int, int, int, int, bool]) -> dict[str, Any]:
    players, seed, left, nodes, all_moves = job
    chances = project_module("solver.hanabi.chances", "solver.chances").chances
    state = position(players, seed, left)
    if state.over or state.deck_left > left:
        return {"players": players, "seed": seed, "skipped": True}
    t0 = time.process_time()
    w0 = time.perf_counter()
    r = chances(state, objective="win", budget=nodes, clairvoyant=False, exact_for=None if all_moves else [])
    cpu = time.process_time() - t0
    wall = time.perf_counter() - w0
    assert r.win is not None
    return {"players": players, "seed": seed, "skipped": False, "left": state.deck_left, "cpu": cpu, "wall": wall,
            "exact": r.moves_exact if all_moves else r.exact, "nodes": r.nodes, "p": [r.win.lo, r.win.hi, r.win.den],
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def report(rows: list[dict[str, Any]], title: str) -> str:
    out = [title]
    out.append(f"{'players':>7} {'cards':>5} {'positions':>9} {'skipped':>7} {'median s':>9} {'p99 s':>8} {'max s':>8} "
               f"{'<=10 s exact':>12} {'nodes med':>9} {'peak MiB':>8}")
    for p in sorted({r["players"] for r in rows}):
        rs = [r for r in rows if r["players"] == p and not r["skipped"]]
        sk = sum(1 for r in rows if r["players"] == p and r["skipped"])
        if not rs:
            out.append(f"{p:>7} {'-':>5} {0:>9} {sk:>7}")
            continue
        cpu = [r["cpu"] for r in rs]
        ok = sum(1 for r in rs if r["exact"] and r["cpu"] <= GOAL_CPU)
        out.append(f"{p:>7} {max(r['left'] for r in rs):>5} {len(rs):>9} {sk:>7} {statistics.median(cpu):>9.3f} "
                   f"{quantile(cpu, 0.99):>8.2f} {max(cpu):>8.2f} {100 * ok / len(rs):>11.1f}% "
                   f"{statistics.median(r['nodes'] for r in rs):>9.0f} {max(r['rss_mib'] for r in rs):>8.0f}")
    rs = [r for r in rows if not r["skipped"]]
    cpu = [r["cpu"] for r in rs]
    if rs:
        ok = sum(1 for r in rs if r["exact"] and r["cpu"] <= GOAL_CPU)
        out.append(f"all: {len(rs)} positions, CPU {sum(cpu):.1f} s (wall {sum(r['wall'] for r in rs):.1f} s), "
                   f"median {statistics.median(cpu):.3f} s, exact within {GOAL_CPU:.0f} s: {100 * ok / len(rs):.1f}% "
                   f"(goal: 99%, median under {GOAL_MEDIAN * 1000:.0f} ms)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=100, help="seeds per player count (default 100)")
    ap.add_argument("--players", default="2,3,4,5", help="player counts (default 2,3,4,5)")
    ap.add_argument("--left", type=int, default=8, help="cards left in the pile (default 8)")
    ap.add_argument("--left2", type=int, default=10, help="cards left for two players (default 10)")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="node budget a search (default 2,000,000)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--all-moves", action="store_true", help="every move's value exact too, not only the position's")
    ap.add_argument("--compare", metavar="GITREF", help="run the same on an older version too")
    ap.add_argument("--json", metavar="FILE", help="write the rows as JSON (used by --compare)")
    a = ap.parse_args(argv)
    players = [int(x) for x in a.players.split(",")]
    jobs = [(p, s, a.left2 if p == 2 else a.left, a.nodes, a.all_moves) for p in players for s in range(1, a.seeds + 1)]
    # (imported before the workers fork: they all run this one)
    kernel = project_module("solver.hanabi.chances.kernel", "solver.chances.kernel")
    print(f"{getattr(kernel, 'describe', lambda: 'chances kernel')()}; {a.jobs} workers", flush=True)
    w0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(a.jobs, maxtasksperchild=20) as pool:
        rows = pool.map(one, jobs, chunksize=1)
    wall = time.perf_counter() - w0
    if a.json:
        Path(a.json).write_text(json.dumps(rows))
    print(f"wall {wall:.1f} s")
    what = "every move's value" if a.all_moves else "the position's value"
    print(report(rows, f"this version ({revision(ROOT)}), {what}"))
    if a.compare:
        argv2 = ["--seeds", str(a.seeds), "--players", a.players, "--left", str(a.left), "--left2", str(a.left2),
                 "--nodes", str(a.nodes), "--jobs", str(a.jobs)] + (["--all-moves"] if a.all_moves else [])
        old = run_previous(Path(__file__).resolve().parents[1], a.compare, str(Path(__file__).resolve()), argv2,
                           pythonpath=True)
        print()
        print(report(old, f"previous version ({a.compare})"))
        same = sum(1 for x, y in zip(rows, old) if x.get("p") == y.get("p"))
        print(f"\nsame values: {same} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
