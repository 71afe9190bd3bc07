# The Hand oracle: written independently from the rules (issue 15) by another engineer, without seeing
# the engine; copied unchanged from /work/hand-oracle/hand_oracle.py below these lines.
"""Brute-force reference oracle for the card game Hand (Hareega), Kuwaiti rules.

Written only from the printed rule sheet.  Simplicity and obvious correctness
come before speed: every analysis function walks the whole game tree by the
definitions (every legal card at every turn).  The only memoisation is a
plain ``functools.lru_cache`` keyed on the exact full state, created afresh
for each call.  No transposition of equivalent cards, no pruning.
Pure Python 3.11 standard library.

Rules as implemented
--------------------
* 4 players, each for themselves.  32-card deck: ranks A K Q J T 9 8 7
  (high to low, T = ten) in the suits S H D C.  No trumps, ever.
* Cards are strings rank+suit, e.g. "AS", "TH", "7C".
* Seats are 0..3 in playing order: after seat s plays, seat (s+1) % 4 plays
  (this is counter-clockwise).  The player after dealer d is (d+1) % 4.
* Deal: the whole deck, one card at a time, starting with the player after
  the dealer: card i of the shuffled order goes to seat (dealer+1+i) % 4.
  Each hand keeps its cards in the order they were dealt.
* Bidding: every player bids 0..8 tricks; bids are final; the total is free.
  Timeout: a player who runs out of time and has not bid bids 0
  (``TIMEOUT_BID`` / ``timeout_bid()``).
* Play: the player after the dealer leads the first trick.  Each player in
  turn plays one card and must follow the led suit if able, otherwise may play
  any card.  The highest card of the led suit wins; off-suit cards never win
  (no trumps).  The winner leads the next trick.  All tricks are played.
* Timeout card: the lowest-ranked legal card; among legal cards of that
  lowest rank, the first suit of ``suit_order`` (default "CDHS", i.e. clubs
  lowest: C < D < H < S).  So the tie-break is "lowest rank first, then the
  earliest suit in the order".
* Scoring, each player alone, ``rule="exact"`` (default):
    - tricks == bid >= 1:  +10 * bid
    - bid 0, 0 tricks:     +25
    - tricks != bid:       -10 * |tricks - bid|   (bid 0, 8 tricks: -80)
  ``rule="atleast"``:
    - tricks >= bid:       +10 * tricks  (bid 0 is always made and scores
                                          10 * tricks; there is NO 25 bonus)
    - tricks <  bid:       -10 * (bid - tricks)
  Bids and tricks must be ints in 0..8, otherwise ValueError.
* Match: 5 rounds, highest total wins; see ``match_result`` for the exact
  sudden-death reading.

Positions
---------
A position is a dict {"hands": [4 lists of cards], "leader": seat that led
(or will lead) the current trick, "table": cards already played to the current
trick in order from the leader (0..3 cards), "taken": [4 ints]}.  The mover is
(leader + len(table)) % 4.  Validation: all cards valid and pairwise distinct
(hands and table together); seats that already played to the current trick
hold exactly one card fewer than the seats still to play; a table card off
the led suit is a revoke (ValueError) if that seat still holds a card of the
led suit; taken are non-negative ints and sum(taken) + tricks still to be
finished (including the current one) <= 8.  The sum need not be exactly 8:
small test positions (e.g. 2 cards each, taken all 0) are allowed.

Analysis functions (all cards visible; "total tricks" = taken + future):
  paranoid_max, paranoid_min, exact_guarantees, guaranteed_score, bid_table,
  best_bid, reachable_vectors, best_cards.  In all of them the "strategy" of a
  seat is a full (perfect-information) contingent strategy, so the values are
  the plain max/min game-tree values.  ``best_cards`` on a finished round
  (no cards left) returns {}.
"""

from __future__ import annotations

import random
from functools import lru_cache

RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7"]  # high to low
SUITS = ["S", "H", "D", "C"]
DECK = [r + s for s in SUITS for r in RANKS]  # 32 cards
_DECK_SET = frozenset(DECK)
_STRENGTH = {r: len(RANKS) - 1 - i for i, r in enumerate(RANKS)}  # A=7 .. 7=0
RULES = ("exact", "atleast")
TIMEOUT_BID = 0
MATCH_ROUNDS = 5
MAX_SUDDEN_DEATH = 3

