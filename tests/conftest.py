"""Shared helpers for the rules-engine tests.

``make_game`` builds a :class:`Game` from a variant (a built-in name or a custom-variant
object) and a deck in compact notation. For built-in variants the deck may be given only
partly: ``fill=True`` appends the rest of the variant's cards in composition order, so a
test only writes the cards it cares about (the top of the deck, i.e. the first hands).
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from hanabi_cli import hanabi as cli
from solver.game import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, Card, Game, Rules, parse_compact, parse_variant

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
HANABLIVE = SHARED / "hanablive"


def real_game_files() -> list[Path]:
    """Every hanab.live game file in ../shared/hanablive (expected.json excluded)."""
    return sorted(p for p in HANABLIVE.glob("*.json") if p.name != "expected.json")


def expected_results() -> dict:
    return json.loads((HANABLIVE / "expected.json").read_text())


def full_deck(variant, top: str = "") -> list[Card]:
    """``top`` (compact notation) followed by the variant's remaining cards in
    composition order."""
    v = parse_variant(variant)
    head = parse_compact(top, v) if top.strip() else []
    rest = Counter(Card(s, r) for s, r in v.composition())
    rest.subtract(Counter(head))
    assert all(n >= 0 for n in rest.values()), f"too many copies in {top!r}"
    tail = []
    for s, r in v.composition():
        c = Card(s, r)
        if rest[c] > 0:
            tail.append(c)
            rest[c] -= 1
    return head + tail


def make_game(variant, deck: str, players: int = 2, *, fill: bool = False, starting_player: int = 0,
              names=None, **options) -> Game:
    """A game of ``variant`` (name or custom object) with a compact-notation deck and
    rule ``options`` (``empty_clues=True``, ``strikeout_score="stacks"``, ...)."""
    v = parse_variant(variant)
    cards = full_deck(v, deck) if fill else parse_compact(deck, v)
    return Game(Rules(v, **options), players, cards, names=names, starting_player=starting_player)


def run_cli(*args: str):
    """Invoke ``hanabi`` in-process; returns click's Result (``stdout``/``stderr`` apart)."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_clean_error(result, *needles: str) -> str:
    """Exit code 2, one line on stderr starting with 'error:', nothing on stdout, no
    traceback; returns the message."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr
    assert "Traceback" not in result.output
    assert err.startswith("error:"), err
    assert err.endswith("\n") and err.count("\n") == 1, f"not a single line: {err!r}"
    assert result.stdout == ""
    for n in needles:
        assert n in err, f"{n!r} not in {err!r}"
    return err


# engine actions <-> the reference engine's action tuples (tests/refengine.py)
REF_KIND = {PLAY: "play", DISCARD: "discard", COLOR_CLUE: "color", RANK_CLUE: "rank"}
REF_KIND_BACK = {v: k for k, v in REF_KIND.items()}


def as_tuple(a: Action) -> tuple:
    """An engine action as a reference-engine action."""
    return (REF_KIND[a.kind], a.target) if a.kind in (PLAY, DISCARD) else (REF_KIND[a.kind], a.target, a.value)


def as_action(t: tuple) -> Action:
    """A reference-engine action tuple as an engine Action."""
    return Action(REF_KIND_BACK[t[0]], *t[1:])
