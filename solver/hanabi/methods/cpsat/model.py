"""The CP-SAT model of full-information Hanabi from one position: data -> variables ->
constraints -> objective (the redundant constraints and symmetry breaking in
:mod:`.redundant`, hints and decoding in :mod:`.lines`)."""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ortools.sat.python import cp_model

from solver.errors import EncodingError
from solver.hanabi.rules import COLOR_CLUE, RANK_CLUE, Action, MalformedError, State
from solver.hanabi.rules.support import check_solvable, deck_text

from . import lines, redundant
from .common import _CLUE, _DECK_MISPLAY, _DECK_PLAY, _DISCARD, _HAND_USES, _MISPLAY, _PLAY, _neg


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
        tl = st.turns_left
        self.F = tl if D == 0 and tl is not None else n  # events (turns) of the final round
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
        # per event: (literal, kind, card order)
        self.actions: list[list[tuple[Any, int, int]]] = [[] for _ in range(E)]
        self.uses_at: list[list[tuple[int, Any]]] = [[] for _ in range(E)]  # per event: (card, use literal)
        self.uses_of: dict[int, list] = {}  # card order -> every literal that removes it (hand use or deck play)
        self.removes: dict[tuple[int, int], list] = {}  # (e, o) -> the literals that remove card o at event e
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
                o = self.N - 1  # the last card (self.last)
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
        self.held: dict[tuple[int, int, int], Any] = {}
        self.emptied: dict[tuple[int, int], Any] = {}
        self.uses_any: dict[int, Any] = {}  # e -> literal: event e uses a card from the hand (final-round clues)
        self.done: dict[int, Any] = {}  # e -> literal: (the site's end) nothing more can be scored at event e

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
        """The rules, block by block (each method opens with its rule in plain words), then
        the redundant constraints and the symmetry breaking (:mod:`.redundant`)."""
        self._start()
        self._one_action()
        self._clue_runs()
        self._who_acts()
        self._card_uses()
        self._plays()
        self._tokens()
        self._final_round_clues()
        self._strikes()
        self._all_complete()
        self._game_end()
        self._score()
        if self.redundant:
            redundant.add_redundant(self)
        if self.symmetry:
            redundant.add_symmetry(self)

    def _start(self) -> None:
        """The position before event 0 is the given state. (stack[0, s] has the single
        value st0[s] by its domain; alive[0] is True.)"""
        self.model.add(self.clues[0] == self.c0)
        self.model.add(self.strikes[0] == self.k0)

    def _one_action(self) -> None:
        """Each event while the game goes on is exactly one action: a step removes a card
        (a play or discard from the hand, or a deck play); a final-round turn may also be a
        clue. Once the game is over nothing happens."""
        for e in range(self.E):
            self._exactly_one([v for v, _, _ in self.actions[e]] + [_neg(self.alive[e])])
            kinds: dict[int, list] = {}
            for v, kind, c in self.actions[e]:
                if kind in _HAND_USES:
                    kinds.setdefault(c, []).append(v)
            for o, u in self.uses_at[e]:
                self.model.add(u == sum(kinds[o]))

    def _clue_runs(self) -> None:
        """The clue run before a step: each clue costs a token, K units (units after the run
        = units before - K x its length >= 0), none once the game is over; the run moves the
        turn on by its length, so only its length modulo n matters for who acts."""
        m, n = self.model, self.n
        for e in range(self.D):
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

    def _who_acts(self) -> None:
        """Who acts: the player after the previous event's actor, moved on by the run (a
        step) or not (a final-round turn); the position's current player is next."""
        n, D = self.n, self.D
        for e in range(self.E):
            self.model.add_exactly_one([self.actor[e, p] for p in range(n)])
            for p in range(n):
                prev = ((p + 1) % n == self.state.current) if e == 0 else self.actor[e - 1, p]
                if prev is False:
                    continue
                if e < D and self.RM > 0:
                    for r in range(n):
                        self._clause(_neg(prev), _neg(self.runmod[e, r]), self.actor[e, (p + 1 + r) % n])
                else:
                    self._implies(prev, self.actor[e, (p + 1) % n])

    def _card_uses(self) -> None:
        """A card is played or discarded at most once, and only from its holder's hand: a
        card dealt to player p only when p acts; deck card j (drawn at step j by its actor)
        only when the actor of step j acts. used[e, o] records the uses so far."""
        m, n = self.model, self.n
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
        for e in range(self.E - 1):
            for o in self.live:
                if e + 1 > self.first_use[o]:
                    m.add(self.used[e + 1, o] == self.is_used(e, o) + sum(self.removes.get((e, o), [])))

    def _plays(self) -> None:
        """Playing: a played card fits iff its stack is one below its rank; a fitting card
        raises its stack by one, any other card is a misplay (a strike; the card goes to the
        discard pile). In a game with fixed stacks (solver.hanabi.methods.split) no misplay
        is made while the stack is at the guard's height and the owner's stack (if any) is
        empty: the real game would play the card there."""
        fitting: dict[tuple[int, int], list] = {}  # (e, s) -> literals of fitting plays of suit s at event e
        for e in range(self.E):
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
                        t = self.game.guard_owner[o]
                        self._implies(v, _neg(self.ge_stack(e, s, h)), self.ge_stack(e, s, h + 1),
                                      self.ge_stack(e, t, 1) if t >= 0 else False)
        for e in range(self.E):
            for s in range(self.S):
                self.model.add(self.stack[e + 1, s] == self.stack[e, s] + sum(fitting.get((e, s), [])))

    def _tokens(self) -> None:
        """Clue tokens, in units: a discard returns one and is not allowed with all tokens
        available; completing a suit returns one unless all are available (none in Throw It
        in a Hole); a final-round clue spends a token, K units (so needs them). With
        inverted suits a discard is legal with all tokens available, and then gains none:
        refund[e] <-> a discard and not full_at[e]."""
        m = self.model
        for e in range(self.E):
            discards = [v for v, kind, _ in self.actions[e] if kind == _DISCARD]
            gain: list = []
            if not self.game.discard_at_max:
                for v in discards:
                    self._implies(v, _neg(self.full_at[e]))
                gain = list(discards)
            elif discards:
                refund = m.new_bool_var(f"refund[{e}]")
                m.add(refund <= sum(discards))
                self._implies(refund, _neg(self.full_at[e]))
                for v in discards:
                    self._implies(v, self.full_at[e], refund)
                gain = [refund]
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

    def _final_round_clues(self) -> None:
        """A final-round clue needs another player to clue: one holding a card (every card
        is touched by some clue: Game refuses variants where not), unless a clue may touch
        nothing (Game.free_clues: empty clues, or a variant whose clues of one kind touch
        nothing). Before the final round every hand is full. Alternating Clues, where the
        rule binds, and variants with cards no clue touches have their own blocks
        (:meth:`_alternating_clues`, :meth:`_untouched_cards`)."""
        if self.game.alternation_binds:
            self._alternating_clues()
        elif not self.game.free_clues and not self.game.all_touchable:
            self._untouched_cards()
        elif not self.game.free_clues and self.clue:
            self._emptied_hands()
            n = self.n
            for e, c in self.clue.items():
                for p in range(n):
                    holders: list = []
                    for q in range(n):
                        if q == p or self.final_size[q] == 0:
                            continue
                        if self.final_size[q] >= 2:
                            holders = [True]
                            break
                        holders.append(_neg(self.emptied.get((e, q), False)))
                    self._clause(_neg(c), _neg(self.actor[e, p]), *holders)

    def _emptied_hands(self) -> None:
        """In the final round each player acts once, so only a player holding one card as
        it began can run out: emptied[e, q] says q has used that card at a final-round
        event before e (x <-> prev or q acts at e - 1 and uses a card)."""
        m = self.model
        for q in [q for q in range(self.n) if self.final_size[q] == 1]:
            prev: Any = False
            for e in range(self.D, self.E):
                if e > self.D:
                    x = self.emptied[e, q] = m.new_bool_var(f"emptied[{e},{q}]")
                    went = m.new_bool_var(f"went[{e - 1},{q}]")
                    self._and(went, [self.actor[e - 1, q], self._uses_any(e - 1)])
                    self._implies(x, prev, went)
                    self._implies(prev, x)
                    self._implies(went, x)
                    prev = x

    def _strikes(self) -> None:
        """Strikes: each misplay adds one."""
        for e in range(self.E):
            mis = [v for v, kind, _ in self.actions[e] if kind in (_MISPLAY, _DECK_MISPLAY)]
            self.model.add(self.strikes[e + 1] == self.strikes[e] + sum(mis))

    def _all_complete(self) -> None:
        """All stacks complete: perfect[e] iff every stack is at its suit's top rank."""
        for e in range(1, self.E + 1):
            if self.perfect[e] is not False:
                self._and(self.perfect[e], [self.ge_stack(e, s, self.top[s]) for s in range(self.S)])

    def _game_end(self) -> None:
        """The game ends after an event that reaches the strike limit or completes every
        stack, and after the last event of the final round (alive[E] is False). hanab.live
        also ends the game once nothing more can be scored (Game.site_end): it may stop at
        event e only then (done[e], :meth:`_site_end`). Stopping changes no score; it spares
        the moves that would follow (a forced misplay)."""
        for e in range(1, self.E):
            goes_on = [self.alive[e - 1], _neg(self.struck[e]), _neg(self.perfect[e])]
            if not self.game.site_end:
                self._and(self.alive[e], goes_on)
                continue
            for lit in goes_on:
                self._implies(self.alive[e], lit)
            self.done[e] = self.model.new_bool_var(f"done[{e}]")
            self._clause(self.alive[e], *[_neg(lit) for lit in goes_on], self.done[e])
        if self.game.site_end:
            self._site_end()

    def _score(self) -> None:
        """The score: the sum of the final stacks, or 0 after a strikeout (unless the rules
        keep the stacks). Only lines scoring at least ``target`` (and at most ``upper``) are
        modelled."""
        m, E = self.model, self.E
        total = sum(self.stack[E, s] for s in range(self.S))
        if self.rules.strikeout_score == "stacks":
            m.add(self.score == total)
        else:
            m.add(self.score == total).only_enforce_if(_neg(self.struck[E]))
            m.add(self.score == 0).only_enforce_if(self.struck[E])
        if self.target > 0:
            m.add(self.score >= self.target)
        if self.upper is not None:
            m.add(self.score <= self.upper)

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
            acted: dict[int, Any] = {}
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
                        j = o - self.d0  # deck card j
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
    # objective
    # =====================================================================================
    def _objective(self, maximize: bool) -> None:
        if maximize:
            self.model.maximize(self.score)

    # =====================================================================================
    # the redundant constraints' names, hints and decoding (redundant.py, lines.py)
    # =====================================================================================
    def part(self, name: str) -> bool:
        """Whether the redundant constraint ``name`` (one of ``REDUNDANT``) is added."""
        return redundant.part(self, name)

    def line_values(self, line) -> tuple[dict, int | None]:
        """The variables' values along ``line`` and its score (:func:`.lines.line_values`)."""
        return lines.line_values(self, line)

    def add_hint(self, line) -> int | None:
        """Hint ``line`` to the solver; its score if it ends the game."""
        return lines.add_hint(self, line)

    def decode(self, solver: cp_model.CpSolver) -> tuple[list[Action], State]:
        """The solution as engine actions, replayed from the position (:func:`.lines.decode`)."""
        return lines.decode(self, solver)
