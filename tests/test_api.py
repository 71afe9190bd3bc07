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
from solver import errors
from solver.game import Card

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
    with pytest.raises(solver.MalformedError, match="expected a Game or a State, got str"):
        solver.solve("p3v0s1")
    with pytest.raises(solver.MalformedError, match="timeout must be 0 or more"):
        solver.solve(solver.game_from_seed("p3v0s1"), timeout=-1)
    for too_long in (float("inf"), 1e30, solver.MAX_TIMEOUT * 2):  # the SAT timer overflowed (found by fuzzing)
        with pytest.raises(solver.MalformedError, match="timeout must be at most"):
            solver.solve(solver.game_from_seed("p3v0s1"), timeout=too_long)


# ---- one error vocabulary -------------------------------------------------------------

def test_unknown_options_are_value_errors_naming_the_choices():
    game = solver.game_from_seed("p2v0s1")
    with pytest.raises(solver.UnknownOptionError, match=r"unknown engine 'fast' \(one of portfolio, search"):
        solver.solve(game, engine="fast")
    from solver.encodings.sat import sat_reachable

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
    e = solver.MethodsDisagreeError(24, "the search", {"sat", "cpsat"}, deck=errors.deck_text(st))
    assert "the search reaches 24, cpsat, sat proved it unreachable" in str(e)
    assert "No Variant" in str(e) and e.deck.startswith("2p No Variant: ") and e.method == "the search"
    enc = solver.EncodingError("decode: event 3 uses 2 cards", deck="2p x", method="sat steps")
    assert str(enc) == "decode: event 3 uses 2 cards (method sat steps; deck 2p x)"


def test_methods_that_disagree_raise_instead_of_reporting(monkeypatch):
    """If a method 'proves' a score unreachable that a line reaches, the portfolio refuses
    to answer: it raises MethodsDisagreeError naming the deck."""
    from solver import portfolio

    game = solver.game_from_seed("p3v0s1")  # winnable: the search reaches 25
    run = portfolio._Run(game.initial_state(), None, None, use_sat=False)
    run.best = run.upper = 24  # pretend the best line scores 24 and a method proved 25 out of reach
    run.unreachable[25] = {"relaxed"}
    with pytest.raises(solver.MethodsDisagreeError, match="the search reaches 25") as info:
        run.result(confirm=True)
    assert info.value.target == 25 and "p3v0s1" not in str(info.value) and "3p No Variant" in str(info.value)


def test_cli_reports_an_internal_error_in_one_line_with_exit_code_3(monkeypatch):
    from click.testing import CliRunner

    from hanabi_cli import hanabi
    from solver import portfolio

    def broken(*a, **k):
        raise solver.EncodingError("decoded line scores 3, objective 4", deck="3p No Variant: r1 ...", method="cpsat")

    monkeypatch.setattr(portfolio, "solve", broken)
    res = CliRunner().invoke(hanabi, ["solve", "--seed", "p3v0s1"])
    assert res.exit_code == 3
    assert res.output.strip().splitlines() == [
        "error: internal error (please report it): decoded line scores 3, objective 4 "
        "(method cpsat; deck 3p No Variant: r1 ...)"]


# ---- layering --------------------------------------------------------------------------

def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_the_library_never_imports_the_application():
    for path in (REPO / "solver").rglob("*.py"):
        bad = {m for m in _imports(path) if m.split(".")[0] in ("puzzles", "hanabi_cli", "hand_cli")}
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"
    # and at run time: importing every library module loads no puzzle module (solver._kernel
    # is the generated build of the kernels, loaded through their loaders: imported first on
    # its own, the compiled Hand module meets its loader half-initialised)
    code = ("import pkgutil, importlib, sys, solver\n"
            "for m in pkgutil.walk_packages(solver.__path__, 'solver.'):\n"
            "    if not m.name.startswith('solver._kernel'):\n"
            "        importlib.import_module(m.name)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('puzzles', 'hanabi_cli', 'hand_cli')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert out.strip() == "[]"


def _project_imports(path: Path) -> set[str]:
    """The project modules ``path`` imports, relative imports resolved (``from ...game
    import X`` in solver/encodings/sat/steps.py: ``solver.game``)."""
    package = path.relative_to(REPO).with_suffix("").parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            out.add(".".join(base + ([node.module] if node.module else [])))
    return {m for m in out if m.split(".")[0] == "solver"}


def test_the_encodings_import_only_the_rules_engine():
    """The SAT and CP-SAT encodings are witnesses independent of the search: within the
    project they import only the rules engine and the small modules built on it alone."""
    allowed = ("solver.game", "solver.errors", "solver.support", "solver.strategy", "solver.encodings")
    paths = sorted((REPO / "solver" / "encodings").rglob("*.py"))
    assert len(paths) >= 10, paths  # the two packages' modules
    for path in paths:
        bad = {m for m in _project_imports(path) if not m.startswith(allowed)}
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"
    for helper in ("errors", "support", "strategy"):  # and those import only the rules engine
        bad = {m for m in _project_imports(REPO / "solver" / f"{helper}.py")
               if not m.startswith(("solver.game", "solver.errors"))}
        assert not bad, f"solver/{helper}.py imports {bad}"


def test_the_rules_engine_imports_nothing_else():
    for path in (REPO / "solver" / "game").glob("*.py"):
        bad = {m for m in _imports(path) if m.split(".")[0] in ("solver", "puzzles", "hanabi_cli")}
        assert not bad, f"{path.relative_to(REPO)} imports {bad}"


def test_puzzles_use_only_the_public_api():
    for path in (REPO / "puzzles").glob("*.py"):
        text = path.read_text()
        for m in _imports(path):
            if m.startswith("solver"):
                assert m.split(".")[1:2] in ([], ["game"], ["graph"], ["errors"], ["chances"],
                                             *[[n] for n in solver.__all__]), \
                    f"{path.name} imports {m}: only solver and its public modules game, graph, errors, chances"
                assert not m.split(".")[-1].startswith("_"), f"{path.name} imports a private name {m}"
        tree = ast.parse(text)
        for node in ast.walk(tree):  # no private attribute of another module, e.g. analysis._copies_left
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                assert isinstance(node.value, ast.Name) and node.value.id == "self", \
                    f"{path.name}:{node.lineno} uses the private name {node.attr}"


def test_no_assert_as_validation():
    for pkg in ("solver", "puzzles", "hanabi_cli"):
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
    strategy: solver.strategy."""
    from puzzles import analysis
    from solver.encodings import cpsat
    from solver.portfolio import _fallback_line

    for st in _random_positions(30, seed=2):
        if st.over:
            continue
        line, score = solver.greedy_line(st)
        assert _fallback_line(st) == (line, score)
        assert analysis.greedy_line(st) == (line, score)
        assert cpsat.greedy_line(st, tries=1) == (score, line)
        assert solver.replay(st.game, st.history + line).score == score
        assert cpsat.greedy_line(st, tries=8)[0] >= score
