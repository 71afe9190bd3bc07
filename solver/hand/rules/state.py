"""Deals, positions and rounds: the state of a round of Hand.

- :class:`Deal` (frozen): the four 8-card hands and the dealer; the seat after the dealer
  leads the first trick.
- :class:`Position` (frozen): a moment of a round -- the hands now, the seat leading the
  current trick, the cards already played to it, the tricks taken, and the bids if known.
- :class:`Round` (mutable): a round being played -- bids, legal cards, a validating
  :meth:`Round.apply` and the unchecked :meth:`Round.push` / :meth:`Round.pop`, scores.

Seats 0..3 are in playing order (after seat ``s`` plays, seat ``(s + 1) % 4`` plays).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.common.jsontext import parse_json

from .cards import (
    DISPLAY_SUITS,
    FULL_DECK,
    HAND_SIZE,
    NUM_CARDS,
    NUM_SEATS,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    card_str,
    cards_of,
    format_cards,
    parse_card,
    parse_hand,
)
from .errors import IllegalMoveError, MalformedError
from .notation import format_deal, format_position, parse_text
from .tricks import DEFAULT_SUIT_ORDER, EXACT, MAX_BID, check_rule, legal_mask, round_score, timeout_card, trick_winner

Hands = tuple[int, int, int, int]
CardLike = Card | str | int


def _as_card(card: CardLike, where: str = "card") -> int:
    if isinstance(card, Card):
        return card.index
    if isinstance(card, str):
        return parse_card(card, where)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < NUM_CARDS:
        return card
    raise MalformedError(f"{where}: {card!r} is not a card")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_seat(seat: object, what: str) -> int:
    if not _is_int(seat) or not 0 <= seat < NUM_SEATS:  # type: ignore[operator]
        raise MalformedError(f"{what}: {seat!r} is not a seat (0..3)")
    return seat  # type: ignore[return-value]


def _four(values: object, what: str) -> tuple[int, int, int, int]:
    if not isinstance(values, (list, tuple)) or len(values) != NUM_SEATS:
        raise MalformedError(f"{what}: expected 4 values (seats 0..3), got {values!r}")
    for v in values:
        if not _is_int(v):
            raise MalformedError(f"{what}: {v!r} is not an integer")
    return values[0], values[1], values[2], values[3]


def _check_bids(bids: Sequence[int | None], what: str = "bids") -> None:
    for seat, b in enumerate(bids):
        if b is not None and not 0 <= b <= MAX_BID:
            raise IllegalMoveError(f"{what}: seat {seat} bids {b}, out of range 0..{MAX_BID}")


def _disjoint(hands: Sequence[int], what: str) -> None:
    seen = 0
    for seat, h in enumerate(hands):
        dup = seen & h
        if dup:
            c = (dup & -dup).bit_length() - 1
            other = next(s for s in range(seat) if hands[s] >> c & 1)
            raise MalformedError(f"{what}: {card_str(c)} is in seat {other}'s hand and in seat {seat}'s")
        seen |= h


def _sorted_cards(mask: int) -> list[str]:
    """A hand's cards as JSON writes them: spades first, each suit high to low."""
    return [card_str(s * 8 + r) for s in DISPLAY_SUITS for r in range(7, -1, -1) if mask >> (s * 8 + r) & 1]


def _hand_from_json(obj: object, where: str) -> int:
    """A hand from JSON: a list of card strings, or one string in hand notation."""
    if isinstance(obj, str):
        return parse_hand(obj, where)
    if not isinstance(obj, list):
        raise MalformedError(f"{where}: expected a list of cards or a hand string, got {type(obj).__name__}")
    mask = 0
    for i, c in enumerate(obj):
        if not isinstance(c, str):
            raise MalformedError(f"{where}[{i}]: expected a card string like 'AS', got {c!r}")
        card = parse_card(c, f"{where}[{i}]")
        if mask >> card & 1:
            raise MalformedError(f"{where}: {card_str(card)} given twice")
        mask |= 1 << card
    return mask


