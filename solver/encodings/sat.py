"""SAT encoding of perfect-information Hanabi: "from this position, can the game end with
a score of at least ``target``?"

The question becomes a CNF formula, solved with a python-sat solver (CaDiCaL 1.9.5 by
default). A model decodes into a line of engine actions, which is replayed through the rules
engine before it is returned (a line the engine rejects is a bug, and raises); UNSAT proves
the target unreachable, and the solver's DRAT proof can be written out and checked with
``drat-trim`` (:func:`check_drat`).

Two encodings of the same rules are provided:

* ``model="steps"`` (the default, :func:`encode_steps`): indexed by *removals*. Before the
  deck runs out every turn is either a clue or a play/discard that draws, so a game is D
  steps, each "a run of clue turns, then the removal of the next deck card", followed by
  the final round. Card i is drawn at step i, so its holder is the actor of step i, and no
  horizon is needed. With the redundant hand-capacity constraint this decides the hard
  two-player decks in seconds.
* ``model="turns"`` (:func:`encode_turns`): indexed by turns ``t = 0..H-1`` over a safe
  horizon H (:func:`horizon`), one action per turn (play, discard, clue as a stall, or the
  no-op of a finished game), draws in deck order through an order-encoded counter of
  removed cards. Simpler to read against the rules, much slower on hard decks; kept as a
  second, differently built witness.

Both read like an OR-Tools sample: *data* (the facts of the position, :class:`_Data`),
*variables* (named by documented tuples in an ``IDPool``), *constraints* (one block per
rule, each opening with the rule in plain words), *solve* (:func:`_solve`) and *decode*.
Constraints marked *redundant* follow from the others and only help the solver; the
*symmetry* block removes lines that are renamings of others (it keeps at least one line of
every outcome, so UNSAT still proves unreachability). The module imports only the rules
engine.

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
from pysat.solvers import Solver, SolverNames

from ..errors import EncodingError, UnknownOptionError, deck_text
from ..game import DISCARD, PLAY, Action, IllegalActionError, MalformedError, State
from ..support import check_solvable

__all__ = [
    "SatResult", "SatMax", "SatSession", "Encoding", "sat_reachable", "sat_max", "check_drat",
    "encode", "encode_steps", "encode_turns", "horizon",
]

MODELS = ("steps", "turns")
# the python-sat solver names (pysat.solvers.SolverNames), checked before any work
SOLVER_NAMES = tuple(sorted(k for k in vars(SolverNames) if not k.startswith("_")))


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SatResult:
    """``status`` is ``'sat'`` (``actions`` is a line from the position that the engine
    replays to a finished game scoring at least the target), ``'unsat'`` (the target is
    unreachable; ``actions`` is None) or ``'unknown'`` (time ran out). ``stats``:
    ``variables``, ``clauses``, ``turns`` (the encoding's length: events of the step model,
    the horizon H of the turn model), ``time`` (seconds, encoding + solving), and
    ``encode_time``, ``solve_time``, ``target``, ``model``, ``solver``."""

    status: str
    actions: list[Action] | None
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SatMax:
    """``max_score``: the score of the best line found (``actions`` reaches it; -1 and no
    actions if time ran out before any line); ``upper_bound``: every higher target was
    proven UNSAT; ``exact`` when the two meet. ``stats["calls"]`` lists the SAT calls."""

    max_score: int
    exact: bool
    upper_bound: int
    actions: list[Action]
    stats: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# Data: the facts of the position that the encodings need
# --------------------------------------------------------------------------------------
class _Data:
    """Plain facts read from a :class:`State` (which is not modified).

    Cards are named by their *order* (index in the deck, as in the engine). ``deck[j]`` is
    the order of the j-th card still to be drawn (``j = 0 .. D-1``, top first).
    """

    def __init__(self, state: State):
        g = state.game
        check_solvable(g)
        self.state = state
        self.N = g.num_players
        self.first = state.current                      # who acts first
        self.hand0 = [list(h) for h in state.hands]     # hands now, oldest card first
        self.hand_size = g.hand_size
        self.deck = list(range(state.next_draw, len(g.deck)))
        self.D = len(self.deck)
        self.suit = g.suit_of
        self.rank = g.rank_of
        self.S = g.variant.num_suits
        self.max_rank = list(g.max_rank)                # a suit is complete at its max rank
        self.stacks0 = list(state.stacks)
        self.score0 = sum(state.stacks)
        self.clues0 = state.clues
        self.M = g.max_clues                            # tokens, in units (Game.clue_cost)
        self.K = g.clue_cost                            # units a clue costs: 2 in Clue Starved
        self.RM = self.M // self.K                      # the most clues tokens can pay for
        self.stack_token = g.stack_token                # a completed suit gives a unit
        self.strikes0 = state.strikes
        self.L = g.strike_limit
        self.turns_left0 = state.turns_left
        self.empty_clues = g.free_clues  # empty clues allowed, or a clue kind that may touch nothing
        self.touchable = g.touchable        # per card: some clue touches it
        self.discard_at_max = g.discard_at_max  # inverted suits: a discard is legal at max tokens
        self.all_touchable = g.all_touchable
        self.deck_plays = g.rules.deck_plays and self.D >= 1
        self.strikeout_keeps_stacks = g.rules.strikeout_score == "stacks"
        self.perfect = g.perfect_score
        if g.alternation_binds:
            raise MalformedError(f"the SAT encoding does not model Alternating Clues where the rule binds "
                                 f"({g.variant.name!r}: some card is touched by one clue type only); the portfolio "
                                 f"uses the search and CP-SAT there")
        if self.turns_left0 is None and self.D == 0:
            raise MalformedError("position has an empty deck but no final-round counter")
        if self.turns_left0 is not None and self.turns_left0 > self.N:
            raise MalformedError(f"turns_left {self.turns_left0} exceeds the player count")
        # every card that can still be used: in a hand or in the deck
        self.live = sorted([o for h in self.hand0 for o in h] + self.deck)
        self.types = sorted({(self.suit[o], self.rank[o]) for o in self.live})
        # a game with fixed stacks (solver.split): per card type, the misplay its guard
        # forbids, (stack height, owner) as in Game.guard_height (every copy has the same)
        self.guard = {(self.suit[o], self.rank[o]): (g.guard_height[o], g.guard_owner[o])
                      for o in self.live if g.guard_height[o] >= 0}
        self.owner0 = {o: p for p, hand in enumerate(self.hand0) for o in hand}
        self.deck_index = {o: j for j, o in enumerate(self.deck)}
        # hanab.live's end of game (Game.site_end), and the players who have already had
        # their last turn (in the final round: all but the next turns_left)
        self.site_end = g.site_end
        tl = self.turns_left0
        self.finished0 = set() if tl is None else {p for p in range(self.N)
                                                   if (p - self.first) % self.N >= tl}

    def needed_copies(self) -> list[tuple[int, int, list[int]]]:
        """Per card type above its stack: ``(suit, rank, live copies)``."""
        groups: dict[tuple[int, int], list[int]] = {}
        for o in self.live:
            s, r = self.card_type(o)
            if r > self.stacks0[s]:
                groups.setdefault((s, r), []).append(o)
        return [(s, r, os) for (s, r), os in sorted(groups.items())]

    def actor(self, t: int) -> int:
        """The player of turn t (turn model: turns rotate from ``first``)."""
        return (self.first + t) % self.N

    def card_type(self, o: int) -> tuple[int, int]:
        return self.suit[o], self.rank[o]

    def copies(self) -> list[list[int]]:
        """Groups of live cards of the same suit and rank, by increasing order."""
        groups: dict[tuple[int, int], list[int]] = {}
        for o in self.live:
            groups.setdefault(self.card_type(o), []).append(o)
        return [g for g in groups.values() if len(g) > 1]


# --------------------------------------------------------------------------------------
# The CNF builder
# --------------------------------------------------------------------------------------
class Encoding:
    """A CNF under construction: an ``IDPool`` of named variables and a clause list.

    Literal ``TRUE`` (variable 1, fixed by a unit clause) and ``FALSE = -TRUE`` stand for
    constants, so that counters can return them outside their range; :meth:`add` drops
    satisfied clauses and false literals.
    """

    def __init__(self, data: _Data, target: int, model: str):
        self.data = data
        self.target = target
        self.model = model
        self.length = 0          # events (step model) or turns H (turn model)
        self.pool = IDPool()
        self.TRUE = self.pool.id(("true",))
        self.FALSE = -self.TRUE
        self.clauses: list[list[int]] = [[self.TRUE]]

    def var(self, *key) -> int:
        return self.pool.id(key)

    def has(self, *key) -> bool:
        return key in self.pool.obj2id

    def value(self, true: set[int], *key) -> bool:
        """A variable's value in a model (given as its set of true literals)."""
        return self.pool.obj2id.get(key) in true

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
        """Drop constant literals; each TRUE lowers the bound."""
        out = []
        for lit in lits:
            if lit == self.TRUE:
                bound -= 1
            elif lit != self.FALSE:
                out.append(lit)
        return out, bound

    def at_most(self, lits, bound: int) -> None:
        """At most ``bound`` of ``lits`` (pysat.card: pairwise or ladder for one, else a
        sequential counter)."""
        lits, bound = self._card_lits(lits, bound)
        if bound < 0:
            self.add([])
        elif bound >= len(lits):
            return
        elif bound == 0:
            for lit in lits:
                self.add([-lit])
        else:
            if bound == 1:
                encoding = EncType.ladder if len(lits) > 5 else EncType.pairwise
            else:
                encoding = EncType.seqcounter
            for cl in CardEnc.atmost(lits, bound, vpool=self.pool, encoding=encoding).clauses:
                self.add(cl)

    def at_least(self, lits, bound: int) -> None:
        """At least ``bound`` of ``lits`` (pysat.card totalizer)."""
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


