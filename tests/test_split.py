"""Up or Down and Sudoku solved as ordinary games with fixed stacks (solver.hanabi.methods.split,
solver.hanabi.methods.splitsolve): the fixings, the heights and guards against the real engine's rules
on hanab.live deals, and solve() on real seeds (the brute-force checks on tiny games are
in test_suit_mechanics.py)."""
from __future__ import annotations

import random

import pytest

from solver import find_line, solve
from solver.hanabi.methods import split
from solver.hanabi.rules import DISCARD, PLAY, Action, Card, Game, MalformedError, game_from_seed, updown
from solver.hanabi.rules.variant import START_RANK

UOD, SUDOKU, SUDOKU4 = "Up or Down (5 Suits)", "Sudoku (5 Suits)", "Sudoku (4 Suits)"
VID = {UOD: 24, SUDOKU: 2072, SUDOKU4: 2092}  # their hanab.live ids


def deal(name: str, players: int = 3, seed: int = 1):
    return game_from_seed(f"p{players}v{VID[name]}s{seed}")


def test_fixings_at_the_deal_and_once_stacks_have_gone_a_way():
    assert len(split.fixings(deal(UOD).initial_state())) == 32
    assert len(split.fixings(deal(SUDOKU).initial_state())) == 120
    assert len(split.fixings(deal(SUDOKU4).initial_state())) == 24
    st = deal(UOD).initial_state()
    st.directions[0], st.stacks[0] = updown.DOWN, 2
    assert {f[0] for f in split.fixings(st)} == {updown.DOWN} and len(split.fixings(st)) == 16
    st = deal(SUDOKU).initial_state()
    st.starts[1], st.stacks[1] = 4, 1
    fx = split.fixings(st)
    assert len(fx) == 24 and all(f[1] == 4 and 4 not in f[:1] + f[2:] for f in fx)


def test_heights_read_the_ranks_the_way_the_stack_goes():
    g = deal(UOD)
    up, down = (updown.UP,) * 5, (updown.DOWN,) * 5
    for o, c in enumerate(g.deck):
        want_up = 1 if c.rank == START_RANK else c.rank
        want_down = 1 if c.rank == START_RANK else 6 - c.rank
        assert split.heights(g, up)[o] == want_up and split.heights(g, down)[o] == want_down
    g = deal(SUDOKU)
    h = split.heights(g, (3, 1, 2, 5, 4))
    for o, c in enumerate(g.deck):
        assert h[o] == (c.rank - (3, 1, 2, 5, 4)[c.suit]) % 5 + 1  # 3 4 5 1 2 for a stack from 3


@pytest.mark.parametrize("name", [UOD, SUDOKU, SUDOKU4])
def test_a_fixed_game_plays_what_the_real_one_does_and_guards_the_rest(name):
    """Along random games, for every fixing consistent with the position and every card:
    a play in the fixed game is a play in the real one; a real play the fixed game would
    misplay is guarded; in Sudoku a guarded card is always a real play (exact guards)."""
    seen = {"guarded": 0, "fixed play": 0}
    for seed in range(1, 9):
        rng = random.Random(seed)
        st = deal(name, 3, seed).initial_state()
        while not st.over:
            for f in split.fixings(st):
                fs = split.fixed_state(st, f)
                for o in st.hands[st.current]:
                    real, fixed, guarded = st.is_playable(o), fs.is_playable(o), fs.misplay_guarded(o)
                    assert not fixed or real
                    assert not (real and not fixed) or guarded
                    if st.game.sudoku:
                        assert not guarded or real
                    seen["guarded"] += guarded
                    seen["fixed play"] += fixed
            legal = st.legal_actions()
            plays = [a for a in legal if a.kind == PLAY and st.is_playable(a.target)]
            st.apply(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    assert min(seen.values()) >= 20, seen


def test_a_guarded_misplay_is_refused_by_the_fixed_engine_saying_why():
    st = deal(SUDOKU).initial_state()
    fs = split.fixed_state(st, (1, 2, 3, 4, 5))
    o = next(o for o in st.hands[0] if fs.misplay_guarded(o))
    with pytest.raises(ValueError, match="a misplay here is not allowed in this game with fixed stacks"):
        fs.apply(Action(PLAY, o))
    assert Action(PLAY, o) not in fs.legal_actions()
    with pytest.raises(MalformedError, match="outside 1..5"):
        st.game.with_heights([9] * len(st.game.deck))


@pytest.mark.parametrize("seed, players, name", [(1, 3, UOD), (2, 2, UOD), (2, 3, SUDOKU), (3, 4, SUDOKU4)])
def test_real_seeds_are_solved_and_their_lines_replay(seed, players, name):
    g = deal(name, players, seed)
    sol = solve(g, timeout=10)
    assert sol.exact and sol.max_score == sol.upper_bound == g.perfect_score
    end = g.initial_state().apply_all(sol.actions)
    assert end.over and end.score == sol.max_score
    line = find_line(g.initial_state(), g.perfect_score, node_limit=200_000)
    assert line is not None and g.initial_state().apply_all(line).score == g.perfect_score


def test_a_lost_suit_is_bounded_in_every_fixing():
    """Up or Down with red's 1 and 5 discarded: red can still be started by its START card
    either way, and stops one short (no 5 going up, no 1 going down); every one of the 32
    fixings is bounded by 24 by its named bound, and the line reaches 24."""
    dealt = deal(UOD)
    first = [Card(0, 1), Card(0, 5)]  # the red 1 and 5 first: Alice holds them
    rest = list(dealt.deck)
    for c in first:
        rest.remove(c)
    g = Game(dealt.rules, 3, first + rest)
    st = g.initial_state()
    for _ in range(3):  # a clue each, then Alice discards the red 1; two clues, the red 5
        st.apply(st.first_clue())
    st.apply(Action(DISCARD, 0))
    st.apply(st.first_clue())
    st.apply(st.first_clue())
    st.apply(Action(DISCARD, 1))
    assert st.discards == [0, 1] and st.max_reachable() == 24
    sol = solve(st, timeout=10)
    assert (sol.max_score, sol.upper_bound, sol.exact) == (24, 24, True)
    assert sol.proof.kind == "split" and "the 32 ways" in sol.proof.reason and "32 by a named bound" in sol.proof.reason
    end = st.copy().apply_all(sol.actions)
    assert end.over and end.score == 24
