"""One test per rule and per option, each asserting the exact state after the action.

Decks are tiny custom variants in compact notation, so every expected state can be
worked out by hand. Card orders are deck positions: with 2 players and hand size 2,
Alice holds #0 #1, Bob #2 #3 and #4 is the next card drawn. Every action goes through
``do``, which also checks that ``push`` then ``pop`` restores the position exactly.
"""
from __future__ import annotations

import pytest

from solver.hanabi.rules import (
    BUILTIN,
    BY_HANABLIVE_ID,
    COLOR_CLUE,
    DISCARD,
    PLAY,
    RANK_CLUE,
    Action,
    Card,
    Game,
    IllegalActionError,
    MalformedError,
    Rules,
    custom_variant,
    game_from_json,
    parse_variant,
    variant_by_name,
)

from conftest import full_deck, make_game

# 2 suits (red, yellow) of r1 r1 r2: six cards.
V2 = {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 2}
# Alice #0 r1 #1 y2 | Bob #2 y1 #3 r1 | deck #4 r2 #5 y1
DECK2 = "r1 y2 y1 r1 r2 y1"


def S(current, hands, next_draw, stacks, clues, strikes=0, discards=(), turns_left=None, over=False, score=None):
    """An expected snapshot (every field)."""
    return {
        "current": current,
        "hands": [list(h) for h in hands],
        "next_draw": next_draw,
        "stacks": list(stacks),
        "clues": clues,
        "strikes": strikes,
        "discards": list(discards),
        "turns_left": turns_left,
        "over": over,
        "score": sum(stacks) if score is None else score,
    }


def do(st, action):
    """Apply ``action`` (validated) after checking that push+pop of it is a no-op."""
    before, key, turn, end = st.snapshot(), st.key(), st.turn, st.end_reason
    twin = st.copy()
    st.push(st.check(action))
    st.pop()
    assert st.snapshot() == before and st.key() == key
    assert (st.turn, st.end_reason) == (turn, end)
    assert st == twin
    return st.apply(action)


def illegal(st, action, *needles):
    """``action`` is refused with a message containing ``needles``, is not among the
    legal actions, and the state is unchanged."""
    before = st.snapshot()
    assert action not in st.legal_actions()
    with pytest.raises(IllegalActionError) as ei:
        st.apply(action)
    for n in needles:
        assert n in str(ei.value), str(ei.value)
    assert st.snapshot() == before
    return str(ei.value)


def clue_set(st):
    return {(a.kind, a.target, a.value, a.touched) for a in st.legal_actions() if a.is_clue}


# ---------------------------------------------------------------- the deal
def test_initial_state():
    st = make_game(V2, DECK2).initial_state()
    assert st.snapshot() == S(0, [[0, 1], [2, 3]], 4, [0, 0], 2)
    assert st.turn == 0 and st.end_reason is None and st.deck_left == 2


# ---------------------------------------------------------------- play
def test_play_success():
    st = make_game(V2, DECK2).initial_state()
    assert do(st, Action.play(0)) == Action.play(0)
    assert st.snapshot() == S(1, [[1, 4], [2, 3]], 5, [1, 0], 2)
    assert st.turn == 1 and st.end_reason is None


def test_misplay_strikes_discards_and_draws():
    st = make_game(V2, DECK2).initial_state()
    do(st, Action.play(1))  # y2 on an empty yellow stack
    assert st.snapshot() == S(1, [[0, 4], [2, 3]], 5, [0, 0], 2, strikes=1, discards=[1])


def test_play_card_not_in_hand_is_illegal():
    st = make_game(V2, DECK2).initial_state()
    illegal(st, Action.play(2), "not in Alice's hand", "held by Bob")
    illegal(st, Action.play(4), "still in the deck")
    illegal(st, Action.play(6), "no such card")
    illegal(st, Action.discard(-1), "no such card")


def test_misplayed_duplicate_and_drawing_the_last_card():
    st = make_game(V2, DECK2).initial_state()
    do(st, Action.play(0))
    do(st, Action.play(3))  # Bob's r1 on a red 1 misplays; he draws the last card
    assert st.snapshot() == S(0, [[1, 4], [2, 5]], 6, [1, 0], 2, strikes=1, discards=[3], turns_left=2)


# ---------------------------------------------------------------- discard
def test_discard_gains_token_and_draws():
    st = make_game(V2, DECK2).initial_state()
    do(st, Action.color_clue(1, 1))
    assert st.snapshot() == S(1, [[0, 1], [2, 3]], 4, [0, 0], 1)
    do(st, Action.discard(3))
    assert st.snapshot() == S(0, [[0, 1], [2, 4]], 5, [0, 0], 2, discards=[3])


def test_discard_illegal_at_max_tokens():
    st = make_game(V2, DECK2).initial_state()
    assert not any(a.kind == DISCARD for a in st.legal_actions())
    illegal(st, Action.discard(0), "all 2 clue tokens")


