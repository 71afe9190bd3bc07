"""Every hanab.live variant against an independent reference of the site's own code.

tests/siteoracle.py reimplements, from hanab.live's server (and checked against its
client), the deck each variant deals and which card each clue touches, reading the site's
variants.json and suits.json (copies in the shared data folder: ../shared/hanablive/
variants). The tests here are in two groups:

* the oracle alone: known facts of well-known variants, and that the server's and the
  client's versions of the rules agree on all 2,426 variants;
* the engine (``solver.hanabi.rules``) against the oracle: a deterministic sample of variants
  chosen to cover every mechanic, compared card by card and clue by clue; lookup by name
  (exact, any case, with a suggestion for a typo) and by hanab.live id; and a walk over
  all the variants, each either accepted and equal to the oracle or refused with a reason.
  Every variant is accepted now (the engine plays every rule of siteoracle.special_rules:
  IMPLEMENTED); a variant with a rule it did not implement would have to be refused,
  naming the rule. Every sample variant is compared, those with cards no clue touches (null
  suits ...), inverted and reversed suits and the rules of their own included, card by
  card and clue by clue, and by random games through the engine and the reference engine
  (tests/refengine.py) set up from the oracle alone.
  test_sample_compared_coverage makes sure every mechanic is compared in at least MIN_EACH
  accepted variants.

Everything skips, naming the folder, when the shared data folder is not there.
"""
from __future__ import annotations

import hashlib
import re
import warnings
from collections import Counter

import pytest
import siteoracle as so

from conftest import SHARED, needs_shared, shared_params

VARIANTS = SHARED / "hanablive" / "variants"
VARIANTS_JSON = VARIANTS / "variants.json"
HAVE_DATA = (VARIANTS / "variants.json").exists() and (VARIANTS / "suits.json").exists()
SITE = so.load_site(VARIANTS) if HAVE_DATA else None
needs_data = needs_shared(VARIANTS_JSON)

ALL_RANKS = (1, 2, 3, 4, 5)
NO_VARIANT_SUIT = [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]


# ---------------------------------------------------------------------------------------
# the mechanics of a variant, and the sample


SUIT_FLAGS = ("one_of_each", "all_clue_colors", "all_clue_ranks", "no_clue_colors", "no_clue_ranks", "prism",
              "inverted")
SPECIAL_RANK_FLAGS = ("all_clue_colors", "all_clue_ranks", "no_clue_colors", "no_clue_ranks", "deceptive")


def mechanics(v: so.Variant) -> set[str]:
    """Names of what is out of the ordinary in variant ``v`` (the sample must cover each)."""
    assert SITE is not None  # (the tests that get here are skipped without the site's data)
    tags = set()
    for s in v.suits:
        for f in SUIT_FLAGS:
            if getattr(s, f):
                tags.add(f"suit.{f}")
        if len(s.clue_colors) > 1:
            tags.add("suit.multiColor")
    if v.is_critical_fours():
        tags.add("criticalFours")
    if v.is_scarce_ones():
        tags.add("scarceOnes")
    if v.special_rank != -1:
        tags.add(f"specialRank={v.special_rank}")
        for f in SPECIAL_RANK_FLAGS:
            if getattr(v, f"special_rank_{f}"):
                tags.add(f"specialRank.{f}")
    if "clueRanks" in v.json and list(v.clue_ranks) != list(ALL_RANKS):
        tags.add("clueRanksSubset")
    if "clueColors" in v.json:
        tags.add("clueColorsExplicit")
    for attr, tag in (("color_clues_touch_nothing", "colorCluesTouchNothing"),
                      ("rank_clues_touch_nothing", "rankCluesTouchNothing"),
                      ("odds_and_evens", "oddsAndEvens"), ("funnels", "funnels"), ("chimneys", "chimneys")):
        if getattr(v, attr):
            tags.add(tag)
    if v.is_synesthesia():
        tags.add("synesthesia")
    if so.untouchable(SITE, v):
        tags.add("untouchable")
    tags |= {f"info.{r}" for r in so.clue_info_rules(SITE, v)}
    tags |= {f"rule.{r}" for r in so.special_rules(SITE, v)}
    return tags


# the oracle's special rules that the engine implements: inverted suits (with every action
# recorded as what happened, their rule is a discard legal at the maximum of tokens), Throw
# It in a Hole, Clue Starved, Alternating Clues and Up or Down (Variant's flags), reversed suits
# (Suit.reversed)
IMPLEMENTED = {"inverted", "throwItInAHole", "clueStarved", "alternatingClues", "reversed", "upOrDown", "sudoku"}


