"""Summaries of a result store: score distributions, winnable shares, bound reasons, the
slowest decks; as text, JSON, CSV and PNG charts."""
from __future__ import annotations

import csv
import io
import math
import statistics
from collections import Counter, defaultdict

from solver.common.outputs import save_figure
from solver.common.stats import wilson

from .store import FIELDS, Store, budget_text


def summarise(store: Store, slowest: int = 10) -> dict:
    groups: dict[tuple[str, int], list] = defaultdict(list)
    rows = store.rows()
    for r in rows:
        groups[(r.variant, r.players)].append(r)
    out = []
    for (variant, players), rs in sorted(groups.items()):
        winnable = sum(r.winnable is True for r in rs)
        unwinnable = sum(r.winnable is False for r in rs)
        decided = winnable + unwinnable
        lo, hi = wilson(winnable, decided)
        times = [r.seconds for r in rs]
        out.append({
            "variant": variant,
            "players": players,
            "decks": len(rs),
            "exact": sum(r.exact for r in rs),
            "winnable": winnable,
            "unwinnable": unwinnable,
            # bound below perfect proved by one method only (not yet confirmed by a second)
            "unwinnable_one_method": sum(r.winnable is False and r.proof_kind == "unconfirmed" for r in rs),
            "undecided": len(rs) - decided,
            "winnable_share": winnable / decided if decided else None,
            "winnable_share_95": [lo, hi],
            "max_scores": {str(k): v for k, v in sorted(Counter(r.max_score for r in rs if r.exact).items())},
            "open_bounds": {f"{k[0]}..{k[1]}": v for k, v in
                            sorted(Counter((r.max_score, r.upper_bound) for r in rs if not r.exact).items())},
            "proof_kinds": dict(Counter(r.proof_kind for r in rs if r.max_score < r.perfect).most_common()),
            "seconds_mean": statistics.fmean(times),
            "seconds_median": statistics.median(times),
            "seconds_max": max(times),
            "seconds_total": sum(times),
        })
    slow = sorted(rows, key=lambda r: -r.seconds)[:slowest]
    return {
        "store": store.path,
        "rows": len(rows),
        "budgets": budgets(store),
        "groups": out,
        "slowest": [{"name": r.name, "key": r.key, "players": r.players, "variant": r.variant, "seconds": r.seconds,
                     "max_score": r.max_score, "upper_bound": r.upper_bound, "proof_kind": r.proof_kind}
                    for r in slow],
    }


def budgets(store: Store) -> list[dict]:
    """The budgets the rows were solved with (:func:`solver.hanabi.methods.portfolio.budget`; None:
    unknown, stored before schema 3), each with its rows' player counts and how many
    rows: the unknown first, then by timeout."""
    merged: dict[str | None, dict] = {}
    for b in store.budgets():
        entry = merged.setdefault(b.text, {"budget": b.value, "players": [], "rows": 0})
        entry["players"].append(b.players)
        entry["rows"] += b.rows

    def order(item: tuple[str | None, dict]) -> tuple:
        text, entry = item
        timeout = (entry["budget"] or {}).get("timeout")
        return (text is not None, math.inf if timeout is None else timeout, text or "")

    return [entry for _, entry in sorted(merged.items(), key=order)]


_BUDGET_PARTS = {"timeout", "deadline", "rounds", "scale", "first_nodes", "search_orders", "first_sat_conflicts",
                 "confirm_sat_conflicts", "confirm_cpsat_dtime", "confirm_nodes"}


def _n(x) -> str:
    return f"{x:,}" if isinstance(x, int) else f"{x:,g}"


def budget_words(budget: dict | None) -> str:
    """A budget in words: ``timeout 10 s = first round 2,000 search nodes, ...``."""
    if budget is None:
        return "unknown (solved before the store recorded budgets)"
    if set(budget) != _BUDGET_PARTS:  # another version's budget: as stored
        return budget_text(budget)
    b = budget
    timeout = "no timeout" if b["timeout"] is None else f"timeout {b['timeout']:g} s (stopped at {b['deadline']:g} s)"
    scale = "" if b["scale"] == 1 else f" (x{b['scale']:g})"
    rounds = "rounds until solved" if b["rounds"] is None else f"{b['rounds']} round{'s' if b['rounds'] != 1 else ''}"
    orders = "" if b["search_orders"] == 1 else f" in each of {b['search_orders']} child orders"
    return (f"{timeout} = {rounds} from {_n(b['first_nodes'])} search nodes{orders} and "
            f"{_n(b['first_sat_conflicts'])} SAT conflicts (doubling each round), "
            f"confirmations{scale} {_n(b['confirm_sat_conflicts'])} SAT conflicts, "
            f"CP-SAT deterministic time {_n(b['confirm_cpsat_dtime'])}, {_n(b['confirm_nodes'])} nodes")


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def format_text(summary: dict) -> str:
    lines = [f"{summary['store']}: {summary['rows']} decks"]
    for b in summary["budgets"]:
        players = ", ".join(str(p) for p in b["players"])
        rows = "1 row" if b["rows"] == 1 else f"{b['rows']:,} rows"
        lines.append(f"budget: {budget_words(b['budget'])}; {players} players, {rows}")
    lines += ["winnable: a replayed line reaches the perfect score; unwinn.: a proven bound below it "
              "((1 meth.): proved by one method, not yet confirmed by a second); undec.: neither; "
              "share: winnable / (winnable + unwinn.)", ""]
    head = (f"{'variant':<20} {'pl':>2} {'decks':>7} {'exact':>7} {'winnable':>9} {'unwinn.':>8} {'(1 meth.)':>9} "
            f"{'undec.':>6} {'share':>8} {'95% CI':>16} {'mean s':>8} {'max s':>7}")
    lines.append(head)
    lines.append("-" * len(head))
    for g in summary["groups"]:
        lo, hi = g["winnable_share_95"]
        ci = f"{100 * lo:.1f}-{100 * hi:.1f}%" if g["winnable"] + g["unwinnable"] else "-"
        lines.append(f"{g['variant']:<20} {g['players']:>2} {g['decks']:>7} {g['exact']:>7} {g['winnable']:>9} "
                     f"{g['unwinnable']:>8} {g['unwinnable_one_method']:>9} {g['undecided']:>6} "
                     f"{_pct(g['winnable_share']):>8} {ci:>16} {g['seconds_mean']:>8.3f} {g['seconds_max']:>7.2f}")
    for g in summary["groups"]:
        lines.append("")
        lines.append(f"{g['variant']}, {g['players']} players")
        dist = ", ".join(f"{s}: {n}" for s, n in sorted(g["max_scores"].items(), key=lambda kv: -int(kv[0])))
        lines.append(f"  exact maximum scores: {dist or '-'}")
        if g["open_bounds"]:
            lines.append("  not exact (best..bound): " + ", ".join(f"{b}: {n}" for b, n in g["open_bounds"].items()))
        if g["proof_kinds"]:
            lines.append("  why not perfect: " + ", ".join(f"{k} {n}" for k, n in g["proof_kinds"].items()))
    if summary["slowest"]:
        lines.append("")
        lines.append("slowest decks:")
        for s in summary["slowest"]:
            verdict = (str(s["max_score"]) if s["max_score"] == s["upper_bound"]
                       else f"{s['max_score']}..{s['upper_bound']}")
            lines.append(f"  {s['name']:<28} {s['players']}p {s['variant']:<18} {s['seconds']:8.2f} s  "
                         f"max {verdict} ({s['proof_kind']})")
    return "\n".join(lines)


