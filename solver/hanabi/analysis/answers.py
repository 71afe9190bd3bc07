"""The answers the commands print with ``--json``, as plain objects, for every front end
that gives them (the command line, the board's API): one place builds each."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.errors import MalformedError
from solver.hanabi.rules import GameRecord, State
from solver.hanabi.rules.links import link_and_reason

if TYPE_CHECKING:
    from solver.hanabi.methods.portfolio import Solution


def check_turn(where: str | None, turn: int | None, actions: int, name: str = "turn") -> None:
    """``turn`` names the position after that many actions of a game of ``actions``
    actions (0 is the deal, ``actions`` its end), as ``show --turn`` reads it; the error
    names ``where`` (if given) and the option or field ``name``."""
    if turn is not None and not 0 <= turn <= actions:
        raise MalformedError(f"{where + ': ' if where else ''}{name} {turn} out of range 0..{actions}")


def position_at(rec: GameRecord, turn: int | None) -> State:
    """The position after ``turn`` actions of the game (its end when None)."""
    check_turn(rec.source, turn, len(rec.actions))
    return rec.state_after(turn)


def solve_from(rec: GameRecord, turn: int | None = None, *, timeout: float | None = None,
               engine: str = "portfolio") -> tuple[State, Solution, str | None, str | None]:
    """The position after ``turn`` actions (the end when None), its :class:`Solution`, the
    link that opens the game up to there and then the line on hanab.live, and why there is
    none where a link would not open this very game (:func:`~solver.hanabi.rules.links.why_no_link`)."""
    from solver.hanabi.methods.portfolio import solve

    start = position_at(rec, turn)
    sol = solve(start, timeout=timeout, engine=engine)
    link, why = link_and_reason(rec.game, list(rec.actions[:start.turn]) + list(sol.actions), start.turn)
    return start, sol, link, why


def solve_answer(rec: GameRecord, turn: int | None = None, *, timeout: float | None = None,
                 engine: str = "portfolio") -> dict[str, Any]:
    """``hanabi solve --json``: the maximum from the position after ``turn`` actions, its
    proof, the line (hanab.live actions from there), the turn and the link."""
    return solve_json(*solve_from(rec, turn, timeout=timeout, engine=engine))


def solve_json(start: State, sol: Solution, link: str | None, why: str | None) -> dict[str, Any]:
    """What :func:`solve_from` found, as ``hanabi solve --json`` prints it."""
    out = sol.to_json()
    out["from_turn"] = start.turn
    out["link"] = link  # opens the game and the line on hanab.live at from_turn (null: no link opens it)
    out["no_link"] = why  # why there is no link (null when there is one)
    return out


def chances_answer(rec: GameRecord, turn: int | None = None, **kwargs: Any) -> dict[str, Any]:
    """``hanabi chances --json`` for the position after ``turn`` actions."""
    from solver.hanabi.chances import chances

    st = position_at(rec, turn)
    return chances(st, **kwargs).to_json(st)
