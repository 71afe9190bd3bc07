"""The Hand solver (solver.hand) against the independent brute-force oracle
(tests/hand_oracle.py: the full game tree by the definitions, no table, no merging) on
hundreds of random positions of 2-4 cards a hand, fresh and mid-trick, for every
analysis; metamorphic tests (suits permuted, seats rotated, ranks absent from the deal
shifted: nothing changes) and invariants on larger positions; node budgets that answer
"unknown", never a wrong value."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.hand import best_cards, bid_table, equivalent_groups, reachable, seat_bounds
from solver.hand.rules import Deal, MalformedError, Position, card_str, cards_of

import hand_oracle as H

RULES = ("exact", "atleast")


def o_pos(p: Position) -> dict:
    return {"hands": [[card_str(c) for c in cards_of(h)] for h in p.hands], "leader": p.leader,
            "table": [card_str(c) for c in p.table], "taken": list(p.taken)}


def positions(seed: int, count: int, sizes: tuple[int, ...]) -> list[tuple[dict, Position]]:
    """Random positions from the oracle's own generators: fresh (any leader, nothing
    taken) and mid-trick (0-3 cards on the table, tricks taken)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = sizes[i % len(sizes)]
        o = H.random_midtrick(rng, n) if i % 2 and n else H.random_position(rng, n)
        out.append((o, Position.from_json(o)))
    return out


def check_seat(o: dict, p: Position, seat: int, rules: tuple[str, ...]) -> None:
    b = seat_bounds(p, seat)
    assert b.most == H.paranoid_max(o, seat), ("most", o, seat)
    assert b.fewest == H.paranoid_min(o, seat), ("fewest", o, seat)
    assert set(b.exact or ()) == H.exact_guarantees(o, seat) and b.exact is not None, ("exact", o, seat)
    for rule in rules:
        row = bid_table(p, seat, rule).row(seat)
        assert list(row.scores) == H.bid_table(o, seat, rule), ("bids", rule, o, seat)
        assert (row.best_bid, row.best_score) == H.best_bid(o, seat, rule), ("best bid", rule, o, seat)
        assert row.bounds == b


def check_reachable(o: dict, p: Position) -> None:
    assert reachable(p).vectors == H.reachable_vectors(o), ("reachable", o)


def check_best(o: dict, p: Position, bid: int, rule: str) -> None:
    if p.is_over:
        return
    res = best_cards(p, bid, rule)
    got = {card_str(c.index): ch.score for ch in res.choices for c in ch.cards}
    assert got == H.best_cards(o, bid, rule), ("best cards", o, bid, rule)
    # the merged classes are the legal cards, once each
    legal = sorted(card_str(c.index) for c in p.legal_cards())
    assert sorted(got) == legal


@pytest.mark.parametrize("chunk", range(4))
def test_two_card_positions_every_analysis_every_seat(chunk):
    rng = random.Random(100 + chunk)
    for o, p in positions(chunk, 40, (2,)):
        for seat in range(4):
            check_seat(o, p, seat, RULES)
        check_reachable(o, p)
        check_best(o, p, rng.randrange(9), rng.choice(RULES))


@pytest.mark.parametrize("chunk", range(4))
def test_three_card_positions(chunk):
    rng = random.Random(200 + chunk)
    for o, p in positions(10 + chunk, 30, (3,)):
        seat = rng.randrange(4)
        check_seat(o, p, seat, (rng.choice(RULES),))
        for other in range(4):
            if other != seat:
                b = seat_bounds(p, other)
                assert (b.most, b.fewest) == (H.paranoid_max(o, other), H.paranoid_min(o, other)), (o, other)
        check_reachable(o, p)
        check_best(o, p, rng.randrange(9), rng.choice(RULES))


@pytest.mark.parametrize("chunk", range(3))
def test_four_card_positions(chunk):
    rng = random.Random(300 + chunk)
    for i, (o, p) in enumerate(positions(20 + chunk, 5, (4,))):
        seat = rng.randrange(4)
        b = seat_bounds(p, seat)
        assert (b.most, b.fewest) == (H.paranoid_max(o, seat), H.paranoid_min(o, seat)), (o, seat)
        assert set(b.exact or ()) == H.exact_guarantees(o, seat), (o, seat)
        check_reachable(o, p)
        check_best(o, p, rng.randrange(9), rng.choice(RULES))
        if i == 0:  # a whole bid-table row: nine full game trees in the oracle
            rule = rng.choice(RULES)
            assert list(bid_table(p, seat, rule).row(seat).scores) == H.bid_table(o, seat, rule), (o, seat)


