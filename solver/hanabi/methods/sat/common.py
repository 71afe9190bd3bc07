"""What both SAT encodings share: the results, the position's facts (:class:`_Data`),
the CNF builder (:class:`Encoding`), the counters and rule blocks both models write, and
the optional constraint groups."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from solver.errors import EncodingError
from solver.hanabi.rules import DISCARD, PLAY, Action, MalformedError, State
from solver.hanabi.rules.support import check_solvable, deck_text


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
        # a game with fixed stacks (solver.hanabi.methods.split): per card type, the misplay its guard
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

    def final_turns(self) -> int:
        """The turns of the final round still to play: a round of N once the deck runs out,
        or the ``turns_left`` of a position already in it."""
        if self.turns_left0 is None:
            return self.N
        return self.turns_left0

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
        self.steps = 0           # the step model's steps (cards left in the deck)
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


def _stack_rises(enc: Encoding, stack, t: int, s: int, h: int, kp: int, ty: int) -> None:
    """Stacks (order-encoded): suit s's stack is at least h after event or turn t exactly
    when it was before, or ``t`` plays (``kp``) a card of suit s and rank h (``ty``) on a
    stack at h-1."""
    nxt, cur, below = enc.var("stack", t + 1, s, h), stack(t, s, h), stack(t, s, h - 1)
    enc.implies([cur], [nxt])
    enc.implies([kp, ty, below], [nxt])
    enc.implies([nxt], [cur, kp])
    enc.implies([nxt], [cur, ty])
    enc.implies([nxt], [cur, below])
    enc.implies([nxt], [stack(t + 1, s, h - 1)])


def _units_after(enc: Encoding, before, t: int, gain: int, clue: int, top: int, cost: int) -> None:
    """Clue units (order-encoded) after event or turn t: one more after a gain (none past
    ``top``), ``cost`` fewer after a clue, else as ``before(t, i)`` says (at least i units
    before t's action). A gain and a clue never meet."""
    for i in range(1, top + 1):
        nxt = enc.var("clues", t + 1, i)
        up, same, down = before(t, i - 1), before(t, i), before(t, i + cost)
        enc.implies([gain, up], [nxt])
        enc.implies([gain, nxt], [up])
        enc.implies([clue, down], [nxt])
        enc.implies([clue, nxt], [down])
        enc.implies([-gain, -clue, same], [nxt])
        enc.implies([-gain, -clue, nxt], [same])


def _strikes_rise(enc: Encoding, strikes, t: int, bomb: int, limit: int) -> None:
    """Strikes (order-encoded): one more after a bomb at ``t``."""
    for i in range(1, limit + 1):
        nxt, cur, below = enc.var("strikes", t + 1, i), strikes(t, i), strikes(t, i - 1)
        enc.implies([cur], [nxt])
        enc.implies([bomb, below], [nxt])
        enc.implies([nxt], [cur, bomb])
        enc.implies([nxt], [cur, below])


def _guard(enc: Encoding, d: _Data, stack, t: int, kp: int, ty: int, s: int, r: int) -> None:
    """A game with fixed stacks (solver.hanabi.methods.split): a card of type (s, r) is not misplayed at
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


def _any_clue(st: State) -> Action:
    """A legal clue, :meth:`State.first_clue` (the encodings only say *that* a clue is given)."""
    a = st.first_clue()
    if a is None:
        raise EncodingError(f"decode: a clue is due at turn {st.turn} but no clue is legal", deck=deck_text(st),
                            method="sat")
    return a


def _decoded_action(enc: Encoding, true: set[int], st: State, i: int, what: str, method: str) -> Action:
    """Decoding: the action of event or turn ``i`` of the model ``true``, applied to ``st``:
    a clue (any legal one) where the model says so, else the play or discard of the one
    card it uses; a model that uses no card or several there is an :class:`EncodingError`."""
    if enc.value(true, "clue", i):
        return st.apply(_any_clue(st))
    cards = [o for o in enc.data.live if enc.value(true, "use", i, o)]
    if len(cards) != 1:
        raise EncodingError(f"decode: {what} {i} uses {len(cards)} cards", deck=deck_text(enc.data.state),
                            method=method)
    kind = PLAY if enc.value(true, "play", i) else DISCARD
    return st.apply(Action(kind, cards[0]))


def _needed_cards(enc: Encoding, d: _Data, use: dict, events: int, discard: Callable[[int], int],
                  bomb: Callable[[int], int]) -> None:
    """Needed cards (redundant; a perfect target only): every card not yet played is needed,
    so not every copy of one may be discarded or bombed. ``use[t, o]``: the literal "card o
    is used at event t" (where it can be), ``discard(t)`` and ``bomb(t)`` the literals of
    event t's action; ``lost(o)``: o is discarded or bombed."""
    for (s, r) in d.types:
        if r <= d.stacks0[s]:
            continue
        keep = []
        for o in d.live:
            if d.card_type(o) != (s, r):
                continue
            lost = enc.var("lost", o)
            for t in range(events):
                if (t, o) in use:
                    enc.implies([use[t, o], discard(t)], [lost])
                    enc.implies([use[t, o], bomb(t)], [lost])
            keep.append(-lost)
        enc.add(keep)
