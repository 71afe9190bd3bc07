"""The solution graph of a position: every optimal continuation, transpositions merged.

:func:`solution_graph` builds a :class:`networkx.DiGraph` whose nodes are the positions
reachable from the given one *along lines that still reach the target* (by default the
exact maximum, from :func:`solver.solve`), keyed by :meth:`State.key` (a state itself is
mutable and not hashable), and whose edges are the *kinds of move* that keep the target:

- ``c``: any clue. With every card visible a clue's content tells nobody anything, so
  every clue is the same move: it spends a token and passes the turn;
- ``pr3`` / ``dr3``: play / discard an r3 of the player to act (two copies of one card in
  a hand are interchangeable); ``p#N``: with ``deckPlays``, the last card of the deck.

(:meth:`State.move_class`, the labels of the puzzles' notation too.) Each edge carries a
representative engine action (``action``: hanab.live JSON, :meth:`Action.to_json`): the
first legal action of its kind in :meth:`State.legal_actions` order.

A move is an edge **iff** the target is still reachable after it, decided exactly:

- *reachable*: the exhaustive search finds a line reaching the target (replayed through
  the rules engine);
- *unreachable*: a named bound of the child is below the target, or two independent
  methods prove it (the exhaustive search, then the relaxed game with unlimited clue
  tokens, then, when the relaxed game cannot, the SAT encoding within a conflict budget)
  -- the library's own standard for an exact maximum below the perfect score
  (:class:`solver.Proof`).

Every budget is a count (search nodes, SAT conflicts, graph nodes), so the same position
gives the same graph on any machine; ``timeout`` is only a safety net. The graph is
complete or it is not returned: a move that cannot be decided within the budget raises
:class:`GraphUndecidedError`, more than ``max_nodes`` positions raise
:class:`GraphTooLargeError` (both :class:`GraphBudgetError`, a ``ValueError``); a partial
graph is never returned.

Reading the graph: :func:`count_lines` (distinct optimal lines, by dynamic programming
over the DAG, never by enumeration), :func:`forced_nodes` (positions with exactly one
optimal kind of move), :func:`forced_along` (those on a given line),
:func:`forced_per_line` (the fewest and the most on one line), :func:`branching`,
:func:`summary`; :func:`write_graph` exports ``.graphml`` or ``.dot``.
"""
from __future__ import annotations

import io
import json
import time
from collections import Counter
from pathlib import Path

import networkx as nx

from solver.common.outputs import write_output
from solver.errors import (
    EncodingError,
    GraphBudgetError,
    GraphTooLargeError,
    GraphUndecidedError,
    MalformedError,
    MethodsDisagreeError,
    SearchTimeout,
)
from solver.hanabi.rules import PLAY, Action, Game, GameRecord, State, as_state
from solver.hanabi.rules.support import deck_text
from solver.hanabi.search.kernel import CLUE as SEARCH_CLUE  # the search kernel, pure or compiled
from solver.hanabi.search.kernel import DISCARD as SEARCH_DISCARD
from solver.hanabi.search.kernel import PLAY as SEARCH_PLAY
from solver.hanabi.search.kernel import Position, RelaxedSearch, Search, named_bound

__all__ = [
    "solution_graph", "GraphBudgetError", "GraphTooLargeError", "GraphUndecidedError",
    "count_lines", "forced_nodes", "forced_along", "forced_per_line", "branching",
    "summary",
    "write_graph", "GRAPH_FORMATS", "NODE_LIMIT", "MAX_NODES", "SAT_CONFLICTS",
]

NODE_LIMIT = 300_000  # search nodes per decision (the puzzles' generator limit)
MAX_NODES = 50_000  # positions in the graph at most
SAT_CONFLICTS = 200_000  # conflicts per SAT confirmation
GRAPH_FORMATS = (".graphml", ".dot")


# ---- exact decisions ----------------------------------------------------------------

