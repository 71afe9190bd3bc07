"""The step model of the SAT encoding (``model="steps"``, the default): indexed by
removals of deck cards, no horizon needed (see :func:`encode_steps`)."""
from __future__ import annotations

from solver.hanabi.rules import Action, MalformedError, State

from .common import (
    STEP_FEATURES,
    Encoding,
    _any_clue,
    _counters,
    _Data,
    _decoded_action,
    _guard,
    _needed_cards,
    _over_or_done,
    _stack_rises,
    _strikes_rise,
    _units_after,
)


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
    m = _StepModel(state, target, STEP_FEATURES if features is None else features)
    for e in range(m.E):
        _one_action(m, e)
        if e < m.D:
            _clue_run(m, e)
        _who_acts(m, e)
        _one_card(m, e)
        _card_in_hand(m, e)
        _deck_play(m, e)
        _no_discard_at_max(m, e)
        _final_round_clue(m, e)
        _untouchable_cards(m, e)
        _play_or_bomb(m, e)
        _stacks(m, e)
        _tokens(m, e)
        _strikes(m, e)
        _used_once(m, e)
    _game_end(m)
    if m.d.site_end:
        _nothing_left_to_score(m)
    _score(m)
    _pace(m)
    if "capacity" in m.features:
        _hand_capacity(m)
    if "needed" in m.features and target >= m.d.perfect:
        _needed_cards(m.enc, m.d, m.use, m.E, m.discard.__getitem__, m.bomb.__getitem__)
    if "symmetry" in m.features:
        _same_cards(m)
    return m.enc


# --------------------------------------------------------------------------------------
# Data and variables
# --------------------------------------------------------------------------------------
class _StepModel:
    """The step model of one position under construction: the position's facts (``d``,
    the sizes, which cards each event may use), the CNF (``enc``) and the per-event
    variables, as in the table of :func:`encode_steps`; counters are literals returned by
    :meth:`run`, :meth:`clues_at`, :meth:`used`, :meth:`over` and ``stack``, ``clues``,
    ``strikes`` (constants outside their range and at event 0)."""

    def __init__(self, state: State, target: int, features: frozenset[str]):
        self.features = features
        self.target = target
        d = self.d = _Data(state)
        N, D = d.N, d.D
        if D > 0 and any(len(hand) != d.hand_size for hand in d.hand0):
            raise MalformedError("position has cards in the deck but a hand that is not full")
        self.N, self.D, self.M, self.L, self.S, self.K, self.RM = N, D, d.M, d.L, d.S, d.K, d.RM
        F = self.F = N if D > 0 else d.final_turns()      # turns of the final round
        E = self.E = D + F                                # events: D steps, then F final turns
        self.last = d.deck[-1] if D else None             # the card a deck play plays
        self.size_final = [d.hand_size if D > 0 else len(h) for h in d.hand0]  # hands as it begins
        self.cands = [self._candidates(e) for e in range(E)]
        self.types_at = [sorted({d.card_type(o) for o in self.cands[e]}) for e in range(E)]

        enc = self.enc = Encoding(d, target, "steps")
        enc.length, enc.steps = E, D
        TRUE, FALSE = self.TRUE, self.FALSE = enc.TRUE, enc.FALSE
        v = self.v = enc.var
        self.play = [v("play", e) for e in range(E)]
        self.discard = [v("discard", e) for e in range(E)]
        self.clue = [v("clue", e) if e >= D else FALSE for e in range(E)]
        self.deckplay = [v("deckplay", e) if (d.deck_plays and e == D - 1) else FALSE for e in range(E)]
        self.actor = [[v("actor", e, p) for p in range(N)] for e in range(E)]
        self.use = {(e, o): v("use", e, o) for e in range(E) for o in self.cands[e]}
        self.typ = {(e, s, r): v("type", e, s, r) for e in range(E) for (s, r) in self.types_at[e]}
        self.bomb = [v("bomb", e) for e in range(E)]
        self.gain = [v("gain", e) for e in range(E)]
        self.complete = [[v("complete", e, s) for s in range(self.S)] for e in range(E)]
        self.runmod = [[v("runmod", e, m) for m in range(N)] if e < D else [TRUE] + [FALSE] * (N - 1)
                       for e in range(E)]
        self.stack, self.clues, self.strikes = _counters(enc, d)

    def _candidates(self, e: int) -> list[int]:
        """The cards event e may use: dealt ones (their holder must act), deck cards
        drawn at earlier steps, and at the last step the last card from the deck."""
        d = self.d
        cands = [o for o in d.live if o in d.owner0 or d.deck_index[o] < e]
        if d.deck_plays and e == self.D - 1 and self.last is not None:
            cands.append(self.last)
        return cands

    def type_lit(self, e: int, s: int, r: int) -> int:
        return self.typ.get((e, s, r), self.FALSE)

    def run(self, e: int, c: int) -> int:
        if c <= 0:
            return self.TRUE
        return self.v("run", e, c) if (e < self.D and c <= self.RM) else self.FALSE

    def over(self, e: int) -> int:
        return self.FALSE if e == 0 else self.v("over", e)

    def clues_at(self, e: int, i: int) -> int:
        if e >= self.D:                        # no clue runs in the final round
            return self.clues(e, i)
        if i <= 0:
            return self.TRUE
        return self.v("clues_at", e, i) if i <= self.M else self.FALSE

    def used(self, e: int, o: int) -> int:
        return self.FALSE if e == 0 else self.v("used", e, o)

    def prev_actor(self, e: int, p: int) -> int:
        """Player p acted last before event e (before event 0: the player before the
        position's current one)."""
        if e == 0:
            return self.TRUE if (p + 1) % self.N == self.d.first else self.FALSE
        return self.actor[e - 1][p]


