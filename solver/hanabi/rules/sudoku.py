"""Sudoku's stacks, as hanab.live's server builds them (``variantSudokuPlay``,
``variantSudokuGetMaxScore``, ``sudokuWalkUpAll``, ``variantSudokuCheckAllDead`` in its
``server/src/variants_sudoku.go``; docs/variants.md).

With N suits and ranks 1..N (the stack size: 4 or 5), each stack starts with any rank that
no other stack started with, then climbs one rank at a time, wrapping from N to 1, and is
complete after N cards (with the rank below its start). The engine keeps, per stack, its
height (the cards played) and its start (0 before its first card); these functions are the
rules on those numbers, ``n`` being the stack size.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import permutations


def fits(rank: int, height: int, start: int, starts: Collection[int], n: int) -> int:
    """The stack's start once a card of ``rank`` plays on it (``height`` cards played,
    ``start`` its first rank or 0; ``starts`` the other stacks' starts), or -1 if the card
    does not play there (a misplay)."""
    if height >= n:
        return -1  # complete
    if height == 0:
        return -1 if rank in starts else rank
    return start if rank == (start - 1 + height) % n + 1 else -1


def walk(start: int, height: int, n: int, live: Collection[int]) -> int:
    """The height a stack started (or to be started) at ``start`` can reach from ``height``,
    ``live`` being the ranks of its suit with a copy in a hand or the deck."""
    h = height
    while h < n and (start - 1 + h) % n + 1 in live:
        h += 1
    return h


def reach(heights: Sequence[int], starts: Sequence[int], n: int, live: Sequence[Collection[int]]) -> tuple[int, ...]:
    """Per stack, the height it reaches in a best assignment of the free starts to the
    stacks not yet started (all assignments tried: at most 5! of them); the sum is the most
    the cards still allow, ignoring time."""
    out = [walk(s, h, n, live[i]) if s else 0 for i, (h, s) in enumerate(zip(heights, starts))]
    open_ = [i for i, s in enumerate(starts) if not s]
    free = [v for v in range(1, n + 1) if v not in starts]
    best = -1
    pick: tuple[int, ...] = ()
    for chosen in permutations(free, len(open_)):
        total = sum(walk(v, 0, n, live[i]) for i, v in zip(open_, chosen))
        if total > best:
            best, pick = total, chosen
    for i, v in zip(open_, pick):
        out[i] = walk(v, 0, n, live[i])
    return tuple(out)


def useful(rank: int, height: int, start: int, starts: Collection[int], n: int, live: Collection[int]) -> bool:
    """A card of ``rank`` can still be played on its stack: started, it comes above the
    stack and within its reach; not started, some free start reaches it."""
    if height >= n:
        return False
    for s in ((start,) if start else [v for v in range(1, n + 1) if v not in starts]):
        top = walk(s, height, n, live)
        if any((s - 1 + p - 1) % n + 1 == rank for p in range(height + 1, top + 1)):
            return True
    return False


def site_max_score(starts: Sequence[int], n: int, dead: Sequence[Collection[int]]) -> int:
    """hanab.live's maximum score, as its server computes it (``variantSudokuGetMaxScore``),
    ``dead[i]`` being the ranks of suit i with every copy discarded. Its per-start walks
    (``sudokuWalkUpAll``) give every start in a run of live ranks the whole run's length, so
    it can exceed what the cards allow (the browser's own function does not); the site ends
    a game when the score reaches it, and otherwise when nothing can be played."""
    total = 0
    unassigned: list[list[int]] = []
    for i, start in enumerate(starts):
        all_live, scores = _walk_up_all(dead[i], n)
        if all_live:
            total += n
        elif start:
            total += scores[start - 1]
        else:
            unassigned.append(scores)
    if not unassigned:
        return total
    free = [v for v in range(1, n + 1) if v not in starts]
    best = 0
    for chosen in permutations(free, len(unassigned)):
        best = max(best, sum(scores[v - 1] for scores, v in zip(unassigned, chosen)))
    return total + best


def _walk_up_all(dead: Collection[int], n: int) -> tuple[bool, list[int]]:
    """The server's ``sudokuWalkUpAll``, as it is: (no rank dead, per start 1..n its score)."""
    scores = [n] * n
    last_dead = -1
    for cur in range(n):
        if cur + 1 in dead:
            for w in range(last_dead + 1, cur):
                scores[w] = cur - last_dead - 1
            scores[cur] = 0
            last_dead = cur
    if last_dead == -1:
        return True, scores
    for w in range(last_dead + 1, n):
        scores[w] = min(scores[0] + n - w, n)
    return False, scores


def all_dead(heights: Sequence[int], starts: Sequence[int], n: int, live: Sequence[Collection[int]]) -> bool:
    """No stack's next card is left in a hand or the deck (the server's
    ``variantSudokuCheckAllDead`` before any card is marked unplayable): a started stack
    needs its next rank, one not started any free start."""
    free = [v for v in range(1, n + 1) if v not in starts]
    for i, (h, s) in enumerate(zip(heights, starts)):
        if h >= n:
            continue
        want = [(s - 1 + h) % n + 1] if s else free
        if any(r in live[i] for r in want):
            return False
    return True
