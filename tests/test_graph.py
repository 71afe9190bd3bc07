"""The solution graph (solver.hanabi.analysis.graph): on tiny positions it agrees with a brute force over
the engine's legal actions (every kind of move that keeps the target is an edge, and no
other; the number of optimal lines is the number of distinct move-class sequences that
reach the target; the nodes are the distinct positions along them, transpositions merged),
its budgets raise clear errors, the exports parse back, the ``hanabi puzzle graph`` command
works and fails cleanly, and the puzzles' rating reads it (the gallery's stored ratings
still follow from their stored features)."""
from __future__ import annotations

import json
import random
import re
from itertools import pairwise

import networkx as nx
import pytest

from puzzles.hanabi import analysis
from puzzles.hanabi.format import GENERATOR_VERSION, load_puzzle
from puzzles.hanabi.notation import move_class
from solver import DISCARD, PLAY, Action, Card, Game, MalformedError, Rules, solve
from solver.hanabi.analysis.graph import (
    GraphBudgetError,
    GraphTooLargeError,
    GraphUndecidedError,
    branching,
    count_lines,
    forced_along,
    forced_nodes,
    solution_graph,
    summary,
    write_graph,
)
from solver.hanabi.rules import custom_variant

from conftest import REPO, assert_clean_error, run_cli
from refengine import TINY_VARIANTS, composition

GALLERY = sorted((REPO / "docs" / "puzzles").glob("*.json"))


# ---- a brute force over the engine's legal actions ----------------------------------

def kind_of_move(st, a) -> str:
    """The kind of move, written here from its definition: every clue is one move "c";
    a play or discard is named by its card (p/d + suit letter + rank), "p#N" from the deck."""
    if a.kind not in (PLAY, DISCARD):
        return "c"
    letter = "p" if a.kind == PLAY else "d"
    if a.target not in st.hands[st.current]:
        return f"{letter}#{a.target}"
    card = st.game.deck[a.target]
    return f"{letter}{st.game.variant.suits[card.suit].letter}{card.rank}"


class Brute:
    """The maximum from a position by a plain recursion over every legal action (no
    pruning, no search code), memoised on :meth:`State.key`."""

    def __init__(self):
        self.memo: dict = {}

    def best(self, st) -> int:
        if st.over:
            return st.score
        key = st.key()
        if key not in self.memo:
            best = -1
            for a in st.legal_actions():
                st.push(a)
                best = max(best, self.best(st))
                st.pop()
            self.memo[key] = best
        return self.memo[key]

    def keeping(self, st, target: int) -> dict[str, list[int]]:
        """Per kind of move, the maximum after each legal action of that kind."""
        out: dict[str, list[int]] = {}
        for a in st.legal_actions():
            label = kind_of_move(st, a)
            st.push(a)
            out.setdefault(label, []).append(self.best(st))
            st.pop()
        return out

    def lines(self, st, target: int, memo=None) -> set[tuple[str, ...]]:
        """Every distinct sequence of kinds of move (over *all* legal actions, every copy
        and every clue) that ends the game with at least ``target``: the sequences from
        each position are the union over its legal actions (memoised on the position)."""
        memo = {} if memo is None else memo
        if st.over:
            return {()} if st.score >= target else set()
        key = st.key()
        if key not in memo:
            out: set[tuple[str, ...]] = set()
            for a in st.legal_actions():
                label = kind_of_move(st, a)
                st.push(a)
                if self.best(st) >= target:
                    out.update((label,) + rest for rest in self.lines(st, target, memo))
                st.pop()
            memo[key] = out
        return memo[key]


def tiny_state(seed: int):
    """A tiny custom-variant position: a random deal of one of refengine's tiny variants,
    random rule options, then a few random legal moves (not over)."""
    for k in range(200):
        rng = random.Random(f"graph {seed} {k}")
        variant = dict(rng.choice(TINY_VARIANTS))
        deck = composition(variant)
        rng.shuffle(deck)
        players = rng.choice([2, 2, 3]) if len(deck) >= 6 else 2
        rules = Rules(custom_variant(variant), empty_clues=rng.random() < 0.3, deck_plays=rng.random() < 0.4,
                      strikeout_score="stacks" if rng.random() < 0.3 else "zero")
        game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=rng.randrange(players))
        st = game.initial_state()
        for _ in range(rng.randrange(3)):
            if st.over:
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.over and len(st.move_classes()) >= 2:
            return st
    raise AssertionError(f"no live tiny position for seed {seed}")


