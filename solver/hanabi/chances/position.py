"""The chance search's own position: every hand known, the draw pile a multiset.

Cards are classes, ``suit * 8 + height`` (the engine's ``Game.rank_of``: the height a card
plays to), never deck orders: nobody knows which card is drawn next, only how many of each
class are left in the pile (``deck[c]``, ``dn`` in all). A move names the mover's card by
its index in the hand (``PLAY`` or ``DISCARD``; a failed ``PLAY`` is a misplay) or is a
clue (``CLUE``: a stall that costs a token; its content is chosen when the move is mapped
back to the engine). A move that takes a card from the hand while the pile is not empty
draws one: :meth:`ChancePos.push` is told which class (the chance event is the search's).

Everything here mirrors the deck-known search's :class:`solver.hanabi.search.position.Position`
(which in turn mirrors the engine, :class:`solver.hanabi.rules.State`): the same trash classes,
stack and token rules, the same ends (strikes, a perfect score, the final round, and
hanab.live's own ends). ``tests/test_chances.py`` replays every move against the engine.

Kept out: which card of the pile is which. The transposition key (:meth:`key`) holds the
pile as the counts of its useful classes and one count of trash (trash never becomes
useful again: stacks only grow and discards only pile up), and the hands as sorted
classes with trash and a second copy of a class in one hand as 0 (only one copy can ever
be played). Where some card no clue touches, untouched trash keeps a class of its own (7),
in the hands and in the pile's trash count: whether a hand can be clued depends on it.

Compiled with mypyc with the other kernels (:mod:`solver.hanabi.chances.kernel`): real types,
``Final`` constants.
"""
from __future__ import annotations

from typing import Final

PLAY: Final = 0
DISCARD: Final = 1
CLUE: Final = 2
FROM_PILE: Final = -2  # a move's card index for the play of the pile's last card (deck plays)
TRASH: Final = 0  # the key's class of trash (and of a second copy in one hand)
UNTOUCHED: Final = 7  # the key's class of trash no clue touches (no suit has a height 7)
SEP: Final = 255


class Facts:
    """The fixed facts of the game a position belongs to (a plain record, built by
    :func:`solver.hanabi.chances.build.position_of`)."""

    n: int  # players
    nsuits: int
    max_rank: list[int]  # per suit
    max_clues: int  # in units (clue_cost units a token)
    clue_cost: int
    stack_token: bool  # a completed stack gives a unit
    strike_limit: int
    keep_stacks: bool  # a strike-out keeps the stacks' score (else it scores 0)
    perfect: int
    site_end: bool  # the game also ends as hanab.live ends it
    discard_at_max: bool  # a discard is legal at the maximum of tokens (inverted suits)
    touch: list[bool]  # per class: some clue touches it
    all_touch: bool  # every card can be clued, or a clue may touch nothing
    empty_clues: bool  # a clue may touch nothing
    deck_plays: bool  # the pile's last card may be played from the pile (it is known then)

    def __init__(self, n: int, nsuits: int, max_rank: list[int], max_clues: int, clue_cost: int,
                 stack_token: bool, strike_limit: int, keep_stacks: bool, perfect: int, site_end: bool,
                 discard_at_max: bool, touch: list[bool], all_touch: bool, empty_clues: bool,
                 deck_plays: bool) -> None:
        self.n = n
        self.nsuits = nsuits
        self.max_rank = max_rank
        self.max_clues = max_clues
        self.clue_cost = clue_cost
        self.stack_token = stack_token
        self.strike_limit = strike_limit
        self.keep_stacks = keep_stacks
        self.perfect = perfect
        self.site_end = site_end
        self.discard_at_max = discard_at_max
        self.touch = touch
        self.all_touch = all_touch
        self.empty_clues = empty_clues
        self.deck_plays = deck_plays


