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
        _needed_cards(enc, d, use, E, discard.__getitem__, bomb.__getitem__)

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
        actions.append(_decoded_action(enc, true, st, e, "event", "sat steps"))
    return actions
