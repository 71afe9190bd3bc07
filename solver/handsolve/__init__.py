"""The full-information solver of Hand: every card visible (as "double dummy" in bridge).

It imports the rules engine (:mod:`solver.hand`) and nothing from the Hanabi code. The
analyses (definitions in docs/hand.md), each a frozen result:

- :func:`seat_bounds` -> :class:`SeatBounds`: the most and fewest tricks a seat can force
  against the other three together, and the trick counts it can force exactly;
- :func:`bid_table` -> :class:`BidTable`: per seat and bid 0..8 the score it can
  guarantee, and its best bid;
- :func:`reachable` -> :class:`Reachability`: every trick vector some legal play reaches;
- :func:`best_cards` -> :class:`BestCards`: each distinct legal card labelled with what it
  still guarantees the mover;
- :func:`review_game`, :func:`review_round` -> :class:`GameReview`, :class:`RoundReview`:
  the game review (each seat's guaranteed score along the play, its mistakes, the first
  card that lost its bid; the first card that put the four bids out of reach together).

Each takes a node budget (``nodes=``); what it does not decide is ``None``, never a guess.
:class:`HandSolverError` (a ``RuntimeError``) is an internal contradiction: a bug.
"""
from .analysis import (
    DEFAULT_COOP_NODES,
    DEFAULT_NODES,
    BestCards,
    BidRow,
    BidTable,
    CardChoice,
    HandSolverError,
    Reachability,
    SeatBounds,
    best_cards,
    bid_table,
    equivalent_groups,
    reachable,
    seat_bounds,
)
from .review import (
    GameReview,
    Mistake,
    RoundReview,
    SeatReview,
    TableReview,
    is_made,
    made_score,
    review_game,
    review_round,
)

__all__ = [
    "DEFAULT_COOP_NODES", "DEFAULT_NODES", "BestCards", "BidRow", "BidTable", "CardChoice", "HandSolverError",
    "Reachability", "SeatBounds", "best_cards", "bid_table", "equivalent_groups", "reachable", "seat_bounds",
    "GameReview", "Mistake", "RoundReview", "SeatReview", "TableReview", "is_made", "made_score", "review_game",
    "review_round",
]
