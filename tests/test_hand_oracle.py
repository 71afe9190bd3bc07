# The Hand oracle's own self-tests: written independently from the rules (issue 15) by another engineer, without seeing
# the engine; copied unchanged from /work/hand-oracle/test_hand_oracle.py below these lines.
"""Self-tests of hand_oracle on small hand-made positions (answers worked out
by hand in the comments) plus a few cross-checks on random small positions."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hand_oracle as H  # noqa: E402


# ---------------------------------------------------------------- deck, deal

def test_deck():
    assert H.RANKS == ["A", "K", "Q", "J", "T", "9", "8", "7"]
    assert H.SUITS == ["S", "H", "D", "C"]
    assert len(H.DECK) == 32 and len(set(H.DECK)) == 32
    assert "TH" in H.DECK and "7C" in H.DECK and "10H" not in H.DECK
    # DECK order: AS..7S, AH..7H, AD..7D, AC..7C
    assert H.DECK[:8] == ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]


def test_deal_from_order():
    # dealer 3: card i -> seat (3+1+i)%4 = i%4, so seat 0 gets DECK[0], [4], [8], ...
    hands = H.deal_from_order(list(H.DECK), 3)
    assert hands[0] == ["AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"]
    assert hands[3] == ["JS", "7S", "JH", "7H", "JD", "7D", "JC", "7C"]
    # dealer 0: the first card goes to seat 1, the 4th card (JS) to seat 0
    hands = H.deal_from_order(list(H.DECK), 0)
    assert hands[1][0] == "AS" and hands[0][0] == "JS"
    assert all(len(h) == 8 for h in hands)
    with pytest.raises(ValueError):
        H.deal_from_order(H.DECK[:31], 0)             # not the whole deck
    with pytest.raises(ValueError):
        H.deal_from_order(H.DECK[:31] + ["AS"], 0)    # a card twice
    with pytest.raises(ValueError):
        H.deal_from_order(list(H.DECK), 4)            # no seat 4


# ---------------------------------------------------------------- legal cards

def test_legal_cards():
    hand = ["AS", "7H", "KH"]
    assert H.legal_cards(hand, "H") == ["7H", "KH"]        # must follow hearts
    assert H.legal_cards(hand, "D") == hand                # void -> anything
    assert H.legal_cards(hand, None) == hand               # leading -> anything
    assert H.legal_cards(hand, "S") == ["AS"]
    assert H.legal_cards([], "S") == []
    with pytest.raises(ValueError):
        H.legal_cards(["1S"], None)
    with pytest.raises(ValueError):
        H.legal_cards(["AS", "AS"], None)
    with pytest.raises(ValueError):
        H.legal_cards(["AS"], "X")


def test_trick_winner():
    # leader 2 leads 9H; seat 3 AS (off-suit, no trumps), seat 0 KH, seat 1 TH
    # highest heart KH is the 3rd card -> seat (2+2)%4 = 0
    assert H.trick_winner(["9H", "AS", "KH", "TH"], 2) == 0
    # a lone 7C led beats three off-suit aces
    assert H.trick_winner(["7C", "AS", "AH", "AD"], 1) == 1
    # T beats 9 (T = ten, between J and 9); last card wins, leader 3 -> seat 2
    assert H.trick_winner(["9D", "8D", "7D", "TD"], 3) == 2
    with pytest.raises(ValueError):
        H.trick_winner(["9D", "8D", "7D"], 0)
    with pytest.raises(ValueError):
        H.trick_winner(["9D", "9D", "7D", "TD"], 0)


# ---------------------------------------------------------------- play_round

TWO = [["AS", "7H"], ["KS", "8H"], ["QS", "9H"], ["JS", "TH"]]


def test_play_round():
    # trick 1: AS KS QS JS -> seat 0; trick 2: 7H 8H 9H TH -> seat 3
    assert H.play_round(TWO, 0, ["AS", "KS", "QS", "JS", "7H", "8H", "9H", "TH"]) == [1, 0, 0, 1]
    # leader 2: QS JS AS KS -> AS (seat 0) wins; 0 leads 7H, 8H, 9H, TH -> seat 3
    assert H.play_round(TWO, 2, ["QS", "JS", "AS", "KS", "7H", "8H", "9H", "TH"]) == [1, 0, 0, 1]
    assert H.play_round([["AS"], ["KS"], ["7H"], ["QS"]], 0, ["AS", "KS", "7H", "QS"]) == [1, 0, 0, 0]
    # seat 1 plays 8H to a spade lead while holding KS: revoke in trick 1
    with pytest.raises(ValueError) as e:
        H.play_round(TWO, 0, ["AS", "8H", "QS", "JS", "7H", "KS", "9H", "TH"])
    assert "8H" in str(e.value) and "trick 1" in str(e.value)
    with pytest.raises(ValueError):                        # seat 1 does not hold QS
        H.play_round(TWO, 0, ["AS", "QS", "KS", "JS", "7H", "8H", "9H", "TH"])
    with pytest.raises(ValueError):                        # incomplete round
        H.play_round(TWO, 0, ["AS", "KS", "QS", "JS"])
    with pytest.raises(ValueError):                        # unequal hands
        H.play_round([["AS", "7H"], ["KS"], ["QS"], ["JS"]], 0, [])


def test_play_round_full_deal():
    rng = random.Random(7)
    for _ in range(20):
        order = list(H.DECK)
        rng.shuffle(order)
        dealer = rng.randrange(4)
        hands = H.deal_from_order(order, dealer)
        work = [list(h) for h in hands]
        leader = (dealer + 1) % 4
        seq, trick = [], []
        for _ in range(32):
            s = (leader + len(trick)) % 4
            c = rng.choice(H.legal_cards(work[s], trick[0][1] if trick else None))
            work[s].remove(c)
            seq.append(c)
            trick.append(c)
            if len(trick) == 4:
                leader = H.trick_winner(trick, leader)
                trick = []
        res = H.play_round(hands, (dealer + 1) % 4, seq)
        assert sum(res) == 8


# ---------------------------------------------------------------- scoring

def test_round_score():
    assert H.round_score(3, 3) == 30
    assert H.round_score(0, 0) == 25
    assert H.round_score(0, 8) == -80
    assert H.round_score(2, 5) == -30          # over by 3
    assert H.round_score(5, 2) == -30          # under by 3
    assert H.round_score(8, 8) == 80
    assert H.round_score(0, 0, "atleast") == 0     # no 25 bonus
    assert H.round_score(0, 3, "atleast") == 30    # bid 0 always made
    assert H.round_score(2, 5, "atleast") == 50    # made: 10 per trick taken
    assert H.round_score(5, 2, "atleast") == -30   # missed by 3
    assert H.round_score(3, 3, "atleast") == 30
    for bad in (-1, 9, 1.0, True):
        with pytest.raises(ValueError):
            H.round_score(bad, 0)
    with pytest.raises(ValueError):
        H.round_score(0, 9)
    with pytest.raises(ValueError):
        H.round_score(1, 1, "plus")


def test_timeout():
    assert H.timeout_bid() == 0 and H.TIMEOUT_BID == 0
    hand = ["7H", "7C", "AS", "8D"]
    assert H.timeout_card(hand, None) == "7C"            # lowest rank, clubs first
    assert H.timeout_card(hand, None, "SHDC") == "7H"    # S<H<D<C: hearts before clubs
    assert H.timeout_card(hand, "S") == "AS"             # only legal card
    assert H.timeout_card(hand, "D") == "8D"
    assert H.timeout_card(["AS", "KS", "QH"], "C") == "QH"   # void: lowest rank overall
    with pytest.raises(ValueError):
        H.timeout_card([], None)
    with pytest.raises(ValueError):
        H.timeout_card(hand, None, "CDH")


# ---------------------------------------------------------------- match

Z = [0, 0, 0, 0]


def test_match_result():
    r = H.match_result([[10, 0, 0, 0]] + [Z] * 4)
    assert r == {"totals": [10, 0, 0, 0], "winners": [0], "rounds_used": 5, "needs_more": False}
    # tie 0/1 after 5 rounds, no sudden death given
    r = H.match_result([[10, 10, 0, -5]] + [Z] * 4)
    assert r["winners"] == [0, 1] and r["needs_more"] and r["rounds_used"] == 5
    # sudden death [0,20,50,0]: totals [10,30,50,-5]; seat 2 is no contender -> seat 1
    r = H.match_result([[10, 10, 0, -5]] + [Z] * 4 + [[0, 20, 50, 0]])
    assert r == {"totals": [10, 30, 50, -5], "winners": [1], "rounds_used": 6, "needs_more": False}
    # three tied sudden-death rounds -> shared first place
    r = H.match_result([[10, 10, 0, 0]] + [Z] * 4 + [Z, Z, Z])
    assert r == {"totals": [10, 10, 0, 0], "winners": [0, 1], "rounds_used": 8, "needs_more": False}
    # 3-way tie narrowed to 2 by SD1, then to 1 by SD2
    base = [[10, 10, 10, 0]] + [Z] * 4
    r = H.match_result(base + [[20, 20, 0, 0]])
    assert r["winners"] == [0, 1] and r["needs_more"] and r["totals"] == [30, 30, 10, 0]
    r = H.match_result(base + [[20, 20, 0, 0], [0, 30, 0, 0]])
    assert r["winners"] == [1] and not r["needs_more"] and r["rounds_used"] == 7
    # negative sudden-death scores: the higher (less negative) wins
    r = H.match_result([[10, 10, 0, 0]] + [Z] * 4 + [[-20, -10, 0, 0]])
    assert r["winners"] == [1] and r["totals"] == [-10, 0, 0, 0]
    with pytest.raises(ValueError):                 # extra round after a decision
        H.match_result([[10, 0, 0, 0]] + [Z] * 4 + [Z])
    with pytest.raises(ValueError):                 # a 4th sudden-death round
        H.match_result([[10, 10, 0, 0]] + [Z] * 4 + [Z] * 4)
    with pytest.raises(ValueError):                 # fewer than 5 rounds
        H.match_result([Z] * 4)
    with pytest.raises(ValueError):
        H.match_result([Z] * 4 + [[0, 0, 0]])


# ---------------------------------------------------------------- analysis

def pos(hands, leader, table=(), taken=(0, 0, 0, 0)):
    return {"hands": [list(h) for h in hands], "leader": leader,
            "table": list(table), "taken": list(taken)}


# Position A: one card each, all forced; AS (seat 0) wins.
A = pos([["AS"], ["KS"], ["QS"], ["JS"]], 1)

# Position B (= TWO, leader 0): everyone must follow all the way; either lead
# gives seat 0 the spade trick and seat 3 the heart trick -> (1,0,0,1) only.
B = pos(TWO, 0)

# Position D: seat 0 chooses.  Leader 0.
#   lead AS: seat 1 must play 8S, AS wins; then 7S: seat 1 void (AH), seats 2/3
#            void -> 7S wins.  Seat 0 takes 2, result (2,0,0,0).
#   lead 7S: seat 1 must play 8S and wins; seat 1 leads AH, seat 0 discards AS,
#            AH wins.  Result (0,2,0,0).
D = pos([["AS", "7S"], ["8S", "AH"], ["KH", "QH"], ["JH", "TH"]], 0)

# Position E: mid-trick, seat 0 to move last; taken [2,1,2,1] (6 done, 2 left).
#   Table 9S (seat 1), TS (seat 2), JS (seat 3).
#   QS: wins (seat 0); seat 0 leads 8S vs 7S / AH / KD -> wins -> seat 0 total 4,
#       vector (4,1,2,1).
#   8S: JS wins (seat 3); seat 3 leads KD, QS discarded, KD wins -> seat 0 total 2,
#       vector (2,1,2,3).
E = pos([["QS", "8S"], ["7S"], ["AH"], ["KD"]], 1, ["9S", "TS", "JS"], [2, 1, 2, 1])

# Position Hh: the others choose.  Leader 1.
#   seat 1 AH: seats 2,3 discard diamonds; seat 0 discards 8S or 9C; AH wins.
#       seat 1 leads 7S: if seat 0 kept 8S it wins (1,1,0,0), else 7S wins (0,2,0,0).
#   seat 1 7S: seat 0 must play 8S and wins; seat 0 leads 9C, nobody has clubs,
#       9C wins -> (2,0,0,0).
Hh = pos([["8S", "9C"], ["AH", "7S"], ["KD", "QD"], ["JD", "TD"]], 1)


def test_forced_positions():
    assert H.paranoid_max(A, 0) == 1 and H.paranoid_min(A, 0) == 1
    assert H.exact_guarantees(A, 0) == {1} and H.exact_guarantees(A, 2) == {0}
    assert H.reachable_vectors(A) == {(1, 0, 0, 0)}
    assert H.reachable_vectors(B) == {(1, 0, 0, 1)}
    assert H.exact_guarantees(B, 3) == {1}
    # seat 0 takes exactly 1 in B: bid 1 -> +10, others miss by 1 or more
    assert H.bid_table(B, 0) == [-10, 10, -10, -20, -30, -40, -50, -60, -70]
    assert H.best_bid(B, 0) == (1, 10)
    assert H.best_bid(B, 1) == (0, 25)                  # seat 1 takes none
    # atleast: bid 0 and bid 1 both score 10*1 = 10 -> tie -> lowest bid 0
    assert H.bid_table(B, 0, "atleast")[:3] == [10, 10, -10]
    assert H.best_bid(B, 0, "atleast") == (0, 10)
    # one card each, seat 1 to lead: its only card
    assert H.best_cards(A, 0) == {"KS": 25}


def test_position_D_seat_choice():
    assert H.paranoid_max(D, 0) == 2
    assert H.paranoid_min(D, 0) == 0
    assert H.exact_guarantees(D, 0) == {0, 2}
    assert H.reachable_vectors(D) == {(2, 0, 0, 0), (0, 2, 0, 0)}
    # bid 1 misses by one either way
    assert H.bid_table(D, 0) == [25, -10, 20, -10, -20, -30, -40, -50, -60]
    assert H.best_bid(D, 0) == (0, 25)
    # atleast: bids 0,1,2 can all be made with 2 tricks -> 20; bid 3 misses by 1
    assert H.bid_table(D, 0, "atleast") == [20, 20, 20, -10, -20, -30, -40, -50, -60]
    assert H.best_bid(D, 0, "atleast") == (0, 20)
    assert H.best_cards(D, 0) == {"AS": -20, "7S": 25}
    assert H.best_cards(D, 2) == {"AS": 20, "7S": -20}
    # seat 1 has no choice at all; its fate (0 or 2) is decided by seat 0
    assert H.exact_guarantees(D, 1) == set()
    assert H.paranoid_max(D, 1) == 0       # seat 0 minimising leads AS
    assert H.paranoid_min(D, 1) == 2       # seat 0 maximising seat 1 leads 7S
    assert H.guaranteed_score(D, 1, 0) == -20
    assert H.exact_guarantees(D, 2) == {0}


def test_position_E_midtrick():
    assert H.paranoid_max(E, 0) == 4 and H.paranoid_min(E, 0) == 2
    assert H.exact_guarantees(E, 0) == {2, 4}
    assert H.reachable_vectors(E) == {(4, 1, 2, 1), (2, 1, 2, 3)}
    assert H.best_cards(E, 4) == {"QS": 40, "8S": -20}
    assert H.best_cards(E, 2) == {"QS": -20, "8S": 20}
    assert H.best_cards(E, 3) == {"QS": -10, "8S": -10}
    assert H.guaranteed_score(E, 0, 4) == 40
    assert H.guaranteed_score(E, 0, 0, "atleast") == 40   # take 4: 10*4
    assert H.paranoid_max(E, 3) == 1       # seat 0 minimising seat 3 plays QS
    assert H.paranoid_min(E, 3) == 3       # seat 3 has no choice; seat 0 maximising plays 8S


def test_position_Hh_others_choose():
    # seat 0 max / others min: AH line -> seat 0 keeps 8S -> 1; 7S line -> 2; min = 1
    assert H.paranoid_max(Hh, 0) == 1
    # seat 0 min / others max: AH line -> 0; 7S line -> 2; others pick 2
    assert H.paranoid_min(Hh, 0) == 2
    # AH line gives {0,1}, 7S line {2}: seat 1 chooses -> intersection empty
    assert H.exact_guarantees(Hh, 0) == set()
    # seat 1: AH line -> 1 or 2 chosen by seat 0 (nothing guaranteed); 7S -> 0
    assert H.exact_guarantees(Hh, 1) == {0}
    assert H.paranoid_max(Hh, 1) == 1 and H.paranoid_min(Hh, 1) == 0
    assert H.reachable_vectors(Hh) == {(0, 2, 0, 0), (1, 1, 0, 0), (2, 0, 0, 0)}
    # mover is seat 1: AH -> 1 or 2 tricks, 7S -> 0 tricks
    assert H.best_cards(Hh, 0) == {"AH": -20, "7S": 25}
    assert H.best_cards(Hh, 1) == {"AH": -10, "7S": -10}
    assert H.best_cards(Hh, 2, "atleast") == {"AH": -10, "7S": -20}
    assert H.best_bid(Hh, 1) == (0, 25)
    # seat 0, exact: bid k>=3 -> AH line best 1 trick -> -(k-1)*10
    assert H.bid_table(Hh, 0) == [-20, -10, -10, -20, -30, -40, -50, -60, -70]
    assert H.best_bid(Hh, 0) == (1, -10)              # tie with bid 2 -> lowest
    assert H.bid_table(Hh, 0, "atleast")[:4] == [10, 10, -10, -20]
    assert H.best_bid(Hh, 0, "atleast") == (0, 10)


def test_position_validation():
    with pytest.raises(ValueError):   # card twice
        H.paranoid_max(pos([["AS"], ["AS"], ["QS"], ["JS"]], 0), 0)
    with pytest.raises(ValueError):   # bad card
        H.paranoid_max(pos([["AS"], ["XS"], ["QS"], ["JS"]], 0), 0)
    with pytest.raises(ValueError):   # inconsistent sizes, empty table
        H.paranoid_max(pos([["AS", "7S"], ["KS"], ["QS"], ["JS"]], 0), 0)
    with pytest.raises(ValueError):   # inconsistent sizes with the table (seat 1 also played)
        H.paranoid_max(pos([["7S"], ["KS"], ["QS"], ["JS"]], 0, ["AS"]), 0)
    with pytest.raises(ValueError):   # table revoke: seat 1 played AH holding 8S
        H.paranoid_max(pos([["7S"], ["8S"], ["KH", "QH"], ["JH", "TH"]], 0, ["AS", "AH"]), 0)
    with pytest.raises(ValueError):   # table card also in a hand
        H.paranoid_max(pos([["7S"], ["AS", "8S"], ["KH", "QH"], ["JH", "TH"]], 0, ["AS"]), 0)
    with pytest.raises(ValueError):   # too many tricks
        H.paranoid_max(pos(TWO, 0, taken=[7, 0, 0, 0]), 0)
    with pytest.raises(ValueError):
        H.paranoid_max(D, 4)
    with pytest.raises(ValueError):
        H.guaranteed_score(D, 0, 9)
    with pytest.raises(ValueError):
        H.best_cards(D, 0, "nope")
    # a valid mid-trick position: seat 1 must follow with 8S
    mid = pos([["7S"], ["8S", "AH"], ["KH", "QH"], ["JH", "TH"]], 0, ["AS"])
    assert H.best_cards(mid, 0) == {"8S": 25}
    assert H.reachable_vectors(mid) == {(2, 0, 0, 0)}
    # finished round: nothing to play, tricks are the taken counts
    done = pos([[], [], [], []], 2, taken=[3, 2, 2, 1])
    assert H.best_cards(done, 3) == {}
    assert H.paranoid_max(done, 0) == 3 and H.exact_guarantees(done, 3) == {1}


# ---------------------------------------------------------------- random positions

def _all_sequences(hands, leader):
    """All legal full card sequences from a fresh position (naive DFS)."""
    out = []

    def rec(hs, lead, trick, seq):
        s = (lead + len(trick)) % 4
        if not trick and not hs[s]:
            out.append(list(seq))
            return
        for c in H.legal_cards(hs[s], trick[0][1] if trick else None):
            hs2 = [list(h) for h in hs]
            hs2[s].remove(c)
            t2 = trick + [c]
            if len(t2) == 4:
                rec(hs2, H.trick_winner(t2, lead), [], seq + [c])
            else:
                rec(hs2, lead, t2, seq + [c])

    rec([list(h) for h in hands], leader, [], [])
    return out


def test_random_position_shape():
    rng = random.Random(1)
    p = H.random_position(rng, 3)
    assert p["table"] == [] and p["taken"] == [0, 0, 0, 0] and 0 <= p["leader"] <= 3
    cards = [c for h in p["hands"] for c in h]
    assert len(cards) == 12 and len(set(cards)) == 12 and set(cards) <= set(H.DECK)
    assert H.random_position(random.Random(5), 2) == H.random_position(random.Random(5), 2)
    for n in range(1, 9):
        m = H.random_midtrick(rng, n)
        assert sum(m["taken"]) == 8 - n and 0 <= len(m["table"]) <= 3
        if n < 8:
            assert m["taken"][m["leader"]] >= 1
        H._state(m)   # validates sizes, distinctness and table legality
    with pytest.raises(ValueError):
        H.random_position(rng, 9)


def test_random_cross_checks():
    rng = random.Random(2024)
    for i in range(25):
        n = 2 if i % 3 else 3
        p = H.random_position(rng, n) if i % 2 else H.random_midtrick(rng, n)
        st = H._state(p)
        remaining = len(st[0][(st[1] + len(st[2])) % 4])
        vecs = H.reachable_vectors(p)
        assert all(sum(v) == sum(p["taken"]) + remaining for v in vecs)
        if not p["table"] and p["taken"] == [0, 0, 0, 0]:
            # reachable vectors == results of play_round over all legal sequences
            seqs = _all_sequences(p["hands"], p["leader"])
            assert vecs == {tuple(H.play_round(p["hands"], p["leader"], s)) for s in seqs}
        for seat in range(4):
            hi, lo = H.paranoid_max(p, seat), H.paranoid_min(p, seat)
            eg = H.exact_guarantees(p, seat)
            assert hi <= max(v[seat] for v in vecs) and lo >= min(v[seat] for v in vecs)
            assert all(lo <= k <= hi for k in eg)
            # k is guaranteed exactly  <=>  bid k under "exact" guarantees the made score
            for k in range(9):
                made = H.round_score(k, k)
                assert (H.guaranteed_score(p, seat, k) == made) == (k in eg)
            # atleast with bid 0 scores 10*tricks, so it guarantees 10*paranoid_max
            assert H.guaranteed_score(p, seat, 0, "atleast") == 10 * hi
        mover = (p["leader"] + len(p["table"])) % 4
        for bid in (0, 1, 2):
            bc = H.best_cards(p, bid)
            assert max(bc.values()) == H.guaranteed_score(p, mover, bid)
