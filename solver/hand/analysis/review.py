"""Game review of Hand (definitions: docs/hand.md, "Game review").

For each round of a game and each seat s with bid b: the score G(s, b) the seat could
guarantee (the bid table's value, the other three playing together against it) before
the first card and after every card; the seat's own cards that lowered it (its
**mistakes**, with the classes of equivalent cards that kept it), the first card after
which its bid could no longer be guaranteed; and, cooperatively, the first card after
which the four bids could no longer all be made together.

Two facts of the game tree keep the work small, both plain minimax: a card of the other
three never lowers G(s, b) (the coalition takes the minimum over its cards, so the value
after any one card is at least the value before), and a card of s never raises it (s
takes the maximum). So along the play G is searched at the start, before and after each
of s's own cards and at the end; a run of coalition cards between two equal values is
filled with that value (it can only rise and cannot end higher), and a run between
different values is searched card by card. Likewise the trick vectors reachable after a
card are a subset of those before, so once the bid vector is out it stays out.

Every search has a deterministic node budget (``nodes`` per question); an undecided
value is ``None``, never a guess. Imports :mod:`solver.hand.rules` and this package only; no
printing.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from solver.hand.rules import (
    ATLEAST,
    EXACT,
    NUM_SEATS,
    Card,
    Deal,
    IllegalMoveError,
    MalformedError,
    Match,
    Position,
    Round,
    check_rule,
    round_score,
)
from solver.hand.search.analyses import DEFAULT_COOP_NODES, DEFAULT_NODES, Forcer, equivalent_groups
from solver.hand.search.kernel import BudgetExhausted, Cooperative, Paranoid, vector_bit

Status = Literal["kept", "gained", "lost", "never", "unknown"]
Vector = tuple[int, int, int, int]


def made_score(bid: int, rule: str = EXACT) -> int:
    """The least score of a made bid: 10 b (25 for a bid of 0) under ``exact``, 10 b under
    ``atleast`` (where a made bid scores 10 per trick taken, so at least that)."""
    if rule == ATLEAST:
        return 10 * bid
    return round_score(bid, bid, EXACT)


def is_made(score: int, bid: int, rule: str = EXACT) -> bool:
    """Does a guaranteed ``score`` mean the bid is made (``exact``: the score is the made
    score; ``atleast``: at least it)?"""
    return score >= made_score(bid, rule) if rule == ATLEAST else score == made_score(bid, rule)


@dataclass(frozen=True)
class Mistake:
    """A card of the seat that lowered its guaranteed score: card ``index`` of the round
    (0-based; trick ``trick``, 1-based), from ``before`` to ``after``. ``better``: the
    classes of equivalent cards (each highest first) that keep ``before`` in that position;
    ``undecided``: classes the budget did not decide (neither listed as better nor not).
    ``loses_bid``: ``before`` guaranteed the bid and ``after`` does not. ``timeout``: the
    card was played by the timeout rule."""

    index: int
    trick: int
    seat: int
    card: Card
    before: int
    after: int
    better: tuple[tuple[Card, ...], ...]
    undecided: tuple[tuple[Card, ...], ...]
    loses_bid: bool
    timeout: bool


@dataclass(frozen=True)
class SeatReview:
    """One seat's review of one round, bid ``bid``.

    ``curve[i]``: G(seat, bid) in the position before card ``i`` (``curve[0]``: the deal,
    ``curve[-1]``: after the last card played), None where undecided; ``searched[i]``:
    whether that value was searched (else filled by the monotonicity argument above).
    ``status``: ``lost`` (``first_loss`` is the seat's first card after which its bid was no
    longer guaranteed, having been before it: at the deal, or since the others' cards gave
    it); else ``kept`` (guaranteed at the deal), ``gained`` (not at the deal, but from
    ``guaranteed_from`` on, the others' cards having given it), ``never`` (guaranteed at no
    point: ``curve[0]`` is the score guaranteed at the deal), ``unknown`` (a value the
    question needs is undecided). ``guaranteed_from``: the first position where
    the bid was guaranteed (None: never, or undecided before). ``mistakes``: every decided
    card of the seat that lowered G, in order (the first loss among them);
    ``undecided_cards``: the indices of the seat's cards whose value before or after is
    undecided. ``tricks``: taken (so far, if the round is
    unfinished); ``score``, ``made``: the round's, once it is over."""

    seat: int
    bid: int
    made_score: int
    curve: tuple[int | None, ...]
    searched: tuple[bool, ...]
    status: Status
    guaranteed_from: int | None
    first_loss: Mistake | None
    mistakes: tuple[Mistake, ...]
    undecided_cards: tuple[int, ...]
    tricks: int
    score: int | None
    made: bool | None
    nodes: int

    @property
    def start(self) -> int | None:
        return self.curve[0]

    @property
    def complete(self) -> bool:
        return all(v is not None for v in self.curve) and not self.undecided_cards