def states_of(G, root_state):
    """Each node's state, replayed from the root along the edges' actions."""
    out = {G.graph["root"]: root_state.copy()}
    for u in nx.topological_sort(G):
        for v in G.successors(u):
            if v not in out:
                child = out[u].copy()
                child.apply(Action.from_json(G.edges[u, v]["action"]))
                out[v] = child
    return out


TINY_SEEDS = range(40)


@pytest.mark.parametrize("seed", TINY_SEEDS)
def test_graph_matches_brute_force(seed):
    st = tiny_state(seed)
    brute = Brute()
    top = brute.best(st.copy())
    G = solution_graph(st)
    assert G.graph["target"] == G.graph["max_score"] == top
    assert G.graph["complete"] is True
    states = states_of(G, st)
    assert set(states) == set(G)
    for key, s in states.items():
        assert s.key() == key
        d = G.nodes[key]
        assert (d["turn"], d["score"], d["player"], d["terminal"]) == (s.turn, s.score, s.current, s.over)
        assert d["depth"] == s.turn - st.turn
        if s.over:
            assert s.score >= top and G.out_degree(key) == 0
            continue
        after = brute.keeping(s.copy(), top)
        # a kind of move is one move: every action of a kind leads to the same maximum
        assert all(len(set(v)) == 1 for v in after.values()), after
        want = {label for label, v in after.items() if v[0] >= top}
        got = {G.edges[key, c]["move"] for c in G.successors(key)}
        assert got == want, (seed, s.turn, got, want)
        assert G.out_degree(key) == len(got) >= 1  # one edge per kind, no two kinds to one child
    lines = brute.lines(st.copy(), top)
    assert count_lines(G) == len(lines)
    # the nodes are the distinct positions along the optimal lines (following the first
    # action of each kind, as the graph does)
    seen = set()

    def walk(s):
        if s.key() in seen:
            return
        seen.add(s.key())
        if s.over:
            return
        for a in s.move_classes().values():
            child = s.copy()
            child.apply(a)
            if brute.best(child) >= top:
                walk(child)

    walk(st.copy())
    assert seen == set(G)


def test_tiny_sample_has_branching_and_transpositions():
    """The brute-force sample is not trivial: some graphs branch, some merge transpositions."""
    graphs = [solution_graph(tiny_state(seed)) for seed in TINY_SEEDS]
    assert any(count_lines(G) > 1 for G in graphs)
    assert any(branching(G)["transpositions"] > 0 for G in graphs)
    assert any(any(d > 1 for _, d in G.in_degree()) for G in graphs)


def test_lines_by_dynamic_programming_equal_path_enumeration():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json")
    G = solution_graph(p.position(), p.target)
    root = G.graph["root"]
    terminals = [n for n in G if G.nodes[n]["terminal"]]
    paths = sum(1 for t in terminals for _ in nx.all_simple_paths(G, root, t))
    assert count_lines(G) == paths == summary(G)["lines"] > 1


def test_transpositions_are_merged():
    """A node reached in two ways is one node: both move sequences replay to its key."""
    p = load_puzzle(REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json")
    st = p.position()
    G = solution_graph(st, p.target)
    merged = [n for n, d in G.in_degree() if d > 1]
    assert merged and branching(G)["transpositions"] == len(merged)
    node = merged[0]
    root = G.graph["root"]
    found = []
    for path in nx.all_simple_paths(G, root, node):
        cur = st.copy()
        for u, v in pairwise(path):
            cur.apply(Action.from_json(G.edges[u, v]["action"]))
        found.append([G.edges[u, v]["move"] for u, v in pairwise(path)])
        assert cur.key() == node
    assert len(found) >= 2 and len({tuple(f) for f in found}) == len(found)


# ---- the gallery --------------------------------------------------------------------

@pytest.mark.parametrize("path", GALLERY, ids=lambda p: p.stem)
def test_gallery_graphs(path):
    p = load_puzzle(path)
    st = p.position()
    G = solution_graph(st, p.target)
    s = summary(G)
    assert s["nodes"] == G.number_of_nodes() and s["edges"] == G.number_of_edges()
    assert s["lines"] >= 1 and s["terminal"] >= 1
    # the first moves are the puzzle's winning first moves
    root = G.graph["root"]
    assert sorted(G.edges[root, c]["move"] for c in G.successors(root)) == sorted(p.winning["moves"])
    # every listed solution line runs through the graph; the forced moves along the first
    # one are the positions with one winning kind of move (the decisions' only moves)
    for ln in p.lines:
        forced_along(G, st, [Action.from_json(a) for a in ln["actions"]])
    line = [Action.from_json(a) for a in p.lines[0]["actions"]]
    assert forced_along(G, st, line) == p.metadata["features"]["only_moves"]
    lo, hi = s["forced_per_line"]
    assert lo <= forced_along(G, st, line) <= hi and hi <= s["forced"] == len(forced_nodes(G))
    # the engine's move classes (the graph's edge labels) are the kinds of move, and the
    # puzzles' notation names them the same way
    assert {k: v.to_json() for k, v in st.move_classes().items()} == {
        kind_of_move(st, a): a.to_json() for a in st.move_classes().values()}
    assert all(st.move_class(a) == kind_of_move(st, a) == move_class(st, a) for a in st.legal_actions())


def test_graph_is_deterministic():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p5-t39-s2035-d8.json")
    a = solution_graph(p.position(), p.target)
    b = solution_graph(p.position(), p.target)
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.edges(data=True)) == list(b.edges(data=True))


