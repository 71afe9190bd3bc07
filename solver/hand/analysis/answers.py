"""The answers ``hand solve --json`` and ``hand best --json`` print, built in one place for
every front end that gives them (the command line, the board's API): a deal or position
read from text, its bid table, bounds and reachable trick vectors, its best cards."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.hand.rules import Deal, MalformedError, Position, load_json_text
from solver.hand.search.analyses import (
    DEFAULT_COOP_NODES,
    DEFAULT_NODES,
    BestCards,
    BidTable,
    CardChoice,
    Reachability,
    SeatBounds,
    best_cards,
    bid_table,
    reachable,
)


def position_from_text(text: str, where: str) -> tuple[Deal | None, Position]:
    """(the deal if the text is one, its position) of a deal or position in JSON or in the
    notation of docs/hand.md."""
    if text.lstrip().startswith(("{", "[")):  # JSON (an array is an error Position.from_json names)
        obj = load_json_text(text, where)
        if isinstance(obj, dict) and (obj.get("kind") == "deal" or ("dealer" in obj and "leader" not in obj)):
            deal = Deal.from_json(obj, where)
            return deal, deal.position()
        if isinstance(obj, dict) and obj.get("kind") == "game":
            raise MalformedError(f"{where}: a game; give a deal or a position (hand replay reads games)")
        return None, Position.from_json(obj, where)
    first = text.strip().splitlines()[0] if text.strip() else ""
    if first.lower().startswith("dealer") or (";" not in first and not first.lower().startswith("leader")):
        try:
            deal = Deal.parse(" ".join(text.split()), where)
            return deal, deal.position()
        except MalformedError as e:
            if "not a deal" not in str(e):
                raise
    return None, Position.parse(" ".join(text.split()), where)


def all_vectors(pos: Position) -> list[tuple[int, int, int, int]]:
    """Every trick vector a round could end with from ``pos`` (each seat at least its
    taken tricks, the tricks left shared out)."""
    n = pos.tricks_left
    t = pos.taken
    out = []
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                out.append((t[0] + a, t[1] + b, t[2] + c, t[3] + n - a - b - c))
    return out


@dataclass(frozen=True)
class Solved:
    """What ``hand solve`` computes for a position."""

    table: BidTable
    reach: Reachability | None  # None: not asked for
    vectors: list[tuple[int, int, int, int]] | None  # the reachable ones (None: unknown or not asked)
    possible: list[tuple[int, int, int, int]]
    missing: list[tuple[int, int, int, int]] | None
    complete: bool


def solve_position(pos: Position, where: str, seat: int | None = None, rule: str = "exact", *,
                   with_reachable: bool = True, nodes: int | None = None) -> Solved:
    """The bid table (of ``seat`` or every seat), the bounds and, ``with_reachable``, the
    cooperative trick vectors of ``pos``."""
    if pos.is_over:
        raise MalformedError(f"{where}: the round is over (no card left to play)")
    table = bid_table(pos, seat, rule, nodes=nodes or DEFAULT_NODES)
    reach = reachable(pos, nodes=nodes or DEFAULT_COOP_NODES) if with_reachable else None
    vectors = None if reach is None or reach.vectors is None else sorted(reach.vectors)
    possible = all_vectors(pos)
    missing = None if vectors is None else [v for v in possible if v not in set(vectors)]
    complete = table.complete and (reach is None or reach.vectors is not None)
    return Solved(table, reach, vectors, possible, missing, complete)


def solve_json(pos: Position, deal: Deal | None, rule: str, r: Solved) -> dict[str, Any]:
    """``hand solve --json``."""
    out: dict[str, Any] = {
        "position": pos.to_json(), "rule": rule,
        "seats": [{"seat": row.seat, "most": row.bounds.most, "fewest": row.bounds.fewest,
                   "exact": None if row.bounds.exact is None else list(row.bounds.exact),
                   "scores": list(row.scores), "best_bid": row.best_bid, "best_score": row.best_score}
                  for row in r.table.rows],
        "reachable": None if r.vectors is None else [list(v) for v in r.vectors],
        "unreachable": None if r.missing is None else [list(v) for v in r.missing],
        "nodes": {"paranoid": r.table.nodes, "cooperative": None if r.reach is None else r.reach.nodes},
        "complete": r.complete}
    if deal is not None:
        out["deal"] = deal.to_json()
    return out


@dataclass(frozen=True)
class Best:
    """What ``hand best`` computes: the choices best first, the best ones."""

    result: BestCards
    choices: list[CardChoice]
    best: list[CardChoice]

    def bounds_of(self, ch: CardChoice) -> SeatBounds:
        return ch.bounds if ch.bounds is not None else SeatBounds(self.result.seat, None, None, None)


def best_position(pos: Position, where: str, bid: int | None = None, rule: str = "exact", *,
                  nodes: int | None = None) -> Best:
    """Each distinct legal card of the seat to move, with what it still guarantees, best
    first."""
    if pos.is_over:
        raise MalformedError(f"{where}: the round is over (no card left to play)")
    res = best_cards(pos, bid, rule, bounds=True, nodes=nodes or DEFAULT_NODES)
    out = Best(res, [], [])

    def key(ch: CardChoice) -> tuple[int, int]:
        sc = ch.score if ch.score is not None else -1000
        most = out.bounds_of(ch).most
        return (-sc if res.bid is not None else 0, -(most if most is not None else -1))

    choices = sorted(res.choices, key=key)
    best_ids = {id(c) for c in res.best}
    return Best(res, choices, [ch for ch in choices if id(ch) in best_ids])


def best_json(b: Best, rule: str) -> dict[str, Any]:
    """``hand best --json``."""
    res = b.result
    return {
        "seat": res.seat, "bid": res.bid, "rule": rule,
        "cards": [{"cards": [str(c) for c in ch.cards], "score": ch.score, "most": b.bounds_of(ch).most,
                   "fewest": b.bounds_of(ch).fewest,
                   "exact": None if b.bounds_of(ch).exact is None else list(b.bounds_of(ch).exact or ())}
                  for ch in b.choices],
        "best": [str(ch.cards[0]) for ch in b.best], "nodes": res.nodes}


__all__ = ["Best", "Solved", "all_vectors", "best_json", "best_position", "position_from_text",
           "solve_json", "solve_position"]
