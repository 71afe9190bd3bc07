"""The stored brute-force answers (tests/data/brute_force.json, tests/known_max.py) are the
brute force's: a random sample of the positions the solver tests ask about is computed
again from the rules (refengine.brute_force_max) and must match what is stored, and every
one of those positions is stored (so the solver tests do not silently recompute them).

The sample is drawn with ``BRUTE_FORCE_SAMPLE`` as its seed (default 0), so another seed
checks other positions; ``scripts/regen_brute_force.py --check`` recomputes them all."""
from __future__ import annotations

import json
import os
import random

import pytest

import known_max
import refengine
from test_suit_mechanics import CASES, SPLIT_CASES, _case

SEED = os.environ.get("BRUTE_FORCE_SAMPLE", "0")
SAMPLE = random.Random(f"known-max/{SEED}").sample(CASES + SPLIT_CASES, 12)


def test_the_store_is_there_and_well_formed():
    data = json.loads(known_max.STORE.read_text())
    assert len(data) > 1000
    assert all(len(k) == 24 and isinstance(v, int) and -1 <= v <= 30 for k, v in data.items())


@pytest.mark.parametrize("mechanic, seed, where", SAMPLE)
def test_a_sample_of_stored_answers_is_the_brute_force(mechanic, seed, where):
    _, ref = _case(mechanic, seed, where)
    k = known_max.key(ref)
    stored = known_max.stored()
    assert k in stored, f"{mechanic}/{seed}/{where}: not stored (scripts/regen_brute_force.py writes the store)"
    assert stored[k] == refengine.brute_force_max(ref)


def test_the_key_tells_positions_apart():
    """Two different positions of one game, and one position of two games that differ
    only in a rule flag, have different keys."""
    _, ref = _case("null", 1, "walk")
    moved = ref.apply(refengine.distinct_moves(ref)[0])
    assert known_max.key(moved) != known_max.key(ref)
    flagged = refengine.RefGame(ref.variant, ref.players, ref.deck, empty_clues=not ref.empty_clues)
    plain = refengine.RefGame(ref.variant, ref.players, ref.deck, empty_clues=ref.empty_clues)
    assert known_max.key(flagged) != known_max.key(plain)