class _Decider:
    """"Is ``target`` reachable from this position?", exactly, for the positions of one
    game: the search and relaxed-game transposition tables are shared between the calls
    (their entries are facts about positions, whatever the root)."""

    def __init__(self, target: int, node_limit: int | None, sat_conflicts: int | None, deadline: float | None,
                 max_sat_calls: int | None = None):
        self.target = target
        self.node_limit = node_limit
        self.sat_conflicts = sat_conflicts
        self.max_sat_calls = max_sat_calls
        self.deadline = deadline
        self.memo: dict = {}
        self.relaxed_memo: dict = {}
        self.stats: Counter[str] = Counter()

    def _search(self, engine, target):
        """``engine.reach(target)`` with the shared table and the budget: True / False / None."""
        relaxed = isinstance(engine, RelaxedSearch)
        engine.memo = self.relaxed_memo if relaxed else self.memo
        engine.deadline, engine.node_limit = self.deadline, self.node_limit
        try:
            return engine.reach(target)
        except SearchTimeout:
            return None
        finally:
            # a capped table may have been cut (replaced) during the search: keep the new one
            if relaxed:
                self.relaxed_memo = engine.memo
            else:
                self.memo = engine.memo
            self.stats["relaxed_nodes" if relaxed else "search_nodes"] += engine.nodes

    def reaches(self, st: State, pos: Position | None = None) -> tuple[bool | None, str]:
        """(True / False / None, why) for ``st``; ``pos`` is its search position when the
        caller keeps one in step with it (the searches leave it as they found it)."""
        target = self.target
        if st.over:
            return st.score >= target, "over"
        if pos is None:
            pos = Position(st)
        if named_bound(pos)[0] < target:
            self.stats["bound"] += 1
            return False, "bound"
        search = Search(pos)
        ok = self._search(search, target)
        if ok:
            self._replay(st, search.line)
            self.stats["line"] += 1
            return True, "line"
        if ok is None:
            self.stats["undecided"] += 1
            return None, f"the search did not finish within {self.node_limit} nodes"
        if self._search(RelaxedSearch(pos), target) is False:
            self.stats["search+relaxed"] += 1
            return False, "search+relaxed"
        if self.max_sat_calls is not None and self.stats["sat_calls"] >= self.max_sat_calls:
            self.stats["undecided"] += 1
            return None, (f"the search proves it unreachable and the relaxed game cannot confirm it, but the "
                          f"{self.max_sat_calls} SAT confirmations allowed (max_sat_calls) are used up")
        sat = self._sat(st, target)
        if sat is False:
            self.stats["search+sat"] += 1
            return False, "search+sat"
        if sat is True:
            raise MethodsDisagreeError(target, "the SAT encoding", ("search",), deck=deck_text(st))
        self.stats["undecided"] += 1
        return None, (f"the search proves it unreachable, but no second method confirmed it (the relaxed game "
                      f"reaches it; SAT: {'no answer' if sat is None else sat} within {self.sat_conflicts} "
                      f"conflicts)")

    def _replay(self, st: State, moves) -> None:
        from solver.hanabi.methods.portfolio import search_line

        if search_line(st, moves)[1] < self.target:
            raise EncodingError(f"the search's line does not reach {self.target}", deck=deck_text(st),
                                method="search")

    def _sat(self, st: State, target: int):
        """SAT within ``sat_conflicts`` conflicts (deterministic): True / False / None."""
        if self.sat_conflicts == 0:
            return None
        from solver.hanabi.methods.sat import sat_reachable

        res = sat_reachable(st, target, conflicts=self.sat_conflicts)  # a found line is replayed in it
        self.stats["sat_calls"] += 1
        return {"sat": True, "unsat": False}.get(res.status)


# ---- the graph -------------------------------------------------------------------------

def _abstract(state: State, a: Action) -> tuple[int, int]:
    """The search position's move for an engine action (a clue is a stall; where
    Alternating Clues binds, one of its type)."""
    if a.is_clue:
        return (SEARCH_CLUE, a.kind if state.game.alternation_binds else -1)
    return (SEARCH_PLAY if a.kind == PLAY else SEARCH_DISCARD, a.target)


def _maximum(state: State, node_limit, sat_conflicts, timeout, deadline) -> int:
    """The exact maximum from ``state``: :func:`solver.solve` with the search engine (node
    counts only); a maximum it finds but cannot confirm is confirmed the way the graph's
    moves are (the next score unreachable by two methods)."""
    from solver.hanabi.methods.portfolio import solve

    sol = solve(state, node_limit=node_limit, timeout=timeout, engine="search")
    if sol.exact:
        return sol.max_score
    ok, why = _Decider(sol.max_score + 1, node_limit, sat_conflicts, deadline).reaches(state)
    if ok is False:
        return sol.max_score
    raise GraphUndecidedError(f"the maximum from the position is not exact within the budget (at least "
                              f"{sol.max_score}, at most {sol.upper_bound})" + (f": {why}" if ok is None else ""))


