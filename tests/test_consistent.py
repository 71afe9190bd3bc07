"""Differential test of the search's own position (``solver.hanabi.search.position.Position``)
against the rules engine's ``State`` — OpenSpiel's ``test_consistent`` pattern.

Random games (seeded, deterministic) on every built-in variant and on custom tiny and
small variants, with every rule option on and off (empty clues, deck plays, strikeout
score zero/stacks, reserve token, one extra card, one less card), 2-6 players where the
deck allows, and random starting players. Each game plays random legal engine actions
(good plays, misplays, discards, clues, deck plays), each mapped to the search's abstract
move (a play or discard names its card order; every clue is the ``CLUE`` stall), and
after EVERY step compares the two sides on:

- the position: current player, hands, next draw, stacks, clue tokens, strikes, turns
  left, over, the played total, and the final score (``Position.final_score`` against
  ``State.score`` once over, -1 before);
- the card queries: ``Position.reach`` against ``State.reach()``, ``Position.cls(o) == 0``
  against ``State.is_trash(o)`` and ``Position.playable(o)`` against
  ``State.is_playable(o)`` for every card in a hand or the deck, ``Position.cnt`` against
  ``State.copies_left()``, and the moves: the engine's legal actions mapped to moves
  against the moves the Position's fields allow (its hand, deck plays, discards below
  full tokens, ``can_clue()``);
- a fresh ``Position(state)`` built from the engine's state must equal the incrementally
  pushed one (and give the same transposition key).

Then both are unwound to the start with ``pop()``, comparing at every step again (with
each other and with what was recorded on the way forward); ``State.pop()`` must return the
actions in reverse order and ``State.history`` must always be the actions pushed so far.

A failure prints the variant, the rule options, the player count, the deck and the action
list, which reproduce it.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from solver.hanabi.rules import (
    BUILTIN,
    DISCARD,
    PLAY,
    Card,
    Game,
    MalformedError,
    Rules,
    custom_variant,
    format_compact,
    parse_variant,
)
from solver.hanabi.search.kernel import CLUE, Position
from solver.hanabi.search.kernel import DISCARD as P_DISCARD
from solver.hanabi.search.kernel import PLAY as P_PLAY

FLAGS = ("empty_clues", "deck_plays", "reserve_token", "one_extra_card", "one_less_card", "play_to_the_end")

# custom variants: tiny ones (hands run empty, decks empty at the deal, gaps, no tokens,
# one strike) and a few longer ones (several clue/discard cycles)
CUSTOM = [
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 2, "clueTokens": 2},
    {"suits": 2, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 2},
    {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 1, "strikes": 2},
    {"suits": 3, "ranks": [1, 2], "handSize": 2, "clueTokens": 2},
    {"suits": 1, "ranks": [1, 1, 2, 2, 3], "handSize": 2, "clueTokens": 3},
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 1, "clueTokens": 1},
    {"suits": 2, "ranks": [1, 3, 3], "handSize": 2, "clueTokens": 0},  # a gap: reach stops at 1
    {"suits": 2, "ranks": [1, 1, 2], "handSize": 1, "clueTokens": 1, "strikes": 1},
    {"suits": 3, "ranks": [1, 2, 3], "handSize": 1, "clueTokens": 2, "strikes": 1},
    {"suits": 2, "ranks": [1, 2], "handSize": 2, "clueTokens": 4},  # 2 players: empty deck at the deal
    {"suits": 1, "ranks": [1, 2, 3, 4], "handSize": 1, "clueTokens": 3, "strikes": 2},
    {"suits": 3, "ranks": [1, 1, 2, 3, 3, 4, 5], "handSize": 3, "clueTokens": 4, "strikes": 2},
    {"suits": 4, "ranks": [1, 1, 2, 2, 3, 4], "handSize": 2, "clueTokens": 3},
    {"suits": 6, "ranks": [1, 2, 2, 3], "handSize": 2, "clueTokens": 2, "strikes": 4},
    {"suits": 5, "ranks": [1, 1, 1, 2, 2, 3, 3, 4, 4, 5], "handSize": 4, "clueTokens": 8},
]

# per game, the weights of the move categories (uniform choice inside a category)
STYLES: dict[str, dict[str, float]] = {
    "careful": {"good": 6, "discard": 3, "clue": 1, "misplay": 0.15, "deck": 4},
    "stalling": {"good": 3, "discard": 2, "clue": 5, "misplay": 0.3, "deck": 2},
    "wild": {"good": 1, "discard": 1, "clue": 1, "misplay": 1, "deck": 1},
}
SAFE = {"good": 6, "discard": 3, "clue": 1, "misplay": 1e-9, "deck": 4}  # misplays only when forced


# ---------------------------------------------------------------- the two views
def cards_in_play(hands, next_draw, deck_len):
    return [o for h in hands for o in h] + list(range(next_draw, deck_len))


def state_view(st) -> dict:
    """Everything compared, read from the engine's State."""
    g = st.game
    reach = st.reach()
    cards = cards_in_play(st.hands, st.next_draw, len(g.deck))
    return {
        "current": st.current,
        "hands": tuple(map(tuple, st.hands)),
        "next_draw": st.next_draw,
        "stacks": tuple(st.stacks),
        "clues": st.clues,
        "strikes": st.strikes,
        "turns_left": -1 if st.turns_left is None else st.turns_left,
        "over": st.over,
        "final_score": st.score if st.over else -1,
        "played": sum(st.stacks),
        "reach": tuple(reach),
        "trash": tuple(o for o in cards if st.is_trash(o, reach)),
        "playable": tuple(o for o in cards if st.is_playable(o)),
        "copies": {(c.suit, c.rank): k for c, k in st.copies_left().items() if k},
        "moves": sorted({to_move(a) for a in st.legal_actions()}),
    }


