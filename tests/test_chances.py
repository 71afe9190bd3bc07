"""Endgame chances (solver.hanabi.chances) against the truth: a brute force over every draw
(chance_oracle.py, the engine alone), the deck-known solver over every order of the pile,
closed forms and invariants."""
from __future__ import annotations

import itertools
import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from chance_oracle import ChanceOracle  # noqa: E402
from test_solve import random_case, random_prefix  # noqa: E402

import solver  # noqa: E402
from solver.errors import MalformedError, UnknownOptionError  # noqa: E402
from solver.hanabi.analysis.review import review  # noqa: E402
from solver.hanabi.chances import chances, unsupported_reason  # noqa: E402
from solver.hanabi.chances.build import position_of  # noqa: E402
from solver.hanabi.chances.kernel import ChanceSearch  # noqa: E402
from solver.hanabi.rules import Card, Game, Rules, State, custom_variant, replay  # noqa: E402

from conftest import DATA, assert_clean_error, real_game_files, run_cli  # noqa: E402
from tinyvariants import random_tiny_game  # noqa: E402

MECHANICS = ("null", "inverted", "starved", "hole", "reversed")


def endgame(seed: int, *, mechanic: str | None = None, max_left: int = 5) -> State:
    """A random tiny game the chance search takes, some moves in, not over."""
    rng = random.Random(seed)
    while True:
        if mechanic is None:
            case = random_case(rng, max_cards=9)
            state, _ = case.positions()
        else:
            state, _ = random_tiny_game(rng, mechanic, max_cards=9)
            if unsupported_reason(state.game):
                continue
        random_prefix(rng, state, stop_deck_left=rng.randint(0, max_left))
        if not state.over:
            return state


def value_of(count) -> Fraction:
    assert count is not None and count.exact
    return count.value


def check_against_oracle(state: State, objective: str, target: int | None) -> None:
    r = chances(state, target=target, objective=objective, clairvoyant=False)
    oracle = ChanceOracle(r.target, objective)
    truth = oracle.moves(state)
    grouped = [a for m in r.moves for a in m.actions]
    assert sorted(grouped, key=repr) == sorted(truth, key=repr), "every legal action in exactly one group"
    for m in r.moves:
        got = value_of(m.win if objective == "win" else m.score)
        for a in m.actions:
            assert truth[a] == got, (m.text, a)
    root = r.win if objective == "win" else r.score
    assert value_of(root) == max(truth.values())
    assert r.best and all(value_of(m.win if objective == "win" else m.score) == max(truth.values()) for m in r.best)


@pytest.mark.parametrize("seed", range(60))
def test_every_move_matches_the_brute_force(seed):
    rng = random.Random(1000 + seed)
    state = endgame(seed, max_left=4)
    objective = rng.choice(["win", "score"])
    target = rng.randint(state.score, max(state.score, state.max_reachable())) if objective == "win" else None
    check_against_oracle(state, objective, target)


@pytest.mark.parametrize("mechanic,seed", [(m, s) for m in MECHANICS for s in range(8)])
def test_site_mechanics_match_the_brute_force(mechanic, seed):
    state = endgame(seed, mechanic=mechanic)
    objective = "win" if seed % 2 else "score"
    check_against_oracle(state, objective, None)


def clairvoyant_by_solve(state: State, target: int, objective: str) -> Fraction:
    """The mean over every order of the pile of the deck-known maximum (solver.solve)."""
    g = state.game
    pile = list(g.deck[state.next_draw:])
    total = Fraction(0)
    orders = list(itertools.permutations(range(len(pile))))
    for perm in orders:
        deck = list(g.deck[:state.next_draw]) + [pile[i] for i in perm]
        g2 = Game(g.rules, g.num_players, deck, names=g.names, starting_player=g.starting_player)
        sol = solver.solve(replay(g2, state.history), timeout=30)
        assert sol.exact
        total += (1 if sol.max_score >= target else 0) if objective == "win" else sol.max_score
    return total / len(orders)


@pytest.mark.parametrize("seed", range(20))
def test_clairvoyant_value_is_the_mean_of_the_deck_known_maximum_and_bounds_the_value(seed):
    state = endgame(500 + seed, max_left=4)
    objective = "win" if seed % 2 else "score"
    r = chances(state, objective=objective)
    clair = r.clairvoyant_win if objective == "win" else r.clairvoyant_score
    truth = clairvoyant_by_solve(state, r.target, objective)
    assert value_of(clair) == truth
    assert value_of(r.win if objective == "win" else r.score) <= truth
    # per move: the value after it never exceeds the clairvoyant value after it
    for m in r.moves:
        after = state.copy()
        after.apply(m.action)
        if after.over:
            continue
        rr = chances(after, target=r.target, objective=objective)
        c = rr.clairvoyant_win if objective == "win" else rr.clairvoyant_score
        assert value_of(m.win if objective == "win" else m.score) <= value_of(c)


