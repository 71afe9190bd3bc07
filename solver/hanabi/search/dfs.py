"""Exhaustive depth-first search for "can the team still reach score T?".

Built like a game solver: make/unmake on :class:`Position`, a transposition table keyed
on the canonical position (hands as multisets, trash interchangeable) that remembers, per
strike count, the lowest target proven unreachable (a position with fewer strikes is never
worse: every line from it is legal from the other too), admissible bounds (:mod:`.bounds`) at every node, and
move ordering that finds good lines first. The table is bounded (:class:`Budgeted`: two
generations, at most ``memo_cap`` entries) and holds only bytes (:func:`pack_key`), so it
stays small and out of the garbage collector's way.

Move pruning (each keeps the maximum; the tests check them against a brute force):
- a misplay from the hand is only tried at full clue tokens; below that, discarding the same card is at
  least as good (one more token, one fewer strike);
- a misplay that ends the game by strikes is only tried when nothing else is legal;
- with trash in hand, trash is the only card discarded (or misplayed);
- in the final round (deck empty) discards and clues are the same "pass": one is tried;
- copies of the same card, and different trash cards, are tried once.
In a variant with cards no clue touches (null suits ...) which cards a hand keeps decides
later stalls, so the trash-only and one-pass rules give way to ``_moves_untouched``; where
Alternating Clues binds, the clue types left also depend on the tokens (a full count forbids
the discard that would have passed the turn), so ``_moves_alternating`` keeps misplays too.

Compiled with mypyc like the rest of the kernel (:mod:`solver.hanabi.search.kernel`). Its timeout,
:class:`~solver.errors.SearchTimeout`, is defined outside the kernel, so the pure and the
compiled search raise the same class.
"""
from __future__ import annotations

import time
from typing import Any, Final

from solver.errors import SearchTimeout

from .bounds import quick_bound
from .position import CLUE, DISCARD, PLAY, Position

__all__ = ["Budgeted", "Search", "SearchTimeout", "pack_key", "CHECK_EVERY", "DEFAULT_MEMO_CAP", "NONE", "ORDERS"]

NONE: Final = 255  # "no bound" in a table entry's byte (targets are scores, far below it)
_SEP: Final = b"\xff"

# The clock a deadline is read from: a module global (not ``time.monotonic`` looked up
# inside the search) so that a test can stand a counting clock in for it, in the pure and
# the compiled kernel alike (compiled code keeps its own reference to an imported module).
monotonic = time.monotonic


def pack_key(key: tuple[int, int, int, int, tuple[int, ...], tuple[tuple[int, ...], ...]]) -> bytes:
    """:meth:`Position.key` as the table's key: ``cur, nd, clues, tl + 1``, the stacks,
    then each hand's classes, 0xff between hands. Every field is a small non-negative
    integer below 255 (``bytes`` raises on anything else) and one table only holds
    positions of one game (same suits, same players), so equal keys and only equal keys
    give equal bytes. About 60 bytes instead of 300-600 for the tuples, and no object the
    garbage collector tracks: a table of tuples made every full collection walk it all."""
    cur, nd, clues, tl, stacks, hands = key
    return bytes((cur, nd, clues, tl + 1, *stacks)) + _SEP.join(map(bytes, hands))


_FRESH: dict[int, list[list[bytes]]] = {}


def _fresh_entries(strike_limit: int) -> list[list[bytes]]:
    """A new table entry by strike count and target (that one bound, no other), made once."""
    if strike_limit not in _FRESH:
        L = strike_limit
        _FRESH[L] = [[bytes(t if i == s else NONE for i in range(L)) for t in range(NONE)] for s in range(L)]
    return _FRESH[strike_limit]


# Nodes between two reads of the clock. The search runs some 10,000-40,000 nodes a second
# in pure Python (fewer with 5-6 players and in the relaxed game; about 3x as many
# compiled), so a deadline is noticed within a few milliseconds; a clock read costs well
# under a microsecond, nothing next to a node.
CHECK_EVERY: Final = 32

# Transposition-table entries kept per search (see Budgeted). An entry (the packed key,
# its bounds, mostly shared, and the dict slot) takes 90-120 bytes on real solves
# (scripts/bench_memory.py; the tuples and lists before took 410-760), so a full table
# stays under about 250 MB and a solve's two tables (the search and the relaxed game)
# under 1 GiB with the rest of the process (about 150 MB with OR-Tools loaded). Each
# generation (2**20 entries) fills a 2**21-slot dict without growing it again.
DEFAULT_MEMO_CAP: Final = 1 << 21