# --------------------------------------------------------------------------------------
# Constraints, event by event
# --------------------------------------------------------------------------------------
def _one_action(m: _StepModel, e: int) -> None:
    """One action per event: a step is a play or a discard (the removal); a final turn is
    a play, a discard or a clue; once the game is over, nothing happens."""
    m.enc.exactly_one([m.play[e], m.discard[e], m.clue[e], m.over(e)])


def _clue_run(m: _StepModel, e: int) -> None:
    """The clue run before a step: each clue costs a token (K units), so there are at most
    as many as the tokens pay for, and units after the run = units before - K x its
    length. A run of c clues moves the turn on c places, so only c modulo N matters for
    who acts."""
    enc, run, clues, clues_at, K = m.enc, m.run, m.clues, m.clues_at, m.K
    for c in range(1, m.M + 1):  # (one loop: with K = 1 the clauses come in the order they always did)
        if c <= m.RM:
            enc.implies([run(e, c)], [run(e, c - 1)])
            enc.implies([run(e, c)], [clues(e, K * c)])
            enc.implies([run(e, c)], [-m.over(e)])
        enc.implies([clues_at(e, c)], [clues_at(e, c - 1)])
    for a in range(m.M + 1):
        for b in range(m.RM + 1):
            # units >= a+Kb and run <= b  ->  after >= a;  after >= a and run >= b
            # ->  units >= a+Kb
            if a >= 1:
                enc.implies([clues(e, a + K * b), -run(e, b + 1)], [clues_at(e, a)])
            enc.implies([clues_at(e, a), run(e, b)], [clues(e, a + K * b)])
    for mod in range(m.N):
        exact = []
        for c in range(mod, m.RM + 1, m.N):
            x = m.v("runis", e, c)
            enc.iff_and(x, [run(e, c), -run(e, c + 1)])
            exact.append(x)
        enc.iff_or(m.runmod[e][mod], exact)


def _who_acts(m: _StepModel, e: int) -> None:
    """Who acts: the player after the previous event's actor, moved on by the run (the
    position's current player acts first)."""
    N = m.N
    m.enc.exactly_one(m.actor[e])
    for p in range(N):
        prev = m.prev_actor(e, p)
        for mod in range(N):
            m.enc.implies([prev, m.runmod[e][mod]], [m.actor[e][(p + 1 + mod) % N]])


