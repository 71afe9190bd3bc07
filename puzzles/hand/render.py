"""A picture of a Hand puzzle (matplotlib, Agg backend, one figure: SVG, PNG or PDF).

The question as the title; the four hands around a table, the puzzle's seat at the bottom
and the others in playing order counter-clockwise (to its right, opposite, to its left),
each card with its rank and suit symbol in the suit's colour (a four-colour deck); each
seat's bid and tricks taken, the seat to move outlined; in the middle the trick in
progress (each card in front of the seat that played it, the lead marked, an empty place
for the seat to move) and the tricks left; below, a note of the tricks already played.
Nothing of the solution is drawn: no card is marked, and the classes, the answer and the
line stay in the file.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed; set before anything draws

from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyBboxPatch, Rectangle  # noqa: E402

from solver.common.outputs import check_output_path, save_figure
from solver.hand.rules import (  # noqa: E402
    NUM_SEATS,
    SUIT_NAMES,
    MalformedError,
    Position,
    cards_of,
    rank_of,
    suit_of,
    trick_winner,
)

from .format import SAFE, HandPuzzle  # noqa: E402

FORMATS = ("svg", "png", "pdf")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")  # C D H S
SUIT_COLORS = ("#1f7a2e", "#1f5fbf", "#c8231a", "#1a1a1a")  # clubs green, diamonds blue, hearts red, spades black
RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
HIGHLIGHT = "#d9822b"

CARD_W, CARD_H = 0.8, 1.12
STEP = 0.88  # from one card of a hand to the next
SIDE_ROW = 5  # cards a row in the hands left and right of the table
WIDTH = 16.0
BODY_H = 10.4
HEADER_W = 3.0  # the width of a seat's two header lines, about


def card_label(card: int) -> str:
    """The text drawn on a card: rank then suit symbol, ``"Q\u2663"``, ``"10\u2665"``."""
    return RANK_LABELS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def _hand_cards(mask: int) -> list[int]:
    """A hand's cards, highest first: spades, hearts, diamonds, clubs (as the notation)."""
    return sorted(cards_of(mask), key=lambda c: (-suit_of(c), -rank_of(c)))


def _card(ax: Axes, x: float, y: float, card: int, scale: float = 1.0) -> None:
    """A card with its lower-left corner at (x, y)."""
    w, h = CARD_W * scale, CARD_H * scale
    color = SUIT_COLORS[suit_of(card)]
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle=f"round,pad=0,rounding_size={0.07 * scale}",
                                facecolor="#ffffff", edgecolor="#555555", linewidth=0.9, zorder=3))
    ax.text(x + w / 2, y + h * 0.62, card_label(card), ha="center", va="center", fontsize=15 * scale,
            fontweight="bold", color=color, zorder=4)
    ax.text(x + w / 2, y + h * 0.25, SUIT_SYMBOLS[suit_of(card)], ha="center", va="center", fontsize=17 * scale,
            color=color, zorder=4)


