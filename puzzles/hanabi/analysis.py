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

import solver
from solver import PLAY, Action, Solution, State, find_line, solve

from .notation import move_class, move_classes


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


def line_reaching(state: State, target: int, node_limit: int) -> list[Action] | None:
    """A line from ``state`` to the end of the game scoring at least ``target``, if the
    search finds one within ``node_limit`` nodes (deterministic), else None."""
    return find_line(state, target, node_limit=node_limit)


# ---- the greedy strategy (solver.hanabi.methods.strategy) ---------------------------------------
# Every puzzle must beat it; it lives in the library, one strategy for everything.

greedy_action = solver.greedy_action
greedy_line = solver.greedy_line


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


def first_moves(st: State, target: int, limits: Limits, stop_after: int | None = None,
                by_choice: bool = False, fail_fast: bool = False) -> FirstMoves:
    """Which first moves keep ``target`` reachable. With ``stop_after``, gives up (leaving
    the rest unexamined) once more than that many moves are known to win; with
    ``by_choice``, once more than that many choices are known to win (a misplay counts
    with the discard of the same card, see :func:`choices`). With ``fail_fast``, also
    gives up at the first move it cannot decide, and examines the moves that look safe
    (the likeliest to win) first, so that a position with too many winning moves is
    given up sooner. Either way the classes are listed in the engine's order."""
    fm = FirstMoves(target)
    keys: set[str] = set()
    classes = move_classes(st)
    order = list(classes)
    if fail_fast:
        left = st.copies_left()
        order.sort(key=lambda k: not looks_safe(st, classes[k], left))
    for label in order:
        a = classes[label]
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
            keys.add("d" + label[1:] if by_choice and is_misplay(st, label) else label)
            if stop_after is not None and len(keys) > stop_after:
                break
        elif ok is None:
            fm.undecided.append(label)
            if fail_fast:
                break
    rank = {k: i for i, k in enumerate(classes)}
    fm.results = dict(sorted(fm.results.items(), key=lambda kv: rank[kv[0]]))
    fm.representatives = dict(sorted(fm.representatives.items(), key=lambda kv: rank[kv[0]]))
    fm.winning.sort(key=rank.__getitem__)
    fm.undecided.sort(key=rank.__getitem__)
    return fm


SCREEN_NODES = 2_000  # search nodes per first move in :func:`more_winning_than`


def more_winning_than(st: State, target: int, max_choices: int, node_limit: int = SCREEN_NODES,
                      known: tuple[str, ...] = ()) -> bool:
    """A quick screen for the generator: are more than ``max_choices`` choices of first
    move (a misplay counts with the discard of the same card, see :func:`choices`) *known*
    to keep ``target`` reachable? Each move is tried with :func:`solver.find_line` (a line
    replayed in the engine; no proof of a maximum needed, since ``target`` is the exact
    maximum of ``st`` and no move can raise it), the moves that look safe first, within
    ``node_limit`` nodes each; a move whose bound is already below the target is skipped,
    and the kinds of move in ``known`` (e.g. the first move of a line reaching the target)
    are taken as winning without a search.

    True only when the lines exist, so a position it rejects is one :func:`first_moves`
    would reject too (too many winning choices, or a move it cannot decide); False
    means "not shown", and the full count decides. Deterministic (a node count)."""
    classes = move_classes(st)
    left = st.copies_left()
    order = sorted(classes, key=lambda k: not looks_safe(st, classes[k], left))
    keys: set[str] = set()
    for label in order:
        if label not in known:
            child = st.copy()
            child.apply(classes[label])
            if child.over:
                if child.score < target:
                    continue
            elif child.max_reachable() < target or find_line(child, target, node_limit=node_limit) is None:
                continue
        keys.add("d" + label[1:] if is_misplay(st, label) else label)
        if len(keys) > max_choices:
            return True
    return False


# ---- choices and answer kinds ----------------------------------------------------

ANSWER_KINDS = ("play", "discard", "clue", "either")
ANSWER_KIND_OPTIONS = ("mixed", "any") + ANSWER_KINDS  # what the generator may be asked for
KIND_OF_LETTER = {"c": "clue", "p": "play", "d": "discard"}


def is_misplay(st: State, label: str) -> bool:
    """Is the move class ``label`` (``pr3``, not a deck play) the play of an unplayable card?"""
    if not label.startswith("p") or label.startswith("p#"):
        return False
    a = move_classes(st).get(label)
    return a is not None and a.kind == PLAY and not st.is_playable(a.target)


def choices(st: State, labels) -> list[list[str]]:
    """The move classes ``labels`` grouped into *choices*: the misplay of a card whose
    discard is also in ``labels`` is the same choice as that discard (either way the card
    leaves the hand and the next card is drawn; the misplay only costs a strike and gains
    no token). Each choice lists its main class first; the choices keep the order of
    ``labels``."""
    labels = list(labels)
    groups: dict[str, list[str]] = {}
    for lab in labels:
        key = "d" + lab[1:] if is_misplay(st, lab) and "d" + lab[1:] in labels else lab
        groups.setdefault(key, []).append(lab)
    return [sorted(v, key=lambda x: x != k) for k, v in groups.items()]


