#!/usr/bin/env python3
"""The table of winnable hanab.live seeds (docs/winnable.md): runs ``hanabi analyse`` on the first
N seeds of each group (resumable: a rerun only solves what is missing), then solves the
decks that are not exact (bounds apart, or a bound proved by one method only) again with
a longer time limit (``--redo-open --timeout CONFIRM``), then the decks whose winnability
is still open with a longer one (``--redo-undecided --timeout SECOND``), and prints the
table as Markdown from the store.

    .venv/bin/python scripts/winnable_table.py --db seeds.sqlite          # run, then print
    .venv/bin/python scripts/winnable_table.py --db seeds.sqlite --no-run # print only

Groups: No Variant 2-6 players, 6 Suits and Black (6 Suits) 2-4 players; with
``--families``, the common variant families of 5 suits (Rainbow, Pink, White, Brown, Dark
Rainbow, Null, Muddy Rainbow) at 2-4 players instead; with ``--rules``, the variants with
rules of their own (docs/variants.md) of 5 suits at 2-4 players; ``--ids 181,16`` keeps
only the groups of those hanab.live variant ids:

    .venv/bin/python scripts/winnable_table.py --families --seeds 2000 --db families.sqlite
    .venv/bin/python scripts/winnable_table.py --rules --seeds 2000 --db rules.sqlite
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.common.stats import wilson  # noqa: E402
from solver.hanabi.batch.store import Store, rules_text  # noqa: E402
from solver.hanabi.rules import game_from_seed  # noqa: E402

GROUPS = [(0, p) for p in (2, 3, 4, 5, 6)] + [(1, p) for p in (2, 3, 4)] + [(2, p) for p in (2, 3, 4)]
# hanab.live ids: Rainbow, Pink, White, Brown, Dark Rainbow, Null, Muddy Rainbow (5 Suits)
FAMILIES = [(vid, p) for vid in (16, 107, 22, 70, 23, 181, 161) for p in (2, 3, 4)]
# hanab.live ids: Throw It in a Hole, Clue Starved, Alternating Clues, Alternating Clues &
# White (where the rule binds), Reversed, Up or Down, Sudoku (5 Suits)
RULES = [(vid, p) for vid in (280, 52, 284, 1255, 1343, 24, 2072) for p in (2, 3, 4)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="seeds.sqlite")
    ap.add_argument("--seeds", type=int, default=10000, help="seeds per group (s1..sN)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per deck, No Variant")
    ap.add_argument("--variant-timeout", type=float, default=5.0, help="seconds per deck, 6-suit variants")
    ap.add_argument("--confirm-timeout", type=float, default=60.0,
                    help="seconds per deck in the pass over decks that are not exact (0: no such pass)")
    ap.add_argument("--second-timeout", type=float, default=120.0,
                    help="seconds per deck in the second pass over undecided decks (0: no second pass)")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--no-run", action="store_true", help="only print the table from the store")
    ap.add_argument("--families", action="store_true", help="the variant families' groups (see above)")
    ap.add_argument("--rules", action="store_true", help="the groups of the variants with rules of their own")
    ap.add_argument("--ids", help="only the groups of these hanab.live variant ids (comma-separated)")
    a = ap.parse_args(argv)
    if a.families and a.rules:
        ap.error("--families and --rules: give one")
    groups = FAMILIES if a.families else RULES if a.rules else GROUPS
    if a.ids:
        try:
            keep = {int(x) for x in a.ids.split(",")}
        except ValueError:
            ap.error(f"--ids must be comma-separated integers, got {a.ids!r}")
        groups = [(vid, p) for vid, p in groups if vid in keep]
        if not groups:
            ap.error(f"--ids {a.ids}: no group of these ids")
    if not a.no_run:
        passes = [(None, None)] + ([("--redo-open", a.confirm_timeout)] if a.confirm_timeout > 0 else []) \
            + ([("--redo-undecided", a.second_timeout)] if a.second_timeout > 0 else [])
        for flag, redo_timeout in passes:
            for vid, p in groups:
                t = redo_timeout or (a.timeout if vid == 0 else a.variant_timeout)
                cmd = [sys.executable, "-m", "cli.hanabi", "analyse", f"p{p}v{vid}s1..{a.seeds}", "--db", a.db,
                       "--timeout", str(t), "--quiet"] + (["--jobs", str(a.jobs)] if a.jobs else []) \
                    + ([flag] if flag else [])
                subprocess.run(cmd, check=True, cwd=ROOT)
    with Store(a.db, create=False) as st:  # a missing or foreign store fails before any output
        print("| variant | players | seeds | winnable | not winnable (2 methods / 1 method) | undecided "
              "| share winnable | 95% interval | mean time |")
        print("|---|---|---|---|---|---|---|---|---|")
        for vid, p in groups:
            # the seeds as dealt for their own player count under the default rules (a store may
            # also hold a seed dealt for other players or with other rule options: other games)
            rules = rules_text(game_from_seed(f"p{p}v{vid}s1").rules.to_json_options())
            rows = [r for r in st.rows("WHERE seed LIKE ? AND players = ? AND rules = ?", (f"p{p}v{vid}s%", p, rules))
                    if r.seed[len(f"p{p}v{vid}s"):].isdigit()
                    and 1 <= int(r.seed[len(f"p{p}v{vid}s"):]) <= a.seeds]
            if not rows:
                continue
            win = sum(r.winnable is True for r in rows)
            lose = [r for r in rows if r.winnable is False]
            one = sum(r.proof_kind == "unconfirmed" for r in lose)
            und = len(rows) - win - len(lose)
            lo, hi = wilson(win, win + len(lose))
            # if every undecided deck went either way
            span = (f" ({100 * win / len(rows):.2f}-{100 * (win + und) / len(rows):.2f}% counting undecided)"
                    if und else "")
            share = f"{100 * win / (win + len(lose)):.2f}%{span}" if win + len(lose) else "-"
            mean = sum(r.seconds for r in rows) / len(rows)
            print(f"| {rows[0].variant} | {p} | {len(rows)} | {win} | {len(lose)} ({len(lose) - one} / {one}) "
                  f"| {und} | {share} | {100 * lo:.2f}-{100 * hi:.2f}% | {1000 * mean:.0f} ms |")


if __name__ == "__main__":
    try:
        main()
    except ValueError as e:  # MalformedError: an unreadable or missing store
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except subprocess.CalledProcessError as e:  # hanabi analyse has printed its own error
        sys.exit(e.returncode)
