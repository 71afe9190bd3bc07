"""SAT encoding of perfect-information Hanabi: "from this position, can the final score
reach ``target``?"

The question becomes a CNF formula over turns ``t = 0 .. H-1`` (H a safe horizon, see
:func:`horizon`), solved with a python-sat solver (CaDiCaL by default). A model decodes into
a line of engine actions, which is replayed through the rules engine before it is returned;
UNSAT proves the target unreachable, and the solver's DRAT proof can be written out and
checked with ``drat-trim`` (:func:`check_drat`).

The module reads like an OR-Tools sample: *data* (the facts of the position, :class:`_Data`),
*variables* and *constraints* (:func:`encode`, one block per rule, each opening with the
rule in plain words; every variable is named by a documented tuple in an ``IDPool``),
*solve* (:func:`_solve`) and *decode* (:func:`_decode`). It imports only the rules engine.

Public API: :func:`sat_reachable`, :func:`sat_max`, :func:`check_drat`, :func:`encode`.
"""
from __future__ import annotations

import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ..game import COLOR_CLUE, DISCARD, PLAY, Action, State

__all__ = ["SatResult", "SatMax", "Encoding", "sat_reachable", "sat_max", "check_drat", "encode", "horizon"]


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SatResult:
    """``status`` is ``'sat'`` (``actions`` is a line from the position that the engine
    replays to a finished game scoring at least the target), ``'unsat'`` (the target is
    unreachable) or ``'unknown'`` (time ran out). ``stats``: variables, clauses, turns
    (the horizon H), time (seconds, encoding + solving), and more."""

    status: str
    actions: list[Action] | None
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SatMax:
    """The best score found (``actions`` reaches it), ``upper_bound`` the proven bound
    (every higher target is UNSAT), ``exact`` when the two meet."""

    max_score: int
    exact: bool
    upper_bound: int
    actions: list[Action]
    stats: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# Data: the facts of the position that the encoding needs
# --------------------------------------------------------------------------------------
class _Data:
    """Plain facts read from a :class:`State` (which is not modified).

    Cards are named by their *order* (index in the deck, as in the engine). ``deck[j]`` is
    the order of the j-th card still to be drawn (``j = 0 .. D-1``, top first).
    """

    def __init__(self, state: State):
        g = state.game
        self.state = state
        self.N = g.num_players
        self.first = state.current                      # actor of turn 0
        self.hand0 = [list(h) for h in state.hands]     # hands at turn 0
        self.deck = list(range(state.next_draw, len(g.deck)))
        self.D = len(self.deck)
        self.suit = g.suit_of
        self.rank = g.rank_of
        self.S = g.variant.num_suits
        self.max_rank = list(g.max_rank)
        self.stacks0 = list(state.stacks)
        self.score0 = sum(state.stacks)
        self.clues0 = state.clues
        self.M = g.max_clues
        self.strikes0 = state.strikes
        self.L = g.strike_limit
        self.turns_left0 = state.turns_left
        self.empty_clues = g.rules.empty_clues
        self.deck_plays = g.rules.deck_plays and self.D >= 1
        self.strikeout_keeps_stacks = g.rules.strikeout_score == "stacks"
        self.perfect = g.perfect_score
        if self.turns_left0 is None and self.D == 0:
            raise ValueError("position has an empty deck but no final-round counter")
        if self.turns_left0 is not None and self.turns_left0 > self.N:
            raise ValueError(f"turns_left {self.turns_left0} exceeds the player count")
        # the type (suit, rank) of every card that can still be used
        self.live = [o for h in self.hand0 for o in h] + self.deck
        self.types = sorted({(self.suit[o], self.rank[o]) for o in self.live})

    def actor(self, t: int) -> int:
        return (self.first + t) % self.N

    def card_type(self, o: int) -> tuple[int, int]:
        return self.suit[o], self.rank[o]


def horizon(data: _Data, target: int) -> int:
    """A turn count H such that every game from the position that ends with a score of at
    least ``target`` is over at the start of turn H.

    If the final round has started (``turns_left`` set), exactly ``turns_left`` turns remain.
    Otherwise let t* be the turn that removes the last deck card (by a draw or a deck play);
    the game is over at t* + N + 1 at the latest (the final round gives each player one more
    turn) and earlier if it ends by strikeout or a perfect score. Before t*, no play or
    discard happens without a draw, so every turn before t* is either one of the other D-1
    removals or a clue. Each clue costs a token, and tokens come only from the c0 in hand,
    from discards (each a removal, so at most D-1 before t*) and from completed suits (at
    most one per suit not yet complete). To end with at least ``target``, at least
    ``target - score0 - N - 1`` cards must be played successfully before t* (at most N plays
    in the final round and one at t* itself), and those removals are not discards. Hence
        t* <= (D-1) + c0 + (D-1 - max(0, target - score0 - N - 1)) + incomplete suits,
    and H = t*_max + N + 1. A game that ends early (perfect score, or strikeout with the
    'stacks' rule) is shorter still: all its successful plays are removals before t*.
    """
    d = data
    if d.turns_left0 is not None:
        return d.turns_left0
    incomplete = sum(1 for s in range(d.S) if d.stacks0[s] < d.max_rank[s])
    need_early = max(0, target - d.score0 - d.N - 1)
    discards = max(0, d.D - 1 - need_early)
    t_star = (d.D - 1) + d.clues0 + discards + incomplete
    return t_star + d.N + 1


