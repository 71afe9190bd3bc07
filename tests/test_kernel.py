"""The compiled search kernel against the pure one, and the loader that picks between them.

1. Differential test: on random positions (seeded random decks of 2-6 players in seven
   variants, among them cards no clue touches, inverted suits and dark suits, with random
   rule options, at random turns of random games) the pure kernel
   (``solver/hanabi/search/*.py``, the reference) and the mypyc build (``solver.kernel.compiled``) give
   the same fields, transposition keys (tuples and packed bytes), bounds (quick, named,
   the late-cards/capacity pass), moves, and the same searches: the same answers, lines,
   node counts, budget stops and transposition tables, for the real game (in each child
   order) and the relaxed game, with capped and uncapped tables; and the same positions
   along random make/unmake walks.
   It skips, saying why, only when the compiled kernel is not built (``HANABI_KERNEL=compiled``,
   as CI runs, makes a missing build an error at import instead).
2. The loader (:mod:`solver.hanabi.search.kernel`): a stale stamp makes ``auto`` pick the pure
   kernel and ``compiled`` raise a clear error; ``pure`` always gives the source; a
   missing build likewise; ``HANABI_KERNEL`` in a fresh interpreter; one ``SearchTimeout``.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.errors import SearchTimeout
from solver.hanabi.rules import PLAY, Card, Game, MalformedError, Rules, game_from_json, parse_variant
from solver.hanabi.search import kernel

from conftest import HARD_SAMPLE, read_rows

REPO = Path(__file__).resolve().parents[1]
PURE = kernel.load("pure")
COMPILED, WHY_NOT = kernel.compiled_kernel()
needs_compiled = pytest.mark.skipif(COMPILED is None, reason=f"the compiled kernel is not built: {WHY_NOT}")

VARIANTS = ["No Variant", "Rainbow (6 Suits)", "Black (6 Suits)", "Null (5 Suits)", "Orange (6 Suits)",
            "Pink (5 Suits)", "Brown (5 Suits)"]
FLAGS = ("empty_clues", "deck_plays", "reserve_token", "one_extra_card", "one_less_card", "play_to_the_end")
POSITIONS = 8  # per (variant, player count): 7 x 5 x 8 = 280 positions
NODES = 400  # node budget of each search (deterministic: both kernels stop at the same node)


def random_game(rng: random.Random, variant_name: str, players: int) -> Game:
    """A seeded random deck of ``variant_name`` for ``players``, random rule options."""
    variant = parse_variant(variant_name)
    while True:
        flags = {f: rng.random() < 0.3 for f in FLAGS}
        if variant.has_inverted_suits:
            flags["deck_plays"] = False  # (the engine refuses the two together)
        deck = [Card(s, r) for s, r in variant.composition()]
        rng.shuffle(deck)
        try:
            rules = Rules(variant, strikeout_score=rng.choice(("zero", "stacks")), **flags)
            return Game(rules, players, deck, starting_player=rng.randrange(players))
        except MalformedError:  # options that contradict each other
            continue


def random_position(rng: random.Random, game: Game):
    """The state after a random number of random legal actions: good plays, discards and
    clues (a misplay now and then), so that most games are still on, many in their late
    turns, where the searches finish within the budget."""
    st = game.initial_state()
    for _ in range(rng.randrange(len(game.deck))):
        if st.over:
            break
        actions = st.legal_actions()
        good = [a for a in actions if a.kind == PLAY and st.is_playable(a.target)]
        safe = [a for a in actions if a.kind != PLAY]
        x = rng.random()
        pick = good if good and x < 0.5 else safe if safe and x < 0.97 else actions
        st.apply(rng.choice(pick))
    return st


def fields(pos) -> dict:
    """Every field of a Position (the game object aside, and quick_bound's cache, which
    depends on what was asked before: tests/test_bounds.py checks what it returns; the undo
    records as a list)."""
    names = [n for n in PURE.position.Position.__slots__ if n not in ("game", "late_memo")]
    out = {n: getattr(pos, n) for n in names}
    out["_undo"] = list(pos._undo)
    return out


def view(k, pos) -> dict:
    """What a kernel ``k`` computes of a position without searching."""
    out = {"fields": fields(pos), "key": pos.key(), "packed": k.dfs.pack_key(pos.key()),
           "hand_keys": [pos.hand_key(h) for h in pos.hands], "sort_hands": [pos.sort_hand(h) for h in pos.hands],
           "can_clue": pos.can_clue(), "quick": k.bounds.quick_bound(pos), "named": k.bounds.named_bound(pos)}
    if pos.tl < 0:
        out["late"] = k.bounds._late_plays(pos, pos.deck_len - pos.nd)
    if not pos.over:
        out["moves"] = k.dfs.Search(pos).moves()
    return out


def search(k, cls_name: str, st, targets, memo_cap, nodes: int = NODES, order: int = 0) -> dict:
    """One engine of kernel ``k`` on a fresh Position of ``st``, targets in turn (its table
    shared, as the portfolio runs it; the real game's search in child order ``order``):
    each answer or budget stop, and what it leaves."""
    pos = k.position.Position(st)
    before = fields(pos)
    cls = k.dfs.Search if cls_name == "search" else k.relaxed.RelaxedSearch
    eng = cls(pos, None, nodes, memo_cap)
    if cls_name == "search":
        eng.order = order
    runs: list[tuple[int, bool | str, list[Any] | None]] = []  # (target, answer or "budget", line)
    for t in targets:  # from the top down to the first reachable target
        try:
            ok = eng.reach(t)
        except SearchTimeout:  # (the one class both kernels raise)
            runs.append((t, "budget", None))
            break
        runs.append((t, ok, list(getattr(eng, "line", []))))
        if ok:
            break
        eng.node_limit = eng.nodes + nodes
    assert fields(pos) == before, f"{k.implementation} {cls_name}: the search left its position changed"
    return {"runs": runs, "nodes": eng.nodes, "evictions": eng.evictions, "memo": eng.memo, "old": eng._old}


def walk(rng: random.Random, st, steps: int) -> None:
    """Random make/unmake on both kernels' Positions of ``st``, compared at every step."""
    assert COMPILED is not None  # (its callers are @needs_compiled)
    p, c = PURE.position.Position(st), COMPILED.position.Position(st)
    made = 0
    for _ in range(steps):
        if p.over:
            break
        moves = PURE.dfs.Search(p).moves()
        assert moves == COMPILED.dfs.Search(c).moves()
        kind, o = rng.choice(moves)
        p.push(kind, o)
        c.push(kind, o)
        made += 1
        assert view(PURE, p) == view(COMPILED, c), f"after {made} moves"
    for _ in range(made):
        p.pop()
        c.pop()
        assert fields(p) == fields(c)
    assert fields(p) == fields(c) == fields(PURE.position.Position(st))


@needs_compiled
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_kernel_gives_what_the_pure_one_gives(variant, players):
    rng = random.Random(f"kernel {variant} {players}")
    outcomes = set()
    for i in range(POSITIONS):
        game = random_game(rng, variant, players)
        st = random_position(rng, game)
        where = f"position {i}: {variant}, {players} players, turn {st.turn}, rules {game.rules}"
        p, c = PURE.position.Position(st), COMPILED.position.Position(st)
        assert view(PURE, p) == view(COMPILED, c), where
        top = PURE.bounds.named_bound(p)[0]
        targets = [t for t in (top + 1, top, top - 1, top - 2) if t >= 0]
        cap = rng.choice((None, 8, 64))  # small caps make the tables turn over
        order = rng.choice(PURE.dfs.ORDERS)
        for engine in ("search", "relaxed"):
            want = search(PURE, engine, st, targets, cap, order=order)
            got = search(COMPILED, engine, st, targets, cap, order=order)
            assert got == want, f"{engine} (memo_cap {cap}, order {order}) differs at {where}"
            outcomes.update(str(r[1]) for r in want["runs"])
        walk(rng, st, 12)
    assert {"True", "False"} <= outcomes, outcomes  # searches that found a line, and ones that proved none


@needs_compiled
@pytest.mark.parametrize("i", [0, 5, 9, 12, 17])
def test_compiled_kernel_stops_where_the_pure_one_stops(i):
    """Whole hard two-player decks of tests/data's hard_2p sample, from the deal, 3,000 nodes
    per search: where the budget runs out (decks 0, 5, 17) both kernels stop at the same
    node with the same tables; where a line is found (9, 12), the same line."""
    row = read_rows(HARD_SAMPLE)[i]
    st = game_from_json({"deck": row["deck"]}, row["id"], players=row["players"]).game.initial_state()
    for engine in ("search", "relaxed"):
        want = search(PURE, engine, st, [25, 24, 23], None, nodes=3000)
        assert search(COMPILED, engine, st, [25, 24, 23], None, nodes=3000) == want, (engine, row["id"])


# ---- the loader ------------------------------------------------------------------------------

def test_the_kernel_in_use_is_the_one_asked_for():
    assert kernel.IMPLEMENTATION in ("pure", "compiled")
    assert kernel.Position is kernel.position.Position and kernel.Search is kernel.dfs.Search
    mode = os.environ.get("HANABI_KERNEL") or "auto"
    if mode == "compiled" or (mode == "auto" and COMPILED is not None):
        assert kernel.IMPLEMENTATION == "compiled", kernel.NOTE
        assert kernel.dfs.__file__.endswith(".so") or kernel.dfs.__file__.endswith(".pyd")
    else:
        assert kernel.IMPLEMENTATION == "pure" and kernel.dfs.__file__.endswith(".py")
    assert kernel.describe().startswith(f"search kernel: {kernel.IMPLEMENTATION} (")


@needs_compiled
def test_both_kernels_raise_the_one_search_timeout():
    from solver.errors import SearchTimeout as Shared

    assert PURE.dfs.SearchTimeout is COMPILED.dfs.SearchTimeout is Shared
    st = random_position(random.Random(3), random_game(random.Random(3), "No Variant", 2))
    for k in (PURE, COMPILED):
        for cls in (k.dfs.Search, k.relaxed.RelaxedSearch):
            with pytest.raises(Shared):
                cls(k.position.Position(st), node_limit=0).reach(25)


@pytest.mark.parametrize("mode", ["pure", "auto", "bogus"])
def test_the_environment_variable_in_a_fresh_interpreter(mode):
    code = "import solver.hanabi.search.kernel as k; print(k.IMPLEMENTATION)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, HANABI_KERNEL=mode))
    if mode == "bogus":
        assert res.returncode != 0 and "unknown HANABI_KERNEL value 'bogus'" in res.stderr
    else:
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip() == ("compiled" if mode == "auto" and COMPILED is not None else "pure")
