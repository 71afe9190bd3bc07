"""The package-level API, the error vocabulary, the layering of the packages, and the
engine's card queries (the one place each query is written)."""
from __future__ import annotations

import ast
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import solver
from solver.hanabi.rules import Card, support

REPO = Path(__file__).resolve().parents[1]


# ---- the public API ---------------------------------------------------------------

def test_package_exports_what_a_user_needs():
    for name in ("solve", "Solution", "Proof", "Game", "State", "Rules", "Variant", "load_file", "game_from_json",
                 "game_from_seed", "MalformedError", "IllegalActionError", "UnknownOptionError", "SolverError",
                 "MethodsDisagreeError", "EncodingError", "find_line", "greedy_line", "solution_graph", "write_graph"):
        assert name in solver.__all__, name
        assert getattr(solver, name) is not None
    assert callable(solver.solve) and not isinstance(solver.solve, type(solver))  # a function, not a module
    assert set(solver.__all__) <= set(dir(solver))


def test_solve_from_the_package_in_a_fresh_interpreter():
    code = ("import solver; s = solver.solve(solver.game_from_seed('p3v0s1')); "
            "print(s.max_score, s.exact, s.proof.kind)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["25", "True", "perfect"]


def test_solve_rejects_what_is_not_a_position():
    with pytest.raises(solver.MalformedError, match="expected a Game, a State or a GameRecord, got str"):
        solver.solve("p3v0s1")
    with pytest.raises(solver.MalformedError, match="timeout must be 0 or more"):
        solver.solve(solver.game_from_seed("p3v0s1"), timeout=-1)
    for too_long in (float("inf"), 1e30, solver.MAX_TIMEOUT * 2):  # the SAT timer overflowed (found by fuzzing)
        with pytest.raises(solver.MalformedError, match="timeout must be at most"):
            solver.solve(solver.game_from_seed("p3v0s1"), timeout=too_long)


def test_what_a_loader_returns_is_what_the_solvers_take(tmp_path):
    """One way in: a loader's GameRecord goes straight to every public function that takes
    a game, and means the game from the start (as its Game does)."""
    import json

    from solver.hanabi.chances import chances
    from solver.hanabi.rules import as_state

    game = solver.game_from_seed("p3v0s1")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(solver.game_to_json(game)))
    rec = solver.load_file(path)
    assert isinstance(rec, solver.GameRecord) and rec.game.deck == game.deck
    assert as_state(rec, "x").key() == as_state(game, "x").key() == game.initial_state().key()
    assert solver.solve(rec).max_score == solver.solve(game).max_score == 25
    assert solver.greedy_line(rec) == solver.greedy_line(game) == solver.greedy_line(game.initial_state())
    line = solver.find_line(rec, 25)
    assert line is not None and solver.replay(game, line).score == 25
    for call, name in ((solver.find_line, "find_line"), (chances, "chances"), (solver.greedy_line, "greedy_line"),
                       (solver.solution_graph, "solution_graph")):
        with pytest.raises(solver.MalformedError, match=f"{name}: expected a Game, a State or a GameRecord, got int"):
            call(3, 25)


# ---- one error vocabulary -------------------------------------------------------------

def test_unknown_options_are_value_errors_naming_the_choices():
    game = solver.game_from_seed("p2v0s1")
    with pytest.raises(solver.UnknownOptionError, match=r"unknown engine 'fast' \(one of portfolio, search"):
        solver.solve(game, engine="fast")
    from solver.hanabi.methods.sat import sat_reachable

    with pytest.raises(solver.UnknownOptionError, match="unknown SAT solver 'zchaff'"):
        sat_reachable(game.initial_state(), 25, solver="zchaff")
    with pytest.raises(solver.UnknownOptionError, match="unknown SAT model 'cubes'"):
        sat_reachable(game.initial_state(), 25, model="cubes")
    assert issubclass(solver.UnknownOptionError, solver.MalformedError)
    assert issubclass(solver.MalformedError, ValueError) and issubclass(solver.IllegalActionError, ValueError)
    assert issubclass(solver.MethodsDisagreeError, solver.SolverError)
    assert issubclass(solver.EncodingError, solver.SolverError)
    assert not issubclass(solver.SolverError, ValueError)


def test_internal_errors_name_the_deck_and_the_method():
    st = solver.game_from_seed("p2v0s1").initial_state()
    e = solver.MethodsDisagreeError(24, "the search", {"sat", "cpsat"}, deck=support.deck_text(st))
    assert "the search reaches 24, cpsat, sat proved it unreachable" in str(e)
    assert "No Variant" in str(e) and e.deck.startswith("2p No Variant: ") and e.method == "the search"
    enc = solver.EncodingError("decode: event 3 uses 2 cards", deck="2p x", method="sat steps")
    assert str(enc) == "decode: event 3 uses 2 cards (method sat steps; deck 2p x)"


def test_methods_that_disagree_raise_instead_of_reporting(monkeypatch):
    """If a method 'proves' a score unreachable that a line reaches, the portfolio refuses
    to answer: it raises MethodsDisagreeError naming the deck."""
    from solver.hanabi.methods import run as portfolio_run

    game = solver.game_from_seed("p3v0s1")  # winnable: the search reaches 25
    run = portfolio_run.Run(game.initial_state(), None, None, use_sat=False)
    run.best = run.upper = 24  # pretend the best line scores 24 and a method proved 25 out of reach
    run.unreachable[25] = {"relaxed"}
    with pytest.raises(solver.MethodsDisagreeError, match="the search reaches 25") as info:
        run.result(confirm=True)
    assert info.value.target == 25 and "p3v0s1" not in str(info.value) and "3p No Variant" in str(info.value)


