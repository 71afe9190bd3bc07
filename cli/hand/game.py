"""The ``hand`` command: deals, replays and the full-information analyses of Hand.

Every input is a file (JSON or text notation; ``-`` reads standard input) or the text
itself (anything that is not a file and has a ``:`` in it, like
``"dealer 3: S:AKQ7 H:T98 D:J C:A / ..."``). Bad input is one line ``error: ...`` naming
the problem and where, exit code 2 (the conventions of both commands: :mod:`cli.common`).
"""
from __future__ import annotations

import json
import os
from typing import Any

import click

from solver.hand.rules import (
    NUM_SEATS,
    ROUNDS,
    Deal,
    Match,
    Position,
    card_str,
    format_cards,
    format_hand,
    load_json_text,
    trick_winner,
)

from .common import HandGroup, read_position, read_source, rule_option, seat_option


def print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the package's version and which Hand search kernel runs (the solver
    imported only here, not for every command)."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from solver.hand.search import kernel

    click.echo(f"{ctx.info_name}, version {version('hanabi-solver')}\n{kernel.describe()}")
    ctx.exit()


@click.group(cls=HandGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=print_version,
              help="Show the version and the Hand search kernel in use (pure or compiled), and exit.")
def hand() -> None:
    """Hand (Hareega): deals, replays, and what every seat can force with every card visible."""


@hand.command()
@click.option("--seed", type=int, default=None, help="Seed of the random deal (default: a fresh one).")
@click.option("--dealer", type=click.IntRange(0, NUM_SEATS - 1), default=3, show_default=True,
              help="The dealer; the next seat leads.")
