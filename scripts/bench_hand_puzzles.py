#!/usr/bin/env python3
"""Benchmark of the Hand puzzle generator and checker (docs/hand.md, "Endgame puzzles").

Generates N puzzles of one seed (the puzzles ``hand puzzle generate --count N --seed S``
makes, in the same order: attempts 0, 1, 2, ... each tried by ``generate_one``, spread over
``--jobs`` processes and taken in attempt order), then checks every one with the checker
(``check_puzzle``, as ``hand puzzle check`` does). Prints wall time and CPU seconds of the
whole process tree (this process and its worker processes: forked, and waited for, so
``RUSAGE_CHILDREN`` holds their CPU) for each phase, and the issue's goal (100 puzzles
generated and checked within 2 minutes on 2 cores). Exit code 1 if a puzzle is missing or
fails its check.

    python scripts/bench_hand_puzzles.py                        # 100 puzzles, seed 1, 2 jobs
    python scripts/bench_hand_puzzles.py --count 40 --compare main   # the same on an older commit too
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchlib import revision, run_previous

ROOT = Path(__file__).resolve().parents[1]
GOAL_WALL = 120.0  # seconds, for 100 puzzles on 2 cores
GOAL_COUNT = 100

_OPTS: dict[str, Any] = {}


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and of its children waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime


def _attempt(a: int) -> tuple[int, str | None]:
    """Attempt ``a`` of the seed: (a, the puzzle's JSON text or None)."""
    from puzzles.hand import generate_one

    pz = generate_one(_OPTS["seed"], a, _OPTS["kind"], _OPTS["difficulty"])
    return a, None if pz is None else pz.dumps()


def _check(text: str) -> tuple[str, bool, str, float]:
    """(id, valid, reason, wall seconds) of one puzzle's check, from its JSON text."""
    from puzzles.hand import HandPuzzle, check_puzzle

    t = time.perf_counter()
    pz = HandPuzzle.from_json(json.loads(text))
    res = check_puzzle(pz)
    return pz.id, res.valid, res.reason, time.perf_counter() - t


def _pool(jobs: int) -> Any:
    # forked workers (this process has no thread of its own), so that they are this
    # process's children and are waited for: their CPU shows in RUSAGE_CHILDREN
    return multiprocessing.get_context("fork").Pool(jobs)


def generate_phase(count: int, jobs: int, limit: int) -> tuple[list[str], int]:
    """(the JSON texts of the first ``count`` puzzles in attempt order, the attempts used)."""
    found: list[str] = []
    used = 0
    if jobs <= 1:
        results: Any = map(_attempt, range(limit))
        pool = None
    else:
        pool = _pool(jobs)
        results = pool.imap(_attempt, range(limit), chunksize=1)  # in attempt order
    try:
        for a, text in results:
            used = a + 1
            if text is not None:
                found.append(text)
                if len(found) >= count:
                    break
    finally:
        if pool is not None:
            pool.terminate()  # the attempts after the last puzzle needed are not wanted
            pool.join()
    return found, used


def check_phase(texts: list[str], jobs: int) -> list[tuple[str, bool, str, float]]:
    if jobs <= 1:
        return [_check(t) for t in texts]
    pool = _pool(jobs)
    try:
        return pool.map(_check, texts, chunksize=1)
    finally:
        pool.close()
        pool.join()


def run(count: int, seed: int, jobs: int, kind: str | None, difficulty: str | None) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    import puzzles.hand  # noqa: F401  (imported once here, inherited by the forked workers)

    _OPTS.update(seed=seed, kind=kind, difficulty=difficulty)
    w0, c0 = time.perf_counter(), tree_cpu()
    texts, attempts = generate_phase(count, jobs, 200 * max(count, 1))
    w1, c1 = time.perf_counter(), tree_cpu()
    checks = check_phase(texts, jobs)
    w2, c2 = time.perf_counter(), tree_cpu()
    objs = [json.loads(t) for t in texts]
    return {
        "count": count, "seed": seed, "jobs": jobs, "made": len(texts), "attempts": attempts,
        "gen_wall": w1 - w0, "gen_cpu": c1 - c0, "check_wall": w2 - w1, "check_cpu": c2 - c1,
        "check_each": [dt for *_, dt in checks],
        "invalid": [f"{pid}: {why}" for pid, ok, why, _ in checks if not ok],
        "ids": [o["id"] for o in objs],
        "digest": hashlib.sha256("".join(texts).encode()).hexdigest()[:16],
        "kinds": dict(Counter(o["question"]["kind"] for o in objs)),
        "difficulty": dict(Counter(o["metadata"]["difficulty"] for o in objs)),
        "sizes": dict(Counter(str(o["metadata"]["features"]["cards_per_hand"]) for o in objs)),
    }


def report(r: dict[str, Any], title: str) -> str:
    n = r["made"]
    each = sorted(r["check_each"]) or [0.0]
    wall, cpu = r["gen_wall"] + r["check_wall"], r["gen_cpu"] + r["check_cpu"]
    lines = [
        f"## {title}",
        f"seed {r['seed']}, {r['jobs']} job{'s' if r['jobs'] != 1 else ''}: {n} of {r['count']} puzzles from "
        f"{r['attempts']} attempts (puzzles digest {r['digest']})",
        f"generate: wall {r['gen_wall']:.1f} s, CPU {r['gen_cpu']:.1f} s "
        f"({r['gen_cpu'] / max(n, 1):.2f} s CPU a puzzle)",
        f"check:    wall {r['check_wall']:.1f} s, CPU {r['check_cpu']:.1f} s; {n - len(r['invalid'])} valid, "
        f"{len(r['invalid'])} invalid; per puzzle median {statistics.median(each):.3f} s, max {each[-1]:.3f} s (wall)",
        f"total:    wall {wall:.1f} s, CPU {cpu:.1f} s",
        "kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(r["kinds"].items()))
        + "; difficulty: " + ", ".join(f"{d} {r['difficulty'].get(d, 0)}" for d in ("easy", "medium", "hard"))
        + "; cards a hand: " + ", ".join(f"{k}: {v}" for k, v in sorted(r["sizes"].items())),
    ]
    if r["count"] == GOAL_COUNT and r["jobs"] <= 2:
        met = "met" if wall <= GOAL_WALL and n == r["count"] and not r["invalid"] else "NOT met"
        lines.append(f"goal: {GOAL_COUNT} puzzles generated and checked within {GOAL_WALL:.0f} s on 2 cores: "
                     f"{met} ({wall:.1f} s wall)")
    for bad in r["invalid"]:
        lines.append(f"  INVALID {bad}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100, help="puzzles to generate (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="the generator's seed (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="processes for generating and for checking (default 2)")
    ap.add_argument("--kind", choices=("safe", "table"), default=None, help="only this kind (default both)")
    ap.add_argument("--difficulty", choices=("easy", "medium", "hard"), default=None)
    ap.add_argument("--json", dest="json_out", help="also write the results to this JSON file")
    ap.add_argument("--compare", metavar="GITREF", help="run the same on an older version too")
    a = ap.parse_args(argv)
    if a.count < 1 or a.jobs < 1:
        ap.error("--count and --jobs must be at least 1")
    r = run(a.count, a.seed, a.jobs, a.kind, a.difficulty)
    print(report(r, f"this version ({revision(ROOT) or 'working tree'})"))
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(r))
    ok = r["made"] == a.count and not r["invalid"]
    if a.compare:
        argv2 = ["--count", str(a.count), "--seed", str(a.seed), "--jobs", str(a.jobs)]
        argv2 += ["--kind", a.kind] if a.kind else []
        argv2 += ["--difficulty", a.difficulty] if a.difficulty else []
        old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), argv2, pythonpath=True)
        print()
        print(report(old, f"previous version ({a.compare}), same seed"))
        print(f"\nsame puzzles: {'yes' if old['digest'] == r['digest'] else 'no'} "
              f"({sum(x == y for x, y in zip(old['ids'], r['ids']))} of {len(r['ids'])} ids in the same place)")
    return 0 if ok or os.environ.get("BENCH_ROOT") else 1  # the older run (--compare) reports, never fails


if __name__ == "__main__":
    if os.environ.get("BENCH_ROOT"):
        ROOT = Path(os.environ["BENCH_ROOT"])
    sys.exit(main())
