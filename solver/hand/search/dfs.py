"""The search kernel: boolean paranoid searches and the cooperative dynamic programme.

Positions are four hand masks (``hands[seat]``, bit ``suit * 8 + rank``), the seat leading
the current trick, and the trick's cards so far. Everything here is plain ints and lists
of ints (mypyc-friendly: no closures in the hot paths, no dynamic attributes). This module
and :mod:`.tables` are the Hand kernel: compiled with mypyc by setup.py where it can be;
import them through :mod:`solver.hand.search.kernel`, never directly.

Paranoid: one seat ``s`` against the other three playing together. :meth:`Paranoid.force`
answers "can ``s`` force its tricks from here into ``[lo, hi]``?" by an AND-OR search
(``s`` chooses at its turns, the coalition at the others', each stopping at the first
move that settles the question) with a transposition table at trick boundaries. An
entry holds, for each ``lo``, bounds on ``h(lo)``: the least ``hi`` such that ``[lo, hi]``
can be forced (``h`` is non-decreasing; ``h(lo)`` infinite above the most tricks ``s``
can force). The key is the position's relative-rank canonical form with seats counted
from ``s``: per suit the owners of its cards still in play, highest first; the four suits
sorted (no trumps: suits are interchangeable).

Integers in the compiled kernel: a value below 2 ** 62 is a machine word, anything larger
a heap object built and freed at every operation. So interval sets take rows of 9 bits
and canonical keys pack 2 bits a card: both fit a word with up to 6 tricks left, where
nearly all the work is. Likewise nothing in the hot paths indexes or iterates a constant
tuple (the compiled code builds it anew each time): suit masks are computed, suits walked
with ``range(0, 32, 8)``.

Cooperative: the set of future trick vectors some legal play reaches, as a bit set: the
vector ``(t0, t1, t2, t3)`` summing to ``n`` (the tricks left) is bit ``t0 + 9 t1 + 81 t2``
(:func:`vector_bit`; ``t3`` is what ``n`` leaves), so adding a trick for seat ``w`` is a
shift by ``9 ** w`` (none for seat 3: the same bit, one trick more in all) and a union is
an or. Three digits, not four: the sets are 729-bit integers, not 5,832-bit ones, and the
shifts and masks of the search cost a fifth as much.
"""
from __future__ import annotations

from typing import Final

# (absolute: the compiled copy, solver/kernel/compiled/hand/search.py, raises the same class)
from solver.hand.search.budget import BudgetExhausted

from .tables import COUNT, DUCK, PEXT, REPS, TOPRUN

SUIT_MASK: Final[tuple[int, int, int, int]] = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
# (inside the kernel a suit's mask is computed, 255 << 8 * suit, and suits are walked with
# range(0, 32, 8): the compiled code builds a constant tuple anew each time it is indexed or
# iterated, boxing its items)
INF: Final = 99
VEC_WEIGHT: Final[bytes] = bytes([1, 9, 81, 0])  # bit offset of one trick for each seat


def _lengths() -> list[int]:
    """``LENGTHS[a * 729 + b * 81 + c * 9 + d]`` for suit lengths a <= b <= c <= d: a
    distinct index (1..495) for each such sorted 4-tuple."""
    out = [0] * 6561
    i = 0
    for a in range(9):
        for b in range(a, 9):
            for c in range(b, 9):
                for d in range(c, 9):
                    i += 1
                    out[a * 729 + b * 81 + c * 9 + d] = i
    return out


LENGTHS: Final[list[int]] = _lengths()


