"""hanab.live's suit mechanics that change when a stall or a discard is legal, on tiny
decks (tests/tinyvariants.py):

* cards no clue touches (the Null suit and kin): a stall is legal only when another
  player holds a card some clue touches;
* inverted (orange) suits: on the site a play of such a card discards it and a discard
  plays it; with any such suit a discard is legal with all tokens available.

The engine against the independent reference engine on random games (for inverted suits
the reference takes the commands a player gives, the engine what happened, as the site's
game records name it), and the search, both SAT models and CP-SAT against the brute force."""
from __future__ import annotations

import copy
import random

import pytest

from solver.encodings.cpsat import cpsat_max
from solver.encodings.sat import sat_max
from solver.game import DISCARD
from solver.portfolio import solve

from conftest import as_command
from refengine import brute_force_max
from tinyvariants import random_tiny_game

MECHANICS = ("null", "inverted")
# positions (seeds of _position) where the mechanic changes the maximum, found by scanning
# seeds 2000-2399 with the brute force (test_the_mechanic_changes_the_maximum checks each):
# the solver checks below include them, so they see the mechanic decide an answer
BITING = {"null": [2042, 2066, 2087, 2136, 2177, 2188], "inverted": [2021, 2073, 2136, 2157, 2173, 2198]}
CASES = [(m, seed) for m in MECHANICS for seed in list(range(30)) + BITING[m]]


def _position(mechanic: str, seed: int, moves: int):
    """A random tiny game walked up to ``moves`` random legal moves in (the reference
    engine alongside), redrawn until the position is not over."""
    for k in range(100):
        rng = random.Random(f"{mechanic}/{seed}/{k}")
        st, ref = random_tiny_game(rng, mechanic)
        for _ in range(rng.randint(0, moves)):
            if st.over:
                break
            a = st.apply(rng.choice(st.legal_actions()))
            ref = ref.apply(as_command(st, a))
        if not st.over:
            return st, ref
    raise AssertionError("no live position")


@pytest.mark.parametrize("mechanic", MECHANICS)
@pytest.mark.parametrize("seed", range(40))
def test_engine_agrees_with_reference(mechanic, seed):
    rng = random.Random(seed)
    st, ref = random_tiny_game(rng, mechanic, max_cards=12)
    while True:
        assert st.snapshot() == ref.snapshot() and st.over == ref.over and st.score == ref.score
        legal = st.legal_actions()
        assert sorted(as_command(st, a) for a in legal) == ref.legal_actions()
        if st.over:
            break
        a = rng.choice(legal)
        ref = ref.apply(as_command(st, a))
        st.apply(a)


def walk(mechanic: str, games: int):
    """Every position of ``games`` random tiny games of ``mechanic``, with its legal moves
    (each game then goes on by a random one)."""
    for seed in range(games):
        rng = random.Random(seed)
        st, _ = random_tiny_game(rng, mechanic, max_cards=12)
        while not st.over:
            legal = st.legal_actions()
            yield st, legal
            st.apply(rng.choice(legal))


def test_a_stall_is_refused_when_the_others_hold_only_null_cards():
    """Somewhere in these games a player has tokens and no legal clue: the rule is exercised."""
    seen = 0
    for st, legal in walk("null", 200):
        if st.clues and not any(a.is_clue for a in legal):
            seen += 1
            assert all(not st.game.touchable[o] for p, h in enumerate(st.hands) if p != st.current for o in h)
    assert seen >= 10


def test_inverted_suits_allow_a_discard_with_every_token_and_gain_none():
    seen = 0
    for st, legal in walk("inverted", 100):
        if st.clues == st.game.max_clues and st.hands[st.current]:
            discards = [a for a in legal if a.kind == DISCARD]
            assert len(discards) == len(st.hands[st.current])
            after = st.copy()
            after.apply(discards[0])
            assert after.clues == st.clues
            seen += 1
    assert seen >= 10


def assert_line_scores(st, actions, want: int) -> None:
    """``actions`` replay from ``st`` to the end of the game, scoring ``want``."""
    end = st.copy().apply_all(actions)
    assert end.over and end.score == want


@pytest.mark.parametrize("mechanic, seed", CASES)
def test_search_matches_brute_force(mechanic, seed):
    st, ref = _position(mechanic, seed, 4)
    want = brute_force_max(ref)
    for engine in ("search", "portfolio"):
        sol = solve(st, engine=engine)
        assert (sol.max_score, sol.upper_bound) == (want, want), engine
        assert_line_scores(st, sol.actions, want)


@pytest.mark.parametrize("mechanic, seed", CASES)
def test_sat_and_cpsat_match_brute_force(mechanic, seed):
    st, ref = _position(mechanic, seed, 4)
    want = brute_force_max(ref)
    for model in ("steps", "turns"):
        res = sat_max(st, model=model)
        assert (res.max_score, res.exact) == (want, True), model
        assert_line_scores(st, res.actions, want)
    res = cpsat_max(st, seed_tries=0)
    assert (res.status, res.max_score) == ("optimal", want)
    assert_line_scores(st, res.actions, want)


@pytest.mark.parametrize("mechanic, seed", [(m, seed) for m in MECHANICS for seed in BITING[m]])
def test_the_mechanic_changes_the_maximum(mechanic, seed):
    """The BITING positions: the maximum differs from the same position's without the
    mechanic (a null suit can only lower it, an inverted suit's free discard only raise it)."""
    _, ref = _position(mechanic, seed, 4)
    plain = copy.copy(ref)
    plain.variant = {k: v for k, v in ref.variant.items() if k != mechanic}
    with_it, without = brute_force_max(ref), brute_force_max(plain)
    assert with_it < without if mechanic == "null" else with_it > without
