"""What the generator and the checker need to know about a position: the exact maximum,
which first moves keep a target reachable, a simple greedy strategy to compare against,
and the features the difficulty is rated from.

Every solver call goes through :func:`solve_bounded` with a :class:`Limits`: a node limit
(which makes the answers the same on every machine, so the generator is deterministic)
and a timeout as a safety net. Only exact answers are used: a first move "loses" only
when the maximum after it is exact and below the target.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from solver.game import DISCARD, PLAY, Action, Card, State
from solver.solve import Solution, solve

from .notation import first_clue, move_class, move_classes


@dataclass(frozen=True)
class Limits:
    """Bounds for every solver call: seconds, search nodes, and the engine
    (``search``: the exhaustive search confirmed by the relaxed game; counted in nodes,
    so deterministic; ``portfolio`` adds the SAT and CP-SAT encodings)."""

    timeout: float = 20.0
    node_limit: int | None = 300_000
    engine: str = "search"


GENERATOR_LIMITS = Limits()
CHECK_LIMITS = Limits(timeout=30.0, node_limit=None, engine="portfolio")


def solve_bounded(state: State, limits: Limits) -> Solution:
    return solve(state, timeout=limits.timeout, node_limit=limits.node_limit, engine=limits.engine)


def reaches(state: State, target: int, limits: Limits) -> tuple[bool | None, Solution | None]:
    """Is ``target`` reachable from ``state``? True (a replayed line reaches it), False
    (the exact maximum is below it) or None (undecided within the limits)."""
    if state.over:
        return state.score >= target, None
    sol = solve_bounded(state, limits)
    if sol.max_score >= target:
        return True, sol
    if sol.exact:
        return False, sol
    return None, sol


# ---- the greedy strategy ------------------------------------------------------

def _copies_left(st: State) -> Counter:
    """Copies of each card still in a hand or the deck."""
    g = st.game
    c = Counter(g.deck[o] for h in st.hands for o in h)
    c.update(g.deck[o] for o in range(st.next_draw, len(g.deck)))
    return c


def _reach(st: State, left: Counter) -> list[int]:
    """Per suit, the highest rank the stack can still reach (ignoring time)."""
    g = st.game
    out = []
    for s, top in enumerate(st.stacks):
        r = top
        while r < g.max_rank[s] and left[Card(s, r + 1)]:
            r += 1
        out.append(r)
    return out


def is_trash(st: State, o: int, reach: list[int] | None = None) -> bool:
    """A card that can never score: its rank is on its stack, or a lower rank is gone."""
    g = st.game
    if reach is None:
        reach = _reach(st, _copies_left(st))
    s, r = g.suit_of[o], g.rank_of[o]
    return r <= st.stacks[s] or r > reach[s]


def is_playable(st: State, o: int) -> bool:
    g = st.game
    return g.rank_of[o] == st.stacks[g.suit_of[o]] + 1


def greedy_action(st: State) -> Action:
    """The simple greedy strategy every puzzle must beat:

    1. play a playable card (the lowest rank, then the oldest card);
    2. if a clue token can be gained, discard a card that can never score;
    3. if a clue can be given, give one (a stall);
    4. discard the card that hurts least: one with another copy still in play, else
       the highest rank;
    5. (all tokens and no clue possible) play the oldest card."""
    g = st.game
    hand = st.hands[st.current]
    play = [o for o in hand if is_playable(st, o)]
    if play:
        return Action(PLAY, min(play, key=lambda o: (g.rank_of[o], hand.index(o))))
    left = _copies_left(st)
    reach = _reach(st, left)
    can_discard = st.clues < g.max_clues
    if can_discard:
        for o in hand:
            if is_trash(st, o, reach):
                return Action(DISCARD, o)
    clue = first_clue(st)
    if clue is not None:
        return clue
    if can_discard:
        return Action(DISCARD, min(hand, key=lambda o: (left[g.deck[o]] < 2, -g.rank_of[o], hand.index(o))))
    return Action(PLAY, hand[0])


def greedy_line(st: State) -> tuple[list[Action], int]:
    """The greedy strategy played to the end: its actions and the final score."""
    st = st.copy()
    line = []
    while not st.over:
        line.append(st.apply(greedy_action(st)))
    return line, st.score


# ---- first moves ----------------------------------------------------------------

@dataclass
class FirstMoves:
    """The classes of first move (see :func:`notation.move_class`), each with the exact
    maximum after it (None: not decided) and whether it keeps the target."""

    target: int
    results: dict[str, int | None] = field(default_factory=dict)  # class -> max after it
    winning: list[str] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)
    solutions: dict[str, Solution] = field(default_factory=dict)  # winning class -> line after it
    representatives: dict[str, Action] = field(default_factory=dict)
    nodes: int = 0

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def losing(self) -> list[str]:
        return [k for k in self.results if k not in self.winning and k not in self.undecided]


def first_moves(st: State, target: int, limits: Limits, stop_after: int | None = None) -> FirstMoves:
    """Which first moves keep ``target`` reachable. With ``stop_after``, gives up (leaving
    the rest unexamined) once more than that many moves are known to win."""
    fm = FirstMoves(target)
    for label, a in move_classes(st).items():
        child = st.copy()
        child.apply(a)
        fm.representatives[label] = a
        ok, sol = reaches(child, target, limits)
        if sol is not None:
            fm.nodes += sol.stats.get("nodes", 0) + sol.stats.get("relaxed_nodes", 0)
        if child.over:
            fm.results[label] = child.score
        elif sol is not None and (sol.exact or ok):
            fm.results[label] = sol.max_score if sol.exact else None
        else:
            fm.results[label] = None
        if ok:
            fm.winning.append(label)
            if sol is not None:
                fm.solutions[label] = sol
            if stop_after is not None and len(fm.winning) > stop_after:
                break
        elif ok is None:
            fm.undecided.append(label)
    return fm


# ---- difficulty ----------------------------------------------------------------

def looks_safe(st: State, a: Action) -> bool:
    """A move a sensible player makes without thinking: play a playable card, discard a
    card that can never score, or stall with a clue."""
    if a.is_clue:
        return True
    if a.kind == PLAY:
        return is_playable(st, a.target)
    return is_trash(st, a.target)


def features(st: State, sol: Solution, fm: FirstMoves, greedy_score: int, limits: Limits,
             line_budget: int = 40) -> dict:
    """What the difficulty is rated from:

    - ``turns``: moves in the solution line (to the end of the game);
    - ``plays``: points still to score;
    - ``traps``: first moves that look safe (a playable card, trash, a clue) but lose;
    - ``greedy_errors``: positions along the solution line where the greedy strategy's
      move would lose the target (the first position included);
    - ``only_moves``: positions along the solution line where exactly one kind of move
      keeps the target;
    - ``greedy_gap``: points the greedy strategy falls short by;
    - ``nodes``: search nodes the proofs needed (the position and its first moves);
    - ``pace``: hanab.live's pace of the position."""
    traps = sum(1 for k in fm.losing if looks_safe(st, fm.representatives[k]))
    only = errors = 0
    cur = st.copy()
    for i, a in enumerate(sol.actions[:line_budget]):
        if cur.over:
            break
        g = greedy_action(cur)
        if i == 0:
            n_win = len(fm.winning)
            g_ok = move_class(cur, g) in fm.winning
        else:
            n_win = len(first_moves(cur, fm.target, limits, stop_after=1).winning)
            child = cur.copy()
            child.apply(g)
            g_ok = reaches(child, fm.target, limits)[0] is not False
        only += n_win == 1
        errors += not g_ok
        cur.apply(a)
    return {
        "turns": len(sol.actions),
        "plays": fm.target - st.score,
        "traps": traps,
        "greedy_errors": errors,
        "only_moves": only,
        "greedy_gap": fm.target - greedy_score,
        "nodes": sol.stats.get("nodes", 0) + sol.stats.get("relaxed_nodes", 0) + fm.nodes,
        "pace": st.pace,
    }


DIFFICULTIES = ("easy", "medium", "hard")


def rating(f: dict) -> float:
    """One number from the features: each decision where the obvious (greedy) move loses
    counts most, then each tempting first move that loses, the forced decisions, the
    length of the line, how far the greedy strategy falls short, and the search the proof
    needed (log scale)."""
    return round(
        3.0 * f["greedy_errors"] + 1.0 * f["traps"] + 0.5 * f["only_moves"] + 0.3 * f["turns"]
        + 1.0 * f["greedy_gap"] + 0.5 * math.log10(1 + f["nodes"]), 2)


# rating thresholds between easy / medium / hard (chosen so that generated puzzles split
# roughly into thirds; see docs/puzzles.md)
THRESHOLDS = (13.0, 21.0)


def difficulty(r: float) -> str:
    if r < THRESHOLDS[0]:
        return "easy"
    if r < THRESHOLDS[1]:
        return "medium"
    return "hard"