def solution_graph(state: State | Game | GameRecord, target: int | None = None, *, node_limit: int | None = NODE_LIMIT,
                   max_nodes: int = MAX_NODES, sat_conflicts: int | None = SAT_CONFLICTS,
                   max_sat_calls: int | None = None, timeout: float | None = None) -> nx.DiGraph:
    """The DAG of every line from ``state`` that ends the game with at least ``target``
    points (default: the exact maximum, from :func:`solver.solve` with the same node
    limit), transpositions merged.

    Nodes are :meth:`State.key` values (``G.graph["root"]`` is the position's), with
    attributes ``turn`` (the game turn, 0-based as :attr:`State.turn`), ``depth`` (moves
    from the position), ``score``, ``player`` (the seat to move) and ``to_move`` (its
    name), ``clues``, ``strikes``, ``deck_left``, and ``terminal`` (the game is over: the
    end of a line). Edges have ``move`` (the kind of move, :meth:`State.move_class`) and
    ``action`` (a representative engine action as hanab.live JSON). Graph attributes:
    ``target`` (and ``max_score`` when it was computed), ``root``, ``complete`` (always
    True), ``decisions`` (children decided), ``stats`` (how each was decided: ``line``,
    ``bound``, ``search+relaxed``, ``search+sat``; search nodes, SAT calls), the budgets,
    and ``time`` (seconds; the only attribute that differs between runs).

    Budgets (all counts, so the graph is the same on every machine): ``node_limit``
    search nodes per decision (and for the maximum), ``sat_conflicts`` per SAT
    confirmation (0: no SAT), ``max_sat_calls`` SAT confirmations in all (None: no cap;
    each costs some 20-100 ms, most of the time of a graph that needs many),
    ``max_nodes`` positions in the graph. ``timeout`` (seconds for the whole graph, None:
    none) is a safety net only.

    Raises :class:`GraphTooLargeError` past ``max_nodes`` positions and
    :class:`GraphUndecidedError` when a move (or the maximum) is not decided exactly
    within the budget; both are :class:`GraphBudgetError` (``ValueError``). It never
    returns a partial graph. ``MalformedError`` if the game is over or ``target`` is not
    reachable from the position."""
    state = as_state(state, "solution_graph")  # (a Game or a loader's GameRecord: from the start)
    for name, value in (("node_limit", node_limit), ("sat_conflicts", sat_conflicts),
                        ("max_sat_calls", max_sat_calls), ("timeout", timeout)):
        if value is not None and not value >= 0:
            raise MalformedError(f"solution_graph: {name} must be 0 or more, got {value!r}")
    if not (isinstance(max_nodes, int) and max_nodes >= 1):
        raise MalformedError(f"solution_graph: max_nodes must be 1 or more, got {max_nodes!r}")
    if state.over:
        raise MalformedError(f"solution_graph: the game is over ({state.end_reason})")
    t0 = time.monotonic()
    deadline = None if timeout is None else t0 + timeout
    maximum = None
    if target is None:
        target = maximum = _maximum(state, node_limit, sat_conflicts, timeout, deadline)
    elif isinstance(target, bool) or not isinstance(target, int):
        raise MalformedError(f"solution_graph: target must be an integer, got {target!r}")
    decider = _Decider(target, node_limit, sat_conflicts, deadline, max_sat_calls)
    root = state.copy()
    ok, why = decider.reaches(root)
    if ok is None:
        raise GraphUndecidedError(f"whether {target} is reachable from the position was not decided: {why}")
    if not ok:
        raise MalformedError(f"solution_graph: {target} is not reachable from the position")

    g = root.game
    G = nx.DiGraph()
    pos = Position(root)  # kept in step with ``root`` (push/pop) for the searches
    known: dict[tuple, bool] = {}  # child key -> target still reachable

    def add_node(key, depth: int) -> None:
        if G.number_of_nodes() >= max_nodes:
            raise GraphTooLargeError(max_nodes, depth)
        G.add_node(key, turn=root.turn, depth=depth, score=root.score, player=root.current,
                   to_move=g.player_name(root.current), clues=root.clues, strikes=root.strikes,
                   deck_left=root.deck_left, terminal=root.over)

    def expand(key, depth: int) -> None:
        """Add every optimal move from ``root`` (now at node ``key``), depth first."""
        for label, a in root.move_classes().items():
            root.push(a)
            pos.push(*_abstract(root, a))
            try:
                ck = root.key()
                ok = known.get(ck)
                if ok is None:
                    ok, why = decider.reaches(root, pos)
                    if ok is None:
                        if deadline is not None and time.monotonic() >= deadline:
                            why = f"the timeout ({timeout} s) passed"
                        raise GraphUndecidedError(
                            f"solution graph: move {label} at game turn {root.turn} (move {depth + 1} from the "
                            f"position) not decided: {why}", label, root.turn - 1)
                    known[ck] = ok
                if ok:
                    new = ck not in G
                    if new:
                        add_node(ck, depth + 1)
                    G.add_edge(key, ck, move=label, action=a.to_json())
                    if new and not root.over:
                        expand(ck, depth + 1)
            finally:
                pos.pop()
                root.pop()

    root_key = root.key()
    add_node(root_key, 0)
    expand(root_key, 0)
    G.graph.update(target=target, root=root_key, complete=True, turn=state.turn, players=g.num_players,
                   variant=g.variant.name, decisions=len(known), node_limit=node_limit, sat_conflicts=sat_conflicts,
                   max_sat_calls=max_sat_calls, max_nodes=max_nodes, stats=dict(decider.stats),
                   time=round(time.monotonic() - t0, 4))
    if maximum is not None:
        G.graph["max_score"] = maximum
    return G


