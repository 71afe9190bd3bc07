"""The two puzzle questions on the solver's public API (definitions: docs/hand.md,
"Endgame puzzles"), and what a puzzle derives from them: the classes of equivalent
cards, the natural cards, the stated line, its depth and the difficulty.

- ``safe`` (paranoid): a card *keeps* the question if after it the puzzle's seat can
  still force exactly its bid (its round total), the other three playing against it;
- ``table`` (cooperative): a card keeps it if after it some legal play of all four
  ends with every seat taking exactly its bid.

Every answer comes with a node budget; an undecided one is ``None``, never a guess.
"""
from __future__ import annotations

from solver.hand import equivalent_groups, reachable, seat_bounds
from solver.hand.rules import Card, Position, cards_of

from .format import DIFFICULTIES, SAFE

NODES = 300_000  # per search; endgames of 3-5 cards a hand need far fewer


def after(p: Position, card: int) -> Position:
    return p.after(Card(card))


def keeps(p: Position, kind: str, seat: int, bids: tuple[int, int, int, int], nodes: int = NODES) -> bool | None:
    """Does ``p`` still keep the question's promise? (None: undecided within the budget)"""
    if p.is_over:
        return p.taken[seat] == bids[seat] if kind == SAFE else p.taken == bids
    if kind == SAFE:
        exact = seat_bounds(p, seat, nodes=nodes).exact
        return None if exact is None else bids[seat] in exact
    vectors = reachable(p, nodes=nodes).vectors
    return None if vectors is None else bids in vectors


def classes(p: Position) -> list[tuple[int, ...]]:
    """The mover's legal cards in classes of equivalent cards (highest card first)."""
    return [tuple(g) for g in equivalent_groups(p)]


def natural_cards(p: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the legal cards of the lowest rank, the legal cards of the highest rank): the
    cards a player plays without thinking, "lowest" and "highest"."""
    legal = cards_of(p.legal_mask())
    lo = min(c & 7 for c in legal)
    hi = max(c & 7 for c in legal)
    return tuple(c for c in legal if c & 7 == lo), tuple(c for c in legal if c & 7 == hi)


def choices(p: Position, kind: str, seat: int, bids: tuple[int, int, int, int],
            nodes: int = NODES) -> list[tuple[tuple[int, ...], bool | None]]:
    """Each class of the mover's legal cards with whether it keeps the question."""
    return [(g, keeps(after(p, g[0]), kind, seat, bids, nodes)) for g in classes(p)]


def stated_line(p: Position, kind: str, seat: int, bids: tuple[int, int, int, int],
                nodes: int = NODES) -> tuple[list[int], int] | None:
    """A line from ``p`` to the end of the round that keeps the question, and its depth.

    ``safe``: the puzzle's seat plays the highest class that keeps its guarantee, the
    others their highest class (any play of theirs keeps it). ``table``: every seat plays
    the highest class that keeps every bid makeable. The *depth* counts the puzzle's
    seat's decisions on the line (its turns, the first included) where exactly one of two
    or more classes keeps the question. None if a search is undecided
    or nothing keeps it (the question has no answer)."""
    line: list[int] = []
    depth = 0
    while not p.is_over:
        gs = classes(p)
        decide = kind != SAFE or p.to_move == seat
        if not decide:
            pick = gs[0][0]
        else:
            good = []
            for g in gs:
                k = keeps(after(p, g[0]), kind, seat, bids, nodes)
                if k is None:
                    return None
                if k:
                    good.append(g)
            if not good:
                return None
            if len(good) == 1 and len(gs) >= 2 and p.to_move == seat:
                depth += 1
            pick = good[0][0]
        line.append(pick)
        p = after(p, pick)
    return line, depth


def rating_of(depth: int, wrong: int) -> int:
    """Two points per decision of the line where one class alone keeps the question, one
    per wrong class at the puzzle's position (the tempting cards)."""
    return 2 * depth + wrong


def difficulty_of(rating: int) -> str:
    """easy below 6, medium 6 or 7, hard 8 and up (see docs/hand.md)."""
    return DIFFICULTIES[0] if rating < 6 else DIFFICULTIES[1] if rating < 8 else DIFFICULTIES[2]
