#!/usr/bin/env python3
"""Benchmark the two encodings alone (no search, no portfolio) on labelled decks.

Each deck is solved from turn 0 by SAT alone (``sat_max``) and/or CP-SAT alone
(``cpsat_max``), one deck at a time. A deck is *decided* when the engine returns a line
that replays in the rules engine to a finished game scoring M and a proven upper bound of
M. It *agrees* with its label when it is decided with M = perfect for a deck labelled
winnable, and with M < perfect for one labelled unwinnable. A *contradiction* is a line of
the perfect score on an unwinnable deck or a proven bound below perfect on a winnable one
(there must be none). Per engine it prints the decided count, the agreement with the
labels, and the mean / median / max time (wall time of the engine call, including the
model's construction), plus the machine's load average before and after (the times are
noisy on a shared machine).

    python scripts/bench_encodings.py --engine both --timeout 60
    python scripts/bench_encodings.py --engine cpsat --offset 10 --limit 5 --timeout 60 -v
    python scripts/bench_encodings.py --engine sat --limit 8 --compare HEAD~1

Times are wall seconds and CPU seconds of this process (all its threads) per engine call.
``--compare COMMIT`` runs the same decks on COMMIT too (a temporary worktree, imported
through ``BENCH_ROOT``; this script measures both) and prints its table under this one's.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

from benchlib import revision, run_previous  # noqa: E402

from solver.hanabi.rules import game_from_json  # noqa: E402

DEFAULT_FILE = ROOT.parent / "shared" / "decks" / "hard_2p.jsonl"


def load(path: Path, offset: int, limit: int | None) -> list[dict]:
    rows: list[dict] = []
    with open(path) as fh:
        for i, line in enumerate(fh):
            if i < offset:
                continue
            if limit is not None and len(rows) >= limit:
                break
            d = json.loads(line)
            d["index"] = i
            rows.append(d)
    return rows


def initial_state(item: dict):
    obj = {"deck": item["deck"]}
    if item.get("variant", "No Variant") != "No Variant":
        obj["options"] = {"variant": item["variant"]}
    return game_from_json(obj, item["id"], players=item["players"]).game.initial_state()


def replayed_score(state, actions) -> int | None:
    """The score of ``actions`` replayed from ``state`` (None if the line does not end the
    game); an illegal action raises."""
    st = state.copy().apply_all(actions, "line action")
    return st.score if st.over else None


def run_sat(state, timeout: float, workers: int) -> tuple[int | None, int, dict]:
    from solver.hanabi.methods.sat import sat_max

    res = sat_max(state, timeout=timeout)
    score = replayed_score(state, res.actions) if res.max_score >= 0 else None
    return score, res.upper_bound, {"calls": len(res.stats["calls"])}


def run_cpsat(state, timeout: float, workers: int) -> tuple[int | None, int, dict]:
    from solver.hanabi.methods.cpsat import cpsat_max

    res = cpsat_max(state, timeout=timeout, workers=workers)
    score = replayed_score(state, res.actions) if res.max_score is not None else None
    keep = ("status", "solved_by", "phases", "seed_score", "variables", "constraints")
    info = {k: res.stats.get(k) for k in keep if k in res.stats}
    info["status"] = res.status
    return score, res.upper_bound, info


ENGINES = {"sat": run_sat, "cpsat": run_cpsat}


def _short(phases) -> str:
    """CP-SAT's phases as ``target[-cap]:STATUS/seconds`` (e.g. ``25:INFEASIBLE/1.4s``)."""
    out = []
    for p in phases or []:
        span = f"{p['target']}" if p["target"] == p["upper"] else f"{p['target']}-{p['upper']}"
        out.append(f"{span}:{p['status']}/{p['time']:.1f}s")
    return ",".join(out) or "-"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE, help="JSONL decks (default: hard_2p.jsonl)")
    ap.add_argument("--engine", choices=("sat", "cpsat", "both"), default="both")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per deck and engine (default 60)")
    ap.add_argument("--offset", type=int, default=0, help="skip the first K decks")
    ap.add_argument("--limit", type=int, default=None, help="at most N decks")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT search workers (default 1, as cpsat_max)")
    ap.add_argument("--json", dest="json_out", type=Path, help="write every result to this JSON file")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per deck and engine")
    ap.add_argument("--compare", metavar="COMMIT", help="run the same decks on COMMIT too (in the same run)")
    a = ap.parse_args(argv)

    engines = ["sat", "cpsat"] if a.engine == "both" else [a.engine]
    items = load(a.file, a.offset, a.limit)
    load_before = os.getloadavg()
    results: dict[str, list[dict]] = {e: [] for e in engines}
    contradictions = []
    for item in items:
        state = initial_state(item)
        perfect = state.game.perfect_score
        for e in engines:
            t0, c0 = time.perf_counter(), time.process_time()
            score, upper, info = ENGINES[e](state, a.timeout, a.workers)
            dt, cpu = time.perf_counter() - t0, time.process_time() - c0
            decided = score is not None and score == upper
            label = item.get("winnable")
            agrees = decided and label is not None and (score == perfect) == bool(label)
            if label is not None and ((score == perfect and not label) or (upper < perfect and label)):
                contradictions.append((item["id"], e, score, upper, label))
            r = {"index": item["index"], "id": item["id"], "engine": e, "score": score, "upper": upper,
                 "decided": decided, "agrees": agrees, "winnable": label, "time": dt, "cpu": cpu, **info}
            results[e].append(r)
            if a.verbose:
                extra = " ".join(f"{k}={_short(v) if k == 'phases' else v}" for k, v in info.items()
                                 if k not in ("variables", "constraints"))
                print(f"{item['index']:4d} {item['id']:24s} {e:5s} line {score} bound {upper} "
                      f"{'decided' if decided else 'OPEN':7s} label {'W' if label else 'U'} "
                      f"{'ok' if agrees else '--'} {dt:7.2f} s (CPU {cpu:.2f} s)  {extra}", flush=True)
    load_after = os.getloadavg()

    rev = revision(ROOT) or "working tree"
    print(f"\n{a.file.name}: decks {a.offset}..{a.offset + len(items) - 1}, timeout {a.timeout:g} s, "
          f"CP-SAT workers {a.workers}, load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs)")
    print(f"this version ({rev}):")
    print(table(results, contradictions))
    open_ = {e: [r["index"] for r in results[e] if not r["agrees"]] for e in engines}
    for e in engines:
        if open_[e]:
            print(f"{e}: not decided in agreement with the label: decks {open_[e]}")
    for c in contradictions:
        print(f"CONTRADICTION {c[0]} {c[1]}: line {c[2]} bound {c[3]} label winnable={c[4]}")
    if a.json_out:
        a.json_out.write_text(json.dumps({"file": str(a.file), "timeout": a.timeout, "load_before": load_before,
                                          "load_after": load_after, "results": results,
                                          "contradictions": contradictions}, indent=1))
    if a.compare:
        argv2 = ["--file", str(a.file.resolve()), "--engine", a.engine, "--timeout", str(a.timeout),
                 "--offset", str(a.offset), "--workers", str(a.workers)]
        if a.limit is not None:
            argv2 += ["--limit", str(a.limit)]
        old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), argv2, pythonpath=True)
        print(f"\nprevious version ({a.compare}), same decks, same run:")
        print(table(old["results"], [tuple(c) for c in old.get("contradictions", [])]))
        for e in engines:
            new_cpu = sum(r["cpu"] for r in results[e])
            old_cpu = sum(r.get("cpu", r["time"]) for r in old["results"].get(e, []))
            print(f"{e}: CPU old / new {old_cpu:.2f} s / {new_cpu:.2f} s = {old_cpu / max(new_cpu, 1e-9):.2f}x")
    return 1 if contradictions else 0


def table(results: dict[str, list[dict]], contradictions: list[tuple]) -> str:
    """The summary table: per engine, decks decided and agreeing with their labels, wall
    times (mean, median, max) and the total CPU."""
    out = ["| engine | decks | decided | agree with label | contradictions | mean | median | max | CPU total |",
           "|---|---|---|---|---|---|---|---|---|"]
    for e, rs in results.items():
        ts = [r["time"] for r in rs]
        cpu = sum(r.get("cpu", 0.0) for r in rs)
        n_contra = sum(1 for c in contradictions if c[1] == e)
        out.append(f"| {e} | {len(rs)} | {sum(r['decided'] for r in rs)} | {sum(r['agrees'] for r in rs)} | "
                   f"{n_contra} | {statistics.mean(ts):.2f} s | {statistics.median(ts):.2f} s | {max(ts):.2f} s "
                   f"| {cpu:.2f} s |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
