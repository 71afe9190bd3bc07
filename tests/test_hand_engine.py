"""The Hand rules engine (solver.hand.rules) against the independent oracle (tests/hand_oracle.py,
written from the rules without seeing the engine) as its naive reference engine: deals,
legal cards, trick winners, whole rounds, scoring, the timeout rule, the match; and the
engine's own contracts: notation and JSON round trips, push/pop, errors of both kinds."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.hand.rules import (
    DECK,
    SUIT_MASKS,
    SUITS,
    Card,
    Deal,
    IllegalMoveError,
    MalformedError,
    Match,
    Position,
    Round,
    card_str,
    cards_of,
    format_hand,
    legal_mask,
    mask_of,
    match_result,
    parse_card,
    parse_hand,
    round_score,
    timeout_card,
    trick_winner,
)

import hand_oracle as H

# ---------------------------------------------------------------- conversions to the oracle's forms


def o_cards(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def o_pos(p: Position) -> dict:
    return {"hands": [o_cards(h) for h in p.hands], "leader": p.leader, "table": [card_str(c) for c in p.table],
            "taken": list(p.taken)}


def e_mask(cards: list[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


# ---------------------------------------------------------------- cards and notation


def test_cards_round_trip_and_order():
    assert [str(c) for c in DECK][:8] == ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert sorted(str(c) for c in DECK) == sorted(H.DECK)
    for c in DECK:
        assert Card.parse(str(c)) == c and Card.parse(str(c).lower()) == c
    assert Card.parse("10H") == Card.parse("TH")
    # rank order within a suit: A K Q J T 9 8 7 (the ten below the jack)
    assert [str(Card.of(3, r)) for r in range(7, -1, -1)] == ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]


@pytest.mark.parametrize("text,needle", [("1S", "unknown rank"), ("AX", "unknown suit"), ("SA", "rank first"),
                                         ("A", "not a card"), ("", "not a card"), ("AS7", "not a card")])
def test_bad_card(text, needle):
    with pytest.raises(MalformedError, match=needle):
        parse_card(text)


def test_hand_notation():
    m = parse_hand("S:AKQ7 H:T98 D:- C:J")
    assert format_hand(m) == "S:AKQ7 H:T98 D:- C:J"
    assert parse_hand("c:j s:7qka h:1098") == m  # any order, any case, 10 for T
    assert parse_hand("S:AKQ7 H:T98 C:J") == m  # a suit left out is a void
    for bad, needle in [("S:AKQ7 S:2", "twice"), ("X:A", "unknown suit"), ("S:AX", "unknown rank"),
                        ("S:AA", "twice"), ("AKQ", "expected a suit"), ("S:", "no ranks")]:
        with pytest.raises(MalformedError, match=needle):
            parse_hand(bad)


# ---------------------------------------------------------------- deals


def test_deal_from_order_matches_the_oracle():
    rng = random.Random(1)
    for _ in range(50):
        order = list(H.DECK)
        rng.shuffle(order)
        dealer = rng.randrange(4)
        d = Deal.from_order(order, dealer)
        assert [sorted(o_cards(h)) for h in d.hands] == [sorted(h) for h in H.deal_from_order(order, dealer)]
        assert d.leader == (dealer + 1) % 4


def test_seeded_deals_are_reproducible_and_round_trip():
    for seed in range(30):
        d = Deal.random(seed, seed % 4)
        assert d == Deal.random(seed, seed % 4)
        assert Deal.parse(str(d)) == d
        assert Deal.from_json(json.loads(json.dumps(d.to_json()))) == d
        assert Position.parse(str(d)) == d.position()
    assert Deal.random(1) != Deal.random(2)
    # pinned: the seeded shuffle is part of the format (hand deal --seed N)
    assert str(Deal.random(1)) == ("dealer 3: S:KJ98 H:QJ D:- C:AT / S:AQT H:A87 D:Q C:8 / "
                                   "S:- H:K9 D:KT8 C:KQ9 / S:7 H:T D:AJ97 C:J7")


def test_deal_json_forms():
    d = Deal.random(7, 1)
    js = d.to_json()
    as_strings = {"dealer": 1, "hands": [format_hand(h) for h in d.hands]}
    assert Deal.from_json(as_strings) == d
    assert Deal.from_json(js) == d
    full = list(H.DECK)
    assert Deal.from_json({"dealer": 2, "order": full}) == Deal.from_order(full, 2)


@pytest.mark.parametrize("mutate,needle", [
    (lambda hs: [hs[0][:-1], hs[1], hs[2], hs[3] + [hs[0][-1]]], "cards, not 8"),
    (lambda hs: [hs[0][:-1] + [hs[1][0]], hs[1], hs[2], hs[3]], "in seat 0's hand and in seat 1's"),
    (lambda hs: [hs[0][:-1], hs[1], hs[2], hs[3]], "7 cards, not 8"),
    (lambda hs: [hs[0][:-1] + ["XS"], hs[1], hs[2], hs[3]], "unknown rank"),
    (lambda hs: hs[:3], "list of 4 hands"),
])
def test_bad_deals(mutate, needle):
    hs = Deal.random(3).to_json()["hands"]
    with pytest.raises(MalformedError, match=needle):
        Deal.from_json({"dealer": 0, "hands": mutate([list(h) for h in hs])})


def test_bad_deck_orders():
    with pytest.raises(MalformedError, match="31 cards"):
        Deal.from_order(H.DECK[:31])
    with pytest.raises(MalformedError, match="twice"):
        Deal.from_order(H.DECK[:31] + ["AS"])


@pytest.mark.parametrize("text,needle", [
    ("dealer 4: S:A / S:K / S:Q / S:J", "seats are 0..3"),
    ("S:AKQJT987 H:AKQJT987 / / /", "cards"),
    ("S:A / S:K / S:Q", "4 hands"),
    ("dealer 3: S:A / S:K / S:Q / S:J ; table AS", "a deal"),
    ("leader 0: S:A / S:K / S:Q / S:J ; tabel 7S", "unknown section"),
    ("leader 0: S:A / S:K / S:Q / S:J ; taken 1 2", "4 numbers"),
    ("", "empty"),
])
def test_bad_texts(text, needle):
    with pytest.raises((MalformedError, IllegalMoveError), match=needle):
        Position.parse(text) if "leader" in text else Deal.parse(text)


# ---------------------------------------------------------------- positions


def test_positions_round_trip_and_validate_like_the_oracle():
    rng = random.Random(2)
    for i in range(300):
        o = H.random_midtrick(rng, rng.randint(1, 8)) if i % 2 else H.random_position(rng, rng.randint(0, 8))
        p = Position.from_json(o)
        assert o_pos(p)["table"] == o["table"] and o_pos(p)["taken"] == o["taken"]
        assert Position.parse(str(p)) == p
        assert Position.from_json(json.loads(json.dumps(p.to_json()))) == p
        assert p.to_move == (o["leader"] + len(o["table"])) % 4
        led = o["table"][0][1] if o["table"] else None
        if not p.is_over:
            assert sorted(str(c) for c in p.legal_cards()) == sorted(H.legal_cards(o["hands"][p.to_move], led))
    with_bids = Position.parse("leader 2: S:A / S:K / S:Q / S:J ; bids 1 0 8 2 ; taken 3 1 0 3")
    assert with_bids.bids == (1, 0, 8, 2) and Position.parse(str(with_bids)) == with_bids
    assert Position.from_json(with_bids.to_json()) == with_bids


def _invalid_positions():
    base = {"hands": [["AS", "7S"], ["KS", "8S"], ["QS", "9S"], ["JS", "TS"]], "leader": 0, "table": [],
            "taken": [0, 0, 0, 0]}
    yield dict(base, table=["AS"])  # a card in a hand and on the table
    yield dict(base, hands=[["AS"], ["KS", "8S"], ["QS", "9S"], ["JS", "TS"]])  # sizes
    yield dict(base, hands=[["AS", "7S"], ["KS", "8S"], ["QS", "9S"], ["JS", "TS", "7H"]])
    yield dict(base, taken=[3, 2, 1, 1])  # 7 taken + 2 to play > 8
    yield dict(base, taken=[-1, 0, 0, 0])
    yield dict(base, hands=[["7S"], ["KS", "8S"], ["QS", "9S"], ["JS", "TS"]], table=["AS"], leader=0)  # fine
    # a revoke on the table: seat 1 played a heart holding spades
    yield {"hands": [["7S"], ["8S"], ["QS", "9S"], ["JS", "TS"]], "leader": 0, "table": ["AS", "7H"],
           "taken": [0, 0, 0, 0]}


def test_invalid_positions_agree_with_the_oracle():
    for o in _invalid_positions():
        try:
            H._state(o)
            oracle_ok = True
        except ValueError:
            oracle_ok = False
        try:
            Position.from_json(o)
            ok = True
        except (MalformedError, IllegalMoveError):
            ok = False
        assert ok == oracle_ok, o


# ---------------------------------------------------------------- legal cards, tricks, rounds


def test_legal_cards_and_trick_winner_match_the_oracle():
    rng = random.Random(3)
    for _ in range(500):
        hand = rng.sample(H.DECK, rng.randint(0, 8))
        led = rng.choice([None, *H.SUITS])
        want = sorted(H.legal_cards(hand, led))
        got = sorted(o_cards(legal_mask(e_mask(hand), -1 if led is None else SUITS.index(led))))
        assert got == want
        trick = rng.sample(H.DECK, 4)
        leader = rng.randrange(4)
        assert trick_winner([parse_card(c) for c in trick], leader) == H.trick_winner(trick, leader)


def random_line(rng: random.Random, p: Position) -> list[str]:
    """A random legal play of the rest of the round (through the oracle's own rules)."""
    hands = [o_cards(h) for h in p.hands]
    leader = p.leader
    table = [card_str(c) for c in p.table]
    line = []
    while hands[(leader + len(table)) % 4]:
        mover = (leader + len(table)) % 4
        led = table[0][1] if table else None
        c = rng.choice(H.legal_cards(hands[mover], led))
        hands[mover].remove(c)
        table.append(c)
        line.append(c)
        if len(table) == 4:
            leader = H.trick_winner(table, leader)
            table = []
    return line


def test_play_round_matches_the_oracle():
    rng = random.Random(4)
    for _ in range(200):
        n = rng.randint(1, 8)
        o = H.random_position(rng, n)
        p = Position.from_json(o)
        line = random_line(rng, p)
        r = Round(p)
        for c in line:
            r.apply(c)
        assert r.is_over and list(r.tricks) == H.play_round(o["hands"], o["leader"], line)


def test_apply_errors_name_the_rule():
    d = Deal.parse("dealer 3: S:AKQJ H:AKQJ D:- C:- / S:T987 H:T987 D:- C:- / S:- H:- D:AKQJ C:AKQJ / "
                   "S:- H:- D:T987 C:T987")
    r = Round(d)
    with pytest.raises(IllegalMoveError, match="out of turn: TS is in seat 1's hand, seat 0 is to play"):
        r.apply("TS")
    with pytest.raises(IllegalMoveError, match="out of turn: seat 2 plays"):
        r.apply("AS", seat=2)
    r.apply("AS")
    with pytest.raises(IllegalMoveError, match="revoke: seat 1 plays TH but must follow spades"):
        r.apply("TH")
    with pytest.raises(IllegalMoveError, match="already on the table"):
        r.apply("AS")
    r.apply("7S")
    r.apply("AD")  # seat 2 is void in spades: any card
    r.apply("7C")
    assert r.tricks == (1, 0, 0, 0) and r.to_move == 0
    with pytest.raises(IllegalMoveError, match="already played"):
        r.apply("AS")
    with pytest.raises(MalformedError):
        r.apply("ZZ")


def test_push_pop_restore_exactly():
    rng = random.Random(5)
    for _ in range(50):
        p = Position.from_json(H.random_midtrick(rng, rng.randint(1, 8)))
        r = Round(p)
        line = random_line(rng, p)
        states = []
        for c in line:
            states.append((list(r.hands), r.leader, list(r.table), list(r.taken)))
            r.push(parse_card(c))
        for c in reversed(line):
            assert card_str(r.pop()) == c
            assert (list(r.hands), r.leader, list(r.table), list(r.taken)) == states.pop()
        assert r.position() == p
    with pytest.raises(IllegalMoveError):
        Round(Deal.random(1)).pop()


# ---------------------------------------------------------------- bids and scores


def test_round_score_matches_the_oracle():
    for rule in ("exact", "atleast"):
        for bid in range(9):
            for tricks in range(9):
                assert round_score(bid, tricks, rule) == H.round_score(bid, tricks, rule), (rule, bid, tricks)
    assert round_score(0, 0) == 25 and round_score(0, 8) == -80 and round_score(8, 8) == 80
    with pytest.raises(MalformedError):
        round_score(1, 1, "strict")


def test_bids():
    r = Round(Deal.random(1))
    r.bid(0, 3)
    with pytest.raises(IllegalMoveError, match="already bid 3"):
        r.bid(0, 2)
    with pytest.raises(IllegalMoveError, match="out of range"):
        r.bid(1, 9)
    with pytest.raises(IllegalMoveError, match="has not bid"):
        r.apply(r.legal_moves()[0])
    r.bid(1, 0)
    r.timeout_bid(2)
    r.bid(3, 8)
    assert r.bids == [3, 0, 0, 8]
    r.apply(r.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="after the play has begun"):
        Round(r.position()).bid(0, 1)
    with pytest.raises(IllegalMoveError, match="not over"):
        r.scores()


def test_timeout_card_matches_the_oracle():
    rng = random.Random(6)
    for _ in range(500):
        hand = rng.sample(H.DECK, rng.randint(1, 8))
        led = rng.choice([None, *H.SUITS])
        order = "".join(rng.sample("CDHS", 4)) if rng.random() < 0.5 else "CDHS"
        got = card_str(timeout_card(e_mask(hand), -1 if led is None else SUITS.index(led), order))
        assert got == H.timeout_card(hand, led, order)
    # the default tie-break: clubs lowest, then diamonds, hearts, spades
    assert card_str(timeout_card(e_mask(["7S", "7H", "7C", "AD"]), -1)) == "7C"
    assert card_str(timeout_card(e_mask(["7S", "7H", "7C", "AD"]), -1, "SHDC")) == "7S"
    with pytest.raises(MalformedError):
        timeout_card(e_mask(["7S"]), -1, "CDH")


# ---------------------------------------------------------------- the match


def _score_rounds(rng: random.Random, k: int) -> list[list[int]]:
    vals = [-10, 10, 10, 25] if rng.random() < 0.5 else [0, 10]  # small sets: many ties
    return [[rng.choice(vals) for _ in range(4)] for _ in range(k)]


def test_match_result_matches_the_oracle():
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        rounds = _score_rounds(rng, rng.choice([5, 5, 6, 6, 7, 8, 9]))
        try:
            want = H.match_result(rounds)
        except ValueError:
            with pytest.raises(IllegalMoveError):
                match_result(rounds)
            continue
        got = match_result(rounds)
        assert list(got.totals) == want["totals"] and got.rounds_used == want["rounds_used"]
        assert got.needs_more == want["needs_more"]
        # the oracle names the current tied set while more rounds are needed; the engine
        # calls them contenders and names winners once the game is decided
        assert list(got.contenders) == want["winners"]
        assert list(got.winners) == ([] if got.needs_more else want["winners"])
        checked += 1
    assert checked > 1000
    # fewer than 5 rounds: not over (the oracle refuses them)
    assert match_result(_score_rounds(rng, 3)).needs_more


def test_sudden_death_examples():
    five = [[10, 10, 0, 0]] * 5
    assert match_result(five).needs_more and match_result(five).contenders == (0, 1)
    # a non-contender's big sudden-death score does not make it a winner
    r = match_result([*five, [10, 20, 90, 0]])
    assert r.winners == (1,) and r.totals == (60, 70, 90, 0) and r.rounds_used == 6
    r = match_result([*five, [0, 0, 0, 0]] + [[0, 0, 0, 0]] * 2)
    assert r.winners == (0, 1) and not r.needs_more
    with pytest.raises(IllegalMoveError, match="decided"):
        match_result([*five, [10, 20, 90, 0], [0, 0, 0, 0]])


def random_game(seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(first_dealer=rng.randrange(4), rule=rng.choice(["exact", "atleast"]))
    while True:
        r = m.new_round(Deal.random(rng.randrange(10 ** 6), m.next_dealer))
        for s in range(4):
            if rng.random() < 0.1:
                m.timeout_bid(s)
            else:
                r.bid(s, rng.randrange(4))
        while not r.is_over:
            if rng.random() < 0.05:
                m.timeout_play()
            else:
                r.apply(rng.choice(r.legal_moves()))
        if not m.result().needs_more:
            return m


def test_game_json_round_trip_and_replay():
    for seed in range(10):
        m = random_game(seed)
        js = json.loads(json.dumps(m.to_json()))
        m2 = Match.from_json(js)
        assert m2.to_json() == js
        assert m2.result() == m.result()
        assert m.result().rounds_used == len(m.rounds) >= 5
        want = H.match_result([list(s) for s in m.scores()])
        assert list(m.result().winners) == want["winners"]


def test_game_errors_name_round_and_card():
    js = random_game(1).to_json()
    bad = json.loads(json.dumps(js))
    bad["rounds"][1]["plays"][5], bad["rounds"][1]["plays"][6] = bad["rounds"][1]["plays"][6], \
        bad["rounds"][1]["plays"][5]
    with pytest.raises(IllegalMoveError, match=r"rounds\[1\]\.plays\[5\] \(trick 2\)"):
        Match.from_json(bad)
    bad = json.loads(json.dumps(js))
    bad["rounds"][2]["dealer"] = (bad["rounds"][2]["dealer"] + 1) % 4
    with pytest.raises(IllegalMoveError, match=r"rounds\[2\]: dealer"):
        Match.from_json(bad)
    bad = json.loads(json.dumps(js))
    bad["rounds"][0]["bids"][3] = -1
    with pytest.raises(IllegalMoveError, match=r"rounds\[0\]\.bids\[3\].*out of range"):
        Match.from_json(bad)
    bad = json.loads(json.dumps(js))
    del bad["rounds"][0]["plays"][-1]
    with pytest.raises(IllegalMoveError, match="unfinished"):
        Match.from_json(bad)
    bad["rounds"] = bad["rounds"][:1]
    assert Match.from_json(bad).result().needs_more  # a game stopped mid-round is fine


# ---------------------------------------------------------------- property test: whole rounds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=8))
def test_random_rounds_follow_the_reference_rules(rng, n):
    """At every card of a random round: the engine's legal cards are the oracle's, the
    trick winners and the final tricks agree, and the timeout card is legal."""
    o = H.random_midtrick(rng, n)
    p = Position.from_json(o)
    r = Round(p)
    hands = [list(h) for h in o["hands"]]
    leader, table, taken = o["leader"], list(o["table"]), list(o["taken"])
    while not r.is_over:
        mover = (leader + len(table)) % 4
        assert r.to_move == mover
        led = table[0][1] if table else None
        legal = H.legal_cards(hands[mover], led)
        assert sorted(str(c) for c in r.legal_moves()) == sorted(legal)
        assert str(r.timeout_card()) == H.timeout_card(hands[mover], led)
        c = rng.choice(legal)
        r.apply(c)
        hands[mover].remove(c)
        table.append(c)
        if len(table) == 4:
            leader = H.trick_winner(table, leader)
            taken[leader] += 1
            table = []
        assert list(r.taken) == taken and r.leader == leader
    assert sum(taken) == sum(o["taken"]) + p.tricks_left


def test_suit_masks():
    assert SUIT_MASKS[0] == 0xFF and SUIT_MASKS[3] == 0xFF << 24
