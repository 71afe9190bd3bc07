"""The Hand puzzle file: one JSON object, versioned (docs/hand.md, "Endgame puzzles").

:meth:`HandPuzzle.from_json` checks the *shape* (the format marker, the version, every
field's JSON type and range) and raises :class:`~solver.hand.rules.MalformedError` (a
``ValueError``) naming the field; whether the content is *true* (the plays replay to the
position shown, the answer is the only one, the line holds) is :mod:`.check`'s job.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.hand.rules import NUM_SEATS, Deal, MalformedError, card_str, load_json_text, parse_card

FORMAT = "hand-endgame-puzzle"
VERSION = 1
GENERATOR_VERSION = "hand-puzzles 1"
SAFE, TABLE = "safe", "table"
KINDS = (SAFE, TABLE)
DIFFICULTIES = ("easy", "medium", "hard")
WALK = "seeded random legal cards from a seeded random deal"
BY_HAND = "by hand"  # metadata.source.walk of a puzzle made by hand (hand puzzle make)


def puzzle_id(kind: str, seed: int, attempt: int) -> str:
    """``hand-{kind}-s{seed}-a{attempt}``: the puzzle's name and file name."""
    return f"hand-{kind}-s{seed}-a{attempt}"


def tricks_text(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


def question_text(kind: str, seat: int, bids: tuple[int, ...], *, legacy: bool = False) -> str:
    """The question in words (``legacy``: as files written before 0.2.1 put it, "exactly 1
    tricks", which a file may still hold)."""
    if kind == SAFE:
        n = bids[seat]
        return (f"Seat {seat} to play, bid {n}. Every card is visible. Which card makes sure of "
                f"exactly {f'{n} tricks' if legacy else tricks_text(n)} whatever the other three do?")
    return (f"Seat {seat} to play. Every card is visible. Which card still lets all four seats make their bids "
            f"({' '.join(map(str, bids))}) by playing together?")


@dataclass(frozen=True)
class HandPuzzle:
    """A Hand endgame puzzle. Cards are card ints (``solver.hand.rules``); ``choices`` is every
    class of equivalent legal cards of the mover (highest card first) with whether it
    answers the question; ``answer`` is the one class that does; ``line`` a play from the
    position to the end of the round that starts with the answer and keeps the question's
    promise (docs/hand.md)."""

    id: str
    kind: str
    rule: str
    deal: Deal
    bids: tuple[int, int, int, int]
    plays: tuple[int, ...]
    position: str
    seat: int
    answer: tuple[int, ...]
    line: tuple[int, ...]
    choices: tuple[tuple[tuple[int, ...], bool], ...]
    difficulty: str
    rating: int
    depth: int
    wrong: int
    cards_per_hand: int
    seed: int | None  # the generator's seed and attempt, and the deal's seed; None: made by hand
    attempt: int | None
    deal_seed: int | None
    author: str | None = None  # who made it, for a puzzle made by hand (``hand puzzle make``)

    @property
    def generated(self) -> bool:
        """Made by the generator (its deal and id follow from seed and attempt), not by hand."""
        return self.seed is not None

    @property
    def text(self) -> str:
        return question_text(self.kind, self.seat, self.bids)

    def to_json(self) -> dict[str, Any]:
        cs = _cards_json
        return {
            "format": FORMAT, "version": VERSION, "id": self.id, "rule": self.rule,
            "deal": {"kind": "deal", "dealer": self.deal.dealer, "hands": [cs_sorted(h) for h in self.deal.hands]},
            "bids": list(self.bids), "plays": cs(self.plays), "position": self.position,
            "question": {"kind": self.kind, "seat": self.seat, "text": self.text},
            "solution": {"answer": cs(self.answer), "line": cs(self.line),
                         "choices": [{"cards": cs(c), "keeps": k} for c, k in self.choices]},
            "metadata": {"difficulty": self.difficulty, "rating": self.rating,
                         "features": {"depth": self.depth, "wrong": self.wrong, "classes": len(self.choices),
                                      "cards_per_hand": self.cards_per_hand},
                         "source": ({"seed": self.seed, "attempt": self.attempt, "deal_seed": self.deal_seed,
                                     "walk": WALK} if self.generated
                                    else {"walk": BY_HAND, "author": self.author or ""}),
                         "generator": GENERATOR_VERSION},
        }

    def dumps(self) -> str:
        return compact_json(self.to_json())

    @classmethod
    def from_json(cls, obj: object, where: str = "puzzle") -> HandPuzzle:
        d = _obj(obj, where)
        _keys(d, ("format", "version", "id", "rule", "deal", "bids", "plays", "position", "question", "solution",
                  "metadata"), where)
        if d["format"] != FORMAT:
            raise MalformedError(f"{where}: format: {d['format']!r}, expected {FORMAT!r}")
        if _int(d, "version", where) != VERSION:
            raise MalformedError(f"{where}: version: {d['version']!r} is not supported (this reader reads {VERSION})")
        pid = _str(d, "id", where)
        if not pid or "/" in pid or "\\" in pid:
            raise MalformedError(f"{where}: id: {pid!r} must be a non-empty name without '/'")
        rule = _str(d, "rule", where)
        if rule != "exact":
            raise MalformedError(f"{where}: rule: {rule!r}; puzzles use the 'exact' rule")
        deal = Deal.from_json(d["deal"], f"{where}: deal")
        bids = _four(d, "bids", where, 0, 8)
        plays = _card_list(d, "plays", where)
        position = _str(d, "position", where)
        q = _obj(d["question"], f"{where}: question")
        _keys(q, ("kind", "seat", "text"), f"{where}: question")
        kind = _str(q, "kind", f"{where}: question")
        if kind not in KINDS:
            raise MalformedError(f"{where}: question.kind: {kind!r}, expected one of {', '.join(KINDS)}")
        seat = _int(q, "seat", f"{where}: question", 0, NUM_SEATS - 1)
        text = _str(q, "text", f"{where}: question")
        if text not in (question_text(kind, seat, bids), question_text(kind, seat, bids, legacy=True)):
            raise MalformedError(f"{where}: question.text does not match the kind, seat and bids")
        s = _obj(d["solution"], f"{where}: solution")
        _keys(s, ("answer", "line", "choices"), f"{where}: solution")
        answer = _card_list(s, "answer", f"{where}: solution")
        if not answer:
            raise MalformedError(f"{where}: solution.answer: no card")
        line = _card_list(s, "line", f"{where}: solution")
        ch = s["choices"]
        if not isinstance(ch, list) or not ch:
            raise MalformedError(f"{where}: solution.choices: expected a non-empty list")
        choices = []
        for i, c in enumerate(ch):
            w = f"{where}: solution.choices[{i}]"
            c = _obj(c, w)
            _keys(c, ("cards", "keeps"), w)
            if not isinstance(c["keeps"], bool):
                raise MalformedError(f"{w}.keeps: expected true or false")
            choices.append((_card_list(c, "cards", w), c["keeps"]))
        m = _obj(d["metadata"], f"{where}: metadata")
        _keys(m, ("difficulty", "rating", "features", "source", "generator"), f"{where}: metadata")
        diff = _str(m, "difficulty", f"{where}: metadata")
        if diff not in DIFFICULTIES:
            raise MalformedError(f"{where}: metadata.difficulty: {diff!r}, expected one of {', '.join(DIFFICULTIES)}")
        rating = _int(m, "rating", f"{where}: metadata", 0)
        f = _obj(m["features"], f"{where}: metadata.features")
        _keys(f, ("depth", "wrong", "classes", "cards_per_hand"), f"{where}: metadata.features")
        wf = f"{where}: metadata.features"
        depth, wrong = _int(f, "depth", wf, 0), _int(f, "wrong", wf, 0)
        if _int(f, "classes", wf, 1) != len(choices):
            raise MalformedError(f"{wf}.classes: {f['classes']} but solution.choices lists {len(choices)}")
        cph = _int(f, "cards_per_hand", wf, 1, 8)
        src = _obj(m["source"], f"{where}: metadata.source")
        ws = f"{where}: metadata.source"
        seed = attempt = deal_seed = None
        author = None
        if "seed" in src or src.get("walk") != BY_HAND:
            _keys(src, ("seed", "attempt", "deal_seed", "walk"), ws)
            seed, attempt, deal_seed = _int(src, "seed", ws), _int(src, "attempt", ws, 0), _int(src, "deal_seed", ws, 0)
            _str(src, "walk", ws)
        else:  # made by hand: who made it instead of where it came from
            _keys(src, ("walk", "author"), ws)
            author = _str(src, "author", ws)
        _str(m, "generator", f"{where}: metadata")
        return cls(pid, kind, rule, deal, bids, plays, position, seat, answer, line, tuple(choices), diff, rating,
                   depth, wrong, cph, seed, attempt, deal_seed, author)


def load_puzzle(path: str | Path) -> HandPuzzle:
    """A puzzle from a file; :class:`MalformedError` if it cannot be read or parsed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MalformedError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    return HandPuzzle.from_json(load_json_text(text, str(p)), str(p))


# ---------------------------------------------------------------------- helpers
def _cards_json(cards: tuple[int, ...]) -> list[str]:
    return [card_str(c) for c in cards]


def cs_sorted(mask: int) -> list[str]:
    """A hand's cards, highest first (spades ace .. clubs 7)."""
    return [card_str(c) for c in range(31, -1, -1) if mask >> c & 1]


def _obj(x: object, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise MalformedError(f"{where}: expected a JSON object, got {type(x).__name__}")
    return x


def _keys(d: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    for k in keys:
        if k not in d:
            raise MalformedError(f"{where}: missing field {k!r}")
    extra = sorted(set(d) - set(keys))
    if extra:
        raise MalformedError(f"{where}: unknown field {extra[0]!r}")


def _str(d: dict[str, Any], key: str, where: str) -> str:
    v = d[key]
    if not isinstance(v, str):
        raise MalformedError(f"{where}: {key}: expected a string, got {type(v).__name__}")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON's "\udcff"): no text can show it
        raise MalformedError(f"{where}: {key}: not valid Unicode text") from None
    return v


def _int(d: dict[str, Any], key: str, where: str, lo: int | None = None, hi: int | None = None) -> int:
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        if isinstance(v, float) and not math.isfinite(v):
            raise MalformedError(f"{where}: {key}: {v!r} is not a finite number")
        raise MalformedError(f"{where}: {key}: expected an integer, got {json.dumps(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        raise MalformedError(f"{where}: {key}: {v} out of range {rng}")
    return v


def _four(d: dict[str, Any], key: str, where: str, lo: int, hi: int) -> tuple[int, int, int, int]:
    v = d[key]
    if not isinstance(v, list) or len(v) != NUM_SEATS:
        raise MalformedError(f"{where}: {key}: expected a list of 4 integers (seats 0..3)")
    t = tuple(_int({f"{key}[{i}]": x}, f"{key}[{i}]", where, lo, hi) for i, x in enumerate(v))
    return t[0], t[1], t[2], t[3]


def _card_list(d: dict[str, Any], key: str, where: str) -> tuple[int, ...]:
    v = d[key]
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise MalformedError(f"{where}: {key}: expected a list of card strings like 'AS'")
    return tuple(parse_card(c, f"{where}: {key}[{i}]") for i, c in enumerate(v))


def compact_json(obj: object) -> str:
    """JSON with one field a line and short lists (cards, bids) kept on one line."""
    text = json.dumps(obj, indent=1)
    return re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"