def _hands_from_json(obj: object, where: str) -> Hands:
    if not isinstance(obj, list) or len(obj) != NUM_SEATS:
        raise MalformedError(f"{where}: expected a list of 4 hands (seats 0..3)")
    hs = [_hand_from_json(h, f"{where}[{i}]") for i, h in enumerate(obj)]
    return hs[0], hs[1], hs[2], hs[3]


def _object(obj: object, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise MalformedError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    return obj


def _check_keys(obj: dict[str, Any], allowed: Iterable[str], where: str) -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise MalformedError(f"{where}: unknown key {extra[0]!r}")


def load_json_text(text: str, where: str) -> object:
    """``text`` read as JSON; any fault a one-line :class:`MalformedError` naming ``where``
    (the reader both games share: :func:`solver.common.jsontext.parse_json`)."""
    return parse_json(text, where, MalformedError)


@dataclass(frozen=True)
class Deal:
    """The four hands of a round's deal (8 cards each, the whole deck) and the dealer.

    ``hands[s]`` is seat ``s``'s mask. The seat after the dealer leads the first trick;
    the deal passes one seat each round."""

    hands: Hands
    dealer: int = 3

    def __post_init__(self) -> None:
        _check_seat(self.dealer, "dealer")
        if not isinstance(self.hands, tuple) or len(self.hands) != NUM_SEATS or not all(map(_is_int, self.hands)):
            raise MalformedError("hands must be 4 masks (seats 0..3)")
        _disjoint(self.hands, "hands")
        for seat, h in enumerate(self.hands):
            if not 0 <= h <= FULL_DECK:
                raise MalformedError(f"seat {seat}'s mask {h!r} is not a set of cards")
            if h.bit_count() != HAND_SIZE:
                raise MalformedError(f"seat {seat} has {h.bit_count()} cards, not {HAND_SIZE}")

    @property
    def leader(self) -> int:
        """The seat that leads the first trick: the one after the dealer."""
        return (self.dealer + 1) % NUM_SEATS

    @classmethod
    def from_order(cls, order: Sequence[CardLike], dealer: int = 3) -> Deal:
        """Deal a shuffled deck: its i-th card goes to seat ``(dealer + 1 + i) % 4``."""
        _check_seat(dealer, "dealer")
        if len(order) != NUM_CARDS:
            raise MalformedError(f"deck: {len(order)} cards, not {NUM_CARDS}")
        hands = [0, 0, 0, 0]
        seen = 0
        for i, c in enumerate(order):
            card = _as_card(c, f"deck card {i}")
            if seen >> card & 1:
                raise MalformedError(f"deck: {card_str(card)} appears twice (card {i})")
            seen |= 1 << card
            hands[(dealer + 1 + i) % NUM_SEATS] |= 1 << card
        return cls((hands[0], hands[1], hands[2], hands[3]), dealer)

    @classmethod
    def random(cls, seed: int | None = None, dealer: int = 3) -> Deal:
        """A seeded random deal: ``random.Random(seed)`` shuffles the cards 0..31 (clubs 7
        first, spades ace last) and :meth:`from_order` deals them."""
        order = list(range(NUM_CARDS))
        random.Random(seed).shuffle(order)
        return cls.from_order(order, dealer)

    @classmethod
    def parse(cls, text: str, where: str = "deal") -> Deal:
        """A deal from its text (``dealer 3: S:AKQ7 H:T98 D:J C:A / ...``)."""
        p = parse_text(text, where)
        if p.kind != "deal":
            raise MalformedError(f"{where}: a position ('leader N:' or sections), not a deal ('dealer N:')")
        try:
            return cls(p.hands, p.seat)
        except MalformedError as e:
            raise MalformedError(f"{where}: {e}") from None

    def __str__(self) -> str:
        return format_deal(self.hands, self.dealer)

    def position(self) -> Position:
        """The position before the first card."""
        return Position(self.hands, self.leader)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "deal", "dealer": self.dealer, "hands": [_sorted_cards(h) for h in self.hands]}

    @classmethod
    def from_json(cls, obj: object, where: str = "deal") -> Deal:
        """A deal from JSON: ``{"dealer": 3, "hands": [[cards] x 4]}`` (a hand may also be
        a string in hand notation), or ``{"dealer": 3, "order": [32 cards]}``."""
        d = _object(obj, where)
        _check_keys(d, ("kind", "dealer", "hands", "order", "seed"), where)
        if d.get("kind", "deal") != "deal":
            raise MalformedError(f"{where}: kind {d['kind']!r}, expected 'deal'")
        dealer = _check_seat(d.get("dealer", 3), f"{where}.dealer")
        try:
            if "order" in d:
                if "hands" in d:
                    raise MalformedError("give either hands or order, not both")
                order = d["order"]
                if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
                    raise MalformedError("order: expected a list of card strings")
                return cls.from_order(order, dealer)
            if "hands" not in d:
                raise MalformedError("missing key 'hands'")
            return cls(_hands_from_json(d["hands"], "hands"), dealer)
        except MalformedError as e:
            raise MalformedError(f"{where}: {e}") from None


