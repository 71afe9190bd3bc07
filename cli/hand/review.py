"""``hand review GAME``: the game review of Hand (docs/hand.md, "Game review").

The analysis is :func:`solver.hand.review_game` (a frozen result, no printing); this
module reads the game, checks every option and output path before the work, and writes
the text, the JSON object (:func:`review_json`) and the chart (:func:`plot_review`,
matplotlib with the Agg backend, imported only for ``--plot``). Bad input is one line
``error: ...`` and exit code 2, through :class:`HandGroup`.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from solver.common.outputs import save_figure
from solver.hand import DEFAULT_COOP_NODES, DEFAULT_NODES, GameReview, Mistake, RoundReview, SeatReview
from solver.hand.rules import NUM_SEATS, Card, MalformedError, Match, load_json_text

from .common import read_source

JSON_FORMAT = "hand-review"
JSON_VERSION = 1


def _score(x: int | None) -> str:
    return "?" if x is None else f"{x:+d}" if x else "0"


def _classes(groups: Sequence[Sequence[Card]]) -> str:
    return ", ".join("/".join(map(str, g)) for g in groups)


def _mistake_line(m: Mistake) -> str:
    keep = f"kept {_score(m.before)}: {_classes(m.better)}" if m.better else "no other card kept it"
    if m.undecided:
        keep += f" (undecided: {_classes(m.undecided)})"
    extra = " (timeout)" if m.timeout else ""
    lost = "  <- bid lost" if m.loses_bid else ""
    return (f"    trick {m.trick}, card {m.index + 1}: {str(m.card) + extra:<13} {_score(m.before):>4} -> "
            f"{_score(m.after):>4}   {keep}{lost}")


def _seat_lines(s: SeatReview) -> list[str]:
    head = f"  seat {s.seat}, bid {s.bid}: "
    if s.start is None:
        head += "G at the deal undecided within the node budget"
    elif s.status == "kept" or s.guaranteed_from == 0:
        head += f"guaranteed at the deal ({_score(s.start)})"
    else:
        head += f"not guaranteed at the deal (G {_score(s.start)}, made {_score(s.made_score)})"
        if s.guaranteed_from is not None:
            head += f", guaranteed after card {s.guaranteed_from} (the others' cards gave it)"
    m = s.first_loss
    if s.status in ("kept", "gained"):
        head += " and never lost"
    elif s.status == "unknown" and s.start is not None:
        head += "; whether a card lost it is undecided within the node budget"
    elif m is not None:
        head += (f"; lost at trick {m.trick}, card {m.index + 1}: {m.card} "
                 f"({_score(m.before)} -> {_score(m.after)})")
        head += f"; instead {_classes(m.better)} kept it" if m.better else ""
    out = [head]
    if s.mistakes:
        out.append(f"   {len(s.mistakes)} card(s) lowered its guaranteed score:")
        out.extend(_mistake_line(m) for m in s.mistakes)
    elif s.status != "unknown":
        out.append("   none of its cards lowered its guaranteed score")
    if s.undecided_cards:
        out.append("   undecided within the node budget: cards " + ", ".join(str(i + 1) for i in s.undecided_cards))
    return out


def _table_line(r: RoundReview) -> str:
    t = r.table
    bids = " ".join(map(str, t.bids))
    if t.status == "never":
        return f"  table: the bids {bids} could not all be made together from the deal"
    if t.status == "unknown":
        return f"  table: whether the bids {bids} could all be made together is undecided within the node budget"
    if t.status == "kept":
        end = "the end" if r.over else "the last card played" if r.plays else "the deal (no card played yet)"
        return f"  table: the bids {bids} could all be made together up to {end}"
    line = (f"  table: the bids {bids} could all be made together until trick {t.loss_trick}, card "
            f"{(t.loss_index or 0) + 1}: {t.loss_card} by seat {t.loss_seat}")
    if t.better:
        line += f"; instead {_classes(t.better)} kept them"
    if t.undecided:
        line += f" (undecided: {_classes(t.undecided)})"
    return line


def format_review(rv: GameReview) -> str:
    """The review as text: per round the seats, the table line and the result."""
    lines: list[str] = []
    rule_words = "exact bids" if rv.rule == "exact" else "at least the bid"
    for r in rv.rounds:
        dealer = "" if r.deal is None else f"dealer {r.deal.dealer}, "
        lines.append(f"Round {r.index + 1}: {dealer}seat {r.start.leader} leads; bids "
                     f"{' '.join(map(str, r.bids))}; {rule_words}; {len(r.plays)} cards played")
        for s in r.seats:
            lines.extend(_seat_lines(s))
        lines.append(_table_line(r))
        tricks = " ".join(map(str, r.tricks))
        if r.scores is not None:
            made = [s.seat for s in r.seats if s.made]
            made_words = "no seat" if not made else f"seat {made[0]}" if len(made) == 1 else \
                "seats " + ", ".join(map(str, made))
            lines.append(f"  result: tricks {tricks}; scores {' '.join(_score(x) for x in r.scores)}; "
                         f"bid made by {made_words}")
        else:
            lines.append(f"  unfinished: tricks so far {tricks}")
    if not rv.complete:
        lines.append("Not every value was decided within the node budget ('?': unknown; --nodes raises it).")
    return "\n".join(lines)


def _cards(groups: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[str(c) for c in g] for g in groups]


def _mistake_json(m: Mistake) -> dict[str, Any]:
    return {"index": m.index, "trick": m.trick, "seat": m.seat, "card": str(m.card), "before": m.before,
            "after": m.after, "better": _cards(m.better), "undecided": _cards(m.undecided),
            "loses_bid": m.loses_bid, "timeout": m.timeout}


def review_json(rv: GameReview) -> dict[str, Any]:
    """The ``--json`` object (docs/hand.md, "Game review")."""
    rounds = []
    for r in rv.rounds:
        t = r.table
        rounds.append({
            "round": r.index + 1, "dealer": None if r.deal is None else r.deal.dealer, "leader": r.start.leader,
            "bids": list(r.bids),
            "plays": [str(c) for c in r.plays], "players": list(r.players), "timeouts": list(r.timeouts),
            "over": r.over, "tricks": list(r.tricks), "scores": None if r.scores is None else list(r.scores),
            "seats": [{"seat": s.seat, "bid": s.bid, "made_score": s.made_score, "status": s.status,
                       "start": s.start, "guaranteed_from": s.guaranteed_from, "curve": list(s.curve),
                       "searched": list(s.searched),
                       "first_loss": None if s.first_loss is None else _mistake_json(s.first_loss),
                       "mistakes": [_mistake_json(m) for m in s.mistakes],
                       "undecided_cards": list(s.undecided_cards), "tricks": s.tricks, "score": s.score,
                       "made": s.made, "nodes": s.nodes} for s in r.seats],
            "table": {"status": t.status, "makeable": list(t.makeable), "loss_index": t.loss_index,
                      "loss_trick": t.loss_trick, "loss_seat": t.loss_seat,
                      "loss_card": None if t.loss_card is None else str(t.loss_card),
                      "better": _cards(t.better), "undecided": _cards(t.undecided), "nodes": t.nodes},
            "complete": r.complete, "nodes": r.nodes})
    return {"format": JSON_FORMAT, "version": JSON_VERSION, "rule": rv.rule, "rounds": rounds,
            "complete": rv.complete, "nodes": rv.nodes}


SEAT_COLOURS = ("#4477aa", "#ee6677", "#228833", "#aa3377")


def plot_review(rv: GameReview, path: str, title: str = "") -> None:
    """Per round one panel: each seat's G(s, b) before every card (step lines; gaps where
    undecided), a dot at each mistake (the value after it), a ring at the first loss."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(rv.rounds)
    fig, axes = plt.subplots(n, 1, figsize=(11, 2.8 * n + 0.6), squeeze=False)
    for ax, r in zip(axes[:, 0], rv.rounds):
        for s in r.seats:
            colour = SEAT_COLOURS[s.seat % len(SEAT_COLOURS)]
            ys = [float("nan") if v is None else float(v) for v in s.curve]
            ax.step(range(len(ys)), ys, where="post", color=colour, lw=1.6, label=f"seat {s.seat} (bid {s.bid})")
            for m in s.mistakes:
                ax.plot([m.index + 1], [m.after], "o", color=colour, ms=5)
            if s.first_loss is not None:
                ax.plot([s.first_loss.index + 1], [s.first_loss.after], "o", mfc="none", mec="black", ms=10)
        for k in range(NUM_SEATS, len(r.plays), NUM_SEATS):
            ax.axvline(k, color="#bbbbbb", lw=0.5)
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xlim(0, 32)
        ax.set_ylabel("G(s, b)")
        ax.set_title(f"Round {r.index + 1}: bids {' '.join(map(str, r.bids))}", fontsize=9)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("cards played (a dot: a mistake, the value after it; a ring: the bid lost)")
    fig.suptitle(title or "Hand game review", fontsize=10)
    fig.tight_layout()
    try:
        save_figure(fig, str(path), "--plot", 100)
    finally:
        plt.close(fig)