# Optional constraint groups (all on by default): "pace", "capacity" and "needed" are
# redundant (implied by the rules), "symmetry" breaks the symmetry between same cards.
STEP_FEATURES = frozenset({"pace", "capacity", "needed", "symmetry"})
TURN_FEATURES = frozenset({"pace", "needed", "symmetry"})


def _counters(enc: Encoding, d: _Data):
    """The literals of the unary counters both models keep per event or turn ``t``:
    ``stack(t, s, h)`` (suit ``s`` has reached ``h``), ``clues(t, i)`` (at least ``i``
    tokens), ``strikes(t, i)`` (at least ``i`` strikes). Outside a counter's range they
    are constants, and at ``t = 0`` they are the position's values."""
    TRUE, FALSE, v = enc.TRUE, enc.FALSE, enc.var

    def stack(t, s, h):
        if h <= 0:
            return TRUE
        if h > d.max_rank[s]:
            return FALSE
        if t == 0:
            return TRUE if d.stacks0[s] >= h else FALSE
        return v("stack", t, s, h)

    def counter(name, top, start):
        """A counter of ``top`` at most, worth ``start`` at t = 0."""
        def lit(t, i):
            if i <= 0:
                return TRUE
            if i > top:
                return FALSE
            if t == 0:
                return TRUE if start >= i else FALSE
            return v(name, t, i)
        return lit

    clues = counter("clues", d.M, d.clues0)
    strikes = counter("strikes", d.L, d.strikes0)

    return stack, clues, strikes


def _guard(enc: Encoding, d: _Data, stack, t: int, kp: int, ty: int, s: int, r: int) -> None:
    """A game with fixed stacks (solver.split): a card of type (s, r) is not misplayed at
    ``t`` while its stack is at the guard's height and the owner's stack (if any) is
    empty: the real game would play it there."""
    h, owner = d.guard[s, r]
    enc.add([-kp, -ty, -stack(t, s, h), stack(t, s, h + 1)] + ([stack(t, owner, 1)] if owner >= 0 else []))


def _over_or_done(enc: Encoding, over: int, over_before: int, ends: list[int], done: int) -> None:
    """The game's end with hanab.live's (Game.site_end): over when one of ``ends`` holds,
    possibly also where ``done`` (nothing more can be scored), and once over it stays so."""
    enc.implies([over], ends + [done])
    for lit in ends:
        enc.implies([lit], [over])
    enc.implies([over_before], [over])