def test_cli_reports_an_internal_error_in_one_line_with_exit_code_3(monkeypatch):
    from click.testing import CliRunner

    from cli.hanabi import hanabi
    from solver.hanabi.methods import portfolio

    def broken(*a, **k):
        raise solver.EncodingError("decoded line scores 3, objective 4", deck="3p No Variant: r1 ...", method="cpsat")

    monkeypatch.setattr(portfolio, "solve", broken)
    res = CliRunner().invoke(hanabi, ["solve", "--seed", "p3v0s1"])
    assert res.exit_code == 3
    assert res.output.strip().splitlines() == [
        "error: internal error (please report it): decoded line scores 3, objective 4 "
        "(method cpsat; deck 3p No Variant: r1 ...)"]


# ---- habits -----------------------------------------------------------------------------

def test_no_assert_as_validation():
    for pkg in ("solver", "puzzles", "cli"):
        for path in (REPO / pkg).rglob("*.py"):
            tree = ast.parse(path.read_text())
            asserts = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assert)]
            assert not asserts, f"{path.relative_to(REPO)}: assert at lines {asserts}"
            raises = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.exc is not None
                      and isinstance(getattr(n.exc, "func", None), ast.Name)
                      and n.exc.func.id in ("RuntimeError", "AssertionError")]
            assert not raises, f"{path.relative_to(REPO)}: bare RuntimeError/AssertionError at lines {raises}"


# ---- State like Board ---------------------------------------------------------------------

def _random_move(st, rng: random.Random):
    """A random legal action, a misplay only one time in ten (so games last)."""
    acts = st.legal_actions()
    safe = [a for a in acts if not (a.kind == solver.PLAY and not st.is_playable(a.target))]
    return rng.choice(safe if safe and rng.random() < 0.9 else acts)


def _random_positions(count: int, seed: int = 1):
    """Positions of random games (seeded; mostly live, some finished), every player count."""
    rng = random.Random(seed)
    for k in range(count):
        n = 2 + k % 5
        st = solver.game_from_seed(f"p{n}v{(0, 1, 2, 16)[k % 4]}s{k + 1}").initial_state()
        for _ in range(rng.randrange(0, 70)):
            if st.over:
                break
            st.apply(_random_move(st, rng))
        yield st


def test_state_is_not_hashable_but_has_a_key():
    st = solver.game_from_seed("p2v0s1").initial_state()
    with pytest.raises(TypeError):
        hash(st)
    k = st.key()
    st.apply(st.legal_actions()[0])
    assert st.key() != k
    st.pop()
    assert st.key() == k and {k: 1}[st.key()] == 1


def test_history_and_pop_return_the_actions():
    st = solver.game_from_seed("p3v0s5").initial_state()
    rng = random.Random(5)
    done = []
    for _ in range(40):
        done.append(st.apply(_random_move(st, rng)))
    assert st.history == done and st.turn == len(done)
    copy = st.copy()
    assert copy.history == done and copy.history is not st.history
    for a in reversed(done):
        assert st.pop() == a
    assert st.history == [] and st.key() == solver.game_from_seed("p3v0s5").initial_state().key()
    with pytest.raises(solver.IllegalActionError, match="no action to undo"):
        st.pop()


def test_card_queries_agree_with_their_definitions():
    """reach / max_reachable / is_trash / is_playable / is_critical / copies_left /
    first_clue, each against a direct reading of its definition."""
    checked = 0
    for st in _random_positions(120):
        g = st.game
        discarded = Counter(g.deck[o] for o in st.discards)
        reach = st.reach()
        for s, suit in enumerate(g.variant.suits):
            # hanab.live's definition: climb while some copy of the next rank is not discarded
            r = st.stacks[s]
            while r < suit.max_rank and suit.ranks.count(r + 1) > discarded[Card(s, r + 1)]:
                r += 1
            assert reach[s] == r
        assert st.max_reachable() == sum(reach)
        left = st.copies_left()
        assert sum(left.values()) == sum(len(h) for h in st.hands) + st.deck_left
        for o in [o for h in st.hands for o in h] + list(range(st.next_draw, len(g.deck))):
            s, r = g.suit_of[o], g.rank_of[o]
            assert st.is_playable(o) == (r == st.stacks[s] + 1)
            assert st.is_trash(o) == (r <= st.stacks[s] or r > reach[s])
            assert st.is_critical(o) == (not st.is_trash(o) and left[g.deck[o]] == 1)
        clues = [a for a in st.legal_actions() if a.is_clue]
        assert st.first_clue() == (clues[0] if clues else None)
        checked += not st.over
    assert checked >= 60  # most positions are live


def test_one_greedy_strategy():
    """The portfolio's first line, CP-SAT's seed line and the puzzles' greedy are the same
    strategy: solver.hanabi.methods.strategy."""
    from puzzles.hanabi import analysis
    from solver.hanabi.methods import cpsat
    from solver.hanabi.methods.run import fallback_line

    for st in _random_positions(30, seed=2):
        if st.over:
            continue
        line, score = solver.greedy_line(st)
        assert fallback_line(st) == (line, score)
        assert analysis.greedy_line(st) == (line, score)
        assert cpsat.greedy_line(st, tries=1) == (score, line)
        assert solver.replay(st.game, st.history + line).score == score
        assert cpsat.greedy_line(st, tries=8)[0] >= score
