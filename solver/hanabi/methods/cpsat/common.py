"""What the CP-SAT encoding's modules share: the result type, the kinds of model
actions, the names of the redundant constraints, literal helpers."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.errors import EncodingError
from solver.hanabi.rules import Action, State
from solver.hanabi.rules.support import deck_text

# the redundant constraints (``redundant.add_redundant``), by name: each rank played once if
# reached, no strikeout, pace, hand capacity, pace event by event, needed cards held (all
# hands), needed cards held (hand by hand; needs the capacity's held[e, j, p])
REDUNDANT = ("ranks", "strikes", "pace", "capacity", "pace_events", "needed_held", "needed_hands")

# kinds of model actions (how a chosen action literal is decoded)
_PLAY, _MISPLAY, _DISCARD, _DECK_PLAY, _DECK_MISPLAY, _CLUE = range(6)
_HAND_USES = (_PLAY, _MISPLAY, _DISCARD)


@dataclass(frozen=True)
class CpsatResult:
    """The answer of :func:`cpsat_max`.

    - ``status``: ``'optimal'`` (``max_score`` is proven maximal), ``'feasible'`` (a line
      was found, not proven best) or ``'unknown'`` (no line found in time).
    - ``max_score``: score of the best line found, as replayed by the engine (None if none).
    - ``upper_bound``: the proven bound: no line from the position scores more.
    - ``actions``: the best line found, engine actions from the position to the end.
    - ``stats``: model size and times (``variables``, ``constraints``, ``turns`` = events
      of the model, ``time`` = CP-SAT's solve wall time over all phases, ``wall_time`` =
      total including build and decode, ``phases`` = one entry per CP-SAT call, ...).
    """

    status: str
    max_score: int | None
    upper_bound: int
    actions: list[Action] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------------
# literal helpers: a "literal" here is a CP-SAT Boolean variable (or its negation) or a
# Python bool for a fact already known when the model is built.
# ---------------------------------------------------------------------------------------
def _neg(lit):
    return (not lit) if isinstance(lit, bool) else ~lit


def _any_clue(st: State, e: int, kind: int | None = None) -> Action:
    """A clue stall: :meth:`State.first_clue` (any will do with full information; of
    ``kind``, where Alternating Clues binds)."""
    a = st.first_clue(kind)
    if a is None:
        raise EncodingError(f"event {e} clues but no clue is legal", deck=deck_text(st), method="cpsat")
    return a
