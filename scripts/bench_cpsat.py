#!/usr/bin/env python3
"""Benchmark CP-SAT's confirmation on the unwinnable hard decks, in deterministic time.

On an unwinnable deck the portfolio proves "25 is unreachable" with SAT and then asks
CP-SAT to confirm it (``portfolio._Run._cpsat``): ``cpsat_max(state, hint=best_line,
deterministic_time=CONFIRM_CPSAT_DTIME, target=best + 1, seed_tries=0)``. With a best
line of 24 that call is the feasibility question "can the game reach 25?" (phase 1,
which must come back INFEASIBLE); with a best line of 23 it is "can it reach 24 or
more?" (before ``target`` existed: "25?" and then "24?", in two phases). A version
whose ``cpsat_max`` has no ``target`` is called as its portfolio called it (no
``target``, 16 greedy playouts). This script makes exactly that call on each chosen
deck, one deck at a time, and prints per deck and in total CP-SAT's
**deterministic time** (a measure of its work that does not depend on the machine's
load: compare versions with it), beside CPU and wall time of the whole call (greedy
seed lines, the model's construction and presolve included) and the model's size.
CP-SAT's deterministic time counts its search and a few presolve steps, but not most
of its presolve, nor the Python model building: on a fast model those are most of the
CPU, so read the CPU column too (from the same run, the machine's load being equal).

The best lines (the hints) come from ``solve(game, timeout=10, confirm=False)`` run with
*this* tree's solver (the portfolio's best line at the moment it confirms); they are
computed once and kept in ``--lines FILE`` (reused when it exists), so two versions are
asked the same questions with the same hints. Decks the named bounds already decide (their
bound meets the best line: no CP-SAT is asked there) are left out, as are winnable ones.

    python scripts/bench_cpsat.py --limit 30                     # the first 30 such decks
    python scripts/bench_cpsat.py --max 23 --lines /tmp/lines.json # also the max-23 decks
    python scripts/bench_cpsat.py --ids rama_old_decks-1,rama_hard_decks-36 -v
    python scripts/bench_cpsat.py --limit 30 --compare main       # the same decks on main too

``--compare COMMIT`` checks COMMIT out in a temporary worktree and runs this script there
(``BENCH_ROOT``: the old solver is imported, this script and its hints are reused), then
prints both tables and the per-deck ratio of deterministic times.
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import revision, run_previous

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "decks" / "hard_2p.jsonl"
if not DEFAULT_FILE.exists():  # a worktree next to the main checkout
    DEFAULT_FILE = Path("/work/shared/decks/hard_2p.jsonl")


def _import_root():
    if str(ROOT) not in sys.path[:1]:
        sys.path.insert(0, str(ROOT))


def load_decks(path: Path) -> list[dict]:
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def initial_state(item: dict):
    from solver.hanabi.rules import game_from_json

    obj = {"deck": item["deck"]}
    if item.get("variant", "No Variant") != "No Variant":
        obj["options"] = {"variant": item["variant"]}
    return game_from_json(obj, item["id"], players=item["players"]).game.initial_state()


def make_lines(decks: list[dict], timeout: float, quiet: bool) -> dict:
    """For each unwinnable deck: the portfolio's best line before confirmation, its score,
    the SAT-proved bound, and the named bound (with this tree's solver)."""
    from solver.hanabi.methods.portfolio import solve
    from solver.hanabi.search.bounds import named_bound
    from solver.hanabi.search.position import Position

    out = {}
    for i, d in enumerate(decks):
        if d.get("winnable", False):
            continue
        st = initial_state(d)
        static = named_bound(Position(st))[0]
        sol = solve(st, timeout=timeout, confirm=False)
        rec = {"static": static, "best": sol.max_score, "upper": sol.upper_bound,
               "actions": [a.to_json() for a in sol.actions]}
        out[d["id"]] = rec
        if not quiet:
            print(f"  lines {i + 1}/{len(decks)} {d['id']}: {rec.get('best')} (bound {rec.get('upper', static)})",
                  file=sys.stderr)
    return out


def confirm_one(item: dict, rec: dict, dtime: float, params: dict | None, extra: dict | None = None) -> dict:
    """The portfolio's CP-SAT confirmation call on one deck; its figures."""
    from solver.hanabi.methods.cpsat import cpsat_max
    from solver.hanabi.rules import Action

    st = initial_state(item)
    hint = [Action.from_json(a) for a in rec["actions"]]
    kw = dict(extra or {})
    if "target" in inspect.signature(cpsat_max).parameters:  # as the portfolio asks since it has one
        kw.setdefault("target", rec["best"] + 1)
        kw.setdefault("seed_tries", 0)
    if params:
        kw["params"] = params
    t, c = time.perf_counter(), time.process_time()
    res = cpsat_max(st, hint=hint, deterministic_time=dtime, **kw)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    phases = res.stats.get("phases", [])
    return {
        "id": item["id"], "best": rec["best"], "status": res.status, "upper": res.upper_bound,
        "solved_by": res.stats.get("solved_by"),
        "confirmed": res.upper_bound <= rec["best"] and str(res.stats.get("solved_by", "")).startswith("cpsat"),
        "dtime": sum(p.get("deterministic_time", 0.0) for p in phases),
        "phases": [{"target": p["target"], "status": p["status"], "dtime": p.get("deterministic_time"),
                    "time": p.get("time"), "build": p.get("build_time")} for p in phases],
        "cpu": cpu, "wall": wall, "build": res.stats.get("build_time"),
        "variables": res.stats.get("variables"), "constraints": res.stats.get("constraints"),
        "branches": res.stats.get("branches"), "conflicts": res.stats.get("conflicts"),
    }


def summary(rows: list[dict], title: str) -> str:
    def col(key, fmt):
        xs = [r[key] for r in rows if r.get(key) is not None]
        if not xs:
            return "-", "-", "-", "-"
        return (fmt.format(statistics.mean(xs)), fmt.format(statistics.median(xs)), fmt.format(max(xs)),
                fmt.format(sum(xs)))

    n = len(rows)
    ok = sum(r["confirmed"] for r in rows)
    lines = [f"## {title}", "",
             f"{n} decks, {ok} confirmed (CP-SAT proved best + 1 unreachable)", "",
             "| measure | mean | median | max | total |", "|---|---|---|---|---|"]
    for label, key, fmt in (("deterministic time", "dtime", "{:.3f}"), ("CPU s (whole call)", "cpu", "{:.3f}"),
                            ("wall s (whole call)", "wall", "{:.3f}"), ("build s (Python)", "build", "{:.3f}"),
                            ("variables", "variables", "{:.0f}"), ("constraints", "constraints", "{:.0f}"),
                            ("conflicts", "conflicts", "{:.0f}")):
        mean, med, mx, tot = col(key, fmt)
        lines.append(f"| {label} | {mean} | {med} | {mx} | {tot} |")
    by_target: dict[int, list[float]] = {}
    for r in rows:
        for p in r["phases"]:
            by_target.setdefault(p["target"], []).append(p["dtime"] or 0.0)
    for t, xs in sorted(by_target.items(), reverse=True):
        lines.append(f"| dtime of the phase asking {t} ({len(xs)} decks) | {statistics.mean(xs):.3f} "
                     f"| {statistics.median(xs):.3f} | {max(xs):.3f} | {sum(xs):.3f} |")
    return "\n".join(lines)


def per_deck(rows: list[dict]) -> str:
    out = ["| deck | best | status | confirmed | dtime (per phase) | CPU s | wall s | build s | vars | cons |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ph = " + ".join(f"{p['target']}:{p['dtime']}" for p in r["phases"])
        out.append(f"| {r['id']} | {r['best']} | {r['status']} | {r['confirmed']} | {r['dtime']:.3f} ({ph}) "
                   f"| {r['cpu']:.2f} | {r['wall']:.2f} | {r['build'] or 0:.2f} | {r['variables']} "
                   f"| {r['constraints']} |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=str(DEFAULT_FILE), help="JSONL decks with winnable labels (default hard_2p)")
    ap.add_argument("--ids", default=None, help="comma-separated deck ids (default: every eligible deck)")
    ap.add_argument("--offset", type=int, default=0, help="skip the first N eligible decks")
    ap.add_argument("--limit", type=int, default=None, help="at most N eligible decks")
    ap.add_argument("--max", type=int, choices=(23, 24), default=24,
                    help="24 (default): decks whose best line scores 24 (the 25 question alone); "
                         "23: also those of 23 (the 25 question, then the 24 question)")
    ap.add_argument("--lines", default=None, help="JSON cache of the hint lines (made when missing)")
    ap.add_argument("--lines-timeout", type=float, default=10.0, help="solve timeout when making lines")
    ap.add_argument("--dtime", type=float, default=None,
                    help="deterministic budget per call (default: the portfolio's CONFIRM_CPSAT_DTIME)")
    ap.add_argument("--params", default=None, help='extra CP-SAT parameters as JSON, e.g. \'{"symmetry_level": 0}\'')
    ap.add_argument("--kwargs", default=None,
                    help='extra keyword arguments of cpsat_max as JSON, e.g. \'{"symmetry": false}\' (for experiments)')
    ap.add_argument("--json", dest="json_out", help="also write the per-deck figures to this JSON file")
    ap.add_argument("--compare", metavar="COMMIT", help="run the same decks with the same hints on COMMIT too")
    ap.add_argument("-v", "--verbose", action="store_true", help="print a line per deck as it finishes")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    a = ap.parse_args(argv)
    _import_root()

    decks = load_decks(Path(a.file))
    if a.ids:
        want = a.ids.split(",")
        by_id = {d["id"]: d for d in decks}
        missing = [i for i in want if i not in by_id]
        if missing:
            ap.error(f"unknown deck ids: {', '.join(missing)}")
        decks = [by_id[i] for i in want]
    cache = Path(a.lines) if a.lines else None
    lines = json.loads(cache.read_text()) if cache and cache.exists() else {}
    todo = [d for d in decks if not d.get("winnable", False) and d["id"] not in lines]
    if todo:
        lines.update(make_lines(todo, a.lines_timeout, a.quiet))
        if cache:
            cache.write_text(json.dumps(lines))
    # the decks where the portfolio asks CP-SAT: the named bound is above the best line
    # (SAT proved best + 1 unreachable)
    eligible = [d for d in decks if d["id"] in lines and lines[d["id"]]["static"] > lines[d["id"]]["best"]
                and lines[d["id"]]["upper"] == lines[d["id"]]["best"] and lines[d["id"]]["best"] >= a.max]
    eligible = eligible[a.offset:]
    if a.limit is not None:
        eligible = eligible[:a.limit]

    if a.dtime is None:
        from solver.hanabi.methods.portfolio import CONFIRM_CPSAT_DTIME
        a.dtime = CONFIRM_CPSAT_DTIME
    params = json.loads(a.params) if a.params else None
    rows = []
    for i, d in enumerate(eligible):
        r = confirm_one(d, lines[d["id"]], a.dtime, params, json.loads(a.kwargs) if a.kwargs else None)
        rows.append(r)
        if a.verbose:
            ph = " + ".join(f"{p['target']}:{p['dtime']}" for p in r["phases"])
            print(f"{i + 1}/{len(eligible)} {r['id']} best {r['best']} {r['status']} confirmed={r['confirmed']} "
                  f"dtime {r['dtime']:.3f} ({ph}) cpu {r['cpu']:.2f} wall {r['wall']:.2f} "
                  f"vars {r['variables']} cons {r['constraints']}", file=sys.stderr, flush=True)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(rows))
    rev = revision(ROOT)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    name = f"{rev}{'+changes' if dirty else ''}" if rev else "working tree"
    if os.environ.get("BENCH_CPSAT_CHILD"):
        return
    print(summary(rows, f"this version ({name}), budget {a.dtime:g} dtime per call"))
    if a.verbose:
        print()
        print(per_deck(rows))
    if a.compare:
        with tempfile.TemporaryDirectory() as tmp:
            keep = Path(tmp) / "lines.json"
            keep.write_text(json.dumps(lines))
            argv2 = ["--file", str(Path(a.file).resolve()), "--ids", ",".join(d["id"] for d in eligible),
                     "--lines", str(keep), "--max", "23", "--dtime", str(a.dtime), "--quiet"]
            if a.params:
                argv2 += ["--params", a.params]
            if a.kwargs:
                argv2 += ["--kwargs", a.kwargs]
            old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), argv2,
                               env={"BENCH_CPSAT_CHILD": "1"}, quiet=False)
        print()
        print(summary(old, f"previous version ({a.compare}), same decks, same hints"))
        olds = {r["id"]: r for r in old}
        ratios = [olds[r["id"]]["dtime"] / r["dtime"] for r in rows if r["id"] in olds and r["dtime"] > 0]
        if ratios:
            tot_new = sum(r["dtime"] for r in rows)
            tot_old = sum(r["dtime"] for r in old)
            print()
            print(f"deterministic time old / new: total {tot_old:.2f} / {tot_new:.2f} = "
                  f"{tot_old / max(tot_new, 1e-9):.2f}x; per deck median {statistics.median(ratios):.2f}x, "
                  f"min {min(ratios):.2f}x, max {max(ratios):.2f}x")
            if a.verbose:
                print()
                print("| deck | old dtime | new dtime | old/new |")
                print("|---|---|---|---|")
                for r in rows:
                    o = olds.get(r["id"])
                    if o:
                        print(f"| {r['id']} | {o['dtime']:.3f} | {r['dtime']:.3f} "
                              f"| {o['dtime'] / max(r['dtime'], 1e-9):.2f} |")


if __name__ == "__main__":
    if os.environ.get("BENCH_ROOT"):
        ROOT = Path(os.environ["BENCH_ROOT"])
    main()