def unimplemented(name) -> set[str]:
    """The variant's special rules the engine does not implement (it must refuse these)."""
    assert SITE is not None  # (the tests that get here are skipped without the site's data)
    return so.special_rules(SITE, name) - IMPLEMENTED


# what the sample must hold at least MIN_EACH of: the ones compared with the engine (among
# variants without special rules), and the special rules (whose refusal is checked)
COMPARED_MECHANICS = (
    "suit.one_of_each", "suit.all_clue_colors", "suit.all_clue_ranks", "suit.no_clue_colors", "suit.no_clue_ranks",
    "suit.prism", "suit.multiColor", "criticalFours", "scarceOnes", "specialRank=1", "specialRank=5",
    "specialRank.all_clue_colors", "specialRank.all_clue_ranks", "specialRank.no_clue_colors",
    "specialRank.no_clue_ranks", "specialRank.deceptive", "clueRanksSubset", "clueColorsExplicit",
    "colorCluesTouchNothing", "rankCluesTouchNothing", "oddsAndEvens", "funnels", "chimneys", "synesthesia",
    "info.cowAndPig", "info.duck", "untouchable", "suit.inverted",
) + tuple(f"rule.{r}" for r in so.SPECIAL_RULES if r in IMPLEMENTED)
REFUSED_MECHANICS = tuple(f"rule.{r}" for r in so.SPECIAL_RULES if r not in IMPLEMENTED)
MIN_EACH = 3
SAMPLE_COMPARED = 200  # at least this many variants without special rules
ANCHORS = ("No Variant", "6 Suits", "Rainbow (5 Suits)", "Black (6 Suits)", "Pink (5 Suits)", "Brown (5 Suits)",
           "Null (5 Suits)", "Prism (5 Suits)", "Odds and Evens (5 Suits)", "Color Mute (3 Suits)")


def _hash_order(names):
    return sorted(names, key=lambda n: hashlib.sha256(n.encode()).hexdigest())


def choose_sample(site: so.Site) -> list[str]:
    """A deterministic sample: the anchors, then for each mechanic the first variants that
    have it in a fixed pseudo-random order (sha256 of the name) until it appears MIN_EACH
    times, then more variants without special rules in that order up to SAMPLE_COMPARED."""
    order = _hash_order(site.variants)
    tags = {n: mechanics(site.variants[n]) for n in order}
    special = {n for n in order if unimplemented(n)}
    plain = [n for n in order if n not in special]
    sample = [n for n in ANCHORS if n in site.variants]
    for need, pool in ((COMPARED_MECHANICS, plain), (REFUSED_MECHANICS, [n for n in order if n in special])):
        for tag in need:
            have = sum(tag in tags[n] for n in sample if (n in special) == (need is REFUSED_MECHANICS))
            for n in pool:
                if have >= MIN_EACH:
                    break
                if tag in tags[n] and n not in sample:
                    sample.append(n)
                    have += 1
    for n in order:
        if sum(m not in special for m in sample) >= SAMPLE_COMPARED:
            break
        if n not in special and n not in sample:
            sample.append(n)
    return sample


SAMPLE = choose_sample(SITE) if SITE is not None else []  # (SITE: loaded when HAVE_DATA)
SAMPLE_OK = [n for n in SAMPLE if not unimplemented(n)]
SAMPLE_REFUSED = [n for n in SAMPLE if unimplemented(n)]  # (empty: the engine plays every rule)




def coverage(names) -> Counter:
    assert SITE is not None  # (the tests that get here are skipped without the site's data)
    c: Counter = Counter()
    for n in names:
        c.update(mechanics(SITE.variants[n]))
    return c


# ---------------------------------------------------------------------------------------
# the oracle alone


@needs_data
def test_site_loads():
    assert len(SITE.variants) == 2426 and len(SITE.by_id) == 2426
    assert SITE.by_id[0].name == "No Variant"
    assert all(SITE.by_id[v.id] is v for v in SITE.variants.values())
    # the server adds a " Reversed" copy of every suit
    assert SITE.suits["Purple Reversed"].reversed and not SITE.suits["Purple"].reversed