__all__ = [
    "RANKS", "SUITS", "DECK", "RULES", "TIMEOUT_BID",
    "deal_from_order", "legal_cards", "trick_winner", "play_round",
    "round_score", "timeout_card", "timeout_bid", "match_result",
    "paranoid_max", "paranoid_min", "exact_guarantees", "guaranteed_score",
    "bid_table", "best_bid", "reachable_vectors", "best_cards",
    "random_position", "random_midtrick",
]


# ----------------------------------------------------------------------------
# validation helpers
# ----------------------------------------------------------------------------

def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_card(c) -> str:
    if not isinstance(c, str) or c not in _DECK_SET:
        raise ValueError(f"not a card of the 32-card deck: {c!r}")
    return c


def _check_cards(cards, what: str) -> list[str]:
    if not isinstance(cards, (list, tuple)):
        raise ValueError(f"{what} must be a list of cards, got {cards!r}")
    out = [_check_card(c) for c in cards]
    seen = set()
    for c in out:
        if c in seen:
            raise ValueError(f"card {c} appears twice in {what}")
        seen.add(c)
    return out


def _check_seat(s, what: str = "seat") -> int:
    if not _is_int(s) or not 0 <= s <= 3:
        raise ValueError(f"{what} must be an int 0..3, got {s!r}")
    return s


def _check_suit(s) -> str:
    if s not in SUITS:
        raise ValueError(f"not a suit: {s!r} (suits are S H D C)")
    return s


def _check_rule(rule) -> str:
    if rule not in RULES:
        raise ValueError(f"unknown scoring rule {rule!r}; use 'exact' or 'atleast'")
    return rule


def _check_bid(bid) -> int:
    if not _is_int(bid) or not 0 <= bid <= 8:
        raise ValueError(f"bid must be an int 0..8, got {bid!r}")
    return bid


def _check_four_hands(hands) -> list[list[str]]:
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise ValueError(f"hands must be a list of 4 hands, got {hands!r}")
    hs = [_check_cards(h, f"hand of seat {i}") for i, h in enumerate(hands)]
    seen: dict[str, int] = {}
    for i, h in enumerate(hs):
        for c in h:
            if c in seen:
                raise ValueError(f"card {c} appears twice (seats {seen[c]} and {i})")
            seen[c] = i
    return hs


def _rank_value(card: str) -> int:
    return _STRENGTH[card[0]]


# ----------------------------------------------------------------------------
# basic rules
# ----------------------------------------------------------------------------

def deal_from_order(order: list[str], dealer: int) -> list[list[str]]:
    """Deal a full shuffled 32-card order: card i goes to seat (dealer+1+i) % 4.

    Returns the 4 hands indexed by seat, each in the order its cards were dealt.
    """
    _check_seat(dealer, "dealer")
    cards = _check_cards(order, "deal order")
    if len(cards) != 32:
        raise ValueError(f"deal order must hold all 32 cards, got {len(cards)}")
    hands: list[list[str]] = [[], [], [], []]
    for i, c in enumerate(cards):
        hands[(dealer + 1 + i) % 4].append(c)
    return hands


def legal_cards(hand: list[str], led_suit: str | None) -> list[str]:
    """Cards the holder may play (hand order kept).  led_suit None = leading."""
    h = _check_cards(hand, "hand")
    if led_suit is None:
        return list(h)
    _check_suit(led_suit)
    follow = [c for c in h if c[1] == led_suit]
    return follow if follow else list(h)


def trick_winner(cards: list[str], leader: int) -> int:
    """Seat winning a complete 4-card trick listed in play order from leader."""
    _check_seat(leader, "leader")
    t = _check_cards(cards, "trick")
    if len(t) != 4:
        raise ValueError(f"a trick has exactly 4 cards, got {len(t)}")
    led = t[0][1]
    best = 0
    for i in range(1, 4):
        if t[i][1] == led and _rank_value(t[i]) > _rank_value(t[best]):
            best = i
    return (leader + best) % 4


