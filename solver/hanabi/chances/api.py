"""Endgame chances: the probability of reaching a target, and the expected score, when
every hand is known and the draw pile's order is not (:func:`chances`).

The team is one decision maker that sees every hand and the pile as a multiset; each draw
is uniformly random among the cards left. The values are exact counts over the ``D!``
orders of the ``D`` cards in the pile (:class:`Count`), from the expectimax search of
:mod:`solver.hanabi.chances.search`; past its node budget a value is an interval, never a guess.
Beside them, the deck-known ("clairvoyant") value: the mean over the orders of the best the
team could do knowing the order — what not knowing it costs.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.errors import MalformedError, UnknownOptionError
from solver.hanabi.rules import PLAY, Action, Game, GameRecord, State, as_state

from .build import move_of, position_of
from .kernel import SCORE, WIN, ChancePos, ChanceSearch, move_order

OBJECTIVES = ("win", "score", "both")
DEFAULT_NODES = 2_000_000  # decision nodes expanded per search (each objective, and the clairvoyant value)
CLAIRVOYANT_LIMIT = 5040  # distinct orders of the pile searched one by one for the clairvoyant value


@dataclass(frozen=True)
class Count:
    """A count out of ``den`` (the pile's orders: ``D!``): the orders won, or the sum of
    the final scores over the orders. Exact when ``lo == hi``; else the value lies in
    ``[lo, hi]``."""

    lo: int
    hi: int
    den: int

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def value(self) -> Fraction:
        """The value (the lower end of an interval) as a fraction: a probability or a mean."""
        return Fraction(self.lo, self.den)

    @property
    def upper(self) -> Fraction:
        return Fraction(self.hi, self.den)

    def to_json(self) -> dict[str, Any]:
        def frac(x: int) -> dict[str, Any]:
            f = Fraction(x, self.den)
            return {"num": f.numerator, "den": f.denominator, "value": float(f)}

        if self.exact:
            return {"exact": True, **frac(self.lo), "count": self.lo, "of": self.den}
        return {"exact": False, "lo": frac(self.lo), "hi": frac(self.hi), "count": [self.lo, self.hi], "of": self.den}


@dataclass(frozen=True)
class MoveChance:
    """One distinct move of the player to act: ``actions`` the equivalent legal engine
    actions (the first is the one to play; e.g. every clue, or discards of trash alike),
    ``win`` the orders in which the best play after it reaches the target, ``score`` the
    sum of the final scores over the orders (either None when not asked for)."""

    actions: tuple[Action, ...]
    text: str
    win: Count | None
    score: Count | None

    @property
    def action(self) -> Action:
        return self.actions[0]


@dataclass(frozen=True)
class Chances:
    """The answer of :func:`chances` for one position (``turn``: actions played)."""

    turn: int
    target: int
    objective: str
    deck_left: int
    pile: tuple[tuple[str, int], ...]  # the pile's cards and copies, in suit order
    orders: int  # D!
    moves: tuple[MoveChance, ...]  # best first
    win: Count | None  # the position's value: its best move's
    score: Count | None
    clairvoyant_win: Count | None  # the deck-known value, when computed
    clairvoyant_score: Count | None
    clairvoyant_note: str  # why it was not computed, or ""
    nodes: int
    target_reason: str = ""  # why this target: asked for, or how the default was found (default_target)

    def to_json(self, state: State) -> dict[str, Any]:
        """The answer as plain JSON data (``hanabi chances --json``); ``state`` is its position."""
        r = self
        best = [i for i, m in enumerate(r.moves) if any(m is b for b in r.best)]
        return {
            "turn": r.turn,
            "player": state.current,
            "score": state.score,
            "target": r.target,
            "target_reason": r.target_reason,
            "objective": r.objective,
            "deck_left": r.deck_left,
            "pile": {c: k for c, k in r.pile},
            "orders": r.orders,
            "exact": r.exact,
            "moves_exact": r.moves_exact,
            "win": None if r.win is None else r.win.to_json(),
            "expected_score": None if r.score is None else r.score.to_json(),
            "clairvoyant": {"win": None if r.clairvoyant_win is None else r.clairvoyant_win.to_json(),
                            "expected_score": None if r.clairvoyant_score is None else r.clairvoyant_score.to_json(),
                            "note": r.clairvoyant_note},
            "moves": [{"actions": [a.to_json() for a in m.actions], "text": m.text,
                       "win": None if m.win is None else m.win.to_json(),
                       "expected_score": None if m.score is None else m.score.to_json()} for m in r.moves],
            "best": best,
            "nodes": r.nodes,
        }

    @property
    def exact(self) -> bool:
        """The position's value (each objective's) is exact."""
        return all(c is None or c.exact for c in (self.win, self.score))

    @property
    def moves_exact(self) -> bool:
        """Every move's value is exact too."""
        return all(c is None or c.exact for m in self.moves for c in (m.win, m.score))

    @property
    def best(self) -> tuple[MoveChance, ...]:
        """The best moves: exactly the position's value (the win count first, then, among
        those, the score when it was asked for); () when the position's value is not exact."""
        if not self.exact or not self.moves:
            return ()
        out = self.moves
        if self.win is not None:
            out = tuple(m for m in out if m.win is not None and m.win.exact and m.win.lo == self.win.lo)
        if self.score is not None:
            top = max((m.score.lo for m in out if m.score is not None and m.score.exact), default=None)
            out = tuple(m for m in out if m.score is not None and m.score.exact and m.score.lo == top)
        return out


