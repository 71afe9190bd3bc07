#!/usr/bin/env python3
"""Search-kernel speed: nodes per CPU-second (and per wall second) of the pure kernel
(solver/hanabi/search/*.py) and the compiled one (solver.kernel.compiled, the mypyc build), on the same
fixed decks with deterministic node budgets, so both run exactly the same nodes (checked).

Decks, from the deal, ``--decks`` per player count and engine (at most 4): 2 players, the
first of tests/data's hard_2p sample; 3-6 players, random decks of scripts/bench_solve.py
(``p{players}c1s{k}``) on which that engine does not settle the perfect score within
3,000 nodes (most random decks it settles in under 100: a dive, not a search; these were
found by scanning k = 1, 2, ... and are listed in DECKS). Each search asks the perfect
score with a budget of ``--nodes`` nodes (the real game: ``Search``; the relaxed game:
``RelaxedSearch``), a fresh position and table per deck.
CPU time is the process's (``time.process_time``), wall time beside it; ``--repeat R``
keeps the fastest of R runs of each (deck, engine, kernel).

    .venv/bin/python scripts/bench_search.py                  # both kernels
    .venv/bin/python scripts/bench_search.py --nodes 5000 --decks 2 --kernels pure
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from benchlib import random_deck

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.errors import SearchTimeout  # noqa: E402
from solver.hanabi.rules import game_from_json  # noqa: E402
from solver.hanabi.search import kernel  # noqa: E402

HARD = ROOT / "tests" / "data" / "decks" / "hard_2p_first20.jsonl"


# the random decks (k of p{players}c1s{k}) each engine does not settle within 3,000 nodes
DECKS = {
    "search": {3: [98, 116, 324, 348], 4: [130, 431, 502, 704], 5: [116, 168, 197, 264], 6: [145, 147, 228, 229]},
    "relaxed": {3: [17, 48, 86, 113], 4: [5, 13, 20, 42], 5: [1, 5, 7, 10], 6: [4, 8, 12, 13]},
}


def decks(engine: str, per_count: int) -> list[tuple[str, int, list[dict]]]:
    """(id, players, deck) of ``engine``'s benchmark decks."""
    out = []
    for line in HARD.read_text().splitlines()[:per_count]:
        o = json.loads(line)
        out.append((o["id"], o["players"], o["deck"]))
    for players, ks in DECKS[engine].items():
        out.extend((f"p{players}c1s{k}", players, random_deck(players, k)) for k in ks[:per_count])
    return out


def run(k, engine: str, state, nodes: int) -> tuple[int, float, float]:
    """(nodes, CPU s, wall s) of one search of kernel ``k`` from ``state``."""
    cls = k.dfs.Search if engine == "search" else k.relaxed.RelaxedSearch
    pos = k.position.Position(state)
    eng = cls(pos, None, nodes)
    c, t = time.process_time(), time.perf_counter()
    try:
        eng.reach(pos.perfect)
    except SearchTimeout:
        pass
    return eng.nodes, time.process_time() - c, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=20_000, help="node budget per search (default 20000)")
    ap.add_argument("--decks", type=int, default=2, help="decks per player count and engine, 1-4 (default 2)")
    ap.add_argument("--repeat", type=int, default=1, help="keep the fastest of R runs (default 1)")
    ap.add_argument("--kernels", default="pure,compiled", help="which kernels, in this order (default pure,compiled)")
    args = ap.parse_args()

    kernels = {}
    for name in args.kernels.split(","):
        if name == "pure":
            kernels[name] = kernel.load("pure")
        elif name == "compiled":
            compiled, why = kernel.compiled_kernel()
            if compiled is None:
                sys.exit(f"bench_search: {why}")
            kernels[name] = compiled
        else:
            sys.exit(f"bench_search: unknown kernel {name!r} (pure, compiled)")
    games = {engine: [(ident, players, game_from_json({"deck": deck}, ident, players=players).game.initial_state())
                      for ident, players, deck in decks(engine, args.decks)] for engine in ("search", "relaxed")}

    print(f"# {args.decks} decks per player count and engine, {args.nodes} nodes per search, "
          f"best of {args.repeat}; kernel in use by the project: {kernel.IMPLEMENTATION}")
    print()
    print("| engine | players | kernel | nodes | CPU s | wall s | nodes / CPU-s | nodes / wall-s | CPU speed-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    totals: dict[tuple[str, str], list[float]] = {}
    for engine in ("search", "relaxed"):
        for players in range(2, 7):
            row: dict[str, tuple[int, float, float]] = {}
            for name, k in kernels.items():
                n_sum, c_sum, w_sum = 0, 0.0, 0.0
                for _, p, st in games[engine]:
                    if p != players:
                        continue
                    best = None
                    for _ in range(args.repeat):
                        got = run(k, engine, st, args.nodes)
                        if best is None or got[1] < best[1]:
                            best = got
                    assert best is not None
                    n_sum, c_sum, w_sum = n_sum + best[0], c_sum + best[1], w_sum + best[2]
                row[name] = (n_sum, c_sum, w_sum)
                t = totals.setdefault((engine, name), [0, 0.0, 0.0])
                t[0], t[1], t[2] = t[0] + n_sum, t[1] + c_sum, t[2] + w_sum
            counts = {n for n, _, _ in row.values()}
            if len(counts) > 1:
                sys.exit(f"bench_search: the kernels ran different node counts ({engine}, {players} players): {row}")
            base = row[next(iter(row))][1]
            for name, (n, c, w) in row.items():
                print(f"| {engine} | {players} | {name} | {n} | {c:.2f} | {w:.2f} | {n / c:,.0f} | {n / w:,.0f} | "
                      f"{base / c:.2f}x |")
    print()
    for engine in ("search", "relaxed"):
        first: float | None = None  # the first kernel's CPU seconds
        for name in kernels:
            t_nodes, t_cpu, t_wall = totals[(engine, name)]
            first = first or t_cpu
            print(f"{engine:8} {name:9} {int(t_nodes):>9} nodes  {t_cpu:7.2f} CPU s  {t_wall:7.2f} wall s  "
                  f"{t_nodes / t_cpu:>9,.0f} nodes/CPU-s  {t_nodes / t_wall:>9,.0f} nodes/wall-s  "
                  f"{first / t_cpu:5.2f}x")


if __name__ == "__main__":
    main()
