"""An upper bound from a relaxed game: unlimited clue tokens.

With a clue always available, any player can be the next to play or discard (the others
stall), a misplay is never needed (discarding the same card is as good), and the clue
count no longer matters. Every real line is also a line of this relaxed game (drop its
clue turns), so the relaxed maximum bounds the real one. Its positions have no clue count
and, before the final round, no "whose turn" — far fewer than the real game's — so it can
often be searched to the end even where the real game cannot. The final round keeps the
real rule: after the last draw, each player in turn order has exactly one turn.

The proof it gives: "even with unlimited clues and a free choice of who draws each card,
no line reaches T" — hand capacity, how needed cards split between the hands, and the
bottom of the deck, without the clue-token bookkeeping.

Compiled with mypyc like the rest of the kernel (:mod:`solver.hanabi.search.kernel`).
"""
from __future__ import annotations

from typing import Final

from .bounds import quick_bound
from .dfs import _SEP, NONE, Budgeted
from .position import CLUE, DISCARD, PLAY

UNLIMITED: Final = 1 << 40


def pack_relaxed_key(key: tuple[int, int, int, tuple[int, ...], tuple[tuple[int, ...], ...]]) -> bytes:
    """:meth:`RelaxedSearch.key` as the table's key, packed as :func:`~.dfs.pack_key`
    packs a position's: ``nd, tl + 1, cur + 1``, the stacks, the hands with 0xff between."""
    nd, tl, cur, stacks, hands = key
    return bytes((nd, tl + 1, cur + 1, *stacks)) + _SEP.join(map(bytes, hands))


class RelaxedSearch(Budgeted):
    """The relaxed game's search; the budget and the capped table are :class:`Budgeted`'s
    (``RelaxedSearch(pos, deadline, node_limit, memo_cap)``); a table entry is the lowest
    target proven unreachable."""

    def key(self) -> tuple[int, int, int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Before the final round the players are interchangeable up to rotation (anyone
        may act next; only the final round's order, which follows the last drawer, sees
        the seating), so the hands are keyed by their least rotation."""
        pos = self.pos
        hk = pos.hand_key
        hands = [hk(h) for h in pos.hands]
        if pos.tl >= 0:
            return (pos.nd, pos.tl, pos.cur, tuple(pos.stacks), tuple(hands))
        best = hands
        for i in range(1, len(hands)):
            rot = hands[i:] + hands[:i]
            if rot < best:
                best = rot
        return (pos.nd, -1, -1, tuple(pos.stacks), tuple(best))

    def moves_for(self, me: int) -> list[tuple[int, int]]:
        pos = self.pos
        plays, trash, useful = pos.sort_hand(pos.hands[me])
        res = [(PLAY, o) for o in plays]
        if pos.tl >= 0:
            res.append((CLUE, -1))  # the final-round pass
            return res
        if trash >= 0:
            res.append((DISCARD, trash))
        else:
            res.extend((DISCARD, o) for o in useful)
        return res

    def reach(self, target: int) -> bool:
        """Can the relaxed game reach ``target``? (False proves the real game cannot.)"""
        pos = self.pos
        saved = (pos.clues, pos.max_clues, pos.strikes)
        pos.clues, pos.max_clues = UNLIMITED, UNLIMITED + 1
        depth = len(pos._undo)
        cur = pos.cur
        try:
            if pos.over:
                return pos.final_score >= target
            if quick_bound(pos) < target:
                return False
            return self._reach(target)
        finally:
            while len(pos._undo) > depth:
                pos.pop()
            pos.clues, pos.max_clues, pos.strikes = saved
            pos.cur = cur

    def _reach(self, target: int) -> bool:
        pos = self.pos
        self.nodes += 1  # (tick, inlined: the hot path)
        if self.nodes >= self._next_check:
            self._check()
        key = pack_relaxed_key(self.key())
        m = self.memo.get(key)
        if m is None:  # (the generations as in Search._reach)
            m = self._old.get(key, NONE)
            if m != NONE:
                self.memo[key] = m
                if len(self.memo) >= self._half:
                    self._turn()
        if m <= target:
            return False
        cur0 = pos.cur
        actors = [cur0] if pos.tl >= 0 else range(pos.n)
        children: list[tuple[int, int, int, int, int]] = []
        i = 0
        for p in actors:
            pos.cur = p
            moves = self.moves_for(p)
            if pos.deck_plays and pos.tl < 0 and pos.deck_len - pos.nd == 1:
                moves.append((PLAY, pos.nd))
            for kind, o in moves:
                pos.push(kind, o)
                if pos.over:
                    ok = pos.final_score >= target
                    pos.pop()
                    if ok:
                        pos.cur = cur0
                        return True
                    continue
                b = quick_bound(pos)
                pos.pop()
                if b >= target:
                    children.append((-b, i, p, kind, o))
                i += 1
        children.sort()
        for _, _, p, kind, o in children:
            pos.cur = p
            pos.push(kind, o)
            ok = self._reach(target)
            pos.pop()
            if ok:
                pos.cur = cur0
                return True
        pos.cur = cur0
        if target < m:  # (no new local names here: see the end of Search._reach)
            self.memo[key] = target  # (not a name from before the children: it may have turned old)
            if len(self.memo) >= self._half:
                self._turn()
        return False
