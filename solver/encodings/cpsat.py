"""CP-SAT encoding of full-information Hanabi: the maximum final score from a position.

The rest of the game is unrolled over turns ``t = 0 .. H-1`` (turn 0 is the position's
current turn) with a horizon ``H`` that no legal line can exceed. Every solution of the
model is a legal line of the rules engine, and every legal line is a solution up to two
score-preserving restrictions, each proved where it is added:

- *seed*: when a line scoring L is known (the hint, or greedy playouts), only lines
  scoring more than L are modelled; that shortens the horizon and adds a pace
  constraint. An infeasible model then proves L optimal.
- *symmetry breaking*: a round of clues (one by every player) before the last draw is
  played as late as possible (``canonical_line`` makes the same moves to a line).

So the optimum is the maximum score and CP-SAT's proven objective bound is an upper
bound on it. With full information a clue only spends a token (no rule looks at what it
touched): the model has a single "clue" action per turn and the decoder picks a concrete
legal clue.

Layout, as in the OR-Tools CP-SAT samples: data -> variables -> constraints ->
objective -> solve -> decode. The solution is decoded into engine :class:`Action` s,
replayed through the engine, and its score checked against the objective; a mismatch
raises, since it would be a bug in the encoding.

Public API: :func:`cpsat_max` returning a :class:`CpsatResult`; :func:`model_accepts`
(does the model hold a given line? for tests); :func:`canonical_line`, :func:`greedy_line`.
"""
from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.game import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, State

__all__ = ["CpsatResult", "canonical_line", "cpsat_max", "greedy_line", "model_accepts"]

# kinds of model actions (how a chosen action literal is decoded)
_PLAY, _MISPLAY, _DISCARD, _DECK_PLAY, _DECK_MISPLAY, _CLUE = range(6)