# ---- reading the graph ---------------------------------------------------------------

def _root(G: nx.DiGraph):
    root = G.graph.get("root")
    if root is None or root not in G:
        roots = [n for n, d in G.in_degree() if d == 0]
        if len(roots) != 1:
            raise MalformedError(f"the graph has {len(roots)} roots, expected 1")
        root = roots[0]
    return root


def _terminal(G: nx.DiGraph, n) -> bool:
    return bool(G.nodes[n].get("terminal", G.out_degree(n) == 0))


def count_lines(G: nx.DiGraph, source=None) -> int:
    """The number of distinct optimal lines (sequences of kinds of move from the root,
    or ``source``, to the end of the game), by dynamic programming over the DAG in
    reverse topological order: lines(terminal) = 1, lines(n) = sum over its children."""
    ways = _path_counts(G)
    return ways[_root(G) if source is None else source]


def _path_counts(G: nx.DiGraph) -> dict:
    ways: dict = {}
    for n in reversed(list(nx.topological_sort(G))):
        ways[n] = 1 if _terminal(G, n) else sum(ways[c] for c in G.successors(n))
    return ways


def forced_nodes(G: nx.DiGraph) -> list:
    """The positions with exactly one optimal kind of move (every node of a solution
    graph lies on some optimal line)."""
    return [n for n in G if not _terminal(G, n) and G.out_degree(n) == 1]


def forced_along(G: nx.DiGraph, state: State, actions) -> int:
    """How many positions along ``actions`` (a line from ``state``, the graph's root) have
    exactly one optimal kind of move. Raises ``MalformedError`` if the line leaves the
    graph (it is not optimal)."""
    st = state.copy()
    n = 0
    for i, a in enumerate(actions):
        key = st.key()
        if key not in G:
            raise MalformedError(f"forced_along: move {i + 1} starts from a position outside the graph")
        if not _terminal(G, key) and G.out_degree(key) == 1:
            n += 1
        st.apply(a)
    if st.key() not in G:
        raise MalformedError("forced_along: the line ends outside the graph")
    return n


def branching(G: nx.DiGraph) -> dict:
    """How the optimal lines branch: the out-degree of the positions that are not over
    (``histogram``: how many positions have 1, 2, ... optimal kinds of move), its mean
    and maximum, and the positions reached by more than one move sequence
    (``transpositions``: in-degree above 1)."""
    inner = [G.out_degree(n) for n in G if not _terminal(G, n)]
    hist = Counter(inner)
    return {
        "mean": round(sum(inner) / len(inner), 3) if inner else 0.0,
        "max": max(inner, default=0),
        "histogram": {k: hist[k] for k in sorted(hist)},
        "transpositions": sum(1 for _, d in G.in_degree() if d > 1),
    }


