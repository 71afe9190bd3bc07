"""An independent reference, for tests, of two things about every hanab.live variant: the
deck it deals and which cards each clue touches.

Written only from the hanab.live project's own code (repository Hanabi-Live/hanabi-live,
commit 8503cd84a44d4ffdadb40e3d5da56dd853d00e51, 2026-08-10), function by function:

* ``server/src/suits.go`` (``suitsInit``): a suit's default clue colors, and the
  " Reversed" copy of every suit;
* ``server/src/variants.go`` (``variantsInit``): card ranks, stack size, derived clue
  colors, clue ranks, special rank; ``variantIsCardTouched``: which card a clue touches;
* ``server/src/game_deck.go`` (``InitDeck``, ``numCopiesOfCard``): the deck, in order;
* ``server/src/variant.go``: the name-prefix predicates (``IsCriticalFours``,
  ``IsScarceOnes``, ``IsSudoku``, ``IsUpOrDown``, ``IsSynesthesia``, ...);
* ``server/src/command_action.go`` (``commandActionClue``): the exception by which a clue
  in a ``colorCluesTouchNothing`` / ``rankCluesTouchNothing`` variant may touch nothing;
  ``commandActionPlay`` / ``commandActionDiscard``: the inverted-suit rule.

It reads the site's own data files, ``variants.json`` and ``suits.json`` (the project's
copies are in ../shared/hanablive/variants), and imports nothing from the project. The
third data file the server reads, ``colors.json``, is only a list of names here
(:data:`COLORS`). Where the server and the browser client (``packages/game/src/rules/
clues.ts``, ``rules/deck.ts``, ``variantsInit.ts``) differ, this follows the server, which
is the one that deals the cards and decides which clue is legal.

API (plain functions over a :class:`Site`)::

    site = load_site(folder)                  # variants by name / id, suits by name
    deck(site, name)                          # [(suitIndex, rank), ...] in InitDeck order
    clue_colors(site, name), clue_ranks(site, name)
    touches(site, name, suit_index, rank, "color"|"rank", value)
    always_legal(site, name, "color"|"rank")
    special_rules(site, name)                 # rules beyond the data: {"sudoku", ...}
    clue_info_rules(site, name)               # {"cowAndPig"} / {"duck"}: hidden clues
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

# The color names of packages/game/src/json/colors.json at the commit above, in file order
# (the server only checks that a name is in it; its order plays no part in clue order).
COLORS: tuple[str, ...] = (
    "Red", "Yellow", "Green", "Blue", "Purple", "Teal", "Black", "Pink", "Brown", "Orange",
)

# server/src/variants_reversible.go: the rank of the "START" cards of "Up or Down"
START_CARD_RANK = 7
# server/src/constants.go
SUIT_REVERSED_SUFFIX = " Reversed"
DEFAULT_POINTS_PER_SUIT = 5
# server/src/variants.go (set inside variantsInit)
ODD_CLUES = (1, 3, 5)
EVEN_CLUES = (2, 4)

COLOR = "color"
RANK = "rank"

# special_rules() names, each with the server predicate that it mirrors
SPECIAL_RULES = {
    "throwItInAHole": 'IsThrowItInAHole: name starts with "Throw It in a Hole"',
    "clueStarved": 'IsClueStarved: name starts with "Clue Starved"',
    "alternatingClues": 'IsAlternatingClues: name starts with "Alternating Clues"',
    "upOrDown": 'IsUpOrDown: name starts with "Up or Down"',
    "sudoku": 'IsSudoku: name starts with "Sudoku"',
    "reversed": 'a suit with Reversed set (its name ends in " Reversed"); HasReversedSuits',
    "inverted": "a suit with inverted set (Orange, Dark Orange); HasInvertedSuits, IsSuitInverted",
}


@dataclass(frozen=True)
class Suit:
    name: str
    clue_colors: tuple[str, ...]
    one_of_each: bool = False
    all_clue_colors: bool = False
    all_clue_ranks: bool = False
    no_clue_colors: bool = False
    no_clue_ranks: bool = False
    prism: bool = False
    inverted: bool = False
    reversed: bool = False


@dataclass(frozen=True)
class Variant:
    name: str
    id: int
    suits: tuple[Suit, ...]
    ranks: tuple[int, ...]
    clue_colors: tuple[str, ...]
    clue_ranks: tuple[int, ...]
    stack_size: int
    color_clues_touch_nothing: bool
    rank_clues_touch_nothing: bool
    special_rank: int  # -1: none
    special_rank_all_clue_colors: bool
    special_rank_all_clue_ranks: bool
    special_rank_no_clue_colors: bool
    special_rank_no_clue_ranks: bool
    special_rank_deceptive: bool
    odds_and_evens: bool
    funnels: bool
    chimneys: bool
    max_score: int
    json: dict = field(compare=False, hash=False, repr=False)  # the variants.json entry as read

    # server/src/variant.go: the rules are keyed on the variant's name
    def _prefix(self, p: str) -> bool:
        return self.name.startswith(p)

    def is_alternating_clues(self) -> bool:
        return self._prefix("Alternating Clues")

    def is_clue_starved(self) -> bool:
        return self._prefix("Clue Starved")

    def is_cow_and_pig(self) -> bool:
        return self._prefix("Cow & Pig")

    def is_duck(self) -> bool:
        return self._prefix("Duck")

    def is_throw_it_in_a_hole(self) -> bool:
        return self._prefix("Throw It in a Hole")

    def is_up_or_down(self) -> bool:
        return self._prefix("Up or Down")

    def is_synesthesia(self) -> bool:
        return self._prefix("Synesthesia")

    def is_critical_fours(self) -> bool:
        return self._prefix("Critical Fours")

    def is_scarce_ones(self) -> bool:
        return self._prefix("Scarce Ones")

    def is_sudoku(self) -> bool:
        return self._prefix("Sudoku")

    def has_reversed_suits(self) -> bool:
        # as the server: Up or Down counts as having reversed suits
        return self.is_up_or_down() or any(s.reversed for s in self.suits)

    def has_inverted_suits(self) -> bool:
        return any(s.inverted for s in self.suits)


@dataclass(frozen=True)
class Site:
    variants: dict[str, Variant]  # by name, in variants.json order
    by_id: dict[int, Variant]
    suits: dict[str, Suit]  # by name, the " Reversed" copies included

    def variant(self, name: str) -> Variant:
        try:
            return self.variants[name]
        except KeyError:
            raise KeyError(f"hanab.live has no variant named {name!r}") from None


class SiteDataError(ValueError):
    """The data files break a rule that the server checks at start-up (it would not start)."""


def _suits_init(suits_json: list[dict]) -> dict[str, Suit]:
    """server/src/suits.go: suitsInit."""
    suits: dict[str, Suit] = {}
    for sj in suits_json:
        name = sj.get("name", "")
        if name == "":
            raise SiteDataError("a suit with an empty name")
        if name in suits:
            raise SiteDataError(f"two suits named {name!r}")
        colors = list(sj.get("clueColors") or [])
        all_colors, no_colors, prism = (bool(sj.get(k, False)) for k in ("allClueColors", "noClueColors", "prism"))
        if colors:
            for c in colors:
                if c not in COLORS:
                    raise SiteDataError(f"suit {name!r} has clue color {c!r}, which does not exist")
        elif not all_colors and not no_colors and not prism:
            # not specified: the color of the same name ("Unknown" is meant to have none)
            if name in COLORS:
                colors = [name]
            elif name != "Unknown":
                raise SiteDataError(f"suit {name!r} has no clue colors and there is no color of that name")
        suits[name] = Suit(
            name=name,
            clue_colors=tuple(colors),
            one_of_each=bool(sj.get("oneOfEach", False)),
            all_clue_colors=all_colors,
            all_clue_ranks=bool(sj.get("allClueRanks", False)),
            no_clue_colors=no_colors,
            no_clue_ranks=bool(sj.get("noClueRanks", False)),
            prism=prism,
            inverted=bool(sj.get("inverted", False)),
            reversed=bool(sj.get("reversed", False)),
        )
    # every suit also has a reversed copy (a shallow copy with Reversed set)
    for name, s in list(suits.items()):
        suits[name + SUIT_REVERSED_SUFFIX] = Suit(**{**s.__dict__, "reversed": True})
    return suits


def _variants_init(variants_json: list[dict], suits: dict[str, Suit]) -> dict[str, Variant]:
    """server/src/variants.go: variantsInit."""
    out: dict[str, Variant] = {}
    ids: set[int] = set()
    for vj in variants_json:
        name = vj.get("name", "")
        if name == "":
            raise SiteDataError("a variant with an empty name")
        vid = vj["id"]
        if vid < 0:
            raise SiteDataError(f"variant {name!r} has an invalid id")
        if name in out:
            raise SiteDataError(f"two variants named {name!r}")
        if len(vj.get("suits", [])) < 1:
            raise SiteDataError(f"variant {name!r} has no suit")
        try:
            vsuits = tuple(suits[s] for s in vj["suits"])
        except KeyError as e:
            raise SiteDataError(f"variant {name!r} has suit {e.args[0]!r}, which does not exist") from None

        # card ranks: 1..5; Sudoku cuts them to the number of suits; Up or Down adds START
        ranks = [1, 2, 3, 4, 5]
        if vj.get("sudoku", False):
            ranks = ranks[: len(vsuits)]
        if vj.get("upOrDown", False):
            ranks.append(START_CARD_RANK)
        stack_size = len(vsuits) if vj.get("sudoku", False) else DEFAULT_POINTS_PER_SUIT

        # clue colors: as given, or derived from the suits (all-color suits add none)
        if vj.get("clueColors") is None:
            colors: list[str] = []
            for s in vsuits:
                if s.all_clue_colors:
                    continue
                for c in s.clue_colors:
                    if c not in colors:
                        colors.append(c)
        else:
            colors = list(vj["clueColors"])
            for c in colors:
                if c not in COLORS:
                    raise SiteDataError(f"variant {name!r} has clue color {c!r}, which does not exist")
        clue_ranks = [1, 2, 3, 4, 5] if vj.get("clueRanks") is None else list(vj["clueRanks"])
        special_rank = vj.get("specialRank", 0) or -1  # the default is -1, not 0

        if vid in ids:
            raise SiteDataError(f"two variants with id {vid}")
        ids.add(vid)
        out[name] = Variant(
            name=name,
            id=vid,
            suits=vsuits,
            ranks=tuple(ranks),
            clue_colors=tuple(colors),
            clue_ranks=tuple(clue_ranks),
            stack_size=stack_size,
            color_clues_touch_nothing=bool(vj.get("colorCluesTouchNothing", False)),
            rank_clues_touch_nothing=bool(vj.get("rankCluesTouchNothing", False)),
            special_rank=special_rank,
            special_rank_all_clue_colors=bool(vj.get("specialRankAllClueColors", False)),
            special_rank_all_clue_ranks=bool(vj.get("specialRankAllClueRanks", False)),
            special_rank_no_clue_colors=bool(vj.get("specialRankNoClueColors", False)),
            special_rank_no_clue_ranks=bool(vj.get("specialRankNoClueRanks", False)),
            special_rank_deceptive=bool(vj.get("specialRankDeceptive", False)),
            odds_and_evens=bool(vj.get("oddsAndEvens", False)),
            funnels=bool(vj.get("funnels", False)),
            chimneys=bool(vj.get("chimneys", False)),
            max_score=len(vsuits) * stack_size,
            json=vj,
        )
    return out


def load_site(folder: str | Path) -> Site:
    """The site's variants and suits, from ``folder``/variants.json and suits.json."""
    folder = Path(folder)
    suits = _suits_init(json.loads((folder / "suits.json").read_text(encoding="utf-8")))
    variants = _variants_init(json.loads((folder / "variants.json").read_text(encoding="utf-8")), suits)
    return Site(variants=variants, by_id={v.id: v for v in variants.values()}, suits=suits)


