"""The search's own compact position: cheap ints and lists, make/unmake of abstract moves.

The search never plays clue *content*: a clue is a stall that costs a token (its content is
chosen when the line is replayed in the rules engine). Plays, discards and misplays name a
real card order, so a line maps one-to-one onto engine actions.

Card classes: a card that can still score is identified by ``suit * 8 + rank``; a card that
can never score again (its rank is already on the stack, or a lower rank of its suit is
gone) is trash, class 0. Two hands with the same multiset of classes are interchangeable,
which is what the transposition key uses.

The card queries here (``reach``, ``cls``, ``playable``, ``sort_hand``) are the search's
hot-loop versions of the engine's :meth:`State.reach`, :meth:`State.is_trash` and
:meth:`State.is_playable`, kept incrementally on make/unmake: the definitions live in the
engine, and ``tests/test_consistent.py`` checks these against them after every move of
hundreds of random games.

This module is also compiled with mypyc (see :mod:`solver.hanabi.search.kernel`): its types are
real (ints, lists, annotated attributes; the constants ``Final``, so the compiled code
inlines them), and this source stays the reference the compiled copy must match.
"""
from __future__ import annotations

from typing import Any, Final

from solver.hanabi.rules import Game, State
from solver.hanabi.rules.support import check_solvable

# abstract move kinds; a failed PLAY is a misplay
PLAY: Final = 0
DISCARD: Final = 1
CLUE: Final = 2
UNTOUCHED_TRASH: Final = 7  # hand_key's class of a trash card no clue touches (no suit has a rank 7)
# Alternating Clues, where the rule binds (Game.alternation_binds): a clue move names its
# type, the engine's (cards.COLOR_CLUE, cards.RANK_CLUE); elsewhere a clue move's card is -1
COLOR: Final = 2
RANK: Final = 3
# hand_key's classes of trash cards touched by one clue type only (no suit has a rank 6 or 7)
COLOR_ONLY_TRASH: Final = 6
RANK_ONLY_TRASH: Final = 15


