#!/usr/bin/env python3
"""Memory figures: the search's transposition table (bytes per entry, measured with
tracemalloc on real solves, and the cap), and the peak memory of ``hanabi analyse`` on a
large seed range during its first seconds (the parent and its worker processes, sampled
from /proc), then the run is killed. ``--compare GITREF`` measures an older version too
(a git worktree, as scripts/bench_analyse.py does).

    .venv/bin/python scripts/bench_memory.py                      # 60 s of p3v0s1..10000000
    .venv/bin/python scripts/bench_memory.py --seconds 20 --compare HEAD~1
    .venv/bin/python scripts/bench_memory.py --tt-only            # the table figures alone
    .venv/bin/python scripts/bench_memory.py --no-tt --no-analyse --fill 600   # both tables past the cap

The analyse run is stopped early (and reported so) if the processes together pass
``--max-rss-mb``, to keep an old version that lists every job from exhausting the machine.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import random_deck

ROOT = Path(__file__).resolve().parents[1]
HARD = ROOT / "tests" / "data" / "decks" / "hard_2p_first20.jsonl"  # the first 20 of ../shared's hard_2p.jsonl


# ---- the transposition table -----------------------------------------------------------

def kernel_api():
    """(the dfs module, Search, SearchTimeout, Position, RelaxedSearch) of the version on
    sys.path: through solver.hanabi.search.kernel (the kernel in use, pure or compiled), or, for a
    version from before it (--compare), from the modules themselves."""
    try:
        from solver.hanabi.search import kernel
    except ModuleNotFoundError:
        from solver.hanabi.search import dfs, position, relaxed

        return dfs, dfs.Search, dfs.SearchTimeout, position.Position, relaxed.RelaxedSearch
    return kernel.dfs, kernel.Search, kernel.SearchTimeout, kernel.Position, kernel.RelaxedSearch


def tt_figures(root: Path, nodes: int) -> dict:
    """Bytes per table entry (key, value and dict slot: the traced growth over a search
    divided by its entries), for the search and the relaxed game, by player count; decks
    that fill at least 5,000 entries within ``nodes`` nodes."""
    import gc
    import tracemalloc

    sys.path.insert(0, str(root))
    from solver.hanabi.rules import game_from_json

    dfs, Search, SearchTimeout, Position, RelaxedSearch = kernel_api()

    def measure(cls, deck, players):
        pos = Position(game_from_json({"deck": deck}, "bench", players=players).game.initial_state())
        gc.collect()
        tracemalloc.start()
        s = cls(pos, None, nodes)
        base = tracemalloc.get_traced_memory()[0]
        for target in (pos.perfect, pos.perfect - 1):
            try:
                s.reach(target)
            except SearchTimeout:
                break
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        return getattr(s, "entries", None) or len(s.memo), used

    hard = [json.loads(line)["deck"] for line in HARD.read_text().splitlines()[:40:8]] if HARD.exists() else []
    out: dict = {"cap": getattr(dfs, "DEFAULT_MEMO_CAP", None), "tables": []}
    for name, cls in (("search", Search), ("relaxed", RelaxedSearch)):
        for players in (2, 4, 6):
            decks = hard if players == 2 and hard else (random_deck(players, k) for k in range(300))
            got = []
            for deck in decks:
                n, used = measure(cls, deck, players)
                if n >= 5000:
                    got.append((n, used))
                if len(got) == 2:
                    break
            if got:
                out["tables"].append({"table": name, "players": players, "entries": sum(n for n, _ in got),
                                      "bytes_per_entry": sum(u for _, u in got) / sum(n for n, _ in got)})
    return out


def tt_text(label: str, fig: dict) -> list[str]:
    cap = fig["cap"]
    lines = [f"{label}: table cap {cap if cap is not None else 'none'} entries"]
    worst = 0.0
    for t in fig["tables"]:
        worst = max(worst, t["bytes_per_entry"])
        lines.append(f"  {t['table']:<8} {t['players']} players: {t['bytes_per_entry']:6.0f} bytes/entry "
                     f"({t['entries']} entries measured)")
    if cap is not None and worst:
        lines.append(f"  at the cap: {cap * worst / 2**20:.0f} MiB per table (largest entry), "
                     f"{2 * cap * worst / 2**20:.0f} MiB for a solve's two tables")
    return lines


# ---- hanabi analyse ----------------------------------------------------------------------

def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc/<pid>/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except OSError:
            continue
    return out


def _kib(path: str, field: str) -> int:
    try:
        with open(path) as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_analyse(tree: Path, rng: str, db: Path, args) -> dict:
    """Start ``analyse`` in ``tree``, sample the memory of it and its workers every
    0.25 s, kill the whole group after ``args.seconds``."""
    cmd = [sys.executable, "-m", "cli.hanabi", "analyse", rng, "--db", str(db), "--jobs", str(args.jobs),
           "--timeout", str(args.timeout), "--quiet"]
    env = dict(os.environ, PYTHONPATH=str(tree))
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    peak = {"parent_rss": 0, "worker_rss": 0, "total_rss": 0, "total_pss": 0}
    first_row = None
    guard = False
    try:
        while time.monotonic() - t0 < args.seconds and proc.poll() is None:
            pids = descendants(proc.pid)
            rss = {p: _kib(f"/proc/{p}/status", "VmRSS:") for p in pids}
            pss = sum(_kib(f"/proc/{p}/smaps_rollup", "Pss:") for p in pids)
            peak["parent_rss"] = max(peak["parent_rss"], rss.get(proc.pid, 0))
            peak["worker_rss"] = max([peak["worker_rss"]] + [v for p, v in rss.items() if p != proc.pid])
            peak["total_rss"] = max(peak["total_rss"], sum(rss.values()))
            peak["total_pss"] = max(peak["total_pss"], pss)
            if first_row is None and stored(db):
                first_row = time.monotonic() - t0
            if sum(rss.values()) > args.max_rss_mb * 1024:
                guard = True
                break
            time.sleep(0.25)
    finally:
        wall = time.monotonic() - t0
        finished = proc.poll() is not None
        if not finished:
            os.killpg(proc.pid, signal.SIGKILL)
        err = proc.communicate()[1].decode(errors="replace").strip()
    if finished and proc.returncode != 0:
        raise SystemExit(f"analyse in {tree} failed ({proc.returncode}): {err[-500:]}")
    return {**peak, "seconds": wall, "rows": stored(db), "first_row": first_row, "guard": guard,
            "finished": finished}


def stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def analyse_text(label: str, r: dict) -> str:
    mib = lambda k: f"{k / 1024:7.0f} MiB"  # noqa: E731
    first = f"{r['first_row']:.1f} s" if r["first_row"] is not None else "never"
    how = " STOPPED at --max-rss-mb" if r["guard"] else (" (finished)" if r["finished"] else "")
    return (f"{label:<12} peak RSS: parent {mib(r['parent_rss'])}, largest worker {mib(r['worker_rss'])}, "
            f"all {mib(r['total_rss'])} (PSS {mib(r['total_pss'])}); {r['rows']} rows in {r['seconds']:.0f} s, "
            f"first row after {first}{how}")


# ---- one long solve --------------------------------------------------------------------

def fill_json(root: Path, seconds: float, deck: str, target: int) -> dict:
    """The two tables of a long solve: the search, then the relaxed game, each at
    ``target`` for ``seconds / 2`` on the random deck ``deck`` (``p{players}c1s{k}``, as
    scripts/bench_solve.py deals them), both tables kept to the end. The default,
    p2c1s138 at 23, is a deck whose maximum 22 neither search proves in minutes."""
    import time as _time

    sys.path.insert(0, str(root))
    from solver.hanabi.rules import game_from_json

    _, Search, SearchTimeout, Position, RelaxedSearch = kernel_api()

    m = re.fullmatch(r"p(\d)c1s(\d+)", deck)
    if not m:
        raise SystemExit(f"--fill-deck {deck!r}: expected p<players>c1s<k>")
    players, k = int(m[1]), int(m[2])
    state = game_from_json({"deck": random_deck(players, k)}, deck, players=players).game.initial_state()
    out: dict = {"deck": deck, "target": target}
    engines = []
    for name, cls in (("search", Search), ("relaxed", RelaxedSearch)):
        eng = cls(Position(state), _time.monotonic() + seconds / 2)
        engines.append(eng)
        try:
            res = eng.reach(target)
        except SearchTimeout:
            res = None
        out[name] = {"nodes": eng.nodes, "entries": getattr(eng, "entries", None) or len(eng.memo),
                     "turns": getattr(eng, "evictions", 0), "result": res}
    return out


def run_fill(tree: Path, seconds: float, deck: str, target: int) -> str:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--fill-json", str(seconds), "--fill-deck", deck,
           "--fill-target", str(target)]
    proc = subprocess.Popen(cmd, cwd=tree, env=dict(os.environ, BENCH_ROOT=str(tree)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _kib(f"/proc/{proc.pid}/status", "VmRSS:"))
        time.sleep(0.5)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"the long solve in {tree} failed: {err[-500:]}")
    r = json.loads(out)
    parts = [f"{k} {r[k]['nodes']} nodes, {r[k]['entries']} entries at the end, {r[k]['turns']} turns"
             + (f" (finished: {r[k]['result']})" if r[k]["result"] is not None else "") for k in ("search", "relaxed")]
    return (f" {seconds / 2:g} s of the search then {seconds / 2:g} s of the relaxed game "
            f"({r['deck']} at {r['target']}): peak RSS {peak / 1024:.0f} MiB; " + "; ".join(parts))


# ---- main ----------------------------------------------------------------------------------

def measure_tree(tree: Path, args, tmp: Path, label: str) -> list[str]:
    lines = []
    if not args.no_tt:
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--tt-json", "--tt-nodes",
                              str(args.tt_nodes)], cwd=tree, env=dict(os.environ, BENCH_ROOT=str(tree)),
                             check=True, capture_output=True, text=True).stdout
        lines += tt_text(label, json.loads(out))
    if args.fill:
        lines.append(f"{label}:" + run_fill(tree, args.fill, args.fill_deck, args.fill_target))
    if not (args.tt_only or args.no_analyse):
        db = tmp / f"{label}.sqlite"
        lines.append(analyse_text(label, run_analyse(tree, args.range, db, args)))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--range", default="p3v0s1..10000000", help="seed range for analyse (default p3v0s1..10000000)")
    ap.add_argument("--seconds", type=float, default=60.0, help="kill analyse after this long (default 60)")
    ap.add_argument("--jobs", type=int, default=2, help="analyse --jobs (default 2)")
    ap.add_argument("--timeout", type=float, default=10.0, help="analyse --timeout (default 10)")
    ap.add_argument("--max-rss-mb", type=float, default=12000, help="stop analyse early above this (default 12000)")
    ap.add_argument("--compare", metavar="GITREF", help="measure an older version too")
    ap.add_argument("--tt-nodes", type=int, default=40000, help="search nodes per table measurement")
    ap.add_argument("--tt-only", action="store_true", help="only the table figures")
    ap.add_argument("--no-tt", action="store_true", help="no table figures")
    ap.add_argument("--no-analyse", action="store_true", help="no analyse run")
    ap.add_argument("--fill", type=float, default=0, metavar="SECONDS",
                    help="also fill both tables for this long, past the cap (peak RSS)")
    ap.add_argument("--fill-deck", default="p2c1s138", help="the long searches' deck (default p2c1s138)")
    ap.add_argument("--fill-target", type=int, default=23, help="their target (default 23)")
    ap.add_argument("--tt-json", action="store_true", help=argparse.SUPPRESS)  # internal: one tree's table figures
    ap.add_argument("--fill-json", type=float, help=argparse.SUPPRESS)  # internal: one long solve
    args = ap.parse_args(argv)
    if args.fill_json is not None:
        print(json.dumps(fill_json(Path(os.environ.get("BENCH_ROOT", ROOT)), args.fill_json, args.fill_deck,
                                   args.fill_target)))
        return
    if args.tt_json:
        print(json.dumps(tt_figures(Path(os.environ.get("BENCH_ROOT", ROOT)), args.tt_nodes)))
        return
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.compare:
            tree = tmp / "old"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.compare], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                lines += measure_tree(tree, args, tmp, args.compare)
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
        lines += measure_tree(ROOT, args, tmp, "current")
    if not (args.tt_only or args.no_analyse):
        print(f"hanabi analyse {args.range} --jobs {args.jobs} --timeout {args.timeout:g}, "
              f"killed after {args.seconds:g} s")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
