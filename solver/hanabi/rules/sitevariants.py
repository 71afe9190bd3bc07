"""hanab.live's 2,426 variants, built on demand from the project's table
(``solver/hanabi/data/hanablive_variants.tsv``, made by ``scripts/build_variants.py`` from the
site's own JSON files; GPL v3 data, see the table's header).

The table is read the first time a variant that is not built in is asked for (``import
solver`` does not read it); each variant is then built from its line as the site's
server builds it:

- the deck (``InitDeck``/``numCopiesOfCard`` in ``server/src/game_deck.go``): three 1s,
  two 2s-4s and one 5 per suit; one of each rank for a one-of-each ("dark") suit; two 1s
  in "Scarce Ones" variants and one 4 in "Critical Fours" ones (the server tells them by
  the name's prefix); suits in the variant's order;
- the clue colors (the variant's own list, else every color of its suits that are not
  touched by all colors, in suit order) and clue ranks (the variant's list, else 1-5);
- the touch rules (:class:`~.variant.TouchRules`, applied by
  :meth:`~.variant.Variant.touches` as ``variantIsCardTouched`` does).

The rules of their own that the engine plays (:class:`~.variant.Variant`'s flags, each
told by the name's prefix as the server's ``variant.go`` tells it): Clue Starved, Throw It
in a Hole, Alternating Clues, Up or Down (one 1, one 5 and a START card a suit), Sudoku
(ranks 1..N, two of each). Reversed suits (the server's copy of every suit, "Purple
Reversed", built from 5 down to 1) are ordinary suits read backwards
(:meth:`~.variant.Suit.height`). So every site variant is built. Inverted (orange) suits are data
here (:attr:`~.variant.Suit.inverted`): with every action recorded as what happened, their
one rule is that a discard is legal at the maximum of tokens.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .errors import MalformedError
from .variant import START_RANK, Suit, TouchRules, Variant

TABLE = "hanablive_variants.tsv"
REVERSED = " Reversed"
# the rules beyond data: the table's flag, and the name prefix the server tells them by
# (its predicates in server/src/variant.go)
# the rules of their own the engine plays (Variant's clue_starved, throw_it_in_a_hole,
# alternating_clues): the table's flag and the name prefix
_OWN_RULES = (("clueStarved", "Clue Starved"), ("throwItInAHole", "Throw It in a Hole"),
              ("alternatingClues", "Alternating Clues"), ("upOrDown", "Up or Down"), ("sudoku", "Sudoku"))


@dataclass(frozen=True)
class _SiteSuit:
    name: str
    abbreviation: str
    colors: tuple[str, ...]
    flags: frozenset[str]


_Line = tuple[int, str, tuple[str, ...], dict[str, str]]  # id, name, suit names, flags


@functools.lru_cache(maxsize=1)
def _text() -> tuple[str, str]:
    """The table's text, and in lower case (for lookups by name)."""
    path = Path(__file__).resolve().parent.parent / "data" / TABLE
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return text, text.lower()


@functools.lru_cache(maxsize=1)
def _suits() -> dict[str, _SiteSuit]:
    suits = {}
    text = _text()[0]
    for row in text[:text.find("\nV\t")].splitlines():  # the suits come first
        if row.startswith("S\t"):
            f = row.split("\t")
            suits[f[1]] = _SiteSuit(f[1], f[2], tuple(c for c in f[3].split(",") if c),
                                    frozenset(x for x in f[4].split(",") if x))
    return suits


def _parse_line(row: str) -> _Line:
    f = row.split("\t")
    flags = dict(kv.split("=", 1) for kv in f[4].split(";") if kv)
    return int(f[1]), f[2], tuple(f[3].split(",")), flags


def _find(needle: str, field: int, want: str) -> _Line | None:
    """The variant line whose field ``field`` (1: id, 2: name, lower case) is ``want``,
    found by a text search (one variant costs no parse of the other 2,425)."""
    text, lower = _text()
    start = 0
    while (i := lower.find(needle, start)) >= 0:
        a = lower.rfind("\n", 0, i) + 1
        b = lower.find("\n", i)
        b = len(lower) if b < 0 else b
        row = lower[a:b].split("\t")
        if row[0] == "v" and len(row) > field and row[field] == want:
            return _parse_line(text[a:b])
        start = i + 1
    return None


def site_names() -> list[str]:
    """Every hanab.live variant name, in the table's (the site's) order."""
    return [row.split("\t")[2] for row in _text()[0].splitlines() if row.startswith("V\t")]


def _by_name(name: str) -> _Line | None:
    """The line of the variant of this name (exact or case-insensitive), or None."""
    key = name.strip().lower()
    return _find(f"\t{key}\t", 2, key) if key and "\t" not in key and "\n" not in key else None


def site_variant(name: str) -> Variant:
    """The hanab.live variant of this name (exact or case-insensitive)."""
    line = _by_name(name)
    if line is None:
        import difflib

        close = difflib.get_close_matches(name.strip(), site_names(), n=3, cutoff=0.75)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise MalformedError(f"unknown variant {name!r}{hint}")
    return _build(*line)


def site_variant_by_id(vid: int) -> Variant:
    line = _find(f"v\t{vid}\t", 1, str(vid)) if vid >= 0 else None
    if line is None:
        raise MalformedError(f"unknown hanab.live variant id {vid}")
    return _build(*line)


