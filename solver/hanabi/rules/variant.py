"""Variants as data: suits, clue colors, deck composition, hand sizes, and rule options.

A :class:`Variant` holds the fixed facts of a deck: its suits (name, letter, the ranks of
the suit's cards, which color clues touch it), the clue colors, clue tokens and strike
limit. The site's other variants are built from its table (:mod:`.sitevariants`); the lookups by
name or id and :class:`Rules`, the options that printed rule sheets and hanab.live disagree
on, are in :mod:`.options`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .errors import MalformedError

STANDARD_RANKS = (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)
# the rank of Up or Down's START card, as on hanab.live (its StartCardRank)
START_RANK = 7
ONE_OF_EACH = (1, 2, 3, 4, 5)

# name, letter, clue color (None: not a clue color itself)
_COLORS = {
    "Red": "r",
    "Yellow": "y",
    "Green": "g",
    "Blue": "b",
    "Purple": "p",
    "Teal": "t",
    "Black": "k",
    "Multicolor": "m",
}
_CUSTOM_SUIT_NAMES = ("Red", "Yellow", "Green", "Blue", "Purple", "Teal")


class CustomVariantSpec(TypedDict):
    """A custom variant in canonical form (:attr:`Variant.custom`), as hanab.live's
    ``options.variant`` object."""

    suits: int
    ranks: list[int]
    handSize: int
    clueTokens: int
    strikes: int


@dataclass(frozen=True)
class Suit:
    """One suit: its name, one-letter code, the ranks of its cards, the clue colors
    (indices into :attr:`Variant.clue_colors`) that touch it, whether it is inverted
    (hanab.live's orange suits: on the site a player's *play* of such a card discards it
    and a *discard* plays it; the game's records, and so our actions, name what happened),
    and whether it is reversed (hanab.live's "... Reversed" suits: built from the top rank
    down to 1)."""

    name: str
    letter: str
    ranks: tuple[int, ...]
    touched_by: frozenset[int]
    inverted: bool = False
    reversed: bool = False

    @property
    def max_rank(self) -> int:
        """The stack's size: the rank that completes an ordinary suit (an Up or Down START
        card aside)."""
        return max(r for r in self.ranks if r != START_RANK)

    def height(self, rank: int) -> int:
        """The stack height a card of ``rank`` brings the stack to when it plays: its rank,
        or in a reversed suit its place counted from the top (the top rank is 1, ..., a 1
        completes it). The engine's stacks, and every solver, count heights: a reversed
        suit is an ordinary one with its ranks read backwards."""
        return self.max_rank + 1 - rank if self.reversed else rank

    def top_text(self, height: int) -> str:
        """A stack of this suit at ``height`` as a player reads it: the rank of its top
        card ("0" when empty; a reversed suit's with "v", built downwards: "r4v")."""
        if not self.reversed or height == 0:
            return f"{self.letter}{height}"
        return f"{self.letter}{self.max_rank + 1 - height}v"


_COLOR = 2  # hanab.live's color clue action type (cards.COLOR_CLUE; a rank clue is 3)
_ODD_RANKS, _EVEN_RANKS = (1, 3, 5), (2, 4)  # what the two rank clues of Odds and Evens touch


@dataclass(frozen=True)
class TouchRules:
    """hanab.live's clue-touch rules of a variant, as its server applies them
    (``variantIsCardTouched`` in ``server/src/variants.go``): per suit whether every color
    or rank clue touches it, none does, or it is a prism; the special rank and what
    touches it; the variant-wide rank-clue rules. ``Suit.touched_by`` holds each suit's
    own clue colors."""

    all_colors: tuple[bool, ...]
    no_colors: tuple[bool, ...]
    all_ranks: tuple[bool, ...]
    no_ranks: tuple[bool, ...]
    prism: tuple[bool, ...]
    special_rank: int = -1
    special_all_colors: bool = False
    special_no_colors: bool = False
    special_all_ranks: bool = False
    special_no_ranks: bool = False
    special_deceptive: bool = False
    color_touches_nothing: bool = False
    rank_touches_nothing: bool = False
    odds_and_evens: bool = False
    funnels: bool = False
    chimneys: bool = False
    synesthesia: bool = False


@dataclass(frozen=True)
class Variant:
    """A deck and its clue structure. Equality and hashing are by value. ``touch`` holds
    hanab.live's touch rules (None: each suit is touched by its own clue colors and each
    card by its rank's clue).

    hanab.live's rules of their own (each named by the variant's name prefix on the site;
    the rules as its server applies them are in docs/variants.md):

    - ``clue_starved`` ("Clue Starved"): a discard or a completed stack gives half a
      token, a clue costs a whole one (the engine counts half tokens, as the server does);
    - ``throw_it_in_a_hole`` ("Throw It in a Hole"): completing a stack gives no token;
    - ``alternating_clues`` ("Alternating Clues"): a clue may not be of the same type
      (color or rank) as the clue given before it;
    - ``up_or_down`` ("Up or Down"): each stack is started by its 1 (then goes up), its 5
      (then down) or its START card (rank ``START_RANK``; then a 2 goes up, a 4 down);
    - ``sudoku`` ("Sudoku"): with ranks 1..N, each stack starts at any rank no other stack
      started at, climbs and wraps from N to 1.
    """

    name: str
    suits: tuple[Suit, ...]
    clue_colors: tuple[str, ...]
    clue_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    clue_tokens: int = 8
    strikes: int = 3
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 5), (3, 5), (4, 4), (5, 4), (6, 3))
    hanablive_id: int | None = None
    custom: CustomVariantSpec | None = field(default=None, compare=False, hash=False)
    touch: TouchRules | None = None
    clue_starved: bool = False
    throw_it_in_a_hole: bool = False
    alternating_clues: bool = False
    up_or_down: bool = False
    sudoku: bool = False

    # ---- derived facts -------------------------------------------------
    @property
    def num_suits(self) -> int:
        return len(self.suits)

    @property
    def perfect_score(self) -> int:
        return sum(s.max_rank for s in self.suits)

    @property
    def has_inverted_suits(self) -> bool:
        """A suit is inverted: then a discard is legal with every clue token available (it
        gains none), as hanab.live's ``commandActionDiscard`` allows."""
        return any(s.inverted for s in self.suits)

    def composition(self) -> list[tuple[int, int]]:
        """The deck's cards as ``(suit, rank)`` in hanab.live's order: suit by suit,
        ranks ascending, each with its copies."""
        return [(si, r) for si, s in enumerate(self.suits) for r in sorted(s.ranks)]

    def hand_size(self, players: int) -> int:
        for n, h in self.hand_sizes:
            if n == players:
                return h
        allowed = ", ".join(str(n) for n, _ in self.hand_sizes)
        raise MalformedError(f"bad player count {players} for variant {self.name!r} (allowed: {allowed})")

    def suit_index(self, letter: str) -> int:
        for i, s in enumerate(self.suits):
            if s.letter == letter:
                return i
        raise KeyError(letter)

    def touches(self, suit: int, rank: int, kind: int, value: int) -> bool:
        """Whether the clue of ``kind`` (2 color: ``value`` indexes :attr:`clue_colors`;
        3 rank: ``value`` is the rank) touches a card of ``suit`` and ``rank``, by the
        site's rules: ``variantIsCardTouched`` in its ``server/src/variants.go``."""
        t = self.touch
        if t is None:
            return value in self.suits[suit].touched_by if kind == _COLOR else value == rank
        if kind == _COLOR:
            if t.color_touches_nothing:
                return False
            if t.all_colors[suit]:
                return True
            if t.no_colors[suit]:
                return False
            n = len(self.clue_colors)
            if t.synesthesia and not t.no_ranks[suit] and n and value == (rank - 1) % n:
                return True  # a rank is also a color: rank r is touched by color (r - 1) mod n
            if rank == t.special_rank:
                if t.special_all_colors:
                    return True
                if t.special_no_colors:
                    return False
            if t.prism[suit]:  # (a START card counts as rank 0: the last color)
                return bool(n) and value == (n - 1 if rank == START_RANK else (rank - 1) % n)
            return value in self.suits[suit].touched_by
        if t.rank_touches_nothing:
            return False
        if t.all_ranks[suit]:
            return True
        if t.no_ranks[suit]:
            return False
        if rank == t.special_rank:
            if t.special_all_ranks:
                return True
            if t.special_no_ranks:
                return False
            if t.special_deceptive:  # touched by one other rank, chosen by the suit
                return bool(self.clue_ranks) and value == self.clue_ranks[suit % len(self.clue_ranks)]
        if t.odds_and_evens:
            return rank in (_ODD_RANKS if value == 1 else _EVEN_RANKS)
        if t.funnels:
            return rank <= value
        if t.chimneys:
            return rank >= value
        return value == rank

    def clue_always_legal(self, kind: int) -> bool:
        """Whether a clue of ``kind`` is legal even when it touches nothing: hanab.live's
        variants where such clues touch nothing at all (``colorCluesTouchNothing``,
        ``rankCluesTouchNothing``: the server's exception in ``command_action.go``), when
        the variant has clues of that kind."""
        t = self.touch
        if t is None:
            return False
        if kind == _COLOR:
            return t.color_touches_nothing and bool(self.clue_colors)
        return t.rank_touches_nothing and bool(self.clue_ranks)

    def to_json(self) -> str | dict[str, Any]:
        """The variant as hanab.live's ``options.variant``: a name, or the custom object."""
        if self.custom is not None:
            return dict(self.custom)
        return self.name