# --------------------------------------------------------------------------------------
# The step model (default)
# --------------------------------------------------------------------------------------
def encode_steps(state: State, target: int, *, features: frozenset[str] | None = None) -> Encoding:
    """The CNF "from ``state`` the game can end with a score of at least ``target``",
    indexed by removals.

    Before the deck runs out, a play or discard is always followed by a draw, so every turn
    is either a clue or the removal of the next deck card (drawn into the actor's hand, or
    at the very end played straight from the deck). A game is therefore D *steps* — step i
    is a run of c_i clue turns (each costs a token, so 0 <= c_i <= tokens) followed by the
    turn that removes deck card i — and then the final round, F = N turns (or the
    ``turns_left`` still to play if it has begun), each a play, discard or clue. Card i is
    drawn at step i, so its holder is the actor of step i, and nothing bounds the length of
    a game but the tokens: no horizon is needed. Steps and final turns are the *events*
    e = 0 .. E-1 (E = D + F).

    Variables (per event e; counters at the *start* of event e, e = 0..E, are order-encoded
    — ``(name, e, i)`` true means "at least i" — and are the position's constants at e = 0):

    ==========================  ===============================================================
    ``("run", e, c)``           at least c clue turns just before step e (c = 1..max tokens)
    ``("runis", e, c)``         exactly c clue turns before step e
    ``("runmod", e, m)``        the run's length is m modulo N (it moves the turn on m places)
    ``("actor", e, p)``         player p takes event e's action (after the run)
    ``("play", e)``             event e is a play (from the hand, or the last deck card)
    ``("discard", e)``          event e is a discard
    ``("clue", e)``             final turn e is a clue (content chosen when decoding)
    ``("deckplay", e)``         step e = D-1 plays the last card straight from the deck
    ``("use", e, o)``           event e plays or discards card order o
    ``("type", e, s, r)``       the card used at event e has suit s and rank r
    ``("bomb", e)``             event e's play fails: a strike
    ``("complete", e, s)``      event e completes suit s
    ``("gain", e)``             event e brings a token back (a discard or a completed suit)
    ``("over", e)``             the game is over at the start of event e: nothing happens
    ``("allcomplete", e)``      every stack is complete at the start of event e
    ``("stack", e, s, h)``      counter: the stack of suit s is at least h (1..max rank)
    ``("clues", e, i)``         counter: at least i tokens at the start of event e
    ``("clues_at", e, i)``      counter: at least i tokens when step e's removal is made
    ``("strikes", e, i)``       counter: at least i strikes
    ``("used", e, o)``          card o was played or discarded before event e
    ``("emptied", e, p)``       (one-card hands) player p has no card left at final turn e
    ``("waste", e)``            step e removes a card without scoring (redundant: pace)
    ``("held", e, o, p)``       deck card o is in p's hand at step e (redundant: capacity)
    ``("lost", o)``             card o is discarded or bombed (redundant: needed)
    ==========================  ===============================================================
    """
    features = STEP_FEATURES if features is None else features

    # ---- Data -------------------------------------------------------------------------
    d = _Data(state)
    N, D, M, L, S = d.N, d.D, d.M, d.L, d.S
    K, RM = d.K, d.RM
    if D > 0 and any(len(hand) != d.hand_size for hand in d.hand0):
        raise MalformedError("position has cards in the deck but a hand that is not full")
    F = N if D > 0 else d.turns_left0          # turns of the final round
    E = D + F                                  # events: D steps, then F final turns
    last = d.deck[-1] if D else None           # the card a deck play plays
    size_final = [d.hand_size if D > 0 else len(h) for h in d.hand0]  # hands as it begins

    def candidates(e):
        """The cards event e may use: dealt ones (their holder must act), deck cards
        drawn at earlier steps, and at the last step the last card from the deck."""
        cands = [o for o in d.live if o in d.owner0 or d.deck_index[o] < e]
        if d.deck_plays and e == D - 1:
            cands.append(last)
        return cands

    cands = [candidates(e) for e in range(E)]
    types_at = [sorted({d.card_type(o) for o in cands[e]}) for e in range(E)]

    enc = Encoding(d, target, "steps")
    enc.length, enc.steps = E, D
    TRUE, FALSE = enc.TRUE, enc.FALSE
    v = enc.var

    # ---- Variables --------------------------------------------------------------------
    play = [v("play", e) for e in range(E)]
    discard = [v("discard", e) for e in range(E)]
    clue = [v("clue", e) if e >= D else FALSE for e in range(E)]
    deckplay = [v("deckplay", e) if (d.deck_plays and e == D - 1) else FALSE for e in range(E)]
    actor = [[v("actor", e, p) for p in range(N)] for e in range(E)]
    use = {(e, o): v("use", e, o) for e in range(E) for o in cands[e]}
    typ = {(e, s, r): v("type", e, s, r) for e in range(E) for (s, r) in types_at[e]}
    bomb = [v("bomb", e) for e in range(E)]
    gain = [v("gain", e) for e in range(E)]
    complete = [[v("complete", e, s) for s in range(S)] for e in range(E)]
    runmod = [[v("runmod", e, m) for m in range(N)] if e < D else [TRUE] + [FALSE] * (N - 1)
              for e in range(E)]

    def type_lit(e, s, r):
        return typ.get((e, s, r), FALSE)

    def run(e, c):
        if c <= 0:
            return TRUE
        return v("run", e, c) if (e < D and c <= RM) else FALSE

    def over(e):
        return FALSE if e == 0 else v("over", e)

    stack, clues, strikes = _counters(enc, d)

    def clues_at(e, i):
        if e >= D:                             # no clue runs in the final round
            return clues(e, i)
        if i <= 0:
            return TRUE
        return v("clues_at", e, i) if i <= M else FALSE

    def used(e, o):
        return FALSE if e == 0 else v("used", e, o)

    # ---- Constraints ------------------------------------------------------------------
    for e in range(E):
        step = e < D
        kp, kd, kc, dp = play[e], discard[e], clue[e], deckplay[e]

        # One action per event: a step is a play or a discard (the removal); a final turn
        # is a play, a discard or a clue; once the game is over, nothing happens.
        enc.exactly_one([kp, kd, kc, over(e)])

        # The clue run before a step: each clue costs a token (K units), so there are at
        # most as many as the tokens pay for, and units after the run = units before - K x
        # its length. A run of c clues moves the turn on c places, so only c modulo N
        # matters for who acts.
        if step:
            for c in range(1, M + 1):  # (one loop: with K = 1 the clauses come in the order they always did)
                if c <= RM:
                    enc.implies([run(e, c)], [run(e, c - 1)])
                    enc.implies([run(e, c)], [clues(e, K * c)])
                    enc.implies([run(e, c)], [-over(e)])
                enc.implies([clues_at(e, c)], [clues_at(e, c - 1)])
            for a in range(M + 1):
                for b in range(RM + 1):
                    # units >= a+Kb and run <= b  ->  after >= a;  after >= a and run >= b
                    # ->  units >= a+Kb
                    if a >= 1:
                        enc.implies([clues(e, a + K * b), -run(e, b + 1)], [clues_at(e, a)])
                    enc.implies([clues_at(e, a), run(e, b)], [clues(e, a + K * b)])
            for m in range(N):
                exact = []
                for c in range(m, RM + 1, N):
                    x = v("runis", e, c)
                    enc.iff_and(x, [run(e, c), -run(e, c + 1)])
                    exact.append(x)
                enc.iff_or(runmod[e][m], exact)

        # Who acts: the player after the previous event's actor, moved on by the run
        # (the position's current player acts first).
        enc.exactly_one(actor[e])
        for p in range(N):
            prev = (TRUE if (p + 1) % N == d.first else FALSE) if e == 0 else actor[e - 1][p]
            for m in range(N):
                enc.implies([prev, runmod[e][m]], [actor[e][(p + 1 + m) % N]])

        # A play or discard uses exactly one card; a clue or a no-op uses none.
        here = [use[e, o] for o in cands[e]]
        enc.add([-kp] + here)
        enc.add([-kd] + here)
        for lit in here:
            enc.add([-lit, kp, kd])
        enc.at_most(here, 1)
        for (s, r) in types_at[e]:
            enc.iff_or(typ[e, s, r], [use[e, o] for o in cands[e] if d.card_type(o) == (s, r)])

        # Only a card in the actor's hand can be used: one dealt to the actor, or deck
        # card j drawn by the actor at step j < e; and not one used before.
        for o in cands[e]:
            u = use[e, o]
            enc.implies([u], [-used(e, o)])
            if o in d.owner0:
                enc.implies([u], [actor[e][d.owner0[o]]])
            elif o == last and e == D - 1:
                enc.implies([u], [dp])
            else:
                j = d.deck_index[o]
                for p in range(N):
                    enc.implies([u, actor[j][p]], [actor[e][p]])

        # Deck plays: at the last step, the actor may play the last card straight from the
        # deck (a play of that card; nobody draws it).
        if dp != FALSE:
            enc.implies([dp], [kp])
            enc.implies([dp], [use[e, last]])

        # No discard when all clue tokens are available (except with inverted suits, where
        # it gains none: the token counter stops at the maximum).
        if not d.discard_at_max:
            enc.implies([kd], [-clues_at(e, M)])

        # A clue in the final round costs a token and, unless empty clues are allowed,
        # needs another player holding a card (here every card is touched by some clue; the
        # variants with cards no clue touches are the block after this one; Game.free_clues:
        # a clue may touch nothing). A hand loses its card when its holder plays or
        # discards in the final round (once at most), so only one-card hands can run out.
        # Before the final round every hand is full, so a clue run always has a player to clue.
        if kc != FALSE:
            enc.implies([kc], [clues_at(e, K)])
            if not d.empty_clues and d.all_touchable:
                for p in range(N):
                    others = []
                    for q in range(N):
                        if q != p and size_final[q] >= 2:
                            others = [TRUE]
                            break
                        if q != p and size_final[q] == 1:
                            others.append(-v("emptied", e, q) if e > D else TRUE)
                    enc.implies([kc, actor[e][p]], others)
                for q in range(N):
                    if size_final[q] == 1:
                        cur = v("emptied", e, q) if e > D else FALSE
                        nxt = v("emptied", e + 1, q)
                        enc.implies([cur], [nxt])
                        enc.implies([actor[e][q], kp], [nxt])
                        enc.implies([actor[e][q], kd], [nxt])
                        enc.implies([nxt], [cur, actor[e][q]])
                        enc.implies([nxt], [cur, kp, kd])

        # Cards no clue touches (unless a clue may touch nothing): a clue needs another
        # player holding a card some clue touches. ("touchable", e, q): q holds one at
        # event e — a dealt card not yet used, or deck card j < e, drawn by the actor of
        # step j, not yet used ("holds", e, j, q). Hands do not change during a clue run,
        # whose k-th clue is given by the player k seats after the previous actor.
        if not d.empty_clues and not d.all_touchable:
            tch = [v("touchable", e, q) for q in range(N)]
            for q in range(N):
                mine = [-used(e, o) for o in d.hand0[q] if d.touchable[o]]
                for j in range(min(e, D)):
                    o = d.deck[j]
                    if d.touchable[o]:
                        x = v("holds", e, j, q)
                        enc.implies([x], [actor[j][q]])
                        enc.implies([x], [-used(e, o)])
                        mine.append(x)
                enc.add([-tch[q]] + mine)
            if step:
                for p in range(N):
                    prev = (TRUE if (p + 1) % N == d.first else FALSE) if e == 0 else actor[e - 1][p]
                    for k in range(1, RM + 1):
                        g = (p + k) % N
                        enc.add([-prev, -run(e, k)] + [tch[q] for q in range(N) if q != g])
            elif kc != FALSE:
                for p in range(N):
                    enc.add([-kc, -actor[e][p]] + [tch[q] for q in range(N) if q != p])

        # A play succeeds when the card's rank is one above its stack; otherwise it is a
        # bomb (a strike; the card is lost).
        enc.implies([bomb[e]], [kp])
        for (s, r) in types_at[e]:
            ty, below, here_ = typ[e, s, r], stack(e, s, r - 1), stack(e, s, r)
            enc.implies([kp, ty, -below], [bomb[e]])
            enc.implies([kp, ty, here_], [bomb[e]])
            enc.implies([kp, ty, below, -here_], [-bomb[e]])
            if (s, r) in d.guard:
                _guard(enc, d, stack, e, kp, ty, s, r)

        # Stacks: suit s reaches h exactly when a card of suit s and rank h is played on a
        # stack at h-1.
        for s in range(S):
            for h in range(1, d.max_rank[s] + 1):
                nxt, cur, below = v("stack", e + 1, s, h), stack(e, s, h), stack(e, s, h - 1)
                ty = type_lit(e, s, h)
                enc.implies([cur], [nxt])
                enc.implies([kp, ty, below], [nxt])
                enc.implies([nxt], [cur, kp])
                enc.implies([nxt], [cur, ty])
                enc.implies([nxt], [cur, below])
                enc.implies([nxt], [stack(e + 1, s, h - 1)])

        # A discard brings a unit back, and so does completing a suit (its max rank; not
        # in Throw It in a Hole).
        for s in range(S):
            top = d.max_rank[s]
            enc.iff_and(complete[e][s], [stack(e + 1, s, top), -stack(e, s, top)])
        enc.iff_or(gain[e], [kd] + (complete[e] if d.stack_token else []))

        # Units after the event: one more after a gain (none beyond the maximum), K fewer
        # after a final-round clue, else unchanged. (A gain and a clue never meet.)
        for i in range(1, M + 1):
            nxt = v("clues", e + 1, i)
            up, same, down = clues_at(e, i - 1), clues_at(e, i), clues_at(e, i + K)
            enc.implies([gain[e], up], [nxt])
            enc.implies([gain[e], nxt], [up])
            enc.implies([kc, down], [nxt])
            enc.implies([kc, nxt], [down])
            enc.implies([-gain[e], -kc, same], [nxt])
            enc.implies([-gain[e], -kc, nxt], [same])

        # Strikes: one more after a bomb.
        for i in range(1, L + 1):
            nxt, cur, below = v("strikes", e + 1, i), strikes(e, i), strikes(e, i - 1)
            enc.implies([cur], [nxt])
            enc.implies([bomb[e], below], [nxt])
            enc.implies([nxt], [cur, bomb[e]])
            enc.implies([nxt], [cur, below])

        # A card is used once: used after this event = used before, or used now.
        for o in d.live:
            enc.iff_or(v("used", e + 1, o), [used(e, o), use.get((e, o), FALSE)])

    # The game ends at the strike limit or when every stack is complete (every later
    # event is then a no-op, so nothing changes), and in any case after the final round,
    # the last event.
    for e in range(1, E + 1):
        allc = v("allcomplete", e)
        enc.iff_and(allc, [stack(e, s, d.max_rank[s]) for s in range(S)])
        if not d.site_end:
            enc.iff_or(over(e), [strikes(e, L), allc])
            continue
        # hanab.live also ends the game once nothing more can be scored (Game.site_end):
        # the game may stop at event e only then ("done", e), and once stopped it stays so.
        # Stopping changes no score; it spares the moves that would follow (a forced misplay).
        _over_or_done(enc, over(e), over(e - 1), [strikes(e, L), allc], v("done", e))

    # What "done" needs: every incomplete stack's next card is gone — each copy discarded
    # or bombed (used while its stack is below it) or, from the second final-round turn
    # on, held by a player who has had their last turn: one who acted in the final round
    # (deck card j is held by the actor of step j), or, when the position is in the final
    # round already, one who acted before it.
    if d.site_end:
        needed = d.needed_copies()
        for e in range(1, E + 1):
            dn = v("done", e)
            final = D == 0 or e > D
            acted = {}
            if final:
                for p in range(N):
                    if p in d.finished0:
                        acted[p] = TRUE
                    else:
                        x = acted[p] = v("acted", e, p)
                        enc.add([-x] + [actor[e2][p] for e2 in range(D, e)])
            for s, r, copies in needed:
                gap = [-dn, -stack(e, s, r - 1), stack(e, s, r)]
                for o in copies:
                    gone = gap + [used(e, o)]
                    if not final:
                        enc.add(gone)
                    elif o in d.owner0:
                        enc.add(gone + [acted[d.owner0[o]]])
                    else:
                        j = d.deck_index[o]
                        for p in range(N):
                            enc.add(gone + [-actor[j][p], acted[p]])

    # The score: the stacks at the end add up to at least the target; a strikeout scores
    # 0 (unless the rules keep the stacks), so a line to a positive target never strikes
    # out.
    enc.at_least([stack(E, s, h) for s in range(S) for h in range(1, d.max_rank[s] + 1)], target)
    if target >= 1 and not d.strikeout_keeps_stacks:
        for e in range(1, E + 1):
            enc.add([-strikes(e, L)])

    # Pace (redundant): every successful play is made at a step or in the final round,
    # so at most score0 + D + F - target steps may waste their removal (a discard or a
    # bomb) — hanab.live's pace, measured against the target.
    budget = d.score0 + D + F - target
    if budget < 0:
        enc.add([])
    elif "pace" in features:
        waste = [v("waste", e) for e in range(D)]
        for e in range(D):
            enc.implies([discard[e]], [waste[e]])
            enc.implies([bomb[e]], [waste[e]])
        enc.at_most(waste, budget)

    # Hand capacity (redundant): until the deck runs out, each player holds exactly a
    # hand's worth of cards; here: at most that many dealt and drawn cards not yet used.
    # A card is drawn at its step only if the game was not already over then (a no-op
    # step draws nothing).
    if "capacity" in features:
        for e in range(1, D):
            for p in range(N):
                lits = [-used(e, o) for o in d.hand0[p]]
                for j in range(e):
                    x = v("held", e, d.deck[j], p)
                    enc.implies([actor[j][p], -used(e, d.deck[j]), -over(j)], [x])
                    lits.append(x)
                enc.at_most(lits, d.hand_size)

    # Needed cards (redundant, perfect target only): every card not yet played is needed,
    # so for each one, not all of its copies may be discarded or bombed.
    if "needed" in features and target >= d.perfect:
        for (s, r) in d.types:
            if r <= d.stacks0[s]:
                continue
            keep = []
            for o in d.live:
                if d.card_type(o) != (s, r):
                    continue
                lost = v("lost", o)
                for e in range(E):
                    if (e, o) in use:
                        enc.implies([use[e, o], discard[e]], [lost])
                        enc.implies([use[e, o], bomb[e]], [lost])
                keep.append(-lost)
            enc.add(keep)

    # Symmetry: two cards of the same suit and rank are interchangeable, so when both are
    # in the actor's hand the older one (lower order) is used first. Any line can be made
    # to obey this by swapping the two cards' names from the first event that breaks it
    # on: both stay in one hand, so every later use stays legal and the outcome is the
    # same. (A deck play is left alone.)
    if "symmetry" in features:
        for group in d.copies():
            for i, k1 in enumerate(group):
                for k2 in group[i + 1:]:
                    for e in range(E):
                        if (e, k1) not in use or (e, k2) not in use or (k2 == last and e == D - 1):
                            continue
                        for p in range(N):
                            if k1 in d.owner0:
                                if d.owner0[k1] != p:
                                    continue
                                drawn_by_p = []
                            else:
                                drawn_by_p = [-actor[d.deck_index[k1]][p]]
                            enc.add([-use[e, k2], -actor[e][p], used(e, k1)] + drawn_by_p)
    return enc


