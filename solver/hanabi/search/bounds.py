"""Admissible upper bounds on the final score, each with a plain-words reason.

All bounds hold for every line from the position (they never cut a reachable score); the
arguments are written out in docs/bounds.md:

- *reach*: a suit can only climb while every next rank still has a copy in a hand or the
  deck ("both r4 discarded").
- *pace*: before the deck runs out, exactly one play-or-discard turn draws each of the D
  remaining cards; then each player has one more turn. So at most D + players more plays.
- *late cards*: a card first available at deck depth d (drawn by the d-th remaining draw)
  and every higher rank of its suit can only be played in the D - d + players play-capable
  turns after that draw ("r5 is drawn too late").
- *hand capacity*: a needed card whose every copy is drawn but which waits for a lower rank
  must stay in a hand; at each play or discard the hands hold players x hand size - 1 cards
  besides the one leaving, so the cards over that count are lost ("the hands hold 9").
- *final round*: once the deck is empty, each remaining turn is one player's, who can play
  at most one of their own cards.
"""
from __future__ import annotations

from typing import Final

from .position import Position

# Entries kept in a Position's cache of the timing arguments (quick_bound) before it is
# emptied: about 100 bytes each, so at most some 25 MB; emptying only costs recomputation.
LATE_MEMO_CAP: Final = 1 << 18


def quick_bound(pos: Position) -> int:
    """The tightest of the bounds, as a number (hot path of the search)."""
    ub = 0
    for r in pos.reach:
        ub += r
    score = pos.score
    if ub == score:
        return ub
    n = pos.n
    if pos.tl >= 0:
        # final round: each remaining turn is one player's single chance to play
        cur, hands, cls = pos.cur, pos.hands, pos.cls
        extra = 0
        for i in range(pos.tl):
            p = (cur + i) % n
            for o in hands[p]:
                if cls(o):
                    extra += 1
                    break
        return min(ub, score + extra)
    D = pos.deck_len - pos.nd
    slots = D + n
    if ub > score + slots:
        ub = score + slots
    # the two timing arguments depend on the position only through the next draw, the
    # stacks and which classes the hands hold (reach follows from those: a class has a
    # copy left iff one is held or in the deck from nd on); many nodes share them (every
    # clue, and most transpositions), so their result is kept per Position, keyed on those
    suit, rank = pos.suit, pos.rank
    key = 0
    for h in pos.hands:
        for o in h:
            key |= 1 << (suit[o] * 8 + rank[o])
    for st in pos.stacks:
        key = key << 4 | st
    key = key << 8 | pos.nd
    memo = pos.late_memo
    v = memo.get(key)
    if v is None:
        late, _, excess, _ = _late_plays(pos, D)
        v = late << 8 | excess
        if len(memo) >= LATE_MEMO_CAP:
            memo.clear()
        memo[key] = v
    excess = v & 255
    if excess:
        ub -= excess
    return min(ub, score + (v >> 8))