# --------------------------------------------------------------------------------------
# The CNF builder
# --------------------------------------------------------------------------------------
class Encoding:
    """A CNF under construction: an ``IDPool`` of named variables and a clause list.

    Literal ``TRUE`` (variable 1, fixed by a unit clause) and ``FALSE = -TRUE`` stand for
    constants, so that counters can return them outside their range; :meth:`add` drops
    satisfied clauses and false literals.
    """

    def __init__(self):
        self.pool = IDPool()
        self.TRUE = self.pool.id(("true",))
        self.FALSE = -self.TRUE
        self.clauses: list[list[int]] = [[self.TRUE]]
        self.horizon = 0
        self.target = 0
        self.data: _Data | None = None

    def var(self, *key) -> int:
        return self.pool.id(key)

    def has(self, *key) -> bool:
        return key in self.pool.obj2id

    def add(self, clause) -> None:
        out = []
        for lit in clause:
            if lit == self.TRUE:
                return
            if lit != self.FALSE:
                out.append(lit)
        self.clauses.append(out if out else [self.FALSE])

    def implies(self, premises, conclusion) -> None:
        """premises (a conjunction of literals) -> conclusion (a disjunction)."""
        self.add([-p for p in premises] + list(conclusion))

    def iff_or(self, x: int, lits) -> None:
        """x <-> OR(lits)."""
        lits = list(lits)
        self.add([-x] + lits)
        for lit in lits:
            self.add([-lit, x])

    def iff_and(self, x: int, lits) -> None:
        """x <-> AND(lits)."""
        lits = list(lits)
        for lit in lits:
            self.add([-x, lit])
        self.add([x] + [-lit for lit in lits])

    def _card_lits(self, lits, bound):
        """Drop constant literals; a TRUE lowers the bound."""
        out = []
        for lit in lits:
            if lit == self.TRUE:
                bound -= 1
            elif lit != self.FALSE:
                out.append(lit)
        return out, bound

    def at_most(self, lits, bound: int, encoding=EncType.seqcounter) -> None:
        lits, bound = self._card_lits(lits, bound)
        if bound < 0:
            self.add([])
        elif bound >= len(lits):
            return
        elif bound == 0:
            for lit in lits:
                self.add([-lit])
        else:
            if bound == 1 and len(lits) > 5:
                encoding = EncType.ladder
            elif bound == 1:
                encoding = EncType.pairwise
            for cl in CardEnc.atmost(lits, bound, vpool=self.pool, encoding=encoding).clauses:
                self.add(cl)

    def at_least(self, lits, bound: int) -> None:
        lits, bound = self._card_lits(lits, bound)
        if bound <= 0:
            return
        if bound > len(lits):
            self.add([])
        elif bound == len(lits):
            for lit in lits:
                self.add([lit])
        elif bound == 1:
            self.add(lits)
        else:
            for cl in CardEnc.atleast(lits, bound, vpool=self.pool, encoding=EncType.totalizer).clauses:
                self.add(cl)

    def exactly_one(self, lits) -> None:
        self.at_least(lits, 1)
        self.at_most(lits, 1)

    def to_dimacs(self) -> str:
        lines = [f"p cnf {self.pool.top} {len(self.clauses)}"]
        lines.extend(" ".join(map(str, cl)) + " 0" for cl in self.clauses)
        return "\n".join(lines) + "\n"


DEFAULT_FEATURES = frozenset({"symmetry", "needed", "pace"})