def refusal(name: str) -> str | None:
    """Why the variant of this name is not supported (None if it is, or is not a site
    variant)."""
    line = _by_name(name)
    if line is None:
        return None
    try:
        _build(*line)
    except MalformedError as e:
        return str(e)
    return None


def _flag(flags: dict[str, str], key: str) -> bool:
    return flags.get(key) == "1"


def _ints(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(x) for x in text.split("|") if x)


@functools.lru_cache(maxsize=256)
def _build_cached(vid: int, name: str, suit_names: tuple[str, ...], flag_items: tuple[tuple[str, str], ...]) -> Variant:
    flags = dict(flag_items)
    site = _suits()

    # the server adds a reversed copy of every suit (suits.go): "Purple Reversed"
    reversed_ = [s.endswith(REVERSED) for s in suit_names]
    site_suits = [site[s[:-len(REVERSED)] if rev else s] for s, rev in zip(suit_names, reversed_)]

    # the deck: numCopiesOfCard
    scarce = name.startswith("Scarce Ones")
    critical = name.startswith("Critical Fours")
    up_or_down = _flag(flags, "upOrDown") or name.startswith("Up or Down")
    size = int(flags.get("stackSize", "5") or 5)  # (Sudoku: ranks 1..N, two of each)
    if _flag(flags, "sudoku") or name.startswith("Sudoku"):
        suits_ranks = [tuple(r for r in range(1, size + 1) for _ in range(1 if "oneOfEach" in s.flags else 2))
                       for s in site_suits]
    else:
        suits_ranks = [tuple(range(1, size + 1)) if "oneOfEach" in s.flags
                       else _copies(scarce, critical, rev, up_or_down) for s, rev in zip(site_suits, reversed_)]
    if up_or_down:  # and one START card a suit
        suits_ranks = [r + (START_RANK,) for r in suits_ranks]

    # the clue colors: the variant's own, else those of its suits not touched by every color
    if "clueColors" in flags:
        colors = tuple(c for c in flags["clueColors"].split("|") if c)
    else:
        seen: list[str] = []
        for s in site_suits:
            if "allClueColors" in s.flags:
                continue
            for c in s.colors:
                if c not in seen:
                    seen.append(c)
        colors = tuple(seen)
    clue_ranks = _ints(flags.get("clueRanks"))
    if clue_ranks is None:
        clue_ranks = (1, 2, 3, 4, 5)

    touch = TouchRules(
        all_colors=tuple("allClueColors" in s.flags for s in site_suits),
        no_colors=tuple("noClueColors" in s.flags for s in site_suits),
        all_ranks=tuple("allClueRanks" in s.flags for s in site_suits),
        no_ranks=tuple("noClueRanks" in s.flags for s in site_suits),
        prism=tuple("prism" in s.flags for s in site_suits),
        special_rank=int(flags.get("specialRank", "-1") or -1),
        special_all_colors=_flag(flags, "specialRankAllClueColors"),
        special_no_colors=_flag(flags, "specialRankNoClueColors"),
        special_all_ranks=_flag(flags, "specialRankAllClueRanks"),
        special_no_ranks=_flag(flags, "specialRankNoClueRanks"),
        special_deceptive=_flag(flags, "specialRankDeceptive"),
        color_touches_nothing=_flag(flags, "colorCluesTouchNothing"),
        rank_touches_nothing=_flag(flags, "rankCluesTouchNothing"),
        odds_and_evens=_flag(flags, "oddsAndEvens"),
        funnels=_flag(flags, "funnels"),
        chimneys=_flag(flags, "chimneys"),
        synesthesia=name.startswith("Synesthesia"),
    )
    letters = _letters(site_suits)
    suits = tuple(Suit(suit_names[i], letters[i], suits_ranks[i],
                       frozenset(colors.index(c) for c in s.colors if c in colors), "inverted" in s.flags,
                       reversed_[i])
                  for i, s in enumerate(site_suits))
    own = [_flag(flags, key) or name.startswith(prefix) for key, prefix in _OWN_RULES]
    return Variant(name, suits, colors, clue_ranks=clue_ranks, hanablive_id=vid, touch=touch,
                   clue_starved=own[0], throw_it_in_a_hole=own[1], alternating_clues=own[2], up_or_down=own[3],
                   sudoku=own[4])


def _copies(scarce: bool, critical: bool, reversed_: bool = False, up_or_down: bool = False) -> tuple[int, ...]:
    """The ranks of an ordinary suit's cards (numCopiesOfCard): three 1s (one in a
    reversed suit or in Up or Down, else two in Scarce Ones), two each of 2-4 (one 4 in
    Critical Fours), one 5 (three in a reversed suit)."""
    ones = 1 if reversed_ or up_or_down else 2 if scarce else 3
    return ((1,) * ones + (2, 2, 3, 3) + ((4,) if critical else (4, 4)) + (5,) * (3 if reversed_ else 1))


def _letters(suits: list[_SiteSuit]) -> list[str]:
    """One letter per suit for the compact notation, unique within the variant: the site's
    abbreviation, else the first free letter of the suit's name, else of the alphabet."""
    out: list[str] = []
    for s in suits:
        for cand in [s.abbreviation.lower(), *s.name.lower(), *"abcdefghijklmnopqrstuvwxyz"]:
            if cand.isalpha() and cand.isascii() and cand not in out:
                out.append(cand)
                break
    return out


def _build(vid: int, name: str, suit_names: tuple[str, ...], flags: dict[str, str]) -> Variant:
    return _build_cached(vid, name, suit_names, tuple(sorted(flags.items())))
