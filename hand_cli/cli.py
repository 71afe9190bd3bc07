"""The ``hand`` command: deals, replays and the full-information analyses of Hand.

Every input is a file (JSON or text notation; ``-`` reads standard input) or the text
itself (anything that is not a file and has a ``:`` in it, like
``"dealer 3: S:AKQ7 H:T98 D:J C:A / ..."``). Bad input is one line ``error: ...`` naming
the problem and where, exit code 2 (solver.cli's conventions: :func:`run`, :func:`fail`).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from solver.cli import CleanGroup, fail, one_line, run
from solver.hand import (
    NUM_SEATS,
    ROUNDS,
    RULES,
    Deal,
    IllegalMoveError,
    MalformedError,
    Match,
    Position,
    card_str,
    format_cards,
    format_hand,
    load_json_text,
    trick_winner,
)


class HandGroup(CleanGroup):
    """The Hand engine's errors (both ValueError) as one line and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)  # type: ignore[no-untyped-call]
        except (MalformedError, IllegalMoveError) as e:
            fail(str(e))


def read_source(arg: str) -> tuple[str, str]:
    """(where, text) of an input argument: a file, ``-`` (standard input), or the text."""
    if arg == "-":
        return "<stdin>", sys.stdin.read()
    if os.path.exists(arg):
        try:
            with open(arg, encoding="utf-8") as fh:
                return arg, fh.read()
        except (OSError, UnicodeDecodeError) as e:
            raise MalformedError(f"{arg}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    if ":" in arg:
        return "argument", arg
    raise MalformedError(f"{arg}: no such file (and not a deal or position in text notation)")


def read_position(arg: str) -> tuple[str, Deal | None, Position]:
    """(where, the deal if the input is one, its position) of a DEAL|POSITION argument."""
    where, text = read_source(arg)
    if text.lstrip().startswith("{"):
        obj = load_json_text(text, where)
        if isinstance(obj, dict) and (obj.get("kind") == "deal" or ("dealer" in obj and "leader" not in obj)):
            deal = Deal.from_json(obj, where)
            return where, deal, deal.position()
        if isinstance(obj, dict) and obj.get("kind") == "game":
            raise MalformedError(f"{where}: a game; give a deal or a position (hand replay reads games)")
        return where, None, Position.from_json(obj, where)
    first = text.strip().splitlines()[0] if text.strip() else ""
    if first.lower().startswith("dealer") or (";" not in first and not first.lower().startswith("leader")):
        try:
            deal = Deal.parse(" ".join(text.split()), where)
            return where, deal, deal.position()
        except MalformedError as e:
            if "not a deal" not in str(e):
                raise
    return where, None, Position.parse(" ".join(text.split()), where)


def seat_option(f: Any) -> Any:
    return click.option("--seat", type=click.IntRange(0, NUM_SEATS - 1), default=None,
                        help="Only this seat (0..3); default every seat.")(f)


def rule_option(f: Any) -> Any:
    return click.option("--rule", type=click.Choice(RULES), default="exact", show_default=True,
                        help="Scoring: exact bids (the printed sheet) or 'at least' the bid.")(f)


@click.group(cls=HandGroup)
@click.version_option(package_name="hanabi-solver")
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


def main() -> None:
    """The ``hand`` console script."""
    run(hand, prog_name="hand")


__all__ = ["hand", "main", "read_position", "read_source", "one_line"]
