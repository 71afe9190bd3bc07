"""The CP-SAT encoding (solver/hanabi/methods/cpsat/) against the brute-force reference engine.

Tiny custom variants, random decks, 2-3 players, every rule option, random mid-game
positions: ``cpsat_max`` must prove the maximum of ``refengine.brute_force_max``, and every
decoded line must replay in the engine to the claimed score; so must the model without its
redundant constraints and symmetry breaking, and the one-phase driver. A random legal line,
with every decision variable and counter fixed to its value along the line, must be a
solution of the model (so the model, redundant constraints included, holds every legal
line, up to the renaming of copies that ``canonical_line`` applies): on tiny variants and
on the built-in variants with 2-6 players and real hand sizes, from mid-game positions.
Hand-picked decks check the options that change the maximum (deck plays, empty clues,
stacks kept on a strikeout); late positions of the built-in variants with 2-6 players are
checked against a small exhaustive search over the engine; and CP-SAT alone decides two
hard two-player decks (tests/data/decks) as labelled.

Every case is a live position: a random position that turns out finished (or, where the
test compares maxima, with nothing left to decide) is drawn again from seeds derived from
the case's seed (``live_position``), never skipped.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from ortools.sat.python import cp_model

from solver.hanabi.methods.cpsat import (
    REDUNDANT,
    CpsatResult,
    canonical_line,
    cpsat_max,
    greedy_line,
    model_accepts,
)
from solver.hanabi.methods.cpsat.model import _Encoding
from solver.hanabi.methods.cpsat.solve import _replay
from solver.hanabi.methods.portfolio import solve
from solver.hanabi.rules import (
    DISCARD,
    PLAY,
    Action,
    Card,
    Game,
    IllegalActionError,
    Rules,
    custom_variant,
    game_from_json,
    parse_compact,
    variant_by_name,
)

from conftest import HARD_SAMPLE, as_tuple, has_choice, read_rows
from known_max import brute_force_max
from refengine import TINY_VARIANTS as TINY
from refengine import RefGame, composition


def start_both(rng: random.Random, variant: dict, players: int, deck: list) -> tuple:
    """Every rule option drawn at random from ``rng``, and the game of ``deck`` started
    under them twice: the engine's initial state and the reference game's."""
    opts: dict[str, Any] = {  # RefGame's keywords (four flags and the starting player)
        "empty_clues": rng.random() < 0.3,
        "keep_stacks_on_strikeout": rng.random() < 0.3,
        "deck_plays": rng.random() < 0.4,
        "starting_player": rng.randrange(players),
        "play_to_the_end": rng.random() < 0.3,
    }
    ref = RefGame(variant, players, deck, **opts)
    rules = Rules(custom_variant(variant), empty_clues=opts["empty_clues"], deck_plays=opts["deck_plays"],
                  strikeout_score="stacks" if opts["keep_stacks_on_strikeout"] else "zero",
                  play_to_the_end=opts["play_to_the_end"])
    game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=opts["starting_player"])
    return game.initial_state(), ref


def random_position(seed, max_moves: int = 5):
    """A random tiny game walked 0..max_moves random legal moves in: the engine state and
    the reference game at the same position."""
    rng = random.Random(seed)
    variant = rng.choice(TINY)
    size = variant["suits"] * len(variant["ranks"])
    players = rng.choice([p for p in (2, 2, 3) if p * variant["handSize"] <= size])
    deck = composition(variant)
    rng.shuffle(deck)
    state, ref = start_both(rng, variant, players, deck)
    for _ in range(rng.randrange(0, max_moves + 1)):
        if state.over:
            break
        a = state.apply(rng.choice(state.legal_actions()))
        ref = ref.apply(as_tuple(a))
    return state, ref, rng


def live_position(seed, max_moves: int = 5, *, choice: bool = False):
    """``random_position(seed)`` if that position is live (the game not over, and with
    ``choice`` something left to decide: see conftest.has_choice), else the first live
    one of ``random_position(f"{seed}/1")``, ``f"{seed}/2"``, ...: deterministic, and a
    case never tests a finished game."""
    for k in range(200):
        state, ref, rng = random_position(seed if k == 0 else f"{seed}/{k}", max_moves)
        if not state.over and (not choice or has_choice(state)):
            return state, ref, rng
    raise AssertionError(f"no live position from seed {seed!r} or 199 seeds derived from it")


def random_line(state, rng, clue_bias=0.5):
    """A random legal line from ``state`` to the end (biased towards clues and fitting
    plays, so that lines are long and score)."""
    st = state.copy()
    g = st.game
    line = []
    while not st.over:
        legal = st.legal_actions()
        clues = [a for a in legal if a.is_clue]
        fits = [a for a in legal if a.kind == PLAY and g.rank_of[a.target] == st.stacks[g.suit_of[a.target]] + 1]
        r = rng.random()
        a = (rng.choice(clues) if clues and r < clue_bias
             else rng.choice(fits) if fits and r < 0.9 else rng.choice(legal))
        line.append(st.apply(a))
    return line, st.score


def assert_replays(state, res: CpsatResult) -> None:
    """The result's line is legal from ``state``, ends the game, and scores max_score."""
    st = state.copy()
    for a in res.actions:
        st.apply(a)
    assert st.over
    assert st.score == res.max_score