@dataclass(frozen=True)
class Position:
    """A moment of a round, as every player sees it when every card is visible.

    ``hands``: the cards each seat still holds; ``leader``: the seat that led (or leads) the
    current trick; ``table``: the cards already played to it, in order from the leader
    (0 to 3 cards); ``taken``: the tricks each seat has taken so far; ``bids``: the four
    bids, or None when not known. Seat ``(leader + len(table)) % 4`` is to play."""

    hands: Hands
    leader: int
    table: tuple[int, ...] = ()
    taken: Hands = (0, 0, 0, 0)
    bids: Hands | None = None

    def __post_init__(self) -> None:
        _check_seat(self.leader, "leader")
        if not isinstance(self.hands, tuple) or len(self.hands) != NUM_SEATS or not all(map(_is_int, self.hands)):
            raise MalformedError("hands must be 4 masks (seats 0..3)")
        for seat, h in enumerate(self.hands):
            if not 0 <= h <= FULL_DECK:
                raise MalformedError(f"seat {seat}'s mask {h!r} is not a set of cards")
        _disjoint(self.hands, "hands")
        if not isinstance(self.table, tuple) or not all(map(_is_int, self.table)):
            raise MalformedError("table must be a tuple of card ints")
        if len(self.table) >= NUM_SEATS:
            raise MalformedError(f"{len(self.table)} cards on the table; a trick has at most 3 "
                                 f"before its last card")
        seen = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for c in self.table:
            if not 0 <= c < NUM_CARDS:
                raise MalformedError(f"table card {c!r} is not a card")
            if seen >> c & 1:
                where = next((f"seat {s}'s hand" for s in range(NUM_SEATS) if self.hands[s] >> c & 1), "the table")
                raise MalformedError(f"table card {card_str(c)} is also in {where}")
            seen |= 1 << c
        _four(self.taken, "taken")
        if self.bids is not None:
            _four(self.bids, "bids")
            _check_bids(self.bids)
        n = self.hands[self.to_move].bit_count()
        if self.table and n == 0:
            raise MalformedError(f"seat {self.to_move} is to play to the current trick but holds no card")
        for i in range(NUM_SEATS):
            seat = (self.leader + i) % NUM_SEATS
            want = n - 1 if i < len(self.table) else n
            got = self.hands[seat].bit_count()
            if got != want:
                played = "has played to" if i < len(self.table) else "has not played to"
                raise MalformedError(f"seat {seat} holds {got} cards but {played} the current trick "
                                     f"while seat {self.to_move}, to play, holds {n}: it should hold {want}")
        if n > HAND_SIZE:
            raise MalformedError(f"{n} tricks to play; a round has {HAND_SIZE}")
        for seat, t in enumerate(self.taken):
            if t < 0:
                raise MalformedError(f"taken: seat {seat} has {t} tricks")
        if sum(self.taken) + n > HAND_SIZE:
            raise MalformedError(f"taken: {sum(self.taken)} tricks taken and {n} to play make more than {HAND_SIZE}")
        if self.table:  # a card off the led suit is a revoke if its player still holds the led suit
            led = self.table[0] >> 3
            for i in range(1, len(self.table)):
                seat = (self.leader + i) % NUM_SEATS
                c = self.table[i]
                held = self.hands[seat] & SUIT_MASKS[led]
                if c >> 3 != led and held:
                    raise IllegalMoveError(f"table: revoke: seat {seat} played {card_str(c)} but holds "
                                           f"{SUIT_NAMES[led]} ({format_cards(cards_of(held))})")

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.table)) % NUM_SEATS

    @property
    def tricks_left(self) -> int:
        """The tricks still to be completed, the current one included."""
        return self.hands[self.to_move].bit_count()

    @property
    def is_over(self) -> bool:
        return not self.table and self.hands[self.leader] == 0

    @property
    def led_suit(self) -> int:
        """The suit of the current trick, or -1 before its first card."""
        return self.table[0] >> 3 if self.table else -1

    def legal_mask(self) -> int:
        return legal_mask(self.hands[self.to_move], self.led_suit)

    def legal_cards(self) -> list[Card]:
        return [Card(c) for c in cards_of(self.legal_mask())]

    def check_card(self, card: CardLike, seat: int | None = None) -> int:
        """The card int of ``card`` if the seat to move may play it now, else an
        :class:`IllegalMoveError` saying why (not in the hand, out of turn, a revoke)."""
        c = _as_card(card)
        mover = self.to_move
        if self.is_over:
            raise IllegalMoveError(f"{card_str(c)}: the round is over")
        if seat is not None and seat != mover:
            raise IllegalMoveError(f"out of turn: seat {seat} plays {card_str(c)} but seat {mover} is to play")
        h = self.hands[mover]
        if not h >> c & 1:
            owner = next((s for s in range(NUM_SEATS) if self.hands[s] >> c & 1), None)
            if owner is not None:
                raise IllegalMoveError(f"out of turn: {card_str(c)} is in seat {owner}'s hand, seat {mover} is to play")
            if c in self.table:
                raise IllegalMoveError(f"{card_str(c)} is already on the table")
            raise IllegalMoveError(f"{card_str(c)} was already played")
        led = self.led_suit
        if led >= 0 and c >> 3 != led and h & SUIT_MASKS[led]:
            raise IllegalMoveError(f"revoke: seat {mover} plays {card_str(c)} but must follow {SUIT_NAMES[led]} "
                                   f"(holds {format_cards(cards_of(h & SUIT_MASKS[led]))})")
        return c

    def after(self, card: CardLike) -> Position:
        """The position after the seat to move plays ``card`` (checked)."""
        r = Round(self)
        r.apply(card)
        return r.position()

    def with_bids(self, bids: Sequence[int] | None) -> Position:
        return Position(self.hands, self.leader, self.table, self.taken,
                        None if bids is None else _four(list(bids), "bids"))

    @classmethod
    def parse(cls, text: str, where: str = "position") -> Position:
        """A position (or a deal, as its first position) from its text."""
        p = parse_text(text, where)
        try:
            if p.kind == "deal":
                return Deal(p.hands, p.seat).position()
            return cls(p.hands, p.seat, p.table, p.taken or (0, 0, 0, 0), p.bids)
        except (MalformedError, IllegalMoveError) as e:
            raise type(e)(f"{where}: {e}") from None

    def __str__(self) -> str:
        return format_position(self.hands, self.leader, self.table, self.taken, self.bids)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "position", "hands": [_sorted_cards(h) for h in self.hands],
                               "leader": self.leader, "table": [card_str(c) for c in self.table],
                               "taken": list(self.taken)}
        if self.bids is not None:
            out["bids"] = list(self.bids)
        return out

    @classmethod
    def from_json(cls, obj: object, where: str = "position") -> Position:
        """A position from JSON: ``{"hands": [[cards] x 4], "leader": L, "table": [cards],
        "taken": [4 ints], "bids": [4 ints]}`` (table, taken and bids optional); a deal
        object gives its first position."""
        d = _object(obj, where)
        if d.get("kind") == "deal" or ("dealer" in d and "leader" not in d):
            return Deal.from_json(d, where).position()
        _check_keys(d, ("kind", "hands", "leader", "table", "taken", "bids"), where)
        if d.get("kind", "position") != "position":
            raise MalformedError(f"{where}: kind {d['kind']!r}, expected 'position'")
        try:
            if "hands" not in d:
                raise MalformedError("missing key 'hands'")
            hands = _hands_from_json(d["hands"], "hands")
            leader = _check_seat(d.get("leader", 0), "leader")
            tab = d.get("table", [])
            if not isinstance(tab, list) or not all(isinstance(c, str) for c in tab):
                raise MalformedError("table: expected a list of card strings")
            table = tuple(parse_card(c, f"table[{i}]") for i, c in enumerate(tab))
            taken = _four(d.get("taken", [0, 0, 0, 0]), "taken")
            bids = None if d.get("bids") is None else _four(d["bids"], "bids")
            return cls(hands, leader, table, taken, bids)
        except (MalformedError, IllegalMoveError) as e:
            raise type(e)(f"{where}: {e}") from None