def _rank_key(m: MoveChance) -> tuple[int, int, int, int]:
    w = (m.win.lo, m.win.hi) if m.win is not None else (0, 0)
    s = (m.score.lo, m.score.hi) if m.score is not None else (0, 0)
    return (w[0], s[0], w[1], s[1])


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise UnknownOptionError("objective", objective, OBJECTIVES)


def _groups(state: State, pos: ChancePos) -> list[tuple[tuple[int, int], list[Action]]]:
    """The legal actions grouped by the position they lead to (before the draw), in the
    search's move order first."""
    by_key: dict[bytes, tuple[tuple[int, int], list[Action]]] = {}
    for a in state.legal_actions():
        kind, i = move_of(state, a)
        pos.push(kind, i, -1)
        key = pos.key() + (b"\x01" if pos.over else b"\x00")
        pos.pop()
        if key in by_key:
            by_key[key][1].append(a)
        else:
            by_key[key] = ((kind, i), [a])
    order = {m: k for k, m in enumerate(move_order(pos))}
    return sorted(by_key.values(), key=lambda g: order.get(g[0], len(order)))


def _text(state: State, actions: list[Action]) -> str:
    g = state.game
    a = actions[0]
    if a.is_clue:
        return "any clue" if len(actions) == 1 else f"any clue ({len(actions)} alike)"
    verb = "discard" if a.kind != PLAY else "play" if state.is_playable(a.target) else "misplay"
    cards = sorted({g.deck[x.target].to_str(g.variant) for x in actions})
    if len(actions) == 1:
        return f"{verb} {cards[0]} (#{a.target})"
    return f"{verb} {' or '.join(cards)} ({len(actions)} alike)"


def _target(state: State, target: int | None, budget: int) -> tuple[int, str]:
    if target is None:
        return default_target(state, budget)
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= state.game.perfect_score:
        raise MalformedError(f"target {target!r}: must be a score 0..{state.game.perfect_score}")
    return target, "asked for"


