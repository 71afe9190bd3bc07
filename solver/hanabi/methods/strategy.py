"""The greedy strategy: the one simple way of playing that everything else compares with.

It seeds the solvers' first lower bound (the portfolio's first line, CP-SAT's seed line),
it is what every puzzle must beat, and, with a random deviation, it is the bot that plays
the puzzle generator's decks to their endgame. It asks the rules engine's :class:`State`
every question (playable, trash, copies left, the first legal clue), as python-chess asks
``Board``.

The strategy, for the player to act:

1. play a playable card (the lowest rank, then the oldest card);
2. if a clue token can be gained, discard a card that can never score;
3. if a clue can be given, give one (a stall: with every card visible, a clue only passes
   the turn);
4. discard the card that hurts least: one with another copy still in play, else the
   highest rank (then the oldest);
5. (all tokens and no clue possible) play the oldest card.

With ``rng`` and ``deviate``, before step 1 the player instead discards a random card or
gives a random clue with probability ``deviate`` (as real players do).
"""
from __future__ import annotations

import random

from solver.hanabi.rules import PLAY, Action, Game, GameRecord, IllegalActionError, State, as_state

__all__ = ["greedy_action", "greedy_line", "best_greedy_line"]


def greedy_action(state: State, rng: random.Random | None = None, deviate: float = 0.0) -> Action:
    """The greedy strategy's action in ``state`` (the game must not be over)."""
    g = state.game
    hand = state.hands[state.current]
    can_discard = state.clues < g.max_clues or g.discard_at_max
    if rng is not None and deviate > 0 and rng.random() < deviate:
        opts = [Action.discard(o) for o in hand] if can_discard else []
        clues = [a for a in state.legal_actions() if a.is_clue]
        if clues:
            opts.append(rng.choice(clues))
        if opts:
            return rng.choice(opts)
    play = [o for o in hand if state.is_playable(o)]
    if play:
        return Action(PLAY, min(play, key=lambda o: (g.rank_of[o], hand.index(o))))
    if can_discard:
        reach = state.reach()
        for o in hand:
            if state.is_trash(o, reach):
                return Action.discard(o)
    clue = state.first_clue()
    if clue is not None:
        return clue
    if can_discard:
        left = state.copies_left()
        return Action.discard(min(hand, key=lambda o: (left[g.deck[o]] < 2, -g.rank_of[o], hand.index(o))))
    # forced to misplay: not a card a game with fixed stacks forbids misplaying (solver.hanabi.methods.split),
    # where a position may have no legal action at all (a dead end of that game)
    for o in hand:
        if not (g.guarded and state.misplay_guarded(o)):
            return Action(PLAY, o)
    raise IllegalActionError(f"no legal action at turn {state.turn}: every card would play in the real game "
                             f"({g.fixed_from!r}), which the game with fixed stacks forbids")


def greedy_line(state: State | Game | GameRecord, rng: random.Random | None = None,
                deviate: float = 0.0) -> tuple[list[Action], int]:
    """The greedy strategy played from ``state`` to the end of the game: its actions (each
    applied through the rules engine) and the final score. ``state`` is not changed. In a
    game with fixed stacks (solver.hanabi.methods.split) the line may reach a position with no legal
    action: then there is no line, ``([], -1)``. ``state`` may also be a :class:`Game` or a
    loader's :class:`GameRecord` (from the start)."""
    st = as_state(state, "greedy_line").copy()
    line = []
    while not st.over:
        try:
            act = greedy_action(st, rng, deviate)
        except IllegalActionError:
            if not st.game.guarded:
                raise
            return [], -1
        line.append(st.apply(act))
    return line, st.score


def best_greedy_line(state: State, tries: int = 1, deviate: float = 0.1) -> tuple[list[Action], int]:
    """The best of ``tries`` greedy playouts: the plain strategy first, then playouts that
    deviate (``deviate``) with the random generators ``Random(1)``, ``Random(2)``, ...
    Deterministic. Ties keep the earlier line."""
    best = greedy_line(state)
    for k in range(1, tries):
        line, score = greedy_line(state, random.Random(k), deviate)
        if score > best[1]:
            best = (line, score)
    return best