@needs_data
def test_oracle_no_variant():
    n = "No Variant"
    d = so.deck(SITE, n)
    assert len(d) == 50 and so.max_score(SITE, n) == 25
    for si in range(5):
        assert [r for s, r in d if s == si] == NO_VARIANT_SUIT
    assert [s for s, _ in d] == sorted(s for s, _ in d)  # suit by suit
    assert so.clue_colors(SITE, n) == ["Red", "Yellow", "Green", "Blue", "Purple"]
    assert so.clue_ranks(SITE, n) == [1, 2, 3, 4, 5]
    for si in range(5):
        for r in ALL_RANKS:
            assert [so.touches(SITE, n, si, r, "color", c) for c in range(5)] == [c == si for c in range(5)]
            assert [so.touches(SITE, n, si, r, "rank", k) for k in ALL_RANKS] == [k == r for k in ALL_RANKS]
    assert not so.always_legal(SITE, n, "color") and not so.always_legal(SITE, n, "rank")
    assert so.special_rules(SITE, n) == set() and so.clue_info_rules(SITE, n) == set()


@needs_data
def test_oracle_decks():
    assert len(so.deck(SITE, "6 Suits")) == 60
    d = so.deck(SITE, "Black (6 Suits)")
    assert len(d) == 55 and [r for s, r in d if s == 5] == [1, 2, 3, 4, 5]
    assert so.clue_colors(SITE, "Black (6 Suits)")[-1] == "Black"
    assert len(so.deck(SITE, "Critical Fours (5 Suits)")) == 45
    assert [r for s, r in so.deck(SITE, "Critical Fours (5 Suits)") if s == 0] == [1, 1, 1, 2, 2, 3, 3, 4, 5]
    assert [r for s, r in so.deck(SITE, "Scarce Ones (5 Suits)") if s == 0] == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    # a reversed suit: one 1, three 5s
    rev = SITE.variants["Reversed (5 Suits)"]
    # (the server's reversed suit is a copy of the suit with Reversed set: same Name)
    assert rev.json["suits"][-1] == "Purple Reversed" and rev.suits[-1].reversed and rev.suits[-1].name == "Purple"
    assert [r for s, r in so.deck(SITE, rev.name) if s == 4] == [1, 2, 2, 3, 3, 4, 4, 5, 5, 5]
    # Sudoku: ranks up to the number of suits, two of each
    assert so.ranks(SITE, "Sudoku (4 Suits)") == (1, 2, 3, 4) and so.stack_size(SITE, "Sudoku (4 Suits)") == 4
    assert [r for s, r in so.deck(SITE, "Sudoku (4 Suits)") if s == 0] == [1, 1, 2, 2, 3, 3, 4, 4]
    # Up or Down: START cards are rank 7, one per suit
    uod = "Up or Down (5 Suits)"
    assert [r for s, r in so.deck(SITE, uod) if s == 0] == [1, 2, 2, 3, 3, 4, 4, 5, so.START_CARD_RANK]
    assert so.START_CARD_RANK not in {r for _, r in so.deck(SITE, uod, start_cards="skip")}
    with pytest.raises(ValueError):
        so.deck(SITE, uod, start_cards="raise")