# ---------------------------------------------------------------- clues
def test_clue_costs_a_token():
    st = make_game(V2, DECK2).initial_state()
    done = do(st, Action.rank_clue(1, 1))
    assert done.touched == (2, 3)
    assert st.snapshot() == S(1, [[0, 1], [2, 3]], 4, [0, 0], 1)


def test_clue_illegal_at_zero_tokens():
    st = make_game(dict(V2, clueTokens=1), DECK2).initial_state()
    do(st, Action.rank_clue(1, 1))
    assert st.snapshot() == S(1, [[0, 1], [2, 3]], 4, [0, 0], 0)
    illegal(st, Action.rank_clue(0, 1), "no clue tokens")
    illegal(st, Action.color_clue(0, 0), "no clue tokens")
    assert sorted((a.kind, a.target) for a in st.legal_actions()) == [
        (PLAY, 2), (PLAY, 3), (DISCARD, 2), (DISCARD, 3)]


def test_zero_clue_token_variant_has_only_plays():
    st = make_game(dict(V2, clueTokens=0), DECK2).initial_state()
    assert st.clues == 0
    assert st.legal_actions() == [Action.play(0), Action.play(1)]
    illegal(st, Action.discard(0))
    illegal(st, Action.rank_clue(1, 1))


def test_clue_to_self_illegal():
    st = make_game(V2, DECK2).initial_state()
    illegal(st, Action.rank_clue(0, 1), "themself")
    illegal(st, Action.color_clue(0, 0), "themself")
    assert all(a.target != 0 for a in st.legal_actions() if a.is_clue)


def test_clue_to_missing_player_or_bad_value_illegal():
    st = make_game(V2, DECK2).initial_state()
    illegal(st, Action.rank_clue(2, 1), "no such player")
    illegal(st, Action.color_clue(1, 2), "not a clue color")
    illegal(st, Action.rank_clue(1, 3), "not a clue rank")  # the variant has ranks 1 and 2 only


def test_clue_content_custom_variant():
    st = make_game(V2, DECK2).initial_state()
    assert clue_set(st) == {
        (COLOR_CLUE, 1, 0, (3,)),     # red: r1
        (COLOR_CLUE, 1, 1, (2,)),     # yellow: y1
        (RANK_CLUE, 1, 1, (2, 3)),    # 1s
    }
    assert do(st, Action.color_clue(1, 0)).touched == (3,)


EMPTY_DECK = "r1 y2 y1 y1 r1 r2"  # Bob holds #2 y1 #3 y1: no red, no 2


def test_empty_clue_illegal_by_default():
    st = make_game(V2, EMPTY_DECK).initial_state()
    illegal(st, Action.color_clue(1, 0), "touches no card")
    illegal(st, Action.rank_clue(1, 2), "touches no card")
    assert clue_set(st) == {(COLOR_CLUE, 1, 1, (2, 3)), (RANK_CLUE, 1, 1, (2, 3))}


def test_empty_clue_legal_with_empty_clues():
    st = make_game(V2, EMPTY_DECK, empty_clues=True).initial_state()
    assert clue_set(st) == {
        (COLOR_CLUE, 1, 0, ()), (COLOR_CLUE, 1, 1, (2, 3)),
        (RANK_CLUE, 1, 1, (2, 3)), (RANK_CLUE, 1, 2, ()),
    }
    assert do(st, Action.color_clue(1, 0)).touched == ()
    assert st.snapshot() == S(1, [[0, 1], [2, 3]], 4, [0, 0], 1)
    # still only the variant's clue values, and still not to oneself
    illegal(st, Action.rank_clue(1, 3))
    illegal(st, Action.rank_clue(1, 1), "themself")


def test_rainbow_touched_by_every_color_and_not_a_clue_color():
    # Alice r1..r5 | Bob #5 r1 #6 m1 #7 y2 #8 m5 #9 b3
    g = make_game("Rainbow (5 Suits)", "r1 r2 r3 r4 r5  r1 m1 y2 m5 b3", fill=True)
    assert g.variant.clue_colors == ("Red", "Yellow", "Green", "Blue")
    st = g.initial_state()
    assert clue_set(st) == {
        (COLOR_CLUE, 1, 0, (5, 6, 8)),
        (COLOR_CLUE, 1, 1, (6, 7, 8)),
        (COLOR_CLUE, 1, 2, (6, 8)),
        (COLOR_CLUE, 1, 3, (6, 8, 9)),
        (RANK_CLUE, 1, 1, (5, 6)),
        (RANK_CLUE, 1, 2, (7,)),
        (RANK_CLUE, 1, 3, (9,)),
        (RANK_CLUE, 1, 5, (8,)),
    }
    illegal(st, Action.color_clue(1, 4), "not a clue color")
    assert do(st, Action.color_clue(1, 2)).touched == (6, 8)
    assert st.snapshot() == S(1, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], 10, [0] * 5, 7)