@click.command()
@click.argument("game")
@click.option("--round", "round_no", type=int, default=None, metavar="K",
              help="Review round K only (1 = the first); default every round.")
@click.option("--nodes", type=click.IntRange(1), default=None,
              help=f"Node budget of each search: one seat, one position (deterministic; default {DEFAULT_NODES}); "
                   "what it does not decide is '?'.")
@click.option("--plot", "plot_path", default=None, metavar="F",
              help="Write the chart of every seat's guaranteed score to F (.png, .svg or .pdf).")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"format": "hand-review", "version", "rule", "rounds": [...], "complete", '
                   '"nodes"} (docs/hand.md).')
def review(game: str, round_no: int | None, nodes: int | None, plot_path: str | None, as_json: bool) -> None:
    """Game review: per round and seat, the score it could guarantee with its bid before and
    after every card (every card visible, the other three against it), the cards that
    lowered it and what kept it instead, the first card that lost the bid; and the first
    card after which the four bids could no longer all be made together.

    GAME: a game JSON file ('-': standard input), as `hand replay` reads it."""
    from solver.hand import review_game

    where, text = read_source(game)
    match = Match.from_json(load_json_text(text, where), where)
    if not match.rounds:
        raise MalformedError(f"{where}: the game has no round to review")
    if round_no is not None and not 1 <= round_no <= len(match.rounds):
        raise MalformedError(f"--round {round_no}: {where} has rounds 1..{len(match.rounds)}")
    if plot_path is not None:
        from solver.common.outputs import check_plot_path

        check_plot_path(plot_path)
    rounds = None if round_no is None else [round_no - 1]
    rv = review_game(match, rounds, nodes=nodes or DEFAULT_NODES, coop_nodes=nodes or DEFAULT_COOP_NODES)
    if plot_path is not None:
        try:
            plot_review(rv, plot_path, title=f"{where}: game review")
        except OSError as e:
            raise MalformedError(f"--plot {plot_path}: cannot write: {e.strerror or e}") from None
    if as_json:
        click.echo(json.dumps(review_json(rv)))
    else:
        click.echo(format_review(rv))