def canonical(h0: int, h1: int, h2: int, h3: int) -> int:
    """The canonical form of four hands (seats in this order kept, suits interchangeable,
    ranks relative among the cards in play): per suit a code (its length, then the high
    and the low bit of each of its cards' owners, in rank order), the four sorted, packed
    as the index of their sorted lengths followed by each suit's 2 bits a card."""
    lowm = h1 | h3
    highm = h2 | h3
    u = h0 | h1 | h2 | h3
    x = u & 255
    i = x << 8
    c0 = COUNT[x] << 16 | PEXT[i | (highm & 255)] << 8 | PEXT[i | (lowm & 255)]
    x = u >> 8 & 255
    i = x << 8
    c1 = COUNT[x] << 16 | PEXT[i | (highm >> 8 & 255)] << 8 | PEXT[i | (lowm >> 8 & 255)]
    x = u >> 16 & 255
    i = x << 8
    c2 = COUNT[x] << 16 | PEXT[i | (highm >> 16 & 255)] << 8 | PEXT[i | (lowm >> 16 & 255)]
    x = u >> 24
    i = x << 8
    c3 = COUNT[x] << 16 | PEXT[i | (highm >> 24)] << 8 | PEXT[i | (lowm >> 24)]
    # a sorting network for four values
    if c0 > c1:
        c0, c1 = c1, c0
    if c2 > c3:
        c2, c3 = c3, c2
    if c0 > c2:
        c0, c2 = c2, c0
    if c1 > c3:
        c1, c3 = c3, c1
    if c1 > c2:
        c1, c2 = c2, c1
    # packed: the sorted suit lengths as one small index, then each suit's owner bits,
    # 2 bits a card (with up to 6 tricks left at most 9 + 48 bits: a machine word)
    n0 = c0 >> 16
    n1 = c1 >> 16
    n2 = c2 >> 16
    n3 = c3 >> 16
    key = LENGTHS[n0 * 729 + n1 * 81 + n2 * 9 + n3]
    key = (key << n0 | c0 >> 8 & 255) << n0 | c0 & 255
    key = (key << n1 | c1 >> 8 & 255) << n1 | c1 & 255
    key = (key << n2 | c2 >> 8 & 255) << n2 | c2 & 255
    return (key << n3 | c3 >> 8 & 255) << n3 | c3 & 255


def cashable(mine: int, others: int, n: int) -> int:
    """Tricks a seat on lead holding ``mine`` takes for sure by cashing its top cards,
    suit after suit, against ``others`` (the other three hands together): per suit the
    run of the suit's highest cards it holds, or its whole length when that run is at
    least every other hand's length there (``others_len`` bounds each of them)."""
    total = 0
    u = mine | others
    for k in range(0, 32, 8):
        m = mine >> k & 255
        if m:
            t = TOPRUN[(u >> k & 255) << 8 | m]
            if t:
                o = COUNT[others >> k & 255]
                # the other hands hold o cards of the suit in all: after t rounds each of
                # them is void if t >= o (a safe over-estimate of every one's length)
                total += COUNT[m] if t >= o else t
    return total if total < n else n


def legal_reps(hand: int, i: int, led: int, allc: int) -> int:
    """The legal cards of ``hand`` for the ``i``-th card of a trick led in suit ``led``
    (any card leading; the led suit when it holds one, else any card), one per run of
    cards adjacent in rank among ``allc`` (every card still in play, the trick's
    included): cards of a run are equivalent, one move stands for them all."""
    if i == 0:
        legal = hand
    else:
        legal = hand & (255 << (led << 3))
        if not legal:
            legal = hand
    reps = 0
    for k in range(0, 32, 8):
        lb = legal >> k & 255
        if lb:
            reps |= REPS[(allc >> k & 255) << 8 | lb] << k
    return reps