class Round:
    """A round being played, from a deal or any position.

    Bids: :meth:`bid` (each seat once, 0..8, before the first card; a seat that runs out
    of time bids 0: :meth:`timeout_bid`). Cards may be played once every seat has bid, or
    with no bids at all (a round studied without them). :meth:`apply` checks a card
    (:class:`IllegalMoveError` for a revoke, an out-of-turn play, a card not held);
    :meth:`push` and :meth:`pop` play and take back card ints unchecked. A completed trick
    is resolved at once: its winner takes it and leads the next."""

    def __init__(self, start: Deal | Position, bids: Sequence[int] | None = None) -> None:
        pos = start.position() if isinstance(start, Deal) else start
        self.deal: Deal | None = start if isinstance(start, Deal) else None
        self.start = pos
        self.hands: list[int] = list(pos.hands)
        self.leader: int = pos.leader
        self.table: list[int] = list(pos.table)
        self.taken: list[int] = list(pos.taken)
        self.bids: list[int | None] = list(pos.bids) if pos.bids is not None else [None] * NUM_SEATS
        self.played: list[int] = []  # the cards played in this object, in order
        self._undo: list[tuple[int, int]] = []  # per push: (previous leader, -1 or the trick's winner)
        self._tricks: list[tuple[int, ...]] = []  # the completed tricks' cards, for pop
        if bids is not None:
            for seat, b in enumerate(_four(list(bids), "bids")):
                self.bid(seat, b)

    # ------------------------------------------------------------------ queries
    @property
    def to_move(self) -> int:
        return (self.leader + len(self.table)) % NUM_SEATS

    @property
    def led_suit(self) -> int:
        return self.table[0] >> 3 if self.table else -1

    @property
    def is_over(self) -> bool:
        return not self.table and self.hands[self.leader] == 0

    @property
    def tricks_left(self) -> int:
        return self.hands[(self.leader + len(self.table)) % NUM_SEATS].bit_count()

    @property
    def tricks(self) -> Hands:
        t = self.taken
        return t[0], t[1], t[2], t[3]

    def legal_mask(self) -> int:
        return legal_mask(self.hands[self.to_move], self.led_suit)

    def legal_moves(self) -> list[Card]:
        return [Card(c) for c in cards_of(self.legal_mask())]

    def position(self) -> Position:
        b = self.bids
        bids = None if any(x is None for x in b) else (b[0], b[1], b[2], b[3])
        h = self.hands
        return Position((h[0], h[1], h[2], h[3]), self.leader, tuple(self.table), self.tricks,
                        bids)  # type: ignore[arg-type]

    def timeout_card(self, suit_order: str = DEFAULT_SUIT_ORDER) -> Card:
        """The card the seat to move plays if it runs out of time (the lowest legal card)."""
        if self.is_over:
            raise IllegalMoveError("timeout: the round is over")
        return Card(timeout_card(self.hands[self.to_move], self.led_suit, suit_order))

    # ------------------------------------------------------------------ bids
    def bid(self, seat: int, bid: int) -> None:
        """Seat ``seat`` bids ``bid`` tricks (0..8): once, before the first card."""
        _check_seat(seat, "bid: seat")
        if not _is_int(bid):
            raise MalformedError(f"bid: {bid!r} is not a number")
        if self.played or self.start.table or any(self.start.taken):
            raise IllegalMoveError(f"bid: seat {seat} bids after the play has begun")
        if self.bids[seat] is not None:
            raise IllegalMoveError(f"bid: seat {seat} has already bid {self.bids[seat]} (bids are final)")
        if not 0 <= bid <= MAX_BID:
            raise IllegalMoveError(f"bid: seat {seat} bids {bid}, out of range 0..{MAX_BID}")
        self.bids[seat] = bid

    def timeout_bid(self, seat: int) -> None:
        """A seat that runs out of time before bidding bids 0."""
        self.bid(seat, 0)

    # ------------------------------------------------------------------ play
    def apply(self, card: CardLike, seat: int | None = None) -> Card:
        """Play ``card`` for the seat to move, checked (``seat``, if given, must be that
        seat); returns the card played."""
        if any(b is None for b in self.bids) and any(b is not None for b in self.bids):
            missing = [s for s in range(NUM_SEATS) if self.bids[s] is None]
            raise IllegalMoveError(f"play before every bid: seat {missing[0]} has not bid")
        c = self.position().check_card(card, seat)
        self.push(c)
        return Card(c)

    def push(self, card: int) -> None:
        """Play card int ``card`` for the seat to move, unchecked."""
        seat = (self.leader + len(self.table)) % NUM_SEATS
        self.hands[seat] &= ~(1 << card)
        self.table.append(card)
        self.played.append(card)
        if len(self.table) == NUM_SEATS:
            w = trick_winner(self.table, self.leader)
            self.taken[w] += 1
            self._undo.append((self.leader, w))
            self._tricks.append(tuple(self.table))
            self.leader = w
            self.table = []
        else:
            self._undo.append((self.leader, -1))

    def pop(self) -> int:
        """Take back the last card pushed; returns it."""
        if not self._undo:
            raise IllegalMoveError("pop: no card to take back")
        prev_leader, winner = self._undo.pop()
        card = self.played.pop()
        if winner >= 0:
            self.taken[winner] -= 1
            self.table = list(self._tricks.pop())
            self.leader = prev_leader
        self.table.pop()
        self.hands[(self.leader + len(self.table)) % NUM_SEATS] |= 1 << card
        return card

    # ------------------------------------------------------------------ scores
    def scores(self, rule: str = EXACT) -> Hands:
        """Each seat's score for the round (it must be over and every bid known)."""
        check_rule(rule)
        if not self.is_over:
            raise IllegalMoveError(f"scores: the round is not over ({self.tricks_left} tricks to play)")
        if any(b is None for b in self.bids):
            raise IllegalMoveError("scores: not every seat has bid")
        s = [round_score(b, t, rule) for b, t in zip(self.bids, self.taken) if b is not None]
        return s[0], s[1], s[2], s[3]


def play_out(start: Deal | Position, cards: Iterable[CardLike]) -> Round:
    """A round from ``start`` with ``cards`` applied (checked) in order."""
    r = Round(start)
    for i, c in enumerate(cards):
        try:
            r.apply(c)
        except (MalformedError, IllegalMoveError) as e:
            raise type(e)(f"card {i}: {e}") from None
    return r
