"""A brute force of the endgame chances, written from the rules with the engine alone (no
code of solver.hanabi.chances): every legal action, and every draw split into the engine states
of each card that can come next.

A position is an engine state with its deck in some order; the cards not yet drawn are
the unknown pile. An action that draws is a chance event: for each distinct card X left in
the pile, the game is rebuilt with a copy of X moved to the top of the pile, the history
replayed into it, and the action made there; its value weighs each X by its copies. The
value of a position is the best over every legal action (plays, discards and every clue),
the final result at the end: 1 or 0 (did the score reach the target) or the score. Exact
fractions, memoised on everything the rules read (the hands card by card, the pile as a
multiset, stacks, tokens, strikes, turns, discards).
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from solver.hanabi.rules import Game, State, replay


class ChanceOracle:
    def __init__(self, target: int, objective: str) -> None:
        self.target = target
        self.objective = objective
        self.memo: dict[tuple, Fraction] = {}

    def final(self, state: State) -> Fraction:
        if self.objective == "win":
            return Fraction(1 if state.score >= self.target else 0)
        return Fraction(state.score)

    def key(self, state: State) -> tuple:
        g = state.game
        return (state.current, tuple(tuple(g.deck[o] for o in h) for h in state.hands),
                tuple(sorted(g.deck[o] for o in range(state.next_draw, len(g.deck)))),
                tuple(state.stacks), state.clues, state.strikes, state.turns_left, state.over, state.score,
                tuple(sorted(g.deck[o] for o in state.discards)), state.last_clue, tuple(state.directions),
                tuple(state.starts))

    def value(self, state: State) -> Fraction:
        if state.over:
            return self.final(state)
        k = self.key(state)
        v = self.memo.get(k)
        if v is None:
            v = max(self.action_value(state, a) for a in state.legal_actions())
            self.memo[k] = v
        return v

    def action_value(self, state: State, action) -> Fraction:
        """The value of making ``action`` (legal) in ``state``, the next draw unknown."""
        g = state.game
        draws = (not action.is_clue and action.target in state.hands[state.current]
                 and state.next_draw < len(g.deck))
        if not draws:
            s = state.copy()
            s.push(action)
            return self.value(s)
        pile = [g.deck[o] for o in range(state.next_draw, len(g.deck))]
        total = Fraction(0)
        for card, copies in Counter(pile).items():
            rest = list(pile)
            rest.remove(card)
            deck = list(g.deck[:state.next_draw]) + [card] + rest
            g2 = Game(g.rules, g.num_players, deck, names=g.names, starting_player=g.starting_player)
            s = replay(g2, state.history)
            s.push(action)
            total += copies * self.value(s)
        return total / len(pile)

    def moves(self, state: State) -> dict:
        """The value of every legal action of ``state``."""
        return {a: self.action_value(state, a) for a in state.legal_actions()}
