"""The rules as functions on card ints and masks: legal cards, the trick's winner,
scoring, and the timeout rule.

Seats 0..3 are in playing order: after seat ``s`` plays, seat ``(s + 1) % 4`` plays.
"""
from __future__ import annotations

from collections.abc import Sequence

from .cards import HAND_SIZE, NUM_SEATS, SUIT_MASKS, SUITS, card_str
from .errors import MalformedError

EXACT, ATLEAST = "exact", "atleast"
RULES = (EXACT, ATLEAST)  # the scoring rules: the printed sheet's exact bids (default), or "at least"
DEFAULT_SUIT_ORDER = "CDHS"  # the timeout rule's tie-break between suits: clubs lowest, spades highest
MAX_BID = HAND_SIZE
BIDS = tuple(range(MAX_BID + 1))


def legal_mask(hand: int, led_suit: int) -> int:
    """The cards of ``hand`` that may be played to a trick led with ``led_suit`` (-1: the
    player leads, so any card): the led suit's cards if there are any, else every card."""
    if led_suit < 0:
        return hand
    follow = hand & SUIT_MASKS[led_suit]
    return follow if follow else hand


def trick_winner(cards: Sequence[int], leader: int) -> int:
    """The seat that wins a trick: the highest card of the led suit (``cards[0]``'s suit);
    ``cards`` are in playing order from ``leader``."""
    led = cards[0] >> 3
    best, win = cards[0], 0
    for i in range(1, len(cards)):
        c = cards[i]
        if c >> 3 == led and c > best:
            best, win = c, i
    return (leader + win) % NUM_SEATS


def check_rule(rule: str) -> str:
    if rule not in RULES:
        raise MalformedError(f"unknown scoring rule {rule!r} (one of {', '.join(RULES)})")
    return rule


def round_score(bid: int, tricks: int, rule: str = EXACT) -> int:
    """One player's score for a round.

    ``exact`` (the printed sheet): tricks equal to the bid k >= 1 score +10k; a bid of 0
    with no trick scores +25; otherwise -10 per trick of difference, over or under.
    ``atleast`` (some apps): tricks at least the bid score +10 per trick taken (no 25 for
    zero: a bid of 0 always counts as made and scores 10 per trick); fewer score -10 per
    trick short. (Read literally from the rule text "+10 per trick"; with it a bid of 0
    scores at least as much as any other bid whatever happens.)
    """
    if rule == EXACT:
        if tricks == bid:
            return 25 if bid == 0 else 10 * bid
        return -10 * abs(tricks - bid)
    if rule == ATLEAST:
        return 10 * tricks if tricks >= bid else -10 * (bid - tricks)
    raise MalformedError(f"unknown scoring rule {rule!r} (one of {', '.join(RULES)})")


def check_suit_order(order: str) -> str:
    """``order``, upper-cased, if it is the four suit letters once each (lowest first)."""
    o = order.upper()
    if sorted(o) != sorted(SUITS):
        raise MalformedError(f"suit order {order!r}: must be the letters C D H S once each, lowest first")
    return o


def timeout_card(hand: int, led_suit: int, suit_order: str = DEFAULT_SUIT_ORDER) -> int:
    """The card a player who ran out of time plays: the lowest legal card. Only a player
    who leads or cannot follow suit has a choice between suits; then the lowest rank wins,
    and between equal ranks the suit first in ``suit_order`` (lowest first; default
    ``CDHS``: clubs, diamonds, hearts, spades)."""
    legal = legal_mask(hand, led_suit)
    if not legal:
        raise MalformedError("timeout card: the hand is empty")
    ranks = (legal | legal >> 8 | legal >> 16 | legal >> 24) & 0xFF
    rank = (ranks & -ranks).bit_length() - 1  # the lowest rank among the legal cards
    for ch in check_suit_order(suit_order):
        c = SUITS.index(ch) * 8 + rank
        if legal >> c & 1:
            return c
    return rank  # not reached: some suit holds the lowest rank (clubs' card int is the rank)


def describe_cards(mask: int) -> str:
    return " ".join(card_str(c) for c in range(32) if mask >> c & 1)