def encode(state: State, target: int, *, horizon_turns: int | None = None,
           features: frozenset[str] = DEFAULT_FEATURES) -> Encoding:
    """The CNF "from ``state`` the game can end with a score of at least ``target``".

    Variables (keys of ``enc.pool``; t is a turn 0..H-1, or 0..H for counters that hold
    *at the start of* turn t):

    ========================  =================================================================
    ``("play", t)``           turn t plays a card (from the hand, or the last deck card)
    ``("discard", t)``        turn t discards a card
    ``("clue", t)``           turn t gives a clue (a stall: its content is chosen on decoding)
    ``("over", t)``           the game is over at the start of turn t (turn t is a no-op)
    ``("use", t, o)``         turn t plays or discards card order o
    ``("deckplay", t)``       turn t plays the last deck card directly from the deck
    ``("type", t, s, r)``     the card used at turn t has suit s and rank r
    ``("bomb", t)``           turn t's play fails (a strike)
    ``("stack", t, s, h)``    at the start of t, the stack of suit s is at least h (1..max)
    ``("clues", t, i)``       at the start of t, at least i clue tokens (1..max tokens)
    ``("strikes", t, i)``     at the start of t, at least i strikes (1..strike limit)
    ``("removed", t, i)``     at least i deck cards removed (drawn or deck-played) before t
    ``("draw", t)``           turn t draws the next deck card into the actor's hand
    ``("drawn", t, j)``       turn t draws deck card j (the j-th card still to come, top = 0)
    ``("complete", t, s)``    turn t completes suit s
    ``("gain", t)``           turn t regains a clue token (discard or completed suit)
    ``("allcomplete", t)``    at the start of t, every stack is complete
    ``("emptied", t, p)``     player p (dealt a 1-card hand) has played out their last card
    ``("waste", t)``          turn t removes a deck card without scoring (discard or bomb)
    ``("pace", t, i)``        at least i wasted removals before t (1..budget+1)
    ========================  =================================================================
    Counters at t = 0 are the position's constants.
    """
    d = _Data(state)
    enc = Encoding()
    enc.data = d
    enc.target = target
    H = horizon(d, target) if horizon_turns is None else horizon_turns
    enc.horizon = H
    TRUE, FALSE = enc.TRUE, enc.FALSE
    N, D, M, L, S = d.N, d.D, d.M, d.L, d.S
    v = enc.var
    last = d.deck[-1] if D else None  # the card a deck play plays

    # --- counter accessors: constants outside the range and at t = 0 -------------------
    def stack(t, s, h):
        if h <= 0:
            return TRUE
        if h > d.max_rank[s]:
            return FALSE
        if t == 0:
            return TRUE if d.stacks0[s] >= h else FALSE
        return v("stack", t, s, h)

    def clues(t, i):
        if i <= 0:
            return TRUE
        if i > M:
            return FALSE
        if t == 0:
            return TRUE if d.clues0 >= i else FALSE
        return v("clues", t, i)

    def strikes(t, i):
        if i <= 0:
            return TRUE
        if i > L:
            return FALSE
        if t == 0:
            return TRUE if d.strikes0 >= i else FALSE
        return v("strikes", t, i)

    def removed(t, i):
        if i <= 0:
            return TRUE
        if i > D or t == 0:
            return FALSE
        return v("removed", t, i)

    def over(t):
        return FALSE if t == 0 else v("over", t)

    deck_index = {o: j for j, o in enumerate(d.deck)}

    # Which cards turn t may use. A card dealt to the actor is usable on any of their turns.
    # Deck card j is removed at the earliest at turn j (each turn removes at most one), so
    # its holder can use it at turn j + N at the earliest; the last card may also be played
    # from the deck (deck plays) once it is the only card left, from turn D-1 on.
    def candidates(t):
        p = d.actor(t)
        cands = list(d.hand0[p])
        cands += [o for j, o in enumerate(d.deck) if j + N <= t]
        if d.deck_plays and t >= D - 1 and last not in cands:
            cands.append(last)
        return cands

    cands = [candidates(t) for t in range(H)]
    use = {(t, o): v("use", t, o) for t in range(H) for o in cands[t]}

    def type_lit(t, s, r):
        return v("type", t, s, r) if enc.has("type", t, s, r) else FALSE

    # ---------------------------------------------------------------------------------
    # Constraints
    # ---------------------------------------------------------------------------------
    for t in range(H):
        kp, kd, kc = v("play", t), v("discard", t), v("clue", t)
        dp = v("deckplay", t) if d.deck_plays and t >= D - 1 else FALSE

        # Exactly one action per turn: play, discard, clue, or (once the game is over)
        # nothing at all.
        enc.exactly_one([kp, kd, kc, over(t)])

        # A play or discard uses exactly one card, one of those the actor may hold; a clue
        # or a no-op uses none.
        here = [use[t, o] for o in cands[t]]
        enc.add([-kp] + here)
        enc.add([-kd] + here)
        for lit in here:
            enc.add([-lit, kp, kd])
        enc.at_most(here, 1)

        # The type of the card used: ("type", t, s, r) <-> some card of that type is used.
        by_type: dict[tuple[int, int], list[int]] = {}
        for o in cands[t]:
            by_type.setdefault(d.card_type(o), []).append(use[t, o])
        for (s, r), lits in by_type.items():
            enc.iff_or(v("type", t, s, r), lits)

        # Deck plays: with exactly one card left in the deck, the actor may play it
        # directly (it is a play of that card, and it comes from no hand).
        if dp != FALSE:
            enc.implies([dp], [kp])
            enc.implies([dp], [use[t, last]])
            enc.implies([dp], [removed(t, D - 1)])
            enc.implies([dp], [-removed(t, D)])

        # Only a card already drawn into the actor's hand can be used: deck card j must
        # have been drawn before turn t, by this same player (on one of their earlier
        # turns), unless it is the last card played from the deck. Cards dealt to the
        # actor are always theirs.
        for o in cands[t]:
            j = deck_index.get(o)
            if j is None:
                continue
            earlier = [v("drawn", t2, j) for t2 in range(t - N, j - 1, -N)]
            deck = [dp] if (o == last and dp != FALSE) else []
            enc.add([-use[t, o]] + deck + earlier)
            if earlier:
                enc.add([-use[t, o]] + deck + [v("owner", j, d.actor(t))])
                enc.add([-use[t, o]] + deck + [removed(t, j + 1)])

        # No discard when all clue tokens are available.
        enc.implies([kd], [-clues(t, M)])

        # A clue costs a token, so it needs one; unless empty clues are allowed it must
        # touch a card, so some other player must hold a card (any card in a hand is
        # touched by the clue of its rank). Hands shrink only after the deck runs out, when
        # each player acts at most once more, so only players down to one card can be left
        # with an empty hand.
        enc.implies([kc], [clues(t, 1)])
        if not d.empty_clues:
            others = []
            for q in range(N):
                if q == d.actor(t):
                    continue
                n0 = len(d.hand0[q])
                if n0 >= 2:
                    others = [TRUE]
                    break
                if n0 == 1:
                    others.append(-v("emptied", t, q) if t > 0 else TRUE)
            enc.implies([kc], others)

        # Draws in deck order: a play or discard from the hand draws the next deck card
        # while the deck is not empty (a deck play draws nothing).
        dr = v("draw", t)
        enc.implies([dr], [-removed(t, D)])
        enc.implies([dr], [-dp])
        enc.implies([dr], [kp, kd])
        enc.implies([kp, -removed(t, D)], [dp, dr])
        enc.implies([kd, -removed(t, D)], [dr])
        # ("drawn", t, j): this draw is deck card j, i.e. exactly j cards were removed before.
        for j in range(min(D, t + 1)):
            x = v("drawn", t, j)
            enc.iff_and(x, [dr, removed(t, j), -removed(t, j + 1)])

        # Removed deck cards (order-encoded): one more after a draw or a deck play.
        for i in range(1, D + 1):
            nxt = v("removed", t + 1, i)
            cur, below = removed(t, i), removed(t, i - 1)
            enc.implies([cur], [nxt])
            enc.implies([dr, below], [nxt])
            enc.implies([dp, below], [nxt])
            enc.implies([nxt], [cur, dr, dp])
            enc.implies([nxt], [cur, below])

        # A play succeeds when the card's rank is one above its stack; otherwise it is a
        # bomb (a strike, and the card goes to the discard pile).
        bomb = v("bomb", t)
        enc.implies([bomb], [kp])
        for (s, r) in by_type:
            ty = v("type", t, s, r)
            ok_below, ok_here = stack(t, s, r - 1), stack(t, s, r)
            enc.implies([kp, ty, -ok_below], [bomb])
            enc.implies([kp, ty, ok_here], [bomb])
            enc.implies([kp, ty, ok_below, -ok_here], [-bomb])

        # Stacks (order-encoded): stack s reaches h at turn t exactly when a card of suit s
        # and rank h is played onto a stack at h-1.
        for s in range(S):
            for h in range(1, d.max_rank[s] + 1):
                nxt, cur = v("stack", t + 1, s, h), stack(t, s, h)
                ty = type_lit(t, s, h)
                enc.implies([cur], [nxt])
                enc.implies([kp, ty, stack(t, s, h - 1)], [nxt])
                enc.implies([nxt], [cur, kp])
                enc.implies([nxt], [cur, ty])
                enc.implies([nxt], [cur, stack(t, s, h - 1)])
                enc.implies([nxt], [stack(t + 1, s, h - 1)])

        # A completed suit returns a clue token (if not all are available); a discard
        # returns one too.
        comps = []
        for s in range(S):
            m = d.max_rank[s]
            c = v("complete", t, s)
            enc.iff_and(c, [stack(t + 1, s, m), -stack(t, s, m)])
            comps.append(c)
        gain = v("gain", t)
        enc.iff_or(gain, [kd] + comps)

        # Clue tokens (order-encoded): -1 after a clue, +1 (capped at the maximum) after a
        # gain, unchanged otherwise. A gain and a clue never share a turn.
        for i in range(1, M + 1):
            nxt = v("clues", t + 1, i)
            up, same, down = clues(t, i - 1), clues(t, i), clues(t, i + 1)
            enc.implies([gain, up], [nxt])
            enc.implies([gain, nxt], [up])
            enc.implies([kc, down], [nxt])
            enc.implies([kc, nxt], [down])
            enc.implies([-gain, -kc, same], [nxt])
            enc.implies([-gain, -kc, nxt], [same])

        # Strikes (order-encoded): +1 after a bomb.
        for i in range(1, L + 1):
            nxt, cur, below = v("strikes", t + 1, i), strikes(t, i), strikes(t, i - 1)
            enc.implies([cur], [nxt])
            enc.implies([bomb, below], [nxt])
            enc.implies([nxt], [cur, bomb])
            enc.implies([nxt], [cur, below])

        # Players dealt a single card can run out of cards: after the deck is empty, their
        # play or discard draws nothing.
        if not d.empty_clues:
            for q in range(N):
                if len(d.hand0[q]) != 1:
                    continue
                nxt = v("emptied", t + 1, q)
                cur = v("emptied", t, q) if t > 0 else FALSE
                if d.actor(t) == q:
                    # (a deck play needs a card in the deck, so it never empties a hand)
                    gone = removed(t, D)
                    enc.implies([cur], [nxt])
                    enc.implies([kp, gone], [nxt])
                    enc.implies([kd, gone], [nxt])
                    enc.implies([nxt], [cur, kp, kd])
                    enc.implies([nxt], [cur, gone])
                else:
                    enc.iff_or(nxt, [cur])

    # The game ends: at the strike limit, when every stack is complete, or when the final
    # round is over (once the last deck card is removed, each player gets exactly one more
    # turn; if the final round has already started, turns_left turns remain). When over,
    # every later turn is a no-op (above) and nothing changes.
    for t in range(1, H + 1):
        allc = v("allcomplete", t)
        enc.iff_and(allc, [stack(t, s, d.max_rank[s]) for s in range(S)])
        if d.turns_left0 is not None:
            final_done = TRUE if t >= d.turns_left0 else FALSE
        else:
            final_done = removed(t - N, D) if t - N >= 0 else FALSE
        enc.iff_or(over(t), [strikes(t, L), allc, final_done])

    # The game is over within the horizon.
    enc.add([over(H)])

    # Each card is used (played or discarded) at most once: ("used", t, o) says card o was
    # used before turn t (order-encoded in t), and a used card cannot be used again.
    def used(t, o):
        return FALSE if t == 0 else v("used", t, o)

    for o in d.live:
        for t in range(H):
            u = use.get((t, o), FALSE)
            enc.implies([u], [-used(t, o)])
            enc.iff_or(v("used", t + 1, o), [used(t, o), u])

    # Who holds each deck card: ("owner", j, p) <-> card j was drawn on one of p's turns.
    for j in range(D):
        for p in range(N):
            enc.iff_or(v("owner", j, p), [v("drawn", t, j) for t in range(j, H) if d.actor(t) == p])

    # Symmetry (optional, satisfiability-preserving): two cards of the same suit and rank
    # are interchangeable, so when both are in the actor's hand the older one (lower
    # order) is used first. Any line can be rewritten to obey this by swapping the names
    # of the two cards from the first turn that breaks it on (both stay in one hand, so
    # every later use remains legal and the outcome is unchanged).
    if "symmetry" in features:
        copies: dict[tuple[int, int], list[int]] = {}
        for o in sorted(d.live):
            copies.setdefault(d.card_type(o), []).append(o)
        for group in copies.values():
            for a_i, k1 in enumerate(group):
                for k2 in group[a_i + 1:]:
                    for t in range(H):
                        if (t, k2) not in use or (t, k1) not in use:
                            continue
                        j1 = deck_index.get(k1)
                        if j1 is None:
                            held = []          # dealt to the actor: held unless used
                        else:
                            held = [-v("owner", j1, d.actor(t)), -removed(t, j1 + 1)]
                        deck = []
                        if k2 == last and d.deck_plays and t >= D - 1:
                            deck = [v("deckplay", t)]
                        enc.add([-use[t, k2], used(t, k1)] + held + deck)

    # A perfect score needs one copy of every card still to be played: not every copy of
    # a needed card may be discarded or bombed (redundant, it follows from the stacks).
    if "needed" in features and target >= d.perfect:
        for (s, r) in d.types:
            if r <= d.stacks0[s]:
                continue
            lost = []
            for o in d.live:
                if d.card_type(o) != (s, r):
                    continue
                x = v("lost", o)
                for t in range(H):
                    if (t, o) in use:
                        enc.implies([use[t, o], v("discard", t)], [x])
                        enc.implies([use[t, o], v("bomb", t)], [x])
                lost.append(-x)
            enc.add(lost)

    # Pace (redundant, it follows from the rules): every successful play happens on a
    # removal turn or in the final round, so with score0 + D + N - target "wasted"
    # removals (a discard or a bomb while the deck is not empty) the target is still in
    # reach, and one more makes it unreachable. ("pace", t, i) counts them.
    final_turns = N if d.turns_left0 is None else d.turns_left0
    budget = d.score0 + D + final_turns - target
    if budget < 0:
        enc.add([])
    elif "pace" in features:
        for t in range(H):
            w = v("waste", t)
            enc.implies([v("discard", t), -removed(t, D)], [w])
            enc.implies([v("bomb", t), -removed(t, D)], [w])
            for i in range(1, budget + 2):
                cur = v("pace", t, i) if t > 0 else FALSE
                below = TRUE if i == 1 else (v("pace", t, i - 1) if t > 0 else FALSE)
                nxt = v("pace", t + 1, i)
                enc.implies([cur], [nxt])
                enc.implies([w, below], [nxt])
            enc.add([-v("pace", t + 1, budget + 1)])

    # Strikeout scores 0 (by default): a line reaching a positive target never strikes out.
    if target >= 1 and not d.strikeout_keeps_stacks:
        for t in range(1, H + 1):
            enc.add([-strikes(t, L)])

    # The final score: the stack heights at the end add up to at least the target.
    enc.at_least([stack(H, s, h) for s in range(S) for h in range(1, d.max_rank[s] + 1)], target)
    return enc