@pytest.mark.parametrize("seed", range(60))
def test_maximum_matches_brute_force(seed):
    state, ref, _ = live_position(seed, choice=True)
    want = brute_force_max(ref)
    # odd seeds: the bare model, no seed line; even seeds: seeded by the greedy playouts
    res = cpsat_max(state, workers=1, seed_tries=0 if seed % 2 else 8)
    assert res.status == "optimal"
    assert res.max_score == want
    assert res.upper_bound == want
    assert_replays(state, res)


@pytest.mark.parametrize("seed", range(30))
def test_every_legal_line_is_a_solution(seed):
    """A random legal line, with every variable fixed to its value along the line (after
    canonical_line's moves), is a solution: the model does not cut legal lines."""
    state, _, rng = live_position(1000 + seed)
    line, _ = random_line(state, rng)
    assert line and model_accepts(state, line)


@pytest.mark.parametrize("seed", range(12))
def test_hint_seeds_the_model(seed):
    """The hint is the seed line; the model then holds only lines that beat it. Either
    one does (and is found) or the hint is proven optimal and returned."""
    state, ref, rng = live_position(2000 + seed, choice=True)
    line, score = random_line(state, rng)
    res = cpsat_max(state, hint=line, workers=1, seed_tries=0)
    assert res.stats["hint_score"] == res.stats["seed_score"] == score
    assert res.status == "optimal"
    assert res.max_score == res.upper_bound == brute_force_max(ref) >= score
    assert_replays(state, res)


def test_optimal_hint_is_proven_and_returned():
    """A hint that is already optimal: the model (lines beating it) is infeasible, and
    the answer is the hint's line."""
    for seed in range(3000, 3100):
        state, ref, rng = random_position(seed)
        if state.over:
            continue
        best = brute_force_max(ref)
        res0 = cpsat_max(state, workers=1, seed_tries=0)
        if res0.stats["variables"] == 0 or best == 0:
            continue
        res = cpsat_max(state, hint=res0.actions, workers=1, seed_tries=0)
        if res.stats["solved_by"] == "cpsat: no line beats the seed line":
            assert (res.status, res.max_score, res.upper_bound) == ("optimal", best, best)
            assert_replays(state, res)
            return
    pytest.fail("no position where the hint had to be proven optimal")