def test_rainbow_6_suits_purple_touches_rainbow():
    g = make_game("Rainbow (6 Suits)", "r1 r2 r3 r4 r5  p1 m1 y2 m5 b3", fill=True)
    assert g.variant.clue_colors == ("Red", "Yellow", "Green", "Blue", "Purple")
    st = g.initial_state()
    assert st.check(Action.color_clue(1, 4)).touched == (5, 6, 8)
    assert st.check(Action.color_clue(1, 0)).touched == (6, 8)
    illegal(st, Action.color_clue(1, 5), "not a clue color")


def test_black_is_a_clue_color_touching_only_black():
    # Alice r1..r5 | Bob #5 k1 #6 k5 #7 r1 #8 b1 #9 y1
    g = make_game("Black (5 Suits)", "r1 r2 r3 r4 r5  k1 k5 r1 b1 y1", fill=True)
    assert g.variant.clue_colors == ("Red", "Yellow", "Green", "Blue", "Black")
    st = g.initial_state()
    assert clue_set(st) == {
        (COLOR_CLUE, 1, 0, (7,)),
        (COLOR_CLUE, 1, 1, (9,)),
        (COLOR_CLUE, 1, 3, (8,)),
        (COLOR_CLUE, 1, 4, (5, 6)),
        (RANK_CLUE, 1, 1, (5, 7, 8, 9)),
        (RANK_CLUE, 1, 5, (6,)),
    }
    assert do(st, Action.color_clue(1, 4)).touched == (5, 6)
    assert st.snapshot() == S(1, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], 10, [0] * 5, 7)


def test_black_has_one_card_of_each_rank():
    v = variant_by_name("Black (6 Suits)")
    with pytest.raises(MalformedError, match="deck does not match"):
        make_game(v, "k1 k1 " + " ".join(f"{c}{r}" for c in "rygbp" for r in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5))
                  + " k2 k3 k4 k5")


def test_multicolor_own_clue_color():
    # Alice r1..r5 | Bob #5 m1 #6 m5 #7 r1 #8 p1 #9 m1
    g = make_game("Multicolor (6 Suits)", "r1 r2 r3 r4 r5  m1 m5 r1 p1 m1", fill=True)
    v = g.variant
    assert v.clue_colors == ("Red", "Yellow", "Green", "Blue", "Purple", "Multicolor")
    assert [s.name for s in v.suits] == ["Red", "Yellow", "Green", "Blue", "Purple", "Multicolor"]
    assert v.suits[5].ranks == (1, 1, 1, 2, 2, 3, 3, 4, 4, 5) and v.perfect_score == 30
    st = g.initial_state()
    assert st.check(Action.color_clue(1, 5)).touched == (5, 6, 9)
    assert st.check(Action.color_clue(1, 0)).touched == (7,)
    assert st.check(Action.color_clue(1, 4)).touched == (8,)
    illegal(st, Action.color_clue(1, 1), "touches no card")


# ---------------------------------------------------------------- completing a suit
# 3 suits of 1-5, 3 players of 3 cards:
# Alice #0 r1 #1 r3 #2 r5 | Bob #3 r2 #4 r4 #5 y1 | Cathy #6 y2 #7 y3 #8 y4 | deck #9 y5 g1..g5
V5 = {"suits": 3, "ranks": [1, 2, 3, 4, 5], "handSize": 3, "clueTokens": 2}
DECK5 = "r1 r3 r5 r2 r4 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5"


def _to_red_four(st, cathy_second: Action):
    do(st, Action.play(0))                    # A r1
    do(st, Action.play(3))                    # B r2
    assert do(st, Action.rank_clue(0, 5)).touched == (2, 9)  # C: Alice's 5s
    do(st, Action.play(1))                    # A r3
    do(st, Action.play(4))                    # B r4
    do(st, cathy_second)


def test_playing_a_five_returns_a_token():
    st = make_game(V5, DECK5, 3).initial_state()
    _to_red_four(st, Action.rank_clue(1, 1))  # Cathy clues Bob's 1s: tokens 0
    assert st.snapshot() == S(0, [[2, 9, 11], [5, 10, 12], [6, 7, 8]], 13, [4, 0, 0], 0)
    do(st, Action.play(2))  # r5
    assert st.snapshot() == S(1, [[9, 11, 13], [5, 10, 12], [6, 7, 8]], 14, [5, 0, 0], 1)


def test_playing_a_five_at_max_tokens_gains_nothing():
    st = make_game(V5, DECK5, 3).initial_state()
    _to_red_four(st, Action.discard(8))  # Cathy discards y4: tokens back to 2 (max)
    assert st.snapshot() == S(0, [[2, 9, 11], [5, 10, 12], [6, 7, 13]], 14, [4, 0, 0], 2, discards=[8])
    do(st, Action.play(2))  # r5, draws the last card: final round
    assert st.snapshot() == S(1, [[9, 11, 14], [5, 10, 12], [6, 7, 13]], 15, [5, 0, 0], 2,
                              discards=[8], turns_left=3)


