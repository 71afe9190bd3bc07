"""Expectimax over the unknown order of the draw pile, in exact integers.

Every hand is visible and the pile is a known multiset in uniformly random order; the team
acts as one player who sees the whole state, and each draw is a chance event. A node's
value is a count over the ``D!`` orders of the ``D`` cards left in the pile (copies told
apart): with objective ``WIN`` the orders in which the best play from here reaches the
target, with ``SCORE`` the sum over the orders of the final score. A decision node takes
the best of its moves (all in the same units: a clue draws nothing, a play or discard
starts a chance node over the same ``D`` cards); a chance node with ``D`` cards takes
``sum(copies(c) * value(child after drawing c))`` over the distinct classes ``c`` drawn,
each child counting the ``(D - 1)!`` orders of the rest. Probabilities are these counts
over ``D!``: exact fractions, no floats anywhere.

The search:

- a node's static bounds: the value is at most ``D!`` (WIN; 0 if :meth:`ChancePos.bound`
  is below the target) or ``bound * D!`` (SCORE), and at least ``D!`` once the target is
  reached (WIN, when a strike-out keeps the score) or ``score * D!`` (SCORE);
- windows (alpha, beta) as in alpha-beta: a decision node stops at a move whose value
  reaches beta; a chance node stops once the weight it has not explored, at its children's
  static bounds, can no longer lift it above alpha or keep it below beta (Ballard's Star1),
  and gives each child the window that matters for the total;
- results are bounds ``(lo, hi)``: exact when equal, else the node is at most alpha
  (``hi <= alpha``) or at least beta (``lo >= beta``);
- a transposition table, per key (:meth:`ChancePos.key`), of the bounds proven and the best
  move; bytes keys, two generations, at most ``cap`` entries;
- moves pruned as the deck-known search prunes them (:func:`moves`), the ones that stay
  valid when the order is unknown; ``tests/test_chances.py`` checks the values against a
  brute force that keeps every legal move;
- a deterministic node budget: past it no node is expanded, each answers with its table
  and static bounds, so the root gets an interval ``[lo, hi]`` (``lo`` reached by the
  best policy found, ``hi`` a bound), never a guess.
"""
from __future__ import annotations

from typing import Final

from .position import CLUE, DISCARD, FROM_PILE, PLAY, ChancePos

WIN: Final = 0
SCORE: Final = 1
NO_MOVE: Final = -1
DEFAULT_CAP: Final = 2_000_000  # table entries, both generations (about 200 bytes each)


def encode(kind: int, i: int) -> int:
    return kind * 64 + i + 2


def decode(m: int) -> tuple[int, int]:
    return m // 64, m % 64 - 2


def moves(pos: ChancePos) -> list[tuple[int, int]]:
    """The mover's moves ``(kind, index)``, pruned as the deck-known search prunes them
    (:meth:`solver.hanabi.search.dfs.Search.moves`): one card per class; with trash in hand trash
    is the only card given up; a misplay only at full tokens (below, discarding the same
    card is at least as good) and never one that strikes out while something else is
    legal; in the final round (no more draws) one pass. Where some card no clue touches,
    which cards a hand keeps decides later stalls: every distinct card is kept then."""
    f = pos.f
    hand = pos.hands[pos.cur]
    plays, trash, useful = pos.sort_hand()
    res: list[tuple[int, int]] = [(PLAY, i) for i in plays]
    can_clue = pos.can_clue()
    discard_ok = pos.clues < f.max_clues or f.discard_at_max
    survive = pos.strikes + 1 < f.strike_limit
    if f.deck_plays and pos.tl < 0 and pos.dn == 1:
        # the pile's last card played from the pile (known: the only card left); a
        # misplay there still ends the pile without a draw, a move of its own
        if pos.playable(pos.last_card()) or survive:
            res.append((PLAY, FROM_PILE))
    if not f.all_touch:
        return _moves_untouched(pos, res, can_clue, discard_ok, survive, useful)
    if pos.tl >= 0:
        # final round: no more draws, so any non-play is the same pass
        if can_clue:
            res.append((CLUE, -1))
        elif discard_ok and hand:
            res.append((DISCARD, trash if trash >= 0 else 0))
        elif not res and hand:
            res.append((PLAY, trash if trash >= 0 else 0))
        return res
    if discard_ok:
        if trash >= 0:
            res.append((DISCARD, trash))
            if can_clue:
                res.append((CLUE, -1))
        else:
            if can_clue:
                res.append((CLUE, -1))
            for i in _discard_order(pos, useful):
                res.append((DISCARD, i))
    else:
        if can_clue:
            res.append((CLUE, -1))
        if survive:
            if trash >= 0:
                res.append((PLAY, trash))
            else:
                for i in _discard_order(pos, useful):
                    if not pos.playable(hand[i]):
                        res.append((PLAY, i))
    if not res and hand:
        i = trash if trash >= 0 else 0
        res.append((DISCARD, i) if discard_ok else (PLAY, i))
    return res