@dataclass(frozen=True)
class TableReview:
    """The cooperative view of one round: could the four bids all still be made by the
    four seats playing together (the bid vector among the reachable trick vectors; under
    ``atleast``, at or below one of them)?

    ``makeable[i]``: in the position before card ``i`` (as ``SeatReview.curve``), None where
    undecided (the values after a ``False`` are ``False`` without a search: the reachable set
    only shrinks). ``status``: ``kept`` (makeable to the last card played), ``lost`` (the
    card at ``loss_index`` by ``loss_seat`` took it out of reach), ``never`` (not makeable
    from the deal), ``unknown``. ``better``: the classes of the loss position's mover that
    kept the bids makeable (``undecided``: classes the budget did not decide)."""

    bids: Vector
    makeable: tuple[bool | None, ...]
    status: Status
    loss_index: int | None
    loss_trick: int | None
    loss_seat: int | None
    loss_card: Card | None
    better: tuple[tuple[Card, ...], ...]
    undecided: tuple[tuple[Card, ...], ...]
    nodes: int


@dataclass(frozen=True)
class RoundReview:
    """The review of round ``index`` (0-based) of a game: the deal (None for a round
    reviewed from a later ``start`` position; ``start`` is the deal's first otherwise), bids and cards
    (``seats[i]`` played ``plays[i]``; ``timeouts``: the indices played by the timeout
    rule), the result as the engine computes it (``tricks`` taken; ``scores`` once the round
    is over), one :class:`SeatReview` per seat and the :class:`TableReview`."""

    index: int
    rule: str
    deal: Deal | None
    start: Position
    bids: Vector
    plays: tuple[Card, ...]
    players: tuple[int, ...]
    timeouts: tuple[int, ...]
    tricks: Vector
    over: bool
    scores: Vector | None
    seats: tuple[SeatReview, ...]
    table: TableReview

    @property
    def complete(self) -> bool:
        return all(s.complete for s in self.seats) and self.table.status != "unknown"

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self.seats) + self.table.nodes


@dataclass(frozen=True)
class GameReview:
    """The review of the rounds asked for (``rounds``, each with its ``index``)."""

    rule: str
    rounds: tuple[RoundReview, ...]
    nodes: int

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.rounds)


class _SeatValues:
    """G(seat, bid) in positions of one round, each searched at most once, one
    transposition table for the round (its keys do not depend on the tricks taken)."""

    def __init__(self, seat: int, bid: int, rule: str, nodes: int, tt: dict[int, list[int]]) -> None:
        self.seat = seat
        self.bid = bid
        self.rule = rule
        self.budget = nodes
        self.search = Paranoid([0, 0, 0, 0], seat, nodes)
        self.search.tt = tt
        self.nodes = 0

    def value(self, p: Position) -> int | None:
        s = self.search
        s.nodes = 0
        s.set_hands(list(p.hands))
        try:
            return Forcer(p, self.seat, s).bid_score(self.bid, self.rule)
        except BudgetExhausted:  # pragma: no cover  (Forcer turns it into None)
            return None
        finally:
            self.nodes += s.nodes


def _vector_bits(p: Position, bids: Vector, rule: str) -> int:
    """The future trick vectors (:func:`vector_bit` of the tricks still to be won) that
    make every bid from ``p``: the bids exactly (``exact``) or at least them."""
    n = p.tricks_left
    need = [bids[s] - p.taken[s] for s in range(NUM_SEATS)]
    bits = 0
    if rule == EXACT:
        if min(need) >= 0 and sum(need) == n:
            bits |= vector_bit(need[0], need[1], need[2])
        return bits
    lo = [max(x, 0) for x in need]
    for a in range(lo[0], n + 1):
        for b in range(lo[1], n + 1 - a):
            for c in range(lo[2], n + 1 - a - b):
                d = n - a - b - c
                if d >= lo[3]:
                    bits |= vector_bit(a, b, c)
    return bits


class _TableValues:
    """Is some vector of ``want`` reachable from a position? One cooperative memo for the
    round (positions of one round: the same cards, seats kept)."""

    def __init__(self, bids: Vector, rule: str, nodes: int) -> None:
        self.bids = bids
        self.rule = rule
        self.coop = Cooperative([0, 0, 0, 0], nodes)
        self.nodes = 0

    def makeable(self, p: Position) -> bool | None:
        want = _vector_bits(p, self.bids, self.rule)
        if not want:
            return False
        c = self.coop
        c.nodes = 0
        c.set_hands(list(p.hands))
        try:
            got = c.reach(p.leader, list(p.table), want)
        except BudgetExhausted:
            return None
        finally:
            self.nodes += c.nodes
        return bool(got)