def forced_per_line(G: nx.DiGraph) -> tuple[int, int]:
    """The fewest and the most forced positions (one optimal kind of move) on one optimal
    line from the root, by dynamic programming over the DAG: whichever optimal line a
    player takes, they meet at least the first number of forced moves."""
    lo: dict = {}
    hi: dict = {}
    for n in reversed(list(nx.topological_sort(G))):
        if _terminal(G, n):
            lo[n] = hi[n] = 0
            continue
        f = 1 if G.out_degree(n) == 1 else 0
        lo[n] = f + min(lo[c] for c in G.successors(n))
        hi[n] = f + max(hi[c] for c in G.successors(n))
    r = _root(G)
    return lo[r], hi[r]


def summary(G: nx.DiGraph) -> dict:
    """The graph in numbers: positions, edges, terminal positions, distinct optimal
    lines, forced positions (in the graph, and the fewest/most on one line), line
    lengths, branching."""
    terminals = [n for n in G if _terminal(G, n)]
    depths = [G.nodes[n].get("depth", 0) for n in terminals]
    lo, hi = forced_per_line(G)
    return {
        "target": G.graph.get("target"),
        "nodes": G.number_of_nodes(),
        "edges": G.number_of_edges(),
        "terminal": len(terminals),
        "lines": count_lines(G),
        "forced": len(forced_nodes(G)),
        "forced_per_line": [lo, hi],
        "line_length": [min(depths, default=0), max(depths, default=0)],
        "branching": branching(G),
    }


# ---- export -----------------------------------------------------------------------------

def _flat(G: nx.DiGraph) -> nx.DiGraph:
    """A copy with nodes ``n0, n1, ...`` (by depth, then the order they were found) and
    only scalar attributes (the edge's action as a JSON string)."""
    order = sorted(G, key=lambda n: G.nodes[n].get("depth", 0))  # stable: discovery order within a depth
    names = {n: f"n{i}" for i, n in enumerate(order)}
    H = nx.DiGraph()
    for k, v in G.graph.items():  # not the build time: the same graph gives the same file
        if k != "time" and isinstance(v, (str, int, float, bool)) and not (isinstance(v, int) and abs(v) >= 1 << 63):
            H.graph[k] = v
    for n in order:
        H.add_node(names[n], **{k: v for k, v in G.nodes[n].items() if isinstance(v, (str, int, float, bool))})
    for u, v, d in G.edges(data=True):
        attrs = {k: (json.dumps(x) if isinstance(x, dict) else x) for k, x in d.items()}
        H.add_edge(names[u], names[v], **attrs)
    return H


def _dot_str(s: object) -> str:
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(G: nx.DiGraph) -> str:
    """The graph as plain Graphviz DOT text: one line per node, one per edge (``->``)."""
    H = _flat(G)
    out = ["digraph solution {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
    if "target" in H.graph:
        out.append(f"  label={_dot_str('target ' + str(H.graph['target']))};")
    for n, d in H.nodes(data=True):
        label = f"turn {d.get('turn', 0) + 1}, {d.get('to_move', '?')}\nscore {d.get('score', '?')}"
        attrs = [f"label={_dot_str(label)}"]
        attrs.append(f"depth={d.get('depth', 0)}")
        if d.get("terminal"):
            attrs.append("shape=doubleoctagon")
        out.append(f"  {n} [{', '.join(attrs)}];")
    for u, v, d in H.edges(data=True):
        attrs = [f"label={_dot_str(d.get('move', ''))}"]
        if "action" in d:
            attrs.append(f"action={_dot_str(d['action'])}")
        out.append(f"  {u} -> {v} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


def write_graph(G: nx.DiGraph, path) -> None:
    """Write the graph to ``path``: ``.graphml`` (:func:`networkx.write_graphml`; nodes
    renamed ``n0`` (the root), ``n1``, ...; each edge's action a JSON string) or ``.dot``
    (plain Graphviz text, written here: no pydot or pygraphviz needed). Another extension,
    or a file that cannot be written, raises ``MalformedError``."""
    path = Path(path)
    ext = path.suffix.lower()
    if ext not in GRAPH_FORMATS:
        raise MalformedError(f"{path}: the graph file must be .graphml or .dot")
    if ext == ".graphml":
        buf = io.BytesIO()
        nx.write_graphml(_flat(G), buf)
        write_output(str(path), buf.getvalue(), "")
    else:
        write_output(str(path), to_dot(G), "")