def test_custom_suit_is_complete_at_its_highest_rank():
    # ranks 1 1 2: red is complete at 2, which returns a token (1 of 2 used)
    st = make_game(V2, "r1 y1 r2 y2 r1 y1", play_to_the_end=True).initial_state()
    do(st, Action.play(0))                 # A r1, draws #4
    do(st, Action.rank_clue(0, 1))         # B clues Alice's 1s (#1 y1, #4 r1): tokens 1
    do(st, Action.play(1))                 # A y1, draws #5
    do(st, Action.play(2))                 # B r2 completes red: tokens 2
    assert st.snapshot() == S(0, [[4, 5], [3]], 6, [2, 1], 2, turns_left=1)
    assert not st.over


# ---------------------------------------------------------------- end of the game
def test_all_stacks_complete_ends_game_perfect():
    # 2 suits of r1 r1 r1 r2, hand 1: #0 r1 #1 r2 | deck #2 y1 #3 y2 #4 r1 #5 y1 #6 r1 #7 y1
    st = make_game({"suits": 2, "ranks": [1, 1, 1, 2], "handSize": 1, "clueTokens": 1},
                   "r1 r2 y1 y2 r1 y1 r1 y1").initial_state()
    do(st, Action.play(0))
    do(st, Action.play(1))  # red complete: the game goes on
    assert st.snapshot() == S(0, [[2], [3]], 4, [2, 0], 1)
    do(st, Action.play(2))
    do(st, Action.play(3))  # yellow complete: every stack is
    assert st.snapshot() == S(0, [[4], [5]], 6, [2, 2], 1, over=True)
    assert st.end_reason == "perfect" and st.score == 4 == st.game.perfect_score
    assert st.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        st.apply(Action.play(4))


STRIKE_V = {"suits": 1, "ranks": [1, 2, 3, 3, 3, 3, 3], "handSize": 1, "clueTokens": 1}
STRIKE_DECK = "r1 r3 r3 r3 r3 r2 r3"  # #0 r1 | #1 r3 | deck #2 r3 #3 r3 #4 r3 #5 r2 #6 r3


def _three_strikes(st):
    do(st, Action.play(0))  # r1
    do(st, Action.play(1))  # strike 1
    assert st.snapshot() == S(0, [[2], [3]], 4, [1], 1, strikes=1, discards=[1])
    do(st, Action.play(2))  # strike 2
    assert st.snapshot() == S(1, [[4], [3]], 5, [1], 1, strikes=2, discards=[1, 2])
    do(st, Action.play(3))  # strike 3


def test_third_strike_ends_game_with_score_zero():
    st = make_game(STRIKE_V, STRIKE_DECK).initial_state()
    assert st.game.strike_limit == 3  # custom default
    _three_strikes(st)
    assert st.snapshot() == S(0, [[4], [5]], 6, [1], 1, strikes=3, discards=[1, 2, 3], over=True, score=0)
    assert st.end_reason == "strikeout" and st.legal_actions() == []


def test_strikeout_score_stacks_keeps_the_stacks():
    st = make_game(STRIKE_V, STRIKE_DECK, strikeout_score="stacks").initial_state()
    _three_strikes(st)
    assert st.snapshot() == S(0, [[4], [5]], 6, [1], 1, strikes=3, discards=[1, 2, 3], over=True, score=1)
    assert st.end_reason == "strikeout"


def test_custom_strike_limit():
    st = make_game(dict(STRIKE_V, strikes=1), STRIKE_DECK).initial_state()
    do(st, Action.play(0))
    do(st, Action.play(1))
    assert st.snapshot() == S(0, [[2], [3]], 4, [1], 1, strikes=1, discards=[1], over=True, score=0)
    assert st.end_reason == "strikeout"


def test_final_round_every_player_including_drawer_gets_one_turn():
    # 3 players, hand 1: #0 r1 | #1 r2 | #2 r3 | deck #3 r1
    st = make_game({"suits": 1, "ranks": [1, 1, 2, 3], "handSize": 1, "clueTokens": 2},
                   "r1 r2 r3 r1", 3, play_to_the_end=True).initial_state()
    do(st, Action.play(0))  # Alice draws the last card
    assert st.snapshot() == S(1, [[3], [1], [2]], 4, [1], 2, turns_left=3)
    do(st, Action.play(1))  # Bob: no card to draw
    assert st.snapshot() == S(2, [[3], [], [2]], 4, [2], 2, turns_left=2)
    assert do(st, Action.rank_clue(0, 1)).touched == (3,)  # Cathy
    assert st.snapshot() == S(0, [[3], [], [2]], 4, [2], 1, turns_left=1)
    assert st.legal_actions()  # the drawer still has a turn
    do(st, Action.discard(3))  # Alice's last turn
    assert st.snapshot() == S(1, [[], [], [2]], 4, [2], 2, discards=[3], turns_left=0, over=True)
    assert st.end_reason == "final_round" and st.legal_actions() == []