def test_default_target_is_the_exact_maximum():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p2-t59-s2027-d270.json")
    st = p.position()
    G = solution_graph(st)
    sol = solve(st)
    assert sol.exact and G.graph["target"] == G.graph["max_score"] == sol.max_score == p.max_score
    assert count_lines(G) == count_lines(solution_graph(st, p.target))


# ---- budgets and bad input ----------------------------------------------------------

def test_graph_budget_errors():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json")
    st = p.position()
    with pytest.raises(GraphTooLargeError, match="more than 10 positions"):
        solution_graph(st, p.target, max_nodes=10)
    assert issubclass(GraphTooLargeError, ValueError) and issubclass(GraphTooLargeError, MalformedError)
    # this position needs the SAT encoding to confirm some losing moves: without it, the
    # graph is not built (never a partial graph)
    q = load_puzzle(REPO / "docs" / "puzzles" / "p2-t60-s2033-d57.json")
    with pytest.raises(GraphUndecidedError, match="not decided") as e:
        solution_graph(q.position(), q.target, sat_conflicts=0)
    assert isinstance(e.value, GraphBudgetError) and e.value.label


def test_graph_bad_input():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p2-t67-s2024-d89.json")
    st = p.position()
    with pytest.raises(MalformedError, match="not reachable"):
        solution_graph(st, p.target + 1)
    with pytest.raises(MalformedError, match="expected a Game, a State or a GameRecord, got str"):
        solution_graph("p2v0s1")
    with pytest.raises(MalformedError, match="max_nodes"):
        solution_graph(st, max_nodes=0)
    end = st.copy()
    while not end.over:
        end.apply(end.legal_actions()[0])
    with pytest.raises(MalformedError, match="over"):
        solution_graph(end)
    G = solution_graph(st, p.target)
    with pytest.raises(MalformedError, match="outside the graph"):
        forced_along(G, st, [st.legal_actions()[-1]] * 1)  # a losing first move (a clue here)


# ---- export -------------------------------------------------------------------------