def no_variant_endgame(seed: str, players: int, left: int) -> State:
    game = solver.game_from_seed(f"p{players}v0s{seed}")
    state = game.initial_state()
    line, _ = solver.greedy_line(state)
    for a in line:
        if state.deck_left <= left:
            break
        state.apply(a)
    return state


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_with_at_most_one_card_left_the_value_is_the_deck_known_one(players, seed):
    for left in (1, 0):
        state = no_variant_endgame(str(seed), players, left)
        if state.over:
            continue
        r = chances(state, objective="score", clairvoyant=False)
        sol = solver.solve(state, timeout=60)
        assert sol.exact
        assert value_of(r.score) == sol.max_score
        rw = chances(state, target=sol.max_score, clairvoyant=False)
        assert value_of(rw.win) == 1


def needed_card_state(k: int) -> State:
    """One suit, ranks 1 and 2: one 1 and k + 1 copies of the 2; two players of one card,
    both holding a 2; the pile (k cards) holds the 1 and k - 1 twos. Whoever draws the 1
    plays it at their next turn and the other then plays a 2 - unless the 1 is the last
    card drawn: then the other player's last turn comes before it is played."""
    variant = custom_variant({"suits": 1, "ranks": [1] + [2] * (k + 1), "handSize": 1, "clueTokens": 2,
                              "strikes": 3})
    deck = [Card(0, 2), Card(0, 2), Card(0, 1)] + [Card(0, 2)] * (k - 1)
    return Game(Rules(variant), 2, deck).initial_state()


@pytest.mark.parametrize("k", range(2, 7))
def test_closed_form_one_needed_card_among_k_lost_when_drawn_last(k):
    state = needed_card_state(k)
    assert state.deck_left == k
    r = chances(state, clairvoyant=True)
    assert r.target == 2
    assert value_of(r.win) == Fraction(k - 1, k)
    assert r.win.lo == (k - 1) * r.win.den // k and r.win.den == r.orders
    assert value_of(r.win) == ChanceOracle(2, "win").value(state)
    # knowing the order does not help: the 1 drawn last is lost whatever the team does
    assert value_of(r.clairvoyant_win) == Fraction(k - 1, k)


@pytest.mark.parametrize("seed", range(12))
def test_fewer_strikes_are_never_worse(seed):
    k = 0
    while True:  # an endgame where one more strike does not end the game
        fewer = endgame(2000 + 100 * seed + k)
        if fewer.strikes + 1 < fewer.game.strike_limit:
            break
        k += 1
    more = fewer.copy()
    more.strikes += 1
    for objective in ("win", "score"):
        a = chances(fewer, objective=objective, clairvoyant=False)
        b = chances(more, target=a.target, objective=objective, clairvoyant=False)
        assert value_of(a.win if objective == "win" else a.score) >= value_of(b.win if objective == "win" else b.score)


def relabelled(state: State, perm: list[int]) -> State:
    """The same game with suit i renamed perm[i] (the deck's cards and the history's clues
    remapped: a clue is replaced by the relabelled game's first legal clue, as good as any)."""
    g = state.game
    deck = [Card(perm[c.suit], c.rank) for c in g.deck]
    g2 = Game(g.rules, g.num_players, deck, names=g.names, starting_player=g.starting_player)
    s2 = g2.initial_state()
    for a in state.history:
        b = s2.first_clue() if a.is_clue else a
        assert b is not None  # the game clued here, so the relabelled one has a legal clue
        s2.apply(b)
    return s2


@pytest.mark.parametrize("seed", range(12))
def test_relabelling_suits_changes_nothing(seed):
    rng = random.Random(seed)
    state = endgame(3000 + seed)
    n = state.game.variant.num_suits
    perm = list(range(n))
    rng.shuffle(perm)
    other = relabelled(state, perm)
    for objective in ("win", "score"):
        a = chances(state, objective=objective, clairvoyant=False)
        b = chances(other, target=a.target, objective=objective, clairvoyant=False)
        assert (a.win, a.score) == (b.win, b.score)
        def values(r):
            return sorted((m.win.lo, m.win.hi) if m.win else (m.score.lo, m.score.hi) for m in r.moves)

        assert values(a) == values(b)


def test_a_small_budget_gives_an_interval_holding_the_exact_value():
    state = no_variant_endgame("3", 3, 7)
    exact = chances(state, objective="both", clairvoyant=False)
    assert exact.exact
    for budget in (1, 5, 30, 200):
        cut = chances(state, objective="both", budget=budget, clairvoyant=False)
        for c, e in ((cut.win, exact.win), (cut.score, exact.score)):
            assert c is not None and e is not None
            assert c.lo <= e.lo <= c.hi and 0 <= c.lo and c.hi <= c.den * state.game.perfect_score
        by_text = {m.actions: m for m in exact.moves}
        for m in cut.moves:
            e = by_text[m.actions]
            assert m.win.lo <= e.win.lo <= m.win.hi