def _v(site: Site, name: str | Variant) -> Variant:
    return name if isinstance(name, Variant) else site.variant(name)


# ---------------------------------------------------------------------------------------
# the deck


def num_copies(site: Site, name: str | Variant, suit_index: int, rank: int) -> int:
    """server/src/game_deck.go: numCopiesOfCard (same order of tests)."""
    v = _v(site, name)
    suit = v.suits[suit_index]
    if suit.one_of_each:
        return 1
    if v.is_sudoku():
        return 2
    if rank == 1:
        if v.is_up_or_down() or suit.reversed:
            return 1
        if v.is_scarce_ones():
            return 2
        return 3
    if rank == 4 and v.is_critical_fours():
        return 1
    if rank == 5:
        return 3 if suit.reversed else 1
    if rank == START_CARD_RANK:
        return 1
    return 2


def deck(site: Site, name: str | Variant, *, start_cards: str = "keep") -> list[tuple[int, int]]:
    """Every card of the variant as (suitIndex, rank), copies included, in the order
    ``InitDeck`` builds the deck before shuffling: suit by suit, rank by rank (1..5, then
    START = 7 in "Up or Down"). ``start_cards``: "keep" them (rank 7, as the site does),
    "skip" them, or "raise" ValueError when the variant has any."""
    v = _v(site, name)
    out = []
    for si in range(len(v.suits)):
        for r in v.ranks:
            if r == START_CARD_RANK and start_cards != "keep":
                if start_cards == "raise":
                    raise ValueError(f"{v.name!r} has START cards")
                continue
            out.extend([(si, r)] * num_copies(site, v, si, r))
    return out


