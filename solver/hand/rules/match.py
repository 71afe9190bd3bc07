"""A game of Hand: 5 rounds, the deal passing one seat each round, the highest total
winning; players tied for first play sudden-death rounds, 3 at most, then share first
place. And the game's JSON (docs/hand.md, "JSON").

Sudden death: every seat plays the extra rounds (a round needs four players), their
scores add to everyone's total, but only the seats tied for first contend; after each
extra round those of them with the highest total (equivalently the highest score in that
round, since they were level) stay in contention. One left wins; after 3 extra rounds
the seats still level share first place.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import NUM_SEATS, card_str, parse_card
from .errors import IllegalMoveError, MalformedError
from .state import Deal, Round, _check_keys, _object, _sorted_cards
from .tricks import DEFAULT_SUIT_ORDER, EXACT, check_rule, check_suit_order

ROUNDS = 5  # the rounds of a game
MAX_SUDDEN_DEATH = 3  # at most this many sudden-death rounds


@dataclass(frozen=True)
class MatchResult:
    """Where a game stands after some rounds.

    ``totals``: each seat's total over the rounds used; ``winners``: the seats sharing
    first place once the game is decided (empty while ``needs_more``); ``rounds_used``: the
    rounds that count (5, plus the sudden-death rounds played); ``needs_more``: another
    round is needed (fewer than 5 played, or a tie for first with sudden-death rounds
    left); ``contenders``: the seats still able to win (all four before round 5 ends)."""

    totals: tuple[int, int, int, int]
    winners: tuple[int, ...]
    rounds_used: int
    needs_more: bool
    contenders: tuple[int, ...]


def match_result(round_scores: Sequence[Sequence[int]], rounds: int = ROUNDS,
                 max_sudden_death: int = MAX_SUDDEN_DEATH) -> MatchResult:
    """The result of a game from its rounds' scores (one 4-tuple a round, in order). A
    round after the game was decided is an :class:`IllegalMoveError`."""
    totals = [0, 0, 0, 0]
    contenders: list[int] = list(range(NUM_SEATS))
    for i, sc in enumerate(round_scores):
        if len(sc) != NUM_SEATS:
            raise MalformedError(f"round {i}: expected 4 scores, got {len(sc)}")
        if i >= rounds and len(contenders) == 1:
            raise IllegalMoveError(f"round {i}: the game was decided after {i} rounds")
        if i >= rounds + max_sudden_death:
            raise IllegalMoveError(f"round {i}: a game has at most {max_sudden_death} sudden-death rounds")
        for s in range(NUM_SEATS):
            totals[s] += sc[s]
        if i >= rounds - 1:
            best = max(totals[s] for s in contenders)
            contenders = [s for s in contenders if totals[s] == best]
    used = len(round_scores)
    t = (totals[0], totals[1], totals[2], totals[3])
    decided = used >= rounds and (len(contenders) == 1 or used >= rounds + max_sudden_death)
    return MatchResult(t, tuple(contenders) if decided else (), used, not decided, tuple(contenders))


class Match:
    """A game being played: rounds added one by one (:meth:`new_round`), each a
    :class:`Round` whose deal must come from the right dealer."""

    def __init__(self, first_dealer: int = 3, rule: str = EXACT, suit_order: str = DEFAULT_SUIT_ORDER) -> None:
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < NUM_SEATS:
            raise MalformedError(f"first dealer {first_dealer!r}: seats are 0..3")
        self.first_dealer = first_dealer
        self.rule = check_rule(rule)
        self.suit_order = check_suit_order(suit_order)
        self.rounds: list[Round] = []
        self.deals: list[Deal] = []  # each round's deal
        self.timeout_bids: list[set[int]] = []  # per round: the seats whose bid 0 was a timeout
        self.timeout_plays: list[set[int]] = []  # per round: the indices of plays made by the timeout rule

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.rounds)) % NUM_SEATS

    def scores(self) -> list[tuple[int, int, int, int]]:
        """The scores of the finished rounds."""
        return [r.scores(self.rule) for r in self.rounds if r.is_over]

    def result(self) -> MatchResult:
        return match_result(self.scores())

    def new_round(self, deal: Deal) -> Round:
        """Start the next round with ``deal`` (its dealer must be :attr:`next_dealer`)."""
        if self.rounds and not self.rounds[-1].is_over:
            raise IllegalMoveError(f"the previous round (rounds[{len(self.rounds) - 1}]) is not finished")
        if self.rounds and not self.result().needs_more:
            raise IllegalMoveError(f"the game was decided after {len(self.rounds)} rounds")
        if deal.dealer != self.next_dealer:
            raise IllegalMoveError(f"dealer {deal.dealer}, but the deal passes to seat {self.next_dealer} "
                                   f"(one seat each round)")
        r = Round(deal)
        self.rounds.append(r)
        self.deals.append(deal)
        self.timeout_bids.append(set())
        self.timeout_plays.append(set())
        return r

    def timeout_bid(self, seat: int) -> None:
        self.rounds[-1].timeout_bid(seat)
        self.timeout_bids[-1].add(seat)

    def timeout_play(self) -> None:
        r = self.rounds[-1]
        self.timeout_plays[-1].add(len(r.played))
        r.apply(r.timeout_card(self.suit_order))

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        rounds = []
        for r, deal, tb, tp in zip(self.rounds, self.deals, self.timeout_bids, self.timeout_plays):
            rounds.append({"dealer": deal.dealer, "hands": [_sorted_cards(h) for h in deal.hands],
                           "bids": [None if s in tb else b for s, b in enumerate(r.bids)],
                           "plays": [None if i in tp else card_str(c) for i, c in enumerate(r.played)]})
        return {"kind": "game", "rule": self.rule, "suit_order": self.suit_order, "first_dealer": self.first_dealer,
                "rounds": rounds}

    @classmethod
    def from_json(cls, obj: object, where: str = "game") -> Match:
        """Replay a game from its JSON, checking every bid and card; an error names the
        round and the card (0-based) at fault. ``null`` for a bid or a card is a timeout
        (bid 0; the lowest legal card). The last round may be unfinished."""
        d = _object(obj, where)
        _check_keys(d, ("kind", "rule", "suit_order", "first_dealer", "rounds"), where)
        if d.get("kind", "game") != "game":
            raise MalformedError(f"{where}: kind {d['kind']!r}, expected 'game'")
        rule = d.get("rule", EXACT)
        if not isinstance(rule, str):
            raise MalformedError(f"{where}.rule: expected a string")
        order = d.get("suit_order", DEFAULT_SUIT_ORDER)
        if not isinstance(order, str):
            raise MalformedError(f"{where}.suit_order: expected a string")
        rounds = d.get("rounds")
        if not isinstance(rounds, list):
            raise MalformedError(f"{where}: missing list 'rounds'")
        first = d.get("first_dealer")
        if first is None:
            first = rounds[0].get("dealer", 3) if rounds and isinstance(rounds[0], dict) else 3
        try:
            m = cls(first, rule, order)
        except MalformedError as e:
            raise MalformedError(f"{where}: {e}") from None
        for i, ro in enumerate(rounds):
            w = f"{where}: rounds[{i}]"
            ro = _object(ro, w)
            _check_keys(ro, ("dealer", "hands", "order", "bids", "plays"), w)
            deal = Deal.from_json({k: v for k, v in ro.items() if k in ("dealer", "hands", "order")}, w)
            try:
                m.new_round(deal)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"{w}: {e}") from None
            bids = ro.get("bids")
            if not isinstance(bids, list) or len(bids) != NUM_SEATS:
                raise MalformedError(f"{w}: bids: expected a list of 4 bids (null: a timeout)")
            for seat, b in enumerate(bids):
                try:
                    if b is None:
                        m.timeout_bid(seat)
                    elif isinstance(b, int) and not isinstance(b, bool):
                        m.rounds[-1].bid(seat, b)
                    else:
                        raise MalformedError(f"bid: seat {seat}: {b!r} is not a number")
                except (MalformedError, IllegalMoveError) as e:
                    raise type(e)(f"{w}.bids[{seat}]: {e}") from None
            plays = ro.get("plays", [])
            if not isinstance(plays, list):
                raise MalformedError(f"{w}: plays: expected a list of cards")
            for j, c in enumerate(plays):
                wc = f"{w}.plays[{j}] (trick {j // NUM_SEATS + 1})"
                try:
                    if c is None:
                        m.timeout_play()
                    elif isinstance(c, str):
                        m.rounds[-1].apply(parse_card(c, "card"))
                    else:
                        raise MalformedError(f"{c!r} is not a card string")
                except (MalformedError, IllegalMoveError) as e:
                    raise type(e)(f"{wc}: {e}") from None
            if i < len(rounds) - 1 and not m.rounds[-1].is_over:
                raise IllegalMoveError(f"{w}: unfinished ({m.rounds[-1].tricks_left} tricks to play) but "
                                       f"rounds[{i + 1}] follows")
        return m