def test_canonical_line_keeps_the_score():
    """Full No Variant games (2-3 players) with many clues: renaming copies keeps the line
    legal, its score, and its length; in the canonical line no card is played or discarded
    while a lower-order copy of it (same suit and rank) sits unused in the same hand."""
    rng = random.Random(3)
    v = variant_by_name("No Variant")
    for players in (2, 3, 2, 3):
        cards = [Card(s, r) for s, r in v.composition()]
        rng.shuffle(cards)
        state = Game(Rules(v), players, cards).initial_state()
        line, score = random_line(state, rng, clue_bias=0.7)
        canon = canonical_line(state, line)
        st = state.copy()
        g = st.game
        for a in canon:
            hand = st.hands[st.current]
            if a.kind in (PLAY, DISCARD) and a.target in hand:
                o = a.target
                assert not [k for k in hand if k < o and (g.suit_of[k], g.rank_of[k]) == (g.suit_of[o], g.rank_of[o])]
            st.apply(a)
        assert st.over and st.score == score and len(canon) == len(line)


def test_illegal_hint_raises():
    state, _, _ = random_position(4)
    with pytest.raises(IllegalActionError):
        cpsat_max(state, hint=[Action(PLAY, 10 ** 6)])


def test_game_over_position():
    game = Game(Rules(custom_variant({"suits": 1, "ranks": [1, 2], "handSize": 1, "clueTokens": 0})), 2,
                parse_compact("r1 r2", custom_variant({"suits": 1, "ranks": [1, 2], "handSize": 1, "clueTokens": 0})))
    st = game.initial_state()
    st.apply(Action(PLAY, 0))
    st.apply(Action(PLAY, 1))
    assert st.over
    res = cpsat_max(st)
    assert (res.status, res.max_score, res.upper_bound, res.actions) == ("optimal", 2, 2, [])


# ---- options that change the maximum (decks found by brute force) ---------------------
def _tiny(spec, deck, players=2, **rules):
    v = custom_variant(spec)
    return Game(Rules(v, **rules), players, parse_compact(deck, v)).initial_state()


