"""The turn model of the SAT encoding (``model="turns"``): indexed by turns over a safe
horizon, a second, differently built witness (see :func:`encode_turns`)."""
from __future__ import annotations

from typing import NamedTuple

from solver.hanabi.rules import Action, State

from .common import (
    TURN_FEATURES,
    Encoding,
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
    m = _TurnModel(state, target, horizon_turns, TURN_FEATURES if features is None else features)
    for t in range(m.H):
        a = m.turn(t)
        _one_action(m, t, a)
        _one_card(m, t, a)
        _card_type(m, t)
        _deck_play(m, t, a)
        _card_in_hand(m, t, a)
        _no_discard_at_max(m, t, a)
        _clue_needs(m, t, a)
        _draws(m, t, a)
        _removed(m, t, a)
        _play_or_bomb(m, t, a)
        _stacks(m, t, a)
        _tokens(m, t, a)
        _strikes(m, t)
        _emptied_hands(m, t, a)
    if not m.d.empty_clues and not m.d.all_touchable:
        _untouchable_cards(m)
    _game_end(m)
    if m.d.site_end:
        _nothing_left_to_score(m)
    m.enc.add([m.over(m.H)])  # the game is over within the horizon
    _used_once(m)
    _owners(m)
    if "symmetry" in m.features:
        _same_cards(m)
    if "needed" in m.features and target >= m.d.perfect:
        v = m.v
        _needed_cards(m.enc, m.d, m.use, m.H, lambda t: v("discard", t), lambda t: v("bomb", t))
    _pace(m)
    _score(m)
    return m.enc


# --------------------------------------------------------------------------------------
# Data and variables
# --------------------------------------------------------------------------------------
class _Turn(NamedTuple):
    """A turn's action literals: at most one is true (none once the game is over)."""

    play: int
    discard: int
    clue: int
    deckplay: int       # FALSE where no deck play is possible


class _TurnModel:
    """The turn model of one position under construction: the position's facts (``d``),
    the horizon ``H``, the CNF (``enc``), the ``use`` variables of the cards each turn may
    use, and the counters' literals (:meth:`removed`, :meth:`over`, :meth:`used` and
    ``stack``, ``clues``, ``strikes``: constants outside their range and at turn 0).
    Other variables are named in ``enc.pool`` when first used, in the order the blocks
    below use them."""

    def __init__(self, state: State, target: int, horizon_turns: int | None, features: frozenset[str]):
        self.features = features
        self.target = target
        d = self.d = _Data(state)
        enc = self.enc = Encoding(d, target, "turns")
        H = self.H = horizon(d, target) if horizon_turns is None else horizon_turns
        enc.length = H
        self.TRUE, self.FALSE = enc.TRUE, enc.FALSE
        self.N, self.D, self.M, self.L, self.S, self.K = d.N, d.D, d.M, d.L, d.S, d.K
        self.v = enc.var
        self.last = d.deck[-1] if self.D else None  # the card a deck play plays
        self.stack, self.clues, self.strikes = _counters(enc, d)
        self.cands = [self._candidates(t) for t in range(H)]
        self.use = {(t, o): self.v("use", t, o) for t in range(H) for o in self.cands[t]}

    def _candidates(self, t: int) -> list[int]:
        """Which cards turn t may use. A card dealt to the actor is usable on any of their
        turns. Deck card j is removed at the earliest at turn j (each turn removes at most
        one), so its holder can use it at turn j + N at the earliest; the last card may
        also be played from the deck (deck plays) once it is the only card left, from turn
        D-1 on."""
        d = self.d
        cands = list(d.hand0[d.actor(t)])
        cands += [o for j, o in enumerate(d.deck) if j + self.N <= t]
        if d.deck_plays and t >= self.D - 1 and self.last is not None and self.last not in cands:
            cands.append(self.last)
        return cands

    def turn(self, t: int) -> _Turn:
        """Turn t's action variables (named first of all the turn's variables)."""
        v = self.v
        kp, kd, kc = v("play", t), v("discard", t), v("clue", t)
        dp = v("deckplay", t) if self.d.deck_plays and t >= self.D - 1 else self.FALSE
        return _Turn(kp, kd, kc, dp)

    def removed(self, t: int, i: int) -> int:
        if i <= 0:
            return self.TRUE
        if i > self.D or t == 0:
            return self.FALSE
        return self.v("removed", t, i)

    def over(self, t: int) -> int:
        return self.FALSE if t == 0 else self.v("over", t)

    def used(self, t: int, o: int) -> int:
        return self.FALSE if t == 0 else self.v("used", t, o)

    def type_lit(self, t: int, s: int, r: int) -> int:
        return self.v("type", t, s, r) if self.enc.has("type", t, s, r) else self.FALSE

    def by_type(self, t: int) -> dict[tuple[int, int], list[int]]:
        """The ``use`` literals of turn t's candidates, by card type."""
        out: dict[tuple[int, int], list[int]] = {}
        for o in self.cands[t]:
            out.setdefault(self.d.card_type(o), []).append(self.use[t, o])
        return out


# --------------------------------------------------------------------------------------
# Constraints, turn by turn
# --------------------------------------------------------------------------------------
def _one_action(m: _TurnModel, t: int, a: _Turn) -> None:
    """Exactly one action per turn: play, discard, clue, or (once the game is over)
    nothing at all."""
    m.enc.exactly_one([a.play, a.discard, a.clue, m.over(t)])


def _one_card(m: _TurnModel, t: int, a: _Turn) -> None:
    """A play or discard uses exactly one card, one of those the actor may hold; a clue or
    a no-op uses none."""
    enc = m.enc
    here = [m.use[t, o] for o in m.cands[t]]
    enc.add([-a.play] + here)
    enc.add([-a.discard] + here)
    for lit in here:
        enc.add([-lit, a.play, a.discard])
    enc.at_most(here, 1)


def _card_type(m: _TurnModel, t: int) -> None:
    """The type of the card used: ("type", t, s, r) <-> some card of that type is used."""
    for (s, r), lits in m.by_type(t).items():
        m.enc.iff_or(m.v("type", t, s, r), lits)


def _deck_play(m: _TurnModel, t: int, a: _Turn) -> None:
    """Deck plays: with exactly one card left in the deck, the actor may play it directly
    (it is a play of that card, and it comes from no hand)."""
    dp, enc = a.deckplay, m.enc
    if dp != m.FALSE and m.last is not None:
        enc.implies([dp], [a.play])
        enc.implies([dp], [m.use[t, m.last]])
        enc.implies([dp], [m.removed(t, m.D - 1)])
        enc.implies([dp], [-m.removed(t, m.D)])


def _card_in_hand(m: _TurnModel, t: int, a: _Turn) -> None:
    """Only a card already drawn into the actor's hand can be used: deck card j must have
    been drawn before turn t, by this same player (on one of their earlier turns), unless
    it is the last card played from the deck. Cards dealt to the actor are always
    theirs."""
    d, enc, v, dp = m.d, m.enc, m.v, a.deckplay
    for o in m.cands[t]:
        j = d.deck_index.get(o)
        if j is None:
            continue
        earlier = [v("drawn", t2, j) for t2 in range(t - m.N, j - 1, -m.N)]
        deck = [dp] if (o == m.last and dp != m.FALSE) else []
        enc.add([-m.use[t, o]] + deck + earlier)
        if earlier:
            enc.add([-m.use[t, o]] + deck + [v("owner", j, d.actor(t))])
            enc.add([-m.use[t, o]] + deck + [m.removed(t, j + 1)])


def _no_discard_at_max(m: _TurnModel, t: int, a: _Turn) -> None:
    """No discard when all clue tokens are available (except with inverted suits, where it
    gains none: the token counter stops at the maximum)."""
    if not m.d.discard_at_max:
        m.enc.implies([a.discard], [-m.clues(t, m.M)])


def _clue_needs(m: _TurnModel, t: int, a: _Turn) -> None:
    """A clue costs a token, so it needs one; unless empty clues are allowed it must touch
    a card, so some other player must hold a card (every card is touched by some clue
    here; the variants with cards no clue touches are :func:`_untouchable_cards`;
    Game.free_clues: a clue may touch nothing). Hands shrink only after the deck runs out,
    when each player acts at most once more, so only players down to one card can be left
    with an empty hand."""
    d, enc = m.d, m.enc
    enc.implies([a.clue], [m.clues(t, m.K)])
    if d.empty_clues or not d.all_touchable:
        return
    others = []
    for q in range(m.N):
        if q == d.actor(t):
            continue
        n0 = len(d.hand0[q])
        if n0 >= 2:
            others = [m.TRUE]
            break
        if n0 == 1:
            others.append(-m.v("emptied", t, q) if t > 0 else m.TRUE)
    enc.implies([a.clue], others)


def _draws(m: _TurnModel, t: int, a: _Turn) -> None:
    """Draws in deck order: a play or discard from the hand draws the next deck card while
    the deck is not empty (a deck play draws nothing). ("drawn", t, j): this draw is deck
    card j, i.e. exactly j cards were removed before."""
    enc, removed, D = m.enc, m.removed, m.D
    dr = m.v("draw", t)
    enc.implies([dr], [-removed(t, D)])
    enc.implies([dr], [-a.deckplay])
    enc.implies([dr], [a.play, a.discard])
    enc.implies([a.play, -removed(t, D)], [a.deckplay, dr])
    enc.implies([a.discard, -removed(t, D)], [dr])
    for j in range(min(D, t + 1)):
        x = m.v("drawn", t, j)
        enc.iff_and(x, [dr, removed(t, j), -removed(t, j + 1)])


def _removed(m: _TurnModel, t: int, a: _Turn) -> None:
    """Removed deck cards (order-encoded): one more after a draw or a deck play."""
    enc, removed, dr, dp = m.enc, m.removed, m.v("draw", t), a.deckplay
    for i in range(1, m.D + 1):
        nxt = m.v("removed", t + 1, i)
        cur, below = removed(t, i), removed(t, i - 1)
        enc.implies([cur], [nxt])
        enc.implies([dr, below], [nxt])
        enc.implies([dp, below], [nxt])
        enc.implies([nxt], [cur, dr, dp])
        enc.implies([nxt], [cur, below])


def _play_or_bomb(m: _TurnModel, t: int, a: _Turn) -> None:
    """A play succeeds when the card's rank is one above its stack; otherwise it is a bomb
    (a strike, and the card goes to the discard pile)."""
    enc, stack, kp = m.enc, m.stack, a.play
    bomb = m.v("bomb", t)
    enc.implies([bomb], [kp])
    for (s, r) in m.by_type(t):
        ty = m.v("type", t, s, r)
        ok_below, ok_here = stack(t, s, r - 1), stack(t, s, r)
        enc.implies([kp, ty, -ok_below], [bomb])
        enc.implies([kp, ty, ok_here], [bomb])
        enc.implies([kp, ty, ok_below, -ok_here], [-bomb])
        if (s, r) in m.d.guard:
            _guard(enc, m.d, stack, t, kp, ty, s, r)


def _stacks(m: _TurnModel, t: int, a: _Turn) -> None:
    """Stacks (order-encoded): stack s reaches h at turn t exactly when a card of suit s
    and rank h is played onto a stack at h-1."""
    for s in range(m.S):
        for h in range(1, m.d.max_rank[s] + 1):
            _stack_rises(m.enc, m.stack, t, s, h, a.play, m.type_lit(t, s, h))


def _tokens(m: _TurnModel, t: int, a: _Turn) -> None:
    """A completed suit returns a clue unit (if not all are available; not in Throw It in
    a Hole); a discard returns one too. Clue units (order-encoded): -K after a clue, +1
    (capped at the maximum) after a gain, unchanged otherwise. A gain and a clue never
    share a turn."""
    d, enc, stack, clues, v = m.d, m.enc, m.stack, m.clues, m.v
    comps = []
    for s in range(m.S):
        top = d.max_rank[s]
        c = v("complete", t, s)
        enc.iff_and(c, [stack(t + 1, s, top), -stack(t, s, top)])
        comps.append(c)
    gain = v("gain", t)
    enc.iff_or(gain, [a.discard] + (comps if d.stack_token else []))
    _units_after(enc, clues, t, gain, a.clue, m.M, m.K)


def _strikes(m: _TurnModel, t: int) -> None:
    """Strikes (order-encoded): +1 after a bomb."""
    _strikes_rise(m.enc, m.strikes, t, m.v("bomb", t), m.L)


def _emptied_hands(m: _TurnModel, t: int, a: _Turn) -> None:
    """Players dealt a single card can run out of cards: after the deck is empty, their
    play or discard draws nothing. (A deck play needs a card in the deck, so it never
    empties a hand.)"""
    d, enc, v = m.d, m.enc, m.v
    if d.empty_clues:
        return
    for q in range(m.N):
        if len(d.hand0[q]) != 1:
            continue
        nxt = v("emptied", t + 1, q)
        cur = v("emptied", t, q) if t > 0 else m.FALSE
        if d.actor(t) == q:
            gone = m.removed(t, m.D)
            enc.implies([cur], [nxt])
            enc.implies([a.play, gone], [nxt])
            enc.implies([a.discard, gone], [nxt])
            enc.implies([nxt], [cur, a.play, a.discard])
            enc.implies([nxt], [cur, gone])
        else:
            enc.iff_or(nxt, [cur])


# --------------------------------------------------------------------------------------
# Constraints on the whole game
# --------------------------------------------------------------------------------------
def _untouchable_cards(m: _TurnModel) -> None:
    """Cards no clue touches (unless a clue may touch nothing): a clue needs another player
    holding a card some clue touches. ("touchable", t, q): q holds one at the start of turn
    t — a dealt card not yet used, or deck card j drawn by q ("owner") before t
    ("removed", t, j + 1) and not yet used ("holds", t, j, q)."""
    d, enc, v = m.d, m.enc, m.v
    for t in range(m.H):
        me = d.actor(t)
        tch = []
        for q in range(m.N):
            if q == me:
                continue
            mine = [-m.used(t, o) for o in d.hand0[q] if d.touchable[o]]
            for j, o in enumerate(d.deck):
                if d.touchable[o] and j < t:  # deck card j is drawn at turn j at the earliest
                    x = v("holds", t, j, q)
                    enc.implies([x], [v("owner", j, q)])
                    enc.implies([x], [m.removed(t, j + 1)])
                    enc.implies([x], [-m.used(t, o)])
                    mine.append(x)
            x = v("touchable", t, q)
            tch.append(x)
            enc.add([-x] + mine)
        enc.add([-v("clue", t)] + tch)


def _game_end(m: _TurnModel) -> None:
    """The game ends: at the strike limit, when every stack is complete, or when the final
    round is over (once the last deck card is removed, each player gets exactly one more
    turn; if the final round has already started, turns_left turns remain). When over,
    every later turn is a no-op and nothing changes. hanab.live also ends the game once
    nothing more can be scored (Game.site_end): the game may stop at turn t only then
    ("done", t), and once stopped it stays so."""
    d, enc, v, N, L = m.d, m.enc, m.v, m.N, m.L
    for t in range(1, m.H + 1):
        allc = v("allcomplete", t)
        enc.iff_and(allc, [m.stack(t, s, d.max_rank[s]) for s in range(m.S)])
        if d.turns_left0 is not None:
            final_done = m.TRUE if t >= d.turns_left0 else m.FALSE
        else:
            final_done = m.removed(t - N, m.D) if t - N >= 0 else m.FALSE
        if not d.site_end:
            enc.iff_or(m.over(t), [m.strikes(t, L), allc, final_done])
            continue
        _over_or_done(enc, m.over(t), m.over(t - 1), [m.strikes(t, L), allc, final_done], v("done", t))


def _nothing_left_to_score(m: _TurnModel) -> None:
    """What "done" needs: every incomplete stack's next card is gone — each copy discarded
    or bombed (used while its stack is below it), or held by a player who has had their
    last turn: one whose latest turn before t was in the final round (the deck was empty at
    its start), or, when the position is in the final round already, one who acted before
    it. A deck card counts only once it is drawn (its holder is its owner)."""
    d, enc, v, N = m.d, m.enc, m.v, m.N
    needed = d.needed_copies()
    for t in range(1, m.H + 1):
        dn = v("done", t)
        finished = {}
        for p in range(N):
            last_turn = t - 1 - (t - 1 - (p - d.first)) % N  # p's latest turn before t
            if p in d.finished0:
                finished[p] = m.TRUE
            elif last_turn < 0:
                finished[p] = m.FALSE
            else:
                finished[p] = m.removed(last_turn, m.D)
        for s, r, copies in needed:
            gap = [-dn, -m.stack(t, s, r - 1), m.stack(t, s, r)]
            for o in copies:
                gone = gap + [m.used(t, o)]
                j = d.deck_index.get(o)
                if j is None:
                    enc.add(gone + [finished[d.owner0[o]]])
                    continue
                enc.add(gone + [m.removed(t, j + 1)])
                for p in range(N):
                    enc.add(gone + [-v("owner", j, p), finished[p]])


def _used_once(m: _TurnModel) -> None:
    """Each card is used (played or discarded) at most once: ("used", t, o) says card o was
    used before turn t (order-encoded in t), and a used card cannot be used again."""
    for o in m.d.live:
        for t in range(m.H):
            u = m.use.get((t, o), m.FALSE)
            m.enc.implies([u], [-m.used(t, o)])
            m.enc.iff_or(m.v("used", t + 1, o), [m.used(t, o), u])


def _owners(m: _TurnModel) -> None:
    """Who holds each deck card: ("owner", j, p) <-> card j was drawn on one of p's
    turns."""
    d, v = m.d, m.v
    for j in range(m.D):
        for p in range(m.N):
            m.enc.iff_or(v("owner", j, p), [v("drawn", t, j) for t in range(j, m.H) if d.actor(t) == p])


def _same_cards(m: _TurnModel) -> None:
    """Symmetry (optional, satisfiability-preserving): two cards of the same suit and rank
    are interchangeable, so when both are in the actor's hand the older one (lower order)
    is used first. Any line can be rewritten to obey this by swapping the names of the two
    cards from the first turn that breaks it on (both stay in one hand, so every later use
    remains legal and the outcome is unchanged)."""
    d, use, v = m.d, m.use, m.v
    for group in d.copies():
        for a_i, k1 in enumerate(group):
            for k2 in group[a_i + 1:]:
                for t in range(m.H):
                    if (t, k2) not in use or (t, k1) not in use:
                        continue
                    j1 = d.deck_index.get(k1)
                    if j1 is None:
                        held = []          # dealt to the actor: held unless used
                    else:
                        held = [-v("owner", j1, d.actor(t)), -m.removed(t, j1 + 1)]
                    deck = []
                    if k2 == m.last and d.deck_plays and t >= m.D - 1:
                        deck = [v("deckplay", t)]
                    m.enc.add([-use[t, k2], m.used(t, k1)] + held + deck)


def _pace(m: _TurnModel) -> None:
    """Pace (redundant, it follows from the rules): every successful play happens on a
    removal turn or in the final round, so with score0 + D + N - target "wasted" removals
    (a discard or a bomb while the deck is not empty) the target is still in reach, and
    one more makes it unreachable. ("pace", t, i) counts them. (A negative budget is not
    redundant: the target is out of reach.)"""
    enc, v = m.enc, m.v
    budget = m.d.score0 + m.D + m.d.final_turns() - m.target
    if budget < 0:
        enc.add([])
        return
    if "pace" not in m.features:
        return
    for t in range(m.H):
        w = v("waste", t)
        enc.implies([v("discard", t), -m.removed(t, m.D)], [w])
        enc.implies([v("bomb", t), -m.removed(t, m.D)], [w])
        for i in range(1, budget + 2):
            cur = v("pace", t, i) if t > 0 else m.FALSE
            below = m.TRUE if i == 1 else (v("pace", t, i - 1) if t > 0 else m.FALSE)
            nxt = v("pace", t + 1, i)
            enc.implies([cur], [nxt])
            enc.implies([w, below], [nxt])
        enc.add([-v("pace", t + 1, budget + 1)])


def _score(m: _TurnModel) -> None:
    """Strikeout scores 0 (by default): a line reaching a positive target never strikes
    out. The final score: the stack heights at the end add up to at least the target."""
    d, enc, H = m.d, m.enc, m.H
    if m.target >= 1 and not d.strikeout_keeps_stacks:
        for t in range(1, H + 1):
            enc.add([-m.strikes(t, m.L)])
    enc.at_least([m.stack(H, s, h) for s in range(m.S) for h in range(1, d.max_rank[s] + 1)], m.target)


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