def _classes(p: Position, card: int) -> tuple[list[list[int]], int]:
    """The mover's classes of equivalent legal cards and the index of ``card``'s class."""
    groups = equivalent_groups(p)
    for i, g in enumerate(groups):
        if card in g:
            return groups, i
    # a card equivalent to no legal card cannot be legal
    raise IllegalMoveError(f"{Card(card)} is not a legal card here")  # pragma: no cover


def _trick(p: Position) -> int:
    """The number (1-based) of the trick the next card of ``p`` goes to."""
    return sum(p.taken) + 1


class _KeepsValue:
    """Whether a position still has the value ``before`` for the seat (None: undecided)."""

    def __init__(self, sv: _SeatValues, before: int) -> None:
        self.sv = sv
        self.before = before

    def __call__(self, q: Position) -> bool | None:
        v = self.sv.value(q)
        return None if v is None else v == self.before


def _other_classes(p: Position, played: int, keeps: Callable[[Position], bool | None]
                   ) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """The mover's classes of legal cards other than ``played``'s that keep what ``keeps``
    asks after them (the better cards), and those it leaves undecided."""
    better: list[tuple[Card, ...]] = []
    unknown: list[tuple[Card, ...]] = []
    groups, _ = _classes(p, played)
    for g in groups:
        if played in g:
            continue
        k = keeps(p.after(Card(g[0])))
        if k is None:
            unknown.append(_cards(g))
        elif k:
            better.append(_cards(g))
    return better, unknown


def _cards(g: Sequence[int]) -> tuple[Card, ...]:
    return tuple(Card(c) for c in g)


def _review_seat(positions: Sequence[Position], plays: Sequence[int], players: Sequence[int],
                 timeouts: set[int], seat: int, bid: int, rule: str, nodes: int, tt: dict[int, list[int]],
                 every_position: bool) -> SeatReview:
    n = len(plays)
    sv = _SeatValues(seat, bid, rule, nodes, tt)
    curve: list[int | None] = [None] * (n + 1)
    searched = [False] * (n + 1)

    def at(i: int) -> int | None:
        if not searched[i]:
            curve[i] = sv.value(positions[i])
            searched[i] = True
        return curve[i]

    own = [i for i in range(n) if players[i] == seat]
    anchors = sorted({0, n, *own, *(i + 1 for i in own)})
    for i in (range(n + 1) if every_position else anchors):
        at(i)
    # runs of coalition cards between anchors: equal ends fill the run (it can only rise)
    for a, b in zip(anchors, anchors[1:]):
        if b - a <= 1:
            continue
        if curve[a] is not None and curve[a] == curve[b]:
            for i in range(a + 1, b):
                if not searched[i]:
                    curve[i] = curve[a]
        else:
            for i in range(a + 1, b):
                at(i)
    made = made_score(bid, rule)
    mistakes: list[Mistake] = []
    undecided: list[int] = []
    for i in own:
        before, after = curve[i], curve[i + 1]
        if before is None or after is None:
            undecided.append(i)
            continue
        if after >= before:
            continue
        p = positions[i]
        better, unknown = _other_classes(p, plays[i], _KeepsValue(sv, before))
        mistakes.append(Mistake(i, _trick(p), seat, Card(plays[i]), before, after, tuple(better),
                                tuple(unknown), is_made(before, bid, rule) and not is_made(after, bid, rule),
                                i in timeouts))
    # the first loss: the first of the seat's cards that lost the bid, every card before it decided
    start = curve[0]
    first: Mistake | None = None
    status: Status = "unknown"
    losses = {m.index: m for m in mistakes if m.loses_bid}
    for i in own:
        if i in undecided:
            break
        if i in losses:
            first = losses[i]
            status = "lost"
            break
    gained = next((i for i, v in enumerate(curve) if v is not None and is_made(v, bid, rule)), None)
    if gained is not None and any(v is None for v in curve[:gained]):
        gained = None
    if status == "unknown" and first is None and len(undecided) == 0 and start is not None:
        if is_made(start, bid, rule):
            status = "kept"
        elif gained is not None:
            status = "gained"
        elif all(v is not None for v in curve):
            status = "never"
    end = positions[-1]
    over = end.is_over
    tricks = end.taken[seat]
    score = round_score(bid, tricks, rule) if over else None
    made_bid = None if score is None else (tricks >= bid if rule == ATLEAST else tricks == bid)
    return SeatReview(seat, bid, made, tuple(curve), tuple(searched), status, gained, first, tuple(mistakes),
                      tuple(undecided), tricks, score, made_bid, sv.nodes)


