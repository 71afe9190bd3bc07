#!/usr/bin/env python3
"""Benchmark of the puzzle generator: generate N puzzles into a temporary directory (as
``hanabi puzzle generate`` does), check every one (as ``hanabi puzzle check`` does), and
print the times and counts. Exit code 1 if a puzzle is missing or fails its check.

    .venv/bin/python scripts/bench_puzzles.py --count 100 --jobs 2
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from puzzles.hanabi.analysis import ANSWER_KIND_OPTIONS, ANSWER_KINDS, CHECK_LIMITS, DIFFICULTIES  # noqa: E402
from puzzles.hanabi.check import check_puzzle  # noqa: E402
from puzzles.hanabi.format import load_puzzle, write_puzzle  # noqa: E402
from puzzles.hanabi.generate import Config, generate  # noqa: E402


def _check(path: str) -> tuple[str, bool, list[str], float]:
    t = time.monotonic()
    rep = check_puzzle(load_puzzle(path), CHECK_LIMITS)
    return path, rep.valid, rep.problems, time.monotonic() - t


def _crux_kind(p) -> str:
    """The kind of the winning move at the first position where the greedy move loses."""
    md = p.metadata
    n = md["features"].get("crux")
    if not n or "decisions" not in md:
        return "?"
    d = md["decisions"][n - 1]
    return {"c": "clue", "p": "play", "d": "discard"}[d["line"][0]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="processes for generating and for checking")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--difficulty", choices=DIFFICULTIES, default=None)
    ap.add_argument("--answer-kind", choices=ANSWER_KIND_OPTIONS, default="mixed")
    ap.add_argument("--keep", metavar="DIR", help="write the puzzles here instead of a temporary directory")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="puzzles-") as tmp:
        out = Path(args.keep or tmp)
        out.mkdir(parents=True, exist_ok=True)
        cfg = Config(count=args.count, seed=args.seed, jobs=args.jobs, players=args.players,
                     difficulty=args.difficulty, answer_kind=args.answer_kind)
        t0 = time.monotonic()
        paths = []

        def keep(p):
            path = out / f"{p.id}.json"
            write_puzzle(p, path)
            paths.append(str(path))

        made, stats = generate(cfg, keep)
        t_gen = time.monotonic() - t0
        t1 = time.monotonic()
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                results = pool.map(_check, paths, chunksize=1)
        else:
            results = [_check(p) for p in paths]
        t_check = time.monotonic() - t1

    levels = Counter(p.difficulty for p in made)
    players = Counter(p.data["rules"]["players"] for p in made)
    winning = Counter(p.winning["count"] for p in made)
    choices = Counter(len(p.winning.get("choices", p.winning["moves"])) for p in made)
    kinds = Counter(p.metadata.get("answer_kind", "?") for p in made)
    first = Counter(p.winning["moves"][0][0] if p.winning["count"] == 1 else "several" for p in made)
    crux = Counter(min(p.metadata["features"].get("crux") or 0, 4) for p in made)
    crux_kind = Counter(_crux_kind(p) for p in made)
    tokens = Counter(min(p.question["position"]["clues"], 3) for p in made)
    bad = [(path, probs) for path, ok, probs, _ in results if not ok]
    slowest = max((dt for *_, dt in results), default=0.0)
    print(f"generated {len(made)}/{args.count} puzzles in {t_gen:.1f} s "
          f"({t_gen / max(len(made), 1):.2f} s each; seed {args.seed}, {args.jobs} jobs)")
    walks = {k[5:]: v for k, v in stats.items() if k.startswith("walk ")}
    print(f"  decks {stats['decks']} (walks: " + ", ".join(f"{k} {v}" for k, v in sorted(walks.items()))
          + f"), positions examined {stats['examined']}; rejected: "
          + ", ".join(f"{k} {v}" for k, v in stats.most_common()
                      if k not in ("decks", "examined", "puzzles") and not k.startswith("walk ")))
    print("  difficulty: " + ", ".join(f"{d} {levels[d]}" for d in DIFFICULTIES))
    print("  players: " + ", ".join(f"{n}p {players[n]}" for n in sorted(players)))
    print("  answer kinds: " + ", ".join(f"{k} {kinds[k]}" for k in ANSWER_KINDS if kinds[k]))
    print("  winning first moves (kinds of move): " + ", ".join(f"{n}: {winning[n]}" for n in sorted(winning))
          + "; winning choices: " + ", ".join(f"{n}: {choices[n]}" for n in sorted(choices)))
    print("  the one winning first move is a " + ", ".join(
        f"{ {'c': 'clue', 'p': 'play', 'd': 'discard'}.get(k, k)} {first[k]}" for k in ("c", "p", "d") if first[k])
        + f"; several win in {first['several']}")
    print("  first move the greedy strategy gets wrong: " + ", ".join(
        f"{'move ' + str(n) if n < 4 else 'move 4+'}: {crux[n]}" for n in sorted(crux) if n)
        + "; the right move there: " + ", ".join(f"{k} {v}" for k, v in crux_kind.most_common()))
    print("  clue tokens: " + ", ".join(f"{n if n < 3 else '3+'}: {tokens[n]}" for n in sorted(tokens)))
    print(f"checked {len(results)} in {t_check:.1f} s (slowest {slowest:.2f} s): "
          f"{len(results) - len(bad)} valid, {len(bad)} invalid")
    for path, probs in bad:
        print(f"  INVALID {Path(path).name}: {'; '.join(probs)}")
    print(f"total {t_gen + t_check:.1f} s")
    return 0 if not bad and len(made) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