class Budgeted:
    """A search on a position with its transposition table, and node counting against a
    deadline and a node limit.

    The node limit is exact: the node after the ``node_limit``-th raises
    :class:`SearchTimeout`, so the same limit always stops at the same node. The clock is
    read every :data:`CHECK_EVERY` nodes.

    The transposition table holds at most ``memo_cap`` entries (default
    :data:`DEFAULT_MEMO_CAP`; None: no cap), in two generations: ``memo``, where entries
    are written, and the older one it was before. Every entry is a proven bound ("target
    T is unreachable here with s strikes"), so dropping one only costs time, never an
    answer. When ``memo`` reaches half the cap it becomes the older generation and the
    previous older one is dropped (``evictions`` counts these turns); an entry found in
    the older generation is copied back into ``memo``, so whatever the search still uses
    survives. A turn is one reference swap and dropping a dict (about 20 ms for a million
    entries, in C), so it never holds up the deadline."""

    pos: Position
    # packed key -> bytes (Search: the lowest target proven unreachable per strike count) or
    # int (RelaxedSearch: the lowest target proven unreachable)
    memo: dict[bytes, Any]
    _old: dict[bytes, Any]
    _memo_cap: int | None
    _half: int
    evictions: int
    nodes: int
    deadline: float | None
    _node_limit: int | None
    _next_check: int

    def __init__(self, pos: Position, deadline: float | None = None, node_limit: int | None = None,
                 memo_cap: int | None = DEFAULT_MEMO_CAP) -> None:
        self.pos = pos
        self.memo = {}
        self._old = {}
        self.memo_cap = memo_cap
        self.evictions = 0
        self.nodes = 0
        self.deadline = deadline
        self._node_limit = node_limit
        self._next_check = 0
        self._schedule()

    @property
    def memo_cap(self) -> int | None:
        return self._memo_cap

    @memo_cap.setter
    def memo_cap(self, value: int | None) -> None:
        if value is not None and value < 1:
            raise ValueError(f"memo_cap must be at least 1, got {value}")
        self._memo_cap = value
        # memo turns old at this size (never without a cap); a cap of 1 keeps no old one
        self._half = 1 << 62 if value is None else max(1, value // 2)

    @property
    def entries(self) -> int:
        """Entries in the table, both generations."""
        return len(self.memo) + len(self._old)

    @property
    def node_limit(self) -> int | None:
        return self._node_limit

    @node_limit.setter
    def node_limit(self, value: int | None) -> None:
        self._node_limit = value
        self._schedule()

    def _schedule(self) -> None:
        """The node count at which :meth:`tick` next looks at the budget: the next clock
        read, or the first node past the limit if that comes sooner."""
        nxt = self.nodes + CHECK_EVERY
        if self._node_limit is not None and self._node_limit < nxt:
            nxt = max(self._node_limit + 1, self.nodes + 1)
        self._next_check = nxt

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()

    def _check(self) -> None:
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise SearchTimeout
        if self.deadline is not None and monotonic() > self.deadline:
            raise SearchTimeout
        self._schedule()

    def _turn(self) -> None:
        """``memo`` is full (half the cap): it becomes the older generation."""
        cap = self._memo_cap
        self._old = self.memo if cap is not None and 2 * self._half <= cap else {}
        self.memo = {}
        self.evictions += 1


# The child orders a search may run with. Children are tried best bound first; among
# equal bounds, 0 keeps the move generator's order (plays, then trash discards, clues,
# discards from the most redundant card), -1 tries the children with more clue tokens
# first (discards before clues), +1 those with fewer first (clues before discards). A
# search that misses the line in one order often finds it at once in another: the
# portfolio restarts the search in each order in turn (the table is shared: what one run
# proved unreachable cuts the others).
ORDERS: Final = (0, -1, 1)


class Search(Budgeted):
    line: list[tuple[int, int]]
    _fresh: list[list[bytes]]
    order: int

    def __init__(self, pos: Position, deadline: float | None = None, node_limit: int | None = None,
                 memo_cap: int | None = DEFAULT_MEMO_CAP) -> None:
        super().__init__(pos, deadline, node_limit, memo_cap)
        self.line = []
        self._fresh = _fresh_entries(pos.strike_limit)
        self.order = 0  # the child order's tie-break, one of ORDERS (set between runs only)

    # ---- moves ------------------------------------------------------------
    def moves(self) -> list[tuple[int, int]]:
        pos = self.pos
        # (a game with fixed stacks, solver.hanabi.methods.split, while a guard may forbid a misplay: the
        # trash cards differ, and a position may have no legal action, so a misplay that
        # strikes out is no longer the worst move: every move kept, as there)
        if pos.alternating or (pos.guarded and pos.guards_live()):
            return self._moves_alternating()
        if not pos.all_touch:
            return self._moves_untouched()
        me = pos.cur
        hand = pos.hands[me]
        plays, trash, useful = pos.sort_hand(hand)
        res = self._plays(plays)
        can_clue = pos.can_clue()
        # (with inverted suits a discard is legal at max tokens, and at least as good as
        # misplaying the same card: no misplay is then needed)
        discard_ok = pos.clues < pos.max_clues or pos.discard_at_max
        if pos.tl >= 0:
            # final round: no more draws, so any non-play is the same pass
            if can_clue:
                res.append((CLUE, -1))
            elif discard_ok and hand:
                res.append((DISCARD, trash if trash >= 0 else hand[0]))
            elif not res and hand:
                res.append((PLAY, trash if trash >= 0 else hand[0]))
            return res
        if discard_ok:
            if trash >= 0:
                res.append((DISCARD, trash))
                if can_clue:
                    res.append((CLUE, -1))
            else:
                if can_clue:
                    res.append((CLUE, -1))
                res.extend((DISCARD, o) for o in self._discard_order(useful))
        else:
            if can_clue:
                res.append((CLUE, -1))
            if pos.strikes + 1 < pos.strike_limit:
                if trash >= 0:
                    res.append((PLAY, trash))
                else:
                    res.extend((PLAY, o) for o in self._discard_order(useful) if not pos.playable(o))
        if not res and hand:
            # forced: whatever is legal (e.g. a misplay that strikes out)
            o = trash if trash >= 0 else hand[0]
            res.append((DISCARD, o) if discard_ok else (PLAY, o))
        return res

    def _plays(self, plays: list[int]) -> list[tuple[int, int]]:
        """The plays (``plays``: one card per class) and, with deck plays, the last deck
        card played from the deck: a misplay there still ends the deck without a draw, so
        it is a move of its own (unless it strikes out)."""
        pos = self.pos
        res = [(PLAY, o) for o in plays]
        if pos.deck_plays and pos.tl < 0 and pos.deck_len - pos.nd == 1:
            if pos.playable(pos.nd) or (pos.strikes + 1 < pos.strike_limit and pos.misplay_ok(pos.nd)):
                res.append((PLAY, pos.nd))
        return res

    def _moves_untouched(self) -> list[tuple[int, int]]:
        """The moves in a variant with cards no clue touches (and no clue that may touch
        nothing): whether a hand can be clued then depends on which cards it keeps, so
        the trash-only and one-pass prunings above do not hold. Kept: one card per class
        (copies are interchangeable, and so are trash cards alike in whether a clue touches
        them), misplays only at full tokens (below, discarding the same card is as good)
        and none that strikes out while anything else is legal. In the final round this
        player's cards are dead after the move: only whether the ones left can be clued
        matters, so one touchable and one untouchable card are tried."""
        pos = self.pos
        hand = pos.hands[pos.cur]
        plays, _, useful = pos.sort_hand(hand)
        res = self._plays(plays)
        can_clue = pos.can_clue()
        discard_ok = pos.clues < pos.max_clues or pos.discard_at_max
        survive = pos.strikes + 1 < pos.strike_limit
        if can_clue:
            res.append((CLUE, -1))
        if pos.tl >= 0:
            if discard_ok:
                res.extend((DISCARD, o) for o in pos.by_touch(hand))
            elif not can_clue and (survive or not res):
                res.extend((PLAY, o) for o in pos.by_touch([o for o in hand if not pos.playable(o)]))
        else:
            useful_set = set(useful)
            trash = pos.by_touch([o for o in hand if o not in useful_set])
            if discard_ok:
                res.extend((DISCARD, o) for o in trash + self._discard_order(useful))
            elif survive:
                res.extend((PLAY, o) for o in trash + self._discard_order(useful) if not pos.playable(o))
        if not res and hand:
            # forced: whatever is legal (e.g. a misplay that strikes out)
            res.extend((DISCARD if discard_ok else PLAY, o) for o in pos.by_touch(hand))
        return res

    def _moves_alternating(self) -> list[tuple[int, int]]:
        """The moves where Alternating Clues binds (a clue type may be unavailable while
        the other is): each clue type that may be given, and each play, discard and
        misplay of one card per class (trash cards and, in the final round, every card
        told apart only by the clue types that touch them). A misplay is kept even below
        full tokens: the token it does not gain can leave the next player a discard that a
        full count forbids. Only a misplay that strikes out waits until nothing else is
        legal (it ends the game at once with the score it has, which no other move lowers)."""
        pos = self.pos
        hand = pos.hands[pos.cur]
        plays, _, useful = pos.sort_hand(hand)
        res = self._plays(plays)
        res.extend(pos.clue_moves())
        if pos.tl >= 0:
            cards = pos.by_touch(hand)
            wrong = pos.by_touch([o for o in hand if not pos.playable(o) and pos.misplay_ok(o)])
        else:
            useful_set = set(useful)
            cards = pos.by_touch([o for o in hand if o not in useful_set]) + self._discard_order(useful)
            wrong = [o for o in cards if not pos.playable(o) and pos.misplay_ok(o)]
        if pos.clues < pos.max_clues or pos.discard_at_max:
            res.extend((DISCARD, o) for o in cards)
        # (in a game with fixed stacks, solver.hanabi.methods.split, a position may have no legal action:
        # other moves may all lead to one, so a misplay that strikes out is kept there too)
        if pos.strikes + 1 < pos.strike_limit or not res or pos.guarded:
            res.extend((PLAY, o) for o in wrong)
        return res

    def _discard_order(self, cards: list[int]) -> list[int]:
        """Useful cards to give up, most redundant first: a copy in another hand, then a
        copy soon in the deck, then last copies; farther from playable first."""
        pos = self.pos
        suit, rank, stacks, nd = pos.suit, pos.rank, pos.stacks, pos.nd
        me = pos.cur
        other: set[int] = set()
        for p, h in enumerate(pos.hands):
            if p != me:
                for o in h:
                    other.add(suit[o] * 8 + rank[o])
        keyed: list[tuple[int, int, int]] = []
        for o in cards:
            c = suit[o] * 8 + rank[o]
            if c in other:
                pri = 0
            else:
                pri = pos.next_pos[c][nd] - nd + 1  # deck depth of the next copy (deck_len+1: none)
            keyed.append((pri, stacks[suit[o]] - rank[o], o))
        keyed.sort()
        return [o for _, _, o in keyed]

    # ---- search -----------------------------------------------------------
    def reach(self, target: int) -> bool:
        """True if final score >= target is reachable; on success ``self.line`` holds a
        line (moves from the current position) that reaches it."""
        self.line = []
        pos = self.pos
        if pos.over:
            return pos.final_score >= target
        if quick_bound(pos) < target:
            return False
        depth = len(pos._undo)
        try:
            ok = self._reach(target)
        except SearchTimeout:
            while len(pos._undo) > depth:  # unwind to where the search started
                pos.pop()
            raise
        self.line.reverse()
        return ok

    def _reach(self, target: int) -> bool:
        """The position is not over and its bound admits ``target``."""
        pos = self.pos
        self.nodes += 1  # (tick, inlined: the hot path)
        if self.nodes >= self._next_check:
            self._check()
        key = pack_key(pos.key())
        m: bytes | None = self.memo.get(key)  # the lowest target proven unreachable per strike count
        if m is None:
            m = self._old.get(key)
            if m is not None:  # still of use: back into the young generation
                self.memo[key] = m
                if len(self.memo) >= self._half:
                    self._turn()
        strikes = pos.strikes
        if m is not None:
            # proven: with s' <= strikes strikes, target m[s'] is unreachable
            for i in range(strikes + 1):
                if m[i] <= target:
                    return False
        # children whose bound still admits the target, most promising first
        children: list[tuple[int, int, int, int, int]] = []
        push, pop = pos.push, pos.pop
        for i, (kind, o) in enumerate(self.moves()):
            push(kind, o)
            if pos.over:
                ok = pos.final_score >= target
                pop()
                if ok:
                    self.line.append((kind, o))
                    return True
                continue
            b = quick_bound(pos)
            if b >= target:  # (the tie-break of this run's child order: see ORDERS)
                children.append((-b, self.order * pos.clues, i, kind, o))
            pop()
        children.sort()
        for _, _, _, kind, o in children:
            push(kind, o)
            ok = self._reach(target)
            pop()
            if ok:
                self.line.append((kind, o))
                return True
        # bytes, replaced rather than changed in place (no tracked objects in the table).
        # (No new local names in this function: CPython 3.11 keeps frames in 16 KiB
        # chunks and frees a chunk as soon as the recursion leaves it, so a bigger frame
        # moves the chunk borders to other depths, where a search crossing one at every
        # node pays an mmap and munmap each time; kept the size it was.)
        if m is None:
            m = self._fresh[strikes][target]
        elif target < m[strikes]:
            m = m[:strikes] + bytes((target,)) + m[strikes + 1:]
        else:
            return False
        self.memo[key] = m  # (self.memo, not a name from before the children: it may have turned old)
        if len(self.memo) >= self._half:
            self._turn()
        return False