def _hand_box(n: int, side: bool) -> tuple[float, float]:
    """(width, height) of a hand of ``n`` cards: one row, or rows of SIDE_ROW at the sides."""
    per = min(max(n, 1), SIDE_ROW) if side else max(n, 1)
    rows = -(-max(n, 1) // per)
    return (per - 1) * STEP + CARD_W, (rows - 1) * (CARD_H + 0.12) + CARD_H


def _seat_score(pos: Position, seat: int) -> str:
    bids = pos.bids
    bid = "?" if bids is None else str(bids[seat])
    return f"bid {bid}, taken {pos.taken[seat]}"


def draw_hand_position(pos: Position, seat: int, title: str = "", subtitle: str = "",
                       history: list[str] | None = None) -> Figure:
    """The table of ``pos`` seen from ``seat`` (drawn at the bottom) as a matplotlib figure."""
    history = history or []
    lines = textwrap.wrap(title, 92) if title else []
    head_h = 0.42 * len(lines) + (0.45 if subtitle else 0) + 0.35
    hist_rows = -(-len(history) // 2)
    foot_h = 0.55 + (0.42 + 0.34 * hist_rows if history else 0.0)
    height = head_h + BODY_H + foot_h
    fig = Figure(figsize=(WIDTH * 0.62, height * 0.62))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(0, height)
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), WIDTH, height, facecolor="#f4f1e8", edgecolor="none", zorder=0))
    y = height - 0.3
    for line in lines:
        ax.text(0.35, y, line, ha="left", va="top", fontsize=12.5, fontweight="bold", zorder=5)
        y -= 0.42
    if subtitle:
        ax.text(0.35, y, subtitle, ha="left", va="top", fontsize=9.5, color="#444444", zorder=5)
    body0 = foot_h  # the body spans [body0, body0 + BODY_H]
    cx, cy = WIDTH / 2, body0 + BODY_H / 2
    # the felt
    fw, fh = 5.8, 5.0
    ax.add_patch(FancyBboxPatch((cx - fw / 2, cy - fh / 2), fw, fh, boxstyle="round,pad=0,rounding_size=0.5",
                                facecolor="#2f6f4f", edgecolor="#24553c", linewidth=2, zorder=1))
    mover = pos.to_move
    over = pos.is_over
    # the hands: slot 0 bottom, 1 right, 2 top, 3 left (playing order, counter-clockwise)
    for s in range(NUM_SEATS):
        slot = (s - seat) % NUM_SEATS
        cards = _hand_cards(pos.hands[s])
        side = slot in (1, 3)
        w, h = _hand_box(len(cards), side)
        if slot == 0:
            x0, y0 = cx - w / 2, body0 + 0.35
        elif slot == 2:
            x0, y0 = cx - w / 2, body0 + BODY_H - 1.05 - h
        elif slot == 1:
            x0, y0 = WIDTH - 0.45 - w, cy - h / 2
        else:
            x0, y0 = 0.45, cy - h / 2
        per = min(max(len(cards), 1), SIDE_ROW) if side else max(len(cards), 1)
        for i, c in enumerate(cards):
            row, col = divmod(i, per)
            _card(ax, x0 + col * STEP, y0 + h - CARD_H - row * (CARD_H + 0.12), c)
        if not cards:
            ax.text(x0 + w / 2, y0 + h / 2, "no card", ha="center", va="center", fontsize=9, color="#777777")
        to_move = s == mover and not over
        name = f"Seat {s}" + ("   \u25b6 to play" if to_move else "")
        ha = "center" if not side else ("left" if slot == 3 else "right")
        hx = x0 + w / 2 if not side else (x0 if slot == 3 else x0 + w)
        color = "#9a4a08" if to_move else "#222222"
        ax.text(hx, y0 + h + 0.5, name, ha=ha, va="bottom", fontsize=10.5, fontweight="bold", color=color, zorder=5)
        ax.text(hx, y0 + h + 0.12, _seat_score(pos, s), ha=ha, va="bottom", fontsize=9.5, color=color, zorder=5)
        if to_move:
            bw = max(w, HEADER_W) + 0.3
            bx = x0 + w / 2 - bw / 2 if not side else (x0 - 0.15 if slot == 3 else x0 + w + 0.15 - bw)
            ax.add_patch(FancyBboxPatch((bx, y0 - 0.15), bw, h + 1.2, boxstyle="round,pad=0,rounding_size=0.15",
                                        facecolor="#fbe6c8", edgecolor=HIGHLIGHT, linewidth=2.2, zorder=2))
    # the trick in progress: each card in front of the seat that played it
    offsets = ((0.0, -1.25), (1.55, 0.0), (0.0, 1.25), (-1.55, 0.0))
    for i in range(NUM_SEATS):
        s = (pos.leader + i) % NUM_SEATS
        dx, dy = offsets[(s - seat) % NUM_SEATS]
        x, y = cx + dx - CARD_W / 2, cy + dy - CARD_H / 2
        if i < len(pos.table):
            _card(ax, x, y, pos.table[i])
            tag = f"seat {s}" + (", led" if i == 0 else "")
            ax.text(x + CARD_W / 2, y - 0.06, tag, ha="center", va="top", fontsize=8,
                    color="#f6e7a8" if i == 0 else "#e6efe9", fontweight="bold" if i == 0 else "normal", zorder=5)
        elif s == mover and not over:
            ax.add_patch(FancyBboxPatch((x, y), CARD_W, CARD_H, boxstyle="round,pad=0,rounding_size=0.07",
                                        facecolor="none", edgecolor="#f6c27a", linestyle="--", linewidth=1.6,
                                        zorder=3))
            ax.text(x + CARD_W / 2, y + CARD_H / 2, "?", ha="center", va="center", fontsize=18,
                    color="#f6c27a", zorder=4)
            ax.text(x + CARD_W / 2, y - 0.06, f"seat {s}" + (" leads" if i == 0 else ""), ha="center", va="top",
                    fontsize=8, color="#f6c27a", zorder=5)
    left = pos.tricks_left
    done = sum(pos.taken)
    ax.text(cx - fw / 2 + 0.25, cy + fh / 2 - 0.2, f"Trick {done + 1}: {left} trick{'s' if left != 1 else ''} "
            "left, this one included", ha="left", va="top", fontsize=8.5, color="#e6efe9", zorder=5)
    if pos.table:
        ax.text(cx - fw / 2 + 0.25, cy - fh / 2 + 0.2, f"seat {pos.leader} led {SUIT_NAMES[suit_of(pos.table[0])]}",
                ha="left", va="bottom", fontsize=8.5, color="#e6efe9", zorder=5)
    # the foot: playing order and the tricks played
    order = " \u2192 ".join(str((seat + k) % NUM_SEATS) for k in range(NUM_SEATS))
    ax.text(0.35, foot_h - 0.12, f"Play passes counter-clockwise (to the right): seat {order}. "
            "Each seat must follow the suit led; the highest card of that suit wins; no trumps.",
            ha="left", va="top", fontsize=8.5, color="#555555", zorder=5)
    if history:
        yy = foot_h - 0.6
        ax.text(0.35, yy, "Tricks played", ha="left", va="top", fontsize=9, fontweight="bold", color="#333333")
        for k, note in enumerate(history):
            col, row = divmod(k, hist_rows)
            ax.text(0.35 + col * 7.3, yy - 0.36 - row * 0.34, note, ha="left", va="top", fontsize=8.5,
                    color="#333333")
    return fig