def _late_plays(pos: Position, D: int) -> tuple[int, int | None, int, int | None]:
    """Two timing arguments over the needed cards, in one pass.

    For each needed card (suit s, rank r): f = the depth of its first copy (0 if a copy is
    in a hand), l = the depth of its last copy (0 if none is left in the deck), and pm =
    the largest f among the needed ranks below r (it cannot be played before that draw).

    *Late cards*: every rank above a card is played after it, so with forced(d) = the needed
    cards whose prefix maximum of f is >= d, those plays come after the d-th draw, where only
    D - d + players play-capable turns are left (1 for the bottom card: its drawer plays it
    on the last turn of the game, unless it may be played from the deck).

    *Hand capacity*: a needed card with every copy drawn by the d-th draw (l <= d) above a
    needed rank whose first copy comes at the d-th draw or later (r is not the next rank to
    play, pm >= d) is still unplayed when the next play or discard is made: between two draws
    there is exactly one play or discard, and the lower rank must be played first. At that
    moment the hands hold players x hand size - 1 cards besides the one leaving (which,
    being one of these, would be lost), so each such card over that count is lost, and each
    lost needed card costs at least one point. This needs a hand card to leave before the
    next draw, so d runs over every draw but the last (with deck plays, but the last two: the
    last card may be played from the deck); the depths left out add nothing (docs/bounds.md).

    Returns (max plays, late-cards depth or None, capacity excess, capacity depth)."""
    n = pos.n
    nd = pos.nd
    suit, rank = pos.suit, pos.rank
    held = [False] * len(pos.cnt)  # by class: a copy is in a hand
    for h in pos.hands:
        for o in h:
            held[suit[o] * 8 + rank[o]] = True
    stacks, reach, next_pos, last_pos = pos.stacks, pos.reach, pos.next_pos, pos.last_pos
    pms: list[int] = []
    spans: list[tuple[int, int]] = []  # (first depth it must be held, last depth) for the capacity argument
    for s in range(pos.nsuits):
        top = reach[s]
        r = stacks[s] + 1
        if r > top:
            continue
        base = s * 8
        pm = 0
        first = r
        while r <= top:
            c = base + r
            lo = last_pos[c] - nd + 1
            if pm >= lo and r > first:
                spans.append((lo if lo > 0 else 0, pm))
            if not held[c]:
                f = next_pos[c][nd] - nd + 1
                if f > pm:
                    pm = f
            pms.append(pm)
            r += 1
    K = len(pms)
    best = K
    arg: int | None = None
    pms.sort(reverse=True)
    extra = 1 if pos.deck_plays else 0
    bottom, after = 1 + extra * n, D + n + extra  # _turns_after(pos, v, D), inlined (hot path)
    j = 0
    for v in pms:
        if v == 0:
            break
        j += 1
        cap = bottom if v == D else after - v
        if cap < j:
            b = K - j + cap
            if b < best:
                best = b
                arg = v
    excess = 0
    cap_d: int | None = None
    slots = pos.slots
    full = D - extra  # the depths before which a hand card leaves (see above)
    if len(spans) >= slots and full > 0:
        # the most spans covering one depth
        diff = [0] * (D + 2)
        for lo, hi in spans:
            diff[lo] += 1
            diff[hi + 1] -= 1
        cur = 0
        room = slots - 1  # what the hands hold besides the card leaving
        for d in range(full):
            cur += diff[d]
            if cur - room > excess:
                excess = cur - room
                cap_d = d
    return best, arg, excess, cap_d


def _turns_after(pos: Position, d: int, D: int) -> int:
    """The play-capable turns left after the d-th of the D remaining draws: D - d + players
    (one more with deck plays); for the bottom card only its drawer's last turn (or, with
    deck plays, every player's turn of the final round after playing it from the deck)."""
    extra = 1 if pos.deck_plays else 0
    return (1 + extra * pos.n) if d == D else D - d + pos.n + extra


def named_bound(pos: Position) -> tuple[int, str, str]:
    """The root's upper bound with its kind and reason in words."""
    g = pos.game
    v = g.variant
    score = pos.score
    ub = sum(pos.reach)
    kind, reason = "perfect", f"the perfect score of {v.name} is {pos.perfect}"
    if ub < pos.perfect:
        lost: list[str] = []
        for s, suit in enumerate(v.suits):
            if pos.reach[s] < suit.max_rank:
                r = pos.reach[s] + 1
                k = len(g.orders_of[s][r])  # (the cards that play at that height: a reversed
                name = g.height_names[s][r]  # suit's are named by their rank, "r2" at height 4)
                if k == 0:  # a custom variant without this rank: the suit stops below it
                    lost.append(f"{name}: the variant has no {name}")
                else:
                    lost.append(f"{name}: all {k} cop{'y' if k == 1 else 'ies'} gone")
        kind, reason = "discards", "; ".join(lost) + f" (at most {ub})"
    n = pos.n
    if pos.tl >= 0:
        q = quick_bound(pos)
        if q < ub:
            return q, "final_round", f"{pos.tl} turns left in the final round allow at most {q - score} more plays"
        return ub, kind, reason
    D = pos.deck_len - pos.nd
    if score + D + n < ub:
        ub = score + D + n
        kind, reason = "pace", (f"{D} card{'s' if D != 1 else ''} in the deck + {n} final turns "
                                f"allow at most {D + n} more plays (at most {ub})")
    late, d, excess, cap_d = _late_plays(pos, D)
    if excess and sum(pos.reach) - excess < ub:
        ub = sum(pos.reach) - excess
        kind = "capacity"
        when = "at the next play or discard" if cap_d == 0 else f"at the play or discard after draw {cap_d} from now"
        reason = (f"{when}, {pos.slots - 1 + excess} needed cards must still be held (every copy drawn, a lower "
                  f"rank not yet played) but the hands then hold {pos.slots - 1} besides the card leaving "
                  f"(at most {ub})")
    if score + late < ub and d is not None:  # d is None only when late adds no bound
        o = pos.nd + d - 1
        card = g.deck[o].to_str(v)
        ub = score + late
        kind = "late_cards"
        reason = (f"cards first available at deck depth {d} or deeper (e.g. {card}, card #{o}) and the ranks "
                  f"above them need more plays than the {_turns_after(pos, d, D)} play-capable turns left "
                  f"after that draw (at most {ub})")
    return ub, kind, reason