def _suit(
    name: str,
    ranks: Iterable[int] = STANDARD_RANKS,
    touched_by: Iterable[int] | None = None,
    colors: Sequence[str] = (),
) -> Suit:
    if touched_by is None:
        touched_by = frozenset([colors.index(name)])
    return Suit(name, _COLORS[name], tuple(ranks), frozenset(touched_by))


def _builtin(
    name: str, hid: int | None, suit_names: Sequence[str], special: str = "", special_kind: str | None = None
) -> Variant:
    colors = list(suit_names)
    suits: list[Suit] = []
    if special_kind in ("black", "own"):
        colors.append(special)
    for n in suit_names:
        suits.append(_suit(n, colors=colors))
    if special_kind == "black":
        suits.append(_suit(special, ONE_OF_EACH, colors=colors))
    elif special_kind == "own":
        suits.append(_suit(special, colors=colors))
    elif special_kind == "rainbow":
        suits.append(Suit("Rainbow", "m", STANDARD_RANKS, frozenset(range(len(colors)))))
    return Variant(name, tuple(suits), tuple(colors), hanablive_id=hid)


_FOUR = ("Red", "Yellow", "Green", "Blue")
_FIVE = _FOUR + ("Purple",)

BUILTIN: dict[str, Variant] = {
    v.name: v
    for v in (
        _builtin("No Variant", 0, _FIVE),
        _builtin("6 Suits", 1, _FIVE + ("Teal",)),
        _builtin("Black (5 Suits)", 21, _FOUR, "Black", "black"),
        _builtin("Black (6 Suits)", 2, _FIVE, "Black", "black"),
        _builtin("Rainbow (5 Suits)", 16, _FOUR, "Rainbow", "rainbow"),
        _builtin("Rainbow (6 Suits)", 3, _FIVE, "Rainbow", "rainbow"),
        # Printed rules: a multicolour 6th suit with its own clue color (max 30).
        _builtin("Multicolor (6 Suits)", None, _FIVE, "Multicolor", "own"),
    )
}
BY_HANABLIVE_ID: dict[int, Variant] = {v.hanablive_id: v for v in BUILTIN.values() if v.hanablive_id is not None}