def test_counts_are_integers_over_the_orders_of_the_pile():
    state = no_variant_endgame("5", 2, 6)
    r = chances(state, objective="both", clairvoyant=False)
    assert r.orders == 720 and r.deck_left == 6
    for m in r.moves:
        for c in (m.win, m.score):
            assert isinstance(c.lo, int) and isinstance(c.hi, int) and c.den == 720
            assert 0 <= c.lo <= c.hi
        assert m.win.hi <= 720


def test_the_position_is_restored_after_a_search():
    state = no_variant_endgame("7", 4, 6)
    pos = position_of(state)
    before = (pos.key(), list(pos.cnt), list(pos.reach), pos.top, pos.dn)
    s = ChanceSearch(pos, 0, state.max_reachable(), 10_000)
    s.decide(-1, 10 ** 9)
    assert (pos.key(), list(pos.cnt), list(pos.reach), pos.top, pos.dn) == before


def test_bad_input():
    state = no_variant_endgame("1", 2, 5)
    with pytest.raises(UnknownOptionError):
        chances(state, objective="fun")
    with pytest.raises(MalformedError, match="target"):
        chances(state, target=26)
    with pytest.raises(MalformedError, match="budget"):
        chances(state, budget=0)
    g = solver.game_from_seed("p3v24s7")  # Up or Down
    with pytest.raises(MalformedError, match="not supported"):
        chances(g.initial_state())


# ---------------------------------------------------------------- the command line
def test_cli_text_and_json_agree_with_the_api():
    res = run_cli("chances", "--seed", "p5v0s9", "--left", "6", "--objective", "win", "--no-clairvoyant")
    assert res.exit_code == 0, res.output
    state = no_variant_endgame("9", 5, 6)
    r = chances(state, objective="win", clairvoyant=False)
    assert f"wins {r.win.lo} of {r.win.den} orders" in res.stdout
    assert "Best move:" in res.stdout
    js = run_cli("chances", "--seed", "p5v0s9", "--left", "6", "--json")
    assert js.exit_code == 0, js.output
    out = json.loads(js.stdout)
    rb = chances(state, objective="both")
    assert out["deck_left"] == 6 and out["orders"] == 720 and out["exact"] is True
    assert Fraction(out["win"]["num"], out["win"]["den"]) == rb.win.value
    assert out["win"]["count"] == rb.win.lo and out["win"]["of"] == 720
    assert len(out["moves"]) == len(rb.moves)
    legal = state.legal_actions()
    for m, mine in zip(out["moves"], rb.moves):
        assert [solver.Action.from_json(a) for a in m["actions"]] == list(mine.actions)
        assert all(solver.Action.from_json(a) in legal for a in m["actions"])
    for i in out["best"]:
        assert out["moves"][i]["win"]["count"] == rb.win.lo


def test_cli_on_a_game_file_at_a_turn():
    path = real_game_files()[0]
    rec = solver.load_file(path)
    n = len(rec.actions)
    k = next(t for t in range(n + 1) if rec.state_after(t).deck_left <= 3)
    res = run_cli("chances", str(path), "--turn", str(k), "--json", "--objective", "score")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    state = rec.state_after(k)
    if state.over:
        assert out["moves"] == []
    else:
        r = chances(state, objective="score")
        assert Fraction(out["expected_score"]["num"], out["expected_score"]["den"]) == r.score.value


@pytest.mark.parametrize("args,needles", [
    (("--seed", "p3v0s1", "--left", "5", "--turn", "3"), ("only one of --turn and --left",)),
    (("--seed", "p3v0s1", "--turn", "999"), ("--turn 999",)),
    (("--seed", "p3v0s1", "--left", "-1"), ("--left -1",)),
    (("--seed", "p3v0s1", "--target", "26"), ("target 26",)),
    (("--seed", "p3v0s1", "--nodes", "0"), ("--nodes 0",)),
    (("--seed", "p3v0s1", "--nodes", "5", "--timeout", "1"), ("only one of --nodes and --timeout",)),
    (("--seed", "p3v0s1", "--timeout", "-1"), ("--timeout",)),
    (("--seed", "p3v24s7",), ("not supported",)),
])
def test_cli_bad_input_is_one_line(args, needles):
    assert_clean_error(run_cli("chances", *args), *needles)


