#!/usr/bin/env python3
"""What hanab.live's variants cost to load: ``import solver``, the first site variant
(reading the table), one more, and building every supported one, each in a fresh
process (so the first-use costs are real), CPU seconds beside wall time, median of
``--repeat`` runs; ``--compare GITREF`` runs the same in a worktree of an older version
(when it has the table), in the same run.

    .venv/bin/python scripts/bench_variants.py
    .venv/bin/python scripts/bench_variants.py --compare HEAD~3
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, sys, time
def clock():
    return time.perf_counter(), time.process_time()
def since(t):
    w, c = clock()
    return {"wall_ms": 1000 * (w - t[0]), "cpu_ms": 1000 * (c - t[1])}
out = {}
t = clock(); import solver; out["import solver"] = since(t)
parse_variant = solver.parse_variant
t = clock(); parse_variant("Pink (5 Suits)"); out["first site variant"] = since(t)
t = clock(); parse_variant("Dark Rainbow (6 Suits)"); out["one more"] = since(t)
try:
    from solver.hanabi.rules.sitevariants import refusal, site_names
except ModuleNotFoundError:  # (a version before the layout of 0.2.0)
    from solver.game.sitevariants import refusal, site_names
t = clock()
n = sum(refusal(name) is None for name in site_names())
out[f"build all ({n} supported)"] = since(t)
print(json.dumps(out))
"""


def measure(root: Path, repeat: int) -> dict[str, tuple[float, float]]:
    runs = []
    for _ in range(repeat):
        p = subprocess.run([sys.executable, "-c", PROBE], cwd=root, capture_output=True, text=True,
                           env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
        if p.returncode != 0:
            raise SystemExit(f"error: the probe failed in {root}: {p.stderr.strip().splitlines()[-1]}")
        runs.append(json.loads(p.stdout))
    return {k: (statistics.median(r[k]["wall_ms"] for r in runs), statistics.median(r[k]["cpu_ms"] for r in runs))
            for k in runs[0]}


def show(title: str, res: dict[str, tuple[float, float]]) -> None:
    print(f"## {title}\n\n| step | wall ms | CPU ms |\n|---|---|---|")
    for k, (w, c) in res.items():
        print(f"| {k} | {w:.2f} | {c:.2f} |")
    print()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--compare", metavar="GITREF")
    a = ap.parse_args(argv)
    show("this version", measure(ROOT, a.repeat))
    if a.compare:
        with tempfile.TemporaryDirectory() as tmp:
            wt = Path(tmp) / "old"
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(wt), a.compare], cwd=ROOT, check=True)
            try:
                if not (wt / "solver" / "game" / "sitevariants.py").exists():
                    print(f"{a.compare} has no table of site variants: nothing to compare")
                else:
                    show(f"{a.compare}", measure(wt, a.repeat))
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(wt)], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