def _decode_steps(enc: Encoding, true: set[int]) -> list[Action]:
    """The step model's line: each step's clue run, then its play or discard; then the
    final round. Clue content is any legal clue of the engine."""
    d = enc.data
    st = d.state.copy()
    actions: list[Action] = []
    for e in range(enc.length):
        if enc.value(true, "over", e) or st.over:  # (the engine may end it first: Game.site_end)
            break
        if e < enc.steps:
            for _ in range(sum(enc.value(true, "run", e, c) for c in range(1, d.RM + 1))):
                actions.append(st.apply(_any_clue(st)))
                if st.over:  # a position with nothing left to score ends at its first action
                    return actions
        if enc.value(true, "clue", e):
            actions.append(st.apply(_any_clue(st)))
            continue
        cards = [o for o in d.live if enc.value(true, "use", e, o)]
        if len(cards) != 1:
            raise EncodingError(f"decode: event {e} uses {len(cards)} cards", deck=deck_text(d.state),
                                method="sat steps")
        kind = PLAY if enc.value(true, "play", e) else DISCARD
        actions.append(st.apply(Action(kind, cards[0])))
    return actions


# --------------------------------------------------------------------------------------
# The turn model
# --------------------------------------------------------------------------------------
def horizon(data: _Data, target: int) -> int:
    """A turn count H such that every game from the position that ends with a score of at
    least ``target`` is over at the start of turn H.

    If the final round has started (``turns_left`` set), exactly ``turns_left`` turns remain.
    Otherwise let t* be the turn that removes the last deck card (by a draw or a deck play);
    the game is over at t* + N + 1 at the latest (the final round gives each player one more
    turn) and earlier if it ends by strikeout or a perfect score. Before t*, no play or
    discard happens without a draw, so every turn before t* is either one of the other D-1
    removals or a clue. Each clue costs a token (K units: 2 in Clue Starved, else 1), and
    units come only from the c0 in hand, from discards (each a removal, so at most D-1
    before t*) and from completed suits (at most one per suit not yet complete; none in
    Throw It in a Hole). To end with at least ``target``, at least
    ``target - score0 - N - 1`` cards must be played successfully before t* (at most N plays
    in the final round and one at t* itself), and those removals are not discards. Hence
        t* <= (D-1) + (c0 + (D-1 - max(0, target - score0 - N - 1)) + incomplete suits) / K,
    and H = t*_max + N + 1. A game that ends early (perfect score, or strikeout with the
    'stacks' rule) is shorter still: all its successful plays are removals before t*.
    """
    d = data
    if d.turns_left0 is not None:
        return d.turns_left0
    incomplete = sum(1 for s in range(d.S) if d.stacks0[s] < d.max_rank[s]) if d.stack_token else 0
    need_early = max(0, target - d.score0 - d.N - 1)
    discards = max(0, d.D - 1 - need_early)
    t_star = (d.D - 1) + (d.clues0 + discards + incomplete) // d.K
    return t_star + d.N + 1