class ChancePos:
    """A position: the hands (classes), the pile (class counts), stacks, tokens, strikes,
    the player to move and the final round's turns left (``tl``, -1 before it)."""

    f: Facts
    n: int
    hands: list[list[int]]
    deck: list[int]  # per class: copies in the pile
    dn: int  # cards in the pile
    cnt: list[int]  # per class: copies in a hand or the pile
    stacks: list[int]
    reach: list[int]  # per suit: the highest height still reachable by the cards
    top: int  # sum of reach
    score: int
    clues: int
    strikes: int
    cur: int
    tl: int
    over: bool
    final_score: int
    _undo: list[tuple[int, int, int, int, int, int, bool, int, int, int, int, bool]]  # see push

    def __init__(self, f: Facts, hands: list[list[int]], deck: list[int], stacks: list[int], clues: int,
                 strikes: int, cur: int, tl: int, over: bool, final_score: int) -> None:
        self.f = f
        self.n = f.n
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.dn = sum(deck)
        self.cnt = list(deck)
        for h in self.hands:
            for c in h:
                self.cnt[c] += 1
        self.stacks = list(stacks)
        self.reach = [self._reach(s) for s in range(f.nsuits)]
        self.top = sum(self.reach)
        self.score = sum(stacks)
        self.clues = clues
        self.strikes = strikes
        self.cur = cur
        self.tl = tl
        self.over = over
        self.final_score = final_score
        self._undo = []

    def _reach(self, s: int) -> int:
        r = self.stacks[s]
        top = self.f.max_rank[s]
        cnt = self.cnt
        base = s * 8
        while r < top and cnt[base + r + 1]:
            r += 1
        return r

    def useful(self, c: int) -> bool:
        """Class ``c`` can still score: above its stack, within reach."""
        s = c >> 3
        return self.stacks[s] < (c & 7) <= self.reach[s]

    def playable(self, c: int) -> bool:
        return (c & 7) == self.stacks[c >> 3] + 1

    # ---- the transposition key ---------------------------------------------
    def hand_key(self, hand: list[int]) -> list[int]:
        """The hand as the key holds it: sorted classes, trash and second copies 0 (7 for
        untouched trash where that matters)."""
        out: list[int] = []
        stacks = self.stacks
        reach = self.reach
        all_touch = self.f.all_touch
        for c in hand:
            s = c >> 3
            r = c & 7
            if stacks[s] < r <= reach[s] and c not in out:
                out.append(c)
            elif all_touch or self.f.touch[c]:
                out.append(TRASH)
            else:
                out.append(UNTOUCHED)
        out.sort()
        return out

    def key(self) -> bytes:
        """Everything the value depends on, the target and objective fixed: the player to
        move, tokens, strikes, final-round turns, stacks, the hands as multisets (trash and
        second copies merged), the pile's useful classes and its trash counts."""
        b = bytearray((self.cur, self.clues, self.strikes, self.tl + 1))
        b.extend(self.stacks)
        for h in self.hands:
            b.append(SEP)
            b.extend(self.hand_key(h))
        b.append(SEP)
        trash = 0
        untouched = 0
        deck = self.deck
        touch = self.f.touch
        all_touch = self.f.all_touch
        stacks = self.stacks
        reach = self.reach
        for c in range(len(deck)):
            k = deck[c]
            if k:
                s = c >> 3
                if stacks[s] < (c & 7) <= reach[s]:
                    b.append(c)
                    b.append(k)
                elif all_touch or touch[c]:
                    trash += k
                else:
                    untouched += k
        b.append(SEP)
        b.append(trash)
        b.append(untouched)
        return bytes(b)

    # ---- draws ---------------------------------------------------------------
    def draw_groups(self) -> list[tuple[int, int]]:
        """The chance event of a draw: ``(class, copies)`` per distinct outcome — each
        useful class in the pile, then one trash class for all trash (two where untouched
        trash differs), standing for all of it with the copies of all of it."""
        out: list[tuple[int, int]] = []
        deck = self.deck
        touch = self.f.touch
        all_touch = self.f.all_touch
        trash_rep = -1
        trash = 0
        un_rep = -1
        untouched = 0
        for c in range(len(deck)):
            k = deck[c]
            if not k:
                continue
            if self.useful(c):
                out.append((c, k))
            elif all_touch or touch[c]:
                trash += k
                if trash_rep < 0:
                    trash_rep = c
            else:
                untouched += k
                if un_rep < 0:
                    un_rep = c
        if trash:
            out.append((trash_rep, trash))
        if untouched:
            out.append((un_rep, untouched))
        return out

    # ---- moves -------------------------------------------------------------
    def can_clue(self) -> bool:
        f = self.f
        if self.clues < f.clue_cost:
            return False
        if f.empty_clues:
            return True
        me = self.cur
        for p in range(self.n):
            if p != me:
                for c in self.hands[p]:
                    if f.all_touch or f.touch[c]:
                        return True
        return False

    def sort_hand(self) -> tuple[list[int], int, list[int]]:
        """Indices in the mover's hand: (playable cards, one per class; a trash card or
        -1; useful cards, one per class). A second copy of a class counts as trash."""
        plays: list[int] = []
        useful: list[int] = []
        seen: list[int] = []
        trash = -1
        hand = self.hands[self.cur]
        for i in range(len(hand)):
            c = hand[i]
            if self.useful(c):
                if c in seen:
                    if trash < 0:
                        trash = i
                    continue
                seen.append(c)
                useful.append(i)
                if self.playable(c):
                    plays.append(i)
            elif trash < 0:
                trash = i
        return plays, trash, useful

    # ---- make / unmake -----------------------------------------------------
    def push(self, kind: int, i: int, draw: int) -> None:
        """Make move ``kind`` with the mover's card at index ``i`` (-1 for a clue,
        ``FROM_PILE`` for the play of the pile's last card, which is known then); a play or
        discard from the hand then draws a card of class ``draw`` (-1: none; the pile must
        then be empty, except when a caller looks at a move before its draw)."""
        f = self.f
        me = self.cur
        hand = self.hands[me]
        c = -1
        ok = False
        old_reach = 0
        drew = False
        rec_clues = self.clues
        rec_strikes = self.strikes
        rec_tl = self.tl
        rec_over = self.over
        rec_final = self.final_score
        if kind == CLUE:
            self.clues -= f.clue_cost
        else:
            if i == FROM_PILE:
                c = self.last_card()
                self.deck[c] -= 1
                self.dn -= 1
            else:
                c = hand.pop(i)
            s = c >> 3
            r = c & 7
            self.cnt[c] -= 1
            if kind == PLAY and r == self.stacks[s] + 1:
                ok = True
                self.stacks[s] = r
                self.score += 1
                if r == f.max_rank[s] and self.clues < f.max_clues and f.stack_token:
                    self.clues += 1
            elif kind == PLAY:
                self.strikes += 1
            elif self.clues < f.max_clues:  # (at the maximum only with inverted suits)
                self.clues += 1
            old_reach = self.reach[s]
            if not ok:
                self.reach[s] = self._reach(s)
                self.top += self.reach[s] - old_reach
            if draw >= 0:
                hand.append(draw)
                self.deck[draw] -= 1
                self.dn -= 1
                drew = True
        self._undo.append((kind, i, c, me, rec_clues, rec_strikes, rec_over, rec_final, rec_tl, old_reach,
                           draw if drew else -1, ok))
        # end of turn
        if self.strikes >= f.strike_limit:
            self.over = True
            self.final_score = self.score if f.keep_stacks else 0
        elif ok and self.score == f.perfect:
            self.over = True
            self.final_score = self.score
        if self.tl >= 0:
            self.tl -= 1
            if self.tl == 0 and not self.over:
                self.over = True
                self.final_score = self.score
        elif (drew or i == FROM_PILE) and self.dn == 0:
            self.tl = self.n
        self.cur = me + 1 if me + 1 < self.n else 0
        if f.site_end and not self.over:
            # hanab.live's own ends: nothing more can be scored, or no player still to act
            # in the final round holds a card that extends a stack
            if self.score == self.top or (self.tl >= 0 and not self._live_play()):
                self.over = True
                self.final_score = self.score

    def _live_play(self) -> bool:
        n = self.n
        for k in range(self.tl):
            for c in self.hands[(self.cur + k) % n]:
                if self.playable(c):
                    return True
        return False

    def pop(self) -> None:
        kind, i, c, me, self.clues, self.strikes, self.over, self.final_score, self.tl, old_reach, draw, ok = \
            self._undo.pop()
        self.cur = me
        if kind == CLUE:
            return
        hand = self.hands[me]
        if draw >= 0:
            hand.pop()
            self.deck[draw] += 1
            self.dn += 1
        s = c >> 3
        r = c & 7
        if ok:
            self.stacks[s] = r - 1
            self.score -= 1
        self.cnt[c] += 1
        self.top += old_reach - self.reach[s]
        self.reach[s] = old_reach
        if i == FROM_PILE:
            self.deck[c] += 1
            self.dn += 1
        else:
            hand.insert(i, c)

    def last_card(self) -> int:
        """The class of the pile's only card (the pile holds exactly one)."""
        for c in range(len(self.deck)):
            if self.deck[c]:
                return c
        return -1

    # ---- bounds ------------------------------------------------------------
    def bound(self) -> int:
        """The most the game can still score, for every order of the pile: the reach of
        the cards; before the final round, one play per card left in the pile and one per
        player after it (pace); in the final round, one play per player still to act who
        holds a useful card. (The deck-known search's late-card and hand-capacity bounds
        read where cards lie in the pile: not valid here.)"""
        ub = self.top
        score = self.score
        if ub == score:
            return ub
        n = self.n
        if self.tl >= 0:
            extra = 0
            for k in range(self.tl):
                for c in self.hands[(self.cur + k) % n]:
                    if self.useful(c):
                        extra += 1
                        break
            return min(ub, score + extra)
        return min(ub, score + self.dn + n)
