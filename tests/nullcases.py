"""Tiny games with a suit no clue touches (hanab.live's Null suit), for the brute-force
checks of the search and the encodings: a stall is then legal only when another player
holds a card some clue touches.

The reference engine (refengine.py) takes the variant as a dict with ``"null"``: the last
suits; here the same variant is built for the engine from the site's touch rules (a suit
with ``noClueColors`` and ``noClueRanks``, and no clue color of its own)."""
from __future__ import annotations

import random

from solver.game import Card, Game, Rules, Suit, Variant, custom_variant
from solver.game.variant import TouchRules

from refengine import RefGame, composition


def null_variant(spec: dict) -> Variant:
    """The engine's variant for a reference variant dict with ``"null"`` suits."""
    base = custom_variant({k: v for k, v in spec.items() if k != "null"})
    n = spec["suits"]
    nulls = set(spec.get("null", []))
    suits = tuple(Suit("Null", "n", s.ranks, frozenset()) if i in nulls else s for i, s in enumerate(base.suits))
    colors = tuple(s.name for i, s in enumerate(base.suits) if i not in nulls)
    no = tuple(i in nulls for i in range(n))
    touch = TouchRules(all_colors=(False,) * n, no_colors=no, all_ranks=(False,) * n, no_ranks=no,
                       prism=(False,) * n)
    return Variant(f"{base.name} with a null suit", suits, colors, clue_ranks=base.clue_ranks,
                   clue_tokens=base.clue_tokens, strikes=base.strikes, hand_sizes=base.hand_sizes, touch=touch)


def random_null_game(rng: random.Random, *, max_cards: int = 8):
    """(engine state, reference game) at the start of a random tiny game whose last suit is
    null: 2-3 suits, 1-4 cards a suit, hands of 1-2, 0-3 tokens, 1-3 strikes, 2-3
    players, random options (empty clues off: with them the null suit changes nothing)."""
    while True:
        suits = rng.randint(2, 3)
        ranks = [rng.randint(1, 3) for _ in range(rng.randint(1, 4))]
        if suits * len(ranks) <= max_cards:
            break
    size = suits * len(ranks)
    players = rng.randint(2, min(3, size))
    hand = rng.randint(1, min(2, size // players))
    spec = {"suits": suits, "ranks": ranks, "handSize": hand, "clueTokens": rng.randint(0, 3),
            "strikes": rng.randint(1, 3), "null": [suits - 1]}
    deck = composition(spec)
    rng.shuffle(deck)
    opts = {"deck_plays": rng.random() < 0.4, "stacks": rng.random() < 0.3, "to_the_end": rng.random() < 0.3,
            "start": rng.randrange(players)}
    v = null_variant(spec)
    rules = Rules(v, deck_plays=opts["deck_plays"], strikeout_score="stacks" if opts["stacks"] else "zero",
                  play_to_the_end=opts["to_the_end"])
    game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=opts["start"])
    ref = RefGame(spec, players, deck, keep_stacks_on_strikeout=opts["stacks"], deck_plays=opts["deck_plays"],
                  starting_player=opts["start"], play_to_the_end=opts["to_the_end"])
    return game.initial_state(), ref
