"""Variants as data: suits, clue colors, deck composition, hand sizes, and rule options.

A :class:`Variant` holds the fixed facts of a deck: its suits (name, letter, the ranks of
the suit's cards, which color clues touch it), the clue colors, clue tokens and strike
limit. :class:`Rules` adds the options that printed rule sheets and hanab.live disagree on.
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


def variant_by_name(name: object) -> Variant:
    """A variant by name: ours (:data:`BUILTIN`), or any of hanab.live's (exact or
    case-insensitive, see :mod:`.sitevariants`; a typo gets close matches suggested)."""
    if not isinstance(name, str):
        raise MalformedError(f"variant must be a name or an object, got {name!r}")
    v = BUILTIN.get(name)
    if v is not None:
        return v
    for k, cand in BUILTIN.items():
        if k.lower() == name.strip().lower():
            return cand
    from .sitevariants import site_variant

    return site_variant(name)


def variant_by_id(vid: object) -> Variant:
    """A hanab.live variant by its id (the ``v{id}`` of a seed ``p3v{id}s1``)."""
    if not isinstance(vid, int) or isinstance(vid, bool):
        raise MalformedError(f"variant id must be an integer, got {vid!r}")
    v = BY_HANABLIVE_ID.get(vid)
    if v is not None:
        return v
    from .sitevariants import site_variant_by_id

    return site_variant_by_id(vid)


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


def parse_variant(value: object) -> Variant:
    """A variant from a name or a custom-variant object."""
    if isinstance(value, Variant):
        return value
    if isinstance(value, dict):
        return custom_variant(value)
    return variant_by_name(value)


STRIKEOUT_SCORES = ("zero", "stacks")


@dataclass(frozen=True)
class Rules:
    """A variant plus the rule options.

    - ``empty_clues`` (default False, as hanab.live): a clue may touch no card.
    - ``strikeout_score`` (default "zero", as hanab.live): the score after the last strike,
      0 or the stacks ("stacks").
    - ``reserve_token`` (default False): the advanced game's reserve 9th clue token; the
      team has one more clue token than the variant (9 in the standard game), all available
      at the start.
    - ``deck_plays`` (hanab.live ``deckPlays``): the last card of the deck may be played
      directly from the deck.
    - ``one_extra_card`` / ``one_less_card`` (hanab.live): hand size +1 / -1.
    - ``play_to_the_end`` (default False, as hanab.live): the printed rules' end of game,
      which plays on until the final round is over. By default the game also ends as the
      site ends it (``CheckEnd`` in its ``server/src/game.go``): as soon as the score
      equals the maximum still reachable, or when, in the final round, no card that could
      extend a stack is left but in the hands of players who have had their last turn.
    """

    variant: Variant
    empty_clues: bool = False
    strikeout_score: str = "zero"
    reserve_token: bool = False
    deck_plays: bool = False
    one_extra_card: bool = False
    one_less_card: bool = False
    play_to_the_end: bool = False

    def __post_init__(self) -> None:
        if self.strikeout_score not in STRIKEOUT_SCORES:
            raise MalformedError(f"strikeout_score must be 'zero' or 'stacks', got {self.strikeout_score!r}")
        if self.one_extra_card and self.one_less_card:
            raise MalformedError("one_extra_card and one_less_card contradict each other (hand size +1 and -1): "
                                 "give at most one")

    @property
    def clue_tokens(self) -> int:
        return self.variant.clue_tokens + (1 if self.reserve_token else 0)

    def hand_size(self, players: int) -> int:
        h = self.variant.hand_size(players) + self.one_extra_card - self.one_less_card
        if h < 1:
            raise MalformedError(f"hand size would be {h} for {players} players")
        return h

    # hanab.live option names <-> ours
    _JSON_FLAGS = (
        ("emptyClues", "empty_clues"),
        ("deckPlays", "deck_plays"),
        ("oneExtraCard", "one_extra_card"),
        ("oneLessCard", "one_less_card"),
        ("reserveToken", "reserve_token"),
        ("playToTheEnd", "play_to_the_end"),  # ours: the site ends games by its own rule
    )

    def to_json_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.variant.custom is not None or self.variant.name != "No Variant":
            opts["variant"] = self.variant.to_json()
        for key, attr in self._JSON_FLAGS:
            if getattr(self, attr):
                opts[key] = True
        if self.strikeout_score != "zero":
            opts["strikeoutScore"] = self.strikeout_score
        return opts

    @classmethod
    def from_json_options(cls, opts: object, where: str = "options") -> Rules:
        if opts is None:
            opts = {}
        if not isinstance(opts, dict):
            raise MalformedError(f"{where}: must be an object, got {type(opts).__name__}")
        # hanab.live options that change the rules and that we do not implement
        for key in ("detrimentalCharacters", "allOrNothing"):
            if opts.get(key):
                raise MalformedError(f"{where}.{key}: unsupported rule option")
        kwargs: dict[str, Any] = {}  # Rules field -> value: bools, and strikeout_score a str
        for key, attr in cls._JSON_FLAGS:
            if key in opts:
                v = opts[key]
                if not isinstance(v, bool):
                    raise MalformedError(f"{where}.{key}: must be true or false, got {v!r}")
                kwargs[attr] = v
        if kwargs.get("one_extra_card") and kwargs.get("one_less_card"):
            raise MalformedError(f"{where}: oneExtraCard and oneLessCard are both true: they contradict each other "
                                 f"(hand size +1 and -1)")
        if "strikeoutScore" in opts:
            v = opts["strikeoutScore"]
            if v not in STRIKEOUT_SCORES:
                raise MalformedError(f"{where}.strikeoutScore: must be 'zero' or 'stacks', got {v!r}")
            kwargs["strikeout_score"] = v
        try:
            variant = parse_variant(opts.get("variant", "No Variant"))
        except MalformedError as e:
            raise MalformedError(f"{where}.variant: {e}") from None
        return cls(variant, **kwargs)