def answer_kind(st: State, labels) -> str:
    """``play``, ``discard`` or ``clue`` when every winning choice is of that kind (a
    discard that may also be misplayed counts as a discard), else ``either``."""
    kinds = {KIND_OF_LETTER[c[0][0]] for c in choices(st, labels)}
    return kinds.pop() if len(kinds) == 1 else "either"


def looks_safe(st: State, a: Action, left: Counter | None = None) -> bool:
    """A move a sensible player makes without much thought: play a playable card, give
    a clue (a stall), discard a card that can never score, or discard a card that is not
    playable now and has another copy still in a hand or the deck."""
    if a.is_clue:
        return True
    if a.kind == PLAY:
        return a.target in st.hands[st.current] and st.is_playable(a.target)
    if st.is_trash(a.target):
        return True
    if st.is_playable(a.target):
        return False
    left = left if left is not None else st.copies_left()
    return left[st.game.deck[a.target]] >= 2


# ---- the decisions along a line --------------------------------------------------

def decisions(st: State, line, fm: FirstMoves, limits: Limits, budget: int = 40) -> list[dict]:
    """Each position along ``line`` (the first ``budget`` moves): who moves, the line's
    move, the winning choices there (``many`` when more than two move classes win), the
    tempting moves that lose there (``traps``, see :func:`looks_safe`), and the greedy
    strategy's move and whether it loses. ``fm`` are the first moves of ``st``.

    ``winning`` lists the main class of each winning choice (see :func:`choices`), or is
    None (``many``) when more than two kinds of move win there (the count stops early)."""
    out = []
    cur = st.copy()
    g = st.game
    for i, a in enumerate(list(line)[:budget]):
        if cur.over:
            break
        f = fm if i == 0 else first_moves(cur, fm.target, limits, stop_after=2)
        greedy = greedy_action(cur)
        gl = move_class(cur, greedy)
        if gl in f.results:
            greedy_loses = gl not in f.winning and gl not in f.undecided
        else:  # not examined (the count stopped early)
            child = cur.copy()
            child.apply(greedy)
            greedy_loses = reaches(child, fm.target, limits)[0] is False
        left = cur.copies_left()
        traps = [k for k in f.losing if looks_safe(cur, f.representatives[k], left)]
        many = len(f.winning) > 2 or len(f.results) < len(move_classes(cur))
        out.append({
            "move": i + 1,
            "player": g.player_name(cur.current),
            "line": move_class(cur, a),
            "winning": None if many else [c[0] for c in choices(cur, f.winning)],
            "classes": len(f.winning),
            "many": many,
            "traps": traps,
            "greedy": gl,
            "greedy_loses": greedy_loses,
        })
        cur.apply(a)
    return out


def is_decision(d: dict) -> bool:
    """One winning choice, and some tempting move loses."""
    return not d["many"] and len(d["winning"]) == 1 and bool(d["traps"])


def is_real_choice(d: dict) -> bool:
    """The move is a real decision: the greedy strategy's move loses there, or it is a
    decision (:func:`is_decision`)."""
    return d["greedy_loses"] or is_decision(d)


# ---- difficulty ----------------------------------------------------------------

def features(st: State, sol: Solution, fm: FirstMoves, greedy_score: int, dec: list[dict],
             graph_limits: Limits | None = None) -> dict:
    """What the difficulty is rated from (``dec``: :func:`decisions` along the solution):

    - ``turns``: moves in the solution line (to the end of the game);
    - ``plays``: points still to score;
    - ``traps``: first moves that look safe (a playable card, a clue, a discard of trash
      or of a card with a spare copy) but lose;
    - ``decisions``: positions along the solution line with one winning choice while some
      move that looks safe loses;
    - ``greedy_errors``: positions along the solution line where the greedy strategy's
      move would lose the target (the first position included);
    - ``crux``: the first of those (1 = the first move);
    - ``only_moves``: positions along the solution line where exactly one kind of move
      keeps the target;
    - ``greedy_gap``: points the greedy strategy falls short by;
    - ``nodes``: search nodes the proofs needed (the position and its first moves);
    - ``pace``: hanab.live's pace of the position;

    and, with ``graph_limits``, the solution graph's (:func:`graph_features`): ``lines``,
    ``forced``, ``graph_nodes`` (the generator adds them once a position has passed its
    other tests, so that the graph is built only for puzzles)."""
    errors = [d["move"] for d in dec if d["greedy_loses"]]
    out = {
        "turns": len(sol.actions),
        "plays": fm.target - st.score,
        "traps": len(dec[0]["traps"]) if dec else 0,
        "decisions": sum(1 for d in dec if is_decision(d)),
        "greedy_errors": len(errors),
        "crux": errors[0] if errors else None,
        "only_moves": sum(1 for d in dec if not d["many"] and d["classes"] == 1),
        "greedy_gap": fm.target - greedy_score,
        "nodes": sol.stats.get("nodes", 0) + sol.stats.get("relaxed_nodes", 0) + fm.nodes,
        "pace": st.pace,
    }
    if graph_limits is not None:
        out.update(graph_features(st, fm.target, graph_limits))
    return out


