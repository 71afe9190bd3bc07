"""A picture of a puzzle's table (matplotlib, one figure, SVG or PNG).

It shows the question, the stacks, the clue and strike tokens, every hand (newest card
first, as hanab.live draws them, each card with its order ``#N``), the draw pile in order
(next card first) and the discard pile grouped by suit. Marks: a thick dark outline is the
last copy of a card still needed, a faded card can never score, a small triangle is a
card playable now.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed; set before anything draws

from matplotlib import patheffects  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle  # noqa: E402

from solver.common.outputs import save_figure
from solver.hanabi.rules import MalformedError, State  # noqa: E402

from .format import Puzzle  # noqa: E402

SUIT_COLORS = {
    "Red": "#d63a2f", "Yellow": "#f0c419", "Green": "#3f9e2c", "Blue": "#2f6bd1", "Purple": "#8446b0",
    "Teal": "#19a89a", "Black": "#262626",
}
RAINBOW = ("#d63a2f", "#f0c419", "#3f9e2c", "#2f6bd1", "#8446b0")
DARK_TEXT = {"Yellow"}

CARD_W, CARD_H = 0.9, 1.25
SMALL = 0.55  # scale of the draw-pile and discard cards


def _card(ax, x, y, suit, rank, letter, scale=1.0, faded=False, critical=False, playable=False, label=None):
    """A card with its lower-left corner at (x, y)."""
    w, h = CARD_W * scale, CARD_H * scale
    alpha = 0.3 if faded else 1.0
    name = suit.name if suit is not None else None
    multi = name in ("Rainbow", "Multicolor")
    face = "#ffffff" if multi or suit is None else SUIT_COLORS.get(name, "#888888")
    edge = "#111111" if critical else "#555555"
    box = FancyBboxPatch((x, y), w, h, boxstyle=f"round,pad=0,rounding_size={0.08 * scale}",
                         facecolor=face, edgecolor=edge, linewidth=3.2 if critical else 0.8, alpha=alpha, zorder=2)
    ax.add_patch(box)
    if multi:
        band = h / len(RAINBOW)
        for i, c in enumerate(RAINBOW):
            r = Rectangle((x, y + i * band), w, band, facecolor=c, edgecolor="none", alpha=0.75 * alpha, zorder=2)
            r.set_clip_path(box)
            ax.add_patch(r)
        if critical:  # redraw the outline above the bands
            ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle=f"round,pad=0,rounding_size={0.08 * scale}",
                                        facecolor="none", edgecolor=edge, linewidth=3.2, zorder=3))
    if suit is None:
        return
    color = "#111111" if name in DARK_TEXT else "#ffffff"
    if faded:  # dark text on the faded face stays readable
        color, alpha = "#4a4a4a", 0.85
    outline = []  # plain text on a plain card (SVG text stays text)
    if multi:
        color, outline = "#ffffff", [patheffects.withStroke(linewidth=3 * scale, foreground="#111111")]
    ax.text(x + w / 2, y + h * 0.46, str(rank), ha="center", va="center", fontsize=25 * scale, fontweight="bold",
            color=color, alpha=alpha, zorder=4, path_effects=outline)
    ax.text(x + 0.1 * scale, y + h - 0.09 * scale, letter, ha="left", va="top", fontsize=10 * scale,
            fontweight="bold", color=color, alpha=alpha, zorder=4, path_effects=outline)
    if playable:
        ax.text(x + w - 0.08 * scale, y + h - 0.09 * scale, "\u25b2", ha="right", va="top", fontsize=8 * scale,
                color=color, zorder=4, path_effects=outline)
    if label:
        ax.text(x + w / 2, y - 0.07 * scale, label, ha="center", va="top", fontsize=8 * max(scale, 0.9),
                color="#444444", zorder=4)


def _critical_orders(st: State) -> set[int]:
    """Cards that are the last copy still in play of a card that can still score."""
    left = st.copies_left()
    return {o for o in [o for h in st.hands for o in h] + list(range(st.next_draw, len(st.game.deck)))
            if st.is_critical(o, left)}


def draw_position(st: State, title: str = "", subtitle: str = "", pile_order_hidden: bool = False) -> Figure:
    """The table of ``st`` as a matplotlib figure (units: a hand card is 0.9 x 1.25).
    ``pile_order_hidden``: the draw pile is shown sorted by suit and rank, its order being
    the unknown (chance puzzles)."""
    g = st.game
    v = g.variant
    crit = _critical_orders(st)
    draw = list(range(st.next_draw, len(g.deck)))
    if pile_order_hidden:
        draw.sort(key=lambda o: (g.deck[o], o))
    trash = {o for o in [o for h in st.hands for o in h] + draw if st.is_trash(o)}
    by_suit = [sorted((o for o in st.discards if g.suit_of[o] == s), key=lambda o: (g.rank_of[o], o))
               for s in range(v.num_suits)]
    sw, sh = CARD_W * SMALL, CARD_H * SMALL  # a small card
    step = sw + 0.08
    per_row = 8
    draw_rows = max(1, -(-len(draw) // per_row))
    # the draw pile and the discard pile go in a column right of the hands
    col_x = 2.2 + g.hand_size * 1.05 + 0.7
    col_w = max(per_row * step, 0.45 + max([len(x) for x in by_suit] + [4]) * step) + 0.3
    tokens_x = 0.3 + v.num_suits * 1.05 + 0.6
    width = max(col_x + col_w, tokens_x + max(g.max_clues // g.clue_cost * 0.48, 4.6) + 0.4, 12.0)
    col_h = 0.45 + draw_rows * 1.05 + 0.5 + 0.45 + v.num_suits * (sh + 0.12)
    body_h = max(g.num_players * 1.7 + 0.2, col_h)
    lines = textwrap.wrap(title, int(width * 6.6)) if title else []
    head_h = 0.42 * len(lines) + (0.5 if subtitle else 0) + 0.4
    height = head_h + 2.3 + 0.45 + body_h + 0.7
    fig = Figure(figsize=(width * 0.8, height * 0.8))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), width, height, facecolor="#f6f3ea", edgecolor="none", zorder=0))
    y = height - 0.35
    for line in lines:
        ax.text(0.3, y, line, ha="left", va="top", fontsize=12.5, fontweight="bold", zorder=5)
        y -= 0.42
    if subtitle:
        ax.text(0.3, y, subtitle, ha="left", va="top", fontsize=10, color="#444444", zorder=5)
        y -= 0.5
    # stacks
    y -= 0.4 + 0.35 + CARD_H
    ax.text(0.3, y + CARD_H + 0.12, "Stacks", fontsize=10, fontweight="bold", va="bottom")
    for s, suit in enumerate(v.suits):
        x = 0.3 + s * 1.05
        top = st.stacks[s]  # the stack's height; its top card's rank (read backwards in a reversed suit)
        if top:
            _card(ax, x, y, suit, suit.max_rank + 1 - top if suit.reversed else top, suit.letter)
        else:
            ax.add_patch(FancyBboxPatch((x, y), CARD_W, CARD_H, boxstyle="round,pad=0,rounding_size=0.08",
                                        facecolor="none", edgecolor=SUIT_COLORS.get(suit.name, "#999999"),
                                        linestyle="--", linewidth=1.2, zorder=2))
            ax.text(x + CARD_W / 2, y + CARD_H / 2, suit.letter, ha="center", va="center", fontsize=12,
                    color="#777777")
        ax.text(x + CARD_W / 2, y - 0.08, f"{top}/{suit.max_rank}", ha="center", va="top", fontsize=8,
                color="#444444")
    # tokens and counters
    tx = tokens_x
    ax.text(tx, y + CARD_H + 0.12, f"Clue tokens {g.tokens_text(st.clues)}/{g.tokens_text(g.max_clues)}",
            fontsize=10, fontweight="bold", va="bottom")
    cost = g.clue_cost  # (Clue Starved counts half tokens: a half token is drawn pale)
    for i in range(g.max_clues // cost):
        have = st.clues - i * cost
        ax.add_patch(Circle((tx + 0.2 + i * 0.48, y + CARD_H - 0.25), 0.18,
                            facecolor="#2f6bd1" if have >= cost else "#a9c1ec" if have > 0 else "none",
                            edgecolor="#2f6bd1", linewidth=1.4, zorder=3))
    ax.text(tx, y + 0.45, f"Strikes {st.strikes}/{g.strike_limit}", fontsize=10, fontweight="bold", va="center")
    for i in range(g.strike_limit):
        sx = tx + 2.1 + i * 0.48
        hit = i < st.strikes
        ax.add_patch(Rectangle((sx - 0.17, y + 0.28), 0.34, 0.34, facecolor="#d63a2f" if hit else "none",
                               edgecolor="#d63a2f", linewidth=1.4, zorder=3))
        if hit:
            ax.text(sx, y + 0.45, "\u2715", ha="center", va="center", fontsize=10, color="white", zorder=4)
    info = (f"Score {st.score}/{g.perfect_score}    Deck {st.deck_left}    Pace {st.pace}    "
            f"Turn {st.turn}" + (f"    Turns left {st.turns_left}" if st.turns_left is not None else ""))
    ax.text(tx, y - 0.08, info, fontsize=10, va="top", color="#222222")
    # hands, newest card first
    y -= 0.45
    body_top = y
    for p, hand in enumerate(st.hands):
        y -= 1.7
        me = p == st.current and not st.over
        ax.text(0.3, y + CARD_H / 2 + 0.12, ("\u25b6 " if me else "") + g.names[p], ha="left", va="center",
                fontsize=12, fontweight="bold" if me else "normal", color="#b03020" if me else "#222222")
        ax.text(0.3, y + CARD_H / 2 - 0.3, f"seat {p}" + (" (to move)" if me else ""), ha="left", va="center",
                fontsize=8, color="#666666")
        for i, o in enumerate(reversed(hand)):
            c = g.deck[o]
            suit = v.suits[c.suit]
            _card(ax, 2.2 + i * 1.05, y + 0.15, suit, c.rank, suit.letter, faded=o in trash, critical=o in crit,
                  playable=st.is_playable(o), label=f"#{o}")
    # the draw pile (next card first) and the discard pile (a row per suit)
    y = body_top - 0.1
    head = "Draw pile, order unknown" if pile_order_hidden else "Draw pile, next card first"
    ax.text(col_x, y, f"{head} ({len(draw)})", fontsize=10, fontweight="bold", va="top")
    for k, o in enumerate(draw):
        row, col = divmod(k, per_row)
        c = g.deck[o]
        suit = v.suits[c.suit]
        _card(ax, col_x + col * step, y - 0.45 - sh - row * 1.05, suit, c.rank, suit.letter, scale=SMALL,
              faded=o in trash, critical=o in crit, label=None if pile_order_hidden else str(k + 1))
    if not draw:
        ax.text(col_x, y - 0.55, "empty: this is the final round", fontsize=9, color="#666666", va="top")
    y -= 0.45 + draw_rows * 1.05 + 0.5
    ax.text(col_x, y, f"Discard pile ({len(st.discards)})", fontsize=10, fontweight="bold", va="top")
    for s, orders in enumerate(by_suit):
        yy = y - 0.4 - sh - s * (sh + 0.12)
        ax.text(col_x + 0.25, yy + sh / 2, v.suits[s].letter, ha="right", va="center", fontsize=9, color="#444444")
        for j, o in enumerate(orders):
            c = g.deck[o]
            _card(ax, col_x + 0.45 + j * step, yy, v.suits[s], c.rank, v.suits[s].letter, scale=SMALL)
    legend = ("thick outline: last copy of a card still needed     faded: can never score     "
              "\u25b2 playable now     #N: card order (hanab.live)")
    ax.text(0.3, 0.2, legend, fontsize=8, color="#555555", va="bottom")
    return fig


def puzzle_title(p: Puzzle, st: State) -> tuple[str, str]:
    g = st.game
    title = p.question.get("text") or f"{g.player_name(st.current)} to move. Score {p.target} from here."
    md = p.metadata
    sub = (f"{p.id}    {g.variant.name}, {g.num_players} players    difficulty: {md.get('difficulty', '?')}    "
           f"maximum {p.max_score}")
    return title, sub


def picture_path(out) -> tuple[Path, str]:
    """``out`` as a path and its picture format (``svg`` or ``png``); MalformedError for
    any other suffix (asked before drawing)."""
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise MalformedError(f"{out}: the picture must be .svg or .png")
    return out, fmt


def save_picture(fig: Figure, out: Path, fmt: str) -> None:
    """Write ``fig`` to ``out`` (from :func:`picture_path`), reproducibly: an SVG keeps
    its text as text and carries no date."""
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "hanabi-puzzle"}):
        save_figure(fig, str(out), "", 110, fmt, metadata={"Date": None} if fmt == "svg" else None)


def render_puzzle(p: Puzzle, out) -> Path:
    """Draw the puzzle's position to ``out`` (``.svg`` or ``.png``)."""
    path, fmt = picture_path(out)
    st = p.position()
    title, sub = puzzle_title(p, st)
    save_picture(draw_position(st, title, sub), path, fmt)
    return path


