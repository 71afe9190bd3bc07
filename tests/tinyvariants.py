"""Tiny games with hanab.live's mechanics that change the rules of a stall, a discard or a
token, for the brute-force checks of the search and the encodings:

* a suit no clue touches (the site's Null suit): a stall is legal only when another
  player holds a card some clue touches;
* an inverted (orange) suit: a discard is legal with all tokens available (gaining none);
* Clue Starved: tokens in halves (a discard or a completed stack gives half, a clue costs
  a whole token);
* Throw It in a Hole: a completed stack gives no token;
* Alternating Clues: a clue may not have the type of the clue before it (made to bind with
  a suit no color clue touches, "colorless", or one no rank clue touches, "rankless");
* reversed suits: built from the top rank down to 1;
* Up or Down: a stack starts with its 1 (up), top rank (down) or START card;
* Sudoku: a stack starts at any rank no other stack started at and wraps around.

The reference engine (refengine.py) takes the variant as a dict with ``"null"`` (the last
suits), ``"inverted"``, ``"clueStarved"``, ``"throwItInAHole"``, ``"alternatingClues"``,
``"colorless"`` (here: the last suit), ``"rankless"`` or ``"reversed"``; here the same variant is built for
the engine: a null suit from the site's touch rules (``noClueColors`` and ``noClueRanks``,
no clue color of its own), a colorless one with ``noClueColors`` and no clue color, a
rankless one with ``noClueRanks``, an inverted or a reversed suit and the three rules with
their flags."""
from __future__ import annotations

import random
from typing import Any

from solver.hanabi.rules import Card, Game, Rules, Suit, Variant, custom_variant
from solver.hanabi.rules.variant import START_RANK, TouchRules

from refengine import RefGame, composition

MECHANICS = ("null", "inverted", "starved", "hole", "alternating", "reversed", "updown", "sudoku")
# the mechanics the solvers play: all (Up or Down and Sudoku through solver.hanabi.methods.split)
SOLVED = MECHANICS
_FLAGS = {"clueStarved": "clue_starved", "throwItInAHole": "throw_it_in_a_hole",
          "alternatingClues": "alternating_clues"}


def site_like_variant(spec: dict[str, Any]) -> Variant:
    """The engine's variant for a reference variant dict (the keys above)."""
    extra = ("null", "inverted", "colorless", "rankless", "reversed", "upOrDown", "sudoku", *_FLAGS)
    start = [START_RANK] if spec.get("upOrDown") else []  # (Up or Down: a START card a suit, added below)
    base = custom_variant({k: ([r for r in v if r != START_RANK] if k == "ranks" else v)
                           for k, v in spec.items() if k not in extra})
    n = spec["suits"]
    nulls = set(spec.get("null", []))
    colorless = set(spec.get("colorless", []))
    rankless = set(spec.get("rankless", []))
    inverted = set(spec.get("inverted", []))
    reversed_ = set(spec.get("reversed", []))
    no_color = nulls | colorless
    colors = tuple(s.name for i, s in enumerate(base.suits) if i not in no_color)
    suits = tuple(Suit("Null", "n", s.ranks, frozenset()) if i in nulls
                  else Suit(s.name, s.letter, s.ranks + tuple(start), frozenset() if i in colorless else s.touched_by,
                            i in inverted, i in reversed_)
                  for i, s in enumerate(base.suits))
    touch = TouchRules(all_colors=(False,) * n, no_colors=tuple(i in no_color for i in range(n)),
                       all_ranks=(False,) * n, no_ranks=tuple(i in nulls | rankless for i in range(n)),
                       prism=(False,) * n)
    words = [w for w, on in (("a null suit", nulls), ("an inverted suit", inverted), ("a colorless suit", colorless),
                             ("a rankless suit", rankless), ("a reversed suit", reversed_)) if on]
    words += [k for k in _FLAGS if spec.get(k)]
    flags: dict[str, Any] = {field: bool(spec.get(k)) for k, field in _FLAGS.items()}  # Variant's bool fields
    return Variant(f"{base.name} with {' and '.join(words)}", suits, colors, clue_ranks=base.clue_ranks,
                   clue_tokens=base.clue_tokens, strikes=base.strikes, hand_sizes=base.hand_sizes, touch=touch,
                   up_or_down=bool(spec.get("upOrDown")), sudoku=bool(spec.get("sudoku")),
                   **flags)