def chances(state: State | Game | GameRecord, target: int | None = None, objective: str = "win",
            budget: int = DEFAULT_NODES, *,
            clairvoyant: bool = True, clairvoyant_limit: int = CLAIRVOYANT_LIMIT,
            exact_for: Collection[Action] | None = None) -> Chances:
    """The chances of ``state`` with its pile in unknown order: per distinct move of the
    player to act, the orders (of ``D!``) in which the best play reaches ``target`` (default:
    the highest score some order of the pile allows, :func:`default_target`) and/or the sum of the final
    scores over the orders (``objective``: "win", "score" or "both"), best move first.
    ``budget``: decision nodes each search may expand (deterministic); past it a value is an
    interval. ``clairvoyant``: also the deck-known value, searching each distinct order of
    the pile (when there are at most ``clairvoyant_limit``). ``exact_for``: the actions
    whose moves' values must be exact (default: every move); the others may be left as
    the bounds that showed them no better than the best (cheaper: a review needs only the
    move played)."""
    state = as_state(state, "chances")  # (a Game or a loader's GameRecord: from the start)
    _check_objective(objective)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        raise MalformedError(f"budget {budget!r}: must be a positive number of nodes")
    tgt, why = _target(state, target, budget)
    pos = position_of(state)
    g = state.game
    D = pos.dn
    pile_counts: dict[str, int] = {}
    for o in range(state.next_draw, len(g.deck)):
        t = g.deck[o].to_str(g.variant)
        pile_counts[t] = pile_counts.get(t, 0) + 1
    pile = tuple(sorted(pile_counts.items(), key=lambda kv: (g.variant.suit_index(kv[0][0]), kv[0][1])))
    objs = [WIN, SCORE] if objective == "both" else [WIN] if objective == "win" else [SCORE]
    searches = {o: ChanceSearch(pos, o, tgt, budget) for o in objs}
    fact = searches[objs[0]].fact
    groups = [] if state.over else _groups(state, pos)
    results: dict[int, list[Count]] = {o: [] for o in objs}
    wanted = [True] * len(groups) if exact_for is None else [any(a in exact_for for a in acts) for _, acts in groups]
    for o in objs:
        results[o] = _root(searches[o], [m for m, _ in groups], fact[D] * (1 if o == WIN else g.perfect_score), budget,
                           wanted)
    moves = []
    for k, (_, acts) in enumerate(groups):
        moves.append(MoveChance(tuple(acts), _text(state, acts),
                                results[WIN][k] if WIN in results else None,
                                results[SCORE][k] if SCORE in results else None))
    moves.sort(key=_rank_key, reverse=True)
    root: dict[int, Count | None] = {}
    for o in objs:
        if state.over:
            v = searches[o].terminal()
            root[o] = Count(v, v, fact[D])
        else:
            root[o] = Count(max(c.lo for c in results[o]), max(c.hi for c in results[o]), fact[D])
    cw: Count | None = None
    cs: Count | None = None
    note = "not asked for"
    if clairvoyant:
        cw, cs, note = _clairvoyant(state, pos, tgt, objs, budget, clairvoyant_limit)
    return Chances(state.turn, tgt, objective, D, pile, fact[D], tuple(moves), root.get(WIN), root.get(SCORE),
                   cw, cs, note, sum(s.nodes for s in searches.values()), why)


def _root(s: ChanceSearch, ms: list[tuple[int, int]], top: int, budget: int, wanted: list[bool]) -> list[Count]:
    """Every root move's value: first the position's value (each move searched for whether
    it beats the best so far: the others fail low, cheaply), then, on a second budget of the
    same size, each ``wanted`` move not yet exact searched on its own. Past a budget,
    intervals."""
    den = s.fact[s.pos.dn]
    vals: list[tuple[int, int]] = []
    best = -1
    for kind, i in ms:
        lo, hi = s.child(kind, i, best, top + 1)
        vals.append((lo, hi))
        if lo == hi and lo > best:
            best = lo
    s.exhausted = False
    s.budget = s.nodes + budget
    for k, (kind, i) in enumerate(ms):
        if wanted[k] and vals[k][0] < vals[k][1]:
            lo, hi = s.child(kind, i, -1, top + 1)
            vals[k] = (max(lo, vals[k][0]), min(hi, vals[k][1]))
    return [Count(lo, hi, den) for lo, hi in vals]


def _orders(counts: dict[int, int]) -> int:
    """How many distinct orders a multiset (class -> copies) has."""
    n = sum(counts.values())
    out = 1
    for k in range(2, n + 1):
        out *= k
    for c in counts.values():
        for k in range(2, c + 1):
            out //= k
    return out


def _sequences(counts: dict[int, int]) -> list[list[int]]:
    keys = sorted(counts)
    left = dict(counts)
    out: list[list[int]] = []
    cur: list[int] = []

    def rec() -> None:
        if len(cur) == sum(counts.values()):
            out.append(list(cur))
            return
        for c in keys:
            if left[c]:
                left[c] -= 1
                cur.append(c)
                rec()
                cur.pop()
                left[c] += 1

    rec()
    return out


