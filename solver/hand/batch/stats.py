"""What one deal allows, every card visible: the record the deal statistics are made of
(``hand analyse``; definitions in docs/hand.md, "Deal statistics").

For each seat its paranoid bounds, exact set and bid table row (:func:`bid_table`: what it
can guarantee against the other three together), and for the table the reachable trick
vectors (:func:`reachable`), kept as a mask over :data:`VECTORS`, the 165 ways to share
the 8 tricks. Every value comes from the solver under a deterministic node budget; a value
it does not decide is ``None``, never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.hand.rules import EXACT, HAND_SIZE, NUM_SEATS, Deal
from solver.hand.search.analyses import DEFAULT_COOP_NODES, DEFAULT_NODES, BidRow, bid_table, reachable


def _vectors() -> tuple[tuple[int, int, int, int], ...]:
    n = HAND_SIZE
    return tuple((a, b, c, n - a - b - c) for a in range(n + 1) for b in range(n + 1 - a) for c in range(n + 1 - a - b))


VECTORS = _vectors()  # every trick vector of a whole round, in lexicographic order (165)
VECTOR_INDEX: dict[tuple[int, ...], int] = {v: i for i, v in enumerate(VECTORS)}
ALL_VECTORS = (1 << len(VECTORS)) - 1


def vector_mask(vectors: frozenset[tuple[int, int, int, int]]) -> int:
    """The mask (bit i: ``VECTORS[i]``) of a set of whole-round trick vectors."""
    m = 0
    for v in vectors:
        m |= 1 << VECTOR_INDEX[v]
    return m


@dataclass(frozen=True)
class DealStats:
    """One deal's record: ``rows[s]`` is seat s's bid-table row (rule ``exact``) with its
    bounds; ``reach`` the mask of the reachable trick vectors over :data:`VECTORS` (None:
    undecided within ``coop_nodes``); the nodes each part used and the budgets."""

    deal: Deal
    rows: tuple[BidRow, ...]
    reach: int | None
    nodes: int
    coop_nodes_used: int
    budget: int
    coop_budget: int

    @property
    def leader(self) -> int:
        return self.deal.leader

    def relative(self, seat: int) -> int:
        """The seat's place counted from the leader (0: it leads the first trick)."""
        return (seat - self.deal.leader) % NUM_SEATS

    @property
    def complete(self) -> bool:
        return self.reach is not None and all(r.complete for r in self.rows)

    @property
    def best_bids(self) -> tuple[int, ...] | None:
        bids = tuple(r.best_bid for r in self.rows)
        return None if any(b is None for b in bids) else bids  # type: ignore[return-value]

    def reachable_count(self) -> int | None:
        return None if self.reach is None else self.reach.bit_count()

    def is_reachable(self, v: tuple[int, int, int, int]) -> bool | None:
        """Can all four together end the round with the trick vector ``v`` (None: unknown)?"""
        if self.reach is None:
            return None
        i = VECTOR_INDEX.get(v)
        return i is not None and bool(self.reach >> i & 1)


def deal_stats(deal: Deal, *, nodes: int = DEFAULT_NODES, coop_nodes: int = DEFAULT_COOP_NODES) -> DealStats:
    """The record of ``deal`` (:class:`DealStats`): every seat's bid table row under the
    exact rule, each seat's searches within ``nodes``, and the reachable vectors within
    ``coop_nodes``."""
    table = bid_table(deal, None, EXACT, nodes=nodes)
    r = reachable(deal, nodes=coop_nodes)
    mask = None if r.vectors is None else vector_mask(r.vectors)
    return DealStats(deal, table.rows, mask, table.nodes, r.nodes, nodes, coop_nodes)


__all__ = ["ALL_VECTORS", "VECTORS", "VECTOR_INDEX", "DealStats", "deal_stats", "vector_mask"]