# The solution graph (solver.hanabi.analysis.graph) of a puzzle is small: tens to a few thousand positions,
# built in 0.2 s on average, 4 s at most. Its cost is mostly the SAT confirmations of moves
# that lose for want of clue tokens (the relaxed game cannot refute those), 10-100 ms
# each. Past either cap the graph features are None (and the rating leaves them out)
# rather than slowing the generator: 11 puzzles in 400 (seeds 0 and 11-13).
GRAPH_MAX_NODES = 5_000
GRAPH_MAX_SAT_CALLS = 128


def graph_features(st: State, target: int, limits: Limits, max_nodes: int = GRAPH_MAX_NODES,
                   max_sat_calls: int = GRAPH_MAX_SAT_CALLS) -> dict:
    """The features of the solution graph (:func:`solver.hanabi.analysis.graph.solution_graph`: every
    line from ``st`` reaching ``target``, by kinds of move, transpositions merged):

    - ``lines``: the number of distinct optimal lines (sequences of kinds of move);
    - ``forced``: the fewest forced positions (one kind of move keeps the target) on any
      optimal line: whichever line a player takes, they must find at least these moves;
    - ``graph_nodes``: positions in the graph (information only).

    The graph is built with ``limits.node_limit`` search nodes per decision, at most
    ``max_nodes`` positions and ``max_sat_calls`` SAT confirmations (counts, so the
    features are the same on every machine); when it needs more, or a move is not
    decided within the budget, all three are None (never a count from a partial graph)."""
    from solver.hanabi.analysis.graph import GraphBudgetError, count_lines, forced_per_line, solution_graph

    try:
        G = solution_graph(st, target, node_limit=limits.node_limit, max_nodes=max_nodes,
                           max_sat_calls=max_sat_calls, timeout=limits.timeout)
    except GraphBudgetError:
        return {"lines": None, "forced": None, "graph_nodes": None}
    return {"lines": count_lines(G), "forced": forced_per_line(G)[0], "graph_nodes": G.number_of_nodes()}


DIFFICULTIES = ("easy", "medium", "hard")


def rating(f: dict) -> float:
    """One number from the features: each decision where the obvious (greedy) move loses
    counts most, then each decision point on the line, each tempting first move that
    loses, how deep in the line the first crux lies (it must be seen ahead), the length
    of the line, how far the greedy strategy falls short, and the search the proof needed
    (log scale); then the solution graph (:func:`graph_term`).

    Features without ``lines`` (puzzles of generator 1.1 and earlier, made before the
    graph) are rated by the formula they were rated with: their stored rating and
    difficulty still follow from their stored features."""
    crux = f.get("crux") or 1
    base = (3.0 * f["greedy_errors"] + 1.0 * f["decisions"] + 1.0 * f["traps"] + 0.5 * min(crux - 1, 8)
            + 0.2 * f["turns"] + 1.0 * f["greedy_gap"] + 0.5 * math.log10(1 + f["nodes"]))
    return round(base + graph_term(f), 2)


# The graph's part of the rating, measured from a typical generated puzzle (GRAPH_CENTER:
# the median of forced, 5, and near the mean of log10(lines), 0.8, over 400 puzzles, seeds
# 0 and 11-13), which adds nothing, so that the thresholds below still split the puzzles roughly
# into thirds (see docs/puzzles.md). ``lines`` carries what the other features do not (its
# correlation with the rest of the rating is 0.04); ``forced`` mostly repeats the
# decisions along the line (0.71), hence its small weight.
GRAPH_WEIGHTS = {"forced": 0.25, "lines": 1.0}  # per forced move; per factor 10 in lines
GRAPH_CENTER = {"forced": 5, "lines": 8}


def graph_term(f: dict) -> float:
    """The solution graph's part of the rating: each forced move that every optimal line
    must find adds, and the more distinct optimal lines there are, the easier (log
    scale), both from a typical puzzle (:data:`GRAPH_CENTER`): ``0.25·(forced − 5) −
    log10(lines / 8)``. 0 without the graph features (earlier generator versions), or
    when they are None (the graph was over its caps)."""
    if f.get("lines") is None or f.get("forced") is None:
        return 0.0
    return (GRAPH_WEIGHTS["forced"] * (f["forced"] - GRAPH_CENTER["forced"])
            - GRAPH_WEIGHTS["lines"] * math.log10(f["lines"] / GRAPH_CENTER["lines"]))


# rating thresholds between easy / medium / hard (chosen so that generated puzzles split
# roughly into thirds; see docs/puzzles.md)
THRESHOLDS = (14.0, 18.0)


def difficulty(r: float) -> str:
    if r < THRESHOLDS[0]:
        return "easy"
    if r < THRESHOLDS[1]:
        return "medium"
    return "hard"