def _review_table(positions: Sequence[Position], plays: Sequence[int], players: Sequence[int], bids: Vector,
                  rule: str, nodes: int) -> TableReview:
    n = len(plays)
    tv = _TableValues(bids, rule, nodes)
    makeable: list[bool | None] = [None] * (n + 1)
    for i in range(n + 1):
        makeable[i] = tv.makeable(positions[i])
        if makeable[i] is False:
            for j in range(i + 1, n + 1):
                makeable[j] = False
            break
    first_false = next((i for i, m in enumerate(makeable) if m is False), None)
    status: Status
    loss: int | None = None
    better: list[tuple[Card, ...]] = []
    unknown: list[tuple[Card, ...]] = []
    if first_false is None:
        status = "kept" if all(m is True for m in makeable) else "unknown"
    elif first_false == 0:
        status = "never"
    elif makeable[first_false - 1] is True:
        status = "lost"
        loss = first_false - 1
        p = positions[loss]
        better, unknown = _other_classes(p, plays[loss], tv.makeable)
    else:
        status = "unknown"
    return TableReview(bids, tuple(makeable), status, loss, None if loss is None else _trick(positions[loss]),
                       None if loss is None else players[loss], None if loss is None else Card(plays[loss]),
                       tuple(better), tuple(unknown), tv.nodes)


def review_round(start: Deal | Position, bids: Sequence[int], plays: Sequence[Card | int | str],
                 rule: str = EXACT, *,
                 index: int = 0, timeouts: Sequence[int] = (), nodes: int = DEFAULT_NODES,
                 coop_nodes: int = DEFAULT_COOP_NODES, every_position: bool = False) -> RoundReview:
    """Review one round: ``start`` (a deal, or a position of the round with its tricks
    taken), the four ``bids`` and the cards played from there (all of them, or fewer for
    an unfinished round; each checked by the engine). ``nodes``: the budget of each
    paranoid question (one seat, one position), ``coop_nodes`` of each cooperative one.
    ``every_position``: search G in every position instead of filling runs of coalition
    cards (for checking the argument; slower)."""
    check_rule(rule)
    if not isinstance(start, (Deal, Position)):
        raise MalformedError(f"expected a Deal or a Position, got {type(start).__name__}")
    if len(bids) != NUM_SEATS:
        raise MalformedError(f"bids: expected 4 bids, got {len(bids)}")
    if isinstance(start, Deal):
        r = Round(start, list(bids))
    else:
        r = Round(start.with_bids(list(bids)))
    positions = [r.position()]
    players: list[int] = []
    for i, c in enumerate(plays):
        players.append(r.to_move)
        try:
            r.apply(c)
        except (MalformedError, IllegalMoveError) as e:
            raise type(e)(f"card {i} (trick {_trick(r.position())}): {e}") from None
        positions.append(r.position())
    cards = list(r.played)
    bv: Vector = (bids[0], bids[1], bids[2], bids[3])
    tt: dict[int, list[int]] = {}
    seats = tuple(_review_seat(positions, cards, players, set(timeouts), s, bv[s], rule, nodes, tt, every_position)
                  for s in range(NUM_SEATS))
    table = _review_table(positions, cards, players, bv, rule, coop_nodes)
    deal = start if isinstance(start, Deal) else None
    return RoundReview(index, rule, deal, positions[0], bv, tuple(Card(c) for c in cards), tuple(players),
                       tuple(sorted(timeouts)), r.tricks, r.is_over, r.scores(rule) if r.is_over else None,
                       seats, table)


def review_game(match: Match, rounds: Sequence[int] | None = None, *, nodes: int = DEFAULT_NODES,
                coop_nodes: int = DEFAULT_COOP_NODES, every_position: bool = False) -> GameReview:
    """Review the rounds ``rounds`` (0-based indices; default every round) of a game replayed
    by :meth:`Match.from_json`, under the game's rule."""
    idx = list(range(len(match.rounds))) if rounds is None else list(rounds)
    out = []
    for k in idx:
        if not 0 <= k < len(match.rounds):
            raise MalformedError(f"round {k + 1}: the game has {len(match.rounds)} rounds")
        r = match.rounds[k]
        bids = [b for b in r.bids if b is not None]
        if len(bids) != NUM_SEATS:
            raise MalformedError(f"round {k + 1}: not every seat has bid")
        out.append(review_round(match.deals[k], bids, list(r.played), match.rule, index=k,
                                timeouts=sorted(match.timeout_plays[k]), nodes=nodes, coop_nodes=coop_nodes,
                                every_position=every_position))
    return GameReview(match.rule, tuple(out), sum(r.nodes for r in out))
