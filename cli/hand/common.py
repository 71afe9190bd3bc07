"""What the ``hand`` command groups share: the group that turns the Hand engine's and
solver's errors into one line, and the readers of a deal, position or game given as a file
or as text."""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from cli.common import CleanGroup, fail
from solver.hand.rules import NUM_SEATS, RULES, Deal, IllegalMoveError, MalformedError, Position, load_json_text


class HandGroup(CleanGroup):
    """The Hand engine's errors (both ValueError) as one line and exit code 2; an internal
    contradiction of the solver as one line and exit code 3."""

    def invoke(self, ctx: click.Context) -> Any:
        from solver.hand import HandSolverError

        try:
            return super().invoke(ctx)  # type: ignore[no-untyped-call]
        except (MalformedError, IllegalMoveError) as e:
            fail(str(e))
        except HandSolverError as e:
            fail(f"internal error (please report it): {e}", 3)


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
        return "text argument", arg
    raise MalformedError(f"{arg}: no such file (and not a deal or position in text notation)")


def read_position(arg: str) -> tuple[str, Deal | None, Position]:
    """(where, the deal if the input is one, its position) of a DEAL|POSITION argument."""
    where, text = read_source(arg)
    if text.lstrip().startswith(("{", "[")):  # JSON (an array is an error Position.from_json names)
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
