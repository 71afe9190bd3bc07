#!/usr/bin/env python3
"""Benchmark ``hand review``'s analysis on seeded random rounds.

Round k (k = 0 .. N-1): ``Deal.random(k)``, bids and cards from ``random.Random(k)`` (each
bid 0..3, then seeded random legal cards to the end), reviewed whole by
``solver.hand.review_round`` (four seats and the table, default budgets). Prints the
kernel in use and the CPU seconds per round (median, p90, max) beside wall time.

    python scripts/bench_hand_review.py --deals 30
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.hand import review_round
from solver.hand.rules import Deal, Round  # noqa: E402
from solver.hand.search import kernel  # noqa: E402


def bot_round(seed: int) -> tuple[Deal, list[int], list[int]]:
    rng = random.Random(seed)
    deal = Deal.random(seed)
    bids = [rng.randrange(4) for _ in range(4)]
    r = Round(deal, bids)
    while not r.is_over:
        r.apply(rng.choice(r.legal_moves()))
    return deal, bids, r.played


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    args = ap.parse_args()
    print(kernel.describe())
    cpu: list[float] = []
    wall: list[float] = []
    undecided = 0
    for k in range(args.deals):
        deal, bids, plays = bot_round(k)
        c0, w0 = time.process_time(), time.perf_counter()
        rv = review_round(deal, bids, plays)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        undecided += not rv.complete
    for name, xs in (("CPU", cpu), ("wall", wall)):
        print(f"{name}: median {statistics.median(xs):.2f} s, p90 {quantile(xs, 0.9):.2f} s, max {max(xs):.2f} s "
              f"({len(xs)} rounds)")
    print(f"rounds not complete within the budget: {undecided}")


if __name__ == "__main__":
    main()
