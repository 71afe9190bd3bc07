"""The full-information analyses of Hand (definitions: docs/hand.md, "The analyses").

Every analysis takes a :class:`~solver.hand.rules.Deal` or a :class:`~solver.hand.rules.Position`
and a deterministic node budget; what the budget does not decide is ``None`` ("unknown"),
never a guess. Trick counts are the round's totals (the tricks already taken included).
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.hand.rules import (
    ATLEAST,
    EXACT,
    MAX_BID,
    NUM_SEATS,
    Card,
    Deal,
    MalformedError,
    Position,
    check_rule,
    legal_mask,
    round_score,
)

from .kernel import (
    IVALID,
    REPS,
    BudgetExhausted,
    Cooperative,
    Paranoid,
    down_closure,
    interval_bit,
    up_closure,
    vector_of,
)

DEFAULT_NODES = 2_000_000  # paranoid searches: trick-boundary positions expanded, per call
DEFAULT_COOP_NODES = 2_000_000  # cooperative programme: trick-boundary positions expanded


class HandSolverError(RuntimeError):
    """An internal contradiction of the Hand solver (a bug, never bad input)."""


def as_position(pos: Deal | Position) -> Position:
    if isinstance(pos, Deal):
        return pos.position()
    if isinstance(pos, Position):
        return pos
    raise MalformedError(f"expected a Deal or a Position, got {type(pos).__name__}")


def _check_seat(seat: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < NUM_SEATS:
        raise MalformedError(f"seat {seat!r}: seats are 0..3")
    return seat


@dataclass(frozen=True)
class SeatBounds:
    """One seat's paranoid bounds (the other three playing together against it).

    ``most``: the most tricks (round total) the seat can force; ``fewest``: the fewest it
    can force; ``exact``: every k it can force exactly (sorted). ``None``: not decided
    within the budget."""

    seat: int
    most: int | None
    fewest: int | None
    exact: tuple[int, ...] | None

    @property
    def complete(self) -> bool:
        return self.most is not None and self.fewest is not None and self.exact is not None


@dataclass(frozen=True)
class BidRow:
    """One seat's line of the bid table: ``scores[b]`` is the score the seat can guarantee
    with bid ``b`` (0..8) whatever the other three do; ``best_bid`` the bid with the
    highest such score (the lowest of equals), ``best_score`` that score."""

    seat: int
    scores: tuple[int | None, ...]
    best_bid: int | None
    best_score: int | None
    bounds: SeatBounds

    @property
    def complete(self) -> bool:
        return all(s is not None for s in self.scores) and self.bounds.complete


@dataclass(frozen=True)
class BidTable:
    """The bid table of a position: one :class:`BidRow` per seat asked for."""

    rule: str
    rows: tuple[BidRow, ...]
    nodes: int

    def row(self, seat: int) -> BidRow:
        for r in self.rows:
            if r.seat == seat:
                return r
        raise KeyError(seat)

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.rows)


class Forcer:
    """Which intervals [lo, hi] of its round total ``seat`` can force from one position,
    as far as asked and decided within the budget (the rest unknown)."""

    def __init__(self, pos: Position, seat: int, search: Paranoid) -> None:
        self.pos = pos
        self.seat = seat
        self.search = search
        self.n = pos.tricks_left
        self.base = pos.taken[seat]
        self.yes = interval_bit(0, self.n)  # future-trick intervals known forcible
        self.no = 0  # ... and known not
        self.exhausted = False

    def resolve(self, q: int) -> None:
        """Decide the intervals ``q`` (future tricks), as far as the budget allows."""
        n = self.n
        ask = q & IVALID[n] & ~(self.yes | self.no)
        if not ask or self.exhausted:
            return
        s = self.search
        p = self.pos
        s.seat = self.seat
        s.set_hands(list(p.hands))
        try:
            got = s.ask(p.leader, list(p.table), ask)
        except BudgetExhausted:
            self.exhausted = True
            return
        self.yes |= up_closure(got, n)
        self.no |= down_closure(ask & ~got, n)

    def future(self, lo: int, hi: int) -> bool | None:
        n = self.n
        lo = max(lo, 0)
        hi = min(hi, n)
        if lo > hi:
            return False
        bit = interval_bit(lo, hi)
        if not bit & (self.yes | self.no):
            self.resolve(bit)
        if bit & self.yes:
            return True
        if bit & self.no:
            return False
        return None

    def total(self, lo: int, hi: int) -> bool | None:
        """Can the seat force its round total into [lo, hi]? (None: unknown)"""
        return self.future(lo - self.base, hi - self.base)

    def most(self) -> int | None:
        """The most tricks (round total) the seat can force, asked from the top down."""
        n = self.n
        for t in range(n, -1, -1):
            r = self.future(t, n)
            if r is None:
                return None
            if r:
                return t + self.base
        return None  # pragma: no cover  ([0, n] is always forcible)

    def bounds(self) -> SeatBounds:
        n = self.n
        up = low = two = 0
        for t in range(n + 1):
            up |= interval_bit(t, n)
            low |= interval_bit(0, t)
            two |= interval_bit(t, t)
        most = self.most()
        fewest: int | None = None
        for t in range(n + 1):
            r = self.future(0, t)
            if r is None:
                break
            if r:
                fewest = t + self.base
                break
        exact: tuple[int, ...] | None = None
        ks: list[int] = []
        for k in range(n + 1):
            r = self.future(k, k)
            if r is None:
                break
            if r:
                ks.append(k + self.base)
        else:
            exact = tuple(ks)
        return SeatBounds(self.seat, most, fewest, exact)

    def h(self, bounds: SeatBounds) -> list[int] | None:
        """``h[lo]`` for lo = 0 .. most (future tricks): the least ``hi`` such that the seat
        can force [lo, hi]; None if the budget ran out. h is non-decreasing, h[0] is the
        fewest; each h[lo] is found from h[lo - 1] upwards ("no" answers first: cheap)."""
        if bounds.most is None or bounds.fewest is None or bounds.exact is None:
            return None
        most = bounds.most - self.base
        out = [bounds.fewest - self.base]
        for lo in range(1, most + 1):
            x = max(out[-1], lo)
            while True:
                r = self.future(lo, x)
                if r is None:
                    return None
                if r:
                    break
                x += 1
            out.append(x)
        return out

    def bid_score(self, bid: int, rule: str, bounds: SeatBounds | None = None) -> int | None:
        """The score the seat can guarantee with one bid: [bid, bid], then the intervals
        around it, widening, until one can be forced (under ``atleast``: from ``most``)."""
        if rule == ATLEAST:
            most = self.most() if bounds is None else bounds.most
            return None if most is None else round_score(bid, most, ATLEAST)
        for d in range(0, 2 * MAX_BID + 1):
            r = self.total(bid - d, bid + d)
            if r is None:
                return None
            if r:
                return round_score(bid, bid, EXACT) if d == 0 else -10 * d
        raise HandSolverError("no interval around the bid forcible, not even every count")  # pragma: no cover

    def bid_scores(self, rule: str, bounds: SeatBounds) -> tuple[int | None, ...]:
        """The score the seat can guarantee with each bid 0..8."""
        if rule == ATLEAST:
            m = bounds.most
            return tuple(None if m is None else round_score(b, m, ATLEAST) for b in range(MAX_BID + 1))
        h = self.h(bounds)
        if h is None:
            return (None,) * (MAX_BID + 1)
        out: list[int | None] = []
        n = self.n
        for bid in range(MAX_BID + 1):
            b = bid - self.base  # the bid in future tricks
            if 0 <= b < len(h) and h[b] == b:
                out.append(round_score(bid, bid, EXACT))
                continue
            for d in range(1, 2 * MAX_BID + 1):
                lo = max(b - d, 0)
                hi = min(b + d, n)
                if lo <= hi and lo < len(h) and h[lo] <= hi:
                    out.append(-10 * d)
                    break
            else:  # pragma: no cover
                raise HandSolverError("no interval around the bid forcible, not even every count")
        return tuple(out)


def _best(scores: tuple[int | None, ...]) -> tuple[int | None, int | None]:
    known = [s for s in scores if s is not None]
    if len(known) < len(scores):
        return None, None
    top = max(known)
    return known.index(top), top  # the lowest of equal bids


def seat_bounds(pos: Deal | Position, seat: int, *, nodes: int = DEFAULT_NODES) -> SeatBounds:
    """One seat's paranoid bounds and exact set (:class:`SeatBounds`)."""
    p = as_position(pos)
    f = Forcer(p, _check_seat(seat), Paranoid(list(p.hands), seat, nodes))
    return f.bounds()