def encode_steps(state: State, target: int, *, features: frozenset[str] = DEFAULT_FEATURES) -> Encoding:
    """The same question as :func:`encode`, indexed by *removals* instead of turns.

    Before the deck runs out, every turn is either a clue or a play/discard that draws, so
    a game is a sequence of D steps, step i = a run of c_i clue turns (each costs a token,
    so 0 <= c_i <= tokens) followed by the removal of deck card i (the actor plays or
    discards a card and draws card i; the last card may instead be played from the deck),
    then the final round of N turns (each a play, a discard, a clue, or nothing once the
    game is over). There is no horizon to choose; card i is drawn at step i, so its holder
    is simply the actor of step i. Events e = 0..D-1 are the steps, e = D..D+F-1 the final
    turns (F = N, or turns_left when the final round has already begun).

    Variables (counters hold at the start of event e, e = 0..D+F):

    ==========================  ===============================================================
    ``("actor", e, p)``         player p acts at event e (after the clue run)
    ``("run", e, c)``           at least c clue turns right before step e (c = 1..max tokens)
    ``("runmod", e, m)``        the run's length is m modulo N
    ``("clues", e, i)``         at least i tokens at the start of event e (before the run)
    ``("clues_at", e, i)``      at least i tokens when event e's action is taken (after the run)
    ``("play"|"discard"|"clue", e)``  the kind of event e's action (clue: final turns only)
    ``("over", e)``             the game is over at the start of event e (no-op)
    ``("use", e, o)``           event e plays or discards card order o
    ``("deckplay", e)``         step e = D-1 plays the last card from the deck
    ``("type", e, s, r)``       suit and rank of the card used at event e
    ``("bomb", e)``             event e's play fails
    ``("stack", e, s, h)``      stack of suit s is at least h
    ``("strikes", e, i)``       at least i strikes
    ``("used", e, o)``          card o was used before event e
    ``("complete", e, s)``      event e completes suit s;  ``("gain", e)``: a token comes back
    ``("allcomplete", e)``      every stack is complete at the start of event e
    ``("emptied", e, p)``       (1-card hands) player p has no card left at event e
    ``("waste", e)``, ``("pace", e, i)``  wasted removals and their count (as in ``encode``)
    ==========================  ===============================================================
    """
    d = _Data(state)
    enc = Encoding()
    enc.data = d
    enc.target = target
    enc.model = "steps"
    TRUE, FALSE = enc.TRUE, enc.FALSE
    N, D, M, L, S = d.N, d.D, d.M, d.L, d.S
    v = enc.var
    if D > 0:
        h = state.game.hand_size
        if any(len(hand) != h for hand in d.hand0):
            raise ValueError("position has cards in the deck but a hand that is not full")
    F = N if D > 0 else d.turns_left0
    E = D + F
    enc.horizon = E
    enc.steps = D
    last = d.deck[-1] if D else None
    deck_index = {o: j for j, o in enumerate(d.deck)}
    owner0 = {o: p for p, hand in enumerate(d.hand0) for o in hand}

    # --- counter accessors: constants outside the range and at e = 0 -------------------
    def stack(e, s, hh):
        if hh <= 0:
            return TRUE
        if hh > d.max_rank[s]:
            return FALSE
        if e == 0:
            return TRUE if d.stacks0[s] >= hh else FALSE
        return v("stack", e, s, hh)

    def clues(e, i):
        if i <= 0:
            return TRUE
        if i > M:
            return FALSE
        if e == 0:
            return TRUE if d.clues0 >= i else FALSE
        return v("clues", e, i)

    def clues_at(e, i):
        if e >= D:                      # no clue runs in the final round
            return clues(e, i)
        if i <= 0:
            return TRUE
        if i > M:
            return FALSE
        return v("clues_at", e, i)

    def run(e, c):
        if c <= 0:
            return TRUE
        if c > M or e >= D:
            return FALSE
        return v("run", e, c)

    def strikes(e, i):
        if i <= 0:
            return TRUE
        if i > L:
            return FALSE
        if e == 0:
            return TRUE if d.strikes0 >= i else FALSE
        return v("strikes", e, i)

    def over(e):
        return FALSE if e == 0 else v("over", e)

    def used(e, o):
        return FALSE if e == 0 else v("used", e, o)

    def actor(e, p):
        return v("actor", e, p)

    # Which cards event e may use: any dealt card (its holder must be the actor), deck
    # cards drawn at earlier steps, and at the last step the last card from the deck.
    def candidates(e):
        cands = [o for hand in d.hand0 for o in hand]
        cands += [o for j, o in enumerate(d.deck) if j < e]
        if d.deck_plays and e == D - 1:
            cands.append(last)
        return cands

    cands = [candidates(e) for e in range(E)]
    use = {(e, o): v("use", e, o) for e in range(E) for o in cands[e]}

    def type_lit(e, s, r):
        return v("type", e, s, r) if enc.has("type", e, s, r) else FALSE

    # Hand sizes at the start of the final round (all full if the deck was not empty).
    size_final = [state.game.hand_size if D > 0 else len(d.hand0[q]) for q in range(N)]

    for e in range(E):
        step = e < D
        kp, kd = v("play", e), v("discard", e)
        kc = v("clue", e) if not step else FALSE
        dp = v("deckplay", e) if (d.deck_plays and e == D - 1) else FALSE

        # Exactly one action per event: a step is a play or a discard (the removal); a
        # final turn is a play, a discard or a clue; once the game is over, nothing.
        enc.exactly_one([kp, kd, kc, over(e)])

        # The clue run before a step: at most as many clues as tokens; none once over.
        # ("clues_at", e, i) = tokens after the run = tokens before minus the run length.
        if step:
            for c in range(1, M + 1):
                enc.implies([run(e, c)], [run(e, c - 1)])
                enc.implies([clues_at(e, c)], [clues_at(e, c - 1)])
                enc.implies([run(e, c)], [clues(e, c)])
                enc.implies([run(e, c)], [-over(e)])
            for a in range(0, M + 1):
                for b in range(0, M + 1):
                    # x >= a+b and c <= b  ->  y >= a ;  y >= a and c >= b  ->  x >= a+b
                    if a >= 1:
                        enc.implies([clues(e, a + b), -run(e, b + 1)], [clues_at(e, a)])
                    enc.implies([clues_at(e, a), run(e, b)], [clues(e, a + b)])
            # the run's length modulo N moves the turn on by that many players
            for m in range(N):
                rm = v("runmod", e, m)
                exact = []
                for c in range(m, M + 1, N):
                    x = v("runis", e, c)
                    enc.iff_and(x, [run(e, c), -run(e, c + 1)])
                    exact.append(x)
                enc.iff_or(rm, exact)

        # Who acts: the player after the previous event's actor, moved on by the run.
        enc.exactly_one([actor(e, p) for p in range(N)])
        for p in range(N):
            for m in range(N if step else 1):
                rm = v("runmod", e, m) if step else TRUE
                nxt = actor(e, (p + 1 + m) % N)
                if e == 0:
                    if (p + 1) % N == d.first:
                        enc.implies([rm], [nxt])
                else:
                    enc.implies([actor(e - 1, p), rm], [nxt])

        # A play or discard uses exactly one card; a clue or a no-op uses none.
        here = [use[e, o] for o in cands[e]]
        enc.add([-kp] + here)
        enc.add([-kd] + here)
        for lit in here:
            enc.add([-lit, kp, kd])
        enc.at_most(here, 1)

        # The card must be in the actor's hand: dealt to the actor, or drawn by the actor
        # at an earlier step (card j is drawn at step j by that step's actor), and not used
        # before. The last card may be played from the deck at the last step instead.
        for o in cands[e]:
            u = use[e, o]
            enc.implies([u], [-used(e, o)])
            if o in owner0:
                enc.implies([u], [actor(e, owner0[o])])
            elif o == last and e == D - 1:
                enc.implies([u], [dp])
            else:
                j = deck_index[o]
                for p in range(N):
                    enc.implies([u, actor(j, p)], [actor(e, p)])
        if dp != FALSE:
            enc.implies([dp], [kp])
            enc.implies([dp], [use[e, last]])

        by_type: dict[tuple[int, int], list[int]] = {}
        for o in cands[e]:
            by_type.setdefault(d.card_type(o), []).append(use[e, o])
        for (s, r), lits in by_type.items():
            enc.iff_or(v("type", e, s, r), lits)

        # No discard when all clue tokens are available.
        enc.implies([kd], [-clues_at(e, M)])

        # A clue in the final round costs a token and (unless empty clues are allowed)
        # needs another player with a card; hands shrink by one card when their holder
        # plays or discards in the final round, so only 1-card hands can run out.
        if kc != FALSE:
            enc.implies([kc], [clues_at(e, 1)])
            if not d.empty_clues:
                for p in range(N):
                    others = []
                    for q in range(N):
                        if q == p:
                            continue
                        if size_final[q] >= 2:
                            others = [TRUE]
                            break
                        if size_final[q] == 1:
                            others.append(-v("emptied", e, q) if e > D else TRUE)
                    enc.implies([kc, actor(e, p)], others)
                for q in range(N):
                    if size_final[q] == 1:
                        cur = v("emptied", e, q) if e > D else FALSE
                        nxt = v("emptied", e + 1, q)
                        enc.implies([cur], [nxt])
                        enc.implies([actor(e, q), kp], [nxt])
                        enc.implies([actor(e, q), kd], [nxt])
                        enc.implies([nxt], [cur, actor(e, q)])
                        enc.implies([nxt], [cur, kp, kd])

        # Bombs: a play fails unless the card's rank is one above its stack.
        bomb = v("bomb", e)
        enc.implies([bomb], [kp])
        for (s, r) in by_type:
            ty = v("type", e, s, r)
            ok_below, ok_here = stack(e, s, r - 1), stack(e, s, r)
            enc.implies([kp, ty, -ok_below], [bomb])
            enc.implies([kp, ty, ok_here], [bomb])
            enc.implies([kp, ty, ok_below, -ok_here], [-bomb])

        # Stacks (order-encoded).
        for s in range(S):
            for hh in range(1, d.max_rank[s] + 1):
                nxt, cur = v("stack", e + 1, s, hh), stack(e, s, hh)
                ty = type_lit(e, s, hh)
                enc.implies([cur], [nxt])
                enc.implies([kp, ty, stack(e, s, hh - 1)], [nxt])
                enc.implies([nxt], [cur, kp])
                enc.implies([nxt], [cur, ty])
                enc.implies([nxt], [cur, stack(e, s, hh - 1)])
                enc.implies([nxt], [stack(e + 1, s, hh - 1)])

        # A completed suit or a discard gives a token back.
        comps = []
        for s in range(S):
            m_ = d.max_rank[s]
            c_ = v("complete", e, s)
            enc.iff_and(c_, [stack(e + 1, s, m_), -stack(e, s, m_)])
            comps.append(c_)
        gain = v("gain", e)
        enc.iff_or(gain, [kd] + comps)

        # Tokens after the event: +1 (capped) after a gain, -1 after a final-round clue.
        for i in range(1, M + 1):
            nxt = v("clues", e + 1, i)
            up, same, down = clues_at(e, i - 1), clues_at(e, i), clues_at(e, i + 1)
            enc.implies([gain, up], [nxt])
            enc.implies([gain, nxt], [up])
            enc.implies([kc, down], [nxt])
            enc.implies([kc, nxt], [down])
            enc.implies([-gain, -kc, same], [nxt])
            enc.implies([-gain, -kc, nxt], [same])

        # Strikes.
        for i in range(1, L + 1):
            nxt, cur, below = v("strikes", e + 1, i), strikes(e, i), strikes(e, i - 1)
            enc.implies([cur], [nxt])
            enc.implies([bomb, below], [nxt])
            enc.implies([nxt], [cur, bomb])
            enc.implies([nxt], [cur, below])

        # Used cards.
        for o in d.live:
            enc.iff_or(v("used", e + 1, o), [used(e, o), use.get((e, o), FALSE)])

    # The game ends at the strike limit or when every stack is complete (later events are
    # no-ops), and in any case after the final round (the last event).
    for e in range(1, E + 1):
        allc = v("allcomplete", e)
        enc.iff_and(allc, [stack(e, s, d.max_rank[s]) for s in range(S)])
        enc.iff_or(over(e), [strikes(e, L), allc])

    # Symmetry: of two same cards in the actor's hand, the older is used first.
    if "symmetry" in features:
        copies: dict[tuple[int, int], list[int]] = {}
        for o in sorted(d.live):
            copies.setdefault(d.card_type(o), []).append(o)
        for group in copies.values():
            for a_i, k1 in enumerate(group):
                for k2 in group[a_i + 1:]:
                    for e in range(E):
                        if (e, k2) not in use or (e, k1) not in use:
                            continue
                        if k2 == last and e == D - 1:
                            continue
                        for p in range(N):
                            if k1 in owner0:
                                if owner0[k1] != p:
                                    continue
                                held = []
                            else:
                                held = [-actor(deck_index[k1], p)]
                            enc.add([-use[e, k2], -actor(e, p), used(e, k1)] + held)

    if "needed" in features and target >= d.perfect:
        for (s, r) in d.types:
            if r <= d.stacks0[s]:
                continue
            lost = []
            for o in d.live:
                if d.card_type(o) != (s, r):
                    continue
                x = v("lost", o)
                for e in range(E):
                    if (e, o) in use:
                        enc.implies([use[e, o], v("discard", e)], [x])
                        enc.implies([use[e, o], v("bomb", e)], [x])
                lost.append(-x)
            enc.add(lost)

    # Pace: at most score0 + D + F - target removals without a successful play.
    budget = d.score0 + D + F - target
    if budget < 0:
        enc.add([])
    elif "pace" in features and D > 0:
        waste = []
        for e in range(D):
            w = v("waste", e)
            enc.implies([v("discard", e)], [w])
            enc.implies([v("bomb", e)], [w])
            waste.append(w)
        enc.at_most(waste, budget)

    if target >= 1 and not d.strikeout_keeps_stacks:
        for e in range(1, E + 1):
            enc.add([-strikes(e, L)])

    enc.at_least([stack(E, s, hh) for s in range(S) for hh in range(1, d.max_rank[s] + 1)], target)
    return enc