def test_deal_that_empties_the_deck_starts_the_final_round():
    st = make_game({"suits": 1, "ranks": [1, 2], "handSize": 1, "clueTokens": 1}, "r1 r2",
                   play_to_the_end=True).initial_state()
    assert st.snapshot() == S(0, [[0], [1]], 2, [0], 1, turns_left=2)
    do(st, Action.rank_clue(1, 2))
    assert st.snapshot() == S(1, [[0], [1]], 2, [0], 0, turns_left=1)
    do(st, Action.discard(1))
    assert st.snapshot() == S(0, [[0], []], 2, [0], 1, discards=[1], turns_left=0, over=True)
    assert st.end_reason == "final_round"


# ---------------------------------------------------------------- the site's end of game
def test_site_ends_the_game_when_the_score_is_the_most_still_reachable():
    # one suit r1 r1 r2 r3, hand 1: #0 r1 | #1 r3 | deck #2 r2 #3 r1
    for to_the_end in (False, True):
        st = make_game({"suits": 1, "ranks": [1, 1, 2, 3], "handSize": 1, "clueTokens": 2},
                       "r1 r3 r2 r1", play_to_the_end=to_the_end).initial_state()
        do(st, Action.play(0))          # Alice r1, draws #2 r2
        do(st, Action.rank_clue(0, 2))  # Bob
        do(st, Action.discard(2))       # Alice discards the only r2: 1 is all red can reach
        assert st.score == 1 == st.max_reachable()
        if to_the_end:  # the printed rules play on through the final round
            assert not st.over and st.turns_left == 2
        else:
            assert st.over and st.end_reason == "max_score" and st.legal_actions() == []
            illegal(st, Action.rank_clue(0, 1), "the game is over (max_score)")


def test_site_ends_the_final_round_when_only_finished_players_hold_a_card_to_play():
    # 3 players, hand 1: #0 r1 | #1 r2 | #2 r3 | deck #3 r1
    st = make_game({"suits": 1, "ranks": [1, 1, 2, 3], "handSize": 1, "clueTokens": 2},
                   "r1 r2 r3 r1", 3).initial_state()
    do(st, Action.play(0))  # Alice draws the last card: her hand stays live
    do(st, Action.play(1))  # Bob r2, his last turn
    assert not st.over
    do(st, Action.rank_clue(0, 1))  # Cathy's last turn: she keeps r3, which nobody can play now
    assert st.over and st.end_reason == "no_plays" and st.score == 2 and st.max_reachable() == 3
    assert st.turns_left == 1  # Alice's last turn is not played


def test_site_end_keeps_the_drawers_hand_and_the_players_still_to_act_live():
    # 3 players, hand 1: #0 y1 | #1 r1 | #2 y2 | deck #3 r2
    st = make_game({"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 3},
                   "y1 r1 y2 r2", 3).initial_state()
    do(st, Action.rank_clue(1, 1))  # Alice
    do(st, Action.play(1))          # Bob r1, draws the last card (#3 r2)
    do(st, Action.rank_clue(0, 1))  # Cathy's last turn: her y2 is dead, Alice's y1 is not
    assert not st.over
    do(st, Action.play(0))          # Alice y1: y2 is Cathy's (dead), r2 the drawer's (live)
    assert not st.over and st.current == 1
    do(st, Action.play(3))          # Bob r2: the final round is over
    assert st.over and st.end_reason == "final_round" and st.score == 3


def test_site_end_pops_back():
    st = make_game({"suits": 1, "ranks": [1, 1, 2, 3], "handSize": 1, "clueTokens": 2},
                   "r1 r3 r2 r1").initial_state()
    do(st, Action.play(0))
    do(st, Action.rank_clue(0, 2))
    before = st.snapshot()
    do(st, Action.discard(2))
    assert st.over
    st.pop()
    assert st.snapshot() == before and not st.over and st.end_reason is None


# ---------------------------------------------------------------- options
def test_reserve_token_nine_tokens():
    g = make_game("No Variant", "", fill=True, reserve_token=True)
    assert g.max_clues == 9 and g.rules.clue_tokens == 9
    st = g.initial_state()  # Alice r1 r1 r1 r2 r2 | Bob #5 r3 #6 r3 #7 r4 #8 r4 #9 r5
    assert st.snapshot() == S(0, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], 10, [0] * 5, 9)
    illegal(st, Action.discard(0), "all 9 clue tokens")
    assert do(st, Action.rank_clue(1, 3)).touched == (5, 6)
    assert st.snapshot() == S(1, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], 10, [0] * 5, 8)
    do(st, Action.discard(9))
    assert st.snapshot() == S(0, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 10]], 11, [0] * 5, 9, discards=[9])
    illegal(st, Action.discard(0), "all 9 clue tokens")
    assert Rules(custom_variant(dict(V2, clueTokens=2)), reserve_token=True).clue_tokens == 3
    assert Rules(variant_by_name("No Variant")).clue_tokens == 8