def encode_turns(state: State, target: int, *, horizon_turns: int | None = None,
                 features: frozenset[str] | None = None) -> Encoding:
    """The CNF "from ``state`` the game can end with a score of at least ``target``",
    indexed by turns t = 0..H-1 over the safe horizon H of :func:`horizon`.

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
    ``("used", t, o)``        card o was played or discarded before turn t
    ``("owner", j, p)``       deck card j was drawn by player p
    ``("lost", o)``           card o is discarded or bombed (redundant: needed)
    ========================  =================================================================
    Counters at t = 0 are the position's constants.
    """
    features = TURN_FEATURES if features is None else features
    d = _Data(state)
    enc = Encoding(d, target, "turns")
    H = horizon(d, target) if horizon_turns is None else horizon_turns
    enc.length = H
    TRUE, FALSE = enc.TRUE, enc.FALSE
    N, D, M, L, S = d.N, d.D, d.M, d.L, d.S
    K = d.K
    v = enc.var
    last = d.deck[-1] if D else None  # the card a deck play plays

    # --- counter accessors: constants outside the range and at t = 0 -------------------
    stack, clues, strikes = _counters(enc, d)

    def removed(t, i):
        if i <= 0:
            return TRUE
        if i > D or t == 0:
            return FALSE
        return v("removed", t, i)

    def over(t):
        return FALSE if t == 0 else v("over", t)

    deck_index = d.deck_index

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

        # No discard when all clue tokens are available (except with inverted suits, where
        # it gains none: the token counter stops at the maximum).
        if not d.discard_at_max:
            enc.implies([kd], [-clues(t, M)])

        # A clue costs a token, so it needs one; unless empty clues are allowed it must
        # touch a card, so some other player must hold a card (every card is touched by
        # some clue here; the variants with cards no clue touches are a block after this
        # loop; Game.free_clues: a clue may touch nothing). Hands shrink only after the deck
        # runs out, when each player acts at most once more, so only players down to one
        # card can be left with an empty hand.
        enc.implies([kc], [clues(t, K)])
        if not d.empty_clues and d.all_touchable:
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
            if (s, r) in d.guard:
                _guard(enc, d, stack, t, kp, ty, s, r)

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

        # A completed suit returns a clue unit (if not all are available; not in Throw It in
        # a Hole); a discard returns one too.
        comps = []
        for s in range(S):
            m = d.max_rank[s]
            c = v("complete", t, s)
            enc.iff_and(c, [stack(t + 1, s, m), -stack(t, s, m)])
            comps.append(c)
        gain = v("gain", t)
        enc.iff_or(gain, [kd] + (comps if d.stack_token else []))

        # Clue units (order-encoded): -K after a clue, +1 (capped at the maximum) after a
        # gain, unchanged otherwise. A gain and a clue never share a turn.
        for i in range(1, M + 1):
            nxt = v("clues", t + 1, i)
            up, same, down = clues(t, i - 1), clues(t, i), clues(t, i + K)
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

    def used(t, o):
        return FALSE if t == 0 else v("used", t, o)

    # Cards no clue touches (unless a clue may touch nothing): a clue needs another player
    # holding a card some clue touches. ("touchable", t, q): q holds one at the start of
    # turn t — a dealt card not yet used, or deck card j drawn by q ("owner") before t
    # ("removed", t, j + 1) and not yet used ("holds", t, j, q).
    if not d.empty_clues and not d.all_touchable:
        for t in range(H):
            me = d.actor(t)
            tch = {}
            for q in range(N):
                if q == me:
                    continue
                mine = [-used(t, o) for o in d.hand0[q] if d.touchable[o]]
                for j, o in enumerate(d.deck):
                    if d.touchable[o] and j < t:  # deck card j is drawn at turn j at the earliest
                        x = v("holds", t, j, q)
                        enc.implies([x], [v("owner", j, q)])
                        enc.implies([x], [removed(t, j + 1)])
                        enc.implies([x], [-used(t, o)])
                        mine.append(x)
                x = tch[q] = v("touchable", t, q)
                enc.add([-x] + mine)
            enc.add([-v("clue", t)] + list(tch.values()))

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
        if not d.site_end:
            enc.iff_or(over(t), [strikes(t, L), allc, final_done])
            continue
        # hanab.live also ends the game once nothing more can be scored (Game.site_end):
        # the game may stop at turn t only then ("done", t), and once stopped it stays so.
        _over_or_done(enc, over(t), over(t - 1), [strikes(t, L), allc, final_done], v("done", t))

    # What "done" needs: every incomplete stack's next card is gone — each copy discarded
    # or bombed (used while its stack is below it), or held by a player who has had their
    # last turn: one whose latest turn before t was in the final round (the deck was empty
    # at its start), or, when the position is in the final round already, one who acted
    # before it. A deck card counts only once it is drawn (its holder is its owner).
    if d.site_end:
        needed = d.needed_copies()
        for t in range(1, H + 1):
            dn = v("done", t)
            finished = {}
            for p in range(N):
                last_turn = t - 1 - (t - 1 - (p - d.first)) % N  # p's latest turn before t
                if p in d.finished0:
                    finished[p] = TRUE
                elif last_turn < 0:
                    finished[p] = FALSE
                else:
                    finished[p] = removed(last_turn, D)
            for s, r, copies in needed:
                gap = [-dn, -stack(t, s, r - 1), stack(t, s, r)]
                for o in copies:
                    gone = gap + [used(t, o)]
                    j = deck_index.get(o)
                    if j is None:
                        enc.add(gone + [finished[d.owner0[o]]])
                        continue
                    enc.add(gone + [removed(t, j + 1)])
                    for p in range(N):
                        enc.add(gone + [-v("owner", j, p), finished[p]])

    # The game is over within the horizon.
    enc.add([over(H)])

    # Each card is used (played or discarded) at most once: ("used", t, o) says card o was
    # used before turn t (order-encoded in t), and a used card cannot be used again.
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