def play_round(hands, leader, cards: list[str]) -> list[int]:
    """Play a whole card sequence from a fresh deal; return tricks per seat.

    Hands must have equal sizes n; exactly 4*n cards must be given (all
    tricks completed).  Each card must be in the mover's hand and legal;
    otherwise ValueError naming the card, the seat and the trick (1-based).
    """
    hs = _check_four_hands(hands)
    _check_seat(leader, "leader")
    n = len(hs[0])
    if any(len(h) != n for h in hs):
        raise ValueError(f"hands of a fresh deal must have equal sizes, got {[len(h) for h in hs]}")
    if not isinstance(cards, (list, tuple)):
        raise ValueError("cards must be a list")
    taken = [0, 0, 0, 0]
    cur = leader
    trick: list[str] = []
    for idx, card in enumerate(cards):
        t_no = idx // 4 + 1
        if idx >= 4 * n:
            raise ValueError(f"card {card!r} played after the round is over (only {n} tricks)")
        _check_card(card)
        seat = (cur + len(trick)) % 4
        if card not in hs[seat]:
            raise ValueError(f"trick {t_no}: seat {seat} does not hold {card}")
        led = trick[0][1] if trick else None
        if card not in legal_cards(hs[seat], led):
            raise ValueError(
                f"revoke in trick {t_no}: seat {seat} played {card} but holds a card of the led suit {led}")
        hs[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            w = trick_winner(trick, cur)
            taken[w] += 1
            cur = w
            trick = []
    if len(cards) != 4 * n:
        raise ValueError(f"incomplete round: {len(cards)} cards played, {4 * n} needed")
    return taken


def round_score(bid: int, tricks: int, rule: str = "exact") -> int:
    """Score of one player for one round (see module docstring)."""
    _check_bid(bid)
    _check_rule(rule)
    if not _is_int(tricks) or not 0 <= tricks <= 8:
        raise ValueError(f"tricks must be an int 0..8, got {tricks!r}")
    if rule == "exact":
        if tricks == bid:
            return 25 if bid == 0 else 10 * bid
        return -10 * abs(tricks - bid)
    # atleast
    if tricks >= bid:
        return 10 * tricks
    return -10 * (bid - tricks)


def timeout_bid() -> int:
    """A player who runs out of time before bidding bids 0."""
    return TIMEOUT_BID


def timeout_card(hand, led_suit, suit_order: str = "CDHS") -> str:
    """Lowest-ranked legal card; equal ranks broken by the first suit of suit_order."""
    if not isinstance(suit_order, str) or sorted(suit_order) != sorted(SUITS):
        raise ValueError(f"suit_order must be a permutation of SHDC, got {suit_order!r}")
    legal = legal_cards(hand, led_suit)
    if not legal:
        raise ValueError("empty hand: no card to play")
    return min(legal, key=lambda c: (_rank_value(c), suit_order.index(c[1])))


def match_result(round_scores: list[list[int]]) -> dict:
    """Result of a match.

    Reading chosen:
      * round_scores[0:5] are the 5 match rounds (fewer than 5 -> ValueError);
        each round is a list of 4 ints.  Totals add every round used, for all
        4 players (sudden-death scores of non-contenders count toward their
        totals too).
      * After round 5, the contenders are the seats with the highest total.
        If there is one, it wins and no further round may be given.
      * Otherwise sudden-death round j (j = 1..3, i.e. round_scores[4+j]) is
        added to everyone's totals; the new contenders are those of the
        previous contenders whose total is highest AMONG THE PREVIOUS
        CONTENDERS (a non-contender can never win, even if its total now
        exceeds theirs; among tied contenders this is the same as comparing
        their sudden-death round scores).  One contender left -> winner.
      * Still several contenders after 3 sudden-death rounds -> they share
        first place.  Lower places are never broken.
      * needs_more is True when several contenders remain and fewer than 3
        sudden-death rounds were given; winners is then the current tied set.
      * Any round after the match is decided (or a 9th round) -> ValueError.
    Returns {"totals", "winners" (sorted), "rounds_used", "needs_more"}.
    """
    if not isinstance(round_scores, (list, tuple)):
        raise ValueError("round_scores must be a list of rounds")
    rounds = []
    for i, r in enumerate(round_scores):
        if not isinstance(r, (list, tuple)) or len(r) != 4 or not all(_is_int(x) for x in r):
            raise ValueError(f"round {i + 1} must be a list of 4 int scores, got {r!r}")
        rounds.append(list(r))
    if len(rounds) < MATCH_ROUNDS:
        raise ValueError(f"a match needs {MATCH_ROUNDS} rounds, got {len(rounds)}")
    totals = [0, 0, 0, 0]
    for r in rounds[:MATCH_ROUNDS]:
        for s in range(4):
            totals[s] += r[s]
    top = max(totals)
    contenders = [s for s in range(4) if totals[s] == top]
    used = MATCH_ROUNDS
    sd = 0
    while len(contenders) > 1 and sd < MAX_SUDDEN_DEATH and used < len(rounds):
        r = rounds[used]
        for s in range(4):
            totals[s] += r[s]
        used += 1
        sd += 1
        top = max(totals[s] for s in contenders)
        contenders = [s for s in contenders if totals[s] == top]
    if used < len(rounds):
        raise ValueError(
            f"{len(rounds)} rounds given but the match was decided after {used}")
    needs_more = len(contenders) > 1 and sd < MAX_SUDDEN_DEATH
    return {"totals": totals, "winners": sorted(contenders),
            "rounds_used": used, "needs_more": needs_more}


# ----------------------------------------------------------------------------
# positions and the game tree
# ----------------------------------------------------------------------------
# A state is (hands: tuple of 4 tuples, leader: int, table: tuple, taken: tuple)

def _state(pos) -> tuple:
    if not isinstance(pos, dict):
        raise ValueError("position must be a dict with hands, leader, table, taken")
    for k in ("hands", "leader", "table", "taken"):
        if k not in pos:
            raise ValueError(f"position lacks key {k!r}")
    hs = _check_four_hands(pos["hands"])
    leader = _check_seat(pos["leader"], "leader")
    table = _check_cards(pos["table"], "table")
    if len(table) > 3:
        raise ValueError(f"table holds 0..3 cards, got {len(table)}")
    for c in table:
        for i, h in enumerate(hs):
            if c in h:
                raise ValueError(f"card {c} is both on the table and in the hand of seat {i}")
    taken = pos["taken"]
    if (not isinstance(taken, (list, tuple)) or len(taken) != 4
            or not all(_is_int(x) and x >= 0 for x in taken)):
        raise ValueError(f"taken must be 4 non-negative ints, got {taken!r}")
    mover = (leader + len(table)) % 4
    m = len(hs[mover])
    played = {(leader + i) % 4 for i in range(len(table))}
    for s in range(4):
        want = m - 1 if s in played else m
        if len(hs[s]) != want:
            raise ValueError(
                f"inconsistent hand sizes {[len(h) for h in hs]} for leader {leader} "
                f"and {len(table)} card(s) on the table")
    if table:
        led = table[0][1]
        for i in range(1, len(table)):
            s = (leader + i) % 4
            if table[i][1] != led and any(c[1] == led for c in hs[s]):
                raise ValueError(
                    f"revoke on the table: seat {s} played {table[i]} but still holds a {led} card")
    if sum(taken) + m > 8:
        raise ValueError(f"taken {list(taken)} plus {m} trick(s) to play exceed 8 tricks")
    return (tuple(tuple(h) for h in hs), leader, tuple(table), tuple(taken))


def _mover(st) -> int:
    return (st[1] + len(st[2])) % 4


def _terminal(st) -> bool:
    return not st[2] and not st[0][_mover(st)]


def _play(st, card: str) -> tuple:
    hands, leader, table, taken = st
    mv = _mover(st)
    hands = tuple(tuple(c for c in h if c != card) if i == mv else h
                  for i, h in enumerate(hands))
    table = table + (card,)
    if len(table) == 4:
        w = trick_winner(list(table), leader)
        taken = tuple(t + 1 if i == w else t for i, t in enumerate(taken))
        return (hands, w, (), taken)
    return (hands, leader, table, taken)


def _moves(st) -> list[str]:
    led = st[2][0][1] if st[2] else None
    return legal_cards(list(st[0][_mover(st)]), led)


def _children(st):
    return [(c, _play(st, c)) for c in _moves(st)]


def _game_value(st, seat: int, payoff, seat_picks=max, others_pick=min):
    """Plain game-tree value: at seat's turns seat_picks, else others_pick;
    leaves score payoff(final taken vector)."""

    @lru_cache(maxsize=None)
    def v(s):
        if _terminal(s):
            return payoff(s[3])
        vals = [v(ch) for _, ch in _children(s)]
        return seat_picks(vals) if _mover(s) == seat else others_pick(vals)

    return v(st)


def paranoid_max(pos, seat: int) -> int:
    """Most total tricks seat can guarantee (seat maximises, the rest minimise)."""
    st = _state(pos)
    _check_seat(seat)
    return _game_value(st, seat, lambda t: t[seat], max, min)


def paranoid_min(pos, seat: int) -> int:
    """Fewest total tricks seat can hold itself to (seat minimises, the rest maximise)."""
    st = _state(pos)
    _check_seat(seat)
    return _game_value(st, seat, lambda t: t[seat], min, max)


def exact_guarantees(pos, seat: int) -> set[int]:
    """Every k such that seat has a strategy ending with exactly k total tricks
    whatever the others do.  G(leaf) = {tricks}; seat's turn: union over its
    cards; another's turn: intersection over their cards."""
    st = _state(pos)
    _check_seat(seat)

    @lru_cache(maxsize=None)
    def g(s) -> frozenset:
        if _terminal(s):
            return frozenset([s[3][seat]])
        sets = [g(ch) for _, ch in _children(s)]
        if _mover(s) == seat:
            return frozenset().union(*sets)
        out = sets[0]
        for x in sets[1:]:
            out = out & x
        return out

    return set(g(st))


def guaranteed_score(pos, seat: int, bid: int, rule: str = "exact") -> int:
    """max over seat's strategies of min over the others' play of
    round_score(bid, seat's total tricks, rule)."""
    st = _state(pos)
    _check_seat(seat)
    _check_bid(bid)
    _check_rule(rule)
    return _game_value(st, seat, lambda t: round_score(bid, t[seat], rule), max, min)


def bid_table(pos, seat: int, rule: str = "exact") -> list[int]:
    """guaranteed_score for bids 0..8."""
    return [guaranteed_score(pos, seat, b, rule) for b in range(9)]


def best_bid(pos, seat: int, rule: str = "exact") -> tuple[int, int]:
    """(bid, guaranteed score) with the highest guaranteed score; ties -> lowest bid."""
    table = bid_table(pos, seat, rule)
    best = 0
    for b in range(1, 9):
        if table[b] > table[best]:
            best = b
    return (best, table[best])


def reachable_vectors(pos) -> set[tuple[int, int, int, int]]:
    """Every final total-trick vector some legal play of all four players reaches."""
    st = _state(pos)

    @lru_cache(maxsize=None)
    def r(s) -> frozenset:
        if _terminal(s):
            return frozenset([s[3]])
        return frozenset().union(*[r(ch) for _, ch in _children(s)])

    return set(r(st))


def best_cards(pos, bid: int, rule: str = "exact") -> dict[str, int]:
    """For the seat to move: each legal card -> score it still guarantees the
    mover (mover maximises, others minimise) with the given bid, after playing
    that card.  A finished round gives {}."""
    st = _state(pos)
    _check_bid(bid)
    _check_rule(rule)
    mv = _mover(st)
    if _terminal(st):
        return {}
    return {c: _game_value(ch, mv, lambda t: round_score(bid, t[mv], rule), max, min)
            for c, ch in _children(st)}


# ----------------------------------------------------------------------------
# random positions
# ----------------------------------------------------------------------------

def _check_cph(n, lo: int) -> int:
    if not _is_int(n) or not lo <= n <= 8:
        raise ValueError(f"cards_per_hand must be an int {lo}..8, got {n!r}")
    return n


def random_position(rng: random.Random, cards_per_hand: int) -> dict:
    """Fresh position: 4*n distinct random cards, random leader, empty table,
    taken [0,0,0,0]."""
    n = _check_cph(cards_per_hand, 0)
    cards = rng.sample(DECK, 4 * n)
    hands = [cards[i * n:(i + 1) * n] for i in range(4)]
    leader = rng.randrange(4)
    return {"hands": hands, "leader": leader, "table": [], "taken": [0, 0, 0, 0]}


def random_midtrick(rng: random.Random, cards_per_hand: int) -> dict:
    """Like random_position (n = cards per hand before the current trick,
    1..8), then 0..3 random legal cards played to the current trick, and
    random taken counts summing to 8 - n.  When 8 - n >= 1 the leader is given
    at least one trick (it won the previous trick)."""
    n = _check_cph(cards_per_hand, 1)
    pos = random_position(rng, n)
    hands, leader = pos["hands"], pos["leader"]
    table: list[str] = []
    for i in range(rng.randint(0, 3)):
        s = (leader + i) % 4
        led = table[0][1] if table else None
        c = rng.choice(legal_cards(hands[s], led))
        hands[s].remove(c)
        table.append(c)
    taken = [0, 0, 0, 0]
    done = 8 - n
    if done > 0:
        taken[leader] = 1
        for _ in range(done - 1):
            taken[rng.randrange(4)] += 1
    pos["table"] = table
    pos["taken"] = taken
    return pos