@pytest.mark.parametrize("players,normal,extra,less", [
    (2, 5, 6, 4), (3, 5, 6, 4), (4, 4, 5, 3), (5, 4, 5, 3), (6, 3, 4, 2)])
def test_hand_sizes_per_player_count_and_options(players, normal, extra, less):
    for opts, h in (({}, normal), ({"one_extra_card": True}, extra), ({"one_less_card": True}, less)):
        g = make_game("No Variant", "", players, fill=True, **opts)
        assert g.hand_size == h
        st = g.initial_state()
        assert st.snapshot() == S(0, [list(range(p * h, (p + 1) * h)) for p in range(players)],
                                  players * h, [0] * 5, 8)


def test_one_extra_and_one_less_card_custom_variant():
    assert make_game(V2, DECK2, one_extra_card=True).initial_state().snapshot() == \
        S(0, [[0, 1, 2], [3, 4, 5]], 6, [0, 0], 2, turns_left=2)
    assert make_game(V2, DECK2, one_less_card=True).initial_state().snapshot() == \
        S(0, [[0], [1]], 2, [0, 0], 2)
    with pytest.raises(MalformedError, match="hand size"):
        make_game(dict(V2, handSize=1), DECK2, one_less_card=True)


@pytest.mark.parametrize("players", [1, 7, 0])
def test_bad_player_count(players):
    with pytest.raises(MalformedError, match="player count"):
        make_game("No Variant", "", players, fill=True)


def test_too_few_cards_for_the_hands():
    with pytest.raises(MalformedError, match="bad player count 4"):
        make_game(V2, DECK2, 4)


DP_V = {"suits": 1, "ranks": [1, 1, 2, 3], "handSize": 1, "clueTokens": 1}


def test_deck_plays_last_card_playable_then_final_round():
    # #0 r1 | #1 r1 | deck #2 r3 #3 r2
    st = make_game(DP_V, "r1 r1 r3 r2", deck_plays=True, play_to_the_end=True).initial_state()
    assert Action.play(3) not in st.legal_actions()  # two cards left: not yet
    illegal(st, Action.play(3), "still in the deck")
    do(st, Action.play(0))
    assert st.snapshot() == S(1, [[2], [1]], 3, [1], 1)
    assert sorted((a.kind, a.target) for a in st.legal_actions() if not a.is_clue) == [(PLAY, 1), (PLAY, 3)]
    illegal(st, Action.discard(3))
    assert do(st, Action.play(3)) == Action.play(3)  # Bob plays r2 straight from the deck
    assert st.snapshot() == S(0, [[2], [1]], 4, [2], 1, turns_left=2)
    do(st, Action.rank_clue(1, 1))
    assert st.snapshot() == S(1, [[2], [1]], 4, [2], 0, turns_left=1)
    do(st, Action.discard(1))
    assert st.snapshot() == S(0, [[2], []], 4, [2], 1, discards=[1], turns_left=0, over=True)
    assert st.end_reason == "final_round"


def test_deck_play_misplay():
    st = make_game(DP_V, "r1 r1 r2 r3", deck_plays=True).initial_state()
    do(st, Action.play(0))
    do(st, Action.play(3))  # r3 from the deck on a red 1
    assert st.snapshot() == S(0, [[2], [1]], 4, [1], 1, strikes=1, discards=[3], turns_left=2)


def test_deck_play_illegal_without_option():
    st = make_game(DP_V, "r1 r1 r3 r2").initial_state()
    do(st, Action.play(0))
    illegal(st, Action.play(3), "still in the deck")


def test_starting_player():
    # 3 players, hand 1: #0 r1 | #1 y2 | #2 y1 | deck #3 r1 #4 r2 #5 y1
    g = make_game(dict(V2, handSize=1), DECK2, 3, starting_player=2)
    st = g.initial_state()
    assert st.snapshot() == S(2, [[0], [1], [2]], 3, [0, 0], 2)
    illegal(st, Action.play(0), "not in Cathy's hand")
    do(st, Action.play(2))
    assert st.snapshot() == S(0, [[0], [1], [3]], 4, [0, 1], 2)
    with pytest.raises(MalformedError, match="startingPlayer"):
        make_game(V2, DECK2, 2, starting_player=2)


