"""Hand (Hareega), a Gulf trick-taking game with exact bids: the public API of the game.

The rules engine (:mod:`solver.hand.rules`: cards, deals, positions, rounds, matches, their
notation and JSON, the two errors) and the full-information solver: every card visible
(as "double dummy" in bridge), on the exact search (:mod:`solver.hand.search`). It imports
nothing from the Hanabi code. The analyses (definitions in docs/hand.md), each a frozen
result:

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
from .analysis.review import (
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
from .rules import (
    ATLEAST,
    BIDS,
    DECK,
    DEFAULT_SUIT_ORDER,
    DISPLAY_SUITS,
    EXACT,
    FULL_DECK,
    HAND_SIZE,
    MAX_BID,
    MAX_SUDDEN_DEATH,
    NUM_CARDS,
    NUM_SEATS,
    RANKS,
    ROUNDS,
    RULES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    Deal,
    IllegalMoveError,
    MalformedError,
    Match,
    MatchResult,
    Position,
    Round,
    card_of,
    card_str,
    cards_of,
    check_rule,
    check_suit_order,
    format_cards,
    format_hand,
    legal_mask,
    load_json_text,
    mask_of,
    match_result,
    parse_card,
    parse_card_list,
    parse_hand,
    play_out,
    rank_of,
    round_score,
    suit_of,
    timeout_card,
    trick_winner,
)
from .search.analyses import (
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

__all__ = [
    "DECK", "DISPLAY_SUITS", "FULL_DECK", "HAND_SIZE", "NUM_CARDS", "NUM_SEATS", "RANKS", "SUIT_MASKS", "SUIT_NAMES",
    "SUITS", "Card", "card_of", "card_str", "cards_of", "format_cards", "format_hand", "mask_of", "parse_card",
    "parse_card_list", "parse_hand", "rank_of", "suit_of", "IllegalMoveError", "MalformedError", "MAX_SUDDEN_DEATH",
    "ROUNDS", "Match", "MatchResult", "match_result", "ATLEAST", "BIDS", "DEFAULT_SUIT_ORDER", "EXACT", "MAX_BID",
    "RULES", "check_rule", "check_suit_order", "legal_mask", "round_score", "timeout_card", "trick_winner", "Deal",
    "Position", "Round", "load_json_text", "play_out",
    "DEFAULT_COOP_NODES", "DEFAULT_NODES", "BestCards", "BidRow", "BidTable", "CardChoice", "HandSolverError",
    "Reachability", "SeatBounds", "best_cards", "bid_table", "equivalent_groups", "reachable", "seat_bounds",
    "GameReview", "Mistake", "RoundReview", "SeatReview", "TableReview", "is_made", "made_score", "review_game",
    "review_round",
]
