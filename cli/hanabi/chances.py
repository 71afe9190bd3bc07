"""``hanabi chances``: the win probability and expected score of each move when the pile's
order is unknown (:func:`solver.hanabi.chances.chances`), as text or JSON."""
from __future__ import annotations

import json

import click

from cli.inputs import check_seconds, check_turn, input_options
from solver.hanabi.chances.api import DEFAULT_NODES, OBJECTIVES, Chances, Count
from solver.hanabi.methods.strategy import greedy_line
from solver.hanabi.rules import MalformedError, State

NODES_PER_SECOND = 100_000  # --timeout S is a budget of S x this many nodes (deterministic)


def percent(c: Count) -> str:
    if c.exact:
        return f"{100 * float(c.value):.2f}%"
    return f"{100 * float(c.value):.2f}-{100 * float(c.upper):.2f}%"


def orders_text(c: Count) -> str:
    if c.exact:
        return f"wins {c.lo} of {c.den} orders ({percent(c)})"
    return f"wins between {c.lo} and {c.hi} of {c.den} orders ({percent(c)}; not decided within the budget)"


def mean_text(c: Count) -> str:
    if c.exact:
        v = c.value
        return f"{float(v):.3f}" + ("" if v.denominator == 1 else f" (= {v.numerator}/{v.denominator})")
    return f"{float(c.value):.3f}-{float(c.upper):.3f}"


def format_text(state: State, r: Chances) -> str:
    g = state.game
    lines = []
    mover = g.player_name(state.current) if not state.over else "nobody"
    pile = " ".join(f"{c}x{k}" if k > 1 else c for c, k in r.pile) or "(empty)"
    lines.append(f"After {r.turn} actions, {mover} to act; score {state.score}, {state.clues} clue units, "
                 f"{state.strikes} strikes; {r.deck_left} cards in the pile, order unknown: {pile}")
    lines.append(f"Target: {r.target}: {r.target_reason}; the orders of the pile: {r.orders}")
    if r.win is not None:
        lines.append(f"P(reach {r.target}) with the best play: {orders_text(r.win)}")
    if r.score is not None:
        lines.append(f"Expected final score with the best play: {mean_text(r.score)}")
    if r.clairvoyant_win is not None or r.clairvoyant_score is not None:
        parts = []
        if r.clairvoyant_win is not None:
            parts.append(f"P(reach {r.target}) {percent(r.clairvoyant_win)}")
            if r.win is not None and r.win.exact and r.clairvoyant_win.exact:
                cost = r.clairvoyant_win.value - r.win.value
                parts.append(f"not knowing the order costs {100 * float(cost):.2f} points of probability")
        if r.clairvoyant_score is not None:
            parts.append(f"expected score {mean_text(r.clairvoyant_score)}")
        lines.append("Knowing the order (deck-known): " + "; ".join(parts))
    else:
        lines.append(f"Knowing the order (deck-known): not computed ({r.clairvoyant_note})")
    if not r.moves:
        lines.append("The game is over.")
        return "\n".join(lines)
    best = set(id(m) for m in r.best)
    lines.append("")
    head = f"  {'move':<40}"
    if r.win is not None:
        head += f" {'P(reach ' + str(r.target) + ')':>18} {'orders won':>22}"
    if r.score is not None:
        head += f" {'E[score]':>14}"
    lines.append(head)
    for m in r.moves:
        row = f"{'*' if id(m) in best else ' '} {m.text:<40}"
        if m.win is not None:
            won = f"{m.win.lo}" if m.win.exact else f"{m.win.lo}-{m.win.hi}"
            row += f" {percent(m.win):>18} {won + ' of ' + str(m.win.den):>22}"
        if m.score is not None:
            row += f" {mean_text(m.score) if m.score.exact else mean_text(m.score):>14}"
        lines.append(row)
    lines.append("")
    if r.best:
        more = f" (or {len(r.best) - 1} more as good)" if len(r.best) > 1 else ""
        lines.append(f"Best move: {r.best[0].text}{more}")
    elif not r.exact:
        lines.append("The position's value was not decided within the budget (--nodes): intervals shown.")
    else:
        lines.append("Every move's value was not decided within the budget (--nodes): intervals shown.")
    lines.append(f"({r.nodes} nodes searched)")
    return "\n".join(lines)




def position(rec, turn: int | None, left: int | None) -> tuple[State, str]:
    """The position asked for: after ``turn`` actions of the record (or, for an input
    without actions, of the greedy line), or the first one with at most ``left`` cards in
    the pile; and where it came from, in words."""
    if turn is not None and left is not None:
        raise MalformedError("give only one of --turn and --left")
    state = rec.game.initial_state()
    acts = list(rec.actions)
    where = f"{rec.source}"
    if not acts and (turn is not None or left is not None):
        acts, _ = greedy_line(state)
        where += " played by the greedy strategy"
    if turn is not None:
        check_turn(rec.source, turn, len(acts))
        state.apply_all(acts[:turn], f"{rec.source}: action")
        return state, where
    if left is not None:
        if left < 0:
            raise MalformedError(f"--left {left}: must be 0 or more cards")
        for a in acts:
            if state.deck_left <= left:
                break
            state.apply(a)
        if state.deck_left > left:
            raise MalformedError(f"{where}: the pile never gets down to {left} cards before the game ends")
        return state, where
    state.apply_all(acts, f"{rec.source}: action")
    return state, where


@click.command()
@input_options
@click.option("--turn", type=int, default=None,
              help="The position after this many actions (of the game, or of the greedy line for a deck or seed).")
@click.option("--left", type=int, default=None,
              help="The first position with at most this many cards in the pile.")
@click.option("--target", type=int, default=None, help="The score to reach (default: the most the cards allow).")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="both", show_default=True,
              help="win: the probability of reaching the target; score: the expected score; both.")
@click.option("--nodes", type=int, default=None,
              help=f"Node budget of each search (default {DEFAULT_NODES:,}); past it, intervals.")
@click.option("--timeout", type=float, default=None,
              help=f"A budget in seconds, counted as {NODES_PER_SECOND:,} nodes a second (deterministic).")
@click.option("--no-clairvoyant", is_flag=True, help="Skip the deck-known value.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (fractions as {num, den, value}).")
def chances(rec, turn, left, target, objective, nodes, timeout, no_clairvoyant, as_json):
    """The chance of reaching the target, and the expected score, of each move when every
    hand is known and the order of the pile is not (exact counts over its orders)."""
    from solver.hanabi.chances.api import chances as run

    if nodes is not None and timeout is not None:
        raise MalformedError("give only one of --nodes and --timeout")
    if timeout is not None:
        check_seconds(timeout, "--timeout")
        nodes = max(1, int(timeout * NODES_PER_SECOND))
    if nodes is not None and nodes < 1:
        raise MalformedError(f"--nodes {nodes}: must be a positive number of nodes")
    state, _ = position(rec, turn, left)
    r = run(state, target=target, objective=objective, budget=nodes or DEFAULT_NODES,
            clairvoyant=not no_clairvoyant)
    if as_json:
        click.echo(json.dumps(r.to_json(state)))
    else:
        click.echo(format_text(state, r))


COMMANDS = (chances,)
