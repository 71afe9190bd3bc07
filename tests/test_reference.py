"""Property test: random legal games on random small custom variants, played through the
engine and through the independent naive reference engine (tests/refengine.py), must
agree at every step on the legal actions, the clue contents, the state and the score;
``push`` then ``pop`` must restore the engine's state exactly."""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.hanabi.rules import COLOR_CLUE, PLAY, Card, Game, IllegalActionError, Rules, custom_variant

from conftest import as_action, as_tuple
from refengine import RefGame, brute_force_max, composition, distinct_moves


@st.composite
def setups(draw, max_suits=3, max_rank=4, max_cards=4, max_players=4, max_hand=3, max_tokens=3):
    """(custom variant, players, deck permutation, options); ``max_cards`` is the most
    cards of one suit."""
    suits = draw(st.integers(1, max_suits))
    ranks = draw(st.lists(st.integers(1, max_rank), min_size=1, max_size=max_cards))
    size = suits * len(ranks)
    if size < 2:  # two players need a card each
        ranks = ranks + [draw(st.integers(1, max_rank))]
        size = suits * len(ranks)
    players = draw(st.integers(2, min(max_players, size)))
    hand = draw(st.integers(1, min(max_hand, size // players)))
    variant = {"suits": suits, "ranks": ranks, "handSize": hand, "clueTokens": draw(st.integers(0, max_tokens))}
    strikes = draw(st.integers(1, 3))
    if strikes != 3 or draw(st.booleans()):  # sometimes rely on the default of 3
        variant["strikes"] = strikes
    deck = draw(st.permutations(composition(variant)))
    opts = {
        "empty_clues": draw(st.booleans()),
        "stacks": draw(st.booleans()),
        "deck_plays": draw(st.booleans()),
        "start": draw(st.integers(0, players - 1)),
        "to_the_end": draw(st.booleans()),
    }
    return variant, players, deck, opts


def candidates(n_cards: int, n_players: int, n_colors: int) -> list[tuple]:
    """A superset of the legal actions, including many illegal ones."""
    out: list[tuple] = []
    for o in range(-1, n_cards + 1):
        out += [("play", o), ("discard", o)]
    for t in range(-1, n_players + 1):
        out += [("color", t, c) for c in range(-1, n_colors + 1)]
        out += [("rank", t, r) for r in range(0, 6)]
    return out


SETTINGS: dict[str, Any] = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=150, **SETTINGS)
@given(setup=setups(), data=st.data())
def test_engine_agrees_with_reference(setup, data):
    """Small variants: 1-3 suits, 1-4 cards of ranks 1..4, hands of 1-3,
    0-3 clue tokens, 1-3 strikes, 2-4 players."""
    play_both(setup, data)


@settings(max_examples=100, **SETTINGS)
@given(setup=setups(max_suits=4, max_rank=5, max_cards=7, max_players=5, max_hand=4, max_tokens=8),
       data=st.data())
def test_engine_agrees_with_reference_longer_games(setup, data):
    """Bigger decks, so that games run through many clue/discard cycles."""
    play_both(setup, data)


def play_both(setup, data):
    variant, players, deck, opts = setup
    ref = RefGame(variant, players, deck, empty_clues=opts["empty_clues"],
                  keep_stacks_on_strikeout=opts["stacks"], deck_plays=opts["deck_plays"],
                  starting_player=opts["start"], play_to_the_end=opts["to_the_end"])
    rules = Rules(custom_variant(variant), empty_clues=opts["empty_clues"],
                  strikeout_score="stacks" if opts["stacks"] else "zero", deck_plays=opts["deck_plays"],
                  play_to_the_end=opts["to_the_end"])
    game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=opts["start"])
    state = game.initial_state()
    n_colors = variant["suits"]
    history = []  # (engine snapshot, end_reason) before each action

    while True:
        snap = state.snapshot()
        assert snap == ref.snapshot()
        assert state.score == ref.score and state.over == ref.over
        if ref.over:
            if ref.strikes >= ref.strike_limit:
                want = "strikeout"
            elif all(s == ref.max_rank for s in ref.stacks):
                want = "perfect"
            elif ref.turns_left == 0:
                want = "final_round"
            elif sum(ref.stacks) == ref._site_max_score():
                want = "max_score"
            else:
                want = "no_plays"
            assert state.end_reason == want
        else:
            assert state.end_reason is None

        legal = state.legal_actions()
        tuples = [as_tuple(a) for a in legal]
        assert len(tuples) == len(set(tuples)), "duplicate legal actions"
        ref_legal = ref.legal_actions()
        assert sorted(tuples) == ref_legal
        # clue content: exactly the target's cards of that color / rank, oldest first
        for a in legal:
            if a.is_clue:
                idx = 0 if a.kind == COLOR_CLUE else 1
                assert a.touched == tuple(o for o in ref.hands[a.target] if ref.deck[o][idx] == a.value)
        # check() accepts exactly the legal actions
        ref_set = set(ref_legal)
        for t in candidates(len(deck), players, n_colors):
            try:
                done = state.check(as_action(t))
                ok = True
            except IllegalActionError:
                ok = False
            assert ok == (t in ref_set), t
            if ok and done.is_clue:
                assert done.touched == legal[tuples.index(t)].touched
        assert state.snapshot() == snap  # check() and legal_actions() change nothing

        if ref.over:
            assert legal == []
            break

        # mostly avoid misplays, so that games last beyond the first strikes
        safe = [a for a in legal if a.kind != PLAY or ref.deck[a.target][1] == ref.stacks[ref.deck[a.target][0]] + 1]
        pool = safe if safe and data.draw(st.integers(0, 9), label="careful") < 8 else legal
        choice = pool[data.draw(st.integers(0, len(pool) - 1), label="action")]
        # push then pop restores exactly
        key, turn = state.key(), state.turn
        state.push(choice)
        state.pop()
        assert state.snapshot() == snap and state.key() == key and state.turn == turn
        assert state.end_reason is None and not state.over

        history.append((snap, state.end_reason))
        done = state.apply(as_action(as_tuple(choice)))
        assert done.touched == choice.touched
        ref = ref.apply(as_tuple(choice))
        assert state.turn == len(history)

    # unwind the whole game: every earlier position comes back exactly
    for snap, end in reversed(history):
        state.pop()
        assert state.snapshot() == snap and state.end_reason == end
    assert state.turn == 0 and state == game.initial_state()


def _every_line_max(g, memo):
    """The maximum over every legal action, clues included one by one (no merging)."""
    if g.over:
        return g.score
    key = g.state_key()
    if key not in memo:
        memo[key] = max(_every_line_max(g.apply(a), memo) for a in g.legal_actions())
    return memo[key]


@settings(max_examples=60, **SETTINGS)
@given(setup=setups(max_suits=2, max_rank=3, max_cards=3, max_players=3, max_hand=2, max_tokens=2))
def test_merged_clues_change_no_maximum(setup):
    """brute_force_max tries one clue per position (refengine.distinct_moves): its maximum
    is the maximum over every legal line, every clue tried."""
    variant, players, deck, opts = setup
    ref = RefGame(variant, players, deck, empty_clues=opts["empty_clues"],
                  keep_stacks_on_strikeout=opts["stacks"], deck_plays=opts["deck_plays"],
                  starting_player=opts["start"])
    moves = distinct_moves(ref)
    legal = ref.legal_actions()
    assert [a for a in legal if a[0] in ("play", "discard")] == [a for a in moves if a[0] in ("play", "discard")]
    assert sum(a[0] in ("color", "rank") for a in moves) == any(a[0] in ("color", "rank") for a in legal)
    assert brute_force_max(ref) == _every_line_max(ref, {})
