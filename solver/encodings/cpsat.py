"""CP-SAT encoding of full-information Hanabi: the maximum final score from a position.

Time is counted in *events*, not turns. While the deck has cards every play or discard is
followed by a draw, so every turn before the last draw is either a clue or the removal of
the next deck card. The game from the position is therefore D *steps* (D = cards left in
the deck) — step e is a run of ``run[e]`` clue turns followed by the turn that removes deck
card e (it goes to the actor's hand, or with deck plays the last card may be played straight
from the deck) — and then the final round, F events of one turn each (F = players, or the
turns left if the final round has begun). Deck card j is drawn at step j, so its holder is
the actor of step j: who holds what is known at every step, and no horizon is needed.

Every solution of the model is a legal line of the rules engine, and every legal line is a
solution up to one score-preserving restriction: *symmetry breaking* between two copies of
a card (same suit and rank) in one hand: the lower-order copy is used first
(``canonical_line`` renames the copies of a line the same way). The model holds only lines
scoring at least ``target`` (and at most ``upper``), so an infeasible model proves every
score in that range unreachable.

``cpsat_max`` decides in two phases: first the feasibility question "can the game reach the
cards' bound?" (a model without objective: often infeasible at once), then, if not, the
maximisation over the lines that beat the seed line (the hint or greedy playouts). With
full information a clue only spends a token (no rule looks at what it touched): the model
counts clues and the decoder picks concrete legal clues.

Layout, as in the OR-Tools CP-SAT samples: data -> variables -> constraints -> objective ->
solve -> decode. Each constraint block opens with its rule in plain words; blocks marked
*redundant* follow from the others and only help the solver. The solution is decoded into
engine :class:`Action` s, replayed through the engine, and its score checked against the
objective; a mismatch raises, since it would be a bug in the encoding.

Public API: :func:`cpsat_max` returning a :class:`CpsatResult`; :func:`model_accepts`
(does the model hold a given line? for tests); :func:`canonical_line`, :func:`greedy_line`.
"""
from __future__ import annotations

import math
import time
from collections.abc import Collection
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.errors import EncodingError, deck_text
from solver.game import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, MalformedError, State
from solver.strategy import best_greedy_line
from solver.support import check_solvable

__all__ = ["CpsatResult", "canonical_line", "cpsat_max", "greedy_line", "model_accepts"]

# the redundant constraints (``_Encoding._redundant``), by name: each rank played once if
# reached, no strikeout, pace, hand capacity, pace event by event, needed cards held (all
# hands), needed cards held (hand by hand; needs the capacity's held[e, j, p])
REDUNDANT = ("ranks", "strikes", "pace", "capacity", "pace_events", "needed_held", "needed_hands")

# kinds of model actions (how a chosen action literal is decoded)
_PLAY, _MISPLAY, _DISCARD, _DECK_PLAY, _DECK_MISPLAY, _CLUE = range(6)
_HAND_USES = (_PLAY, _MISPLAY, _DISCARD)


@dataclass(frozen=True)
class CpsatResult:
    """The answer of :func:`cpsat_max`.

    - ``status``: ``'optimal'`` (``max_score`` is proven maximal), ``'feasible'`` (a line
      was found, not proven best) or ``'unknown'`` (no line found in time).
    - ``max_score``: score of the best line found, as replayed by the engine (None if none).
    - ``upper_bound``: the proven bound: no line from the position scores more.
    - ``actions``: the best line found, engine actions from the position to the end.
    - ``stats``: model size and times (``variables``, ``constraints``, ``turns`` = events
      of the model, ``time`` = CP-SAT's solve wall time over all phases, ``wall_time`` =
      total including build and decode, ``phases`` = one entry per CP-SAT call, ...).
    """

    status: str
    max_score: int | None
    upper_bound: int
    actions: list[Action] = field(default_factory=list)
    stats: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------------
# literal helpers: a "literal" here is a CP-SAT Boolean variable (or its negation) or a
# Python bool for a fact already known when the model is built.
# ---------------------------------------------------------------------------------------
def _neg(lit):
    return (not lit) if isinstance(lit, bool) else ~lit


