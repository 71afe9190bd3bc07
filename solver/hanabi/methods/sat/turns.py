"""The turn model of the SAT encoding (``model="turns"``): indexed by turns over a safe
horizon, a second, differently built witness (see :func:`encode_turns`)."""
from __future__ import annotations

from solver.hanabi.rules import Action, State

from .common import TURN_FEATURES, Encoding, _counters, _Data, _decoded_action, _guard, _needed_cards, _over_or_done


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
        _needed_cards(enc, d, use, H, lambda t: v("discard", t), lambda t: v("bomb", t))

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
        actions.append(_decoded_action(enc, true, st, t, "turn", "sat turns"))
    return actions
