"""The CP-SAT model's redundant constraints (implied by the rules; they only help the
solver) and its symmetry breaking between copies of a card: functions of the model
(:class:`~.model._Encoding`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .common import _DECK_MISPLAY, _DISCARD, _MISPLAY, REDUNDANT, _neg

if TYPE_CHECKING:  # (the model these functions build or read)
    from .model import _Encoding



# =====================================================================================
# redundant constraints (implied by the rules; they only help the solver)
# =====================================================================================
def part(enc: _Encoding, name: str) -> bool:
    """Whether the redundant constraint ``name`` (one of ``REDUNDANT``) is added."""
    if name not in REDUNDANT:
        raise ValueError(f"unknown redundant constraint {name!r}")
    r = enc.redundant
    return bool(r) if isinstance(r, bool) else name in r

def add_redundant(enc: _Encoding) -> None:
    m, n, D, E, S = enc.model, enc.n, enc.D, enc.E, enc.S
    total = sum(enc.stack[E, s] for s in range(S))

    # -- A stack rises one rank at a time, only by a fitting play of its next rank: each
    #    rank above a stack's starting height is played (fitting) exactly once if the
    #    final stack reaches it, never otherwise. ------------------------------------------
    fits: dict[tuple[int, int], list] = {}
    for (_e, o), v in enc.play.items():
        fits.setdefault((enc.suit[o], enc.rank[o]), []).append(v)
    last = enc.N - 1  # the last deck card, the one a deck play plays
    for _e, v in enc.deck_play.items():
        fits.setdefault((enc.suit[last], enc.rank[last]), []).append(v)
    for s in range(S) if enc.part("ranks") else ():
        for r in range(enc.st0[s] + 1, enc.top[s] + 1):
            reached = enc.ge_stack(E, s, r)
            lits = fits.get((s, r), [])
            if lits:
                m.add(sum(lits) == reached)
            elif reached is not False:  # no card of that rank can reach a hand in time
                m.add(reached == 0)

    # -- A line to a positive target never strikes out when a strikeout scores 0. -------
    if enc.part("strikes") and enc.target > 0 and enc.rules.strikeout_score != "stacks":
        for e in range(E + 1):
            m.add(enc.strikes[e] <= enc.L - 1)

    # -- Pace: every fitting play is made at a step that does not waste its removal (a
    #    discard or a misplay) or in the final round, so wasted steps + final stacks
    #    <= current stacks + D + F. ---------------------------------------------------------
    waste = [v for e in range(D) for v, kind, _ in enc.actions[e] if kind in (_DISCARD, _MISPLAY, _DECK_MISPLAY)]
    if enc.part("pace"):
        m.add(sum(waste) + total <= enc.cur0 + D + enc.F)

    # -- Hand capacity: at step e (while the deck has cards) each player holds exactly a
    #    hand's worth of cards: their dealt cards not yet used, plus the deck cards drawn
    #    at earlier steps where they acted, not yet used. (Every step before a live step
    #    was live, and drew its card into its actor's hand: a deck play happens only at the
    #    last step.) held[e, j, p] <-> actor[j, p] and deck card j not used before e. ------
    for e in range(1, D) if enc.part("capacity") else ():
        for p in range(n):
            held = []
            for j in range(e):
                x = enc.held[e, j, p] = m.new_bool_var(f"held[{e},{j},{p}]")
                enc._and(x, [enc.actor[j, p], _neg(enc.is_used(e, enc.d0 + j))])
                held.append(x)
            dealt = enc.hands0[p]
            m.add(len(dealt) - sum(enc.is_used(e, o) for o in dealt) + sum(held) == enc.h
                  ).only_enforce_if(enc.alive[e])

    # -- Pace, event by event: an event makes one action, and only a fitting play raises
    #    a stack, so the stacks' total rises by at most one per event (by exactly one
    #    at an event whose action is a fitting play): total[e + 1] = total[e] +
    #    fit_any[e], fit_any[e] the sum of event e's fitting plays (0 or 1). So the
    #    points still to score after event e need that many of the events left. --------
    if enc.part("pace_events"):
        tot = [m.new_int_var(enc.cur0, sum(enc.stack_hi[e]), f"total[{e}]") for e in range(E + 1)]
        for e in range(E + 1):
            m.add(tot[e] == sum(enc.stack[e, s] for s in range(S)))
        fits_at: list[list] = [[] for _ in range(E)]
        for (e, _o), v in enc.play.items():
            fits_at[e].append(v)
        for e, v in enc.deck_play.items():
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
    if enc.part("needed_held"):
        last_copy: dict[tuple[int, int], int] = {}
        for o in enc.live:
            s, r = enc.suit[o], enc.rank[o]
            if enc.st0[s] < r <= enc.reach[s]:
                dj = enc.deck_index(o)
                last_copy[s, r] = max(last_copy.get((s, r), -1), -1 if dj is None else dj)
        for e in range(D):
            terms = [(enc.ge_stack(E, s, r), enc.ge_stack(e + 1, s, r))
                     for (s, r), j in last_copy.items() if j < e]
            terms = [(final, now) for final, now in terms if final is not False and now is not True]
            room = n * enc.h if (enc.deck_plays and e == D - 1) else n * enc.h - 1
            if len(terms) > room:
                count = sum(final - now for final, now in terms)
                m.add(count <= room)
                enc.rows.append(("needed_held", e, count, room))

    # -- Needed cards are held, hand by hand: the same ranks (every copy already in a
    #    hand or drawn before step e, unplayed after event e, reached in the end), at a
    #    step e < D - 1 (no deck play there). If no copy of such a rank is in another
    #    player's hand after step e (held[e + 1, j, q] for deck card j, or dealt to q and
    #    not used), the copy played later is in p's hand: in_hand[e, s, r, p] is then
    #    true (a clause; the solver may set it otherwise only where it is not needed).
    #    p's hand then holds h cards, less the one p removed if p acted at step e, so at
    #    most h - actor[e, p] such ranks. ------------------------------------------------
    if enc.part("needed_hands") and enc.part("capacity"):
        copies: dict[tuple[int, int], list[int]] = {}
        for o in enc.live:
            s, r = enc.suit[o], enc.rank[o]
            if enc.st0[s] < r <= enc.reach[s]:
                copies.setdefault((s, r), []).append(o)
        for e in range(D - 1):
            mine: list[list] = [[] for _ in range(n)]
            for (s, r), cards in copies.items():
                if any((dj := enc.deck_index(o)) is not None and dj >= e for o in cards):
                    continue
                final, now = enc.ge_stack(E, s, r), enc.ge_stack(e + 1, s, r)
                if final is False or now is True:
                    continue
                for p in range(n):
                    elsewhere = []
                    for o in cards:
                        dj = enc.deck_index(o)
                        if dj is None:
                            if enc.holder0[o] != p:
                                elsewhere.append(_neg(enc.is_used(e + 1, o)))
                        else:
                            elsewhere += [enc.held[e + 1, dj, q] for q in range(n) if q != p]
                    y = m.new_bool_var(f"in_hand[{e},{s},{r},{p}]")
                    enc._clause(y, _neg(final), now, *elsewhere)
                    mine[p].append(y)
                    enc.in_hand.append(y)
            for p in range(n):
                if len(mine[p]) > enc.h - 1:
                    m.add(sum(mine[p]) <= enc.h - enc.actor[e, p])
                    enc.rows.append(("needed_hands", e, sum(mine[p]) + enc.actor[e, p], enc.h))

# =====================================================================================
# symmetry breaking
# =====================================================================================
def add_symmetry(enc: _Encoding) -> None:
    """Two copies of a card (same suit and rank) in one hand are interchangeable: when
    both are there, the lower-order one is used first. A line that breaks this (k2 used
    at event e while k1 < k2 sits unused in the same hand) becomes one that keeps it by
    swapping the names k1 and k2 from event e on: both stay in one hand, so every later
    use stays legal and the outcome is the same; each swap moves the first breach later,
    so repeating it ends. Deck plays are left alone (``canonical_line`` does the same to
    a concrete line)."""
    n, E = enc.n, enc.E
    groups: dict[tuple[int, int], list[int]] = {}
    for o in enc.live:
        groups.setdefault((enc.suit[o], enc.rank[o]), []).append(o)
    for group in groups.values():
        for i, k1 in enumerate(group):
            j1 = enc.deck_index(k1)
            for k2 in group[i + 1:]:
                q2 = enc.holder0.get(k2)  # k2 is used by its holder if dealt
                for e in range(E):
                    u = enc.use.get((e, k2))
                    if u is None or (j1 is not None and j1 >= e):
                        continue
                    if j1 is None:  # k1 dealt to p1: only p1 can hold both
                        p1 = enc.holder0[k1]
                        if q2 is not None and q2 != p1:
                            continue
                        enc._clause(_neg(u), _neg(enc.actor[e, p1]), enc.is_used(e, k1))
                    else:
                        for p in range(n) if q2 is None else (q2,):
                            enc._clause(_neg(u), _neg(enc.actor[e, p]), _neg(enc.actor[j1, p]),
                                         enc.is_used(e, k1))