@pytest.mark.parametrize("deck_plays, want", [(False, 3), (True, 4)])
def test_deck_plays(deck_plays, want):
    st = _tiny({"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 1}, "r2 r1 y2 y1", deck_plays=deck_plays)
    res = cpsat_max(st, seed_tries=0)
    assert (res.status, res.max_score) == ("optimal", want)
    assert_replays(st, res)
    if deck_plays:  # the maximum needs the last card played straight from the deck
        assert Action(PLAY, 3) in res.actions


@pytest.mark.parametrize("score, want", [("zero", 0), ("stacks", 2)])
def test_strikeout_score(score, want):
    st = _tiny({"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 0, "strikes": 1}, "y1 y2 r2 r1",
               strikeout_score=score)
    res = cpsat_max(st, seed_tries=0)
    assert (res.status, res.max_score) == ("optimal", want)
    assert_replays(st, res)


# the printed end: without empty clues a move is forced after the last point; the site's
# end of game stops there and keeps the point
@pytest.mark.parametrize("empty, to_the_end, want", [(False, True, 5), (True, True, 6), (False, False, 6)])
def test_empty_clues(empty, to_the_end, want):
    st = _tiny({"suits": 3, "ranks": [1, 2, 3], "handSize": 1, "clueTokens": 1, "strikes": 1},
               "g2 r1 g1 r2 y3 r3 y1 y2 g3", empty_clues=empty, play_to_the_end=to_the_end)
    res = cpsat_max(st, seed_tries=0)
    assert (res.status, res.max_score) == ("optimal", want)
    assert_replays(st, res)


# ---- built-in variants, 2-6 players: late positions against an exhaustive search -----------
def exhaustive_max(state) -> int:
    """The maximum by plain search over the engine (clue content ignored: with full
    information a clue only spends a token), memoised on the position."""
    memo = {}

    def rec(st):
        if st.over:
            return st.score
        key = st.key()
        if key not in memo:
            best = -1
            for a in moves(st):
                st.apply(a)  # validated by the engine
                best = max(best, rec(st))
                st.pop()
            memo[key] = best
        return memo[key]

    def moves(st):
        """Every play and discard of the hand (and of the last deck card with deck plays)
        the rules allow, and one clue (every clue leads to the same position)."""
        g, hand = st.game, st.hands[st.current]
        out = [Action(PLAY, o) for o in hand]
        if g.rules.deck_plays and st.deck_left == 1:
            out.append(Action(PLAY, st.next_draw))
        if st.clues < g.max_clues:
            out.extend(Action(DISCARD, o) for o in hand)
        clue = st.first_clue()
        return out + ([clue] if clue is not None else [])

    return rec(state.copy())


@pytest.mark.parametrize("name, players", [
    ("No Variant", 2), ("6 Suits", 3), ("Black (5 Suits)", 4), ("Black (6 Suits)", 5),
    ("Rainbow (5 Suits)", 6), ("Rainbow (6 Suits)", 2), ("Multicolor (6 Suits)", 3),
])
def test_builtin_variants_late_positions(name, players):
    """A mostly greedy game (one move in five random), cut when 2 cards (1 card with 4+
    players) are left in the deck: the exhaustive search stays small."""
    rng = random.Random(name)
    v = variant_by_name(name)
    left = 2 if players <= 3 else 1
    while True:
        cards = [Card(s, r) for s, r in v.composition()]
        rng.shuffle(cards)
        state = Game(Rules(v, deck_plays=players % 2 == 0), players, cards).initial_state()
        while not state.over and state.deck_left > left:
            _, line = greedy_line(state, tries=1)
            state.apply(line[0] if rng.random() < 0.8 else rng.choice(state.legal_actions()))
        if not state.over:
            break
    res = cpsat_max(state, workers=1, seed_tries=0, timeout=60)
    assert res.status == "optimal"
    assert res.max_score == exhaustive_max(state)
    assert_replays(state, res)
    assert res.stats["variables"] > 0 and res.stats["turns"] > 0


# ---- the model's parts, one at a time ------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_bare_model_and_one_phase_agree_with_brute_force(seed):
    """Without the redundant constraints and the symmetry breaking, and with the one-phase
    driver (maximise only), the maximum is still the brute force's: the base rules alone are
    right, and the parts added for speed change no answer. Positions up to 10 random moves
    in (mid-game, final round)."""
    state, ref, _ = live_position(5000 + seed, max_moves=10, choice=True)
    want = brute_force_max(ref)
    for kw in ({"redundant": False, "symmetry": False}, {"redundant": False}, {"symmetry": False},
               {"two_phase": False}):
        res = cpsat_max(state, workers=1, seed_tries=seed % 2 * 4, **kw)
        assert (res.status, res.max_score, res.upper_bound) == ("optimal", want, want), kw
        assert_replays(state, res)


@pytest.mark.parametrize("seed", range(40))
def test_mid_game_lines_are_solutions(seed):
    """Deeper mid-game positions (up to 10 random moves in): a random legal line from there,
    every variable fixed along it, satisfies the model with its redundant constraints (hand
    capacity, pace, ranks played once, no strikeout) and the symmetry breaking."""
    state, _, rng = live_position(6000 + seed, max_moves=10)
    line, _ = random_line(state, rng, clue_bias=rng.choice([0.2, 0.5, 0.8]))
    assert line and model_accepts(state, line)


@pytest.mark.parametrize("name, players", [
    ("No Variant", 2), ("No Variant", 3), ("6 Suits", 4), ("Black (5 Suits)", 5),
    ("Rainbow (6 Suits)", 6), ("Multicolor (6 Suits)", 2),
])
def test_builtin_lines_are_solutions(name, players):
    """Real hand sizes (the hand-capacity constraint counts them), 2-6 players, positions
    from the start to the final round, with deck plays and empty clues: random legal lines
    are solutions of the model."""
    rng = random.Random(f"{name}/{players}")
    v = variant_by_name(name)
    for k in range(3):
        rules = Rules(v, deck_plays=k == 1, empty_clues=k == 2)
        for _ in range(100):  # a walk that ends the game is drawn again (from the same rng)
            cards = [Card(s, r) for s, r in v.composition()]
            rng.shuffle(cards)
            state = Game(rules, players, cards, starting_player=rng.randrange(players)).initial_state()
            for _ in range(rng.choice([0, 10, 30, 45])):
                if state.over:
                    break
                _, line = greedy_line(state, tries=1)
                state.apply(line[0] if rng.random() < 0.7 else rng.choice(state.legal_actions()))
            if not state.over:
                break
        assert not state.over, (name, players, k, "no live position in 100 walks")
        line, _ = random_line(state, rng, clue_bias=0.3)
        assert line and model_accepts(state, line), (name, players, k)


@pytest.mark.parametrize("index", [0, 7])
def test_hard_two_player_deck_decided_by_cpsat_alone(index):
    """Two decks of hard_2p.jsonl (0: unwinnable, 7: winnable; copies in tests/data/decks),
    from turn 0: CP-SAT alone finds a line of the maximum and proves it (the first phase
    settles whether 25 is reachable)."""
    d = read_rows(HARD_SAMPLE)[index]
    assert d["id"] == f"rama_hard_decks-{index}"
    state = game_from_json({"deck": d["deck"]}, d["id"], players=d["players"]).game.initial_state()
    res = cpsat_max(state, timeout=120)
    assert res.status == "optimal" and res.max_score == res.upper_bound
    assert (res.max_score == 25) == d["winnable"]
    assert res.stats["phases"][0]["target"] == 25
    assert_replays(state, res)


# ---- the counting constraints (needed cards held, pace event by event) and the domains ------
def capacity_position(seed, max_cards: int = 8):
    """A tiny game where holding cards is what limits the score: one copy of each rank
    1..m per suit (every card is needed; sometimes a spare 1), hands of 1-2 cards, 2-3
    players, the low ranks pushed towards the bottom of the deck half the time, every rule
    option at random, 0-3 careful moves in. The engine state and the reference game."""
    rng = random.Random(f"capacity/{seed}")
    while True:
        suits = rng.randint(1, 2)
        ranks = list(range(1, rng.randint(3, 5) + 1 if suits == 1 else rng.randint(2, 4) + 1))
        if rng.random() < 0.3:
            ranks.append(1)
        size = suits * len(ranks)
        players = rng.randint(2, 3)
        hand = rng.randint(1, 2)
        if size <= max_cards and players * hand < size:
            break
    variant = {"suits": suits, "ranks": sorted(ranks), "handSize": hand, "clueTokens": rng.randint(1, 3),
               "strikes": rng.randint(1, 3)}
    deck = composition(variant)
    rng.shuffle(deck)
    if rng.random() < 0.5:
        deck.sort(key=lambda c: -c[1] + rng.random() * 2.5)
    state, ref = start_both(rng, variant, players, deck)
    g = state.game
    for _ in range(rng.randrange(0, 4)):
        if state.over:
            break
        legal = state.legal_actions()
        good = [a for a in legal if a.kind == PLAY and g.rank_of[a.target] == state.stacks[g.suit_of[a.target]] + 1]
        a = state.apply(rng.choice(good) if good and rng.random() < 0.7 else rng.choice(legal))
        ref = ref.apply(as_tuple(a))
    return state, ref


def live_capacity_position(seed):
    """``capacity_position(seed)``, or the first of ``f"{seed}/1"``, ... that is live with
    something left to decide."""
    for k in range(200):
        state, ref = capacity_position(seed if k == 0 else f"{seed}/{k}")
        if not state.over and has_choice(state):
            return state, ref
    raise AssertionError(f"no live capacity position from seed {seed!r}")


# each redundant constraint alone (needed_hands counts with the capacity block's held[e, j, p])
PARTS = [[p] for p in REDUNDANT if p != "needed_hands"] + [["capacity", "needed_hands"]]


def tight_rows(state, line) -> tuple[bool, list[tuple]]:
    """The model from ``state`` with every variable fixed along ``line`` (as model_accepts
    does, symmetry breaking off) and the in_hand literals as small as they can be (each is
    forced only where its rank must be in that hand): whether it has a solution, and the
    counting constraints that the line meets with equality (name, event)."""
    _, end = _replay(state, line)
    enc = _Encoding(state, end.score, upper=end.score, symmetry=False)
    values, score = enc.line_values(line)
    assert score == end.score
    for var, value in values.items():
        enc.model.add(var == value)
    if enc.in_hand:
        enc.model.minimize(sum(enc.in_hand))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    code = solver.solve(enc.model)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, []
    return True, [(name, e) for name, e, count, room in enc.rows if solver.value(count) == room]


@pytest.mark.parametrize("seed", range(60))
def test_counting_constraints_agree_with_brute_force(seed):
    """Positions where the hands' capacity limits the score: the maximum is the brute
    force's with every redundant constraint, with each one alone, and with none; and an
    optimal line of the bare model (no redundant constraint, no symmetry breaking) is a
    solution of the full model, every variable fixed along it (the constraints never cut
    a legal line, at the scores where they bind)."""
    state, ref = live_capacity_position(seed)
    want = brute_force_max(ref)
    bare = cpsat_max(state, workers=1, seed_tries=0, redundant=False, symmetry=False)
    assert (bare.status, bare.max_score, bare.upper_bound) == ("optimal", want, want)
    for kw in [{}] + [{"redundant": part, "symmetry": False} for part in PARTS]:
        res = cpsat_max(state, workers=1, seed_tries=seed % 2 * 4, **kw)
        assert (res.status, res.max_score, res.upper_bound) == ("optimal", want, want), kw
        assert_replays(state, res)
    assert model_accepts(state, bare.actions)
    ok, _ = tight_rows(state, canonical_line(state, bare.actions))
    assert ok


def test_counting_constraints_are_tight_on_optimal_lines():
    """Not vacuous: along optimal lines of the capacity positions, the needed-cards counts
    (all hands, and hand by hand) are met with equality at many steps, and the lines are
    still solutions (so an off-by-one in a room would be caught)."""
    tight = Counter()
    for seed in range(60):
        state, _ = live_capacity_position(seed)
        res = cpsat_max(state, workers=1, seed_tries=0, redundant=False, symmetry=False)
        ok, rows = tight_rows(state, canonical_line(state, res.actions))
        assert ok, seed
        tight.update(name for name, _ in rows)
    assert tight["needed_held"] >= 20 and tight["needed_hands"] >= 20, tight


def test_perfect_lines_of_hard_winnable_decks_are_solutions():
    """The winnable decks of hard_2p's first 20 (tests/data/decks: two players, where
    holding the needed cards is what makes them hard): a perfect line (the portfolio's)
    is a solution of the model with every variable fixed along it, and along those lines
    both needed-cards counts are met with equality (the constraints bind hardest at the
    perfect score, and an off-by-one in a room would cut these lines)."""
    tight = Counter()
    decks = [d for d in read_rows(HARD_SAMPLE) if d["winnable"]]
    assert len(decks) >= 4
    for d in decks:
        state = game_from_json({"deck": d["deck"]}, d["id"], players=d["players"]).game.initial_state()
        sol = solve(state, timeout=30)
        assert sol.max_score == 25, d["id"]
        assert model_accepts(state, sol.actions), d["id"]
        ok, rows = tight_rows(state, canonical_line(state, sol.actions))
        assert ok, d["id"]
        tight.update(name for name, _ in rows)
    assert tight["needed_held"] and tight["needed_hands"], tight


@pytest.mark.parametrize("seed", range(12))
def test_first_phase_target(seed):
    """``target``: the first phase asks "can the game reach target?" instead of the cards'
    bound. Asked of best + 1 with the best line as hint (as a confirmation asks) and of a
    score below the maximum (a line is found, then beaten by the maximisation), the
    answer is still the brute force's maximum."""
    state, ref, rng = live_position(7000 + seed, choice=True)
    want = brute_force_max(ref)
    line, score = random_line(state, rng)
    for target in (score + 1, max(1, want - 1), want, want + 1):
        res = cpsat_max(state, hint=line, workers=1, seed_tries=0, target=target)
        assert (res.status, res.max_score, res.upper_bound) == ("optimal", want, want), target
        assert_replays(state, res)
        if score < want and target <= want:
            assert res.stats["phases"][0]["target"] == max(target, score + 1)