def _interval_masks() -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Interval sets: ``[lo, hi]`` (future tricks, 0 <= lo <= hi <= n) is bit
    ``lo * 9 + hi`` (a row of 9 bits for each ``lo``). ``IVALID[n]``: every interval for
    ``n`` tricks left; ``ICOL[n]``: those with ``hi == n``; ``ICONTAINS[n * 9 + f]``: those
    containing ``f``. The closures' masks, so that no shift leaves its row or the valid
    intervals: ``IRAISE[n * 9 + k]``, the intervals whose ``hi`` can be raised by ``k``
    within ``n``; ``ISPAN[k]``, those with ``hi - lo >= k`` (``hi`` can be lowered, or
    ``lo`` raised, by ``k``)."""
    valid = [0] * 9
    col = [0] * 9
    contains = [0] * 81
    raise_ = [0] * 81
    span = [0] * 9
    for n in range(9):
        for lo in range(n + 1):
            col[n] |= 1 << (lo * 9 + n)
            for hi in range(lo, n + 1):
                bit = 1 << (lo * 9 + hi)
                valid[n] |= bit
                for f in range(lo, hi + 1):
                    contains[n * 9 + f] |= bit
                for k in range(n - hi + 1):
                    raise_[n * 9 + k] |= bit
                if n == 8:
                    for k in range(hi - lo + 1):
                        span[k] |= bit
    return valid, col, contains, raise_, span


_IM = _interval_masks()
IVALID: Final[list[int]] = _IM[0]
ICOL: Final[list[int]] = _IM[1]
ICONTAINS: Final[list[int]] = _IM[2]
IRAISE: Final[list[int]] = _IM[3]
ISPAN: Final[list[int]] = _IM[4]
IROW0: Final = 0x1FF  # the intervals [0, hi]


def interval_bit(lo: int, hi: int) -> int:
    return 1 << (lo * 9 + hi)


def up_closure(f: int, n: int) -> int:
    """Every interval containing one of ``f``'s (what can be forced, with those): ``hi``
    raised by 0..n (shifts of 1, 2, 4, 1, each applied only to the intervals it keeps in
    their row and within ``n``), then ``lo`` lowered (rows of 9 bits down)."""
    f &= IVALID[n]
    b = n * 9
    f |= (f & IRAISE[b + 1]) << 1
    f |= (f & IRAISE[b + 2]) << 2
    f |= (f & IRAISE[b + 4]) << 4
    f |= (f & IRAISE[b + 1]) << 1
    f |= f >> 9
    f |= f >> 18
    f |= f >> 36
    f |= f >> 72
    return f


def down_closure(f: int, n: int) -> int:
    """Every interval inside one of ``f``'s (what cannot be forced, with those): ``hi``
    lowered, then ``lo`` raised, each shift applied only to the intervals it leaves valid."""
    f &= IVALID[n]
    f |= (f & ISPAN[1]) >> 1
    f |= (f & ISPAN[2]) >> 2
    f |= (f & ISPAN[4]) >> 4
    f |= (f & ISPAN[1]) >> 1
    f |= (f & ISPAN[1]) << 9
    f |= (f & ISPAN[2]) << 18
    f |= (f & ISPAN[4]) << 36
    f |= (f & ISPAN[8]) << 72
    return f


def ducks(m: int, o: int) -> bool:
    """Can a seat holding ``m``, not on lead, play under every card led by the holders of
    ``o`` (the other cards in play), in every suit? Then it takes no trick more."""
    return bool(DUCK[(m & 255) << 8 | (o & 255)] and DUCK[(m >> 8 & 255) << 8 | (o >> 8 & 255)]
                and DUCK[(m >> 16 & 255) << 8 | (o >> 16 & 255)] and DUCK[(m >> 24) << 8 | (o >> 24)])


def can_lose_out_leading(h: list[int], s: int) -> bool:
    """Seat ``s``, on lead, can lose every remaining trick: it holds a card that some other
    seat must overtake (that seat's cards of the suit are all higher), and without that
    card it ducks (:func:`ducks`); the cards the others play meanwhile only make ducking
    easier (a shorter list to play under, its i-th lowest card no lower)."""
    m = h[s]
    o = (h[0] | h[1] | h[2] | h[3]) ^ m
    for k in range(0, 32, 8):
        mb = m >> k & 255
        if not mb:
            continue
        low = mb & -mb  # the seat's lowest card of the suit: the easiest to overtake
        for p in range(4):
            if p != s:
                pb = h[p] >> k & 255
                if pb and pb & (low - 1) == 0:  # p holds the suit, all above that card
                    if ducks(m ^ (low << k), o):
                        return True
                    break
    return False


def lose_one(h: list[int], s: int, leader: int) -> int:
    """At a trick boundary, ``leader`` to lead, seat ``s`` holding a card: 1 if ``s`` can
    lose the trick about to be played whatever the others do; otherwise 2 if it wins
    every trick left whatever anyone plays (itself included), else 0 (the others can make
    it win this one).

    Call a suit X *beaten* if ``s`` holds X cards and some other seat q holds X cards, all
    above ``low``, the lowest X card of ``s``: every X trick then holds a card above
    ``low`` (q's, led or following suit), so ``s`` playing ``low`` there loses it.

    - ``s`` leading: if some suit is beaten, ``s`` leads its ``low`` there and loses.
      Otherwise, whatever X card ``c`` it leads, every other seat holding X has a card
      below ``low <= c`` and plays it (the others void discard): ``s`` wins.
    - ``s`` not leading: if every suit the leader holds is beaten or one ``s`` is void in
      (a discard never wins), ``s`` loses the trick (``low``, or a discard). Otherwise the
      leader leads a card below ``low`` in a suit X it holds, not beaten, that ``s`` holds;
      every other seat with X cards plays one below ``low``: ``s``, following suit, wins.
    - every trick: if every card of ``s`` is above every other card of its suit in play,
      ``s`` leading wins the trick (nobody beats its card) and keeps that property (the
      others' cards only go), so it wins every trick left; not leading, the same once it
      has won the lead, which it does at once when the leader holds only suits ``s`` holds
      (it leads one, ``s`` follows with a card nobody beats)."""
    m = h[s]
    o = (h[0] | h[1] | h[2] | h[3]) ^ m
    lead_hand = h[leader]
    on_lead = leader == s
    can_lose = True  # not leading: every suit the leader may lead lets s lose
    lose_lead = False  # leading: some suit lets s lose
    all_top = True  # every card of s above every other card of its suit
    leader_in_mine = True  # the leader holds only suits s holds
    for k in range(0, 32, 8):
        sb = m >> k & 255
        lb = lead_hand >> k & 255
        if not sb:
            if lb:
                leader_in_mine = False
            continue
        low = sb & -sb
        ob = o >> k & 255
        if ob >= low:
            all_top = False
        # some other seat holding the suit only above low
        beaten = False
        for q in range(4):
            if q != s:
                qb = h[q] >> k & 255
                if qb and qb & (low - 1) == 0:
                    beaten = True
                    break
        if beaten:
            lose_lead = True
        elif lb:
            can_lose = False
    if on_lead:
        if lose_lead:
            return 1
        return 2 if all_top else 0
    if can_lose:
        return 1
    return 2 if all_top and leader_in_mine else 0


def sweeper(h: list[int], leader: int) -> int:
    """The seat that takes every trick left whatever anyone plays, or -1: the case 2 of
    :func:`lose_one` (every card of the seat above every other card of its suit, and it
    leads, or the leader holds only suits the seat holds). At most one seat: two such
    seats hold no suit in common, so the second holds none of the leader's."""
    allc = h[0] | h[1] | h[2] | h[3]
    lh = h[leader]
    for w in range(4):
        m = h[w]
        o = allc ^ m
        ok = m != 0
        for k in range(0, 32, 8):
            sb = m >> k & 255
            if sb:
                if sb & -sb < o >> k & 255:  # (a byte below its lowest bit: every card lower)
                    ok = False
                    break
            elif w != leader and lh >> k & 255:
                ok = False
                break
        if ok:
            return w
    return -1


def last_trick(h0: int, h1: int, h2: int, h3: int, leader: int) -> int:
    """The winner of the last trick (one card each, ``leader`` leads)."""
    c = h0 if leader == 0 else h1 if leader == 1 else h2 if leader == 2 else h3
    led = 255 << ((c.bit_length() - 1) & 24)
    best = h0 & led
    win = 0
    if h1 & led > best:
        best = h1 & led
        win = 1
    if h2 & led > best:
        best = h2 & led
        win = 2
    if h3 & led > best:
        win = 3
    return win


class StartHands:
    """The four hands a search starts from, as four machine-integer attributes (not a
    list: reading a list item unboxes an object). The searches never write them: they
    carry ``gone``, the cards of the tricks completed since the search began."""

    def __init__(self, hands: list[int]) -> None:
        self.h0: int = hands[0]
        self.h1: int = hands[1]
        self.h2: int = hands[2]
        self.h3: int = hands[3]

    @property
    def hands(self) -> list[int]:
        """The four hands the searches start from (set with :meth:`set_hands`)."""
        return [self.h0, self.h1, self.h2, self.h3]

    def set_hands(self, hands: list[int]) -> None:
        """Search from these four hands (the table's memory is kept: it is keyed on
        positions, not on where a search starts)."""
        self.h0 = hands[0]
        self.h1 = hands[1]
        self.h2 = hands[2]
        self.h3 = hands[3]

    def hand(self, seat: int) -> int:
        """The hand ``seat`` started the search with (kept as four machine-integer
        attributes, not a list: reading a list item unboxes an object)."""
        if seat == 0:
            return self.h0
        if seat == 1:
            return self.h1
        if seat == 2:
            return self.h2
        return self.h3


class Paranoid(StartHands):
    """Paranoid searches for seat ``seat``: which of a set of intervals of its future
    tricks it can force against the other three playing together.

    A question is a bit set of intervals (see :func:`interval_bit`); the answer is the
    subset that can be forced. At the seat's turns a card proving some of them settles
    those, and the search stops once all are proven; at the others' turns an interval
    stays only while every card tried so far leaves it forcible, and the search stops
    once none is left. One interval asked is the plain boolean "can it force its tricks
    into [lo, hi]?" search. The transposition table keeps, per canonical trick-boundary
    position, the intervals known forcible (closed upwards) and known not (closed
    downwards). The hands are never written during a search: it carries ``gone``, the
    cards of the tricks completed since it began, and reads a hand as ``hand & ~gone``
    (writing a list item would box the integer in the compiled code)."""

    def __init__(self, hands: list[int], seat: int, budget: int) -> None:
        super().__init__(hands)
        self.seat: int = seat
        self.tt: dict[int, list[int]] = {}
        self.nodes: int = 0
        self.budget: int = budget

    def ask(self, leader: int, table: list[int], q: int) -> int:
        """The intervals of ``q`` (future tricks from now, the current trick included)
        the seat can force; ``table``: the current trick's cards so far, from ``leader``."""
        n = self.hand((leader + len(table)) & 3).bit_count()
        q &= IVALID[n]
        if not table:
            return self.boundary(leader, n, q, 0)
        led = table[0] >> 3
        best = table[0]
        win = leader
        tmask = 1 << table[0]
        for i in range(1, len(table)):
            c = table[i]
            tmask |= 1 << c
            if c >> 3 == led and c > best:
                best = c
                win = (leader + i) & 3
        return self.step(len(table), leader, n, q, led, best, win, tmask, 0)

    def boundary(self, leader: int, n: int, q: int, gone: int) -> int:
        """At a trick boundary, ``n`` tricks left (``gone``: the cards played since the
        search began): which intervals of ``q`` can be forced."""
        s = self.seat
        keep = ~gone
        h0 = self.h0 & keep
        h1 = self.h1 & keep
        h2 = self.h2 & keep
        h3 = self.h3 & keep
        if n <= 1:
            if n == 0:
                return q & 1
            # one card each: the trick is played out
            return q & ICONTAINS[9 + (1 if last_trick(h0, h1, h2, h3, leader) == s else 0)]
        if s == 0:
            key = canonical(h0, h1, h2, h3)
        elif s == 1:
            key = canonical(h1, h2, h3, h0)
        elif s == 2:
            key = canonical(h2, h3, h0, h1)
        else:
            key = canonical(h3, h0, h1, h2)
        key = key << 2 | ((leader - s) & 3)
        tt = self.tt
        e = tt.get(key)
        if e is None:
            h = [h0, h1, h2, h3]
            yes = interval_bit(0, n)
            no = 0
            # sure tricks: the leader cashes its top cards
            mine = h[leader]
            others = (h[0] | h[1] | h[2] | h[3]) ^ mine
            a = cashable(mine, others, n)
            if leader == s:
                if a:
                    yes = up_closure(interval_bit(a, n), n)  # [a, n] forcible
                if can_lose_out_leading(h, s):
                    yes |= up_closure(1, n)  # [0, 0] forcible
            else:
                if a:
                    no = down_closure(interval_bit(n - a + 1, n), n)  # more than n - a: never
                # s, not on lead, can play under every card led in every suit: it takes no
                # more tricks (and so never leads)
                m = h[s]
                if ducks(m, (others | mine) ^ m):
                    yes = up_closure(1, n)  # [0, 0] forcible
            lo1 = lose_one(h, s, leader)
            if lo1 == 1:
                yes |= up_closure(interval_bit(0, n - 1), n)  # [0, n - 1] forcible
            elif lo1 == 2:
                yes |= up_closure(interval_bit(n, n), n)  # exactly n: [n, n] forcible ...
                no |= down_closure(interval_bit(0, n - 1), n)  # ... and nothing without n
            else:
                no |= 1  # it takes this trick: [0, 0] is not forcible
            e = [yes, no]
            tt[key] = e
        yes = e[0]
        ask = q & ~(yes | e[1])
        if not ask:
            return q & yes
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExhausted()
        got = self.step(0, leader, n, ask, -1, -1, -1, 0, gone)
        yes |= up_closure(got, n)
        e[0] = yes
        e[1] |= down_closure(ask & ~got, n)
        return q & yes

    def step(self, i: int, leader: int, n: int, q: int, led: int, best: int, win: int, tmask: int,
             gone: int) -> int:
        """The ``i``-th card of the current trick (``led``, ``best``, ``win``: its suit, its
        highest card of that suit so far and that card's seat; ``tmask`` its cards;
        ``gone`` the cards of the tricks completed since the search began): the intervals
        of ``q`` the seat can force from here. The trick's cards are still in their hands
        (``tmask`` tells them), but nobody who holds one plays again in this trick."""
        s = self.seat
        p = (leader + i) & 3
        keep = ~gone
        hand = self.hand(p) & keep
        allc = ((self.h0 | self.h1 | self.h2 | self.h3) & keep) | tmask
        reps = legal_reps(hand, i, led, allc)
        # the seat wants tricks unless every interval asked starts at 0 (then it wants to
        # lose them)
        win_mode = (q & ~IROW0) != 0
        # order the moves: each move's key (a priority in the high bits, the card in the
        # low 5; at most 2303) in a 12-bit field of ``keys``, the lowest key tried first,
        # picked when needed (often the first move settles the question), no list sorted
        keys = 0
        m = 0
        sp = (s - leader) & 3  # the seat's place in this trick
        others = allc ^ hand
        hand_s = self.hand(s) & keep & ~tmask
        while reps:
            low = reps & -reps
            reps ^= low
            c = low.bit_length() - 1
            r = c & 7
            if p == s:
                if i == 0:
                    if win_mode:  # lead the cards with the fewest higher ones out: winners first
                        pr = COUNT[(others >> (c & 24) & 255) >> r] * 8 + 7 - r
                    else:
                        pr = 7 - r
                elif c >> 3 == led and c > best:
                    if win_mode:
                        pr = r if i == 3 else 7 - r
                    else:
                        pr = 16 + 7 - r
                else:
                    pr = 16 + r if win_mode else 7 - r
            elif win_mode:  # the coalition keeps the seat from winning
                if i == 0:
                    pr = 7 - r
                elif sp < i:
                    if win == s:
                        pr = r if c >> 3 == led and c > best else 16 + r
                    else:
                        pr = r
                else:
                    pr = 7 - r
            else:  # the coalition makes the seat win
                if i == 0:
                    # leads in a suit the seat is void in last: it discards, wins nothing
                    pr = r if hand_s & (255 << (c & 24)) else 16 + r
                elif sp < i:
                    if win == s:
                        pr = 16 + r if c >> 3 == led and c > best else 7 - r
                    else:  # the seat has lost this trick: keep the low cards, to play under it later
                        pr = 7 - r
                elif hand_s & (255 << (led << 3)):
                    pr = r
                else:  # the seat is void: it cannot win this trick
                    pr = 7 - r
            keys |= (pr << 5 | c) << (12 * m)
            m += 1
        is_s = p == s
        last = i == 3
        if last:
            n1 = n - 1
            valid1 = IVALID[n1]
            # the question for the next trick, if the seat wins this one / if it does not
            q_won = ((q >> 10) | ((q & IROW0) >> 1)) & valid1
            q_lost = (q | ((q & ICOL[n]) >> 1)) & valid1
        else:
            n1 = 0
            valid1 = 0
            q_won = 0
            q_lost = 0
        res = 0 if is_s else q  # the seat: proven so far; the coalition: still forcible
        rest = q
        after = gone | tmask  # the cards gone once this trick is complete (with the last card)
        for _ in range(m):
            v = 4095
            at = 0
            for j in range(0, 12 * m, 12):
                x = keys >> j & 4095
                if x < v:
                    v = x
                    at = j
            keys |= 4095 << at  # tried
            c = v & 31
            if i == 0:
                nled = c >> 3
                nbest = c
                nwin = p
            elif c >> 3 == led and c > best:
                nled = led
                nbest = c
                nwin = p
            else:
                nled = led
                nbest = best
                nwin = win
            if last:
                if is_s:
                    sub = rest
                else:
                    sub = res
                if nwin == s:
                    cq = ((sub >> 10) | ((sub & IROW0) >> 1)) & valid1 if sub != q else q_won
                    r1 = self.boundary(nwin, n1, cq, after | (1 << c)) if cq else 0
                    got = ((r1 << 10) | ((r1 & IROW0) << 1)) & sub
                else:
                    cq = (sub | ((sub & ICOL[n]) >> 1)) & valid1 if sub != q else q_lost
                    r1 = self.boundary(nwin, n1, cq, after | (1 << c)) if cq else 0
                    got = (r1 | ((r1 & ICOL[n1]) << 1)) & sub
            else:
                got = self.step(i + 1, leader, n, rest if is_s else res, nled, nbest, nwin, tmask | (1 << c), gone)
            if is_s:
                res |= got
                rest &= ~got
                if not rest:
                    break
            else:
                res = got
                if not res:
                    break
        return res


def vector_bit(t0: int, t1: int, t2: int) -> int:
    """The bit of the trick vector ``(t0, t1, t2, n - t0 - t1 - t2)`` in a set of vectors
    summing to ``n``."""
    return 1 << (t0 + 9 * t1 + 81 * t2)


def vector_of(i: int, n: int) -> tuple[int, int, int, int]:
    """The vector summing to ``n`` whose bit is ``1 << i`` (:func:`vector_bit`)."""
    a = i % 9
    b = i // 9 % 9
    c = i // 81
    return (a, b, c, n - a - b - c)


def _valid_vectors() -> list[int]:
    """``VALID[n]``: the bit set of every trick vector summing to ``n`` (0..8)."""
    out = [0] * 9
    for n in range(9):
        for a in range(n + 1):
            for b in range(n + 1 - a):
                for c in range(n + 1 - a - b):
                    out[n] |= vector_bit(a, b, c)
    return out


VALID: Final[list[int]] = _valid_vectors()


class Cooperative(StartHands):
    """Cooperative reachability from one position: which future trick vectors some legal
    play reaches (all four seats choosing together).

    Demand-driven: a node is asked for a set of vectors and answers which of them it
    reaches, exploring its tricks only until every one asked for is found; per canonical
    node the vectors known reached and known not reached are kept (two bit sets), so a
    node is never asked twice about one vector. A vector needing a trick for a seat that
    did not win this one is not in the child's question (its shifted bit has the wrong
    digit sum), so the search for extreme vectors follows only the lines they allow. The
    hands are never written during a search (``gone``: the cards of the tricks completed
    since it began, as in :class:`Paranoid`)."""

    def __init__(self, hands: list[int], budget: int) -> None:
        super().__init__(hands)
        self.memo: dict[int, list[int]] = {}
        self.nodes: int = 0
        self.budget: int = budget

    def reach(self, leader: int, table: list[int], want: int = -1) -> int:
        """The bit set of future trick vectors (the current trick included) some play
        reaches from the position (``table``: the current trick's cards, from ``leader``):
        all of them, or only those of ``want`` (a set of vectors summing to the tricks
        left; -1: every one)."""
        n = self.hand((leader + len(table)) & 3).bit_count()
        ask = VALID[n] if want < 0 else want & VALID[n]
        if not table:
            return self.boundary(leader, ask, 0)
        led = table[0] >> 3
        best = table[0]
        win = leader
        tmask = 1 << table[0]
        for i in range(1, len(table)):
            c = table[i]
            tmask |= 1 << c
            if c >> 3 == led and c > best:
                best = c
                win = (leader + i) & 3
        return self.expand(len(table), leader, led, best, win, tmask, ask, n, 0)

    def boundary(self, leader: int, want: int, gone: int) -> int:
        """Which of the vectors ``want`` (future, summing to the tricks left) some play
        reaches from this trick boundary (``gone``: the cards played since the search
        began)."""
        keep = ~gone
        h0 = self.h0 & keep
        h1 = self.h1 & keep
        h2 = self.h2 & keep
        h3 = self.h3 & keep
        n = (h0 if leader == 0 else h1 if leader == 1 else h2 if leader == 2 else h3).bit_count()
        if n <= 1:
            if n == 0:
                return want & 1
            return want & (1 << VEC_WEIGHT[last_trick(h0, h1, h2, h3, leader)])
        key = canonical(h0, h1, h2, h3) << 2 | leader
        memo = self.memo
        e = memo.get(key)
        if e is None:
            e = [0, 0]
            memo[key] = e
        known = e[0]
        ask = want & ~(known | e[1])
        if not ask:
            return want & known
        w = sweeper([h0, h1, h2, h3], leader)
        if w >= 0:  # w takes every trick left, whatever is played: one vector
            only = 1 << n * VEC_WEIGHT[w]
            e[0] = only
            e[1] = VALID[n] & ~only
            return want & only
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExhausted()
        got = self.expand(0, leader, -1, -1, -1, 0, ask, n, gone)
        e[0] = known | got
        e[1] |= ask & ~got
        return want & (known | got)

    def expand(self, i: int, leader: int, led: int, best: int, win: int, tmask: int, ask: int, n: int,
               gone: int) -> int:
        """Which of the vectors ``ask`` (future, the current trick included; ``n`` tricks
        left) some completion of the current trick from its ``i``-th card reaches: its
        distinct completions (equivalent cards merged) tried depth first, each finished
        trick's position asked for the vectors still missing that give the trick to its
        winner, until none is missing (the completions not needed are never made)."""
        p = (leader + i) & 3
        keep = ~gone
        hand = self.hand(p) & keep
        allc = ((self.h0 | self.h1 | self.h2 | self.h3) & keep) | tmask
        reps = legal_reps(hand, i, led, allc)
        found = 0
        valid = VALID[n - 1]
        while reps:
            low = reps & -reps
            reps ^= low
            c = low.bit_length() - 1
            if i == 0:
                nled = c >> 3
                nbest = c
                nwin = p
            elif c >> 3 == led and c > best:
                nled = led
                nbest = c
                nwin = p
            else:
                nled = led
                nbest = best
                nwin = win
            if i == 3:
                wt = VEC_WEIGHT[nwin]
                sub = (ask >> wt) & valid
                got = self.boundary(nwin, sub, gone | tmask | low) << wt if sub else 0
            else:
                got = self.expand(i + 1, leader, nled, nbest, nwin, tmask | low, ask, n, gone)
            if got:
                found |= got
                ask &= ~got
                if not ask:
                    break
        return found
