"""Up or Down's stacks, as hanab.live's server builds them (``variantReversiblePlay``,
``variantReversibleGetMaxScore``, ``variantReversibleCheckAllDead`` in its
``server/src/variants_reversible.go``; docs/variants.md).

A stack starts undecided. Its first card is its 1 (the stack then goes up), its top rank
(then down) or its START card (rank :data:`~.variant.START_RANK`; still undecided: a 2 then
sends it up, the rank below the top down). Going up, each card is one rank above the
last; going down, one below; the stack is complete with its top rank (up) or its 1
(down), after as many cards as the suit's stack size.

The engine keeps, per stack, its height (the cards played on it) and its direction; these
functions are the rules on those two numbers and a card's rank. ``top`` is the stack size
(:attr:`~.variant.Suit.max_rank`).
"""
from __future__ import annotations

from collections.abc import Collection

from .variant import START_RANK

UNDECIDED, UP, DOWN = 0, 1, 2
DIRECTION_NAMES = ("undecided", "up", "down")


def fits(rank: int, height: int, direction: int, top: int) -> int:
    """The stack's direction once a card of ``rank`` is played on it at ``height`` in
    ``direction``, or -1 if the card does not play there (a misplay)."""
    if height >= top:
        return -1  # complete: nothing more plays
    if direction == UNDECIDED:
        if height == 0:
            return UP if rank == 1 else DOWN if rank == top else UNDECIDED if rank == START_RANK else -1
        # a START card is on the stack
        return UP if rank == 2 else DOWN if rank == top - 1 else -1
    if rank == START_RANK:
        return -1
    if direction == UP:
        return UP if rank == height + 1 else -1
    return DOWN if rank == top - height else -1


def needed(position: int, direction: int, top: int) -> tuple[int, ...]:
    """The ranks that can be the ``position``-th card (1 = the first) of a stack going
    ``direction`` (UP or DOWN): the first is its 1 (up) or top rank (down), or the START
    card; then each next rank up or down."""
    if position == 1:
        return (1 if direction == UP else top, START_RANK)
    return (position,) if direction == UP else (top + 1 - position,)


def reach(height: int, direction: int, top: int, live: Collection[int]) -> int:
    """The highest height the stack can still reach, ``live`` being the ranks of its suit
    with a copy left in a hand or the deck: it climbs while a next card is left; an
    undecided stack takes the better of the two directions (the server's
    ``variantReversibleGetMaxScore``)."""
    if direction == UNDECIDED:
        return max(reach(height, UP, top, live), reach(height, DOWN, top, live))
    h = height
    while h < top and any(r in live for r in needed(h + 1, direction, top)):
        h += 1
    return h


def useful(rank: int, height: int, direction: int, top: int, live: Collection[int]) -> bool:
    """A card of ``rank`` (not yet played) can still be played on the stack: in a direction
    the stack may still take, it is a card needed at a height above the stack's and within
    its reach."""
    for d in ((UP, DOWN) if direction == UNDECIDED else (direction,)):
        r = reach(height, d, top, live)
        for p in range(height + 1, r + 1):
            if rank in needed(p, d, top):
                return True
    return False