@needs_data
def test_oracle_suit_touches():
    def row(name, suit_name, kind):
        v = SITE.variants[name]
        si = [s.name for s in v.suits].index(suit_name)
        values = range(len(v.clue_colors)) if kind == "color" else v.clue_ranks
        return {(r, x) for r in v.ranks for x in values if so.touches(SITE, name, si, r, kind, x)}

    every = {(r, c) for r in ALL_RANKS for c in range(4)}
    by_rank = {(r, r) for r in ALL_RANKS}
    assert so.clue_colors(SITE, "Rainbow (5 Suits)") == ["Red", "Yellow", "Green", "Blue"]
    assert row("Rainbow (5 Suits)", "Rainbow", "color") == every
    assert row("Rainbow (5 Suits)", "Rainbow", "rank") == by_rank
    assert row("Pink (5 Suits)", "Pink", "rank") == {(r, k) for r in ALL_RANKS for k in ALL_RANKS}
    assert so.clue_colors(SITE, "Pink (5 Suits)")[-1] == "Pink"
    assert row("Pink (5 Suits)", "Pink", "color") == {(r, 4) for r in ALL_RANKS}
    # Brown: its own color touches it, no rank does
    assert so.clue_colors(SITE, "Brown (5 Suits)")[-1] == "Brown"
    assert row("Brown (5 Suits)", "Brown", "color") == {(r, 4) for r in ALL_RANKS}
    assert row("Brown (5 Suits)", "Brown", "rank") == set()
    assert row("White (5 Suits)", "White", "color") == set() and row("White (5 Suits)", "White", "rank") == by_rank
    assert row("Null (5 Suits)", "Null", "color") == set() and row("Null (5 Suits)", "Null", "rank") == set()
    assert row("Omni (5 Suits)", "Omni", "color") == every
    assert row("Omni (5 Suits)", "Omni", "rank") == {(r, k) for r in ALL_RANKS for k in ALL_RANKS}
    # Prism: the color of a card's rank, cycling through the clue colors
    assert row("Prism (5 Suits)", "Prism", "color") == {(r, (r - 1) % 4) for r in ALL_RANKS}
    # dual colors: the clue colors are the suits' colors in order of first appearance
    assert so.clue_colors(SITE, "Dual-Color (6 Suits)") == ["Red", "Yellow", "Blue", "Black"]
    assert row("Dual-Color (6 Suits)", "Tangerine", "color") == {(r, c) for r in ALL_RANKS for c in (0, 1)}
    assert row("Dual-Color (6 Suits)", "Cobalt", "color") == {(r, c) for r in ALL_RANKS for c in (2, 3)}


@needs_data
def test_oracle_variant_touches():
    n = "Rainbow-Ones (5 Suits)"
    assert all(so.touches(SITE, n, si, 1, "color", c) for si in range(5) for c in range(5))
    assert not so.touches(SITE, n, 0, 2, "color", 1)
    n = "Deceptive-Fives (5 Suits)"
    cr = so.clue_ranks(SITE, n)
    for si in range(5):
        assert [k for k in cr if so.touches(SITE, n, si, 5, "rank", k)] == [cr[si % len(cr)]]
    n = "Odds and Evens (5 Suits)"
    assert so.clue_ranks(SITE, n) == [1, 2]
    assert [r for r in ALL_RANKS if so.touches(SITE, n, 0, r, "rank", 1)] == [1, 3, 5]
    assert [r for r in ALL_RANKS if so.touches(SITE, n, 0, r, "rank", 2)] == [2, 4]
    n = "Funnels (5 Suits)"
    assert [r for r in ALL_RANKS if so.touches(SITE, n, 0, r, "rank", 3)] == [1, 2, 3]
    n = "Chimneys (5 Suits)"
    assert [r for r in ALL_RANKS if so.touches(SITE, n, 0, r, "rank", 3)] == [3, 4, 5]
    n = "Synesthesia (5 Suits)"
    # red 3 is touched by red (its suit) and green (the third color)
    assert [c for c in range(5) if so.touches(SITE, n, 0, 3, "color", c)] == [0, 2]
    n = "Color Blind (5 Suits)"
    assert len(so.clue_colors(SITE, n)) == 5
    assert not any(so.touches(SITE, n, si, r, "color", c) for si in range(5) for r in ALL_RANKS for c in range(5))
    assert so.always_legal(SITE, n, "color") and not so.always_legal(SITE, n, "rank")
    n = "Number Blind (5 Suits)"
    assert so.always_legal(SITE, n, "rank") and not so.always_legal(SITE, n, "color")
    assert so.always_legal(SITE, "Totally Blind (5 Suits)", "color") and so.always_legal(
        SITE, "Totally Blind (5 Suits)", "rank")
    assert so.clue_colors(SITE, "Color Mute (5 Suits)") == []
    assert so.clue_ranks(SITE, "Number Mute (5 Suits)") == []
    with pytest.raises(ValueError):
        so.touches(SITE, "No Variant", 0, 1, "color", 5)
    with pytest.raises(ValueError):
        so.touches(SITE, "Odds and Evens (5 Suits)", 0, 1, "rank", 3)


