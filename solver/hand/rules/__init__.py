"""The rules engine of Hand (Hareega), a Gulf trick-taking game with exact bids.

It imports nothing from the Hanabi code nor from the Hand solver (:mod:`solver.hand`).

- cards as ints 0..31 (``suit * 8 + rank``; suits C D H S, ranks 7 .. A), hands as 32-bit
  masks; :class:`Card` at the edges (``Card.parse("TH")``, ``str(card)``);
- :class:`Deal`, :class:`Position` (frozen), :class:`Round` (bids, legal cards, checked
  ``apply``, unchecked ``push``/``pop``, scores), :class:`Match` (5 rounds and sudden
  death), :func:`match_result`;
- the rules: :func:`legal_mask`, :func:`trick_winner`, :func:`round_score` (``exact``, the
  default, or ``atleast``), :func:`timeout_card`;
- text notation (:meth:`Deal.parse`, :meth:`Position.parse`, ``str()``) and JSON
  (``to_json``/``from_json``), documented in docs/hand.md;
- errors: :class:`MalformedError`, :class:`IllegalMoveError` (both ``ValueError``).
"""
from .cards import (
    DECK,
    DISPLAY_SUITS,
    FULL_DECK,
    HAND_SIZE,
    NUM_CARDS,
    NUM_SEATS,
    RANKS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    Card,
    card_of,
    card_str,
    cards_of,
    format_cards,
    format_hand,
    mask_of,
    parse_card,
    parse_card_list,
    parse_hand,
    rank_of,
    suit_of,
)
from .errors import IllegalMoveError, MalformedError
from .match import MAX_SUDDEN_DEATH, ROUNDS, Match, MatchResult, match_result
from .state import Deal, Position, Round, load_json_text, play_out
from .tricks import (
    ATLEAST,
    BIDS,
    DEFAULT_SUIT_ORDER,
    EXACT,
    MAX_BID,
    RULES,
    check_rule,
    check_suit_order,
    legal_mask,
    round_score,
    timeout_card,
    trick_winner,
)

__all__ = [
    "DECK", "DISPLAY_SUITS", "FULL_DECK", "HAND_SIZE", "NUM_CARDS", "NUM_SEATS", "RANKS", "SUIT_MASKS", "SUIT_NAMES",
    "SUITS", "Card", "card_of", "card_str", "cards_of", "format_cards", "format_hand", "mask_of", "parse_card",
    "parse_card_list", "parse_hand", "rank_of", "suit_of",
    "IllegalMoveError", "MalformedError",
    "MAX_SUDDEN_DEATH", "ROUNDS", "Match", "MatchResult", "match_result",
    "ATLEAST", "BIDS", "DEFAULT_SUIT_ORDER", "EXACT", "MAX_BID", "RULES", "check_rule", "check_suit_order",
    "legal_mask", "round_score", "timeout_card", "trick_winner",
    "Deal", "Position", "Round", "load_json_text", "play_out",
]