def test_export_graphml_and_dot(tmp_path):
    p = load_puzzle(REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json")
    G = solution_graph(p.position(), p.target)
    gml = tmp_path / "g.graphml"
    write_graph(G, gml)
    H = nx.read_graphml(gml)
    assert H.number_of_nodes() == G.number_of_nodes() and H.number_of_edges() == G.number_of_edges()
    assert H.nodes["n0"]["depth"] == 0 and H.in_degree("n0") == 0
    assert H.graph["target"] == p.target
    assert sum(1 for _, d in H.nodes(data=True) if d["terminal"]) == summary(G)["terminal"]
    for _, _, d in H.edges(data=True):
        a = Action.from_json(json.loads(d["action"]))
        assert d["move"] and a.kind in (0, 1, 2, 3)
    assert count_lines(nx.DiGraph(H)) == count_lines(G)
    dot = tmp_path / "g.dot"
    write_graph(G, dot)
    text = dot.read_text()
    assert text.startswith("digraph solution {") and text.rstrip().endswith("}")
    assert len(re.findall(r"^  n\d+ \[", text, re.M)) == G.number_of_nodes()
    assert len(re.findall(r"^  n\d+ -> n\d+ \[", text, re.M)) == G.number_of_edges()
    assert 'label="pr' in text or 'label="c"' in text
    with pytest.raises(MalformedError, match=r"\.graphml or \.dot"):
        write_graph(G, tmp_path / "g.png")
    with pytest.raises(MalformedError, match="cannot write"):
        write_graph(G, tmp_path / "no" / "such" / "dir" / "g.dot")


# ---- the command ----------------------------------------------------------------------

def test_cli_graph(tmp_path):
    f = REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json"
    out = tmp_path / "g.graphml"
    res = run_cli("puzzle", "graph", f, "--out", out)
    assert res.exit_code == 0, (res.output, res.exception)
    assert "56 distinct optimal lines" in res.stdout
    assert "154 positions, 181 optimal moves" in res.stdout
    assert "forced moves" in res.stdout and f"wrote {out}" in res.stdout
    assert nx.read_graphml(out).number_of_nodes() == 154
    res = run_cli("puzzle", "graph", f, "--out", tmp_path / "g.dot", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert (obj["lines"], obj["nodes"], obj["edges"], obj["forced_on_solution_line"]) == (56, 154, 181, 3)
    assert (tmp_path / "g.dot").read_text().count(" -> ") == 181


def test_cli_graph_errors(tmp_path):
    f = REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json"
    assert_clean_error(run_cli("puzzle", "graph", f, "--out", tmp_path / "g.png"), "g.png", ".graphml or .dot")
    assert not (tmp_path / "g.png").exists()
    assert_clean_error(run_cli("puzzle", "graph", tmp_path / "missing.json", "--out", tmp_path / "g.dot"),
                       "missing.json", "cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text(f.read_text()[:100])
    assert_clean_error(run_cli("puzzle", "graph", bad, "--out", tmp_path / "g.dot"), "invalid JSON")
    assert_clean_error(run_cli("puzzle", "graph", f, "--out", tmp_path / "g.dot", "--max-nodes", "5"),
                       "too large", "more than 5 positions")
    res = run_cli("puzzle", "graph", f)
    assert res.exit_code == 2 and "--out" in res.output


# ---- the rating --------------------------------------------------------------------------

OLD_PUZZLE = REPO / "tests" / "data" / "puzzle_generator_1_1.json"


@pytest.mark.parametrize("path", GALLERY + [OLD_PUZZLE], ids=lambda p: p.stem)
def test_gallery_ratings_still_follow_from_their_features(path):
    """The gallery's ratings follow from their features; puzzles of earlier generator
    versions (no graph features) keep theirs: the rating without ``lines`` is the formula
    they were rated with."""
    p = load_puzzle(path)
    md = p.metadata
    if path == OLD_PUZZLE:
        assert md["generator"] == "puzzles 1.1" != GENERATOR_VERSION
        assert "lines" not in md["features"] and analysis.graph_term(md["features"]) == 0.0
    else:
        assert md["generator"] == GENERATOR_VERSION
    assert analysis.rating(md["features"]) == md["rating"]
    assert analysis.difficulty(md["rating"]) == md["difficulty"]


def test_graph_features():
    p = load_puzzle(REPO / "docs" / "puzzles" / "p3-t48-s2025-d65.json")
    st = p.position()
    f = analysis.graph_features(st, p.target, analysis.GENERATOR_LIMITS)
    assert f == {k: p.metadata["features"][k] for k in f}  # as the generator stored them
    assert f["lines"] > 1 and f["graph_nodes"] > f["lines"]
    old = {k: v for k, v in p.metadata["features"].items() if k not in f}
    new = dict(old, **f)
    assert analysis.rating(new) != analysis.rating(old)
    # a graph over the cap degrades to None, and the rating then ignores it
    small = analysis.graph_features(st, p.target, analysis.GENERATOR_LIMITS, max_nodes=10)
    assert small == {"lines": None, "forced": None, "graph_nodes": None}
    assert analysis.rating(dict(old, **small)) == analysis.rating(old)


def test_generated_puzzles_carry_graph_features():
    """New puzzles (this generator version) store the graph's features, rated with them;
    the features are the same when recomputed (the graph's budgets are counts)."""
    from puzzles.hanabi.generate import Config, generate

    ps, _ = generate(Config(count=2, seed=3))
    for p in ps:
        md = p.metadata
        assert md["generator"] == GENERATOR_VERSION
        f = md["features"]
        assert {"lines", "forced", "graph_nodes"} <= set(f)
        assert md["rating"] == analysis.rating(f) and md["difficulty"] == analysis.difficulty(md["rating"])
        again = analysis.graph_features(p.position(), p.target, analysis.GENERATOR_LIMITS)
        assert again == {k: f[k] for k in again}
        if f["lines"] is not None:
            G = solution_graph(p.position(), p.target)
            assert count_lines(G) == f["lines"] and G.number_of_nodes() == f["graph_nodes"]