@needs_data
def test_oracle_special_rules():
    sr = so.special_rules
    assert sr(SITE, "Throw It in a Hole (5 Suits)") == {"throwItInAHole"}
    assert sr(SITE, "Clue Starved (5 Suits)") == {"clueStarved"}
    assert sr(SITE, "Alternating Clues (5 Suits)") == {"alternatingClues"}
    assert sr(SITE, "Up or Down (5 Suits)") == {"upOrDown"}
    assert sr(SITE, "Sudoku (5 Suits)") == {"sudoku"}
    assert sr(SITE, "Reversed (5 Suits)") == {"reversed"}
    assert sr(SITE, "Orange (6 Suits)") == {"inverted"}
    assert sr(SITE, "Sudoku & Orange (5 Suits)") == {"sudoku", "inverted"}
    for n in ("Synesthesia (5 Suits)", "Critical Fours (5 Suits)", "Scarce Ones (5 Suits)", "Cow & Pig (5 Suits)",
              "Duck (5 Suits)", "Odds and Evens (5 Suits)", "Funnels (5 Suits)", "Rainbow-Ones (5 Suits)"):
        assert sr(SITE, n) == set(), n
    assert so.clue_info_rules(SITE, "Cow & Pig (5 Suits)") == {"cowAndPig"}
    assert so.clue_info_rules(SITE, "Duck (5 Suits)") == {"duck"}
    # the name prefixes the server keys on agree with the flags of variants.json
    for v in SITE.variants.values():
        j = v.json
        assert ("throwItInAHole" in sr(SITE, v)) == bool(j.get("throwItInAHole")), v.name
        assert ("clueStarved" in sr(SITE, v)) == bool(j.get("clueStarved")), v.name
        assert ("alternatingClues" in sr(SITE, v)) == bool(j.get("alternatingClues")), v.name
        assert ("upOrDown" in sr(SITE, v)) == bool(j.get("upOrDown")), v.name
        assert ("sudoku" in sr(SITE, v)) == bool(j.get("sudoku")), v.name
        assert v.is_synesthesia() == bool(j.get("synesthesia")), v.name
        assert v.is_critical_fours() == (j.get("criticalRank") == 4), v.name
        assert v.is_scarce_ones() == bool(j.get("scarceOnes")), v.name
        assert so.clue_info_rules(SITE, v) == {k for k in ("cowAndPig", "duck") if j.get(k)}, v.name


@needs_data
def test_oracle_server_and_client_agree():
    """The server's rules (the oracle) and the client's (so.client_*) agree on every card
    count and every touch of every variant. The one difference: the server's GetDeckSize,
    which checks the deck of a replay made from JSON, counts 10 cards for a Scarce Ones
    suit that InitDeck deals 9 of."""
    bad = []
    deck_size_differs = set()
    for v in SITE.variants.values():
        if so.client_ranks(SITE, v) != v.ranks:
            bad.append((v.name, "ranks"))
        d = so.deck(SITE, v)
        if so.client_total_cards(SITE, v) != len(d):
            bad.append((v.name, "client total"))
        if so.server_deck_size(SITE, v) != len(d):
            deck_size_differs.add(v.name)
        for si in range(len(v.suits)):
            for r in v.ranks:
                if so.client_num_copies(SITE, v, si, r) != so.num_copies(SITE, v, si, r):
                    bad.append((v.name, "copies", si, r))
                for c in range(len(v.clue_colors)):
                    if so.client_touches(SITE, v, si, r, "color", c) != so.touches(SITE, v, si, r, "color", c):
                        bad.append((v.name, "color", si, r, c))
                for k in v.clue_ranks:
                    if so.client_touches(SITE, v, si, r, "rank", k) != so.touches(SITE, v, si, r, "rank", k):
                        bad.append((v.name, "rank", si, r, k))
    assert not bad, bad[:20]
    assert deck_size_differs == {v.name for v in SITE.variants.values() if v.is_scarce_ones()}


@needs_data
def test_sample_coverage():
    assert len(SAMPLE_OK) >= SAMPLE_COMPARED and len(SAMPLE) == len(set(SAMPLE))
    ok, refused = coverage(SAMPLE_OK), coverage(SAMPLE_REFUSED)
    short = [t for t in COMPARED_MECHANICS if ok[t] < MIN_EACH] + [
        t for t in REFUSED_MECHANICS if refused[t] < MIN_EACH]
    table = "; ".join(f"{t}: {ok[t]}" for t in COMPARED_MECHANICS) + " | refused: " + "; ".join(
        f"{t}: {refused[t]}" for t in REFUSED_MECHANICS)
    assert not short, f"mechanics seen fewer than {MIN_EACH} times: {short}; coverage: {table}"


# ---------------------------------------------------------------------------------------
# the engine against the oracle


