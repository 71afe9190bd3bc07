"""Which games the search and the encodings take as they are: one check for the search,
both encodings and every entry point that builds on them. Up or Down and Sudoku are
solved by :func:`solver.solve` through :mod:`solver.hanabi.methods.split`, which turns the position into
one ordinary game per way its stacks can go; the search and the encodings take those
games, not the real one, and refuse it with the reason."""
from __future__ import annotations

from solver.errors import MalformedError

from .cards import format_compact
from .state import Game, State


def unsolvable_reason(game: Game) -> str | None:
    """Why the search and the encodings cannot take ``game`` itself, or None."""
    if game.up_or_down or game.sudoku:
        rule, why = (("Up or Down", "a stack's direction is decided by its first cards") if game.up_or_down else
                     ("Sudoku", "a stack starts at any rank no other stack started at"))
        return (f"the search and the encodings take {rule} only with its stacks fixed ({game.variant.name!r}: "
                f"{why}); solve() fixes them each way and solves each game (solver.hanabi.methods.split)")
    return None


def check_solvable(game: Game) -> None:
    """Raise :class:`MalformedError` saying why the search and the encodings cannot take
    ``game`` itself."""
    why = unsolvable_reason(game)
    if why is not None:
        raise MalformedError(why)


def deck_text(state: State) -> str:
    """The deck of ``state``'s game in compact notation, for error messages (with the
    position's turn when it is not the start)."""
    g = state.game
    text = f"{g.num_players}p {g.variant.name}: {format_compact(g.deck, g.variant)}"
    return text + (f" from turn {state.turn}" if state.turn else "")
