"""Exhaustive depth-first search for "can the team still reach score T?".

Built like a game solver: make/unmake on :class:`Position`, a transposition table keyed
on the canonical position (hands as multisets, trash interchangeable) that remembers the
lowest target proven unreachable, admissible bounds (:mod:`.bounds`) at every node, and
move ordering that finds good lines first.

Move pruning (each keeps the maximum; the tests check them against a brute force):
- a misplay is only tried at full clue tokens; below that, discarding the same card is at
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


class SearchTimeout(Exception):
    """Raised inside the search when the deadline or node limit passes."""


class Search:
    def __init__(self, pos: Position, deadline: float | None = None, node_limit: int | None = None):
        self.pos = pos
        self.memo: dict[tuple, int] = {}
        self.nodes = 0
        self.deadline = deadline
        self.node_limit = node_limit
        self.line: list[tuple[int, int]] = []

    # ---- moves ------------------------------------------------------------
    def moves(self) -> list[tuple[int, int]]:
        pos = self.pos
        hand = pos.hands[pos.cur]
        stacks, suit, rank = pos.stacks, pos.suit, pos.rank
        cls = pos.cls
        res = []
        seen = set()
        trash = -1
        useful = []
        for o in hand:
            s = suit[o]
            r = rank[o]
            if r == stacks[s] + 1:
                c = s * 8 + r
                if c not in seen:
                    seen.add(c)
                    res.append((PLAY, o))
            c = cls(o)
            if c == 0:
                if trash < 0:
                    trash = o
            elif c not in seen:
                seen.add(c)
                useful.append(o)
            elif r == stacks[s] + 1:
                pass
        # playable cards also count as useful discards (another copy may be elsewhere)
        useful_all = []
        seen2 = set()
        for o in hand:
            c = cls(o)
            if c and c not in seen2:
                seen2.add(c)
                useful_all.append(o)
        D = pos.deck_len - pos.nd
        if pos.deck_plays and D == 1 and pos.tl < 0 and pos.playable(pos.nd):
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
                # useful discards: farthest from playable first
                useful_all.sort(key=lambda o: stacks[suit[o]] - rank[o])
                res.extend((DISCARD, o) for o in useful_all)
        else:
            if can_clue:
                res.append((CLUE, -1))
            if pos.strikes + 1 < pos.strike_limit:
                if trash >= 0:
                    res.append((PLAY, trash))
                else:
                    res.extend((PLAY, o) for o in useful_all if not pos.playable(o))
        if not res:
            # forced: whatever is legal (e.g. a misplay that strikes out)
            if pos.clues < pos.max_clues and hand:
                res.append((DISCARD, trash if trash >= 0 else hand[0]))
            elif hand:
                res.append((PLAY, trash if trash >= 0 else hand[0]))
        return res

    # ---- search -----------------------------------------------------------
    def reach(self, target: int) -> bool:
        """True if final score >= target is reachable; on success ``self.line`` holds a
        line (moves from the current position) that reaches it."""
        self.line = []
        ok = self._reach(target)
        self.line.reverse()
        return ok

    def _reach(self, target: int) -> bool:
        pos = self.pos
        if pos.over:
            return pos.final_score >= target
        self.nodes += 1
        if not self.nodes & 4095:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise SearchTimeout
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise SearchTimeout
        if quick_bound(pos) < target:
            return False
        key = pos.key()
        m = self.memo.get(key)
        if m is not None and m <= target:
            return False
        scored = []
        for i, (kind, o) in enumerate(self.moves()):
            pos.push(kind, o)
            if pos.over:
                b = pos.final_score
            else:
                b = quick_bound(pos)
            pos.pop()
            if b >= target:
                scored.append((-b, i, kind, o))
        scored.sort()
        for _, _, kind, o in scored:
            pos.push(kind, o)
            ok = self._reach(target)
            pos.pop()
            if ok:
                self.line.append((kind, o))
                return True
        if m is None or target < m:
            self.memo[key] = target
        return False