class Position:
    __slots__ = (
        "game", "n", "suit", "rank", "deck_len", "hands", "nd", "stacks", "clues", "strikes",
        "cur", "tl", "cnt", "reach", "max_rank", "max_clues", "strike_limit", "nsuits",
        "score", "deck_plays", "empty_clues", "keep_stacks", "perfect", "_undo",
        "over", "final_score", "next_pos", "last_pos", "slots", "site_end", "top", "touch", "all_touch",
        "discard_at_max", "late_memo", "clue_cost", "stack_token", "alternating", "last_clue", "tkind",
        "free_color", "free_rank", "guarded", "guard_h", "guard_owner", "guard_top",
    )
    game: Game
    n: int  # players
    suit: tuple[int, ...]  # per card order
    rank: tuple[int, ...]
    deck_len: int
    hands: list[list[int]]
    nd: int  # the next card to draw
    stacks: list[int]
    clues: int
    strikes: int
    cur: int
    tl: int  # turns left in the final round, -1 before it
    cnt: list[int]
    reach: list[int]
    max_rank: list[int]
    max_clues: int
    strike_limit: int
    nsuits: int
    score: int
    deck_plays: bool
    empty_clues: bool
    keep_stacks: bool
    perfect: int
    _undo: list[tuple[Any, ...]]
    over: bool
    final_score: int
    next_pos: list[list[int]]  # by class
    last_pos: list[int]  # by class
    slots: int
    site_end: bool
    top: int
    touch: tuple[bool, ...]
    all_touch: bool
    discard_at_max: bool
    late_memo: dict[int, int]  # bounds.quick_bound's cache of the timing arguments
    clue_cost: int  # units a clue costs (2 in Clue Starved, where tokens are counted in halves)
    stack_token: bool  # a completed stack gives a unit (not in Throw It in a Hole)
    alternating: bool  # Alternating Clues where it binds (Game.alternation_binds)
    last_clue: int  # then the type of the last clue (COLOR or RANK), -1 before the first
    tkind: tuple[int, ...]  # per card: bit 1 some color clue touches it, bit 2 some rank clue
    free_color: bool  # a color clue may touch nothing (Game.empty_clue_ok)
    free_rank: bool
    # a game with fixed stacks (Game.with_heights, solver.hanabi.methods.split) whose misplays are guarded:
    # per card, the stack height at which it may not be misplayed (-1: none) while the
    # owner's stack is empty (-1: always)
    guarded: bool
    guard_h: tuple[int, ...]
    guard_owner: tuple[int, ...]
    guard_top: list[int]  # per suit, its cards' highest guard height (-1: none)

    def __init__(self, state: State) -> None:
        g: Game = state.game
        check_solvable(g)
        self.game = g
        self.n = g.num_players
        self.suit = g.suit_of
        self.rank = g.rank_of
        self.deck_len = len(g.deck)
        self.nsuits = g.variant.num_suits
        self.max_rank = list(g.max_rank)
        self.max_clues = g.max_clues  # in units (Game.clue_cost)
        self.clue_cost = g.clue_cost
        self.stack_token = g.stack_token
        self.alternating = g.alternation_binds
        self.last_clue = state.last_clue if self.alternating else -1
        self.tkind = tuple((1 if cm else 0) | (2 if rm else 0) for cm, rm in zip(g.color_mask, g.rank_mask))
        self.free_color = g.empty_clue_ok[COLOR]
        self.free_rank = g.empty_clue_ok[RANK]
        self.guarded = g.guarded
        self.guard_h = g.guard_height
        self.guard_owner = g.guard_owner
        self.guard_top = [-1] * g.variant.num_suits
        for o, gh in enumerate(g.guard_height):
            self.guard_top[g.suit_of[o]] = max(self.guard_top[g.suit_of[o]], gh)
        self.discard_at_max = g.discard_at_max  # inverted suits: a discard is legal at max tokens
        self.strike_limit = g.strike_limit
        self.deck_plays = g.rules.deck_plays
        self.empty_clues = g.free_clues  # empty clues allowed, or a clue kind that may touch nothing
        # per card: some clue touches it; all_touch: a clue is legal whenever another player
        # holds a card (no card is untouchable, or a clue may touch nothing), and Alternating
        # Clues does not bind (where it does, which cards a hand keeps decides the clue types
        # left, as with untouchable cards)
        self.touch = g.touchable
        self.all_touch = (g.all_touchable or g.free_clues) and not g.alternation_binds
        self.keep_stacks = g.rules.strikeout_score == "stacks"
        self.perfect = g.perfect_score
        self.site_end = g.site_end  # the game also ends as hanab.live ends it (State.push)
        self.hands = [list(h) for h in state.hands]
        self.nd = state.next_draw
        self.stacks = list(state.stacks)
        self.clues = state.clues
        self.strikes = state.strikes
        self.cur = state.current
        self.tl = -1 if state.turns_left is None else state.turns_left
        self.score = sum(self.stacks)
        self.over = state.over
        self.final_score = state.score if state.over else -1
        # cnt[s*8+r]: copies of (s, r) still in hands or the deck
        self.cnt = [0] * (8 * self.nsuits + 8)
        for h in self.hands:
            for o in h:
                self.cnt[self.suit[o] * 8 + self.rank[o]] += 1
        for o in range(self.nd, self.deck_len):
            self.cnt[self.suit[o] * 8 + self.rank[o]] += 1
        self.reach = [self._reach(s) for s in range(self.nsuits)]
        self.top = sum(self.reach)  # the most still reachable by the cards (max_reachable)
        # push's records: 8 fields for a clue (9 where Alternating Clues binds), 12 for a play or
        # discard (pop tells them apart by the kind, which mypy cannot follow, hence Any)
        self._undo = []
        self.late_memo = {}
        # by class (suit * 8 + rank, as cnt; lists, not dicts: cheap in the compiled kernel):
        # last_pos[c], the last deck position holding a card of class c (-1 if none);
        # next_pos[c][i], the first deck position >= i holding one (deck_len if none; an
        # empty row for a class the deck does not hold, never read)
        L = self.deck_len
        self.slots = self.n * g.hand_size
        self.last_pos = [-1] * len(self.cnt)
        for o in range(L):
            self.last_pos[self.suit[o] * 8 + self.rank[o]] = o
        self.next_pos = [[] for _ in range(len(self.cnt))]
        for c in {self.suit[o] * 8 + self.rank[o] for o in range(L)}:
            row = [L] * (L + 1)
            nxt = L
            for i in range(L - 1, -1, -1):
                if self.suit[i] * 8 + self.rank[i] == c:
                    nxt = i
                row[i] = nxt
            self.next_pos[c] = row

    def _reach(self, s: int) -> int:
        r = self.stacks[s]
        top = self.max_rank[s]
        base = s * 8
        cnt = self.cnt
        while r < top and cnt[base + r + 1]:
            r += 1
        return r

    def cls(self, o: int) -> int:
        s = self.suit[o]
        r = self.rank[o]
        if self.stacks[s] < r <= self.reach[s]:
            return s * 8 + r
        return 0

    def sort_hand(self, hand: list[int]) -> tuple[list[int], int, list[int]]:
        """(playable cards, one per class; a trash card or -1; useful cards, one per
        class). A second copy of a class in the same hand counts as trash."""
        stacks, reach, suit, rank = self.stacks, self.reach, self.suit, self.rank
        plays: list[int] = []
        useful: list[int] = []
        seen: set[int] = set()
        trash = -1
        for o in hand:
            s = suit[o]
            r = rank[o]
            if stacks[s] < r <= reach[s]:
                c = s * 8 + r
                if c in seen:
                    if trash < 0:
                        trash = o
                    continue
                seen.add(c)
                useful.append(o)
                if r == stacks[s] + 1:
                    plays.append(o)
            elif trash < 0:
                trash = o
        return plays, trash, useful

    def playable(self, o: int) -> bool:
        return self.rank[o] == self.stacks[self.suit[o]] + 1

    def guards_live(self) -> bool:
        """Some guard may still forbid a misplay: a stack is not above its cards' guard
        heights (stacks only grow; Sudoku: a stack is empty, Up or Down: one is at most 1)."""
        if not self.guarded:
            return False
        for s in range(self.nsuits):
            if self.stacks[s] <= self.guard_top[s]:
                return True
        return False

    def misplay_ok(self, o: int) -> bool:
        """Card ``o`` (not playable) may be misplayed: no guard forbids it (the engine's
        :meth:`State.misplay_guarded`)."""
        h = self.guard_h[o]
        if h < 0 or self.stacks[self.suit[o]] != h:
            return True
        t = self.guard_owner[o]
        return t >= 0 and self.stacks[t] > 0

    def hand_key(self, hand: list[int]) -> tuple[int, ...]:
        """The hand as a sorted tuple of classes; trash and second copies of a class in
        the same hand (only one can ever be played) are 0 — or, in a variant with cards
        no clue touches, 7 for such a card (a hand of them cannot be clued)."""
        out: list[int] = []
        stacks, reach, suit, rank = self.stacks, self.reach, self.suit, self.rank
        for o in hand:
            s = suit[o]
            r = rank[o]
            if self.guarded and stacks[s] <= self.guard_h[o]:
                # a guarded card whose guard may still forbid its misplay (stacks only
                # grow): its own class, useful or not, every copy kept
                out.append(s * 8 + r)
                continue
            c = s * 8 + r if stacks[s] < r <= reach[s] else 0
            if c and c in out:
                c = 0
            if not c and not self.all_touch:
                c = self.trash_class(o)
            out.append(c)
        out.sort()
        return tuple(out)

    def trash_class(self, o: int) -> int:
        """hand_key's class of trash card ``o`` where which clues touch a card matters
        (not ``all_touch``): 0 if a clue touches it (of either type where Alternating Clues
        binds), else UNTOUCHED_TRASH, or where the rule binds COLOR_ONLY_TRASH or
        RANK_ONLY_TRASH for a card of one type's clues only."""
        if not self.alternating:
            return 0 if self.touch[o] else UNTOUCHED_TRASH
        k = self.tkind[o]
        return 0 if k == 3 else COLOR_ONLY_TRASH if k == 1 else RANK_ONLY_TRASH if k == 2 else UNTOUCHED_TRASH

    def by_touch(self, cards: list[int]) -> list[int]:
        """The first of ``cards`` that some clue touches and the first that none does (the
        two that differ, when the cards differ only in that); where Alternating Clues
        binds, the first of each set of clue types that touch them."""
        out: list[int] = []
        seen: set[int] = set()
        alt = self.alternating
        for o in cards:
            t = self.tkind[o] if alt else (1 if self.touch[o] else 0)
            if self.guarded and self.stacks[self.suit[o]] <= self.guard_h[o]:  # (a guard still live: by kind)
                t += 4 * (1 + self.suit[o] * 8 + self.rank[o])
            if t not in seen:
                seen.add(t)
                out.append(o)
        return out

    def key(self) -> tuple[int, int, int, int, tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The transposition key: everything but the strikes (fewer strikes are never
        worse, so the table keeps a bound per strike count)."""
        hk = self.hand_key
        # where Alternating Clues binds the last clue's type is part of the clue field
        clues = self.clues * 4 + self.last_clue + 1 if self.alternating else self.clues
        return (
            self.cur, self.nd, clues, self.tl, tuple(self.stacks),
            tuple(hk(h) for h in self.hands),
        )

    def can_clue(self) -> bool:
        if self.clues < self.clue_cost:
            return False
        if self.alternating:
            return bool(self.clue_types())
        if self.empty_clues:
            return True
        me = self.cur
        if self.all_touch:
            return any(self.hands[p] for p in range(self.n) if p != me)
        touch = self.touch
        return any(touch[o] for p in range(self.n) if p != me for o in self.hands[p])

    def clue_types(self) -> list[int]:
        """Where Alternating Clues binds: the clue types (COLOR, RANK) a player may give now
        (tokens permitting): not the last clue's type, and one that may touch nothing or
        touches a card of another player."""
        out: list[int] = []
        me = self.cur
        tkind = self.tkind
        for t, bit, free in ((COLOR, 1, self.free_color), (RANK, 2, self.free_rank)):
            if t == self.last_clue:
                continue
            if free or any(tkind[o] & bit for p in range(self.n) if p != me for o in self.hands[p]):
                out.append(t)
        return out

    def clue_moves(self) -> list[tuple[int, int]]:
        """The clue moves: none without a legal clue; one stall (card -1); or, where
        Alternating Clues binds, one per type that may be given."""
        if self.clues < self.clue_cost:
            return []
        if self.alternating:
            return [(CLUE, t) for t in self.clue_types()]
        return [(CLUE, -1)] if self.can_clue() else []

    # ---- make / unmake ----------------------------------------------------
    def push(self, kind: int, o: int) -> None:
        me = self.cur
        hand = self.hands[me]
        rec: tuple[int, ...] = (kind, o, me, self.clues, self.strikes, self.tl, self.over, self.final_score)
        idx = -1
        drew = False
        ok = False
        if kind == CLUE:
            self.clues -= self.clue_cost
            if self.alternating:  # (a clue's record keeps the type it replaces)
                rec = rec + (self.last_clue,)
                self.last_clue = o
        else:
            if o == self.nd and o not in hand:  # deck play of the last card
                self.nd += 1
                idx = -2
            else:
                idx = hand.index(o)
                del hand[idx]
            s = self.suit[o]
            r = self.rank[o]
            self.cnt[s * 8 + r] -= 1
            if kind == PLAY and r == self.stacks[s] + 1:
                ok = True
                self.stacks[s] = r
                self.score += 1
                if r == self.max_rank[s] and self.clues < self.max_clues and self.stack_token:
                    self.clues += 1
            else:
                if kind == PLAY:
                    self.strikes += 1
                elif self.clues < self.max_clues:  # (at the maximum only with inverted suits)
                    self.clues += 1
            old_reach = self.reach[s]
            self.reach[s] = self._reach(s) if not ok else max(old_reach, r)
            self.top += self.reach[s] - old_reach
            if idx >= 0 and self.nd < self.deck_len:
                hand.append(self.nd)
                self.nd += 1
                drew = True
            rec = rec + (idx, drew, ok, old_reach)
        self._undo.append(rec)
        # end of turn
        if self.strikes >= self.strike_limit:
            self.over = True
            self.final_score = self.score if self.keep_stacks else 0
        elif ok and self.score == self.perfect:
            self.over = True
            self.final_score = self.score
        if self.tl >= 0:
            self.tl -= 1
            if self.tl == 0 and not self.over:
                self.over = True
                self.final_score = self.score
        elif self.nd >= self.deck_len and (drew or idx == -2):
            self.tl = self.n
        self.cur = me + 1 if me + 1 < self.n else 0
        if self.site_end and not self.over:
            # hanab.live's own ends (State.push): nothing more can be scored
            if self.score == self.top or (self.tl >= 0 and not self._live_play()):
                self.over = True
                self.final_score = self.score

    def _live_play(self) -> bool:
        """Final round: one of the next ``tl`` players holds a card that extends a stack."""
        n, stacks, suit, rank, hands = self.n, self.stacks, self.suit, self.rank, self.hands
        cur = self.cur
        for i in range(self.tl):
            for o in hands[(cur + i) % n]:
                if rank[o] == stacks[suit[o]] + 1:
                    return True
        return False

    def pop(self) -> None:
        rec = self._undo.pop()
        kind, o, me, self.clues, self.strikes, self.tl, self.over, self.final_score = rec[:8]
        self.cur = me
        if kind == CLUE:
            if self.alternating:
                self.last_clue = rec[8]
            return
        idx, drew, ok, old_reach = rec[8:]
        hand = self.hands[me]
        if drew:
            hand.pop()
            self.nd -= 1
        s = self.suit[o]
        r = self.rank[o]
        if ok:
            self.stacks[s] = r - 1
            self.score -= 1
        self.cnt[s * 8 + r] += 1
        self.top += old_reach - self.reach[s]
        self.reach[s] = old_reach
        if idx == -2:
            self.nd -= 1
        else:
            hand.insert(idx, o)
