"""Variants with cards no clue touches (hanab.live's Null suit and kin): a stall is legal
only when another player holds a card some clue touches. The engine against the
independent reference engine on random games, and the search, both SAT models and CP-SAT
against the brute force on tiny decks with a null suit (tests/nullcases.py)."""
from __future__ import annotations

import random

import pytest

from solver.encodings.cpsat import cpsat_max
from solver.encodings.sat import sat_max
from solver.portfolio import solve

from conftest import as_tuple
from nullcases import random_null_game
from refengine import brute_force_max


def _position(seed: int, moves: int):
    """A random null-suit game walked up to ``moves`` random legal moves in (the reference
    engine alongside), redrawn until the position is not over."""
    for k in range(100):
        rng = random.Random(f"{seed}/{k}")
        st, ref = random_null_game(rng)
        for _ in range(rng.randint(0, moves)):
            if st.over:
                break
            a = st.apply(rng.choice(st.legal_actions()))
            ref = ref.apply(as_tuple(a))
        if not st.over:
            return st, ref
    raise AssertionError("no live position")


@pytest.mark.parametrize("seed", range(60))
def test_engine_agrees_with_reference_on_null_suits(seed):
    rng = random.Random(seed)
    st, ref = random_null_game(rng, max_cards=12)
    while True:
        assert st.snapshot() == ref.snapshot() and st.over == ref.over and st.score == ref.score
        legal = st.legal_actions()
        assert sorted(as_tuple(a) for a in legal) == ref.legal_actions()
        if st.over:
            break
        a = rng.choice(legal)
        st.apply(a)
        ref = ref.apply(as_tuple(a))


def test_a_stall_is_refused_when_the_others_hold_only_null_cards():
    """Somewhere in these games a player has tokens and no legal clue: the rule is exercised."""
    seen = 0
    for seed in range(200):
        rng = random.Random(seed)
        st, _ = random_null_game(rng, max_cards=12)
        while not st.over:
            legal = st.legal_actions()
            if st.clues and not any(a.is_clue for a in legal):
                seen += 1
                assert all(not st.game.touchable[o] for p, h in enumerate(st.hands) if p != st.current for o in h)
            st.apply(rng.choice(legal))
    assert seen >= 10


@pytest.mark.parametrize("seed", range(40))
def test_search_matches_brute_force_on_null_suits(seed):
    st, ref = _position(seed, 4)
    want = brute_force_max(ref)
    for engine in ("search", "portfolio"):
        sol = solve(st, engine=engine)
        assert (sol.max_score, sol.upper_bound) == (want, want), engine
        end = st.copy().apply_all(sol.actions)
        assert end.over and end.score == want


@pytest.mark.parametrize("seed", range(40))
def test_sat_and_cpsat_match_brute_force_on_null_suits(seed):
    st, ref = _position(1000 + seed, 4)
    want = brute_force_max(ref)
    for model in ("steps", "turns"):
        res = sat_max(st, model=model)
        assert (res.max_score, res.exact) == (want, True), model
        end = st.copy().apply_all(res.actions)
        assert end.over and end.score == want
    res = cpsat_max(st, seed_tries=0)
    assert (res.status, res.max_score) == ("optimal", want)
    end = st.copy().apply_all(res.actions)
    assert end.over and end.score == want


def test_the_null_suit_changes_the_maximum_in_some_of_these_positions():
    """The brute-force checks above bite: in some of their positions the maximum is lower
    than it would be if a clue could touch the null cards."""
    import copy

    lower = 0
    for seed in list(range(40)) + list(range(1000, 1040)):
        _, ref = _position(seed, 4)
        touched = copy.copy(ref)
        touched.variant = {k: v for k, v in ref.variant.items() if k != "null"}
        with_null, without = brute_force_max(ref), brute_force_max(touched)
        assert with_null <= without
        lower += with_null < without
    assert lower >= 3
