"""Write the Hand deal-statistics block of docs/hand-guide.md from a deal store (``hand analyse``):
the tables (``hand report --markdown``), a paragraph of what they say with every number
taken from the store's summary, the charts into docs/hand-stats/.

    .venv/bin/hand import results/hand-stats/deals/*.jsonl.gz --db hand-deals.sqlite  # optional
    .venv/bin/hand analyse --deals 100000 --seed 1 --db hand-deals.sqlite
    .venv/bin/python scripts/hand_stats_block.py hand-deals.sqlite --data results/hand-stats/deals

The block is the text between the markers ``<!-- hand-stats:begin -->`` and
``<!-- hand-stats:end -->`` in docs/hand-guide.md (``--page``); nothing else is touched. ``--data DIR`` also
writes the store's rows to DIR as ``hand export`` files, one per block of
:data:`BLOCK` seeds (``seeds-0000001-0010000.jsonl.gz``, ...): the rows behind the table,
published beside it, and what ``hand import`` reads to go on with a run elsewhere.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.hand.batch import HandStore, export_rows, format_markdown, plot, summarise  # noqa: E402

BEGIN, END = "<!-- hand-stats:begin -->", "<!-- hand-stats:end -->"
CHARTS = "hand-stats"  # the charts' folder as the page links it (docs/hand-stats/, beside the page)
BLOCK = 10_000  # seeds per data file: block k holds seeds k * BLOCK + 1 .. (k + 1) * BLOCK


def write_data(store: HandStore, seeds: list[int], folder: Path) -> list[Path]:
    """The store's rows as export files in ``folder``, one per block of seeds that holds
    any (a block's file is rewritten whole, so a block still filling up is replaced)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k in sorted({(s - 1) // BLOCK for s in seeds}):
        lo, hi = k * BLOCK + 1, (k + 1) * BLOCK
        path = folder / f"seeds-{lo:07d}-{hi:07d}.jsonl.gz"
        export_rows(store.rows(lo, hi + 1), store.budget, path)
        out.append(path)
    return out


def _pct(share: dict) -> str:
    return f"{100 * share['share']:.1f}%"


def block(s: dict, seeds: str) -> str:
    second = s["places"][1]
    lm, om = s["leading"]["mean_best_score"]
    lmost, omost = s["leading"]["mean_most"]
    lex, oex = s["leading"]["can_force_exactly"]
    c = s["cpu_seconds"]
    rare = ", ".join(f"({','.join(map(str, v['vector']))})" for v in s["most_often_unreachable"][:4])
    together = (" (every time they sum to 8)" if s["best_bids_made_together"]["count"]
                == s["best_bids_sum_8"]["count"] else "")
    mode_bid = max(second["best_bid"].items(), key=lambda kv: kv[1])[0]
    return "\n".join([
        f"{s['deals']:,} deals ({seeds}), {s['complete']:,} fully decided.",
        "",
        format_markdown(s),
        "",
        f"![Best bids by seat place]({CHARTS}/hand_best_bids.png)",
        f"![Guaranteed scores by seat place]({CHARTS}/hand_guaranteed_scores.png)",
        f"![Sums of the best bids, reachable vectors]({CHARTS}/hand_table.png)",
        "",
        f"Three players against one are strong: a seat can force some trick count exactly (a bid it "
        f"is sure to make) in {100 * oex:.1f}% of deals when it does not lead, {100 * lex:.1f}% when it "
        f"leads. Its best bid guarantees on average {om:.1f} when it does not lead ({lm:.1f} when it "
        f"leads): the other three together can usually hold it one or two tricks off any bid. Leading "
        f"is worth about {lm - om:.1f} points of guaranteed score and {lmost - omost:.2f} tricks it can "
        f"force ({lmost:.2f} against {omost:.2f}). The most common best bid of a seat not leading is "
        f"{mode_bid}. The four paranoid best bids sum to 8 in {_pct(s['best_bids_sum_8'])} of the deals "
        f"and can all be made together in {_pct(s['best_bids_made_together'])}{together}; the table can "
        f"reach on average {s['mean_reachable']:.1f} of the 165 ways to share the 8 tricks, and all of "
        f"them in {_pct(s['all_vectors_reachable'])} of the deals (the ones most often out of reach: "
        f"{rare}).",
        "",
        f"Cost: {c['mean']:.2f} CPU-s a deal on average (median {c['median']:.2f}, p99 {c['p99']:.2f}, "
        f"max {c['max']:.1f}), {c['total'] / 3600:.1f} CPU-hours for these deals.",
    ])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("db")
    ap.add_argument("--page", default=str(ROOT / "docs" / "hand-guide.md"), help="the page holding the block")
    ap.add_argument("--plots", default=str(ROOT / "docs" / "hand-stats"))
    ap.add_argument("--data", metavar="DIR", help="also write the rows as hand export files into DIR")
    args = ap.parse_args(argv)
    with HandStore(args.db, None, create=False, readonly=True) as st:
        rows = list(st.rows())
        if not rows:
            raise SystemExit(f"{args.db}: no deals")
        seeds = sorted(r.seed for r in rows)
        files = write_data(st, seeds, Path(args.data)) if args.data else []
    contiguous = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
    span = (f"seeds {seeds[0]}..{seeds[-1]}" if contiguous
            else f"{len(seeds):,} seeds between {seeds[0]} and {seeds[-1]}")
    s = summarise(rows, args.db)
    plot(s, args.plots)
    page = Path(args.page)
    text = page.read_text()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise SystemExit(f"{page}: expected one {BEGIN} and one {END}")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    page.write_text(f"{head}{BEGIN}\n{block(s, span)}\n{END}{tail}")
    print(f"{page}: the Hand statistics block from {len(rows):,} deals ({span}); charts in {args.plots}")
    if files:
        print(f"{args.data}: {len(files)} data files ({', '.join(f.name for f in files)})")


if __name__ == "__main__":
    main()