@click.option("--json", "as_json", is_flag=True, help='{"kind": "deal", "dealer", "hands", "seed"}')
def deal(seed: int | None, dealer: int, as_json: bool) -> None:
    """A random deal (seeded: the same seed gives the same deal)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    d = Deal.random(seed, dealer)
    if as_json:
        click.echo(json.dumps({**d.to_json(), "seed": seed}))
        return
    click.echo(f"Deal, seed {seed}: dealer {d.dealer}, seat {d.leader} leads")
    for s in range(NUM_SEATS):
        click.echo(f"  seat {s}  {format_hand(d.hands[s])}")
    click.echo(str(d))


@hand.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True,
              help="{rounds: [{dealer, bids, tricks, scores, trick_log}], totals, winners, rounds_used, needs_more}")
def replay(game: str, as_json: bool) -> None:
    """Replay a game (JSON) through the engine: every trick, the scores, the result."""
    where, text = read_source(game)
    m = Match.from_json(load_json_text(text, where), where)
    res = m.result()
    rounds: list[dict[str, Any]] = []
    lines: list[str] = []
    totals = [0] * NUM_SEATS
    for i, r in enumerate(m.rounds):
        log: list[dict[str, Any]] = []
        dealer = r.deal.dealer if r.deal is not None else r.start.leader - 1
        extra = "" if i < ROUNDS else " (sudden death)"
        lines.append(f"Round {i + 1}{extra}: dealer {dealer}, bids "
                     + " ".join("-" if b is None else str(b) for b in r.bids))
        leader = r.start.leader
        for k in range(0, len(r.played), NUM_SEATS):
            t = r.played[k:k + NUM_SEATS]
            w = trick_winner(t, leader) if len(t) == NUM_SEATS else None
            log.append({"leader": leader, "cards": [card_str(c) for c in t], "winner": w})
            won = f"won by seat {w}" if w is not None else "(unfinished)"
            lines.append(f"  trick {k // NUM_SEATS + 1}: seat {leader} leads  {format_cards(t):<12} {won}")
            if w is not None:
                leader = w
        scores = list(r.scores(m.rule)) if r.is_over else None
        if scores is not None:
            for s in range(NUM_SEATS):
                totals[s] += scores[s]
            lines.append(f"  tricks {' '.join(map(str, r.taken))}  scores {' '.join(f'{x:+d}' for x in scores)}  "
                         f"totals {' '.join(map(str, totals))}")
        else:
            lines.append(f"  unfinished: tricks so far {' '.join(map(str, r.taken))}")
        rounds.append({"dealer": dealer, "bids": list(r.bids), "tricks": list(r.taken), "scores": scores,
                       "over": r.is_over, "trick_log": log, "timeout_bids": sorted(m.timeout_bids[i]),
                       "timeout_plays": sorted(m.timeout_plays[i])})
    if as_json:
        click.echo(json.dumps({"rule": m.rule, "rounds": rounds, "totals": list(res.totals),
                               "winners": list(res.winners), "rounds_used": res.rounds_used,
                               "needs_more": res.needs_more}))
        return
    for line in lines:
        click.echo(line)
    if res.needs_more:
        lines_left = "a round" if res.rounds_used >= ROUNDS else f"{ROUNDS - res.rounds_used} more rounds"
        click.echo(f"Game not over after {res.rounds_used} rounds (needs {lines_left}): totals "
                   f"{' '.join(map(str, res.totals))}")
    elif len(res.winners) == 1:
        click.echo(f"Seat {res.winners[0]} wins with {res.totals[res.winners[0]]} ({res.rounds_used} rounds)")
    else:
        click.echo(f"Seats {', '.join(map(str, res.winners))} share first place with {res.totals[res.winners[0]]} "
                   f"({res.rounds_used} rounds)")


def _vec(v: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, v)) + ")"


def _score(x: int | None) -> str:
    return "?" if x is None else f"{x:+d}" if x else "0"


def _tricks(x: int | None) -> str:
    return "?" if x is None else str(x)


def _exact(e: tuple[int, ...] | None) -> str:
    if e is None:
        return "?"
    return ", ".join(map(str, e)) if e else "none"


def describe_position(pos: Position, deal: Deal | None) -> str:
    if deal is not None:
        return f"Deal: dealer {deal.dealer}, seat {deal.leader} leads, 8 tricks"
    taken = " ".join(map(str, pos.taken))
    if pos.table:
        return (f"Position: seat {pos.to_move} to play, seat {pos.leader} led {format_cards(pos.table)}; "
                f"{pos.tricks_left} tricks left (this one included); taken {taken}")
    return f"Position: seat {pos.to_move} to lead; {pos.tricks_left} tricks left; taken {taken}"


@hand.command()
@click.argument("position")
@seat_option
@rule_option
@click.option("--no-reachable", is_flag=True, help="Skip the cooperative trick vectors (the slowest part).")
@click.option("--nodes", type=click.IntRange(1), default=None,
              help="Node budget of each search (deterministic); what it does not decide is '?'.")
@click.option("--json", "as_json", is_flag=True,
              help="{position, rule, seats: [{seat, most, fewest, exact, scores, best_bid, best_score}], "
                   "reachable, unreachable, nodes, complete}")
def solve(position: str, seat: int | None, rule: str, no_reachable: bool, nodes: int | None,
          as_json: bool) -> None:
    """The bid table, the paranoid bounds and the reachable trick vectors of DEAL|POSITION.

    Every card visible. A seat's bid score is what it can guarantee against the other
    three playing together against it; the reachable vectors are what all four can reach
    by playing together. DEAL|POSITION: a file (JSON or text), '-', or the text itself."""
    from solver.hand.analysis.answers import solve_json, solve_position

    where, deal, pos = read_position(position)
    solved = solve_position(pos, where, seat, rule, with_reachable=not no_reachable, nodes=nodes)
    table, reach, vectors, possible, missing = (solved.table, solved.reach, solved.vectors, solved.possible,
                                                solved.missing)
    if as_json:
        click.echo(json.dumps(solve_json(pos, deal, rule, solved)))
        return
    click.echo(describe_position(pos, deal))
    for s in range(NUM_SEATS):
        click.echo(f"  seat {s}  {format_hand(pos.hands[s])}")
    rule_words = "exact bids" if rule == "exact" else "at least the bid"
    click.echo(f"Bid table ({rule_words}): the score each seat can guarantee against the other three")
    click.echo("  bid     " + "".join(f"{b:>5}" for b in range(9)) + "   best bid")
    for r in table.rows:
        best = "?" if r.best_bid is None else f"{r.best_bid} ({_score(r.best_score)})"
        click.echo(f"  seat {r.seat}  " + "".join(f"{_score(x):>5}" for x in r.scores) + f"   {best}")
    click.echo("Tricks each seat can force against the other three (round totals; most: it can make sure of "
               "at least that many, fewest: of at most that many):")
    for r in table.rows:
        b = r.bounds
        click.echo(f"  seat {r.seat}: most {_tricks(b.most)}, fewest {_tricks(b.fewest)}, exactly {_exact(b.exact)}")
    if reach is not None:
        if vectors is None or missing is None:
            click.echo("Reachable trick vectors: unknown (the node budget ran out)")
        else:
            click.echo(f"Reachable trick vectors (all four playing together): {len(vectors)} of {len(possible)}")
            if missing and len(missing) <= len(vectors):
                click.echo("  not reachable: " + " ".join(_vec(v) for v in missing))
            elif vectors:
                click.echo("  reachable: " + " ".join(_vec(v) for v in vectors))
    if not solved.complete:
        click.echo("Not every answer was decided within the node budget ('?': unknown).")


@hand.command()
@click.argument("position")
@click.option("--bid", type=click.IntRange(0, 8), default=None,
              help="The mover's bid (default: the position's bids, if given).")
@rule_option
@click.option("--nodes", type=click.IntRange(1), default=None, help="Node budget (deterministic).")
@click.option("--json", "as_json", is_flag=True,
              help="{seat, bid, rule, cards: [{cards, score, most, fewest, exact}], best, nodes}")
def best(position: str, bid: int | None, rule: str, nodes: int | None, as_json: bool) -> None:
    """Best card: each distinct legal card of the seat to move in POSITION, with what it
    still guarantees (the score for its bid, the tricks it can force), best first.

    Equivalent cards (adjacent in rank among the cards still in play) are one choice."""
    from solver.hand.analysis.answers import best_json, best_position

    where, _, pos = read_position(position)
    found = best_position(pos, where, bid, rule, nodes=nodes)
    res, choices, bounds_of = found.result, found.choices, found.bounds_of
    best_set = {id(c) for c in found.best}
    if as_json:
        click.echo(json.dumps(best_json(found, rule)))
        return
    click.echo(describe_position(pos, None))
    bid_words = f"bid {res.bid}" if res.bid is not None else "no bid given (--bid K for scores)"
    click.echo(f"Seat {res.seat} to play, {bid_words}, {'exact bids' if rule == 'exact' else 'at least the bid'}:")
    for ch in choices:
        mark = "*" if id(ch) in best_set else " "
        cards = "/".join(str(c) for c in ch.cards)
        score = f"score {_score(ch.score):>4}  " if res.bid is not None else ""
        b = bounds_of(ch)
        click.echo(f" {mark} {cards:<12} {score}tricks: most {_tricks(b.most)}, fewest {_tricks(b.fewest)}, "
                   f"exactly {_exact(b.exact)}")