def _moves_untouched(pos: ChancePos, res: list[tuple[int, int]], can_clue: bool, discard_ok: bool, survive: bool,
                     useful: list[int]) -> list[tuple[int, int]]:
    """Where some card no clue touches: every distinct card (trash told apart by whether a
    clue touches it) may be discarded, or misplayed at full tokens."""
    hand = pos.hands[pos.cur]
    touch = pos.f.touch
    if can_clue:
        res.append((CLUE, -1))
    cards: list[int] = []
    seen: list[int] = []
    for i in range(len(hand)):
        c = hand[i]
        k = c if i in useful else (-1 if touch[c] else -2)
        if k not in seen:
            seen.append(k)
            cards.append(i)
    if discard_ok:
        for i in cards:
            res.append((DISCARD, i))
    elif survive:
        for i in cards:
            if not pos.playable(hand[i]):
                res.append((PLAY, i))
    if not res and hand:
        for i in cards:
            res.append((DISCARD, i) if discard_ok else (PLAY, i))
    return res


def _discard_order(pos: ChancePos, useful: list[int]) -> list[int]:
    """Useful cards to give up, most redundant first: a copy in another hand, then the
    most copies left in the pile, then farther from playable."""
    me = pos.cur
    hand = pos.hands[me]
    keyed: list[tuple[int, int, int]] = []
    for i in useful:
        c = hand[i]
        elsewhere = 0
        for p in range(pos.n):
            if p != me and c in pos.hands[p]:
                elsewhere = 1
        keyed.append((-elsewhere * 100 - pos.deck[c], pos.stacks[c >> 3] - (c & 7), i))
    keyed.sort()
    return [k[2] for k in keyed]