def _decode_steps(enc: Encoding, model: list[int]) -> list[Action]:
    d = enc.data
    true = {lit for lit in model if lit > 0}
    get = enc.pool.obj2id.get
    st = d.state.copy()
    actions: list[Action] = []
    M = d.M

    def clue():
        a = next((a for a in st.legal_actions() if a.kind >= COLOR_CLUE), None)
        if a is None:
            raise RuntimeError("SAT decode: a clue is due but the engine has no legal clue")
        return a

    for e in range(enc.horizon):
        if get(("over", e)) in true:
            break
        if e < enc.steps:
            c = sum(1 for i in range(1, M + 1) if get(("run", e, i)) in true)
            for _ in range(c):
                actions.append(st.apply(clue()))
        if get(("clue", e)) in true:
            actions.append(st.apply(clue()))
            continue
        used = [o for o in d.live if get(("use", e, o)) in true]
        if len(used) != 1:
            raise RuntimeError(f"SAT decode: event {e} uses {len(used)} cards")
        kind = PLAY if get(("play", e)) in true else DISCARD
        actions.append(st.apply(Action(kind, used[0])))
    if not st.over:
        raise RuntimeError("SAT decode: the line does not finish the game")
    if st.score < enc.target:
        raise RuntimeError(f"SAT decode: line scores {st.score} < target {enc.target}")
    return actions


