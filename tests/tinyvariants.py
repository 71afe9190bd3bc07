"""Tiny games with hanab.live's suit mechanics that change the rules of a stall or a
discard, for the brute-force checks of the search and the encodings:

* a suit no clue touches (the site's Null suit): a stall is legal only when another
  player holds a card some clue touches;
* an inverted (orange) suit: a discard is legal with all tokens available (gaining none).

The reference engine (refengine.py) takes the variant as a dict with ``"null"`` (the last
suits) or ``"inverted"``; here the same variant is built for the engine: a null suit from
the site's touch rules (``noClueColors`` and ``noClueRanks``, no clue color of its own),
an inverted suit with its flag."""
from __future__ import annotations

import random

from solver.game import Card, Game, Rules, Suit, Variant, custom_variant
from solver.game.variant import TouchRules

from refengine import RefGame, composition


def site_like_variant(spec: dict) -> Variant:
    """The engine's variant for a reference variant dict with ``"null"`` or ``"inverted"``
    suits."""
    base = custom_variant({k: v for k, v in spec.items() if k not in ("null", "inverted")})
    n = spec["suits"]
    nulls = set(spec.get("null", []))
    inverted = set(spec.get("inverted", []))
    suits = tuple(Suit("Null", "n", s.ranks, frozenset()) if i in nulls
                  else Suit(s.name, s.letter, s.ranks, s.touched_by, i in inverted) for i, s in enumerate(base.suits))
    colors = tuple(s.name for i, s in enumerate(base.suits) if i not in nulls)
    no = tuple(i in nulls for i in range(n))
    touch = TouchRules(all_colors=(False,) * n, no_colors=no, all_ranks=(False,) * n, no_ranks=no,
                       prism=(False,) * n)
    what = " and ".join(w for w, on in (("a null suit", nulls), ("an inverted suit", inverted)) if on)
    return Variant(f"{base.name} with {what}", suits, colors, clue_ranks=base.clue_ranks,
                   clue_tokens=base.clue_tokens, strikes=base.strikes, hand_sizes=base.hand_sizes, touch=touch)


def random_tiny_game(rng: random.Random, mechanic: str, *, max_cards: int = 8):
    """(engine state, reference game) at the start of a random tiny game: 2-3 suits, 1-4
    cards a suit, hands of 1-2, 0-3 tokens, 1-3 strikes, 2-3 players, random options
    (empty clues off: with them a null suit changes nothing; deck plays off with an
    inverted suit, which the engine does not take yet); ``mechanic`` "null": the last
    suit is null, "inverted": a random suit is inverted."""
    while True:
        suits = rng.randint(2, 3)
        ranks = [rng.randint(1, 3) for _ in range(rng.randint(1, 4))]
        if suits * len(ranks) <= max_cards:
            break
    size = suits * len(ranks)
    players = rng.randint(2, min(3, size))
    hand = rng.randint(1, min(2, size // players))
    spec = {"suits": suits, "ranks": ranks, "handSize": hand, "clueTokens": rng.randint(0, 3),
            "strikes": rng.randint(1, 3)}
    if mechanic == "null":
        spec["null"] = [suits - 1]
    else:
        spec["inverted"] = [rng.randrange(suits)]
    deck = composition(spec)
    rng.shuffle(deck)
    opts = {"deck_plays": rng.random() < 0.4 and mechanic != "inverted", "stacks": rng.random() < 0.3,
            "to_the_end": rng.random() < 0.3, "start": rng.randrange(players)}
    v = site_like_variant(spec)
    rules = Rules(v, deck_plays=opts["deck_plays"], strikeout_score="stacks" if opts["stacks"] else "zero",
                  play_to_the_end=opts["to_the_end"])
    game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=opts["start"])
    ref = RefGame(spec, players, deck, keep_stacks_on_strikeout=opts["stacks"], deck_plays=opts["deck_plays"],
                  starting_player=opts["start"], play_to_the_end=opts["to_the_end"])
    return game.initial_state(), ref