class ChanceSearch:
    """Expectimax over one position (mutated during a search, restored after), for one
    objective and target, fixed for the search's life (the table depends on them)."""

    pos: ChancePos
    objective: int
    target: int
    fact: list[int]
    budget: int
    nodes: int
    exhausted: bool
    tt: dict[bytes, tuple[int, int, int]]
    old: dict[bytes, tuple[int, int, int]]
    half: int
    seq: list[int]

    def __init__(self, pos: ChancePos, objective: int, target: int, budget: int, cap: int = DEFAULT_CAP,
                 seq: list[int] | None = None) -> None:
        self.pos = pos
        self.objective = objective
        self.target = target
        self.fact = [1]
        for k in range(1, pos.dn + 2):
            self.fact.append(self.fact[-1] * k)
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self.tt = {}
        self.old = {}
        self.half = max(1, cap // 2)
        # the deck-known ("clairvoyant") search of one order of the pile: the classes in
        # the order drawn; each draw then has one outcome, weighted by all dn cards (every
        # order counted as this one), so values keep their units. Empty: the order unknown
        self.seq = [] if seq is None else seq

    def terminal(self) -> int:
        """The value of a finished game, with ``dn`` cards never drawn."""
        pos = self.pos
        if self.objective == WIN:
            return self.fact[pos.dn] if pos.final_score >= self.target else 0
        return pos.final_score * self.fact[pos.dn]

    def static(self) -> tuple[int, int]:
        """Bounds on a position not over, from the rules alone (valid for every order)."""
        pos = self.pos
        full = self.fact[pos.dn]
        keep = pos.f.keep_stacks
        if self.objective == WIN:
            if keep and pos.score >= self.target:
                return full, full
            return 0, (full if pos.bound() >= self.target else 0)
        return (pos.score * full if keep else 0), pos.bound() * full

    def key(self) -> bytes:
        """The table's key: the position's, and with the order known the cards still to come
        in order (one table then serves every order: positions with the same cards to come
        meet across them)."""
        if self.seq:
            return self.pos.key() + bytes(self.seq[len(self.seq) - self.pos.dn:])
        return self.pos.key()

    def bounds(self) -> tuple[int, int, bytes]:
        """The static bounds narrowed by the table, and the key when it was needed (else
        empty: the static bounds alone settle the position)."""
        lo, hi = self.static()
        key = b""
        if lo < hi:
            key = self.key()
            e = self.tt.get(key)
            if e is None:
                e = self.old.get(key)
            if e is not None:
                lo = max(lo, e[0])
                hi = min(hi, e[1])
        return lo, hi, key

    def store(self, key: bytes, lo: int, hi: int, best: int) -> None:
        self.tt[key] = (lo, hi, best)
        if len(self.tt) >= self.half:
            self.old = self.tt
            self.tt = {}

    def decide(self, alpha: int, beta: int, known: bytes = b"") -> tuple[int, int]:
        """A decision node (the position not over): its bounds, exact unless they show it
        at most ``alpha`` or at least ``beta``. ``known``: its key, when the caller has it."""
        pos = self.pos
        lo, hi = self.static()
        if lo >= hi:
            return lo, hi
        key = known if known else self.key()
        e = self.tt.get(key)
        if e is None:
            e = self.old.get(key)
            if e is not None:
                self.store(key, e[0], e[1], e[2])
        best = NO_MOVE
        if e is not None:
            lo = max(lo, e[0])
            hi = min(hi, e[1])
            best = e[2]
        if lo >= hi or hi <= alpha or lo >= beta or self.exhausted:
            return lo, hi
        self.nodes += 1
        if self.nodes >= self.budget:
            self.exhausted = True
        ms = moves(pos)
        if best != NO_MOVE:
            bm = decode(best)
            if bm in ms:
                ms.remove(bm)
                ms.insert(0, bm)
        best_lo = -1
        max_hi = -1
        best_move = NO_MOVE
        complete = True
        for kind, i in ms:
            a = alpha
            if lo > a:
                a = lo
            if best_lo > a:
                a = best_lo
            r_lo, r_hi = self.child(kind, i, a, beta)
            if r_lo > best_lo:
                best_lo = r_lo
                best_move = encode(kind, i)
            if r_hi > max_hi:
                max_hi = r_hi
            if best_lo >= beta or best_lo >= hi:
                complete = False
                break
        new_lo = max(lo, best_lo)
        new_hi = min(hi, max_hi) if complete else hi
        if new_hi < new_lo:  # (cannot happen: every bound is proven; kept consistent)
            new_hi = new_lo
        self.store(key, new_lo, new_hi, best_move)
        return new_lo, new_hi

    def child(self, kind: int, i: int, alpha: int, beta: int) -> tuple[int, int]:
        """The value of making move ``(kind, i)``, in the units of the current position
        (orders of its ``dn`` cards)."""
        pos = self.pos
        if kind == CLUE or pos.dn == 0 or i == FROM_PILE:
            pos.push(kind, i, -1)
            if pos.over:
                v = self.terminal()
                pos.pop()
                return v, v
            r = self.decide(alpha, beta)
            pos.pop()
            return r
        if self.seq:
            groups = [(self.seq[len(self.seq) - pos.dn], pos.dn)]
        else:
            groups = pos.draw_groups()
        ng = len(groups)
        los: list[int] = []
        his: list[int] = []
        keys: list[bytes] = []
        sum_lo = 0
        sum_hi = 0
        for c, w in groups:
            pos.push(kind, i, c)
            if pos.over:
                v = self.terminal()
                lo = v
                hi = v
                key = b""
            else:
                lo, hi, key = self.bounds()
            pos.pop()
            los.append(lo)
            his.append(hi)
            keys.append(key)
            sum_lo += w * lo
            sum_hi += w * hi
        # the outcomes to search: those with the lowest upper bound first (a draw the table
        # already knows loses some orders settles a fail-low soonest), then the heaviest
        order = sorted(range(ng), key=lambda j: (his[j] - los[j] == 0, his[j], -groups[j][1]))
        for j in order:
            if sum_hi <= alpha or sum_lo >= beta or sum_lo == sum_hi:
                break
            lo = los[j]
            hi = his[j]
            if lo >= hi:
                continue
            c, w = groups[j]
            others_lo = sum_lo - w * lo
            others_hi = sum_hi - w * hi
            ca = (alpha - others_hi) // w  # the child at most ca keeps the total at most alpha
            cb = -((others_lo - beta) // w)  # the child at least cb makes it at least beta
            pos.push(kind, i, c)
            r_lo, r_hi = self.decide(ca, cb, keys[j])
            pos.pop()
            sum_lo += w * (r_lo - lo)
            sum_hi += w * (r_hi - hi)
        return sum_lo, sum_hi