def test_starting_player_from_json():
    v = custom_variant(V2)
    obj = {"players": ["a", "b"], "deck": [c.to_json() for c in make_game(V2, DECK2).deck],
           "options": {"variant": V2, "startingPlayer": 1}}
    rec = game_from_json(obj)
    assert rec.game.starting_player == 1 and rec.game.variant == v
    assert rec.game.initial_state().current == 1


# ---------------------------------------------------------------- variants as data
STD = (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)
BUILTINS = {
    # name: (hanab.live id, suits, letters, clue colors, cards, max score)
    "No Variant": (0, ["Red", "Yellow", "Green", "Blue", "Purple"], "rygbp",
                   ("Red", "Yellow", "Green", "Blue", "Purple"), 50, 25),
    "6 Suits": (1, ["Red", "Yellow", "Green", "Blue", "Purple", "Teal"], "rygbpt",
                ("Red", "Yellow", "Green", "Blue", "Purple", "Teal"), 60, 30),
    "Black (5 Suits)": (21, ["Red", "Yellow", "Green", "Blue", "Black"], "rygbk",
                        ("Red", "Yellow", "Green", "Blue", "Black"), 45, 25),
    "Black (6 Suits)": (2, ["Red", "Yellow", "Green", "Blue", "Purple", "Black"], "rygbpk",
                        ("Red", "Yellow", "Green", "Blue", "Purple", "Black"), 55, 30),
    "Rainbow (5 Suits)": (16, ["Red", "Yellow", "Green", "Blue", "Rainbow"], "rygbm",
                          ("Red", "Yellow", "Green", "Blue"), 50, 25),
    "Rainbow (6 Suits)": (3, ["Red", "Yellow", "Green", "Blue", "Purple", "Rainbow"], "rygbpm",
                          ("Red", "Yellow", "Green", "Blue", "Purple"), 60, 30),
}


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtin_variant(name):
    hid, suits, letters, colors, cards, perfect = BUILTINS[name]
    v = variant_by_name(name)
    assert v is BUILTIN[name] and BY_HANABLIVE_ID[hid] is v and v.hanablive_id == hid
    assert [s.name for s in v.suits] == suits
    assert "".join(s.letter for s in v.suits) == letters
    assert v.clue_colors == colors and v.clue_ranks == (1, 2, 3, 4, 5)
    assert (v.clue_tokens, v.strikes) == (8, 3)
    assert v.hand_sizes == ((2, 5), (3, 5), (4, 4), (5, 4), (6, 3))
    assert len(v.composition()) == cards and v.perfect_score == perfect
    for i, s in enumerate(v.suits):
        if s.name == "Black":
            assert s.ranks == (1, 2, 3, 4, 5)
        else:
            assert s.ranks == STD
        if s.name == "Rainbow":
            assert s.touched_by == frozenset(range(len(colors)))
        else:
            assert s.touched_by == frozenset([colors.index(s.name)]) and i == colors.index(s.name)
    # hanab.live's deck order: suit by suit, ranks ascending with their copies
    assert v.composition() == [(si, r) for si, s in enumerate(v.suits) for r in s.ranks]
    assert v.to_json() == name
    assert parse_variant(name) is v and variant_by_name(name.upper()) is v


def test_builtin_ids_are_exactly_hanablive():
    assert {i: v.name for i, v in BY_HANABLIVE_ID.items()} == {
        0: "No Variant", 1: "6 Suits", 2: "Black (6 Suits)", 3: "Rainbow (6 Suits)",
        16: "Rainbow (5 Suits)", 21: "Black (5 Suits)"}
    assert BUILTIN["Multicolor (6 Suits)"].hanablive_id is None


def test_unknown_variant():
    with pytest.raises(MalformedError, match="unknown variant"):
        variant_by_name("Rainbow (7 Suits)")
    with pytest.raises(MalformedError):
        parse_variant(["No Variant"])


def test_builtin_deck_must_match_composition():
    v = variant_by_name("No Variant")
    deck = full_deck(v)
    Game(v, 2, deck)
    with pytest.raises(MalformedError, match="deck does not match"):
        Game(v, 2, deck[:-1])
    with pytest.raises(MalformedError, match="missing r5"):
        Game(v, 2, deck[:9] + [Card(0, 4)] + deck[10:])
    with pytest.raises(MalformedError, match="deck does not match"):
        Game(v, 2, deck[:-1] + [Card(5, 1)])


