"""Exhaustive depth-first search for "can the team still reach score T?".

Built like a game solver: make/unmake on :class:`Position`, a transposition table keyed
on the canonical position (hands as multisets, trash interchangeable) that remembers, per
strike count, the lowest target proven unreachable (a position with fewer strikes is never
worse: every line from it is legal from the other too), admissible bounds (:mod:`.bounds`) at every node, and
move ordering that finds good lines first.

Move pruning (each keeps the maximum; the tests check them against a brute force):
- a misplay from the hand is only tried at full clue tokens; below that, discarding the same card is at
  least as good (one more token, one fewer strike);
- a misplay that ends the game by strikes is only tried when nothing else is legal;
- with trash in hand, trash is the only card discarded (or misplayed);
- in the final round (deck empty) discards and clues are the same "pass": one is tried;
- copies of the same card, and different trash cards, are tried once.
"""
from __future__ import annotations

import time

from .bounds import quick_bound
from .position import CLUE, DISCARD, PLAY, Position


NO_BOUND = 1 << 30


class SearchTimeout(Exception):
    """Raised inside the search when the deadline or node limit passes."""


class Budgeted:
    """A search on a position with its transposition table, and node counting against a
    deadline and a node limit (checked every 4096 nodes)."""

    def __init__(self, pos: Position, deadline: float | None = None, node_limit: int | None = None):
        self.pos = pos
        self.memo: dict[tuple, int] = {}
        self.nodes = 0
        self.deadline = deadline
        self.node_limit = node_limit

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 4095:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchTimeout
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise SearchTimeout


class Search(Budgeted):
    def __init__(self, pos: Position, deadline: float | None = None, node_limit: int | None = None):
        super().__init__(pos, deadline, node_limit)
        self.line: list[tuple[int, int]] = []

    # ---- moves ------------------------------------------------------------
    def moves(self) -> list[tuple[int, int]]:
        pos = self.pos
        me = pos.cur
        hand = pos.hands[me]
        plays, trash, useful = pos.sort_hand(hand)
        res = [(PLAY, o) for o in plays]
        if pos.deck_plays and pos.tl < 0 and pos.deck_len - pos.nd == 1:
            # the last deck card played from the deck; a misplay there still ends the deck
            # without a draw, so it is a move of its own (unless it strikes out)
            if pos.playable(pos.nd) or pos.strikes + 1 < pos.strike_limit:
                res.append((PLAY, pos.nd))
        can_clue = pos.can_clue()
        if pos.tl >= 0:
            # final round: no more draws, so any non-play is the same pass
            if can_clue:
                res.append((CLUE, -1))
            elif pos.clues < pos.max_clues and hand:
                res.append((DISCARD, trash if trash >= 0 else hand[0]))
            elif not res and hand:
                res.append((PLAY, trash if trash >= 0 else hand[0]))
            return res
        if pos.clues < pos.max_clues:
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
            res.append((DISCARD, o) if pos.clues < pos.max_clues else (PLAY, o))
        return res

    def _discard_order(self, cards: list[int]) -> list[int]:
        """Useful cards to give up, most redundant first: a copy in another hand, then a
        copy soon in the deck, then last copies; farther from playable first."""
        pos = self.pos
        suit, rank, stacks, nd = pos.suit, pos.rank, pos.stacks, pos.nd
        me = pos.cur
        other = set()
        for p, h in enumerate(pos.hands):
            if p != me:
                for o in h:
                    other.add(suit[o] * 8 + rank[o])
        keyed = []
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
        self.tick()
        key = pos.key()
        m = self.memo.get(key)
        strikes = pos.strikes
        if m is not None:
            # proven: with s' <= strikes strikes, target m[s'] is unreachable
            for i in range(strikes + 1):
                if m[i] <= target:
                    return False
        # children whose bound still admits the target, most promising first
        children = []
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
            pop()
            if b >= target:
                children.append((-b, i, kind, o))
        children.sort()
        for _, _, kind, o in children:
            push(kind, o)
            ok = self._reach(target)
            pop()
            if ok:
                self.line.append((kind, o))
                return True
        if m is None:
            m = self.memo[key] = [NO_BOUND] * pos.strike_limit
        if target < m[strikes]:
            m[strikes] = target
        return False