def write_csv(store: Store, path: str) -> int:
    """Every stored row as CSV, written whole or not at all (see
    :func:`solver.common.outputs.write_output`: a full disk leaves ``path`` as it was)."""
    from solver.common.outputs import write_output

    rows = store.dump()
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=FIELDS)
    w.writeheader()
    w.writerows(rows)
    write_output(path, buf.getvalue(), "--csv")
    return len(rows)


def plot(summary: dict, folder: str) -> list[str]:
    """PNG charts: the maximum-score distribution of each group, and the winnable share."""
    import os

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(folder, exist_ok=True)
    written: list[str] = []
    groups = summary["groups"]
    if not groups:
        return written
    fig, axes = plt.subplots(len(groups), 1, figsize=(8, 2.2 * len(groups)), squeeze=False)
    for ax, g in zip(axes[:, 0], groups):
        scores = sorted((int(s), n) for s, n in g["max_scores"].items())
        if scores:
            # whole scores only, the count written on each bar (a log scale shows rare scores)
            xs, ys = zip(*scores)
            pcts = [100 * y / g["decks"] for y in ys]
            ax.bar(xs, pcts, color="#4477aa", width=0.8)
            ax.set_yscale("log")
            ax.set_ylim(min(min(pcts) / 3, 0.5), 400)
            ticks = range(min(min(xs), max(xs) - 4), max(xs) + 1)
            ax.set_xticks(list(ticks))
            ax.set_xlim(ticks[0] - 0.6, ticks[-1] + 0.6)
            for x, y, pc in zip(xs, ys, pcts):
                ax.text(x, pc * 1.15, str(y), ha="center", va="bottom", fontsize=7)
        ax.set_title(f"{g['variant']}, {g['players']} players ({g['decks']} decks, {g['exact']} exact)", fontsize=9)
        ax.set_ylabel("% of decks")
    axes[-1, 0].set_xlabel("exact maximum score")
    fig.tight_layout()
    p = os.path.join(folder, "max_scores.png")
    save_figure(fig, p, "", 110)
    plt.close(fig)
    written.append(p)

    # one horizontal bar per group, full names, the share written at each bar
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.4 * len(groups)))
    labels = [f"{g['variant']}, {g['players']}p" for g in groups]
    shares = [100 * (g["winnable_share"] or 0) for g in groups]
    errs = [[max(0.0, 100 * ((g["winnable_share"] or 0) - g["winnable_share_95"][0])) for g in groups],
            [max(0.0, 100 * (g["winnable_share_95"][1] - (g["winnable_share"] or 0))) for g in groups]]
    bar_ys = range(len(groups))
    ax.barh(bar_ys, shares, xerr=errs, color="#228833", capsize=3)
    ax.set_yticks(bar_ys, labels, fontsize=8)
    ax.invert_yaxis()
    low = max(0.0, 5 * int((min(shares) - 3) // 5)) if shares else 0.0
    ax.set_xlim(low, 100.5)
    for y, v, g in zip(bar_ys, shares, groups):
        text = f"{v:.2f}%" if g["winnable_share"] is not None else "no decided decks"
        ax.text(low + 0.01 * (100.5 - low), y, text, va="center", fontsize=7, color="white", fontweight="bold")
    ax.set_xlabel(f"winnable decks (%, axis from {low:g}%)")
    ax.set_title("Share of decks where the perfect score is reachable (95% CI)", fontsize=10)
    fig.tight_layout()
    p = os.path.join(folder, "winnable_share.png")
    save_figure(fig, p, "", 110)
    plt.close(fig)
    written.append(p)
    return written
