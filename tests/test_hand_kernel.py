"""The compiled Hand search kernel against the pure one, and its loader.

1. Differential test: on random positions (seeded random deals played on by a seeded
   random legal line to a random point, mid-trick positions among them) the pure kernel
   (``solver/hand/{tables,search}.py``, the reference) and the mypyc build
   (``solver.kernel.compiled.hand``) give the same tables, canonical keys, sure-trick counts,
   legal moves, and the same searches: the same paranoid answers to random interval
   questions (for every seat), the same cooperative sets, node counts and transposition
   tables, and the same budget stops. It skips, saying why, only when the compiled kernel
   is not built (``HAND_KERNEL=compiled`` or ``HANABI_KERNEL=compiled`` makes a missing
   build an error at import instead).
2. The loader (:mod:`solver.hand.search.kernel`, through the shared
   :mod:`solver.kernel.loader`): a stale stamp makes ``auto`` pick the pure kernel and
   ``compiled`` refuse; ``pure`` is the source; ``HAND_KERNEL`` falls back to
   ``HANABI_KERNEL``; one ``BudgetExhausted``.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from solver.hand.rules import Deal, Round
from solver.hand.search import kernel
from solver.hand.search.budget import BudgetExhausted

REPO = Path(__file__).resolve().parents[1]
PURE = kernel.load("pure")
COMPILED, WHY_NOT = kernel.compiled_kernel()
needs_compiled = pytest.mark.skipif(COMPILED is None, reason=f"the compiled Hand kernel is not built: {WHY_NOT}")
NODES = 3000  # node budget of each search (deterministic: both kernels stop at the same node)


def random_position(rng: random.Random):
    """A seeded random deal after a random number of random legal cards."""
    r = Round(Deal.random(rng.randrange(10**6)))
    for _ in range(rng.randrange(8, 30)):
        r.push(rng.choice(r.legal_moves()).index)
    return r.position()


def random_question(rng: random.Random, n: int) -> int:
    """A random non-empty set of intervals ``[lo, hi]`` of ``n`` future tricks."""
    q = 0
    while not q:
        for lo in range(n + 1):
            for hi in range(lo, n + 1):
                if rng.random() < 0.15:
                    q |= PURE.dfs.interval_bit(lo, hi)
    return q


def paranoid_run(k, pos, seat: int, questions: list[int]) -> list:
    """Each question's answer, or "budget" at the node where it stopped; then the nodes
    spent and the transposition table."""
    s = k.dfs.Paranoid(list(pos.hands), seat, NODES)
    out: list = []
    for q in questions:
        try:
            out.append(s.ask(pos.leader, list(pos.table), q))
        except BudgetExhausted:
            out.append(("budget", s.nodes))
            break
    out.append(s.nodes)
    out.append(sorted((key, tuple(e)) for key, e in s.tt.items()))
    assert list(s.hands) == list(pos.hands)  # (restored after the search)
    return out


def coop_run(k, pos, budget: int) -> tuple:
    c = k.dfs.Cooperative(list(pos.hands), budget)
    try:
        got: object = c.reach(pos.leader, list(pos.table))
    except BudgetExhausted:
        got = "budget"
    return got, c.nodes, sorted((key, tuple(e)) for key, e in c.memo.items())


def _closures_by_definition(f: set, n: int) -> tuple[set, set]:
    """The up- and down-closures of a set of intervals, by their definitions."""
    valid = [(lo, hi) for lo in range(n + 1) for hi in range(lo, n + 1)]
    up = {(a, b) for a, b in valid if any(a <= lo and hi <= b for lo, hi in f)}
    down = {(a, b) for a, b in valid if any(lo <= a and b <= hi for lo, hi in f)}
    return up, down


@pytest.mark.parametrize("impl", ["pure", "compiled"])
def test_interval_closures_are_their_definitions(impl):
    """``up_closure`` / ``down_closure`` (bit twiddling over rows of bits) against the
    definitions: every single interval, every pair, and random sets, for every n."""
    k = PURE if impl == "pure" else COMPILED
    if k is None:
        pytest.skip(f"the compiled Hand kernel is not built: {WHY_NOT}")
    s = k.dfs
    rng = random.Random(7)
    for n in range(9):
        valid = [(lo, hi) for lo in range(n + 1) for hi in range(lo, n + 1)]
        assert s.IVALID[n] == sum(s.interval_bit(lo, hi) for lo, hi in valid)
        sets = [{v} for v in valid] + [{a, b} for a in valid for b in valid if a < b]
        sets += [set(rng.sample(valid, rng.randrange(len(valid) + 1))) for _ in range(200)]
        for f in sets:
            bits = sum(s.interval_bit(lo, hi) for lo, hi in f)
            up, down = _closures_by_definition(f, n)
            assert s.up_closure(bits, n) == sum(s.interval_bit(lo, hi) for lo, hi in up), (n, sorted(f))
            assert s.down_closure(bits, n) == sum(s.interval_bit(lo, hi) for lo, hi in down), (n, sorted(f))


def _suit_codes(hands) -> tuple:
    """The canonical form by its definition: per suit, the owners of its cards in play
    from the lowest up (ranks relative), the four suits sorted."""
    codes = []
    for k in range(4):
        owners = []
        for r in range(8):
            for seat, h in enumerate(hands):
                if h >> (8 * k + r) & 1:
                    owners.append(seat)
        codes.append(tuple(owners))
    return tuple(sorted(codes))


@pytest.mark.parametrize("impl", ["pure", "compiled"])
def test_canonical_keys_are_the_canonical_forms(impl):
    """Two positions get one key exactly when their suits, ranks taken relative, are the
    same up to the order of the suits: on random trick-boundary positions of every size,
    each also with its suits permuted."""
    k = PURE if impl == "pure" else COMPILED
    if k is None:
        pytest.skip(f"the compiled Hand kernel is not built: {WHY_NOT}")
    rng = random.Random(11)
    key_of: dict = {}
    form_of: dict = {}
    for _ in range(3000):
        r = Round(Deal.random(rng.randrange(10**6)))
        for _ in range(4 * rng.randrange(8)):  # trick boundaries: every seat holds n cards
            r.push(rng.choice(r.legal_moves()).index)
        hands = list(r.position().hands)
        variants = [hands]
        perm = rng.sample(range(4), 4)  # the suits permuted
        variants.append([sum(((h >> 8 * k & 255) << 8 * perm[k]) for k in range(4)) for h in hands])
        for hs in variants:
            key = k.dfs.canonical(*hs)
            form = _suit_codes(hs)
            assert key_of.setdefault(form, key) == key, form
            assert form_of.setdefault(key, form) == form, key
    assert len(key_of) > 1000


@needs_compiled
def test_the_compiled_tables_are_the_pure_ones():
    for name in ("PEXT", "REPS", "TOPRUN", "HIGH", "COUNT", "DUCK"):
        assert list(getattr(COMPILED.tables, name)) == list(getattr(PURE.tables, name)), name
    for name in ("IVALID", "ICOL", "ICONTAINS", "IRAISE", "ISPAN", "LENGTHS", "VALID"):
        assert list(getattr(COMPILED.dfs, name)) == list(getattr(PURE.dfs, name)), name


@needs_compiled
@pytest.mark.parametrize("chunk", range(4))
def test_compiled_kernel_gives_what_the_pure_one_gives(chunk):
    rng = random.Random(1000 + chunk)
    for _ in range(10):  # 40 positions in all
        pos = random_position(rng)
        h = list(pos.hands)
        for k_ in (PURE, COMPILED):
            assert isinstance(k_.dfs.canonical(*h), int)
        assert COMPILED.dfs.canonical(*h) == PURE.dfs.canonical(*h)
        allc = h[0] | h[1] | h[2] | h[3]
        for s in range(4):
            assert COMPILED.dfs.cashable(h[s], allc ^ h[s], 8) == PURE.dfs.cashable(h[s], allc ^ h[s], 8)
            assert COMPILED.dfs.can_lose_out_leading(h, s) == PURE.dfs.can_lose_out_leading(h, s)
            for i, led in ((0, -1), (1, 0), (2, 3)):
                assert COMPILED.dfs.legal_reps(h[s], i, led, allc) == PURE.dfs.legal_reps(h[s], i, led, allc)
        n = h[pos.to_move].bit_count()
        for seat in range(4):
            questions = [random_question(rng, n) for _ in range(3)]
            questions.append(PURE.dfs.IVALID[n])  # every interval at once
            assert paranoid_run(COMPILED, pos, seat, questions) == paranoid_run(PURE, pos, seat, questions)
        assert coop_run(COMPILED, pos, NODES) == coop_run(PURE, pos, NODES)


@needs_compiled
def test_compiled_kernel_stops_where_the_pure_one_stops():
    """Full deals with small budgets: both run out at the same node, with the same tables."""
    for k in range(6):
        pos = Deal.random(k).position()
        q = PURE.dfs.IVALID[8]
        for budget in (1, 50, 400):
            runs = []
            for k_ in (PURE, COMPILED):
                s = k_.dfs.Paranoid(list(pos.hands), k % 4, budget)
                with pytest.raises(BudgetExhausted):
                    s.ask(pos.leader, [], q)
                runs.append((s.nodes, sorted((key, tuple(e)) for key, e in s.tt.items())))
            assert runs[0] == runs[1]
            assert coop_run(COMPILED, pos, budget) == coop_run(PURE, pos, budget)


def test_the_kernel_in_use_is_the_one_asked_for():
    assert kernel.IMPLEMENTATION in ("pure", "compiled")
    assert kernel.Paranoid is kernel.dfs.Paranoid and kernel.REPS is kernel.tables.REPS
    value, _ = kernel.mode()
    if value == "compiled" or (value == "auto" and COMPILED is not None):
        assert kernel.IMPLEMENTATION == "compiled", kernel.NOTE
        assert kernel.dfs.__file__.endswith((".so", ".pyd"))
    else:
        assert kernel.IMPLEMENTATION == "pure" and kernel.dfs.__file__.endswith(".py")
    assert kernel.describe().startswith(f"hand kernel: {kernel.IMPLEMENTATION} (")


def test_the_analyses_use_the_loaded_kernel():
    from solver.hand.search import analyses as analysis

    assert analysis.Paranoid is kernel.Paranoid and analysis.Cooperative is kernel.Cooperative


@needs_compiled
def test_both_kernels_raise_the_one_budget_exhausted():
    pos = Deal.random(1).position()
    for k in (PURE, COMPILED):
        with pytest.raises(BudgetExhausted):
            k.dfs.Paranoid(list(pos.hands), 0, 0).ask(pos.leader, [], k.dfs.IVALID[8])
        with pytest.raises(BudgetExhausted):
            k.dfs.Cooperative(list(pos.hands), 0).reach(pos.leader, [])


@needs_compiled
def test_importing_the_compiled_module_first_says_so_not_stale():
    """``solver.kernel.compiled.hand.dfs`` imported directly imports the solver.hand package, whose
    loader then finds the compiled module half imported: ``auto`` runs the pure kernel,
    ``compiled`` refuses, and both say why (not "stale": the build is current)."""
    code = "import solver.kernel.compiled.hand.dfs; import solver.hand.search.kernel as k; print(k.NOTE)"
    for mode in ("auto", "compiled"):
        env = dict(os.environ, HAND_KERNEL=mode)
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env)
        out = res.stdout if mode == "auto" else res.stderr
        assert "solver.kernel.compiled.hand.dfs is still being imported" in out, (mode, res.stdout, res.stderr)
        assert "stale" not in out
        assert (res.returncode == 0) == (mode == "auto")