def random_tiny_game(rng: random.Random, mechanic: str, *, max_cards: int = 8, fit: bool = False):
    """(engine state, reference game) at the start of a random tiny game: 2-3 suits, 1-4
    cards a suit, hands of 1-2, 0-3 tokens, 1-3 strikes, 2-3 players, random options
    (empty clues off: with them a null suit changes nothing; deck plays off with an
    inverted suit, which the engine does not take yet); ``mechanic`` (one of MECHANICS)
    "null": the last suit is null, "inverted": a random suit is inverted, "starved",
    "hole": the rule (with at most one token: then a stack's token counts), "alternating":
    the rule, mostly with the last suit colorless or a random one rankless (without them it
    cannot bind: Game.alternation_binds). Up or Down and Sudoku games have suits of their
    own (below), larger than ``max_cards`` unless ``fit``: then within it (at least two
    suits of 1, 2, 3, 4 and START in Up or Down: 10 cards; in Sudoku two suits of ranks 1..2 or
    1..3, one or two of each, within max_cards), small enough for the brute force."""
    while True:
        suits = rng.randint(2, 3)
        ranks = [rng.randint(1, 3) for _ in range(rng.randint(1, 4))]
        if suits * len(ranks) <= max_cards and (mechanic != "reversed" or max(ranks) >= 2):
            break  # (a reversed suit of one rank would be no different)
    size = suits * len(ranks)
    players = rng.randint(2, min(3, size))
    hand = rng.randint(1, min(2, size // players))
    spec: dict[str, Any] = {"suits": suits, "ranks": ranks, "handSize": hand, "clueTokens": rng.randint(0, 3),
            "strikes": rng.randint(1, 3)}
    if mechanic == "null":
        spec["null"] = [suits - 1]
    elif mechanic == "inverted":
        spec["inverted"] = [rng.randrange(suits)]
    elif mechanic == "starved":
        spec["clueStarved"] = True
    elif mechanic == "hole":
        spec["throwItInAHole"] = True
        spec["clueTokens"] = min(spec["clueTokens"], 1)  # scarce tokens: a stack's token would count
    elif mechanic == "alternating":
        spec["alternatingClues"] = True
        x = rng.random()
        if x < 0.4:
            spec["colorless"] = [suits - 1]
        elif x < 0.8:
            spec["rankless"] = [rng.randrange(suits)]
    elif mechanic == "updown":  # one 1, one top rank, one START, one or two of each between
        top = rng.choice([4, 5])
        spec["ranks"] = [1] + [r for r in range(2, top) for _ in range(rng.randint(1, 2))] + [top, START_RANK]
        if fit and suits * len(spec["ranks"]) > max(max_cards, 10):
            spec["suits"], spec["ranks"] = 2, [1, 2, 3, 4, START_RANK]
        spec["upOrDown"] = True
    elif mechanic == "sudoku":  # ranks 1..N, two of each, at most N suits
        n = rng.randint(max(2, suits), 4)
        copies = [2] * n
        if fit:  # (then one or two of each rank, at most max_cards cards)
            suits, n = 2, min(n, 3)
            copies = [rng.randint(1, 2) for _ in range(n)]
            while suits * sum(copies) > max_cards:
                copies[copies.index(2)] = 1
        spec["suits"] = suits
        spec["ranks"] = [r for r in range(1, n + 1) for _ in range(copies[r - 1])]
        spec["sudoku"] = True
    elif mechanic == "reversed":
        spec["reversed"] = sorted(rng.sample(range(suits), rng.randint(1, suits)))
    else:
        raise ValueError(f"unknown mechanic {mechanic!r}")
    suits = spec["suits"]
    deck = composition(spec)
    rng.shuffle(deck)
    opts: dict[str, Any] = {"deck_plays": rng.random() < 0.4 and mechanic != "inverted", "stacks": rng.random() < 0.3,
            "to_the_end": rng.random() < 0.3, "start": rng.randrange(players)}
    v = site_like_variant(spec)
    rules = Rules(v, deck_plays=opts["deck_plays"], strikeout_score="stacks" if opts["stacks"] else "zero",
                  play_to_the_end=opts["to_the_end"])
    game = Game(rules, players, [Card(s, r) for s, r in deck], starting_player=opts["start"])
    ref = RefGame(spec, players, deck, keep_stacks_on_strikeout=opts["stacks"], deck_plays=opts["deck_plays"],
                  starting_player=opts["start"], play_to_the_end=opts["to_the_end"])
    return game.initial_state(), ref
