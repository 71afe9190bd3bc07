"""What the ``hand`` command groups share: the group that turns the Hand engine's and
solver's errors into one line, and the readers of a deal, position or game given as a file
or as text."""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from cli.common import CleanGroup, fail
from solver.hand.rules import NUM_SEATS, RULES, Deal, IllegalMoveError, MalformedError, Position


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
    from solver.hand.analysis.answers import position_from_text

    where, text = read_source(arg)
    deal, pos = position_from_text(text, where)
    return where, deal, pos


def seat_option(f: Any) -> Any:
    return click.option("--seat", type=click.IntRange(0, NUM_SEATS - 1), default=None,
                        help="Only this seat (0..3); default every seat.")(f)


def rule_option(f: Any) -> Any:
    return click.option("--rule", type=click.Choice(RULES), default="exact", show_default=True,
                        help="Scoring: exact bids (the printed sheet) or 'at least' the bid.")(f)