def _one_card(m: _StepModel, e: int) -> None:
    """A play or discard uses exactly one card; a clue or a no-op uses none. The card's
    type is the type of the card used."""
    enc, kp, kd = m.enc, m.play[e], m.discard[e]
    here = [m.use[e, o] for o in m.cands[e]]
    enc.add([-kp] + here)
    enc.add([-kd] + here)
    for lit in here:
        enc.add([-lit, kp, kd])
    enc.at_most(here, 1)
    for (s, r) in m.types_at[e]:
        enc.iff_or(m.typ[e, s, r], [m.use[e, o] for o in m.cands[e] if m.d.card_type(o) == (s, r)])


def _card_in_hand(m: _StepModel, e: int) -> None:
    """Only a card in the actor's hand can be used: one dealt to the actor, or deck card j
    drawn by the actor at step j < e; and not one used before."""
    d, enc = m.d, m.enc
    for o in m.cands[e]:
        u = m.use[e, o]
        enc.implies([u], [-m.used(e, o)])
        if o in d.owner0:
            enc.implies([u], [m.actor[e][d.owner0[o]]])
        elif o == m.last and e == m.D - 1:
            enc.implies([u], [m.deckplay[e]])
        else:
            j = d.deck_index[o]
            for p in range(m.N):
                enc.implies([u, m.actor[j][p]], [m.actor[e][p]])


def _deck_play(m: _StepModel, e: int) -> None:
    """Deck plays: at the last step, the actor may play the last card straight from the
    deck (a play of that card; nobody draws it)."""
    dp = m.deckplay[e]
    if dp != m.FALSE and m.last is not None:
        m.enc.implies([dp], [m.play[e]])
        m.enc.implies([dp], [m.use[e, m.last]])


def _no_discard_at_max(m: _StepModel, e: int) -> None:
    """No discard when all clue tokens are available (except with inverted suits, where it
    gains none: the token counter stops at the maximum)."""
    if not m.d.discard_at_max:
        m.enc.implies([m.discard[e]], [-m.clues_at(e, m.M)])


def _final_round_clue(m: _StepModel, e: int) -> None:
    """A clue in the final round costs a token and, unless empty clues are allowed, needs
    another player holding a card (here every card is touched by some clue; the variants
    with cards no clue touches are :func:`_untouchable_cards`; Game.free_clues: a clue may
    touch nothing). A hand loses its card when its holder plays or discards in the final
    round (once at most), so only one-card hands can run out. Before the final round every
    hand is full, so a clue run always has a player to clue."""
    d, enc, kc, D = m.d, m.enc, m.clue[e], m.D
    if kc == m.FALSE:
        return
    enc.implies([kc], [m.clues_at(e, m.K)])
    if d.empty_clues or not d.all_touchable:
        return
    size_final, actor, v = m.size_final, m.actor, m.v
    for p in range(m.N):
        others = []
        for q in range(m.N):
            if q != p and size_final[q] >= 2:
                others = [m.TRUE]
                break
            if q != p and size_final[q] == 1:
                others.append(-v("emptied", e, q) if e > D else m.TRUE)
        enc.implies([kc, actor[e][p]], others)
    kp, kd = m.play[e], m.discard[e]
    for q in range(m.N):
        if size_final[q] == 1:
            cur = v("emptied", e, q) if e > D else m.FALSE
            nxt = v("emptied", e + 1, q)
            enc.implies([cur], [nxt])
            enc.implies([actor[e][q], kp], [nxt])
            enc.implies([actor[e][q], kd], [nxt])
            enc.implies([nxt], [cur, actor[e][q]])
            enc.implies([nxt], [cur, kp, kd])


def _untouchable_cards(m: _StepModel, e: int) -> None:
    """Cards no clue touches (unless a clue may touch nothing): a clue needs another player
    holding a card some clue touches. ("touchable", e, q): q holds one at event e — a dealt
    card not yet used, or deck card j < e, drawn by the actor of step j, not yet used
    ("holds", e, j, q). Hands do not change during a clue run, whose k-th clue is given by
    the player k seats after the previous actor."""
    d, enc, v, N = m.d, m.enc, m.v, m.N
    if d.empty_clues or d.all_touchable:
        return
    tch = [v("touchable", e, q) for q in range(N)]
    for q in range(N):
        mine = [-m.used(e, o) for o in d.hand0[q] if d.touchable[o]]
        for j in range(min(e, m.D)):
            o = d.deck[j]
            if d.touchable[o]:
                x = v("holds", e, j, q)
                enc.implies([x], [m.actor[j][q]])
                enc.implies([x], [-m.used(e, o)])
                mine.append(x)
        enc.add([-tch[q]] + mine)
    kc = m.clue[e]
    if e < m.D:
        for p in range(N):
            prev = m.prev_actor(e, p)
            for k in range(1, m.RM + 1):
                g = (p + k) % N
                enc.add([-prev, -m.run(e, k)] + [tch[q] for q in range(N) if q != g])
    elif kc != m.FALSE:
        for p in range(N):
            enc.add([-kc, -m.actor[e][p]] + [tch[q] for q in range(N) if q != p])