def _decode_turns(enc: Encoding, true: set[int]) -> list[Action]:
    """The turn model's line: turn by turn until the game is over."""
    d = enc.data
    st = d.state.copy()
    actions: list[Action] = []
    for t in range(enc.length):
        if enc.value(true, "over", t) or st.over:  # (the engine may end it first: Game.site_end)
            break
        if enc.value(true, "clue", t):
            actions.append(st.apply(_any_clue(st)))
            continue
        cards = [o for o in d.live if enc.value(true, "use", t, o)]
        if len(cards) != 1:
            raise EncodingError(f"decode: turn {t} uses {len(cards)} cards", deck=deck_text(d.state),
                                method="sat turns")
        kind = PLAY if enc.value(true, "play", t) else DISCARD
        actions.append(st.apply(Action(kind, cards[0])))
    return actions


def _any_clue(st: State) -> Action:
    """A legal clue, :meth:`State.first_clue` (the encodings only say *that* a clue is given)."""
    a = st.first_clue()
    if a is None:
        raise EncodingError(f"decode: a clue is due at turn {st.turn} but no clue is legal", deck=deck_text(st),
                            method="sat")
    return a


def encode(state: State, target: int, *, model: str = "steps", features: frozenset[str] | None = None) -> Encoding:
    """The CNF for "score >= target is reachable from ``state``" in the given model."""
    if model == "steps":
        return encode_steps(state, target, features=features)
    if model == "turns":
        return encode_turns(state, target, features=features)
    raise UnknownOptionError("SAT model", model, MODELS)