def test_one_card_and_finished_positions():
    for o, p in positions(30, 40, (1, 0)):
        for seat in range(4):
            check_seat(o, p, seat, RULES)
        check_reachable(o, p)
        if not p.is_over:
            check_best(o, p, 1, "exact")


# ---------------------------------------------------------------- metamorphic tests

def permute_suits(p: Position, perm: list[int]) -> Position:
    """``p`` with suit s renamed perm[s] everywhere (no trumps: nothing changes)."""
    def card(c: int) -> int:
        return perm[c >> 3] * 8 + (c & 7)

    def mask(m: int) -> int:
        out = 0
        for c in cards_of(m):
            out |= 1 << card(c)
        return out
    h = tuple(mask(x) for x in p.hands)
    return Position((h[0], h[1], h[2], h[3]), p.leader, tuple(card(c) for c in p.table), p.taken, p.bids)


def rotate_seats(p: Position, r: int) -> Position:
    """``p`` with seat s renamed (s + r) % 4 (playing order kept)."""
    h = [p.hands[(s - r) % 4] for s in range(4)]
    t = [p.taken[(s - r) % 4] for s in range(4)]
    return Position((h[0], h[1], h[2], h[3]), (p.leader + r) % 4, p.table, (t[0], t[1], t[2], t[3]))


def shift_ranks(p: Position, rng: random.Random) -> Position:
    """``p`` with each suit's cards in play moved to other ranks, order kept (the ranks
    absent from the deal in between do not matter)."""
    present = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]
    for c in p.table:
        present |= 1 << c
    remap: dict[int, int] = {}
    for s in range(4):
        ranks = [r for r in range(8) if present >> (8 * s + r) & 1]
        new = sorted(rng.sample(range(8), len(ranks)))
        remap.update({8 * s + a: 8 * s + b for a, b in zip(ranks, new)})

    def mask(m: int) -> int:
        out = 0
        for c in cards_of(m):
            out |= 1 << remap[c]
        return out
    h = tuple(mask(x) for x in p.hands)
    return Position((h[0], h[1], h[2], h[3]), p.leader, tuple(remap[c] for c in p.table), p.taken)


def summary(p: Position) -> tuple:
    t = bid_table(p)
    return tuple((r.bounds, r.scores, r.best_bid) for r in t.rows), reachable(p).vectors


def random_position(rng: random.Random, n: int) -> Position:
    o = H.random_midtrick(rng, n) if rng.random() < 0.5 else H.random_position(rng, n)
    return Position.from_json(o)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=2, max_value=6))
def test_metamorphic(rng, n):
    p = random_position(rng, n)
    bounds, vectors = summary(p)
    perm = rng.sample(range(4), 4)
    assert summary(permute_suits(p, perm)) == (bounds, vectors)
    assert summary(shift_ranks(p, rng)) == (bounds, vectors)
    r = rng.randrange(1, 4)
    rb, rv = summary(rotate_seats(p, r))
    assert [x[0].most for x in rb] == [bounds[(s - r) % 4][0].most for s in range(4)]
    assert [x[1] for x in rb] == [bounds[(s - r) % 4][1] for s in range(4)]
    assert rv == {tuple(v[(s - r) % 4] for s in range(4)) for v in vectors}


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=6))
def test_invariants(rng, n):
    p = random_position(rng, n)
    t = bid_table(p)
    vectors = reachable(p).vectors
    assert vectors and all(sum(v) == p.tricks_left + sum(p.taken) for v in vectors)
    assert all(v[s] >= p.taken[s] for v in vectors for s in range(4))
    for r in t.rows:
        b = r.bounds
        assert b.complete and b.exact is not None and b.most is not None and b.fewest is not None
        mine = {v[r.seat] for v in vectors}
        # the paranoid bounds lie inside what can happen at all
        assert min(mine) <= b.fewest and b.most <= max(mine)
        # an exact guarantee lies between the bounds and is reached by some vector
        for k in b.exact:
            assert b.fewest <= k <= b.most and k in mine
            assert r.scores[k] == (25 if k == 0 else 10 * k)
        assert r.best_score == max(s for s in r.scores if s is not None)
        assert r.scores[r.best_bid] == r.best_score and r.scores.index(r.best_score) == r.best_bid