def ranks(site: Site, name: str | Variant) -> tuple[int, ...]:
    """The card ranks of the variant's suits (``Variant.Ranks``)."""
    return _v(site, name).ranks


def stack_size(site: Site, name: str | Variant) -> int:
    return _v(site, name).stack_size


def max_score(site: Site, name: str | Variant) -> int:
    """``Variant.MaxScore``: suits times stack size."""
    return _v(site, name).max_score


# ---------------------------------------------------------------------------------------
# clues


def clue_colors(site: Site, name: str | Variant) -> list[str]:
    """The color clues of the variant in order (a color clue's value is an index here)."""
    return list(_v(site, name).clue_colors)


def clue_ranks(site: Site, name: str | Variant) -> list[int]:
    """The rank clues of the variant (a rank clue's value is the number itself)."""
    return list(_v(site, name).clue_ranks)


def touches(site: Site, name: str | Variant, suit_index: int, rank: int, clue_type: str, value: int) -> bool:
    """Whether the clue touches a card of (suit_index, rank): server/src/variants.go
    ``variantIsCardTouched``, the same tests in the same order. ``clue_type`` is "color"
    (``value``: an index into :func:`clue_colors`) or "rank" (``value``: the rank, one of
    :func:`clue_ranks`). A clue the server would refuse before asking this (a color index
    out of range, a rank not in the clue ranks) raises ValueError."""
    v = _v(site, name)
    suit = v.suits[suit_index]
    if clue_type == COLOR:
        if not 0 <= value < len(v.clue_colors):
            raise ValueError(f"{v.name!r} has no color clue {value} (it has {len(v.clue_colors)})")
        color = v.clue_colors[value]
        if v.color_clues_touch_nothing:
            return False
        if suit.all_clue_colors:
            return True
        if suit.no_clue_colors:
            return False
        if v.is_synesthesia() and not suit.no_clue_ranks:
            # besides the usual matching, a color matches by rank as for a prism card
            # (no START special case here, unlike the prism branch below)
            if color == v.clue_colors[(rank - 1) % len(v.clue_colors)]:
                return True
        if v.special_rank == rank:
            if v.special_rank_all_clue_colors:
                return True
            if v.special_rank_no_clue_colors:
                return False
        if suit.prism:
            i = (rank - 1) % len(v.clue_colors)
            if rank == START_CARD_RANK:
                i = len(v.clue_colors) - 1  # START counts as rank 0: the last color
            return color == v.clue_colors[i]
        return color in suit.clue_colors
    if clue_type == RANK:
        if value not in v.clue_ranks:
            raise ValueError(f"{v.name!r} has no rank clue {value} (it has {list(v.clue_ranks)})")
        if v.rank_clues_touch_nothing:
            return False
        if suit.all_clue_ranks:
            return True
        if suit.no_clue_ranks:
            return False
        if v.special_rank == rank:
            if v.special_rank_all_clue_ranks:
                return True
            if v.special_rank_no_clue_ranks:
                return False
            if v.special_rank_deceptive:
                # the one rank that touches a deceptive card depends on its suit
                return value == v.clue_ranks[suit_index % len(v.clue_ranks)]
        if v.odds_and_evens:
            # the rank clues are 1 ("odd") and 2 ("even")
            return rank in (ODD_CLUES if value == 1 else EVEN_CLUES)
        if v.funnels:
            return rank <= value  # also every lower rank
        if v.chimneys:
            return rank >= value  # also every higher rank
        return value == rank
    raise ValueError(f"clue_type must be {COLOR!r} or {RANK!r}, not {clue_type!r}")