# --------------------------------------------------------------------------------------
# Solve
# --------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------
# Decode and verify
# --------------------------------------------------------------------------------------
def _decode(enc: Encoding, model: list[int]) -> list[Action]:
    """The model's line as engine actions, replayed through the engine; raises
    :class:`EncodingError` (a bug) if the engine rejects it, or it does not finish the game with at
    least the target."""
    true = {lit for lit in model if lit > 0}
    try:
        actions = _decode_steps(enc, true) if enc.model == "steps" else _decode_turns(enc, true)
    except IllegalActionError as err:
        raise EncodingError(f"decode: the engine rejects the line: {err}", deck=deck_text(enc.data.state),
                            method=f"sat {enc.model}") from err
    st = enc.data.state.copy()
    for a in actions:
        st.apply(a)
    if not st.over:
        raise EncodingError("decode: the line does not finish the game", deck=deck_text(enc.data.state),
                            method=f"sat {enc.model}")
    if st.score < enc.target:
        raise EncodingError(f"decode: the line scores {st.score} < target {enc.target}",
                            deck=deck_text(enc.data.state), method=f"sat {enc.model}")
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
    features: frozenset[str] | None = None,
    conflicts: int | None = None,
) -> SatResult:
    """Can the game, from ``state``, end with a score of at least ``target``?

    ``solver``: a python-sat solver name (``cadical195``, ``glucose4``, ...). ``timeout``
    in seconds (None: no limit) turns a long search into ``'unknown'``; ``conflicts``, a
    deterministic budget in solver conflicts, does the same whatever the machine's load
    (it takes the place of ``timeout``). ``proof_path``:
    when the answer is UNSAT, write the solver's DRAT proof there (use a solver that can
    log proofs, e.g. CaDiCaL or Glucose), with the CNF at ``cnf_path`` (default:
    ``proof_path + '.cnf'``), for :func:`check_drat`; ``cnf_path`` alone writes the CNF.
    ``model``: ``'steps'`` (default) or ``'turns'``. ``features``: which optional
    constraint groups to add (default all; see ``STEP_FEATURES``/``TURN_FEATURES``).
    """
    _check_options(solver, model)
    t0 = time.perf_counter()
    if state.over:
        ok = state.score >= target
        stats = {"variables": 0, "clauses": 0, "turns": 0, "time": 0.0, "encode_time": 0.0,
                 "solve_time": 0.0, "target": target, "model": model, "solver": solver}
        return SatResult("sat" if ok else "unsat", [] if ok else None, stats)
    if proof_path is not None and cnf_path is None:
        cnf_path = str(proof_path) + ".cnf"
    with SatSession(state, target, solver=solver, model=model, features=features,
                    with_proof=proof_path is not None, slices=False) as session:
        if cnf_path is not None:
            Path(cnf_path).write_text(session.enc.to_dimacs())
        remaining = None if timeout is None or conflicts is not None else max(0.0, timeout - session.encode_time)
        res = session.run(conflicts, remaining)
    res.stats["time"] = time.perf_counter() - t0
    if res.status == "unsat" and proof_path is not None:
        Path(proof_path).write_text("".join(line + "\n" for line in session.proof or []))
        res.stats["proof_path"], res.stats["cnf_path"] = str(proof_path), str(cnf_path)
    return res


def _check_options(solver: str, model: str) -> None:
    if solver not in SOLVER_NAMES:
        raise UnknownOptionError("SAT solver", solver, SOLVER_NAMES)
    if model not in MODELS:
        raise UnknownOptionError("SAT model", model, MODELS)


