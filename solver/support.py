"""Which games the solvers can solve: one check for the search, both encodings and every
entry point that builds on them (the rules engine plays every variant it accepts; a
solver refuses the few whose rules it does not model yet, with the reason)."""
from __future__ import annotations

from .errors import MalformedError
from .game import Game


def unsolvable_reason(game: Game) -> str | None:
    """Why the solvers cannot solve ``game`` yet, or None."""
    if game.up_or_down or game.sudoku:
        rule, why = (("Up or Down", "a stack's direction is decided by its first cards") if game.up_or_down else
                     ("Sudoku", "a stack starts at any rank no other stack started at"))
        return (f"the solvers do not play {rule} yet ({game.variant.name!r}: {why}); the rules engine plays it "
                f"(deal, show, replay, the site's JSON)")
    return None


def check_solvable(game: Game) -> None:
    """Raise :class:`MalformedError` saying why the solvers cannot solve ``game`` yet."""
    why = unsolvable_reason(game)
    if why is not None:
        raise MalformedError(why)
