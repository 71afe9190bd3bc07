"""The text notation of deals and positions (docs/hand.md, "Notation").

A deal: the dealer, then the four hands in seat order 0..3, separated by ``/``::

    dealer 3: S:AKQ7 H:T98 D:J C:A / S:... / S:... / S:...

A position: the seat leading the current trick, the hands as they are now, then optional
sections separated by ``;`` -- ``table`` (the cards already played to the current trick,
from its leader on), ``taken`` (the tricks each seat has taken) and ``bids``::

    leader 1: S:A H:- D:Q C:- / S:K H:- D:- C:9 / ... / ... ; table 9C ; taken 1 0 2 4 ; bids 1 0 2 3

The header is optional: without it a text is a deal with dealer 3 (seat 0 leads) when it
has no sections, and a position with seat 0 leading otherwise. Case and extra spaces do
not matter. This module parses to and formats from plain values (masks, ints); the value
types in :mod:`solver.hand.rules.state` wrap it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import NUM_SEATS, card_str, format_hand, parse_card_list, parse_hand
from .errors import MalformedError

_HEADER = re.compile(r"^\s*(dealer|leader)\s*([0-9]+)\s*:(.*)$", re.I | re.S)
SECTIONS = ("table", "taken", "bids")


@dataclass(frozen=True)
class ParsedText:
    """What a deal or position text says, unchecked against the rules."""

    kind: str  # "deal" or "position"
    seat: int  # the dealer of a deal, the leader of a position
    hands: tuple[int, int, int, int]
    table: tuple[int, ...] = ()
    taken: tuple[int, int, int, int] | None = None
    bids: tuple[int, int, int, int] | None = None


def _small_int(digits: str, what: str) -> int:
    """A seat, a bid or a trick count written in ``digits`` (0-9 only); one of more than 6
    digits is an error naming ``what`` (Python would refuse past 4,300)."""
    if len(digits) > 6:
        raise MalformedError(f"{what}: a number of {len(digits)} digits, far too large")
    return int(digits)


def _four_ints(text: str, what: str) -> tuple[int, int, int, int]:
    toks = text.replace(",", " ").split()
    if len(toks) != NUM_SEATS:
        raise MalformedError(f"{what}: expected 4 numbers (seats 0..3), got {len(toks)}: {text.strip()!r}")
    out = []
    for t in toks:
        if not re.fullmatch(r"[0-9]+", t):
            raise MalformedError(f"{what}: {t!r} is not a number")
        out.append(_small_int(t, what))
    return out[0], out[1], out[2], out[3]


def parse_text(text: str, where: str = "text") -> ParsedText:
    """Parse a deal or position text (see the module's doc); a :class:`MalformedError`
    names ``where`` and the part at fault."""
    if not text.strip():
        raise MalformedError(f"{where}: empty text (expected four hands separated by '/')")
    main, *rest = text.split(";")
    m = _HEADER.match(main)
    kind = ""
    seat = -1
    if m:
        kind = "deal" if m.group(1).lower() == "dealer" else "position"
        seat = _small_int(m.group(2), f"{where}: {m.group(1).lower()}")
        if not 0 <= seat < NUM_SEATS:
            raise MalformedError(f"{where}: {m.group(1).lower()} {seat}: seats are 0..3")
        main = m.group(3)
    elif re.match(r"^\s*(dealer|leader)\b", main, re.I):
        raise MalformedError(f"{where}: expected 'dealer N:' or 'leader N:' at the start, got {main.strip()[:20]!r}")
    parts = main.split("/")
    if len(parts) != NUM_SEATS:
        raise MalformedError(f"{where}: expected 4 hands separated by '/', got {len(parts)}")
    hands = tuple(parse_hand(p, f"{where}: seat {i}") for i, p in enumerate(parts))
    sections: dict[str, str] = {}
    for part in rest:
        if not part.strip():
            continue
        name, _, body = part.strip().partition(" ")
        key = name.lower().rstrip(":")
        if key not in SECTIONS:
            raise MalformedError(f"{where}: unknown section {name!r} (one of {', '.join(SECTIONS)})")
        if key in sections:
            raise MalformedError(f"{where}: section {key!r} given twice")
        sections[key] = body.lstrip(":")
    if kind == "deal" and sections:
        raise MalformedError(f"{where}: a deal ('dealer N:') has no {', '.join(sections)}; "
                             f"write 'leader N:' for a position")
    if not kind:
        kind, seat = ("position", 0) if sections else ("deal", 3)
    table = tuple(parse_card_list(sections["table"], f"{where}: table")) if "table" in sections else ()
    taken = _four_ints(sections["taken"], f"{where}: taken") if "taken" in sections else None
    bids = _four_ints(sections["bids"], f"{where}: bids") if "bids" in sections else None
    return ParsedText(kind, seat, (hands[0], hands[1], hands[2], hands[3]), table, taken, bids)


def format_hands(hands: tuple[int, ...]) -> str:
    return " / ".join(format_hand(h) for h in hands)


def format_deal(hands: tuple[int, ...], dealer: int) -> str:
    return f"dealer {dealer}: {format_hands(hands)}"


def format_position(hands: tuple[int, ...], leader: int, table: tuple[int, ...], taken: tuple[int, ...],
                    bids: tuple[int, ...] | None) -> str:
    out = f"leader {leader}: {format_hands(hands)}"
    if table:
        out += " ; table " + " ".join(card_str(c) for c in table)
    if any(taken):
        out += " ; taken " + " ".join(map(str, taken))
    if bids is not None:
        out += " ; bids " + " ".join(map(str, bids))
    return out