@pytest.fixture(scope="module")
def eng():
    """solver.hanabi.rules's interface as these tests use it (imported here, so that the oracle's
    tests above run even when the engine does not import)."""
    import solver.hanabi.rules as g
    from solver.hanabi.rules.options import variant_by_id

    class E:
        parse_variant = staticmethod(g.parse_variant)
        by_id = staticmethod(variant_by_id)
        MalformedError = g.MalformedError
        COLOR = g.COLOR_CLUE
        RANK = g.RANK_CLUE

    return E


def differences(eng, name: str, v, *, full: bool = True, limit: int = 8) -> list[str]:
    """How the engine's variant ``v`` differs from the oracle's ``name`` (first ``limit``)."""
    assert SITE is not None  # (the tests that get here are skipped without the site's data)
    o = SITE.variants[name]
    out: list[str] = []

    def check(what, got, want):
        if got != want:
            if isinstance(want, list) and len(want) > 8:  # a long list: where it first differs
                i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                out.append(f"{what}: engine {len(got)} items, site {len(want)}; first difference at [{i}]: "
                           f"engine {got[i:i + 3]!r}..., site {want[i:i + 3]!r}...")
            else:
                out.append(f"{what}: engine {got!r}, site {want!r}")

    try:
        d = so.deck(SITE, o)
        check("composition", [(int(s), int(r)) for s, r in v.composition()], d)
        colors, ranks = tuple(o.clue_colors), tuple(o.clue_ranks)
        if full:
            check("name", v.name, name)
            check("hanablive_id", v.hanablive_id, o.id)
            check("suit names", [s.name for s in v.suits], list(o.json["suits"]))
            check("suit ranks", [tuple(s.ranks) for s in v.suits],
                  [tuple(r for s, r in d if s == si) for si in range(len(o.suits))])
            check("perfect_score", v.perfect_score, o.max_score)
            check("inverted suits", [s.inverted for s in v.suits], [s.inverted for s in o.suits])
            check("reversed suits", [s.reversed for s in v.suits], [s.reversed for s in o.suits])
            rules = so.special_rules(SITE, o)
            check("rules of its own",
                  [v.clue_starved, v.throw_it_in_a_hole, v.alternating_clues, v.up_or_down, v.sudoku],
                  [r in rules for r in ("clueStarved", "throwItInAHole", "alternatingClues", "upOrDown", "sudoku")])
            check("clue_always_legal(color)", v.clue_always_legal(eng.COLOR), so.always_legal(SITE, o, "color"))
            check("clue_always_legal(rank)", v.clue_always_legal(eng.RANK), so.always_legal(SITE, o, "rank"))
        check("clue_colors", tuple(v.clue_colors), colors)
        check("clue_ranks", tuple(v.clue_ranks), ranks)
        if out and any(x.startswith(("clue_colors", "clue_ranks")) for x in out):
            return out[:limit]
        for si in range(len(o.suits)):
            for r in o.ranks:
                for c in range(len(colors)):
                    got, want = v.touches(si, r, eng.COLOR, c), so.touches(SITE, o, si, r, "color", c)
                    if bool(got) != want:
                        out.append(f"touches(suit {si} {o.suits[si].name}, rank {r}, color {colors[c]}): "
                                   f"engine {got!r}, site {want!r}")
                for k in ranks:
                    got, want = v.touches(si, r, eng.RANK, k), so.touches(SITE, o, si, r, "rank", k)
                    if bool(got) != want:
                        out.append(f"touches(suit {si} {o.suits[si].name}, rank {r}, rank clue {k}): "
                                   f"engine {got!r}, site {want!r}")
                if len(out) >= limit:
                    return out[:limit]
    except Exception as e:  # the engine failing is a difference too
        out.append(f"engine raised {type(e).__name__}: {e}")
    return out[:limit]


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def reason(name: str, message: str) -> str:
    """The refusal message without the variant's name (the reason must be more than it)."""
    return re.sub(re.escape(name), "", message, flags=re.IGNORECASE)


def names_rule(name: str, message: str) -> bool:
    """Whether a refusal of ``name`` names one of its special rules (ignoring case, spaces and
    punctuation, and not counting the variant's name: "Sudoku (5 Suits)" alone names nothing)."""
    text = _norm(reason(name, message))
    return any(_norm(r) in text for r in unimplemented(name))


# the site's hand sizes by player count (server/src/constants.go DefaultNumCardsPerHand)
SITE_HAND_SIZES = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}


