"""Cards as small ints, hands as 32-bit masks, and their text forms.

A card is an int 0..31: ``suit * 8 + rank`` with suits ``C D H S`` = 0..3 and ranks
``7 8 9 T J Q K A`` = 0..7 (low to high: the ten sits below the jack). A hand (any set of
cards) is a mask with bit ``card`` set, so suit ``s`` is the byte ``(mask >> 8*s) & 0xFF``
and a higher bit in that byte is a higher card.

As text a card is its rank then its suit: ``AS``, ``TH`` (``10H`` is read as ``TH``),
``7C``; letters in either case. A hand is written suit by suit, spades first::

    S:AKQ7 H:T98 D:- C:J

``-`` marks a void; when reading, a suit may also be left out (a void) and the suits may
come in any order, each at most once.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import MalformedError

SUITS = "CDHS"  # suit letters by index: C=0, D=1, H=2, S=3
RANKS = "789TJQKA"  # rank letters by index, low to high
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
DISPLAY_SUITS = (3, 2, 1, 0)  # the order hands are written in: S H D C
NUM_SEATS = 4
NUM_CARDS = 32
HAND_SIZE = 8
FULL_DECK = (1 << NUM_CARDS) - 1
SUIT_MASKS = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3


def card_of(suit: int, rank: int) -> int:
    """The card int of a suit index (0..3, C D H S) and a rank index (0..7, 7 .. A)."""
    return suit * 8 + rank


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def card_str(card: int) -> str:
    """``AS``, ``TH``, ``7C``."""
    return RANKS[card & 7] + SUITS[card >> 3]


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest card int first (clubs 7 .. spades ace)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_card(text: str, where: str = "card") -> int:
    """A card int from ``AS``, ``th``, ``10H``; a :class:`MalformedError` naming ``where``."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise MalformedError(f"{where}: {text!r} is not a card (rank then suit, like 'AS', 'TH', '7C')")
    r, s = RANKS.find(t[0]), SUITS.find(t[1])
    if r < 0:
        if t[1] in RANKS and t[0] in SUITS:
            raise MalformedError(f"{where}: {text!r} is not a card: rank first, then suit ('{t[1]}{t[0]}')")
        raise MalformedError(f"{where}: {text!r}: unknown rank {t[0]!r} (one of A K Q J T 9 8 7)")
    if s < 0:
        raise MalformedError(f"{where}: {text!r}: unknown suit {t[1]!r} (one of S H D C)")
    return card_of(s, r)


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``Card.parse("AS")``, ``str(card) == "AS"``; ``index`` is its int (0..31)."""

    index: int

    def __post_init__(self) -> None:
        if not isinstance(self.index, int) or isinstance(self.index, bool) or not 0 <= self.index < NUM_CARDS:
            raise MalformedError(f"card index {self.index!r}: must be an int 0..31")

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @classmethod
    def of(cls, suit: int, rank: int) -> Card:
        return cls(card_of(suit, rank))

    @property
    def suit(self) -> int:
        return self.index >> 3

    @property
    def rank(self) -> int:
        return self.index & 7

    @property
    def bit(self) -> int:
        return 1 << self.index

    def __str__(self) -> str:
        return card_str(self.index)

    def __repr__(self) -> str:
        return f"Card({card_str(self.index)!r})"


DECK: tuple[Card, ...] = tuple(Card(i) for i in range(NUM_CARDS))


def format_suit(byte: int) -> str:
    """The ranks of one suit's byte, highest first (``AKQ7``), or ``-`` for none."""
    return "".join(RANKS[r] for r in range(7, -1, -1) if byte >> r & 1) or "-"


def format_hand(mask: int) -> str:
    """``S:AKQ7 H:T98 D:- C:J``: every suit, spades first."""
    return " ".join(f"{SUITS[s]}:{format_suit(mask >> 8 * s & 0xFF)}" for s in DISPLAY_SUITS)


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def parse_hand(text: str, where: str = "hand") -> int:
    """A hand mask from ``S:AKQ7 H:T98 D:- C:J`` (suits in any order, a missing suit void,
    ``-`` an explicit void, ``10`` read as ``T``)."""
    mask = 0
    seen: set[int] = set()
    tokens = text.split()
    for tok in tokens:
        head, colon, ranks = tok.partition(":")
        if not colon:
            raise MalformedError(f"{where}: {tok!r}: expected a suit, a colon and ranks, like 'S:AKQ7' or 'D:-'")
        s = SUITS.find(head.strip().upper()) if len(head.strip()) == 1 else -1
        if s < 0:
            raise MalformedError(f"{where}: {tok!r}: unknown suit {head!r} (one of S H D C)")
        if s in seen:
            raise MalformedError(f"{where}: suit {SUITS[s]} given twice")
        seen.add(s)
        body = ranks.strip().upper().replace("10", "T")
        if body in ("-", ""):
            if body == "":
                raise MalformedError(f"{where}: {tok!r}: no ranks after the colon (write '-' for a void)")
            continue
        for ch in body:
            r = RANKS.find(ch)
            if r < 0:
                raise MalformedError(f"{where}: {tok!r}: unknown rank {ch!r} (one of A K Q J T 9 8 7)")
            bit = 1 << card_of(s, r)
            if mask & bit:
                raise MalformedError(f"{where}: {card_str(card_of(s, r))} given twice")
            mask |= bit
    return mask


def parse_card_list(text: str, where: str = "cards") -> list[int]:
    """Cards separated by spaces or commas: ``9H TH`` (``-`` or nothing: none)."""
    toks = text.replace(",", " ").split()
    if toks == ["-"]:
        return []
    return [parse_card(t, f"{where}, card {i + 1}") for i, t in enumerate(toks)]
