#!/usr/bin/env python3
"""Cross-check the engines: search, SAT and CP-SAT on the same decks and positions.

Each engine runs alone (``solve(engine=...)``) and reports its best line (replayed in the
rules engine) and its proven upper bound. A *disagreement* is a contradiction: one engine's
line scores more than another engine's proven bound, or two engines that each closed their
gap (line == bound) found different maxima. There must be none.

Positions: random No Variant decks for 2-6 players (made as ../shared/decks/README.md
says), the decks of any JSONL files given with --files (e.g. ../shared/decks/*.jsonl),
and mid-game positions taken along the search's optimal line and along uniformly random
legal lines of random decks.

    python scripts/crosscheck.py --decks 100 --positions 100 --timeout 30
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.hanabi.methods.portfolio import solve  # noqa: E402
from solver.hanabi.rules import game_from_json  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from bench_solve import random_deck  # noqa: E402

ENGINES = ("search", "sat", "cpsat")


def cases(n_decks: int, n_positions: int, files: list[str], limit: int | None, seed: int):
    rng = random.Random(seed)
    for k in range(n_decks):
        p = 2 + k % 5
        d = random_deck(p, 100000 + k)
        g = game_from_json({"deck": d["deck"]}, d["id"], players=p).game
        yield d["id"], g.initial_state()
    for f in files:
        with open(f) as fh:
            for i, line in enumerate(fh):
                if limit is not None and i >= limit:
                    break
                d = json.loads(line)
                g = game_from_json({"deck": d["deck"]}, d["id"], players=d["players"]).game
                yield d["id"], g.initial_state()
    for k in range(n_positions):
        p = 2 + k % 5
        d = random_deck(p, 200000 + k)
        g = game_from_json({"deck": d["deck"]}, d["id"], players=p).game
        st = g.initial_state()
        if k % 2 == 0:  # along the optimal line
            opt_line = solve(st, timeout=10, engine="search").actions
            cut = rng.randrange(len(opt_line) + 1) if opt_line else 0
            for a in opt_line[:cut]:
                st.apply(a)
            yield f"{d['id']}@opt{cut}", st
        else:  # along a uniformly random legal line
            steps = rng.randrange(5, 45)
            for _ in range(steps):
                acts = st.legal_actions()
                if not acts or st.over:
                    break
                st.apply(rng.choice(acts))
            yield f"{d['id']}@rnd{st.turn}", st


def run_case(args):
    """Every engine alone on one position: {engine: (best line's score, bound, seconds)}."""
    name, st, engines, timeout = args
    out = {}
    for e in engines:
        t = time.perf_counter()
        sol = solve(st, timeout=timeout, engine=e)
        out[e] = (sol.max_score, sol.upper_bound, time.perf_counter() - t)
    return name, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decks", type=int, default=20, help="random decks (players cycle 2..6)")
    ap.add_argument("--positions", type=int, default=20, help="mid-game positions")
    ap.add_argument("--files", nargs="*", default=[], help="JSONL deck files")
    ap.add_argument("--limit", type=int, default=None, help="first N decks of each file")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per engine and position")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="positions solved in parallel (default 1: clean timings)")
    a = ap.parse_args(argv)
    engines = [e for e in a.engines.split(",") if e]
    times = {e: [] for e in engines}
    undecided = {e: 0 for e in engines}
    disagreements = []
    n = 0
    work = ((name, st, engines, a.timeout) for name, st in cases(a.decks, a.positions, a.files, a.limit, a.seed))
    if a.jobs > 1:
        import multiprocessing as mp

        pool = mp.get_context("fork").Pool(a.jobs)
        results = pool.imap(run_case, work)
    else:
        results = map(run_case, work)
    for name, out in results:
        n += 1
        res = {}
        for e in engines:
            lo, hi, dt = out[e]
            times[e].append(dt)
            res[e] = (lo, hi)
            undecided[e] += lo != hi
        for e1 in engines:
            for e2 in engines:
                lo1, hi1 = res[e1]
                lo2, hi2 = res[e2]
                if lo1 > hi2 or (e1 < e2 and lo1 == hi1 and lo2 == hi2 and lo1 != lo2):
                    disagreements.append((name, e1, res[e1], e2, res[e2]))
                    print(f"DISAGREEMENT {name}: {e1} line/bound {res[e1]} vs {e2} {res[e2]}", flush=True)
    print(f"{n} positions, {len(disagreements)} disagreements")
    print("| engine | mean | median | max | gap left open |")
    print("|---|---|---|---|---|")
    for e in engines:
        ts = times[e]
        print(f"| {e} | {statistics.mean(ts):.3f} s | {statistics.median(ts):.3f} s | {max(ts):.2f} s "
              f"| {undecided[e]} |")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