def always_legal(site: Site, name: str | Variant, clue_type: str) -> bool:
    """Whether a clue of this type may touch no card: server/src/command_action.go makes
    that exception (beside the "Empty Clues" table option) for color clues in a
    colorCluesTouchNothing variant and rank clues in a rankCluesTouchNothing one."""
    v = _v(site, name)
    if clue_type == COLOR:
        return v.color_clues_touch_nothing
    if clue_type == RANK:
        return v.rank_clues_touch_nothing
    raise ValueError(f"clue_type must be {COLOR!r} or {RANK!r}, not {clue_type!r}")


def untouchable(site: Site, name: str | Variant) -> list[tuple[int, int]]:
    """The distinct cards (suitIndex, rank) of the deck that no clue of the variant touches
    (e.g. every Null card; a Brown 5 in "White-Fives & Brown"; a White card when there are
    no rank clues). Derived from :func:`touches`; the site has no such notion. A hand of
    only such cards can be given no clue, unless :func:`always_legal` allows an empty one."""
    v = _v(site, name)
    out = []
    for si, r in dict.fromkeys(deck(site, v)):
        if not any(touches(site, v, si, r, COLOR, c) for c in range(len(v.clue_colors))) and not any(
                touches(site, v, si, r, RANK, k) for k in v.clue_ranks):
            out.append((si, r))
    return out