def bid_table(pos: Deal | Position, seat: int | None = None, rule: str = EXACT, *,
              nodes: int = DEFAULT_NODES) -> BidTable:
    """The bid table: for each seat (or ``seat`` alone) and each bid 0..8 the score the
    seat can guarantee against the worst the other three can do, its best bid, and its
    paranoid bounds and exact set. ``nodes`` is the budget of each seat's searches."""
    p = as_position(pos)
    check_rule(rule)
    seats = range(NUM_SEATS) if seat is None else (_check_seat(seat),)
    rows = []
    total = 0
    tt: dict[int, list[int]] = {}
    for s in seats:
        search = Paranoid(list(p.hands), s, nodes)
        search.tt = tt  # keys count seats from the searching seat: one table serves all four
        f = Forcer(p, s, search)
        b = f.bounds()
        scores = f.bid_scores(rule, b)
        best_bid, best_score = _best(scores)
        rows.append(BidRow(s, scores, best_bid, best_score, b))
        total += search.nodes
    return BidTable(rule, tuple(rows), total)


@dataclass(frozen=True)
class Reachability:
    """Cooperative reachability: ``vectors`` holds every trick vector (each seat's round
    total) that some legal play reaches from the position; None if not decided within
    the budget."""

    vectors: frozenset[tuple[int, int, int, int]] | None
    nodes: int

    def makeable(self, rule: str = EXACT) -> frozenset[tuple[int, int, int, int]] | None:
        """The bid vectors all four seats can make at once: under ``exact`` the reachable
        vectors themselves; under ``atleast`` every vector at or below one of them."""
        check_rule(rule)
        if self.vectors is None:
            return None
        if rule == EXACT:
            return self.vectors
        out: set[tuple[int, int, int, int]] = set()
        for v in self.vectors:
            for a in range(v[0] + 1):
                for b in range(v[1] + 1):
                    for c in range(v[2] + 1):
                        for d in range(v[3] + 1):
                            out.add((a, b, c, d))
        return frozenset(out)