@dataclass(frozen=True)
class CpsatResult:
    """The answer of :func:`cpsat_max`.

    - ``status``: ``'optimal'`` (``max_score`` is proven maximal), ``'feasible'`` (a line
      was found, not proven best) or ``'unknown'`` (no line found in time).
    - ``max_score``: score of the best line found, as replayed by the engine (None if none).
    - ``upper_bound``: CP-SAT's proven bound: no line from the position scores more.
    - ``actions``: the best line found, engine actions from the position to the end.
    - ``stats``: model size and times (``variables``, ``constraints``, ``turns``, ``time``
      = CP-SAT's solve wall time, ``wall_time`` = total including build and decode, ...).
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
    """Builds the model for one position; keeps the variables for hinting and decoding."""

    def __init__(self, state: State, lower: int = 0, canonical: bool = True):
        self.model = cp_model.CpModel()
        self.canonical = canonical
        self._data(state, lower)
        self._variables()
        self._constraints()
        self._objective()

    # ---- literal helpers --------------------------------------------------------------
    def _clause(self, *lits) -> None:
        """At least one of ``lits`` holds (constants folded)."""
        if any(lit is True for lit in lits):
            return
        rest = [lit for lit in lits if lit is not False]
        if not rest:
            raise AssertionError("empty clause: the encoding contradicts a known fact")
        self.model.add_bool_or(rest)

    def _implies(self, a, *conclusion) -> None:
        """``a`` implies at least one literal of ``conclusion``."""
        self._clause(_neg(a), *conclusion)

    def _ge(self, var, k: int, name: str):
        """A new literal that holds iff the integer ``var >= k`` (an order-encoding view)."""
        b = self.model.new_bool_var(name)
        self.model.add(var >= k).only_enforce_if(b)
        self.model.add(var <= k - 1).only_enforce_if(~b)
        return b

    # =====================================================================================
    # data
    # =====================================================================================
    def _data(self, st: State, lower: int) -> None:
        g = st.game
        self.lower = lower  # only lines scoring at least this must be in the model
        self.state = st
        self.game = g
        self.n = n = g.num_players
        self.N = N = len(g.deck)
        self.d0 = st.next_draw  # deck card k (k = 0 is the top) has order d0 + k
        self.D = D = N - st.next_draw  # cards left in the deck
        self.c0, self.k0 = st.clues, st.strikes
        self.max_clues, self.limit = g.max_clues, g.strike_limit
        self.S = g.variant.num_suits
        self.top = list(g.max_rank)  # a suit is complete at its highest rank
        self.st0 = list(st.stacks)
        self.suit, self.rank = g.suit_of, g.rank_of
        self.rules = g.rules
        self.deck_plays = bool(g.rules.deck_plays) and D >= 1
        self.turns_left = st.turns_left
        self.hands = [list(h) for h in st.hands]
        self.holder0 = {o: p for p, h in enumerate(self.hands) for o in h}
        # Cards still in play: in a hand or in the deck. A stack can only rise to ``reach``:
        # every rank above its height needs a live card of that suit and rank.
        live = set(self.holder0) | set(range(self.d0, N))
        self.reach = []
        for s in range(self.S):
            r = self.st0[s]
            while r < self.top[s] and any(self.suit[o] == s and self.rank[o] == r + 1 for o in live):
                r += 1
            self.reach.append(r)

        # Horizon H: no legal line from here that scores at least ``lower`` lasts longer.
        # - If the deck is already empty (turns_left set), at most turns_left turns remain.
        # - Otherwise every turn is a "use" (a play or discard, which takes a card from the
        #   deck while it has cards) or a clue, which spends a token. Before the deck runs
        #   out there are at most D uses (one deck card each), then each player has exactly
        #   one more turn: at most U <= D + n uses in all. Tokens only come back from
        #   discards and completed suits, at most one per use.
        #   (a) Before the last draw there are at most D uses and c0 + D clues, then n
        #       turns: H <= 2D + c0 + n.
        #   (b) With P fitting plays (P = final stacks - current stacks) and C completed
        #       suits, at most U - P discards, so at most c0 + U - P + C clues:
        #       turns <= 2U - P + c0 + C <= 2(D + n) + c0 + C - P.
        #   A line scoring at least lower > 0 has P >= lower - (current stacks) (a line
        #   struck out with score 0 is not one of them), so (b) bounds its length too.
        self.cur0 = sum(self.st0)
        self.C = sum(1 for s in range(self.S) if self.st0[s] < self.top[s] == self.reach[s])
        self.turn_cap = 2 * (D + n) + self.c0 + self.C  # (b) is: turns <= turn_cap - P
        if self.turns_left is not None:
            self.H = self.turns_left
        else:
            self.H = 2 * D + self.c0 + n
            if lower > 0:
                self.H = max(1, min(self.H, self.turn_cap - (lower - self.cur0)))

    def actor(self, t: int) -> int:
        """The player acting at turn t: turns pass round the table, whatever happens."""
        return (self.state.current + t) % self.n

    # =====================================================================================
    # variables
    # =====================================================================================
    def _variables(self) -> None:
        m, H, n, D, S = self.model, self.H, self.n, self.D, self.S

        # -- position before turn t, for t = 0..H (t = H is the end of the game) --------
        # alive[t]          the game is not over before turn t
        # clues[t]          clue tokens available
        # strikes[t]        strikes so far
        # stack[t, s]       height of suit s's stack
        # drawn[t]          cards taken from the deck so far (deck card k is gone iff
        #                   drawn[t] > k); at most one a turn
        self.alive = [m.new_bool_var(f"alive[{t}]") for t in range(H + 1)]
        self.clues = [m.new_int_var(0, self.max_clues, f"clues[{t}]") for t in range(H + 1)]
        self.strikes = [m.new_int_var(self.k0, self.limit, f"strikes[{t}]") for t in range(H + 1)]
        self.stack = {
            (t, s): m.new_int_var(self.st0[s], min(self.reach[s], self.st0[s] + t), f"stack[{t},{s}]")
            for t in range(H + 1) for s in range(S)
        }
        self.drawn = [m.new_int_var(0, min(t, D), f"drawn[{t}]") for t in range(H + 1)]

        # -- order literals (views of the counters) -----------------------------------
        # drawn_ge[t, k]    drawn[t] >= k                       (1 <= k <= min(t, D))
        # stack_ge[t, s, r] stack[t, s] >= r                    (height range of stack[t, s])
        # full[t]           clues[t] == max_clues (no discard; a completed suit returns nothing)
        # struck[t]         strikes[t] has reached the strike limit
        # perfect[t]        every stack is complete
        self.drawn_ge = {
            (t, k): self._ge(self.drawn[t], k, f"drawn_ge[{t},{k}]")
            for t in range(H + 1) for k in range(1, min(t, D) + 1)
        }
        self.stack_ge = {
            (t, s, r): self._ge(self.stack[t, s], r, f"stack_ge[{t},{s},{r}]")
            for t in range(H + 1) for s in range(S)
            for r in range(self.st0[s] + 1, min(self.reach[s], self.st0[s] + t) + 1)
        }
        self.full = [self._ge(self.clues[t], self.max_clues, f"full[{t}]") for t in range(H + 1)]
        self.struck = [self._ge(self.strikes[t], self.limit, f"struck[{t}]") for t in range(H + 1)]
        can_be_perfect = self.reach == self.top
        self.perfect = [m.new_bool_var(f"perfect[{t}]") if can_be_perfect else False for t in range(H + 1)]

        # -- actions at turn t (t = 0..H-1) -----------------------------------------
        # play[t, o]        the actor plays card o from their hand and it fits its stack
        # misplay[t, o]     the actor plays card o from their hand and it does not fit
        # discard[t, o]     the actor discards card o from their hand
        # deck_play[t]      (deckPlays) the actor plays the last deck card, and it fits
        # deck_misplay[t]   (deckPlays) the same, and it does not fit
        # clue[t]           the actor gives a clue (any legal clue: only the token counts)
        # Card o can be in the actor's hand at turn t only if it is in their hand now, or
        # it is deck card k = o - d0 and t >= k + n: it is drawn at a turn t' >= k (one
        # draw a turn) by the same player, whose next turn is t' + n at the earliest.
        self.play, self.misplay, self.discard = {}, {}, {}
        self.deck_play, self.deck_misplay, self.clue = {}, {}, {}
        self.turn_actions = [[] for _ in range(H)]  # per turn: (literal, kind, card order)
        self.hand_uses = [[] for _ in range(H)]  # per turn: literals of plays/discards from a hand
        self.uses_of = {}  # card order -> every action literal that uses it up
        last = self.N - 1
        for t in range(H):
            a = self.actor(t)
            cards = self.hands[a] + [self.d0 + k for k in range(D) if k + n <= t]
            for o in cards:
                s, r = self.suit[o], self.rank[o]
                acts = []
                # it fits only if the stack can be at r - 1 at turn t
                if self.st0[s] < r <= self.reach[s] and r - 1 - self.st0[s] <= t:
                    self.play[t, o] = v = m.new_bool_var(f"play[{t},{o}]")
                    acts.append((v, _PLAY))
                self.misplay[t, o] = v = m.new_bool_var(f"misplay[{t},{o}]")
                acts.append((v, _MISPLAY))
                if self.max_clues > 0:  # with no tokens at all, discarding is never legal
                    self.discard[t, o] = v = m.new_bool_var(f"discard[{t},{o}]")
                    acts.append((v, _DISCARD))
                for v, kind in acts:
                    self.turn_actions[t].append((v, kind, o))
                    self.hand_uses[t].append(v)
                    self.uses_of.setdefault(o, []).append(v)
            if self.deck_plays and t >= D - 1:
                s, r = self.suit[last], self.rank[last]
                if self.st0[s] < r <= self.reach[s] and r - 1 - self.st0[s] <= t:
                    self.deck_play[t] = v = m.new_bool_var(f"deck_play[{t}]")
                    self.turn_actions[t].append((v, _DECK_PLAY, last))
                    self.uses_of.setdefault(last, []).append(v)
                self.deck_misplay[t] = v = m.new_bool_var(f"deck_misplay[{t}]")
                self.turn_actions[t].append((v, _DECK_MISPLAY, last))
                self.uses_of.setdefault(last, []).append(v)
            if self.max_clues > 0:
                self.clue[t] = v = m.new_bool_var(f"clue[{t}]")
                self.turn_actions[t].append((v, _CLUE, -1))

        # -- bookkeeping --------------------------------------------------------------
        # draw[t]           the actor draws a card at the end of turn t
        # owner[k, p]       deck card k is drawn into player p's hand
        # bonus[t]          completing a suit at turn t returns a clue token
        # holds[t, p]       player p holds a card before turn t (only where it can fail)
        self.draw = {t: m.new_bool_var(f"draw[{t}]") for t in range(H) if D >= 1 and self.hand_uses[t]}
        self.owner = {(k, p): m.new_bool_var(f"owner[{k},{p}]") for k in range(D) for p in range(n)}
        self.completers = [
            [v for (v, kind, o) in self.turn_actions[t]
             if kind in (_PLAY, _DECK_PLAY) and self.rank[o] == self.top[self.suit[o]]]
            for t in range(H)
        ]
        self.bonus = {t: m.new_bool_var(f"bonus[{t}]") for t in range(H) if self.completers[t]}
        self.holds = {}  # filled by the clue constraint block

        # score: the final score (0 after a strikeout unless the stacks are kept)
        self.score = m.new_int_var(0, self.game.perfect_score, "score")

    # literal views with folding of facts known at build time
    def ge_drawn(self, t: int, k: int):
        """drawn[t] >= k."""
        if k <= 0:
            return True
        if k > min(t, self.D):
            return False
        return self.drawn_ge[t, k]

    def ge_stack(self, t: int, s: int, r: int):
        """stack[t, s] >= r."""
        if r <= self.st0[s]:
            return True
        if r > min(self.reach[s], self.st0[s] + t):
            return False
        return self.stack_ge[t, s, r]

    # =====================================================================================
    # constraints
    # =====================================================================================
    def _constraints(self) -> None:
        m, H, n, D, S = self.model, self.H, self.n, self.D, self.S
        last = self.N - 1

        # -- The position before turn 0 is the given state (and the game is not over). ---
        m.add(self.alive[0] == 1)
        m.add(self.clues[0] == self.c0)
        m.add(self.strikes[0] == self.k0)
        m.add(self.drawn[0] == 0)
        # stack[0, s] has the single value st0[s] by its domain.

        # -- Each turn while the game goes on the actor takes exactly one action; once the
        #    game is over nobody acts. -----------------------------------------------
        for t in range(H):
            m.add_exactly_one([v for v, _, _ in self.turn_actions[t]] + [~self.alive[t]])

        # -- A card can be played or discarded only once: it then leaves the hand. ------
        for o, uses in self.uses_of.items():
            if len(uses) > 1:
                m.add_at_most_one(uses)

        # -- A card from the deck can be used only after it was drawn, and only by the
        #    player who drew it. ----------------------------------------------------------
        for (t, o), v in list(self.play.items()) + list(self.misplay.items()) + list(self.discard.items()):
            if o >= self.d0:
                k = o - self.d0
                self._implies(v, self.ge_drawn(t, k + 1))
                self._implies(v, self.owner[k, self.actor(t)])
        for k in range(D):
            m.add_at_most_one([self.owner[k, p] for p in range(n)])

        # -- Drawing: after playing or discarding a card from the hand, the actor draws the
        #    top card of the deck if there is one; the deck is drawn in order, so the card
        #    drawn at turn t is deck card drawn[t] and it goes to the actor's hand. A deck
        #    play also takes the (last) deck card. -----------------------------------------
        for t in range(H):
            step = []
            if t in self.draw:
                d = self.draw[t]
                empty = self.ge_drawn(t, D)
                m.add(d <= sum(self.hand_uses[t]))
                self._implies(d, _neg(empty))
                for u in self.hand_uses[t]:
                    self._implies(u, empty, d)
                step.append(d)
                for k in range(min(t, D - 1) + 1):
                    # draw[t] and drawn[t] == k  =>  owner[k, actor(t)]
                    self._clause(_neg(d), _neg(self.ge_drawn(t, k)), self.ge_drawn(t, k + 1),
                                 self.owner[k, self.actor(t)])
            for dp in (self.deck_play.get(t), self.deck_misplay.get(t)):
                if dp is not None:
                    step.append(dp)
            m.add(self.drawn[t + 1] == self.drawn[t] + sum(step))

        # -- Deck plays (deckPlays option): with exactly one card left in the deck, the actor
        #    may play it directly from the deck; nothing is drawn. --------------------------
        for t in range(H):
            for dp in (self.deck_play.get(t), self.deck_misplay.get(t)):
                if dp is not None:
                    self._implies(dp, self.ge_drawn(t, D - 1))
                    self._implies(dp, _neg(self.ge_drawn(t, D)))

        # -- Playing: a played card fits iff its stack is one below its rank; a fitting card
        #    raises its stack by one, any other card is a misplay (a strike, the card is
        #    discarded). -----------------------------------------------------------------
        played = {}  # (t, s) -> literals of fitting plays of suit s at turn t
        for (t, o), v in self.play.items():
            s, r = self.suit[o], self.rank[o]
            self._implies(v, self.ge_stack(t, s, r - 1))
            self._implies(v, _neg(self.ge_stack(t, s, r)))
            played.setdefault((t, s), []).append(v)
        for (t, o), v in self.misplay.items():
            s, r = self.suit[o], self.rank[o]
            self._implies(v, _neg(self.ge_stack(t, s, r - 1)), self.ge_stack(t, s, r))
        for t, v in self.deck_play.items():
            s, r = self.suit[last], self.rank[last]
            self._implies(v, self.ge_stack(t, s, r - 1))
            self._implies(v, _neg(self.ge_stack(t, s, r)))
            played.setdefault((t, s), []).append(v)
        for t, v in self.deck_misplay.items():
            s, r = self.suit[last], self.rank[last]
            self._implies(v, _neg(self.ge_stack(t, s, r - 1)), self.ge_stack(t, s, r))
        for t in range(H):
            for s in range(S):
                m.add(self.stack[t + 1, s] == self.stack[t, s] + sum(played.get((t, s), [])))

        # -- Clue tokens: a clue spends one (so needs one), a discard returns one and is not
        #    allowed with all tokens available, completing a suit returns one unless all are
        #    available. -------------------------------------------------------------------
        for t in range(H):
            discards = [v for v, kind, _ in self.turn_actions[t] if kind == _DISCARD]
            for v in discards:
                self._implies(v, ~self.full[t])
            gain = list(discards)
            if t in self.bonus:
                b = self.bonus[t]
                m.add(b <= sum(self.completers[t]))
                self._implies(b, ~self.full[t])
                for u in self.completers[t]:
                    self._implies(u, self.full[t], b)
                gain.append(b)
            spend = []
            if t in self.clue:
                m.add(self.clues[t] >= 1).only_enforce_if(self.clue[t])
                spend.append(self.clue[t])
            m.add(self.clues[t + 1] == self.clues[t] + sum(gain) - sum(spend))

        # -- A clue needs another player to clue: one holding a card (any card is touched by
        #    some rank clue) unless empty clues are allowed. From any position, a hand loses
        #    at most one card for good: while the deck has cards every play or discard from a
        #    hand draws a replacement, and after the last draw each player has one turn left.
        #    So only a player holding at most one card now can ever be empty-handed; then
        #    hand size = now + draws - plays/discards from the hand. ---------------------
        if not self.rules.empty_clues:
            for t, c in self.clue.items():
                a = self.actor(t)
                others = [p for p in range(n) if p != a]
                if any(len(self.hands[p]) >= 2 for p in others):
                    continue
                options = []
                for p in others:
                    h = self.holds[t, p] = m.new_bool_var(f"holds[{t},{p}]")
                    turns = [u for u in range(t) if self.actor(u) == p]
                    gained = [self.draw[u] for u in turns if u in self.draw]
                    lost = [v for u in turns for v in self.hand_uses[u]]
                    if gained or lost:
                        size = len(self.hands[p]) + sum(gained) - sum(lost)
                        m.add(size >= 1).only_enforce_if(h)
                    elif not self.hands[p]:
                        m.add(h == 0)
                    options.append(h)
                self._implies(c, *options)

        # -- Strikes: each misplay adds one. --------------------------------------------
        for t in range(H):
            mis = [v for v, kind, _ in self.turn_actions[t] if kind in (_MISPLAY, _DECK_MISPLAY)]
            m.add(self.strikes[t + 1] == self.strikes[t] + sum(mis))

        # -- All stacks complete: perfect[t] iff every stack is at its suit's top rank. ----
        for t in range(H + 1):
            p = self.perfect[t]
            if p is False:
                continue
            tops = [self.ge_stack(t, s, self.top[s]) for s in range(S)]
            for x in tops:
                self._implies(p, x)
            self._clause(p, *[_neg(x) for x in tops])

        # -- The game ends after a turn that reaches the strike limit, completes every
        #    stack, or is the last turn of the final round: after the last card leaves the
        #    deck (at turn t*), each player has exactly one more turn, so the game is over
        #    before turn t iff the deck was already empty before turn t - n. Otherwise it
        #    goes on. ----------------------------------------------------------------------
        for t in range(1, H + 1):
            if self.turns_left is not None:
                final_over = t >= self.turns_left
            else:
                final_over = self.ge_drawn(t - n, D) if t >= n else False
            ends = [self.struck[t], self.perfect[t], final_over]
            alive, before = self.alive[t], self.alive[t - 1]
            self._implies(alive, before)
            for e in ends:
                self._implies(alive, _neg(e))
            self._clause(_neg(before), *ends, alive)

        # -- Symmetry breaking: a round of clues is played as late as possible. --------------
        #    A round of n consecutive clues before the last draw changes nothing but the
        #    tokens (-n). Moving it one action X later (X at turn t instead of t + n: same
        #    player, same hand, same deck card drawn; the round's clues then spend tokens X
        #    may have returned) gives a legal line with the same score, unless
        #    - X is a discard or completes a suit while all tokens were available before the
        #      round (at max tokens the discard is illegal / the suit returns no token), or
        #    - X takes the last deck card (the round would fall into the final round).
        #    (If X ends the game, the round is dropped: same score, shorter line.) Each move
        #    takes clues later, so repeating them ends, in a line of the same score, no
        #    longer, where every round of n clues before the last draw is followed by a
        #    clue, or by the last draw, or starts at max tokens and is followed by a discard
        #    or a suit completion. Only such lines are kept (``canonical_line`` makes the
        #    same moves to a hint).
        if self.canonical and self.turns_left is None:
            for t in range(H - n):
                block = [self.clue.get(u) for u in range(t, t + n)]
                if any(b is None for b in block):
                    continue
                x = t + n
                nxt_clue = self.clue.get(x, False)
                last_card = self.ge_drawn(x, D - 1)  # X takes the last card, or the deck is empty
                token_users = [v for v, kind, _ in self.turn_actions[x] if kind == _DISCARD] + self.completers[x]
                not_block = [~b for b in block]
                self._clause(*not_block, nxt_clue, last_card, self.full[t])
                self._clause(*not_block, nxt_clue, last_card, *token_users)

        # -- Redundant (implied, helps the solver): the game is over by the horizon; and a
        #    rank above a stack's starting height is played (fitting) exactly once if the
        #    final stack reaches it, never otherwise. -------------------------------------
        m.add(self.alive[H] == 0)
        all_uses = [v for t in range(H) for v, kind, _ in self.turn_actions[t] if kind != _CLUE]
        final = sum(self.stack[H, s] for s in range(S))
        if self.turns_left is None:
            # at most D + n uses: D while the deck has cards, then one per player
            m.add(sum(all_uses) <= D + n)
            # pace: from turn t on, every fitting play is a use, and at most
            # (cards left in the deck) + n uses remain
            for t in range(1, H):
                m.add(final - sum(self.stack[t, s] for s in range(S)) <= D - self.drawn[t] + n)
            # the length bound (b) of the horizon, for the line's own number of plays
            m.add(sum(self.alive[t] for t in range(H)) <= self.turn_cap - (final - self.cur0))
        else:
            m.add(sum(all_uses) <= self.turns_left)
        if self.lower > 0:
            # only lines scoring at least the known one are of interest
            m.add(self.score >= self.lower)
        fits = {}
        for (t, o), v in self.play.items():
            fits.setdefault((self.suit[o], self.rank[o]), []).append(v)
        for t, v in self.deck_play.items():
            fits.setdefault((self.suit[last], self.rank[last]), []).append(v)
        for s in range(S):
            for r in range(self.st0[s] + 1, self.top[s] + 1):
                reached = self.ge_stack(H, s, r)
                lits = fits.get((s, r), [])
                if lits:
                    m.add(sum(lits) == reached)
                elif reached is not False:  # no card of that rank can reach a hand in time
                    m.add(reached == 0)

    # =====================================================================================
    # objective
    # =====================================================================================
    def _objective(self) -> None:
        m, H = self.model, self.H
        # -- The score is the sum of the final stacks, or 0 after a strikeout (unless the
        #    rules keep the stacks on a strikeout). ------------------------------------
        total = sum(self.stack[H, s] for s in range(self.S))
        if self.rules.strikeout_score == "stacks":
            m.add(self.score == total)
        else:
            m.add(self.score == total).only_enforce_if(~self.struck[H])
            m.add(self.score == 0).only_enforce_if(self.struck[H])
        m.maximize(self.score)

    # =====================================================================================
    # hint: the values of every variable along a known line
    # =====================================================================================
    def add_hint(self, line) -> int | None:
        """Seed the model with ``line`` (engine actions from the position): every variable
        gets its value along the line (up to the horizon; a partial line hints the turns it
        covers). Returns the line's score if it ends the game. Raises IllegalActionError if
        the line is not legal from the position."""
        m, H, n, D = self.model, self.H, self.n, self.D
        st = self.state.copy()
        hint: dict = {}

        def put(var, value):
            if not isinstance(var, bool):
                hint[var] = int(value)

        owners = {}
        line = list(line)
        for t in range(H + 1):
            # the position before turn t
            drawn = st.next_draw - self.d0
            put(self.alive[t], not st.over)
            put(self.clues[t], st.clues)
            put(self.full[t], st.clues >= self.max_clues)
            put(self.strikes[t], st.strikes)
            put(self.struck[t], st.strikes >= self.limit)
            put(self.drawn[t], drawn)
            put(self.perfect[t], all(st.stacks[s] == self.top[s] for s in range(self.S)))
            for k in range(1, min(t, D) + 1):
                put(self.drawn_ge[t, k], drawn >= k)
            for s in range(self.S):
                put(self.stack[t, s], st.stacks[s])
                for r in range(self.st0[s] + 1, min(self.reach[s], self.st0[s] + t) + 1):
                    put(self.stack_ge[t, s, r], st.stacks[s] >= r)
            if t == H:
                break
            for p in range(n):
                if (t, p) in self.holds:
                    put(self.holds[t, p], len(st.hands[p]) >= 1)
            chosen = None
            action = None
            if not st.over:
                if t >= len(line):
                    break  # a partial line: hint what it covers
                action = st.check(line[t])  # raises IllegalActionError if illegal here
                k_, o = action.kind, action.target
                me = st.current
                if k_ == PLAY and o in st.hands[me]:
                    fits = self.rank[o] == st.stacks[self.suit[o]] + 1
                    chosen = self.play.get((t, o)) if fits else self.misplay.get((t, o))
                elif k_ == PLAY:
                    fits = self.rank[o] == st.stacks[self.suit[o]] + 1
                    chosen = self.deck_play.get(t) if fits else self.deck_misplay.get(t)
                elif k_ == DISCARD:
                    chosen = self.discard.get((t, o))
                else:
                    chosen = self.clue.get(t)
                if chosen is None:
                    raise AssertionError(f"CP-SAT encoding bug: hint action {t} ({action}) has no variable")
            for v, _, _ in self.turn_actions[t]:
                put(v, v is chosen)
            before_clues, before_draw, before_stacks = st.clues, st.next_draw, list(st.stacks)
            hand_use = False
            if action is not None:
                hand_use = action.kind in (PLAY, DISCARD) and action.target in st.hands[st.current]
                actor = st.current
                st.apply(action)
                if hand_use and st.next_draw > before_draw:
                    owners[before_draw - self.d0] = actor
            if t in self.draw:
                put(self.draw[t], hand_use and before_draw < self.N)
            if t in self.bonus:
                completed = any(st.stacks[s] == self.top[s] and before_stacks[s] < self.top[s] for s in range(self.S))
                put(self.bonus[t], completed and before_clues < self.max_clues)
        for k in owners:
            for p in range(n):
                put(self.owner[k, p], owners[k] == p)
        if st.over:
            put(self.score, st.score)
        for var, value in hint.items():
            m.add_hint(var, value)
        return st.score if st.over else None

    # =====================================================================================
    # decode
    # =====================================================================================
    def decode(self, solver: cp_model.CpSolver) -> tuple[list[Action], State]:
        """The solution as engine actions, replayed from the position (raises on an illegal
        one, which would be an encoding bug)."""
        st = self.state.copy()
        actions = []
        for t in range(self.H):
            if not solver.boolean_value(self.alive[t]):
                break
            chosen = [(kind, o) for v, kind, o in self.turn_actions[t] if solver.boolean_value(v)]
            assert len(chosen) == 1, (t, chosen)
            kind, o = chosen[0]
            if kind in (_PLAY, _MISPLAY, _DECK_PLAY, _DECK_MISPLAY):
                action = Action(PLAY, o)
            elif kind == _DISCARD:
                action = Action(DISCARD, o)
            else:  # a clue stall: any legal clue will do
                clues = [a for a in st.legal_actions() if a.kind in (COLOR_CLUE, RANK_CLUE)]
                if not clues:
                    raise AssertionError(f"CP-SAT encoding bug: turn {t} clues but no clue is legal")
                action = clues[0]
            actions.append(st.apply(action))
        return actions, st


def _reachable(state: State) -> int:
    """The most the stacks can reach with the cards still in hands and deck, ignoring time."""
    g = state.game
    live = {(g.suit_of[o], g.rank_of[o]) for h in state.hands for o in h}
    live |= {(g.suit_of[o], g.rank_of[o]) for o in range(state.next_draw, len(g.deck))}
    total = 0
    for s, top in enumerate(state.stacks):
        while top < g.max_rank[s] and (s, top + 1) in live:
            top += 1
        total += top
    return total


def greedy_line(state: State, tries: int = 16) -> tuple[int, list[Action]]:
    """A quick line to seed the model: the best of ``tries`` randomised greedy playouts
    (play a fitting card, else discard trash, else stall with a clue when a partner can
    play, else discard a card that is not the last copy). Deterministic. Returns
    ``(score, actions)``; ``(-1, [])`` when ``tries`` is 0."""
    g = state.game
    best: tuple[int, list[Action]] = (-1, [])
    for k in range(tries):
        rng = random.Random(k)
        st = state.copy()
        line = []
        while not st.over:
            me = st.current
            hand = st.hands[me]
            live = Counter((g.suit_of[o], g.rank_of[o]) for h in st.hands for o in h)
            live.update((g.suit_of[o], g.rank_of[o]) for o in range(st.next_draw, len(g.deck)))

            def useful(o):
                s, r = g.suit_of[o], g.rank_of[o]
                return r > st.stacks[s] and all(live[s, q] > 0 for q in range(st.stacks[s] + 1, r))

            def fits(o):
                return g.rank_of[o] == st.stacks[g.suit_of[o]] + 1

            legal = st.legal_actions()
            clues = [a for a in legal if a.is_clue]
            playable = [o for o in hand if fits(o)]
            action = None
            if playable and (clues == [] or rng.random() < 0.9):
                action = Action(PLAY, max(playable, key=lambda o: (g.rank_of[o], rng.random())))
            elif st.clues < g.max_clues:
                trash = [o for o in hand if not useful(o)]
                partner_fits = any(fits(o) for p, h in enumerate(st.hands) if p != me for o in h)
                if trash and rng.random() < 0.8:
                    action = Action(DISCARD, rng.choice(trash))
                elif clues and (partner_fits or rng.random() < 0.3):
                    action = clues[0]
                else:
                    spare = [o for o in hand if not (useful(o) and live[g.suit_of[o], g.rank_of[o]] == 1)] or hand
                    action = Action(DISCARD, max(spare, key=lambda o: (
                        not useful(o), g.rank_of[o] - st.stacks[g.suit_of[o]], rng.random())))
            elif clues:
                action = clues[0]
            if action is None:
                action = rng.choice(legal)
            line.append(st.apply(action))
        if st.score > best[0]:
            best = (st.score, line)
    return best


def _replay(state: State, line) -> tuple[list[Action], State]:
    """Replay ``line`` from ``state``; a clue that is no longer legal (its target's hand
    changed) is replaced by the first legal clue. Returns the applied actions and the end."""
    st = state.copy()
    out = []
    for a in line:
        if st.over:
            break
        if a.is_clue and a not in st.legal_actions():
            a = next(c for c in st.legal_actions() if c.is_clue)
        out.append(st.apply(a))
    return out, st


def canonical_line(state: State, line) -> list[Action]:
    """``line`` with every round of n consecutive clues (before the last draw) moved as
    late as the symmetry-breaking rule of the model requires: same score, no longer."""
    g = state.game
    n = g.num_players
    line, _ = _replay(state, line)
    moved = True
    while moved:
        moved = False
        st = state.copy()
        before = []  # (clue tokens, cards left in the deck, stacks) before each turn
        for a in line:
            before.append((st.clues, st.deck_left, list(st.stacks)))
            st.apply(a)
        for t in range(len(line) - n):
            if not all(line[u].is_clue for u in range(t, t + n)):
                continue
            x = line[t + n]
            clues_t, _, _ = before[t]
            _, left_x, stacks_x = before[t + n]
            if x.is_clue or left_x <= 1:
                continue
            completes = (
                x.kind == PLAY
                and g.rank_of[x.target] == stacks_x[g.suit_of[x.target]] + 1 == g.max_rank[g.suit_of[x.target]]
            )
            if clues_t >= g.max_clues and (x.kind == DISCARD or completes):
                continue
            line = line[:t] + [x] + line[t:t + n] + line[t + n + 1:]
            line, _ = _replay(state, line)
            moved = True
            break
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


def cpsat_max(
    state: State,
    *,
    hint=None,
    timeout: float | None = None,
    workers: int = 2,
    seed_tries: int = 16,
    params: dict | None = None,
) -> CpsatResult:
    """Maximise the final score from ``state`` with CP-SAT.

    ``hint``: an optional line (engine actions from ``state`` to the end of the game), a
    known good line, e.g. the search's. ``timeout``: seconds (None: until proven).
    ``workers``: CP-SAT search workers. ``seed_tries``: greedy playouts tried too (0: none).
    ``params``: extra CP-SAT parameters by name (e.g. ``{"random_seed": 1}``).

    The better of the hint and the greedy line is the seed line, scoring L. If L is already
    the most the remaining cards allow, the seed line is optimal as it stands (no model is
    built; ``stats["solved_by"]`` says so). Otherwise the model holds the lines scoring
    more than L (a shorter horizon and a pace constraint follow) and is maximised: if it
    is infeasible, L is proven optimal and the seed line is returned; otherwise the
    solution is decoded and replayed. Without any seed the model holds every line.
    On a timeout the best line known (possibly the seed line) is returned as 'feasible'.
    """
    t_start = time.perf_counter()
    seeds = {"hint_score": None, "greedy_score": None, "seed_score": None}

    def no_model(score: int, actions: list[Action], how: str) -> CpsatResult:
        return CpsatResult("optimal", score, score, actions, {
            "variables": 0, "constraints": 0, "turns": 0, "time": 0.0, "build_time": 0.0,
            **seeds, "solved_by": how, "wall_time": time.perf_counter() - t_start,
        })

    if state.over:
        return no_model(state.score, [], "the game is over")

    # ---- data: the seed line and what it settles ----
    seed, seed_score = _seed(state, hint, seed_tries, seeds)
    reachable = _reachable(state)
    if seed is not None and seed_score >= reachable:
        actions, end = _replay(state, seed)
        return no_model(end.score, actions, "the seed line reaches the cards' bound")

    # ---- variables, constraints: the lines that beat the seed ----
    enc = _Encoding(state, seed_score + 1 if seed is not None else 0)
    if seed is not None:
        enc.add_hint(seed)  # not a solution (it scores one less), but a guide
    proto = enc.model.proto
    t_built = time.perf_counter()

    # ---- solve ----
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    # The LP relaxation of this model is weak and slows both the proofs and the search for
    # better lines (measured on hard 2-player decks): pure clause-learning search instead.
    solver.parameters.linearization_level = 0
    if timeout is not None:
        solver.parameters.max_time_in_seconds = float(timeout)
    for key, value in (params or {}).items():
        setattr(solver.parameters, key, value)
    code = solver.solve(enc.model)

    # ---- decode ----
    stats = {
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "turns": enc.H,
        "time": solver.wall_time,
        "build_time": t_built - t_start,
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        **seeds,
        "solved_by": "cpsat",
    }

    def result(status, score, upper, actions):
        stats["wall_time"] = time.perf_counter() - t_start
        return CpsatResult(status, score, upper, actions, stats)

    if code == cp_model.MODEL_INVALID or (code == cp_model.INFEASIBLE and seed is None):
        # every legal line is a solution of the model without a seed: an encoding bug
        raise AssertionError(f"CP-SAT encoding bug: model is {solver.status_name(code)}")
    if code == cp_model.INFEASIBLE:
        # no line beats the seed line
        actions, end = _replay(state, seed)
        stats["solved_by"] = "cpsat: no line beats the seed line"
        return result("optimal", end.score, end.score, actions)
    bound = solver.best_objective_bound
    upper = reachable if not math.isfinite(bound) else min(reachable, math.floor(bound + 1e-6))
    # lines scoring at most seed_score are outside the model
    upper = max(upper, seed_score)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        actions, end = enc.decode(solver)
        objective = solver.value(enc.score)
        if not end.over or end.score != objective:
            raise AssertionError(
                f"CP-SAT encoding bug: decoded line scores {end.score} (over={end.over}), objective {objective}"
            )
        if code == cp_model.OPTIMAL:
            return result("optimal", objective, objective, actions)
        return result("feasible", objective, max(upper, objective), actions)
    if seed is not None:
        actions, end = _replay(state, seed)
        return result("feasible", end.score, upper, actions)
    return result("unknown", None, upper, [])


def model_accepts(state: State, line) -> bool:
    """Whether the model from ``state`` has the solution of ``line`` (a complete legal line,
    made canonical first), with every variable fixed to its value along the line. For tests
    and debugging: a False is a bug (the model cuts a legal line)."""
    line = list(line)
    if state.over:
        return not line
    line = canonical_line(state, line)
    _, end = _replay(state, line)
    enc = _Encoding(state, end.score)
    enc.add_hint(line)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    code = solver.solve(enc.model)
    return code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and solver.value(enc.score) == end.score
