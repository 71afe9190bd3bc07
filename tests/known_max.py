"""The brute force's answers, stored: ``brute_force_max`` as the solver tests call it.

The maximum of a tiny game by plain recursion over every legal line
(:func:`refengine.brute_force_max`) never changes: it depends on the game alone, not on
the project's code. The suite asks it for the same few thousand positions at every run,
so its answers are kept in ``tests/data/brute_force.json`` (position key -> maximum) and
looked up; a position not stored is computed (and, in a recording run, stored).

The store is checked, not trusted: in every run the positions whose key falls in this
run's sample (one in :data:`SAMPLE` by the key's hash, shifted by ``BRUTE_FORCE_SAMPLE``,
default 0; ``BRUTE_FORCE_SAMPLE=all`` checks every one) are computed again and must give
the stored answer, and ``tests/test_known_max.py`` re-checks a random sample of its own.

``python scripts/regen_brute_force.py`` writes the store anew: it runs the tests that ask
the brute force with ``BRUTE_FORCE_RECORD`` set, so that every answer is computed, and
writes what they asked.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import refengine

STORE = Path(__file__).resolve().parent / "data" / "brute_force.json"
SAMPLE = 16  # one position in SAMPLE is computed again in every run
RECORD = os.environ.get("BRUTE_FORCE_RECORD")  # set: compute everything, remember it
_stored: dict[str, int] | None = None
recorded: dict[str, int] = {}


def key(game: refengine.RefGame) -> str:
    """The position's key: the game's fixed settings and its full state."""
    settings = (json.dumps(game.variant, sort_keys=True), game.players, repr(game.deck), game.empty_clues,
                game.keep_stacks_on_strikeout, game.deck_plays, game.play_to_the_end)
    return hashlib.sha256(repr((settings, game.state_key())).encode()).hexdigest()[:24]


def stored() -> dict[str, int]:
    global _stored
    if _stored is None:
        _stored = json.loads(STORE.read_text()) if STORE.exists() else {}
    return _stored


def in_sample(k: str) -> bool:
    shift = os.environ.get("BRUTE_FORCE_SAMPLE", "0")
    if shift == "all":
        return True
    return (int(k, 16) + int(shift)) % SAMPLE == 0


def brute_force_max(game: refengine.RefGame) -> int:
    """:func:`refengine.brute_force_max`, looked up in the store when it holds the position
    (computed again when the position is in this run's sample: it must agree)."""
    k = key(game)
    if RECORD:
        value = refengine.brute_force_max(game)
        recorded[k] = value
        return value
    known = stored().get(k)
    if known is None or in_sample(k):
        value = refengine.brute_force_max(game)
        if known is not None and value != known:
            raise AssertionError(f"tests/data/brute_force.json says {known} for position {k}, "
                                 f"the brute force {value}")
        return value
    return known