# ---------------------------------------------------------------- review --chances
def test_review_with_chances_matches_the_api(tmp_path):
    path = next(p for p in real_game_files() if "p5v0s198" in p.name)
    rec = solver.load_file(path)
    rv = review(rec, timeout=2, chances_left=6, chances_nodes=200_000)
    assert rv.chances, rv.chances_note
    first = rv.chances[0]
    assert first.deck_left <= 6 and rec.state_after(first.turn - 1).deck_left > 6
    for c in rv.chances:
        st = rec.state_after(c.turn)
        a = rec.actions[c.turn]
        r = chances(st, target=first.target, objective="win", clairvoyant=False)
        mine = next(m for m in r.moves if a in m.actions)
        assert (c.before, c.after) == (r.win, mine.win)
        assert c.lost == (mine.win.hi < r.win.lo)
    res = run_cli("review", str(path), "--chances", "--chances-left", "6", "--timeout", "2", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [c["turn"] for c in out["chances"]] == [c.turn for c in rv.chances]
    text = run_cli("review", str(path), "--chances", "--chances-left", "6", "--timeout", "2",
                   "--plot", str(tmp_path / "review.svg"))
    assert f"P({first.target})" in text.stdout and "Endgame chances" in text.stdout
    assert f"P({first.target}), the pile" in (tmp_path / "review.svg").read_text()


def test_review_chances_left_must_not_be_negative():
    assert_clean_error(run_cli("review", str(real_game_files()[0]), "--chances", "--chances-left", "-2"),
                       "--chances-left -2")


# ---------------------------------------------------------------- pure and compiled kernels
def test_the_pure_and_the_compiled_kernel_agree():
    from solver.hanabi.chances import kernel

    compiled, why = kernel.compiled_kernel()
    if compiled is None:
        pytest.skip(f"the compiled chances kernel is not built here: {why}")
    pure = kernel.load("pure")
    for seed in range(8):
        state = endgame(4000 + seed, max_left=5)
        target = state.max_reachable()
        got = []
        for k in (pure, compiled):
            pos = position_of(state, impl=k.position)
            s = k.search.ChanceSearch(pos, k.search.WIN if seed % 2 else k.search.SCORE, target, 10 ** 6)
            vals = [s.child(kind, i, -1, 10 ** 12) for kind, i in k.search.moves(pos)]
            got.append((vals, s.nodes, pos.key()))
        assert got[0] == got[1]


# ---------------------------------------------------------------------------------------
# The default target (issue 34, item 6): the most some order of the pile allows
# ---------------------------------------------------------------------------------------
def best_order_by_solve(state: State) -> int:
    """The highest deck-known maximum over every order of the pile (solver.solve)."""
    g = state.game
    pile = list(g.deck[state.next_draw:])
    best = -1
    for perm in itertools.permutations(range(len(pile))):
        deck = list(g.deck[:state.next_draw]) + [pile[i] for i in perm]
        g2 = Game(g.rules, g.num_players, deck, names=g.names, starting_player=g.starting_player)
        sol = solver.solve(replay(g2, state.history), timeout=30)
        assert sol.exact
        best = max(best, sol.max_score)
    return best


@pytest.mark.parametrize("seed", range(16))
def test_the_default_target_is_the_most_some_order_of_the_pile_allows(seed):
    state = endgame(700 + seed, max_left=4)
    r = chances(state, objective="win", clairvoyant=False)
    assert r.target == best_order_by_solve(state) and r.target <= state.max_reachable()
    # playing as if the pile came in that order wins when it does: never 0%
    assert r.win is not None and r.win.exact and r.win.lo > 0
    assert r.target_reason.startswith("the most")


def test_the_default_target_of_a_pile_no_order_of_which_allows_the_cards_bound():
    """Turn 45 of the 5-player test game: two cards in the pile, and 25 in neither order
    (the cards allow it): the target is 23, which one of the two orders allows."""
    game = DATA / "hanablive" / "p5v0s198_game149251.json"
    res = run_cli("chances", str(game), "--turn", "45", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["target"] == 23 and "the most any order of the pile allows" in out["target_reason"]
    assert "the cards alone would allow 25" in out["target_reason"]
    text = run_cli("chances", str(game), "--turn", "45").stdout
    assert "Target: 23: the most any order of the pile allows" in text and "wins 1 of 2 orders" in text
    asked = json.loads(run_cli("chances", str(game), "--turn", "45", "--target", "25", "--json").stdout)
    assert asked["target"] == 25 and asked["target_reason"] == "asked for"


def test_too_many_orders_give_the_bound_every_order_obeys():
    from solver.hanabi.chances.api import default_target

    state = no_variant_endgame("57", 2, 7)
    target, why = default_target(state, limit=10)
    turns = state.game.num_players if state.turns_left is None else state.turns_left
    assert target == min(state.max_reachable(), sum(state.stacks) + state.deck_left + turns)
    assert "too many to search each" in why