def pos_view(pos: Position) -> dict:
    """The same, read from the search's Position."""
    cards = cards_in_play(pos.hands, pos.nd, pos.deck_len)
    return {
        "current": pos.cur,
        "hands": tuple(map(tuple, pos.hands)),
        "next_draw": pos.nd,
        "stacks": tuple(pos.stacks),
        "clues": pos.clues,
        "strikes": pos.strikes,
        "turns_left": pos.tl,
        "over": pos.over,
        "final_score": pos.final_score,
        "played": pos.score,
        "reach": tuple(pos.reach),
        "trash": tuple(o for o in cards if pos.cls(o) == 0),
        "playable": tuple(o for o in cards if pos.playable(o)),
        "copies": {(c // 8, c % 8): k for c, k in enumerate(pos.cnt) if k},
        "moves": [] if pos.over else position_moves(pos),
    }


def position_moves(pos: Position) -> list[tuple[int, int]]:
    """The moves legal in a Position as the search reads them from its fields: play any
    card of the hand, or the last deck card with deck plays; discard below full tokens;
    the clue stall when ``can_clue()``."""
    hand = pos.hands[pos.cur]
    moves = {(P_PLAY, o) for o in hand}
    if pos.deck_plays and pos.deck_len - pos.nd == 1:
        moves.add((P_PLAY, pos.nd))
    if pos.clues < pos.max_clues or pos.discard_at_max:
        moves |= {(P_DISCARD, o) for o in hand}
    if pos.can_clue():
        moves.add((CLUE, -1))
    return sorted(moves)


def diff(a: dict, b: dict) -> str:
    return "; ".join(f"{k}: {a[k]!r} != {b[k]!r}" for k in a if a[k] != b[k])


# ---------------------------------------------------------------- one game
class Setup:
    def __init__(self, label, variant, players, deck, flags, strikeout, start):
        self.label, self.variant, self.players, self.deck = label, variant, players, deck
        self.flags, self.strikeout, self.start = flags, strikeout, start
        self.rules = Rules(variant, strikeout_score=strikeout, **flags)
        self.game = Game(self.rules, players, deck, starting_player=start)

    def describe(self, actions) -> str:
        on = [f for f in FLAGS if self.flags[f]]
        return (f"{self.label}: variant={self.variant.to_json()!r} players={self.players} start={self.start} "
                f"options={on + ['strikeout_score=' + self.strikeout]}\n"
                f"  deck={format_compact(self.deck, self.variant)!r}\n"
                f"  actions ({len(actions)})={[(a.kind, a.target, a.value) for a in actions]}")


def make_setup(rng: random.Random, label: str, spec, players=None) -> Setup:
    """A random game of ``spec`` (built-in name or custom object): random rule flags
    (each on with probability 1/2), strikeout rule, starting player, deck order; the
    player count is ``players`` or random among those the deck allows."""
    if isinstance(spec, str):
        variant = BUILTIN[spec] if spec in BUILTIN else parse_variant(spec)
    else:
        variant = custom_variant(spec)
    size = len(variant.composition())
    while True:
        flags = {f: rng.random() < 0.5 for f in FLAGS}
        strikeout = rng.choice(("zero", "stacks"))
        n = players if players is not None else rng.randint(2, min(6, size))
        deck = [Card(s, r) for s, r in variant.composition()]
        rng.shuffle(deck)
        try:
            return Setup(label, variant, n, deck, flags, strikeout, rng.randrange(n))
        except MalformedError:  # hand size 0, or the hands need more cards than the deck has
            continue


def categorize(st, a) -> str:
    if a.kind == PLAY:
        if a.target not in st.hands[st.current]:
            return "deck"
        return "good" if st.is_playable(a.target) else "misplay"
    return "discard" if a.kind == DISCARD else "clue"


def choose(rng: random.Random, st, weights: dict):
    by_cat: dict[str, list] = {}
    for a in st.legal_actions():
        by_cat.setdefault(categorize(st, a), []).append(a)
    cats = sorted(by_cat)
    cat = rng.choices(cats, [weights[c] for c in cats])[0]
    return rng.choice(by_cat[cat])


def to_move(a) -> tuple[int, int]:
    """An engine action as the search's move: a play or discard of its card; any clue is
    the clue stall."""
    if a.kind == PLAY:
        return P_PLAY, a.target
    if a.kind == DISCARD:
        return P_DISCARD, a.target
    return CLUE, -1


def check_fresh(st, pos, where):
    """A Position built from the engine's state equals the incrementally pushed one."""
    fresh = Position(st)
    fv, pv = pos_view(fresh), pos_view(pos)
    assert fv == pv, f"Position(state) differs from the pushed Position: {diff(fv, pv)}\n{where()}"
    assert fresh.key() == pos.key(), f"transposition keys differ\n{where()}"
    assert (fresh.next_pos, fresh.last_pos, fresh.slots) == (pos.next_pos, pos.last_pos, pos.slots), where()


def play_and_unwind(setup: Setup, rng: random.Random, weights: dict, fresh_every: int = 1) -> Counter:
    """One random game, checked after every push and every pop; returns event counts."""
    g = setup.game
    st = g.initial_state()
    pos = Position(st)
    events: Counter = Counter()
    done: list = []  # the engine actions pushed, oldest first
    recorded = []  # state_view before each action (and at the end)

    def where():
        return setup.describe(done)

    def compare(step: str):
        sv, pv = state_view(st), pos_view(pos)
        assert sv == pv, f"Position and State differ {step}: {diff(sv, pv)}\n{where()}"
        assert st.history == done, f"State.history is not the actions pushed ({step})\n{where()}"
        assert st.turn == len(done) == len(pos._undo), (step, where())
        # the default path of is_trash (computing reach itself) agrees with the one given reach
        for o in st.hands[st.current]:
            assert st.is_trash(o) == (pos.cls(o) == 0), (o, step, where())
        return sv

    if st.turns_left is not None:
        events["deal_empties_the_deck"] += 1
    recorded.append(compare("at the start"))
    check_fresh(st, pos, where)
    while not st.over:
        a = choose(rng, st, weights)
        cat = categorize(st, a)
        before_clues, before_tl = st.clues, st.turns_left
        kind, o = to_move(a)
        act = st.apply(a)
        pos.push(kind, o)
        done.append(act)
        events[cat] += 1
        if cat == "deck":
            events["deck_play_ok" if st.strikes == recorded[-1]["strikes"] else "deck_misplay"] += 1
        if act.is_clue and not act.touched:
            events["empty_clue"] += 1
        if cat == "good" and st.clues > before_clues:
            events["token_from_a_finished_suit"] += 1
        if before_tl is None and st.turns_left is not None:
            events["final_round_starts"] += 1
        if before_tl is not None and act.kind != PLAY and not act.is_clue:
            events["final_round_discard"] += 1
        if any(not h for h in st.hands):
            events["empty_hand"] += 1
        recorded.append(compare(f"after action {len(done) - 1}"))
        if len(done) % fresh_every == 0 or st.over:
            check_fresh(st, pos, where)
    events["end_" + st.end_reason] += 1
    if st.end_reason == "strikeout":
        events[f"strikeout_{setup.strikeout}_{'scores' if st.score else 'nothing'}"] += 1
    events["games"] += 1
    events["steps"] += len(done)

    # unwind both to the start, comparing at every step
    line = list(done)
    for k in range(len(line) - 1, -1, -1):
        got = st.pop()
        pos.pop()
        done.pop()
        assert got == line[k] and got.touched == line[k].touched, (
            f"State.pop() returned {got!r}, not action {k} {line[k]!r}\n{setup.describe(line)}")
        sv = compare(f"after popping back to before action {k}")
        assert sv == recorded[k], f"unwinding to before action {k} does not restore it: {diff(sv, recorded[k])}\n" \
                                  f"{setup.describe(line)}"
    assert st == g.initial_state() and st.history == [] and pos._undo == []
    check_fresh(st, pos, lambda: setup.describe(line))
    return events


def run_group(label: str, specs, games: int, seed: int, players_cycle=None, fresh_every: int = 1,
              never: tuple[str, ...] = ()) -> Counter:
    """Random games of ``specs`` in turn; ``never``: flags these variants cannot take (the
    setup redraws), left out of the check that every flag was both on and off."""
    rng = random.Random(seed)
    events: Counter = Counter()
    seen_flags: Counter[tuple[str, bool | str]] = Counter()
    for i in range(games):
        spec = specs[i % len(specs)]
        players = None if players_cycle is None else players_cycle[i % len(players_cycle)]
        setup = make_setup(rng, label, spec, players)
        style = rng.choice(sorted(STYLES))
        events += play_and_unwind(setup, rng, STYLES[style], fresh_every)
        for f in FLAGS:
            seen_flags[(f, setup.flags[f])] += 1
        seen_flags[("strikeout", setup.strikeout)] += 1
        events[f"players_{setup.players}"] += 1
    # every option was on in some game and off in another
    for f in FLAGS:
        assert (seen_flags[(f, True)] or f in never) and seen_flags[(f, False)], (label, f, seen_flags)
    assert seen_flags[("strikeout", "zero")] and seen_flags[("strikeout", "stacks")], (label, seen_flags)
    assert events["games"] == games
    return events


# ---------------------------------------------------------------- tests
BUILTIN_NAMES = sorted(BUILTIN)


def hash_seed(text: str) -> int:
    """A seed from a name, stable across runs (str hashing is randomized)."""
    return sum((i + 1) * ord(c) for i, c in enumerate(text))


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_builtin_variant_games(name):
    """Each built-in variant: 15 games, 3 of each player count 2-6."""
    ev = run_group(name, [name], games=15, seed=hash_seed(name), players_cycle=[2, 3, 4, 5, 6], fresh_every=4)
    for n in range(2, 7):
        assert ev[f"players_{n}"] == 3, ev
    # the games reach the rules that matter, so the comparison is not vacuous
    for what in ("good", "misplay", "discard", "clue", "end_strikeout", "final_round_starts"):
        assert ev[what], (name, what, ev)
    assert ev["steps"] > 15 * 20, ev


def test_custom_variant_games():
    """Custom tiny and small variants, every player count the deck allows: 450 games."""
    ev = run_group("custom", CUSTOM, games=450, seed=2024)
    for n in range(2, 7):
        assert ev[f"players_{n}"], (n, ev)
    for what in ("good", "misplay", "discard", "clue", "deck", "deck_play_ok", "deck_misplay", "empty_clue",
                 "token_from_a_finished_suit", "final_round_starts", "final_round_discard", "empty_hand",
                 "deal_empties_the_deck", "end_perfect", "end_strikeout", "end_final_round", "end_max_score",
                 "end_no_plays",
                 "strikeout_zero_nothing", "strikeout_stacks_scores"):
        assert ev[what], (what, ev)


NULL_VARIANTS = ["Null (5 Suits)", "Null-Ones (4 Suits)", "Dark Null (5 Suits)", "Null & Dark Brown (6 Suits)"]
INVERTED_VARIANTS = ["Orange (6 Suits)", "Dark Orange (6 Suits)", "Orange & Dark Null (5 Suits)"]


def test_site_variants_with_cards_no_clue_touches():
    """Null suits: whether a stall is legal depends on which cards the other hands hold
    (``can_clue()`` against the engine's legal clues after every move)."""
    ev = run_group("null", NULL_VARIANTS, games=40, seed=31)
    for what in ("good", "misplay", "discard", "clue", "final_round_starts"):
        assert ev[what], (what, ev)


def test_site_variants_with_inverted_suits():
    """Inverted suits: a discard is legal with every token available (and gains none)."""
    ev = run_group("inverted", INVERTED_VARIANTS, games=30, seed=37, never=("deck_plays",))  # refused with them
    for what in ("good", "misplay", "discard", "clue", "final_round_starts"):
        assert ev[what], (what, ev)


def test_long_games_reach_the_final_round():
    """Play without misplays (but from the deck) on full built-in decks, so the deck runs
    out: the final round is played, deck plays happen (with deck_plays), and a suit's last
    card returns a token."""
    rng = random.Random(77)
    ev: Counter = Counter()
    for i, name in enumerate(BUILTIN_NAMES * 2):
        setup = make_setup(rng, name, name, players=2 + i % 5)
        ev += play_and_unwind(setup, rng, SAFE, fresh_every=8)
    for what in ("final_round_starts", "end_final_round", "final_round_discard", "token_from_a_finished_suit",
                 "deck_play_ok", "deck_misplay"):
        assert ev[what], (what, ev)


def test_the_test_detects_a_mismatch():
    """The comparison is not blind: a Position whose stacks, reach or strikes are off by
    one (or whose final score is wrong) is reported."""
    rng = random.Random(5)
    setup = make_setup(rng, "check", CUSTOM[11], players=3)
    st = setup.game.initial_state()
    for field in ("stacks", "reach", "strikes", "tl", "final_score"):
        pos = Position(st)
        if field in ("stacks", "reach"):
            getattr(pos, field)[0] += 1
        else:
            setattr(pos, field, getattr(pos, field) + 1)
        assert state_view(st) != pos_view(pos), field
    assert state_view(st) == pos_view(Position(st))
