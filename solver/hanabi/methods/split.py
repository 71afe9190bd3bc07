"""Up or Down and Sudoku, solved as ordinary games: one per way the stacks can go.

In Up or Down a stack's direction is decided by its first cards; in Sudoku a stack's
start. Fix them, and each game is an ordinary one with its ranks read another way
(:meth:`~solver.hanabi.rules.Game.with_heights`):

- Up or Down, a stack fixed to go up: its 1 and its START card play at height 1, then
  2, 3, 4, 5; fixed to go down: the 5 and the START card at height 1, then 4, 3, 2, 1.
  2^S fixings (S suits), fewer once stacks have gone one way.
- Sudoku, a stack fixed to start at rank b: b plays at height 1, b + 1 at height 2 ...,
  wrapping from N to 1. Every start is another rank (as many ranks as suits): N! fixings,
  fewer once stacks have started.

The argument (docs/variants.md, "Solving Up or Down and Sudoku"): a card that plays in
a fixed game plays in the real game, and every real line is a line of the fixed game that
builds the stacks its way, so the best over the fixings bounds the real maximum. A fixed
game's misplay of a card the real game would play (a 5 on an empty stack fixed to go up; in
Sudoku a rank no started stack began with, on an empty stack) is guarded, forbidden
(:func:`guards`), so the fixed games' lines are real lines, replayed in the real engine
(:func:`to_real`) before they are reported. Sudoku's guards forbid exactly those misplays;
Up or Down's forbid one more (a 4 on a stack of height 1 going up: on a START card the
real game would play it, on a 1 not), so there the bounds come from the fixed games
without guards.
"""
from __future__ import annotations

from itertools import permutations, product

from solver.hanabi.rules import PLAY, Action, Game, State, updown
from solver.hanabi.rules.variant import START_RANK

from .strategy import greedy_action

UP, DOWN = updown.UP, updown.DOWN


def needs_split(game: Game) -> bool:
    """The game's stacks are built in a way the solvers fix before solving."""
    return game.up_or_down or game.sudoku


def fixings(state: State) -> list[tuple[int, ...]]:
    """Every way to fix the stacks consistent with ``state``: per suit a direction (Up or
    Down: UP or DOWN) or a start rank (Sudoku), in a fixed order."""
    g = state.game
    if g.up_or_down:
        options = []
        for s, d in enumerate(state.directions):
            complete = state.stacks[s] >= g.max_rank[s]
            # a decided stack keeps its direction; a complete one needs only one
            options.append((d,) if d != updown.UNDECIDED else (UP,) if complete else (UP, DOWN))
        return list(product(*options))
    if g.sudoku:
        n = g.max_rank[0]
        free = [b for b in range(1, n + 1) if b not in state.starts]
        open_ = [s for s, b in enumerate(state.starts) if not b]
        out = []
        for chosen in permutations(free, len(open_)):
            starts = list(state.starts)
            for s, b in zip(open_, chosen):
                starts[s] = b
            out.append(tuple(starts))
        return out
    return [()]


def heights(game: Game, fixing: tuple[int, ...]) -> tuple[int, ...]:
    """Per card order, the height it plays at once the stacks are fixed as ``fixing``."""
    out = []
    for c in game.deck:
        top = game.max_rank[c.suit]
        f = fixing[c.suit]
        if game.up_or_down:
            out.append(1 if c.rank == START_RANK else c.rank if f == UP else top + 1 - c.rank)
        else:
            out.append((c.rank - f) % top + 1)
    return tuple(out)


def guards(game: Game, fixing: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Per card order, the misplay the fixed game forbids because the real game would play
    the card (:meth:`~solver.hanabi.rules.Game.with_heights`' guards: (stack height, owner)):

    - Up or Down, a stack fixed to go up: its 5 on the empty stack (it would start the
      stack going down), its 4 on a stack of height 1 (on a START card it would send the
      stack down; on a 1 it misplays, so this guard forbids more than the real game does:
      the fixed games' lines are real lines, but their maxima are bounded by the fixings
      without guards, see :mod:`solver.hanabi.methods.split`); fixed to go down, its 1 and its 2 alike.
    - Sudoku: a card of rank r on its empty stack fixed to start elsewhere, while the
      stack fixed to start at r (its owner; none if no stack is) is empty: exactly the
      real game's rule (r is no started stack's start)."""
    out = []
    for c, h in zip(game.deck, heights(game, fixing)):
        top = game.max_rank[c.suit]
        f = fixing[c.suit]
        if game.up_or_down:
            if c.rank == START_RANK:
                out.append((-1, -1))
                continue
            out.append((0, -1) if h == top else (1, -1) if h == top - 1 else (-1, -1))
        elif c.rank == f:
            out.append((-1, -1))
        else:  # (no owner where no stack is fixed to start at r: fewer suits than ranks)
            out.append((0, fixing.index(c.rank) if c.rank in fixing else -1))
    return tuple(out)


def exact_guards(game: Game) -> bool:
    """The fixed games' guards forbid exactly the misplays the real game does not have
    (Sudoku), so their maxima are the real one's; in Up or Down they forbid more."""
    return game.sudoku


def fixing_text(game: Game, fixing: tuple[int, ...]) -> str:
    """A fixing as a player reads it: "r up, y down, ..." or "r from 3, y from 1, ..."."""
    v = game.variant
    if game.up_or_down:
        return ", ".join(f"{v.suits[s].letter} {'up' if d == UP else 'down'}" for s, d in enumerate(fixing))
    return ", ".join(f"{v.suits[s].letter} from {b}" for s, b in enumerate(fixing))


def fixed_state(state: State, fixing: tuple[int, ...], guarded: bool = True) -> State:
    """``state`` in the fixed game: the same hands, deck, stacks, tokens and history, with
    ordinary stacks (nothing to undo: the position is the fixed game's start); with
    ``guarded``, without the misplays the real game would play (:func:`guards`)."""
    g = state.game
    fixed = g.with_heights(heights(g, fixing), guards(g, fixing) if guarded else None)
    s = state.copy()
    s.game = fixed
    s.directions = [updown.UNDECIDED] * len(s.stacks)
    s.starts = [0] * len(s.stacks)
    s.site_max = fixed.perfect_score
    s._undo = []
    return s


def to_real(state: State, fixed: State, actions: list[Action]) -> tuple[list[Action], int, int | None]:
    """A line of the fixed game (from ``fixed``, :func:`fixed_state` of ``state``)
    replayed in the real engine from ``state``: its actions up to the end of the real game
    (cut there if it ends sooner), then, if the real game goes on after the line, the
    greedy strategy's moves to its end. Returns the real line, its score, and the index of
    the first action the two games play differently (a misplay of the fixed game that
    plays in the real one: the greedy strategy plays on from there), or None."""
    st, fs = state.copy(), fixed.copy()
    out: list[Action] = []
    diverged = None
    for i, act in enumerate(actions):
        if st.over:
            break
        if act.kind == PLAY and st.is_playable(act.target) != fs.is_playable(act.target):
            diverged = i
            break
        out.append(st.apply(act))
        if not fs.over:
            fs.apply(act)
    while not st.over:
        out.append(st.apply(greedy_action(st)))
    return out, st.score, diverged