def test_full_deal_invariants_and_a_pinned_answer():
    d = Deal.random(5)
    t = bid_table(d)
    assert [r.best_bid for r in t.rows] == [3, 2, 1, 2]
    assert list(t.row(0).scores) == [-50, -40, -30, -20, -20, -20, -30, -40, -50]
    assert (t.row(0).bounds.most, t.row(0).bounds.fewest, t.row(0).bounds.exact) == (3, 5, ())
    r = reachable(d)
    assert len(r.vectors) == 147 and (8, 0, 0, 0) in r.vectors and (0, 0, 0, 8) not in r.vectors
    for row in t.rows:
        for k in row.bounds.exact:
            assert any(v[row.seat] == k for v in r.vectors)


# ---------------------------------------------------------------- budgets: unknown, never a guess

def test_small_budgets_answer_unknown_or_the_truth():
    d = Deal.random(5)
    full = bid_table(d)
    for nodes in (1, 30, 1000):
        t = bid_table(d, nodes=nodes)
        for got, want in zip(t.rows, full.rows):
            for a, b in zip(got.scores, want.scores):
                assert a is None or a == b
            for a, b in ((got.bounds.most, want.bounds.most), (got.bounds.fewest, want.bounds.fewest),
                         (got.bounds.exact, want.bounds.exact)):
                assert a is None or a == b
            assert got.best_bid is None or got.best_bid == want.best_bid
    assert not bid_table(d, nodes=1).complete
    r = reachable(d, nodes=10)
    assert r.vectors is None and r.makeable() is None
    small = bid_table(Position.parse("leader 0: S:A / S:K / S:Q / S:J"), nodes=1)
    assert small.complete  # one card each: decided without a search


def test_makeable_bid_vectors():
    p = Position.parse("leader 0: S:A H:7 / S:K H:8 / S:7 H:A / S:8 H:K")
    r = reachable(p)
    assert r.vectors == {(1, 0, 1, 0)}  # whoever wins first, seats 0 and 2 take one each
    assert r.makeable("exact") == r.vectors
    assert r.makeable("atleast") == {(0, 0, 0, 0), (1, 0, 0, 0), (0, 0, 1, 0), (1, 0, 1, 0)}


def test_equivalent_cards_are_merged():
    p = Position.parse("leader 0: S:KQ9 / S:J8 H:7 / S:T H:8 D:7 / S:7 H:AK")
    groups = [[card_str(c) for c in g] for g in equivalent_groups(p)]
    assert groups == [["KS", "QS"], ["9S"]]
    res = best_cards(p, 2)
    assert [[str(c) for c in ch.cards] for ch in res.choices] == groups


def test_bad_arguments():
    d = Deal.random(1)
    with pytest.raises(MalformedError):
        seat_bounds(d, 4)
    with pytest.raises(MalformedError):
        bid_table(d, rule="strict")
    with pytest.raises(MalformedError):
        best_cards(d.position(), bid=9)
    with pytest.raises(MalformedError):
        best_cards(Position((0, 0, 0, 0), 0), bid=1)


def test_lose_one_bound_never_contradicts_the_oracle():
    """The kernel's one-trick bound at a new table entry (search.lose_one) against the
    oracle's fewest on 656 random fresh positions of 2-4 cards a hand, every seat: 1 says
    the seat can hold its future tricks to n - 1, 2 that it takes all n whatever anyone
    plays (then search.sweeper names it and the oracle reaches that vector alone), 0 that
    it cannot take none."""
    from solver.hand.search.kernel import dfs as search
    rng = random.Random(77)
    fired = {0: 0, 1: 0, 2: 0}
    for i in range(656):
        n = 2 if i < 500 else 3 if i < 650 else 4
        o = H.random_position(rng, n)
        p = Position.from_json(o)
        for seat in range(4):
            got = search.lose_one(list(p.hands), seat, p.leader)
            fired[got] += 1
            assert (search.sweeper(list(p.hands), p.leader) == seat) == (got == 2), (o, seat)
            fewest = H.paranoid_min(o, seat)
            if got == 1:
                assert fewest <= n - 1, (o, seat)
            elif got == 2:
                assert fewest == n and H.paranoid_max(o, seat) == n, (o, seat)
                # whatever anyone plays: the one reachable vector
                assert H.reachable_vectors(o) == {tuple(n if s == seat else 0 for s in range(4))}, o
            else:
                assert fewest >= 1, (o, seat)
    assert min(fired.values()) > 100, fired  # every answer of the bound is exercised