# --------------------------------------------------------------------------------------
# Solve
# --------------------------------------------------------------------------------------
def _solve(enc: Encoding, solver: str, timeout: float | None, with_proof: bool):
    """Run the solver; returns (True/False/None, model or None, proof lines or None)."""
    kwargs = {"with_proof": True} if with_proof else {}
    with Solver(name=solver, bootstrap_with=enc.clauses, **kwargs) as s:
        if timeout is None:
            res = s.solve()
        elif solver.startswith("cadical"):
            # pysat's CaDiCaL cannot be interrupted: solve in conflict-budget slices sized
            # from the measured conflict rate, keeping what was learnt between slices.
            deadline = time.perf_counter() + timeout
            budget = 2000
            res = None
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    break
                t0 = time.perf_counter()
                s.conf_budget(budget)
                res = s.solve_limited()
                if res is not None:
                    break
                took = max(time.perf_counter() - t0, 1e-3)
                rate = budget / took
                budget = int(max(1000, min(rate * min(left - took, 5.0), 4 * budget)))
        else:
            timer = threading.Timer(timeout, s.interrupt)
            timer.start()
            try:
                res = s.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
        model = s.get_model() if res else None
        proof = s.get_proof() if (with_proof and res is False) else None
    return res, model, proof


# --------------------------------------------------------------------------------------
# Decode
# --------------------------------------------------------------------------------------
def _decode(enc: Encoding, model: list[int]) -> list[Action]:
    """The model's line as engine actions, replayed through the engine (which raises on an
    illegal action); clue content is picked among the engine's legal clues."""
    d = enc.data
    true = {lit for lit in model if lit > 0}
    pool = enc.pool
    st = d.state.copy()
    actions: list[Action] = []
    for t in range(enc.horizon):
        if st.over:
            if t > 0 and pool.obj2id.get(("over", t)) not in true:
                raise RuntimeError(f"SAT decode: engine game over before turn {t}, model is not")
            break
        if pool.obj2id.get(("over", t)) in true:
            raise RuntimeError(f"SAT decode: model says over at turn {t}, engine does not")
        if pool.obj2id.get(("clue", t)) in true:
            clue = next((a for a in st.legal_actions() if a.kind >= COLOR_CLUE), None)
            if clue is None:
                raise RuntimeError(f"SAT decode: turn {t} clues but the engine has no legal clue")
            a = clue
        else:
            used = [o for o in d.live if pool.obj2id.get(("use", t, o)) in true]
            if len(used) != 1:
                raise RuntimeError(f"SAT decode: turn {t} uses {len(used)} cards")
            kind = PLAY if pool.obj2id.get(("play", t)) in true else DISCARD
            if kind == DISCARD and pool.obj2id.get(("discard", t)) not in true:
                raise RuntimeError(f"SAT decode: turn {t} has no action")
            a = Action(kind, used[0])
        actions.append(st.apply(a))
    if not st.over:
        raise RuntimeError("SAT decode: the line does not finish the game")
    if st.score < enc.target:
        raise RuntimeError(f"SAT decode: line scores {st.score} < target {enc.target}")
    return actions


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------
def sat_reachable(
    state: State,
    target: int,
    *,
    timeout: float | None = None,
    solver: str = "cadical195",
    proof_path: str | Path | None = None,
    cnf_path: str | Path | None = None,
    model: str = "steps",
) -> SatResult:
    """Can the game, from ``state``, end with a score of at least ``target``?

    ``proof_path``: write the solver's DRAT proof there when the answer is UNSAT (and the
    CNF to ``cnf_path``, by default ``proof_path + '.cnf'``), so that
    ``check_drat(cnf_path, proof_path)`` can check it. ``cnf_path`` alone writes the CNF.
    """
    t0 = time.perf_counter()
    if state.over:
        ok = state.score >= target
        return SatResult("sat" if ok else "unsat", [] if ok else None,
                         {"variables": 0, "clauses": 0, "turns": 0, "time": 0.0, "target": target})
    enc = encode_steps(state, target) if model == "steps" else encode(state, target)
    t1 = time.perf_counter()
    if proof_path is not None and cnf_path is None:
        cnf_path = str(proof_path) + ".cnf"
    if cnf_path is not None:
        Path(cnf_path).write_text(enc.to_dimacs())
    remaining = None if timeout is None else max(0.0, timeout - (t1 - t0))
    res, sol, proof = _solve(enc, solver, remaining, proof_path is not None)
    t2 = time.perf_counter()
    stats = {
        "variables": enc.pool.top,
        "clauses": len(enc.clauses),
        "turns": enc.horizon,
        "time": t2 - t0,
        "encode_time": t1 - t0,
        "solve_time": t2 - t1,
        "target": target,
        "solver": solver,
        "model": model,
    }
    if res is None:
        return SatResult("unknown", None, stats)
    if res is False:
        if proof_path is not None:
            Path(proof_path).write_text("\n".join(proof or []) + "\n")
            stats["proof_path"] = str(proof_path)
            stats["cnf_path"] = str(cnf_path)
        return SatResult("unsat", None, stats)
    actions = _decode_steps(enc, sol) if model == "steps" else _decode(enc, sol)
    return SatResult("sat", actions, stats)