def test_custom_variant_parsing_and_default_strikes():
    v = custom_variant({"suits": 2, "ranks": [3, 1, 2, 1], "handSize": 2, "clueTokens": 2})
    assert v.strikes == 3
    assert [s.name for s in v.suits] == ["Red", "Yellow"] and [s.letter for s in v.suits] == ["r", "y"]
    assert all(s.ranks == (1, 1, 2, 3) for s in v.suits)
    assert [s.touched_by for s in v.suits] == [frozenset([0]), frozenset([1])]
    assert v.clue_colors == ("Red", "Yellow") and v.clue_ranks == (1, 2, 3)
    assert v.clue_tokens == 2 and v.perfect_score == 6
    assert all(v.hand_size(p) == 2 for p in range(2, 7))
    assert v.composition() == [(0, 1), (0, 1), (0, 2), (0, 3), (1, 1), (1, 1), (1, 2), (1, 3)]
    assert v.to_json() == {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 2, "strikes": 3}
    assert custom_variant({"suits": 1, "ranks": [1], "handSize": 1, "clueTokens": 0, "strikes": 1}).strikes == 1
    six = custom_variant({"suits": 6, "ranks": [1, 2], "handSize": 3, "clueTokens": 8})
    assert "".join(s.letter for s in six.suits) == "rygbpt"
    # equal by value to the same spec written differently
    assert parse_variant({"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 2, "strikes": 3}) == v


def test_custom_variant_from_json_options():
    r = Rules.from_json_options({"variant": {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 1},
                                 "emptyClues": True, "deckPlays": True, "strikeoutScore": "stacks"})
    assert r.variant.custom == {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 1, "strikes": 3}
    assert (r.empty_clues, r.deck_plays, r.strikeout_score, r.reserve_token) == (True, True, "stacks", False)
    assert Rules.from_json_options({"oneExtraCard": True, "oneLessCard": False, "reserveToken": True}) == \
        Rules(variant_by_name("No Variant"), one_extra_card=True, reserve_token=True)
    d = Rules.from_json_options(None)
    assert (d.empty_clues, d.strikeout_score, d.reserve_token, d.deck_plays, d.one_extra_card,
            d.one_less_card) == (False, "zero", False, False, False, False)


@pytest.mark.parametrize("spec", [
    {"ranks": [1], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [1], "clueTokens": 1},
    {"suits": 2, "ranks": [1], "handSize": 1},
    {"suits": 0, "ranks": [1], "handSize": 1, "clueTokens": 1},
    {"suits": 7, "ranks": [1], "handSize": 1, "clueTokens": 1},
    {"suits": True, "ranks": [1], "handSize": 1, "clueTokens": 1},
    {"suits": "2", "ranks": [1], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [0], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [6], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [1, True], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": "123", "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [1], "handSize": 0, "clueTokens": 1},
    {"suits": 2, "ranks": [1], "handSize": 1, "clueTokens": -1},
    {"suits": 2, "ranks": [1], "handSize": 1, "clueTokens": 1, "strikes": 0},
    {"suits": 2, "ranks": [1], "handSize": 1, "clueTokens": 1, "strikes": None},
    {"suits": 2, "ranks": [1], "handSize": 1, "clueTokens": 1, "colour": 3},
    [2, [1], 1, 1],
])
def test_custom_variant_rejects_bad_specs(spec):
    with pytest.raises(MalformedError):
        parse_variant(spec)


@pytest.mark.parametrize("opts", [
    {"emptyClues": "yes"}, {"deckPlays": 1}, {"strikeoutScore": "all"}, {"variant": 3},
    {"detrimentalCharacters": True}, [],
])
def test_bad_rule_options(opts):
    with pytest.raises(MalformedError):
        Rules.from_json_options(opts)


# ---------------------------------------------------------------- push / pop
def test_push_pop_restores_every_position_of_a_whole_game():
    # a game using every kind of action, pushed to the end and popped back to the start
    st = make_game(V5, DECK5, 3).initial_state()
    line = [Action.play(0), Action.play(3), Action.rank_clue(0, 5), Action.play(1), Action.play(4),
            Action.discard(8), Action.play(9), Action.color_clue(2, 1), Action.discard(7),
            Action.play(11)]
    snaps, ends = [st.snapshot()], [None]
    for a in line:
        st.push(st.check(a))
        snaps.append(st.snapshot())
        ends.append(st.end_reason)
    assert st.over and st.end_reason == "final_round"
    assert st.turn == len(line)
    for i in range(len(line), 0, -1):
        assert st.snapshot() == snaps[i] and st.end_reason == ends[i]
        st.pop()
    assert st.snapshot() == snaps[0] and st.turn == 0 and st.end_reason is None
    assert st == st.game.initial_state()  # State equality is within one Game


def test_push_pop_restores_terminal_and_deck_play_positions():
    for game, line in [
        (make_game(STRIKE_V, STRIKE_DECK), [Action.play(o) for o in range(4)]),
        (make_game(DP_V, "r1 r1 r3 r2", deck_plays=True), [Action.play(0), Action.play(3), Action.play(2)]),
    ]:
        st = game.initial_state()
        for a in line:
            do(st, a)
        assert st.over
        snap = st.snapshot()
        st.pop()
        assert not st.over and st.end_reason is None
        st.push(st.check(line[-1]))
        assert st.snapshot() == snap