def decode_vectors(bits: int, n: int, taken: tuple[int, int, int, int]) -> frozenset[tuple[int, int, int, int]]:
    """The round totals of a set of future vectors summing to ``n`` (:func:`vector_of`),
    the tricks already ``taken`` added."""
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        v = vector_of(low.bit_length() - 1, n)
        out.append((v[0] + taken[0], v[1] + taken[1], v[2] + taken[2], v[3] + taken[3]))
    return frozenset(out)


def reachable(pos: Deal | Position, *, nodes: int = DEFAULT_COOP_NODES) -> Reachability:
    """Every trick vector some legal play reaches (:class:`Reachability`)."""
    p = as_position(pos)
    c = Cooperative(list(p.hands), nodes)
    try:
        bits = c.reach(p.leader, list(p.table))
    except BudgetExhausted:
        return Reachability(None, c.nodes)
    return Reachability(decode_vectors(bits, p.tricks_left, p.taken), c.nodes)


@dataclass(frozen=True)
class CardChoice:
    """One distinct legal card of the mover (``cards``: it and the cards equivalent to it,
    highest first) and what the mover can still force after playing it: ``score`` (the
    score it can guarantee with its bid; None without a bid or when undecided) and
    ``bounds`` (its paranoid bounds and exact set; None unless asked for or without a bid)."""

    cards: tuple[Card, ...]
    score: int | None
    bounds: SeatBounds | None


@dataclass(frozen=True)
class BestCards:
    """Best card: every distinct legal card of ``seat`` (the seat to move) with what it
    still guarantees; ``best`` the choices with the highest score (with a bid), or else
    the highest most-tricks."""

    seat: int
    bid: int | None
    rule: str
    choices: tuple[CardChoice, ...]
    nodes: int

    @property
    def best(self) -> tuple[CardChoice, ...]:
        if self.bid is not None:
            known = [c.score for c in self.choices if c.score is not None]
            if len(known) < len(self.choices) or not known:
                return ()
            top = max(known)
            return tuple(c for c in self.choices if c.score == top)
        mosts = [None if c.bounds is None else c.bounds.most for c in self.choices]
        if any(m is None for m in mosts) or not mosts:
            return ()
        topm = max(m for m in mosts if m is not None)
        return tuple(c for c in self.choices if c.bounds is not None and c.bounds.most == topm)


def equivalent_groups(p: Position) -> list[list[int]]:
    """The mover's legal cards in classes of equivalent cards (adjacent in rank among the
    cards still in play, the current trick's included), each class highest first."""
    legal = legal_mask(p.hands[p.to_move], p.led_suit)
    allc = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]
    for c in p.table:
        allc |= 1 << c
    groups: list[list[int]] = []
    for k in range(4):
        lb = legal >> (8 * k) & 255
        if not lb:
            continue
        ub = allc >> (8 * k) & 255
        reps = REPS[ub << 8 | lb]
        for r in range(8):
            if reps >> r & 1:
                g = [8 * k + r]
                q = r + 1
                while q < 8:
                    if lb >> q & 1:
                        g.append(8 * k + q)
                    elif ub >> q & 1:
                        break
                    q += 1
                groups.append(sorted(g, reverse=True))
    groups.sort(key=lambda g: (-(g[0] & 7), -(g[0] >> 3)))
    return groups


def best_cards(pos: Position, bid: int | None = None, rule: str = EXACT, *, bounds: bool = False,
               nodes: int = DEFAULT_NODES) -> BestCards:
    """Best card in ``pos``: each distinct legal card of the seat to move, labelled with
    the score it still guarantees given ``bid`` (default: the position's bid for the mover,
    if any), and with the mover's bounds after the card when ``bounds`` is true or there is
    no bid (:class:`BestCards`)."""
    p = as_position(pos)
    check_rule(rule)
    if p.is_over:
        raise MalformedError("best card: the round is over")
    mover = p.to_move
    if bid is None and p.bids is not None:
        bid = p.bids[mover]
    if bid is not None and (not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= MAX_BID):
        raise MalformedError(f"bid {bid!r}: bids are 0..{MAX_BID}")
    search = Paranoid(list(p.hands), mover, nodes)
    choices = []
    for g in equivalent_groups(p):
        f = Forcer(p.after(Card(g[0])), mover, search)
        b = f.bounds() if bounds or bid is None else None
        score = None if bid is None else f.bid_score(bid, rule, b)
        choices.append(CardChoice(tuple(Card(c) for c in g), score, b))
    return BestCards(mover, bid, rule, tuple(choices), search.nodes)