def _line_score(state: State, actions: list[Action]) -> int:
    st = state.copy()
    for a in actions:
        st.apply(a)
    return st.score


def sat_max(
    state: State,
    *,
    timeout: float | None = None,
    lower: int = 0,
    upper: int | None = None,
    solver: str = "cadical195",
) -> SatMax:
    """The maximum final score from ``state`` by a series of SAT calls.

    The first target is ``upper`` (default: the position's max reachable score, which
    ignores time and so bounds the maximum); if it is UNSAT, a binary search follows between
    the best line found (or ``lower``, a score believed reachable, e.g. from a heuristic)
    and the proven bound. A SAT answer raises the floor to the line's actual score, an
    UNSAT one lowers the bound; UNSAT calls (the expensive ones) stay few. If ``lower``
    turns out to be unreachable the search simply carries on below it.

    ``timeout`` bounds the total time; when it runs out, ``exact`` is False, ``upper_bound``
    is the bound proven so far and ``max_score`` the best line found (-1 and no actions if
    none was found).
    """
    t0 = time.perf_counter()
    calls: list[dict] = []
    if state.over:
        return SatMax(state.score, True, state.score, [], {"calls": calls, "time": 0.0})
    ub = state.max_reachable() if upper is None else upper
    ub = max(0, min(ub, state.game.perfect_score))
    lo = max(0, min(lower, ub))          # believed reachable; proven once best >= lo
    best, best_actions = -1, None
    target = ub
    while True:
        left = None if timeout is None else timeout - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        r = sat_reachable(state, target, timeout=left, solver=solver)
        calls.append({"target": target, "status": r.status,
                      **{k: r.stats[k] for k in ("variables", "clauses", "turns", "time")}})
        if r.status == "unknown":
            break
        if r.status == "sat":
            best, best_actions = _line_score(state, r.actions), r.actions
            lo = best
        else:
            ub = target - 1
            lo = min(lo, ub)
        if best >= ub or ub < 0:
            break
        # next target: halfway between the floor and the bound (the floor itself while no
        # line reaches it yet and nothing lies between)
        target = (lo + ub + 1) // 2 if lo < ub else lo
        if best >= target:
            target = best + 1
    stats = {"calls": calls, "time": time.perf_counter() - t0}
    ub = max(ub, best)
    return SatMax(best, best == ub, ub, best_actions or [], stats)


def check_drat(cnf_path: str | Path, proof_path: str | Path, *, timeout: float | None = None) -> bool | None:
    """Check a DRAT proof with ``drat-trim`` if it is installed (None if it is not).
    True when drat-trim reports ``s VERIFIED``."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    args = [exe, str(cnf_path), str(proof_path)]
    if timeout is not None:
        args += ["-t", str(int(max(1, timeout)))]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=None if timeout is None else timeout + 10)
    except subprocess.TimeoutExpired:
        return False
    return "s VERIFIED" in out.stdout