def _play_or_bomb(m: _StepModel, e: int) -> None:
    """A play succeeds when the card's rank is one above its stack; otherwise it is a bomb
    (a strike; the card is lost)."""
    enc, kp, bomb, stack = m.enc, m.play[e], m.bomb[e], m.stack
    enc.implies([bomb], [kp])
    for (s, r) in m.types_at[e]:
        ty, below, here_ = m.typ[e, s, r], stack(e, s, r - 1), stack(e, s, r)
        enc.implies([kp, ty, -below], [bomb])
        enc.implies([kp, ty, here_], [bomb])
        enc.implies([kp, ty, below, -here_], [-bomb])
        if (s, r) in m.d.guard:
            _guard(enc, m.d, stack, e, kp, ty, s, r)


def _stacks(m: _StepModel, e: int) -> None:
    """Stacks: suit s reaches h exactly when a card of suit s and rank h is played on a
    stack at h-1."""
    for s in range(m.S):
        for h in range(1, m.d.max_rank[s] + 1):
            _stack_rises(m.enc, m.stack, e, s, h, m.play[e], m.type_lit(e, s, h))


def _tokens(m: _StepModel, e: int) -> None:
    """A discard brings a unit back, and so does completing a suit (its max rank; not in
    Throw It in a Hole). Units after the event: one more after a gain (none beyond the
    maximum), K fewer after a final-round clue, else unchanged. (A gain and a clue never
    meet.)"""
    d, enc, stack, gain, kc = m.d, m.enc, m.stack, m.gain[e], m.clue[e]
    for s in range(m.S):
        top = d.max_rank[s]
        enc.iff_and(m.complete[e][s], [stack(e + 1, s, top), -stack(e, s, top)])
    enc.iff_or(gain, [m.discard[e]] + (m.complete[e] if d.stack_token else []))
    _units_after(enc, m.clues_at, e, gain, kc, m.M, m.K)


def _strikes(m: _StepModel, e: int) -> None:
    """Strikes: one more after a bomb."""
    _strikes_rise(m.enc, m.strikes, e, m.bomb[e], m.L)


def _used_once(m: _StepModel, e: int) -> None:
    """A card is used once: used after this event = used before, or used now."""
    for o in m.d.live:
        m.enc.iff_or(m.v("used", e + 1, o), [m.used(e, o), m.use.get((e, o), m.FALSE)])


# --------------------------------------------------------------------------------------
# Constraints on the whole game
# --------------------------------------------------------------------------------------
def _game_end(m: _StepModel) -> None:
    """The game ends at the strike limit or when every stack is complete (every later event
    is then a no-op, so nothing changes), and in any case after the final round, the last
    event. hanab.live also ends the game once nothing more can be scored (Game.site_end):
    the game may stop at event e only then ("done", e), and once stopped it stays so.
    Stopping changes no score; it spares the moves that would follow (a forced misplay)."""
    d, enc, v = m.d, m.enc, m.v
    for e in range(1, m.E + 1):
        allc = v("allcomplete", e)
        enc.iff_and(allc, [m.stack(e, s, d.max_rank[s]) for s in range(m.S)])
        if not d.site_end:
            enc.iff_or(m.over(e), [m.strikes(e, m.L), allc])
            continue
        _over_or_done(enc, m.over(e), m.over(e - 1), [m.strikes(e, m.L), allc], v("done", e))