def reference_game(name: str, players: int, cards, start: int = 0):
    """The reference engine (tests/refengine.py) set up for the site variant ``name`` from
    the oracle alone: its deck, clue values, touch rule, empty-clue exception, suits'
    tops, inverted suits and its rules of its own (Clue Starved, Throw It in a Hole,
    Alternating Clues); ``cards``: the deal to check, (suit, rank) in deck order."""
    assert SITE is not None  # (the tests that get here are skipped without the site's data)
    from refengine import RefGame

    o = SITE.variants[name]
    d = so.deck(SITE, o)
    spec = {
        "suits": len(o.suits), "cards": d, "handSize": SITE_HAND_SIZES[players], "clueTokens": 8, "strikes": 3,
        "maxRanks": [o.stack_size] * len(o.suits),  # (the site's StackSize: an Up or Down START is rank 7)
        "colorValues": list(range(len(o.clue_colors))), "rankValues": list(o.clue_ranks),
        "touches": lambda suit, rank, kind, value: so.touches(SITE, o, suit, rank, kind, value),
        "emptyOk": {k: so.always_legal(SITE, o, k) for k in ("color", "rank")},
        "inverted": [i for i, su in enumerate(o.suits) if su.inverted],
        "reversed": [i for i, su in enumerate(o.suits) if su.reversed],
    }
    spec.update({rule: True for rule in so.special_rules(SITE, o) & {"clueStarved", "throwItInAHole",
                                                                      "alternatingClues", "upOrDown", "sudoku"}})
    return RefGame(spec, players, cards, starting_player=start)


@needs_data
@pytest.mark.parametrize("name", shared_params(VARIANTS_JSON, SAMPLE_OK))
def test_sample_games_agree_with_the_reference_engine(name):
    """A seed of each sample variant, dealt by the engine, then random legal games through
    the engine and the reference engine built from the oracle alone: the same legal moves,
    clues touching the same cards, the same position after every move, the same end."""
    import random

    from solver.hanabi.rules import COLOR_CLUE
    from solver.hanabi.rules.seeds import game_from_seed

    from conftest import as_command

    rng = random.Random(name)
    o = SITE.variants[name]
    for _ in range(2):
        players = rng.randint(2, 6)
        g = game_from_seed(f"p{players}v{o.id}s{rng.randint(1, 10**6)}")
        st = g.initial_state()
        ref = reference_game(name, players, [(c.suit, c.rank) for c in g.deck])
        while True:
            assert st.snapshot() == ref.snapshot(), (name, st.turn)
            assert st.over == ref.over and st.score == ref.score, (name, st.turn)
            legal = st.legal_actions()
            assert sorted(as_command(st, a) for a in legal) == ref.legal_actions(), (name, st.turn)
            for a in legal:
                if a.is_clue:
                    kind = "color" if a.kind == COLOR_CLUE else "rank"
                    want = tuple(x for x in ref.hands[a.target] if so.touches(SITE, o, *ref.deck[x], kind, a.value))
                    assert a.touched == want, (name, st.turn, a)
            if st.over:
                break
            plays = [a for a in legal if not a.is_clue and st.is_playable(a.target)]
            a = rng.choice(plays if plays and rng.random() < 0.5 else legal)
            ref = ref.apply(as_command(st, a))
            st.apply(a)


@needs_data
@pytest.mark.parametrize("name", shared_params(VARIANTS_JSON, SAMPLE_OK))
def test_sample_matches_site(eng, name):
    v = eng.parse_variant(name)
    diff = differences(eng, name, v)
    assert not diff, f"{name!r} (id {SITE.variants[name].id}): " + "; ".join(diff)


@needs_data
def test_sample_compared_coverage(eng):
    """Each mechanic is compared with the engine, in at least MIN_EACH variants it accepts."""
    took, refused = [], {}
    for name in SAMPLE_OK:
        try:
            eng.parse_variant(name)
            took.append(name)
        except eng.MalformedError as e:
            refused[name] = str(e)
    c = coverage(took)
    short = [t for t in COMPARED_MECHANICS if c[t] < MIN_EACH]
    assert not short, (f"compared fewer than {MIN_EACH} times: {short}; coverage of the {len(took)} accepted: "
                       + "; ".join(f"{t}: {c[t]}" for t in COMPARED_MECHANICS)
                       + f"; refused: {sorted(refused)[:10]}")