def custom_variant(spec: object) -> Variant:
    """A research variant from ``{"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2,
    "clueTokens": 2, "strikes": 3}``; every suit gets the same ranks and its own color."""
    if not isinstance(spec, dict):
        raise MalformedError(f"custom variant must be an object, got {spec!r}")
    known = {"suits", "ranks", "handSize", "clueTokens", "strikes"}
    extra = sorted(set(spec) - known)
    if extra:
        raise MalformedError(f"custom variant: unknown key {extra[0]!r}")
    for key in ("suits", "ranks", "handSize", "clueTokens"):
        if key not in spec:
            raise MalformedError(f"custom variant: missing key {key!r}")

    def _int(key: str, lo: int, hi: int, default: int | None = None) -> int:
        v = spec.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise MalformedError(f"custom variant: {key!r} must be an integer {lo}..{hi}, got {v!r}")
        return v

    n = _int("suits", 1, 6)
    hand = _int("handSize", 1, 10)
    tokens = _int("clueTokens", 0, 20)
    strikes = _int("strikes", 1, 10, 3)
    ranks = spec["ranks"]
    if (
        not isinstance(ranks, list)
        or not ranks
        or any(not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= 5 for r in ranks)
    ):
        raise MalformedError(f"custom variant: 'ranks' must be a non-empty list of ranks 1..5, got {ranks!r}")
    names = _CUSTOM_SUIT_NAMES[:n]
    suits = tuple(Suit(nm, _COLORS[nm], tuple(sorted(ranks)), frozenset([i])) for i, nm in enumerate(names))
    canon: CustomVariantSpec = {
        "suits": n, "ranks": sorted(ranks), "handSize": hand, "clueTokens": tokens, "strikes": strikes
    }
    return Variant(
        name=f"Custom ({n} suits, ranks {''.join(map(str, sorted(ranks)))})",
        suits=suits,
        clue_colors=names,
        clue_ranks=tuple(sorted(set(ranks))),
        clue_tokens=tokens,
        strikes=strikes,
        hand_sizes=tuple((p, hand) for p in range(2, 7)),
        custom=canon,
    )
