"""Summaries of a Hand deal store (docs/hand.md, "Deal statistics"): per seat place
(counted from the leader) the paranoid best bid and guaranteed score, how often a seat can
force some bid exactly, whether the four best bids sum to 8 and can be made together, how
many of the 165 trick vectors the table can reach, the value of leading; as text, a
Markdown table, JSON and PNG charts.

Every share counts only the deals where the question was decided within the node budget
(the number decided is given beside it) with its 95% Wilson interval.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any

from solver.common.outputs import save_figure
from solver.common.stats import wilson

from .stats import ALL_VECTORS, VECTOR_INDEX, VECTORS
from .store import DealRow, SeatRow

PLACES = ("leader", "second", "third", "fourth")  # seat places counted from the leader


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "share": k / n if n else None, "ci95": [lo, hi]}


def _mean(xs: list[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def _decided(seats: list[SeatRow], field: str) -> list[Any]:
    """The values of ``field`` over ``seats``, those the budget decided."""
    return [v for v in (getattr(x, field) for x in seats) if v is not None]


def _exact_share(seats: list[SeatRow]) -> dict[str, Any]:
    """How often the seats (where decided) can force some trick count exactly."""
    exact = _decided(seats, "exact")
    return _share(sum(bool(e) for e in exact), len(exact))


def _pct(p: float, xs: list[float]) -> float | None:
    if not xs:
        return None
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, math.ceil(p * len(ys)) - 1))]


def summarise(rows: Iterable[DealRow], path: str = "") -> dict[str, Any]:
    """The summary of the deals ``rows`` (one pass, then counts)."""
    n = 0
    place_rows: list[list[SeatRow]] = [[] for _ in PLACES]  # per place: every deal's SeatRow there
    sums: Counter[int] = Counter()
    sum_decided = 0
    best_reach = 0  # best-bid vectors summing to 8 and reachable
    best_reach_decided = 0
    reach_counts: Counter[int] = Counter()
    all_reach = 0
    never: Counter[int] = Counter()  # how often each vector is unreachable
    seconds: list[float] = []
    nodes: list[int] = []
    coop: list[int] = []
    complete = 0
    for r in rows:
        n += 1
        complete += r.complete
        seconds.append(r.seconds)
        nodes.append(r.nodes)
        coop.append(r.coop_nodes)
        for s, seat in enumerate(r.seats):
            place_rows[(s - r.leader) % 4].append(seat)
        bids = [s.best_bid for s in r.seats]
        if None not in bids:
            total = sum(b for b in bids if b is not None)
            sums[total] += 1
            sum_decided += 1
            if r.reach is not None:
                best_reach_decided += 1
                v = tuple(b for b in bids if b is not None)
                if total == 8 and r.reach >> VECTOR_INDEX[v] & 1:
                    best_reach += 1
        if r.reach is not None:
            reach_counts[r.reach.bit_count()] += 1
            all_reach += r.reach == ALL_VECTORS
            missing = ALL_VECTORS & ~r.reach
            while missing:
                low = missing & -missing
                never[low.bit_length() - 1] += 1
                missing ^= low
    reach_n = sum(reach_counts.values())
    places = []
    for name, seats in zip(PLACES, place_rows):
        # each value over the seats where it was decided within the budget
        bid = _decided(seats, "best_bid")
        score = _decided(seats, "best_score")
        places.append({
            "place": name, "seats": len(seats), "decided": len(bid),
            "best_bid": {str(b): c for b, c in sorted(Counter(bid).items())},
            "best_score": {str(b): c for b, c in sorted(Counter(score).items())},
            "can_force_exactly": _exact_share(seats),
            "mean_best_bid": _mean(bid),
            "mean_best_score": _mean(score),
            "mean_most": _mean(_decided(seats, "most")),
            "mean_fewest": _mean(_decided(seats, "fewest")),
            "exact_sets": {",".join(map(str, e)) or "none": c
                           for e, c in Counter(_decided(seats, "exact")).most_common(8)},
        })
    lead, others = place_rows[0], [x for p in place_rows[1:] for x in p]
    leading = {
        "mean_best_score": [_mean(_decided(lead, "best_score")), _mean(_decided(others, "best_score"))],
        "mean_most": [_mean(_decided(lead, "most")), _mean(_decided(others, "most"))],
        "can_force_exactly": [_exact_share(lead)["share"], _exact_share(others)["share"]],
    }
    rarest = [{"vector": list(VECTORS[i]), "unreachable": c} for i, c in never.most_common(5)]
    return {
        "store": path, "deals": n, "complete": complete,
        "places": places,
        "leading": leading,
        "best_bids_sum": {str(k): c for k, c in sorted(sums.items())},
        "best_bids_sum_8": _share(sums[8], sum_decided),
        "best_bids_made_together": _share(best_reach, best_reach_decided),
        "reachable_vectors": {str(k): c for k, c in sorted(reach_counts.items())},
        "all_vectors_reachable": _share(all_reach, reach_n),
        "mean_reachable": sum(k * c for k, c in reach_counts.items()) / reach_n if reach_n else None,
        "most_often_unreachable": rarest,
        "cpu_seconds": {"mean": _mean(seconds), "median": _pct(0.5, seconds), "p99": _pct(0.99, seconds),
                        "max": max(seconds, default=None), "total": sum(seconds)},
        "nodes_mean": {"paranoid": _mean([float(x) for x in nodes]), "cooperative": _mean([float(x) for x in coop])},
    }


def _f(x: float | None, digits: int = 2) -> str:
    return "?" if x is None else f"{x:.{digits}f}"


def _p(share: dict[str, Any]) -> str:
    if share["share"] is None:
        return "? (none decided)"
    lo, hi = share["ci95"]
    return f"{100 * share['share']:.1f}% ({share['count']:,} of {share['of']:,}; 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


def format_text(s: dict[str, Any]) -> str:
    out = [f"{s['store']}: {s['deals']:,} deals ({s['complete']:,} fully decided)"]
    if not s["deals"]:
        return out[0]
    out.append("Per seat, counted from the leader (paranoid: the other three against it):")
    out.append(f"  {'place':<8} {'decided':>8} {'best bid':>9} {'score':>7} {'most':>6} {'fewest':>7}  "
               "can force a count exactly")
    for p in s["places"]:
        out.append(f"  {p['place']:<8} {p['decided']:>8,} {_f(p['mean_best_bid']):>9} {_f(p['mean_best_score'], 1):>7} "
                   f"{_f(p['mean_most']):>6} {_f(p['mean_fewest']):>7}  {_p(p['can_force_exactly'])}")
    out.append("Best bid distribution (% of decided seats):")
    out.append("  " + " " * 8 + "".join(f"{b:>7}" for b in range(9)))
    for p in s["places"]:
        k = p["decided"] or 1
        out.append(f"  {p['place']:<8}" + "".join(f"{100 * p['best_bid'].get(str(b), 0) / k:>6.1f}%" for b in range(9)))
    out.append("Guaranteed score distribution (% of decided seats):")
    scores = sorted({int(x) for p in s["places"] for x in p["best_score"]})
    out.append("  " + " " * 8 + "".join(f"{x:>7}" for x in scores))
    for p in s["places"]:
        k = p["decided"] or 1
        out.append(f"  {p['place']:<8}" + "".join(f"{100 * p['best_score'].get(str(x), 0) / k:>6.1f}%" for x in scores))
    lead = s["leading"]
    out.append(f"Value of leading: mean guaranteed score {_f(lead['mean_best_score'][0], 1)} (leader) vs "
               f"{_f(lead['mean_best_score'][1], 1)} (others); most tricks {_f(lead['mean_most'][0])} vs "
               f"{_f(lead['mean_most'][1])}")
    out.append(f"The four best bids sum to 8: {_p(s['best_bids_sum_8'])}; sums "
               + ", ".join(f"{k}: {v:,}" for k, v in s["best_bids_sum"].items()))
    out.append(f"The four best bids can all be made together: {_p(s['best_bids_made_together'])}")
    out.append(f"Every one of the 165 trick vectors reachable by the table: {_p(s['all_vectors_reachable'])}; "
               f"mean reachable {_f(s['mean_reachable'], 1)} of 165")
    if s["most_often_unreachable"]:
        out.append("Most often unreachable: " + ", ".join(
            f"({','.join(map(str, v['vector']))}) {v['unreachable']:,}" for v in s["most_often_unreachable"]))
    c = s["cpu_seconds"]
    out.append(f"CPU per deal: mean {_f(c['mean'], 3)} s, median {_f(c['median'], 3)}, p99 {_f(c['p99'], 3)}, "
               f"max {_f(c['max'], 3)}; total {c['total'] / 3600:.2f} CPU-hours")
    return "\n".join(out)


def format_markdown(s: dict[str, Any]) -> str:
    """The statistics tables (docs/hand-guide.md): one row per seat place, and the table-wide shares below."""
    lines = ["| seat (from the leader) | deals decided | mean best bid | mean guaranteed score | mean most tricks "
             "| can force some count exactly |", "|---|---|---|---|---|---|"]
    for p in s["places"]:
        share = p["can_force_exactly"]
        lines.append(f"| {p['place']} | {p['decided']:,} | {_f(p['mean_best_bid'])} | {_f(p['mean_best_score'], 1)} "
                     f"| {_f(p['mean_most'])} | {_pc(share)} |")
    lines.append("")
    lines.append("| the table | share |")
    lines.append("|---|---|")
    lines.append(f"| the four paranoid best bids sum to 8 | {_pc(s['best_bids_sum_8'])} |")
    lines.append(f"| ... and can all be made together | {_pc(s['best_bids_made_together'])} |")
    lines.append(f"| every bid vector summing to 8 is reachable | {_pc(s['all_vectors_reachable'])} |")
    lines.append(f"| mean reachable trick vectors (of 165) | {_f(s['mean_reachable'], 1)} |")
    return "\n".join(lines)


def _pc(share: dict[str, Any]) -> str:
    if share["share"] is None:
        return "?"
    lo, hi = share["ci95"]
    return f"{100 * share['share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def plot(s: dict[str, Any], folder: str) -> list[str]:
    """PNG charts into ``folder``: best bids and guaranteed scores by seat place, the sum
    of the best bids, and the reachable-vector counts."""
    import os

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    os.makedirs(folder, exist_ok=True)
    written: list[str] = []
    colors = ("#4477aa", "#66ccee", "#228833", "#ccbb44")

    def save(fig: Figure, name: str) -> None:
        fig.tight_layout()
        p = os.path.join(folder, name)
        save_figure(fig, p, "", 110)
        plt.close(fig)
        written.append(p)

    for key, name, label, xs in (
            ("best_bid", "hand_best_bids.png", "paranoid best bid", list(range(9))),
            ("best_score", "hand_guaranteed_scores.png", "guaranteed score (best bid)",
             sorted({int(x) for p in s["places"] for x in p["best_score"]}))):
        fig, ax = plt.subplots(figsize=(8, 3.4))
        width = 0.8 / len(PLACES)
        for i, p in enumerate(s["places"]):
            k = p["decided"] or 1
            ax.bar([j + (i - 1.5) * width for j in range(len(xs))],
                   [100 * p[key].get(str(x), 0) / k for x in xs], width=width, color=colors[i],
                   label=f"{p['place']} ({p['decided']:,})")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([str(x) for x in xs])
        ax.set_xlabel(label)
        ax.set_ylabel("% of seats")
        ax.set_title(f"Hand, {s['deals']:,} random deals, every card visible: {label} by seat place")
        ax.legend(fontsize=8)
        save(fig, name)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.4))
    sums = sorted((int(k), v) for k, v in s["best_bids_sum"].items())
    if sums:
        a1.bar([k for k, _ in sums], [v for _, v in sums], color=["#cc3311" if k == 8 else "#4477aa" for k, _ in sums])
    a1.set_xlabel("sum of the four paranoid best bids")
    a1.set_ylabel("deals")
    a1.set_title("best bids: their sum (8 in red)", fontsize=10)
    counts = sorted((int(k), v) for k, v in s["reachable_vectors"].items())
    if counts:
        a2.bar([k for k, _ in counts], [v for _, v in counts], color="#228833", width=1.0)
    a2.set_xlabel("trick vectors the table can reach (of 165)")
    a2.set_ylabel("deals")
    a2.set_title("cooperative reachability", fontsize=10)
    fig.suptitle(f"Hand, {s['deals']:,} random deals, every card visible: the table", fontsize=11)
    save(fig, "hand_table.png")
    return written


__all__ = ["PLACES", "format_markdown", "format_text", "plot", "summarise"]