class _Encoding:
    """Builds the model for one position; keeps the variables for hinting and decoding.

    ``target``: only lines scoring at least this are modelled (0: every line).
    ``upper``: only lines scoring at most this (None: no cap). ``maximize``: with the
    objective "maximise the score" (else a feasibility model). ``symmetry``: break the
    symmetry between copies of a card. ``redundant``: add the implied constraints (True:
    all, False: none, or a collection of their names: see ``REDUNDANT``)."""

    def __init__(self, state: State, target: int = 0, *, upper: int | None = None, maximize: bool = True,
                 symmetry: bool = True, redundant: bool | Collection[str] = True):
        self.model = cp_model.CpModel()
        self.symmetry, self.redundant = symmetry, redundant
        # the counting constraints added (name, event, count, room: count <= room), so that
        # tests can see where a line meets them with equality
        self.rows: list[tuple] = []
        self.in_hand: list = []  # the in_hand literals (needed cards held, hand by hand)
        self._data(state, target, upper)
        self._variables()
        self._constraints()
        self._objective(maximize)

    # ---- literal helpers --------------------------------------------------------------
    def _clause(self, *lits) -> None:
        """At least one of ``lits`` holds (constants folded)."""
        rest = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                rest.append(lit)
        if not rest:
            raise EncodingError("empty clause: the encoding contradicts a known fact", deck=deck_text(self.state),
                                method="cpsat")
        self.model.add_bool_or(rest)

    def _implies(self, a, *conclusion) -> None:
        """``a`` implies at least one literal of ``conclusion``."""
        self._clause(_neg(a), *conclusion)

    def _and(self, x, lits) -> None:
        """x <-> AND(lits) (x a variable)."""
        if any(lit is False for lit in lits):
            self._clause(_neg(x))
            return
        rest = [lit for lit in lits if lit is not True]
        if rest:
            self.model.add_bool_and(rest).only_enforce_if(x)
        self._clause(x, *[_neg(lit) for lit in rest])

    def _ge(self, var, k: int, name: str):
        """A new literal that holds iff the integer ``var >= k`` (an order-encoding view)."""
        b = self.model.new_bool_var(name)
        self.model.add(var >= k).only_enforce_if(b)
        self.model.add(var <= k - 1).only_enforce_if(~b)
        return b

    # =====================================================================================
    # data
    # =====================================================================================
    def _data(self, st: State, target: int, upper: int | None) -> None:
        g = st.game
        check_solvable(g)
        self.state, self.game = st, g
        self.target, self.upper = target, upper
        self.n = n = g.num_players
        self.h = g.hand_size
        self.N = len(g.deck)
        self.d0 = st.next_draw  # deck card j (j = 0 is the top) has order d0 + j
        self.D = D = self.N - st.next_draw  # cards left in the deck = steps
        self.c0, self.k0 = st.clues, st.strikes
        self.M, self.L = g.max_clues, g.strike_limit  # tokens in units (Game.clue_cost)
        self.K = g.clue_cost  # units a clue costs: 2 in Clue Starved, else 1
        self.RM = self.M // self.K  # the most clues the tokens can pay for in a row
        self.S = g.variant.num_suits
        self.top = list(g.max_rank)  # a suit is complete at its highest rank
        self.st0 = list(st.stacks)
        self.cur0 = sum(self.st0)
        self.suit, self.rank = g.suit_of, g.rank_of
        self.rules = g.rules
        self.hands0 = [list(hand) for hand in st.hands]
        self.holder0 = {o: p for p, hand in enumerate(self.hands0) for o in hand}
        # While the deck has cards every hand is full (the deal fills them, every play or
        # discard draws); once it is empty the final round has begun.
        if D > 0 and any(len(hand) != self.h for hand in self.hands0):
            raise MalformedError("position has cards in the deck but a hand that is not full")
        if D == 0 and st.turns_left is None:
            raise MalformedError("position has an empty deck but no final-round counter")
        self.F = n if D > 0 else st.turns_left  # events (turns) of the final round
        self.E = D + self.F
        self.last = self.N - 1 if D else None  # the card a deck play plays
        self.deck_plays = bool(g.rules.deck_plays) and D >= 1
        # hand sizes as the final round begins (each player then acts once at most)
        self.final_size = [self.h if D > 0 else len(hand) for hand in self.hands0]
        # Cards still in play: in a hand or in the deck. A stack can only rise to ``reach``:
        # every rank above its height needs a live card of that suit and rank.
        self.live = sorted(list(self.holder0) + list(range(self.d0, self.N)))
        self.reach = list(st.reach())  # asked of the engine
        # When each card can first be used (played or discarded): first_use[o] is 0 if it
        # is dealt, j + 1 if it is deck card j (drawn at step j), and j = D - 1 for the last
        # card with deck plays (played from the deck at the last step); used[e, o] is False
        # up to it. A rank above a stack can be played only when a copy is available and
        # once the rank below has been played at an earlier event: first_play[s, r] =
        # max(first use of a copy, first_play[s, r - 1] + 1). So a stack reaches r at the
        # end of event first_play[s, r] at the earliest: stack_hi[e][s] (the most stack[e,
        # s] can be) counts the ranks whose first play is before e.
        self.first_use = {}
        avail: dict[tuple[int, int], int] = {}
        for o in self.live:
            j = self.deck_index(o)
            t = self.first_use[o] = 0 if j is None else (j if self.deck_plays and o == self.last else j + 1)
            key = (self.suit[o], self.rank[o])
            avail[key] = min(avail.get(key, t), t)
        self.first_play: dict[tuple[int, int], int] = {}
        for s in range(self.S):
            prev = -1
            for r in range(self.st0[s] + 1, self.reach[s] + 1):
                prev = self.first_play[s, r] = max(avail[s, r], prev + 1)
        self.stack_hi = [[self.st0[s] + sum(1 for r in range(self.st0[s] + 1, self.reach[s] + 1)
                                            if self.first_play[s, r] < e) for s in range(self.S)]
                         for e in range(self.E + 1)]

    def deck_index(self, o: int) -> int | None:
        """j for deck card j (drawn at step j), None for a card in a hand now."""
        return None if o in self.holder0 else o - self.d0

    def could_fit(self, o: int, e: int) -> bool:
        """Card o can fit at event e: it is above its stack, within reach, and its rank
        can be played by then (``first_play``: a copy is available and every rank below
        it can have been played at earlier events, one event each)."""
        s, r = self.suit[o], self.rank[o]
        return self.st0[s] < r <= self.reach[s] and self.first_play[s, r] <= e

    # =====================================================================================
    # variables
    # =====================================================================================
    def _variables(self) -> None:
        m, n, D, E, S, M = self.model, self.n, self.D, self.E, self.S, self.M

        # -- the position at the start of event e, e = 0..E (E: the end) -------------------
        # alive[e]          the game is not over (True at e = 0, False at e = E)
        # clues[e]          clue tokens
        # strikes[e]        strikes
        # stack[e, s]       height of suit s's stack; st0[s]..stack_hi[e][s] (the ranks that
        #                   can have been played before e)
        # used[e, o]        card o has been played or discarded (False up to e = first_use[o])
        self.alive = [True] + [m.new_bool_var(f"alive[{e}]") for e in range(1, E)] + [False]
        self.clues = [m.new_int_var(0, M, f"clues[{e}]") for e in range(E + 1)]
        self.strikes = [m.new_int_var(self.k0, self.L, f"strikes[{e}]") for e in range(E + 1)]
        self.stack = {
            (e, s): m.new_int_var(self.st0[s], self.stack_hi[e][s], f"stack[{e},{s}]")
            for e in range(E + 1) for s in range(S)
        }
        self.used = {(e, o): m.new_bool_var(f"used[{e},{o}]") for e in range(1, E) for o in self.live
                     if e > self.first_use[o]}

        # -- the clue run before step e (e = 0..D-1), and who acts ------------------------
        # run[e]            clue turns just before step e's removal (0..RM; 0 without tokens)
        # runmod[e, r]      run[e] is r modulo n (it moves the turn on r places)
        # runq[e]           run[e] // n
        # clues_at[e]       units when step e's removal is made: clues[e] - K run[e]
        # actor[e, p]       player p takes event e's action (after the run)
        RM = self.RM
        self.run = [m.new_int_var(0, RM, f"run[{e}]") if RM > 0 else 0 for e in range(D)]
        self.runmod = {(e, r): m.new_bool_var(f"runmod[{e},{r}]") for e in range(D) for r in range(n)} if RM > 0 else {}
        self.runq = [m.new_int_var(0, RM // n, f"runq[{e}]") for e in range(D)] if RM > 0 else []
        self.clues_at = [m.new_int_var(0, M, f"clues_at[{e}]") if e < D else self.clues[e] for e in range(E)]
        self.actor = {(e, p): m.new_bool_var(f"actor[{e},{p}]") for e in range(E) for p in range(n)}

        # -- order literals (views of the counters) -----------------------------------------
        # stack_ge[e, s, r] stack[e, s] >= r                    (the stack's height range)
        # full_at[e]        clues_at[e] == M (no discard; a completed suit returns nothing)
        # struck[e]         strikes[e] has reached the strike limit
        # perfect[e]        every stack is complete (False if some suit cannot be completed)
        self.stack_ge = {
            (e, s, r): self._ge(self.stack[e, s], r, f"stack_ge[{e},{s},{r}]")
            for e in range(E + 1) for s in range(S)
            for r in range(self.st0[s] + 1, self.stack_hi[e][s] + 1)
        }
        self.full_at = [self._ge(self.clues_at[e], M, f"full_at[{e}]") for e in range(E)]
        self.struck = [self._ge(self.strikes[e], self.L, f"struck[{e}]") for e in range(E + 1)]
        can_be_perfect = self.reach == self.top
        self.perfect = [m.new_bool_var(f"perfect[{e}]") if can_be_perfect and e > 0 else False
                        for e in range(E + 1)]

        # -- actions at event e (e = 0..E-1) -------------------------------------------------
        # play[e, o]        the actor plays card o from their hand and it fits its stack
        # misplay[e, o]     the actor plays card o from their hand and it does not fit
        # discard[e, o]     the actor discards card o from their hand
        # use[e, o]         one of these three: card o leaves the actor's hand at event e
        # deck_play[e]      (deckPlays, step D-1) the last deck card is played from the deck, fits
        # deck_misplay[e]   the same, and it does not fit
        # clue[e]           (final round) the actor gives a clue (only the token counts)
        # Card o can be used at event e if it is in a hand now (its holder must act), or it
        # is deck card j < e (drawn at step j by the actor of step j).
        self.play, self.misplay, self.discard, self.use = {}, {}, {}, {}
        self.deck_play, self.deck_misplay, self.clue = {}, {}, {}
        self.run_ge: dict = {}  # (e, k) -> the literal run[e] >= k, once made (_run_ge)
        # Alternating Clues where it binds (_alternating_clues): per step, the run's first
        # clue is a color clue, and the run is odd; per final-round clue, it is a color clue
        self.first_color: dict = {}
        self.odd: dict = {}
        self.clue_color: dict = {}
        self.actions = [[] for _ in range(E)]  # per event: (literal, kind, card order)
        self.uses_at = [[] for _ in range(E)]  # per event: (card, use literal)
        self.uses_of = {}  # card order -> every literal that removes it (hand use or deck play)
        self.removes = {}  # (e, o) -> the literals that remove card o at event e
        for e in range(E):
            for o in self.live:
                j = self.deck_index(o)
                if j is not None and j >= e:
                    continue
                kinds = []
                if self.could_fit(o, e):
                    self.play[e, o] = v = m.new_bool_var(f"play[{e},{o}]")
                    kinds.append((v, _PLAY))
                self.misplay[e, o] = v = m.new_bool_var(f"misplay[{e},{o}]")
                kinds.append((v, _MISPLAY))
                if M > 0 or self.game.discard_at_max:  # with no tokens at all, discarding is legal only then
                    self.discard[e, o] = v = m.new_bool_var(f"discard[{e},{o}]")
                    kinds.append((v, _DISCARD))
                self.use[e, o] = u = m.new_bool_var(f"use[{e},{o}]")
                self.uses_at[e].append((o, u))
                self.uses_of.setdefault(o, []).append(u)
                self.removes.setdefault((e, o), []).append(u)
                for v, kind in kinds:
                    self.actions[e].append((v, kind, o))
            if self.deck_plays and e == D - 1:
                o = self.last
                if self.could_fit(o, e):
                    self.deck_play[e] = v = m.new_bool_var(f"deck_play[{e}]")
                    self.actions[e].append((v, _DECK_PLAY, o))
                    self.uses_of.setdefault(o, []).append(v)
                    self.removes.setdefault((e, o), []).append(v)
                self.deck_misplay[e] = v = m.new_bool_var(f"deck_misplay[{e}]")
                self.actions[e].append((v, _DECK_MISPLAY, o))
                self.uses_of.setdefault(o, []).append(v)
                self.removes.setdefault((e, o), []).append(v)
            if e >= D and self.RM > 0:
                self.clue[e] = v = m.new_bool_var(f"clue[{e}]")
                self.actions[e].append((v, _CLUE, -1))

        # -- bookkeeping ---------------------------------------------------------------------
        # bonus[e]          completing a suit at event e returns a clue token
        # held[e, j, p]     (redundant: capacity) deck card j is in player p's hand at step e
        # emptied[e, p]     (final round) player p, holding one card as it began, has used it
        self.completers = [
            [v for (v, kind, o) in self.actions[e]
             if kind in (_PLAY, _DECK_PLAY) and self.rank[o] == self.top[self.suit[o]]]
            for e in range(E)
        ]
        # (no bonus in Throw It in a Hole)
        self.bonus = {e: m.new_bool_var(f"bonus[{e}]") for e in range(E)
                      if self.completers[e] and self.game.stack_token}
        self.held = {}
        self.emptied = {}
        self.uses_any = {}  # e -> literal: event e uses a card from the hand (final-round clues)
        self.done = {}  # e -> literal: (the site's end) nothing more can be scored at event e

        # score: the final score (0 after a strikeout unless the stacks are kept)
        self.score = m.new_int_var(0, self.game.perfect_score, "score")

    # literal views with folding of facts known at build time
    def ge_stack(self, e: int, s: int, r: int):
        """stack[e, s] >= r."""
        if r <= self.st0[s]:
            return True
        if r > self.stack_hi[e][s]:
            return False
        return self.stack_ge[e, s, r]

    def is_used(self, e: int, o: int):
        """Card o was played or discarded before event e."""
        if e <= self.first_use[o]:
            return False
        return self.used[e, o]

    # =====================================================================================
    # constraints
    # =====================================================================================
    def _constraints(self) -> None:
        m, n, D, E, S = self.model, self.n, self.D, self.E, self.S

        # -- The position before event 0 is the given state. -------------------------------
        m.add(self.clues[0] == self.c0)
        m.add(self.strikes[0] == self.k0)
        # stack[0, s] has the single value st0[s] by its domain; alive[0] is True.

        # -- Each event while the game goes on is exactly one action: a step removes a card
        #    (a play or discard from the hand, or a deck play); a final-round turn may also
        #    be a clue. Once the game is over nothing happens. ------------------------------
        for e in range(E):
            self._exactly_one([v for v, _, _ in self.actions[e]] + [_neg(self.alive[e])])
            kinds: dict[int, list] = {}
            for v, kind, c in self.actions[e]:
                if kind in _HAND_USES:
                    kinds.setdefault(c, []).append(v)
            for o, u in self.uses_at[e]:
                m.add(u == sum(kinds[o]))

        # -- The clue run before a step: each clue costs a token, K units (units after the
        #    run = units before - K x its length >= 0), none once the game is over; the run
        #    moves the turn on by its length, so only its length modulo n matters for who
        #    acts. ------------------------------------------------------------------------
        for e in range(D):
            if self.RM == 0:
                m.add(self.clues_at[e] == self.clues[e])
                continue
            run = self.run[e]
            m.add(self.clues_at[e] == self.clues[e] - self.K * run)
            if self.alive[e] is not True:
                m.add(run == 0).only_enforce_if(_neg(self.alive[e]))
            mods = [self.runmod[e, r] for r in range(n)]
            m.add_exactly_one(mods)
            m.add(run == sum(r * x for r, x in enumerate(mods)) + n * self.runq[e])

        # -- Who acts: the player after the previous event's actor, moved on by the run (a
        #    step) or not (a final-round turn); the position's current player is next. ------
        for e in range(E):
            m.add_exactly_one([self.actor[e, p] for p in range(n)])
            for p in range(n):
                prev = ((p + 1) % n == self.state.current) if e == 0 else self.actor[e - 1, p]
                if prev is False:
                    continue
                if e < D and self.RM > 0:
                    for r in range(n):
                        self._clause(_neg(prev), _neg(self.runmod[e, r]), self.actor[e, (p + 1 + r) % n])
                else:
                    self._implies(prev, self.actor[e, (p + 1) % n])

        # -- A card is played or discarded at most once, and only from its holder's hand: a
        #    card dealt to player p only when p acts; deck card j (drawn at step j by its
        #    actor) only when the actor of step j acts. used[e, o] records the uses so far. -
        for _o, uses in self.uses_of.items():
            if len(uses) > 1:
                m.add_at_most_one(uses)
        for (e, o), u in self.use.items():
            j = self.deck_index(o)
            if j is None:
                self._implies(u, self.actor[e, self.holder0[o]])
            else:
                for p in range(n):
                    self._clause(_neg(u), _neg(self.actor[j, p]), self.actor[e, p])
        for e in range(E - 1):
            for o in self.live:
                if e + 1 > self.first_use[o]:
                    m.add(self.used[e + 1, o] == self.is_used(e, o) + sum(self.removes.get((e, o), [])))

        # -- Playing: a played card fits iff its stack is one below its rank; a fitting card
        #    raises its stack by one, any other card is a misplay (a strike; the card goes to
        #    the discard pile). ---------------------------------------------------------------
        fitting = {}  # (e, s) -> literals of fitting plays of suit s at event e
        for e in range(E):
            for v, kind, o in self.actions[e]:
                if kind == _CLUE:
                    continue
                s, r = self.suit[o], self.rank[o]
                if kind in (_PLAY, _DECK_PLAY):
                    self._implies(v, self.ge_stack(e, s, r - 1))
                    self._implies(v, _neg(self.ge_stack(e, s, r)))
                    fitting.setdefault((e, s), []).append(v)
                elif kind in (_MISPLAY, _DECK_MISPLAY):
                    self._implies(v, _neg(self.ge_stack(e, s, r - 1)), self.ge_stack(e, s, r))
                    h = self.game.guard_height[o]
                    if h >= 0:
                        # a game with fixed stacks (solver.split): no misplay while the stack is
                        # at the guard's height and the owner's stack (if any) is empty (the
                        # real game would play the card there)
                        t = self.game.guard_owner[o]
                        self._implies(v, _neg(self.ge_stack(e, s, h)), self.ge_stack(e, s, h + 1),
                                      self.ge_stack(e, t, 1) if t >= 0 else False)
        for e in range(E):
            for s in range(S):
                m.add(self.stack[e + 1, s] == self.stack[e, s] + sum(fitting.get((e, s), [])))

        # -- Clue tokens, in units: a discard returns one and is not allowed with all tokens
        #    available; completing a suit returns one unless all are available (none in Throw
        #    It in a Hole); a final-round clue spends a token, K units (so needs them). -------
        for e in range(E):
            discards = [v for v, kind, _ in self.actions[e] if kind == _DISCARD]
            if not self.game.discard_at_max:
                for v in discards:
                    self._implies(v, _neg(self.full_at[e]))
                gain = list(discards)
            elif discards:
                # with inverted suits a discard is legal with all tokens available, and then
                # gains none: refund[e] <-> a discard and not full_at[e]
                refund = m.new_bool_var(f"refund[{e}]")
                m.add(refund <= sum(discards))
                self._implies(refund, _neg(self.full_at[e]))
                for v in discards:
                    self._implies(v, self.full_at[e], refund)
                gain = [refund]
            else:
                gain = []
            if e in self.bonus:
                b = self.bonus[e]
                m.add(b <= sum(self.completers[e]))
                self._implies(b, _neg(self.full_at[e]))
                for u in self.completers[e]:
                    self._implies(u, self.full_at[e], b)
                gain.append(b)
            spend = []
            if e in self.clue:
                m.add(self.clues[e] >= self.K).only_enforce_if(self.clue[e])
                spend.append(self.clue[e])
            m.add(self.clues[e + 1] == self.clues_at[e] + sum(gain) - self.K * sum(spend))

        # -- A final-round clue needs another player to clue: one holding a card (every card
        #    is touched by some clue: Game refuses variants where not), unless a clue may touch
        #    nothing (Game.free_clues: empty clues, or a variant whose clues of one kind touch
        #    nothing). Before the final round every hand is full. In the final round each player acts once, so only a
        #    player holding one card as it began can run out: emptied[e, q] says q has used
        #    that card at a final-round event before e. ----------------------------------------
        if self.game.alternation_binds:
            self._alternating_clues()
        elif not self.game.free_clues and not self.game.all_touchable:
            self._untouched_cards()
        elif not self.game.free_clues and self.clue:
            ones = [q for q in range(n) if self.final_size[q] == 1]
            for q in ones:
                prev = False
                for e in range(D, E):
                    if e > D:
                        x = self.emptied[e, q] = m.new_bool_var(f"emptied[{e},{q}]")
                        # x <-> prev or (q acts at e - 1 and uses a card)
                        went = m.new_bool_var(f"went[{e - 1},{q}]")
                        self._and(went, [self.actor[e - 1, q], self._uses_any(e - 1)])
                        self._implies(x, prev, went)
                        self._implies(prev, x)
                        self._implies(went, x)
                        prev = x
            for e, c in self.clue.items():
                for p in range(n):
                    holders = []
                    for q in range(n):
                        if q == p or self.final_size[q] == 0:
                            continue
                        if self.final_size[q] >= 2:
                            holders = [True]
                            break
                        holders.append(_neg(self.emptied.get((e, q), False)))
                    self._clause(_neg(c), _neg(self.actor[e, p]), *holders)

        # -- Strikes: each misplay adds one. --------------------------------------------------
        for e in range(E):
            mis = [v for v, kind, _ in self.actions[e] if kind in (_MISPLAY, _DECK_MISPLAY)]
            m.add(self.strikes[e + 1] == self.strikes[e] + sum(mis))

        # -- All stacks complete: perfect[e] iff every stack is at its suit's top rank. ------
        for e in range(1, E + 1):
            if self.perfect[e] is not False:
                self._and(self.perfect[e], [self.ge_stack(e, s, self.top[s]) for s in range(S)])

        # -- The game ends after an event that reaches the strike limit or completes every
        #    stack, and after the last event of the final round (alive[E] is False). ----------
        for e in range(1, E):
            goes_on = [self.alive[e - 1], _neg(self.struck[e]), _neg(self.perfect[e])]
            if not self.game.site_end:
                self._and(self.alive[e], goes_on)
                continue
            # hanab.live also ends the game once nothing more can be scored (Game.site_end):
            # it may stop at event e only then (done[e], below). Stopping changes no score; it
            # spares the moves that would follow (a forced misplay).
            for lit in goes_on:
                self._implies(self.alive[e], lit)
            self.done[e] = m.new_bool_var(f"done[{e}]")
            self._clause(self.alive[e], *[_neg(lit) for lit in goes_on], self.done[e])
        if self.game.site_end:
            self._site_end()

        # -- The score: the sum of the final stacks, or 0 after a strikeout (unless the rules
        #    keep the stacks). Only lines scoring at least ``target`` (and at most ``upper``)
        #    are modelled. -----------------------------------------------------------------------
        total = sum(self.stack[E, s] for s in range(S))
        if self.rules.strikeout_score == "stacks":
            m.add(self.score == total)
        else:
            m.add(self.score == total).only_enforce_if(_neg(self.struck[E]))
            m.add(self.score == 0).only_enforce_if(self.struck[E])
        if self.target > 0:
            m.add(self.score >= self.target)
        if self.upper is not None:
            m.add(self.score <= self.upper)

        if self.redundant:
            self._redundant()
        if self.symmetry:
            self._symmetry()

    def _holding(self, e: int, cards: list[bool], name: str) -> list:
        """Per player q, a literal ``{name}[e, q]`` that holds only if q holds at event e
        one of the cards marked in ``cards`` (by order): a dealt card not used yet, or deck
        card j < e (drawn at step j by its actor) not used yet (``{name}_holds[e, j, q]``)."""
        m, n, D = self.model, self.n, self.D
        out = []
        for q in range(n):
            mine = [_neg(self.is_used(e, o)) for o in self.hands0[q] if cards[o]]
            for j in range(min(e, D)):
                o = self.d0 + j
                if cards[o]:
                    x = m.new_bool_var(f"{name}_holds[{e},{j},{q}]")
                    self._implies(x, self.actor[j, q])
                    self._implies(x, _neg(self.is_used(e, o)))
                    mine.append(x)
            x = m.new_bool_var(f"{name}[{e},{q}]")
            self._clause(_neg(x), *mine)
            out.append(x)
        return out

    def _run_ge(self, e: int, k: int):
        """The literal run[e] >= k (made once)."""
        lit = self.run_ge.get((e, k))
        if lit is None:
            lit = self.run_ge[e, k] = self._ge(self.run[e], k, f"run_ge[{e},{k}]")
        return lit

    def _alternating_clues(self) -> None:
        """-- Alternating Clues, where it binds (Game.alternation_binds): a clue may not have
        the type of the clue before it, and a clue of a type needs another player holding a
        card some clue of that type touches (unless that type may touch nothing).
        last_color[e] / last_rank[e]: the last clue given before event e was of that type
        (neither before the first). A run of clues alternates, so its types follow from
        the first (first_color[e]); the run's last clue has the first one's type when the
        run is odd (odd[e]). A final-round clue is of one type (clue_color[e]). Hands do not
        change during a run, whose k-th clue is given by the player k seats after the
        previous actor. -----------------------------------------------------------------"""
        m, n, D, E, g = self.model, self.n, self.D, self.E, self.game
        has = {COLOR_CLUE: [bool(x) for x in g.color_mask], RANK_CLUE: [bool(x) for x in g.rank_mask]}
        free = g.empty_clue_ok
        last0 = self.state.last_clue
        lc: list = [last0 == COLOR_CLUE] + [m.new_bool_var(f"last_color[{e}]") for e in range(1, E + 1)]
        lr: list = [last0 == RANK_CLUE] + [m.new_bool_var(f"last_rank[{e}]") for e in range(1, E + 1)]
        self.last_color, self.last_rank = lc, lr
        for e in range(E):
            self._clause(_neg(lc[e + 1]), _neg(lr[e + 1]))
            # per type, per player q: q holds a card a clue of that type touches (True if
            # that type may touch nothing)
            avail = {t: [True] * n if free[t] else self._holding(e, has[t], f"touch_{word}")
                     for t, word in ((COLOR_CLUE, "color"), (RANK_CLUE, "rank"))}
            if e < D and self.RM > 0:
                fc = self.first_color[e] = m.new_bool_var(f"first_color[{e}]")
                odd = self.odd[e] = m.new_bool_var(f"odd[{e}]")
                half = m.new_int_var(0, self.RM // 2, f"half[{e}]")
                m.add(self.run[e] == 2 * half + odd)
                some = self._run_ge(e, 1)
                # the first clue is not of the last clue's type
                self._clause(_neg(some), _neg(lc[e]), _neg(fc))
                self._clause(_neg(some), _neg(lr[e]), fc)
                # the k-th clue (color when k is odd and the first is color, or k even and it
                # is not) needs a card of its type in another hand than its giver's
                for k in range(1, self.RM + 1):
                    longer = self._run_ge(e, k)
                    color_k = fc if k % 2 else _neg(fc)
                    for p in range(n):
                        prev = ((p + 1) % n == self.state.current) if e == 0 else self.actor[e - 1, p]
                        if prev is False:
                            continue
                        giver = (p + k) % n
                        for t, is_t in ((COLOR_CLUE, color_k), (RANK_CLUE, _neg(color_k))):
                            self._clause(_neg(prev), _neg(longer), _neg(is_t),
                                         *[avail[t][q] for q in range(n) if q != giver])
                # after the run: unchanged without clues, else the type of its last clue
                # (the first's when the run is odd)
                for a in (lc, lr):
                    self._clause(some, _neg(a[e]), a[e + 1])
                    self._clause(some, a[e], _neg(a[e + 1]))
                self._clause(_neg(some), _neg(fc), _neg(odd), lc[e + 1])
                self._clause(_neg(some), fc, odd, lc[e + 1])
                self._clause(_neg(some), _neg(fc), odd, lr[e + 1])
                self._clause(_neg(some), fc, _neg(odd), lr[e + 1])
            elif e in self.clue:
                c, cc = self.clue[e], m.new_bool_var(f"clue_color[{e}]")
                self.clue_color[e] = cc
                self._clause(_neg(c), _neg(cc), _neg(lc[e]))
                self._clause(_neg(c), cc, _neg(lr[e]))
                for p in range(n):
                    others_c = [avail[COLOR_CLUE][q] for q in range(n) if q != p]
                    others_r = [avail[RANK_CLUE][q] for q in range(n) if q != p]
                    self._clause(_neg(c), _neg(self.actor[e, p]), _neg(cc), *others_c)
                    self._clause(_neg(c), _neg(self.actor[e, p]), cc, *others_r)
                self._clause(_neg(c), _neg(cc), lc[e + 1])
                self._clause(_neg(c), cc, lr[e + 1])
                for a in (lc, lr):
                    self._clause(c, _neg(a[e]), a[e + 1])
                    self._clause(c, a[e], _neg(a[e + 1]))
            else:
                for a in (lc, lr):
                    self._clause(_neg(a[e]), a[e + 1])
                    self._clause(a[e], _neg(a[e + 1]))

    def _untouched_cards(self) -> None:
        """-- Cards no clue touches (and no clue that may touch nothing): a clue needs
        another player holding a card some clue touches. touchable[e, q]: q holds one at
        event e — a dealt card not used yet, or deck card j < e (drawn at step j by its
        actor) not used yet (holds[e, j, q]). Hands do not change during a clue run, whose
        k-th clue is given by the player k seats after the previous actor. -------------"""
        n, D, E = self.n, self.D, self.E
        touch = list(self.game.touchable)
        for e in range(E):
            tch = self._holding(e, touch, "touchable")
            if e < D and self.RM > 0:
                for k in range(1, self.RM + 1):
                    longer = self._run_ge(e, k)
                    for p in range(n):
                        prev = ((p + 1) % n == self.state.current) if e == 0 else self.actor[e - 1, p]
                        if prev is False:
                            continue
                        g = (p + k) % n
                        self._clause(_neg(prev), _neg(longer), *[tch[q] for q in range(n) if q != g])
            elif e in self.clue:
                for p in range(n):
                    self._clause(_neg(self.clue[e]), _neg(self.actor[e, p]), *[tch[q] for q in range(n) if q != p])

    def _site_end(self) -> None:
        """-- What done[e] needs: every incomplete stack's next card is gone — each copy
        discarded or misplayed (used while its stack is below it) or, from the second
        final-round turn on, held by a player who has had their last turn: one who acted in
        the final round (deck card j is held by the actor of step j), or, when the position
        is in the final round already, one who acted before it. --------------------------"""
        n, D = self.n, self.D
        tl = self.state.turns_left
        first = self.state.current
        finished0 = set() if tl is None else {p for p in range(n) if (p - first) % n >= tl}
        needed: dict[tuple[int, int], list[int]] = {}
        for o in self.live:
            s, r = self.suit[o], self.rank[o]
            if self.st0[s] < r <= self.reach[s]:
                needed.setdefault((s, r), []).append(o)
        for e, dn in self.done.items():
            final = D == 0 or e > D
            acted = {}
            if final:
                for p in range(n):
                    if p in finished0:
                        acted[p] = True
                    else:
                        x = acted[p] = self.model.new_bool_var(f"acted[{e},{p}]")
                        self._clause(_neg(x), *[self.actor[e2, p] for e2 in range(D, e)])
            for (s, r), copies in needed.items():
                gap = [_neg(dn), _neg(self.ge_stack(e, s, r - 1)), self.ge_stack(e, s, r)]
                for o in copies:
                    gone = gap + [self.is_used(e, o)]
                    if not final:
                        self._clause(*gone)
                    elif o in self.holder0:
                        self._clause(*gone, acted[self.holder0[o]])
                    else:
                        j = self.deck_index(o)
                        for p in range(n):
                            self._clause(*gone, _neg(self.actor[j, p]), acted[p])

    def _exactly_one(self, lits) -> None:
        if any(lit is True for lit in lits):
            for lit in lits:
                if lit is not True:
                    self._clause(_neg(lit))
            return
        rest = [lit for lit in lits if lit is not False]
        if not rest:
            raise EncodingError("exactly one of nothing: the encoding contradicts a known fact",
                                deck=deck_text(self.state), method="cpsat")
        self.model.add_exactly_one(rest)

    def _uses_any(self, e: int):
        """A literal: event e uses a card from the actor's hand (made on first request)."""
        if e not in self.uses_any:
            x = self.uses_any[e] = self.model.new_bool_var(f"uses_any[{e}]")
            self.model.add(x == sum(u for _, u in self.uses_at[e]))
        return self.uses_any[e]

    # =====================================================================================
    # redundant constraints (implied by the rules; they only help the solver)
    # =====================================================================================
    def part(self, name: str) -> bool:
        """Whether the redundant constraint ``name`` (one of ``REDUNDANT``) is added."""
        if name not in REDUNDANT:
            raise ValueError(f"unknown redundant constraint {name!r}")
        r = self.redundant
        return bool(r) if isinstance(r, bool) else name in r

    def _redundant(self) -> None:
        m, n, D, E, S = self.model, self.n, self.D, self.E, self.S
        total = sum(self.stack[E, s] for s in range(S))

        # -- A stack rises one rank at a time, only by a fitting play of its next rank: each
        #    rank above a stack's starting height is played (fitting) exactly once if the
        #    final stack reaches it, never otherwise. ------------------------------------------
        fits = {}
        for (_e, o), v in self.play.items():
            fits.setdefault((self.suit[o], self.rank[o]), []).append(v)
        for _e, v in self.deck_play.items():
            fits.setdefault((self.suit[self.last], self.rank[self.last]), []).append(v)
        for s in range(S) if self.part("ranks") else ():
            for r in range(self.st0[s] + 1, self.top[s] + 1):
                reached = self.ge_stack(E, s, r)
                lits = fits.get((s, r), [])
                if lits:
                    m.add(sum(lits) == reached)
                elif reached is not False:  # no card of that rank can reach a hand in time
                    m.add(reached == 0)

        # -- A line to a positive target never strikes out when a strikeout scores 0. -------
        if self.part("strikes") and self.target > 0 and self.rules.strikeout_score != "stacks":
            for e in range(E + 1):
                m.add(self.strikes[e] <= self.L - 1)

        # -- Pace: every fitting play is made at a step that does not waste its removal (a
        #    discard or a misplay) or in the final round, so wasted steps + final stacks
        #    <= current stacks + D + F. ---------------------------------------------------------
        waste = [v for e in range(D) for v, kind, _ in self.actions[e] if kind in (_DISCARD, _MISPLAY, _DECK_MISPLAY)]
        if self.part("pace"):
            m.add(sum(waste) + total <= self.cur0 + D + self.F)

        # -- Hand capacity: at step e (while the deck has cards) each player holds exactly a
        #    hand's worth of cards: their dealt cards not yet used, plus the deck cards drawn
        #    at earlier steps where they acted, not yet used. (Every step before a live step
        #    was live, and drew its card into its actor's hand: a deck play happens only at the
        #    last step.) held[e, j, p] <-> actor[j, p] and deck card j not used before e. ------
        for e in range(1, D) if self.part("capacity") else ():
            for p in range(n):
                held = []
                for j in range(e):
                    x = self.held[e, j, p] = m.new_bool_var(f"held[{e},{j},{p}]")
                    self._and(x, [self.actor[j, p], _neg(self.is_used(e, self.d0 + j))])
                    held.append(x)
                dealt = self.hands0[p]
                m.add(len(dealt) - sum(self.is_used(e, o) for o in dealt) + sum(held) == self.h
                      ).only_enforce_if(self.alive[e])

        # -- Pace, event by event: an event makes one action, and only a fitting play raises
        #    a stack, so the stacks' total rises by at most one per event (by exactly one
        #    at an event whose action is a fitting play): total[e + 1] = total[e] +
        #    fit_any[e], fit_any[e] the sum of event e's fitting plays (0 or 1). So the
        #    points still to score after event e need that many of the events left. --------
        if self.part("pace_events"):
            tot = [m.new_int_var(self.cur0, sum(self.stack_hi[e]), f"total[{e}]") for e in range(E + 1)]
            for e in range(E + 1):
                m.add(tot[e] == sum(self.stack[e, s] for s in range(S)))
            fits_at = [[] for _ in range(E)]
            for (e, _o), v in self.play.items():
                fits_at[e].append(v)
            for e, v in self.deck_play.items():
                fits_at[e].append(v)
            for e in range(E):
                if fits_at[e]:
                    f = m.new_bool_var(f"fit_any[{e}]")
                    m.add(f == sum(fits_at[e]))
                    m.add(tot[e + 1] == tot[e] + f)
                else:
                    m.add(tot[e + 1] == tot[e])

        # -- Needed cards are held: take step e (e < D), the play or discard before deck card
        #    e is drawn. A needed rank (s, r) every copy of which is already in a hand or
        #    drawn at an earlier step, still unplayed after event e but reached by the final
        #    stack, is played later from a hand, so one copy of it is in a hand after step
        #    e's removal, and is not the card removed. Different ranks are different cards,
        #    and the hands then hold n * h - 1 cards (n * h at the last step with deck plays,
        #    where the last card may be played from the deck and no hand card leaves). So
        #    the number of such ranks is at most that: sum over them of
        #    stack_ge[E, s, r] - stack_ge[e + 1, s, r] (1 exactly for a rank reached in the
        #    end but not yet after event e) <= n * h - 1. Once the game is over the stacks
        #    do not change and every term is 0. --------------------------------------------
        if self.part("needed_held"):
            last_copy: dict[tuple[int, int], int] = {}
            for o in self.live:
                s, r = self.suit[o], self.rank[o]
                if self.st0[s] < r <= self.reach[s]:
                    j = self.deck_index(o)
                    last_copy[s, r] = max(last_copy.get((s, r), -1), -1 if j is None else j)
            for e in range(D):
                terms = [(self.ge_stack(E, s, r), self.ge_stack(e + 1, s, r))
                         for (s, r), j in last_copy.items() if j < e]
                terms = [(final, now) for final, now in terms if final is not False and now is not True]
                room = n * self.h if (self.deck_plays and e == D - 1) else n * self.h - 1
                if len(terms) > room:
                    count = sum(final - now for final, now in terms)
                    m.add(count <= room)
                    self.rows.append(("needed_held", e, count, room))

        # -- Needed cards are held, hand by hand: the same ranks (every copy already in a
        #    hand or drawn before step e, unplayed after event e, reached in the end), at a
        #    step e < D - 1 (no deck play there). If no copy of such a rank is in another
        #    player's hand after step e (held[e + 1, j, q] for deck card j, or dealt to q and
        #    not used), the copy played later is in p's hand: in_hand[e, s, r, p] is then
        #    true (a clause; the solver may set it otherwise only where it is not needed).
        #    p's hand then holds h cards, less the one p removed if p acted at step e, so at
        #    most h - actor[e, p] such ranks. ------------------------------------------------
        if self.part("needed_hands") and self.part("capacity"):
            copies: dict[tuple[int, int], list[int]] = {}
            for o in self.live:
                s, r = self.suit[o], self.rank[o]
                if self.st0[s] < r <= self.reach[s]:
                    copies.setdefault((s, r), []).append(o)
            for e in range(D - 1):
                mine: list[list] = [[] for _ in range(n)]
                for (s, r), cards in copies.items():
                    if any((j := self.deck_index(o)) is not None and j >= e for o in cards):
                        continue
                    final, now = self.ge_stack(E, s, r), self.ge_stack(e + 1, s, r)
                    if final is False or now is True:
                        continue
                    for p in range(n):
                        elsewhere = []
                        for o in cards:
                            j = self.deck_index(o)
                            if j is None:
                                if self.holder0[o] != p:
                                    elsewhere.append(_neg(self.is_used(e + 1, o)))
                            else:
                                elsewhere += [self.held[e + 1, j, q] for q in range(n) if q != p]
                        y = m.new_bool_var(f"in_hand[{e},{s},{r},{p}]")
                        self._clause(y, _neg(final), now, *elsewhere)
                        mine[p].append(y)
                        self.in_hand.append(y)
                for p in range(n):
                    if len(mine[p]) > self.h - 1:
                        m.add(sum(mine[p]) <= self.h - self.actor[e, p])
                        self.rows.append(("needed_hands", e, sum(mine[p]) + self.actor[e, p], self.h))

    # =====================================================================================
    # symmetry breaking
    # =====================================================================================
    def _symmetry(self) -> None:
        """Two copies of a card (same suit and rank) in one hand are interchangeable: when
        both are there, the lower-order one is used first. A line that breaks this (k2 used
        at event e while k1 < k2 sits unused in the same hand) becomes one that keeps it by
        swapping the names k1 and k2 from event e on: both stay in one hand, so every later
        use stays legal and the outcome is the same; each swap moves the first breach later,
        so repeating it ends. Deck plays are left alone (``canonical_line`` does the same to
        a concrete line)."""
        n, E = self.n, self.E
        groups = {}
        for o in self.live:
            groups.setdefault((self.suit[o], self.rank[o]), []).append(o)
        for group in groups.values():
            for i, k1 in enumerate(group):
                j1 = self.deck_index(k1)
                for k2 in group[i + 1:]:
                    q2 = self.holder0.get(k2)  # k2 is used by its holder if dealt
                    for e in range(E):
                        u = self.use.get((e, k2))
                        if u is None or (j1 is not None and j1 >= e):
                            continue
                        if j1 is None:  # k1 dealt to p1: only p1 can hold both
                            p1 = self.holder0[k1]
                            if q2 is not None and q2 != p1:
                                continue
                            self._clause(_neg(u), _neg(self.actor[e, p1]), self.is_used(e, k1))
                        else:
                            for p in range(n) if q2 is None else (q2,):
                                self._clause(_neg(u), _neg(self.actor[e, p]), _neg(self.actor[j1, p]),
                                             self.is_used(e, k1))

    # =====================================================================================
    # objective
    # =====================================================================================
    def _objective(self, maximize: bool) -> None:
        if maximize:
            self.model.maximize(self.score)

    # =====================================================================================
    # hint: the values of the variables along a known line
    # =====================================================================================
    def line_values(self, line) -> tuple[dict, int | None]:
        """The values of the decision variables and counters along ``line`` (engine actions
        from the position; a partial line gives the events it covers), and the line's score
        if it ends the game. Raises IllegalActionError if the line is not legal, and
        EncodingError if one of its actions has no model variable (an encoding bug)."""
        st = self.state.copy()
        line = list(line)
        vals: dict = {}

        def put(var, value):
            if not isinstance(var, (bool, int)):
                vals[var] = int(value)

        i = 0
        for e in range(self.E + 1):
            put(self.alive[e], not st.over)
            put(self.clues[e], st.clues)
            put(self.strikes[e], st.strikes)
            if self.game.alternation_binds:
                put(self.last_color[e], st.last_clue == COLOR_CLUE)
                put(self.last_rank[e], st.last_clue == RANK_CLUE)
            for s in range(self.S):
                put(self.stack[e, s], st.stacks[s])
            if e == self.E:
                break
            run = 0
            first = None
            if not st.over and e < self.D:
                while i < len(line) and line[i].is_clue:
                    first = line[i].kind if first is None else first
                    st.apply(line[i])
                    i += 1
                    run += 1
            if e in self.first_color:
                put(self.first_color[e], first == COLOR_CLUE)
                put(self.odd[e], run % 2)
            if e < self.D:
                put(self.run[e], run)
                if self.RM > 0:
                    for r in range(self.n):
                        put(self.runmod[e, r], run % self.n == r)
                    put(self.runq[e], run // self.n)
                put(self.clues_at[e], st.clues)
            chosen = None
            if not st.over:
                if i >= len(line):
                    break  # a partial line: the rest is left to the solver
                a = st.check(line[i])  # raises IllegalActionError if illegal here
                i += 1
                me = st.current
                for p in range(self.n):
                    put(self.actor[e, p], p == me)
                o = a.target
                if a.kind == PLAY:
                    fits = self.rank[o] == st.stacks[self.suit[o]] + 1
                    if o in st.hands[me]:
                        chosen = (self.play if fits else self.misplay).get((e, o))
                    else:
                        chosen = (self.deck_play if fits else self.deck_misplay).get(e)
                elif a.kind == DISCARD:
                    chosen = self.discard.get((e, o))
                else:
                    chosen = self.clue.get(e)
                    if e in self.clue_color:
                        put(self.clue_color[e], a.kind == COLOR_CLUE)
                if chosen is None:
                    raise EncodingError(f"action at event {e} ({a}) has no variable", deck=deck_text(self.state),
                                        method="cpsat")
                st.apply(a)
            for v, _, _ in self.actions[e]:
                put(v, v is chosen)
            for o, u in self.uses_at[e]:
                put(u, any(v is chosen for v, kind, c in self.actions[e] if c == o and kind in _HAND_USES))
        if st.over and i == len(line):
            put(self.score, st.score)
            return vals, st.score
        return vals, None

    def add_hint(self, line) -> int | None:
        """Hint ``line`` to the solver; returns its score if it ends the game."""
        vals, score = self.line_values(line)
        for var, value in vals.items():
            self.model.add_hint(var, value)
        return score

    # =====================================================================================
    # decode
    # =====================================================================================
    def decode(self, solver: cp_model.CpSolver) -> tuple[list[Action], State]:
        """The solution as engine actions, replayed from the position (raises on an illegal
        one, which would be an encoding bug)."""

        def value(lit) -> bool:
            return lit if isinstance(lit, bool) else solver.boolean_value(lit)

        st = self.state.copy()
        actions = []
        for e in range(self.E):
            if not value(self.alive[e]) or st.over:  # (the engine may end it first: Game.site_end)
                break
            if e < self.D and self.RM > 0:
                kind = None  # Alternating Clues where it binds: the run's types alternate from the first
                if e in self.first_color:
                    kind = COLOR_CLUE if solver.boolean_value(self.first_color[e]) else RANK_CLUE
                for _ in range(solver.value(self.run[e])):
                    actions.append(st.apply(_any_clue(st, e, kind)))
                    if st.over:  # a position with nothing left to score ends at its first action
                        return actions, st
                    if kind is not None:
                        kind = RANK_CLUE if kind == COLOR_CLUE else COLOR_CLUE
            chosen = [(kind, o) for v, kind, o in self.actions[e] if solver.boolean_value(v)]
            if len(chosen) != 1:
                raise EncodingError(f"event {e} chooses {len(chosen)} actions", deck=deck_text(self.state),
                                    method="cpsat")
            kind, o = chosen[0]
            if kind in (_PLAY, _MISPLAY, _DECK_PLAY, _DECK_MISPLAY):
                action = Action(PLAY, o)
            elif kind == _DISCARD:
                action = Action(DISCARD, o)
            else:
                cc = self.clue_color.get(e)
                action = _any_clue(st, e, None if cc is None else
                                   COLOR_CLUE if solver.boolean_value(cc) else RANK_CLUE)
            actions.append(st.apply(action))
        return actions, st


def _any_clue(st: State, e: int, kind: int | None = None) -> Action:
    """A clue stall: :meth:`State.first_clue` (any will do with full information; of
    ``kind``, where Alternating Clues binds)."""
    a = st.first_clue(kind)
    if a is None:
        raise EncodingError(f"event {e} clues but no clue is legal", deck=deck_text(st), method="cpsat")
    return a


def greedy_line(state: State, tries: int = 16) -> tuple[int, list[Action]]:
    """A quick line to seed the model: the best of ``tries`` greedy playouts
    (:func:`solver.strategy.best_greedy_line`: the plain greedy strategy, then playouts
    that deviate at random). Deterministic. Returns ``(score, actions)``; ``(-1, [])``
    when ``tries`` is 0."""
    if tries <= 0:
        return -1, []
    line, score = best_greedy_line(state, tries)
    return score, line


def _replay(state: State, line) -> tuple[list[Action], State]:
    """Replay ``line`` from ``state``; a clue that is no longer legal (its target's hand
    changed) is replaced by the first legal clue. Returns the applied actions and the end."""
    st = state.copy()
    out = []
    for a in line:
        if st.over:
            break
        if a.is_clue and a not in st.legal_actions():
            a = _any_clue(st, len(out))
        out.append(st.apply(a))
    return out, st


def canonical_line(state: State, line) -> list[Action]:
    """``line`` with the copies of a card renamed as the model's symmetry breaking
    requires: whenever a card is played or discarded from a hand that also holds a
    lower-order copy of it (same suit and rank) not yet used, the two names are swapped from
    that action on. Same hands, same stacks, same score and length; deck plays are left
    alone."""
    g = state.game
    line, _ = _replay(state, line)
    while True:
        st = state.copy()
        for i, a in enumerate(line):
            hand = st.hands[st.current]
            o = a.target
            if a.kind in (PLAY, DISCARD) and o in hand:
                older = [k for k in hand if k < o and g.suit_of[k] == g.suit_of[o] and g.rank_of[k] == g.rank_of[o]]
                if older:
                    k1 = min(older)
                    swap = {k1: o, o: k1}
                    line = line[:i] + [Action(b.kind, swap.get(b.target, b.target)) if b.kind in (PLAY, DISCARD) else b
                                       for b in line[i:]]
                    line, _ = _replay(state, line)
                    break
            st.apply(a)
        else:
            return line


def _seed(state: State, hint, seed_tries: int, seeds: dict):
    """The seed line: the better of the hint (a complete legal line; a partial one is
    ignored) and the greedy playouts, made canonical. Returns ``(line, score)`` or
    ``(None, -1)``."""
    line, score = None, -1
    if hint is not None:
        hint = list(hint)
        end = state.copy()
        for a in hint:
            if end.over:
                break
            end.apply(a)  # raises IllegalActionError if the hint is not a legal line
        if end.over:
            line, score = hint, end.score
            seeds["hint_score"] = score
    greedy_score, greedy = greedy_line(state, seed_tries)
    if greedy:
        seeds["greedy_score"] = greedy_score
        if greedy_score > score:
            line, score = greedy, greedy_score
    if line is not None:
        line = canonical_line(state, line)
        seeds["seed_score"] = score
    return line, score


def _upper0(state: State) -> int:
    """A first upper bound: the cards' bound (:meth:`State.max_reachable`), and at most one more point
    per deck card and per final-round turn (pace)."""
    g = state.game
    turns = g.num_players if state.turns_left is None else state.turns_left
    return min(state.max_reachable(), sum(state.stacks) + state.deck_left + turns)


def _solve(enc: _Encoding, workers: int, time_limit: float | None, params: dict | None):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    if workers > 1:
        # every worker searches the full problem (no local search or LNS workers: with two
        # cores these took the time the proofs need; measured on hard 2-player decks)
        solver.parameters.num_full_subsolvers = int(workers)
    # The LP relaxation of this model is weak and slows both the proofs and the search for
    # better lines (measured on hard 2-player decks): pure clause-learning search instead.
    solver.parameters.linearization_level = 0
    # Probing in presolve cost more than it saved: about half the time without it (hard
    # 2-player decks, measured by CP-SAT's deterministic time).
    solver.parameters.cp_model_probing_level = 0
    # Clause inprocessing (vivification, subsumption) and the search for big linear
    # overlaps in presolve took most of the deterministic time of the 25-feasibility
    # question on the hard 2-player decks, and a second presolve round gained nothing
    # (scripts/bench_cpsat.py; docs/encodings.md, 2.12).
    solver.parameters.use_sat_inprocessing = False
    solver.parameters.find_big_linear_overlap = False
    solver.parameters.max_presolve_iterations = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
    for key, value in (params or {}).items():
        if isinstance(value, (list, tuple)):  # a repeated field
            getattr(solver.parameters, key).extend(value)
        elif isinstance(value, str) and value.isupper() and hasattr(type(solver.parameters), value):
            setattr(solver.parameters, key, getattr(type(solver.parameters), value))  # an enum by name
        else:
            setattr(solver.parameters, key, value)
    code = solver.solve(enc.model)
    return code, solver


def cpsat_max(
    state: State,
    *,
    hint=None,
    timeout: float | None = None,
    workers: int = 1,
    seed_tries: int = 16,
    params: dict | None = None,
    two_phase: bool = True,
    redundant: bool | Collection[str] = True,
    symmetry: bool = True,
    deterministic_time: float | None = None,
    target: int | None = None,
) -> CpsatResult:
    """Maximise the final score from ``state`` with CP-SAT.

    ``deterministic_time``: a budget in CP-SAT's deterministic time for the whole call
    (its phases share it): the same budget gives the same answer on an idle or a loaded
    machine (``timeout`` is then an outer limit).

    ``hint``: an optional line (engine actions from ``state`` to the end of the game), a
    known good line, e.g. the search's. ``timeout``: seconds for the whole call (None:
    until proven). ``workers``: CP-SAT search workers. ``seed_tries``: greedy playouts
    tried too (0: none); one worker (the default) is deterministic, and
    was faster than two on the shared two-core machine. ``params``: extra CP-SAT parameters by name (e.g.
    ``{"random_seed": 1}``). ``two_phase``: first ask whether the first upper bound U (the
    cards' bound, capped by pace) is reachable at all, before maximising. ``redundant``,
    ``symmetry``: add the implied constraints / the symmetry breaking (for tests; ``redundant``
    may also name the redundant constraints to add, see ``_Encoding.part``). ``target``:
    the score the first phase asks for instead of U ("can the game reach ``target``?", as
    a confirmation asks of best + 1), at most U and above the seed line's score.

    The better of the hint and the greedy line is the seed line, scoring L. If L already
    meets U, the seed line is optimal as it stands (no model is built; ``stats["solved_by"]``
    says so). Otherwise:

    1. *feasibility* (``two_phase``): a model of the lines scoring T..U (T = ``target``,
       by default U), without objective. A solution scoring U is decoded and is optimal; one
       scoring less becomes the seed line; infeasible lowers U to T - 1 (and if U is then
       L, the seed line is optimal).
    2. *maximisation*: a model of the lines scoring L+1..U (every line up to U without a
       seed), maximised. Infeasible proves the seed line optimal; otherwise the solution is
       decoded and replayed.

    On a timeout the best line known (possibly the seed line) is returned as 'feasible'
    with the best proven bound.
    """
    check_solvable(state.game)
    t_start = time.perf_counter()
    deadline = None if timeout is None else t_start + timeout
    seeds = {"hint_score": None, "greedy_score": None, "seed_score": None}
    phases: list[dict] = []
    stats = {"variables": 0, "constraints": 0, "turns": 0, "time": 0.0, "build_time": 0.0,
             "branches": 0, "conflicts": 0, **seeds, "phases": phases, "solved_by": "cpsat"}

    def result(status, score, upper, actions, how=None):
        stats.update(seeds)
        if how is not None:
            stats["solved_by"] = how
        stats["wall_time"] = time.perf_counter() - t_start
        return CpsatResult(status, score, upper, actions, stats)

    def no_line():
        """A game with fixed stacks (solver.split) may have no line at all: every one meets
        a position with no legal action (a dead end of that game)."""
        return result("optimal", -1, -1, [], "cpsat: no line, every one meets a position with no legal action "
                      "in the game with fixed stacks")

    if state.over:
        return result("optimal", state.score, state.score, [], "the game is over")

    # ---- data: the seed line and what it settles ----
    seed, seed_score = _seed(state, hint, seed_tries, seeds)
    upper = _upper0(state)
    if seed is not None and seed_score >= upper:
        actions, end = _replay(state, seed)
        return result("optimal", end.score, end.score, actions, "the seed line reaches the cards' bound")

    def left():
        return None if deadline is None else deadline - time.perf_counter()

    dtime = [deterministic_time]  # what is left of the deterministic budget

    def run(target, top, maximize):
        """Build and solve one model; returns (encoding, status code, solver)."""
        t0 = time.perf_counter()
        enc = _Encoding(state, target, upper=top, maximize=maximize, symmetry=symmetry, redundant=redundant)
        if seed is not None:
            enc.add_hint(seed)  # not a solution (it scores less), but a guide
        t1 = time.perf_counter()
        extra = dict(params or {})
        if dtime[0] is not None:
            extra["max_deterministic_time"] = max(0.001, dtime[0])
        code, solver = _solve(enc, workers, left(), extra)
        if dtime[0] is not None:
            dtime[0] -= solver.response_proto.deterministic_time
        proto = enc.model.proto
        stats["variables"] = max(stats["variables"], len(proto.variables))
        stats["constraints"] = max(stats["constraints"], len(proto.constraints))
        stats["turns"] = enc.E
        stats["time"] += solver.wall_time
        stats["build_time"] += t1 - t0
        stats["branches"] += solver.num_branches
        stats["conflicts"] += solver.num_conflicts
        phases.append({"target": target, "upper": top, "objective": maximize, "status": solver.status_name(code),
                       "time": round(solver.wall_time, 3), "build_time": round(t1 - t0, 3),
                       "deterministic_time": round(solver.response_proto.deterministic_time, 3)})
        if code == cp_model.MODEL_INVALID:
            raise EncodingError("the model is invalid", deck=deck_text(state), method="cpsat")
        return enc, code, solver

    def decoded(enc, solver, status, bound):
        actions, end = enc.decode(solver)
        objective = solver.value(enc.score)
        if not end.over or end.score != objective:
            raise EncodingError(f"decoded line scores {end.score} (over={end.over}), objective {objective}",
                                deck=deck_text(state), method="cpsat")
        return result(status, objective, max(bound, objective), actions)

    def fallback(bound):
        """Time is up: the seed line (if any) and the bound proven so far."""
        if seed is not None:
            actions, end = _replay(state, seed)
            return result("feasible", end.score, max(bound, end.score), actions)
        return result("unknown", None, bound, [])

    # ---- phase 1: can the game reach U (or the target asked for) at all? (feasibility,
    #      no objective) ----
    if two_phase:
        first = upper if target is None else max(min(target, upper), seed_score + 1)
        enc, code, solver = run(first, upper, False)
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if solver.value(enc.score) >= upper:
                return decoded(enc, solver, "optimal", upper)
            # a line scoring first..U-1: the new seed line, which phase 2 tries to beat
            actions, end = enc.decode(solver)
            if not end.over or end.score != solver.value(enc.score):
                raise EncodingError(f"decoded line scores {end.score} (over={end.over}), objective "
                                    f"{solver.value(enc.score)}", deck=deck_text(state), method="cpsat")
            seed, seed_score = actions, end.score
            seeds["seed_score"] = seed_score
        elif code != cp_model.INFEASIBLE:
            return fallback(upper)
        else:
            upper = first - 1
            if seed is not None and upper <= seed_score:
                actions, end = _replay(state, seed)
                return result("optimal", end.score, end.score, actions, "cpsat: no line beats the seed line")
            if upper < 0:
                if state.game.guarded:
                    return no_line()
                raise EncodingError("no line at all", deck=deck_text(state), method="cpsat")
        if (left() is not None and left() <= 0) or (dtime[0] is not None and dtime[0] <= 0):
            return fallback(upper)

    # ---- phase 2: maximise over the lines that beat the seed line (up to U) ----
    enc, code, solver = run(seed_score + 1 if seed is not None else 0, upper, True)
    if code == cp_model.INFEASIBLE:
        if seed is None:  # every legal line up to U is a solution without a seed
            if state.game.guarded:
                return no_line()
            raise EncodingError("the model without a seed is infeasible", deck=deck_text(state), method="cpsat")
        actions, end = _replay(state, seed)
        return result("optimal", end.score, end.score, actions, "cpsat: no line beats the seed line")
    bound = solver.best_objective_bound
    bound = upper if not math.isfinite(bound) else min(upper, math.floor(bound + 1e-6))
    bound = max(bound, seed_score)  # lines scoring at most seed_score are outside the model
    if code == cp_model.OPTIMAL:
        return decoded(enc, solver, "optimal", 0)
    if code == cp_model.FEASIBLE:
        return decoded(enc, solver, "feasible", bound)
    return fallback(bound)


def model_accepts(state: State, line) -> bool:
    """Whether the model from ``state`` holds ``line`` (a complete legal line, made
    canonical first): every decision variable and counter is fixed to its value along the
    line, and the model must still have a solution with the line's score. For tests and
    debugging: a False is a bug (the model cuts a legal line)."""
    line = list(line)
    if state.over:
        return not line
    line = canonical_line(state, line)
    _, end = _replay(state, line)
    enc = _Encoding(state, end.score, upper=end.score)
    values, score = enc.line_values(line)
    if score != end.score:
        raise EncodingError(f"the model scores the line {score}, the engine {end.score}", deck=deck_text(state),
                            method="cpsat")
    for var, value in values.items():
        enc.model.add(var == value)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    code = solver.solve(enc.model)
    return code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and solver.value(enc.score) == end.score