def tricks_played(pz: HandPuzzle) -> list[str]:
    """The completed tricks before the position, one line each: who led, the cards, who won
    (the first leader is the seat after the dealer; each trick's winner leads the next)."""
    leader = (pz.deal.dealer + 1) % NUM_SEATS
    out = []
    full = len(pz.plays) - len(pz.plays) % NUM_SEATS
    for t in range(0, full, NUM_SEATS):
        cards = pz.plays[t:t + NUM_SEATS]
        won = trick_winner(cards, leader)
        seats = "  ".join(f"{(leader + i) % NUM_SEATS}:{card_label(c)}" for i, c in enumerate(cards))
        out.append(f"{t // NUM_SEATS + 1}. {seats}  \u2192 seat {won}")
        leader = won
    return out


def puzzle_title(pz: HandPuzzle) -> tuple[str, str]:
    """(the question, a line naming the puzzle: id, kind, difficulty, size)."""
    kind = "safe: make sure of your own bid" if pz.kind == SAFE else "table: every bid still makeable"
    sub = (f"{pz.id}    {kind}    difficulty: {pz.difficulty}    {pz.cards_per_hand} cards a hand    "
           f"rule: {pz.rule} bids")
    return pz.text, sub


def output_format(out: str | Path) -> str:
    """The picture's format from ``out``'s extension, once ``out`` is known writable:
    :class:`MalformedError` naming the path otherwise (checked before anything is drawn)."""
    p = Path(out)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise MalformedError(f"{p}: the picture must be .svg, .png or .pdf (got {p.suffix or 'no extension'!r})")
    check_output_path(str(p), "--out")
    return fmt


def draw_puzzle(pz: HandPuzzle) -> Figure:
    """The puzzle's position (its ``position`` field, as the puzzle shows it) as a figure."""
    pos = Position.parse(pz.position, f"{pz.id}: position")
    title, sub = puzzle_title(pz)
    return draw_hand_position(pos, pz.seat, title, sub, tricks_played(pz))


def render_puzzle(pz: HandPuzzle, out: str | Path) -> Path:
    """Draw the puzzle to ``out`` (``.svg``, ``.png`` or ``.pdf``). SVG and PDF are
    deterministic (no date, fixed ids)."""
    p = Path(out)
    fmt = output_format(p)
    fig = draw_puzzle(pz)
    meta: dict[str, str | None] | None = {"Date": None} if fmt == "svg" else \
        {"CreationDate": None, "ModDate": None} if fmt == "pdf" else None
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "hand-puzzle"}):
        save_figure(fig, str(p), "", 110, fmt, metadata=meta)
    return p


__all__ = ["FORMATS", "card_label", "draw_hand_position", "draw_puzzle", "output_format", "puzzle_title",
           "render_puzzle", "tricks_played"]