def _pile_classes(pos: ChancePos) -> tuple[dict[int, int], list[int]]:
    """The pile as classes for the deck-known searches: each useful card type with its
    copies, and the trash cards as one class (-1; they are interchangeable), with the
    trash cards themselves."""
    trash: list[int] = []
    counts: dict[int, int] = {}
    for c in range(len(pos.deck)):
        k = pos.deck[c]
        if not k:
            continue
        if pos.useful(c):
            counts[c] = k
        else:
            trash.extend([c] * k)
    if trash:
        counts[-1] = len(trash)
    return counts, trash


def _orders_of(counts: dict[int, int], trash: list[int]) -> list[list[int]]:
    """Each distinct order of the pile's classes, as the cards drawn in turn."""
    out = []
    for seq in _sequences(counts):
        t = iter(trash)
        out.append([next(t) if c < 0 else c for c in seq])
    return out


def default_target(state: State, budget: int = DEFAULT_NODES, limit: int = CLAIRVOYANT_LIMIT) -> tuple[int, str]:
    """The target :func:`chances` aims at when none is given, and why: the highest score
    some order of the pile still allows (each distinct order searched with the order
    known, when there are at most ``limit``), else an upper bound every order obeys (the
    cards' bound and the pace: one point a draw and a turn of the final round). A target
    no order reaches would make every move 0%."""
    if state.over:
        return state.score, "the game is over"
    cards = state.max_reachable()
    turns = state.game.num_players if state.turns_left is None else state.turns_left
    bound = min(cards, sum(state.stacks) + state.deck_left + turns)
    pos = position_of(state)
    counts, trash = _pile_classes(pos)
    n = _orders(counts)
    if n > limit:
        return bound, (f"the most the cards and the pace allow ({n} distinct orders of the pile: too many to "
                       f"search each, over the limit of {limit})")
    fact = 1
    for k in range(2, pos.dn + 1):
        fact *= k
    search = ChanceSearch(pos, SCORE, 0, budget, seq=[0])
    best, undecided = -1, False
    for real in _orders_of(counts, trash):
        search.seq = real
        lo, hi = search.decide(-1, fact * state.game.perfect_score + 1)
        best = max(best, lo // fact)
        undecided |= hi // fact > best
        if best >= bound:
            break
    if best >= cards:
        why = "the most the cards allow, and some order of the pile reaches it"
    else:
        why = (f"the most any order of the pile allows (each of its {n} distinct orders searched knowing the "
               f"order; the cards alone would allow {cards})")
    if undecided:
        why += "; some orders not decided within the budget: at least this"
    return best, why


def _clairvoyant(state: State, pos: ChancePos, target: int, objs: list[int], budget: int,
                 limit: int) -> tuple[Count | None, Count | None, str]:
    """The deck-known value: the sum over the pile's orders of the best result knowing the
    order (each distinct order of classes searched once, weighted by the orders it stands
    for). Trash cards are one class here (they are interchangeable)."""
    D = pos.dn
    fact = [1]
    for k in range(1, D + 1):
        fact.append(fact[-1] * k)
    if state.over:
        return None, None, "the game is over"
    counts, trash = _pile_classes(pos)
    n = _orders(counts)
    if n > limit:
        return None, None, f"{n} distinct orders of the pile, over the limit of {limit}"
    weight = 1
    for k in counts.values():
        weight *= fact[k]
    totals = {o: [0, 0] for o in objs}
    searches = {o: ChanceSearch(pos, o, target, budget, seq=[0]) for o in objs}  # one table per objective
    for real in _orders_of(counts, trash):
        for o in objs:
            s = searches[o]
            s.seq = real
            lo, hi = s.decide(-1, fact[D] * (1 if o == WIN else state.game.perfect_score) + 1)
            totals[o][0] += weight * lo // fact[D]
            totals[o][1] += weight * hi // fact[D]
    # each order's value is in units of D! (every order counted as that one): divided back
    # above, weighted by the physical orders it stands for
    out = {o: Count(v[0], v[1], fact[D]) for o, v in totals.items()}
    return out.get(WIN), out.get(SCORE), ""


__all__ = ["OBJECTIVES", "DEFAULT_NODES", "CLAIRVOYANT_LIMIT", "Count", "MoveChance", "Chances", "chances"]