# conflicts per slice of a sliced CaDiCaL run (pysat's CaDiCaL cannot be interrupted): a
# fixed size, so that the same budget runs the same slices whatever the machine's load
SLICE_CONFLICTS = 5000


class SatSession:
    """One question ("can the game end with at least ``target``?") with its CNF and a
    live solver, answered in budgets of conflicts: each :meth:`run` goes on where the last
    one stopped, learnt clauses kept, so a caller that doubles the budget round by round
    pays for each conflict once. The conflict budget is deterministic: the same budgets
    give the same answers on an idle or a loaded machine; ``timeout`` is only an outer
    safety limit (the answer is then ``'unknown'``). ``with_proof``: the solver logs a
    DRAT proof, kept in ``proof`` when the answer is UNSAT. ``slices``: CaDiCaL spends a
    conflict budget in fixed slices (:meth:`_sliced`, so that a timeout can stop it);
    False: in one call (then give no timeout with a budget). Close it (or use ``with``)
    to free the solver."""

    def __init__(self, state: State, target: int, *, solver: str = "cadical195", model: str = "steps",
                 features: frozenset[str] | None = None, with_proof: bool = False, slices: bool = True):
        _check_options(solver, model)
        if state.over:
            raise MalformedError("SatSession: the game is over")
        t0 = time.perf_counter()
        self.state, self.target, self.solver_name, self.model = state, target, solver, model
        self.enc = encode(state, target, model=model, features=features)
        self.encode_time = time.perf_counter() - t0
        self.solve_time = 0.0
        self.conflicts = 0  # conflicts spent so far
        self.result: SatResult | None = None  # once decided
        self.proof: list[str] | None = None  # the DRAT proof of an UNSAT answer (with_proof)
        self._with_proof, self._slices = with_proof, slices
        kwargs = {"with_proof": True} if with_proof else {}
        self._s: Solver | None = Solver(name=solver, bootstrap_with=self.enc.clauses, **kwargs)

    def run(self, conflicts: int | None, timeout: float | None = None) -> SatResult:
        """Spend up to ``conflicts`` more conflicts (None: no such limit) and at most
        ``timeout`` seconds (None: none)."""
        if self.result is not None:
            return self.result
        if self._s is None:
            raise MalformedError("SatSession: closed")
        s = self._s
        t0 = time.perf_counter()
        if conflicts is None and timeout is None:
            res = s.solve()
        elif self.solver_name.startswith("cadical") and (self._slices or conflicts is None):
            res = self._sliced(s, conflicts, timeout)
        else:
            if conflicts is not None:
                s.conf_budget(conflicts)
            timer = None
            if timeout is not None:
                timer = threading.Timer(timeout, s.interrupt)
                timer.start()
            try:
                res = s.solve_limited(expect_interrupt=timeout is not None)
            finally:
                if timer is not None:
                    timer.cancel()
                    s.clear_interrupt()
        self.solve_time += time.perf_counter() - t0
        self.conflicts = int(s.accum_stats().get("conflicts", 0))
        stats = {"variables": self.enc.pool.top, "clauses": len(self.enc.clauses), "turns": self.enc.length,
                 "time": self.encode_time + self.solve_time, "encode_time": self.encode_time,
                 "solve_time": self.solve_time, "target": self.target, "model": self.model,
                 "solver": self.solver_name, "conflicts": self.conflicts}
        if res is None:
            return SatResult("unknown", None, stats)
        if res:
            self.result = SatResult("sat", _decode(self.enc, s.get_model()), stats)
        else:
            if self._with_proof:
                self.proof = s.get_proof()
            self.result = SatResult("unsat", None, stats)
        self.close()
        return self.result

    @staticmethod
    def _sliced(s: Solver, conflicts: int | None, timeout: float | None) -> bool | None:
        """pysat's CaDiCaL cannot be interrupted: it runs in conflict-budget slices. With a
        conflict budget the slices are fixed (``SLICE_CONFLICTS``: the same budget runs
        the same slices whatever the load); with a timeout alone they are sized from the
        measured conflict rate. Learnt clauses are kept between slices."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        left, budget, res = conflicts, 2000, None
        while (left is None or left > 0) and (deadline is None or time.perf_counter() < deadline):
            step = min(left, SLICE_CONFLICTS) if left is not None else budget
            t0 = time.perf_counter()
            s.conf_budget(step)
            res = s.solve_limited()
            if res is not None:
                break
            if left is not None:
                left -= step
            elif deadline is not None:
                took = max(time.perf_counter() - t0, 1e-3)
                budget = int(max(1000, min(budget / took * min(deadline - time.perf_counter(), 5.0), 4 * budget)))
        return res

    def close(self) -> None:
        if self._s is not None:
            self._s.delete()
            self._s = None

    def __enter__(self) -> SatSession:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


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
    model: str = "steps",
) -> SatMax:
    """The maximum final score from ``state``, by a series of :func:`sat_reachable` calls.

    The first target is ``upper`` (default: the position's max reachable score, which
    ignores time and so bounds the maximum); if it is UNSAT, a binary search follows
    between the best line found (or ``lower``, a score believed reachable, e.g. from a
    heuristic) and the proven bound. A SAT answer raises the floor to the line's actual
    score, an UNSAT one lowers the bound, so the expensive UNSAT calls stay few. If
    ``lower`` turns out to be unreachable the search carries on below it.

    ``timeout`` bounds the total time; when it runs out, ``exact`` is False,
    ``upper_bound`` is the bound proven so far and ``max_score`` the best line found (-1
    and no actions if none was found).
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
        r = sat_reachable(state, target, timeout=left, solver=solver, model=model)
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
        # next: halfway between the floor and the bound (the floor itself while no line
        # reaches it yet and nothing lies between)
        target = (lo + ub + 1) // 2 if lo < ub else lo
    ub = max(ub, best)
    stats = {"calls": calls, "time": time.perf_counter() - t0}
    return SatMax(best, best == ub, ub, best_actions or [], stats)


def check_drat(cnf_path: str | Path, proof_path: str | Path, *, timeout: float | None = None) -> bool | None:
    """Check a DRAT proof of unsatisfiability with ``drat-trim`` if it is on the PATH;
    None if it is not. True when drat-trim answers ``s VERIFIED``."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    args = [exe, str(cnf_path), str(proof_path)]
    if timeout is not None:
        args += ["-t", str(int(max(1, timeout)))]
    try:
        out = subprocess.run(args, capture_output=True, text=True,
                             timeout=None if timeout is None else timeout + 10)
    except subprocess.TimeoutExpired:
        return False
    return "s VERIFIED" in out.stdout