# ---------------------------------------------------------------------------------------
# rules beyond the data


def special_rules(site: Site, name: str | Variant) -> set[str]:
    """The rules of the variant that the data files do not spell out and that change the
    game (how clues are paid or given, how a card plays, the stacks' direction), by the
    server's own predicates (:data:`SPECIAL_RULES`): throwItInAHole, clueStarved,
    alternatingClues, upOrDown, sudoku (name prefixes), reversed (a suit whose Reversed
    flag is set: its name ends in " Reversed") and inverted (a suit with ``inverted``:
    playing one of its cards discards it and discarding plays it; with any such suit a
    discard is allowed at the maximum of clue tokens). Critical Fours, Scarce Ones,
    Synesthesia, Odds and Evens, Funnels, Chimneys and the rest change only the deck or
    which cards a clue touches, which :func:`deck` and :func:`touches` cover."""
    v = _v(site, name)
    out = set()
    if v.is_throw_it_in_a_hole():
        out.add("throwItInAHole")
    if v.is_clue_starved():
        out.add("clueStarved")
    if v.is_alternating_clues():
        out.add("alternatingClues")
    if v.is_up_or_down():
        out.add("upOrDown")
    if v.is_sudoku():
        out.add("sudoku")
    if any(s.reversed for s in v.suits):
        out.add("reversed")
    if v.has_inverted_suits():
        out.add("inverted")
    return out


def clue_info_rules(site: Site, name: str | Variant) -> set[str]:
    """Rules that change only what the players are told of a clue, not which cards it
    touches or whether it is legal: "cowAndPig" (color clues say "Moo", rank clues
    "Oink") and "duck" ("Quack"). The server has no code for either (the predicates
    IsCowAndPig/IsDuck are never called); the client hides the clue
    (packages/game/src/rules/clues.ts: getClueName, shouldApplyClue)."""
    v = _v(site, name)
    return {r for r, on in (("cowAndPig", v.is_cow_and_pig()), ("duck", v.is_duck())) if on}


# ---------------------------------------------------------------------------------------
# the browser client's versions, for comparison only (packages/game/src/rules/clues.ts,
# rules/deck.ts, variantsInit.ts): they read flags of variants.json where the server reads
# name prefixes, and test some things in another order


def client_ranks(site: Site, name: str | Variant) -> tuple[int, ...]:
    """variantsInit.ts: [1..5] cut to the JSON "stackSize" (default 5), then START if upOrDown."""
    vj = _v(site, name).json
    out = [1, 2, 3, 4, 5][: vj.get("stackSize", DEFAULT_POINTS_PER_SUIT)]
    if vj.get("upOrDown", False):
        out.append(START_CARD_RANK)
    return tuple(out)