def _nothing_left_to_score(m: _StepModel) -> None:
    """What "done" needs: every incomplete stack's next card is gone — each copy discarded
    or bombed (used while its stack is below it) or, from the second final-round turn on,
    held by a player who has had their last turn: one who acted in the final round (deck
    card j is held by the actor of step j), or, when the position is in the final round
    already, one who acted before it."""
    d, enc, v, N, D = m.d, m.enc, m.v, m.N, m.D
    needed = d.needed_copies()
    for e in range(1, m.E + 1):
        dn = v("done", e)
        final = D == 0 or e > D
        acted = {}
        if final:
            for p in range(N):
                if p in d.finished0:
                    acted[p] = m.TRUE
                else:
                    x = acted[p] = v("acted", e, p)
                    enc.add([-x] + [m.actor[e2][p] for e2 in range(D, e)])
        for s, r, copies in needed:
            gap = [-dn, -m.stack(e, s, r - 1), m.stack(e, s, r)]
            for o in copies:
                gone = gap + [m.used(e, o)]
                if not final:
                    enc.add(gone)
                elif o in d.owner0:
                    enc.add(gone + [acted[d.owner0[o]]])
                else:
                    j = d.deck_index[o]
                    for p in range(N):
                        enc.add(gone + [-m.actor[j][p], acted[p]])


def _score(m: _StepModel) -> None:
    """The score: the stacks at the end add up to at least the target; a strikeout scores
    0 (unless the rules keep the stacks), so a line to a positive target never strikes
    out."""
    d, enc, E, target = m.d, m.enc, m.E, m.target
    enc.at_least([m.stack(E, s, h) for s in range(m.S) for h in range(1, d.max_rank[s] + 1)], target)
    if target >= 1 and not d.strikeout_keeps_stacks:
        for e in range(1, E + 1):
            enc.add([-m.strikes(e, m.L)])


def _pace(m: _StepModel) -> None:
    """Pace (redundant): every successful play is made at a step or in the final round, so
    at most score0 + D + F - target steps may waste their removal (a discard or a bomb) —
    hanab.live's pace, measured against the target. (A negative budget is not redundant:
    the target is out of reach.)"""
    budget = m.d.score0 + m.D + m.F - m.target
    if budget < 0:
        m.enc.add([])
    elif "pace" in m.features:
        waste = [m.v("waste", e) for e in range(m.D)]
        for e in range(m.D):
            m.enc.implies([m.discard[e]], [waste[e]])
            m.enc.implies([m.bomb[e]], [waste[e]])
        m.enc.at_most(waste, budget)


def _hand_capacity(m: _StepModel) -> None:
    """Hand capacity (redundant): until the deck runs out, each player holds exactly a
    hand's worth of cards; here: at most that many dealt and drawn cards not yet used. A
    card is drawn at its step only if the game was not already over then (a no-op step
    draws nothing)."""
    d, enc = m.d, m.enc
    for e in range(1, m.D):
        for p in range(m.N):
            lits = [-m.used(e, o) for o in d.hand0[p]]
            for j in range(e):
                x = m.v("held", e, d.deck[j], p)
                enc.implies([m.actor[j][p], -m.used(e, d.deck[j]), -m.over(j)], [x])
                lits.append(x)
            enc.at_most(lits, d.hand_size)


def _same_cards(m: _StepModel) -> None:
    """Symmetry: two cards of the same suit and rank are interchangeable, so when both are
    in the actor's hand the older one (lower order) is used first. Any line can be made to
    obey this by swapping the two cards' names from the first event that breaks it on:
    both stay in one hand, so every later use stays legal and the outcome is the same. (A
    deck play is left alone.)"""
    d, use = m.d, m.use
    for group in d.copies():
        for i, k1 in enumerate(group):
            for k2 in group[i + 1:]:
                for e in range(m.E):
                    if (e, k1) not in use or (e, k2) not in use or (k2 == m.last and e == m.D - 1):
                        continue
                    for p in range(m.N):
                        if k1 in d.owner0:
                            if d.owner0[k1] != p:
                                continue
                            drawn_by_p = []
                        else:
                            drawn_by_p = [-m.actor[d.deck_index[k1]][p]]
                        m.enc.add([-use[e, k2], -m.actor[e][p], m.used(e, k1)] + drawn_by_p)


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
        actions.append(_decoded_action(enc, true, st, e, "event", "sat steps"))
    return actions