@needs_data
def test_lookup_by_id_and_any_case(eng):
    """By hanab.live id, and by name in lower or upper case: the same outcome as by the
    exact name (the same variant, or a refusal)."""
    assert issubclass(eng.MalformedError, ValueError)
    bad = []
    for name in SAMPLE:
        o = SITE.variants[name]
        try:
            want = eng.parse_variant(name).name
        except eng.MalformedError:
            want = None
        for how, get, arg in (("id", eng.by_id, o.id), ("lower", eng.parse_variant, name.lower()),
                              ("upper", eng.parse_variant, name.upper())):
            try:
                v = get(arg)
                if (v.name, v.hanablive_id) != (want, o.id):
                    bad.append(f"{how} {name!r}: got {v.name!r} id {v.hanablive_id}, want {want!r} id {o.id}")
            except eng.MalformedError as e:
                if want is not None:
                    bad.append(f"{how} {name!r}: refused ({e}) but accepted by its exact name")
            except Exception as e:
                bad.append(f"{how} {name!r}: {type(e).__name__}: {e}")
    assert not bad, bad[:10]
    v = eng.parse_variant("rainbow (5 suits)")
    assert v.name == "Rainbow (5 Suits)" and v.hanablive_id == SITE.variants["Rainbow (5 Suits)"].id
    assert eng.by_id(SITE.variants["Rainbow (5 Suits)"].id).name == "Rainbow (5 Suits)"


@needs_data
def test_unknown_names_and_ids(eng):
    with pytest.raises(eng.MalformedError) as e:
        eng.parse_variant("Rainbw (5 Suits)")
    assert "Rainbow (5 Suits)" in str(e.value), f"no suggestion in {str(e.value)!r}"
    for name in ("No Such Variant", "", "Rainbow (7 Suits)"):
        with pytest.raises(eng.MalformedError):
            eng.parse_variant(name)
    free = max(SITE.by_id) + 1
    for vid in (-1, free, 10**6):
        with pytest.raises(eng.MalformedError):
            eng.by_id(vid)


def _general(why: str) -> str:
    """A refusal reason without its particulars (ids, parenthesised card lists)."""
    return re.sub(r"\([^()]*\)", "(...)", why)


@needs_data
def test_walk_all_variants(eng):
    """Every variant: accepted and equal to the site (composition, clue lists, every touch),
    or refused with a MalformedError saying what is "not supported". Every variant with a
    special rule is refused, naming the rule; any other refusal must give a reason too, and
    the reasons are reported as a warning."""
    problems: list[str] = []
    other_reasons: Counter = Counter()
    n_accepted = n_refused = 0
    for o in SITE.variants.values():
        rules = unimplemented(o)
        try:
            v = eng.parse_variant(o.name)
        except eng.MalformedError as e:
            n_refused += 1
            msg = str(e)
            if "not supported" not in msg:
                problems.append(f"{o.name!r}: refused without 'not supported': {msg!r}")
            elif rules and not names_rule(o.name, msg):
                problems.append(f"{o.name!r}: refusal names none of {sorted(rules)}: {msg!r}")
            elif not rules:
                why = reason(o.name, msg)
                if _norm(why).replace("notsupported", "").replace("variant", "").replace("yet", "") == "":
                    problems.append(f"{o.name!r}: refused with no reason: {msg!r}")
                other_reasons[_general(why)] += 1
            continue
        except Exception as e:
            problems.append(f"{o.name!r}: {type(e).__name__} instead of MalformedError: {e}")
            continue
        n_accepted += 1
        if rules:
            problems.append(f"{o.name!r}: accepted although it has {sorted(rules)}")
        diff = differences(eng, o.name, v, full=False, limit=3)
        if diff:
            problems.append(f"{o.name!r}: " + "; ".join(diff))
    if other_reasons:
        warnings.warn(f"{sum(other_reasons.values())} variants without special rules refused: "
                      + "; ".join(f"{n} x {r!r}" for r, n in other_reasons.most_common(10)), stacklevel=1)
    assert n_accepted + n_refused == len(SITE.variants)
    # every rule of the site is played (IMPLEMENTED covers siteoracle.SPECIAL_RULES): 2,426 of 2,426
    assert set(so.SPECIAL_RULES) <= IMPLEMENTED and n_refused == 0, (n_accepted, n_refused, problems[:5])
    assert not problems, (f"{len(problems)} problems ({n_accepted} accepted, {n_refused} refused); first:\n"
                          + "\n".join(problems[:15]))