def client_num_copies(site: Site, name: str | Variant, suit_index: int, rank: int) -> int:
    """rules/deck.ts: getNumCopiesOfCard (JSON "criticalRank" / "scarceOnes" / "sudoku")."""
    v = _v(site, name)
    vj, suit = v.json, v.suits[suit_index]
    if suit.one_of_each:
        return 1
    if vj.get("criticalRank") == rank:
        return 1
    if vj.get("sudoku", False):
        return 2
    if rank == 1:
        if vj.get("upOrDown", False) or suit.reversed:
            return 1
        return 2 if vj.get("scarceOnes", False) else 3
    if rank in (2, 3, 4):
        return 2
    if rank == 5:
        return 3 if suit.reversed else 1
    if rank == START_CARD_RANK and vj.get("upOrDown", False):
        return 1
    raise ValueError(f"no card of rank {rank} in {v.name!r}")


def client_total_cards(site: Site, name: str | Variant) -> int:
    """rules/deck.ts: getTotalCardsInDeck."""
    v = _v(site, name)
    vj = v.json
    stack = vj.get("stackSize", DEFAULT_POINTS_PER_SUIT)
    total = 0
    for s in v.suits:
        if s.one_of_each:
            total += stack + 1 if vj.get("upOrDown", False) else stack
        elif vj.get("upOrDown", False) or vj.get("criticalRank") is not None or vj.get("scarceOnes", False):
            total += stack * 2 - 1
        else:
            total += stack * 2
    return total


def server_deck_size(site: Site, name: str | Variant) -> int:
    """server/src/variant.go: GetDeckSize (totalCardsInSuit), which the server uses to
    check the deck of a replay made from JSON and to compute efficiencies -- not InitDeck."""
    v = _v(site, name)
    total = 0
    for s in v.suits:
        if s.one_of_each:
            total += v.stack_size + 1 if v.is_up_or_down() else v.stack_size
        elif v.is_up_or_down() or v.is_critical_fours():
            total += v.stack_size * 2 - 1
        else:
            total += v.stack_size * 2
    return total


def client_touches(site: Site, name: str | Variant, suit_index: int, rank: int, clue_type: str, value: int) -> bool:
    """rules/clues.ts: isCardTouchedByClueColor / isCardTouchedByClueRank. Differs from
    the server in reading the JSON "synesthesia" flag and in testing funnels, chimneys and
    odds-and-evens before the special rank."""
    v = _v(site, name)
    vj, suit = v.json, v.suits[suit_index]
    special = vj.get("specialRank")
    if clue_type == COLOR:
        color = v.clue_colors[value]
        if vj.get("colorCluesTouchNothing", False):
            return False
        if suit.all_clue_colors:
            return True
        if suit.no_clue_colors:
            return False
        if vj.get("synesthesia", False) and not suit.no_clue_ranks:
            if color == v.clue_colors[(rank - 1) % len(v.clue_colors)]:
                return True
        if rank == special:
            if vj.get("specialRankAllClueColors", False):
                return True
            if vj.get("specialRankNoClueColors", False):
                return False
        if suit.prism:
            i = len(v.clue_colors) - 1 if rank == START_CARD_RANK else (rank - 1) % len(v.clue_colors)
            return color == v.clue_colors[i]
        return color in suit.clue_colors
    if clue_type == RANK:
        if vj.get("rankCluesTouchNothing", False):
            return False
        if suit.all_clue_ranks:
            return True
        if suit.no_clue_ranks:
            return False
        if vj.get("funnels", False):
            return rank <= value
        if vj.get("chimneys", False):
            return rank >= value
        if vj.get("oddsAndEvens", False):
            return rank in ((1, 3, 5) if value == 1 else (2, 4))
        if rank == special:
            if vj.get("specialRankAllClueRanks", False):
                return True
            if vj.get("specialRankNoClueRanks", False):
                return False
            if vj.get("specialRankDeceptive", False):
                return value == v.clue_ranks[suit_index % len(v.clue_ranks)]
        return value == rank
    raise ValueError(f"clue_type must be {COLOR!r} or {RANK!r}, not {clue_type!r}")
