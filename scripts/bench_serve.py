#!/usr/bin/env python3
"""How fast ``hanabi serve`` starts and answers: wall time from the command's start to its
first answer (``/healthz``), to the first board page (``/seed/p3v0s1``), to a first solve
(``/api/solve``, the worker pool started on the way) and to the same solve again (the
cache), each the median of ``--repeat`` runs, with the CPU time of the server process and
its workers.

    .venv/bin/python scripts/bench_serve.py --repeat 5
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
            except (OSError, IndexError, ValueError):
                continue
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, (0, 0.0))[1]
        todo += [c for c, (ppid, _) in stats.items() if ppid == p]
    return total


def once() -> dict[str, float]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", "import cli.hanabi as h; h.main()", "serve", "--port", str(port)],
                            cwd=ROOT, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=1).read()
                break
            except OSError:
                if time.monotonic() - t0 > 30:
                    raise SystemExit("hanabi serve did not answer within 30 s") from None
                time.sleep(0.01)
        out = {"healthz": time.monotonic() - t0}
        urllib.request.urlopen(url + "/seed/p3v0s1", timeout=30).read()
        out["board"] = time.monotonic() - t0
        t = time.monotonic()
        urllib.request.urlopen(url + "/api/solve?seed=p3v0s1", timeout=120).read()
        out["first solve"] = time.monotonic() - t
        t = time.monotonic()
        urllib.request.urlopen(url + "/api/solve?seed=p3v0s1", timeout=120).read()
        out["cached solve"] = time.monotonic() - t
        out["CPU"] = _cpu(proc.pid)
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    runs = [once() for _ in range(a.repeat)]
    print(f"hanabi serve, median of {a.repeat} runs (load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs):")
    for key in runs[0]:
        values = [r[key] for r in runs]
        print(f"  {key:<13} {statistics.median(values) * (1000 if 'solve' in key else 1):8.3f} "
              f"{'ms' if 'solve' in key else 's'}  (max {max(values) * (1000 if 'solve' in key else 1):.3f})")


if __name__ == "__main__":
    main()
