#!/usr/bin/env python3
"""Build ``solver/hanabi/data/hanablive_variants.tsv`` — the project's compact table of every
hanab.live variant — from the site's own ``variants.json``, ``suits.json`` and
``colors.json`` (its ``packages/game/src/json/`` folder).

    .venv/bin/python scripts/build_variants.py                       # the shared copies
    .venv/bin/python scripts/build_variants.py --site PATH/packages/game/src/json --commit SHA

The table keeps the facts the engine needs and nothing else: per suit its clue colors
(the site's default: the suit's own name, when that is a color) and its flags
(``oneOfEach``, ``allClueColors``, ``allClueRanks``, ``noClueColors``, ``noClueRanks``,
``prism``, ``inverted``) and a letter for the compact notation; per variant its id, name,
suits and flags. What the flags mean is the engine's business (``solver/hanabi/rules/sitevariants.py``),
written from the site's server code. The site's data is GPL v3 (see the table's header).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "hanablive" / "variants"
OUT = ROOT / "solver" / "data" / "hanablive_variants.tsv"
COLORS = ROOT / "scripts" / "data" / "hanablive_colors.json"  # the site's colors.json (same commit)
DEFAULT_COMMIT = "8503cd84a44d4ffdadb40e3d5da56dd853d00e51"
REVERSED = " Reversed"  # the server's SuitReversedSuffix: any suit, built 5 -> 1

SUIT_FLAGS = ("oneOfEach", "allClueColors", "allClueRanks", "noClueColors", "noClueRanks", "prism", "inverted")
# variant fields copied as they are: lists joined with '|', booleans as 1
VARIANT_FIELDS = ("clueColors", "clueRanks", "specialRank", "specialRankAllClueColors", "specialRankAllClueRanks",
                  "specialRankNoClueColors", "specialRankNoClueRanks", "specialRankDeceptive",
                  "colorCluesTouchNothing", "rankCluesTouchNothing", "oddsAndEvens", "funnels", "chimneys",
                  "synesthesia", "criticalRank", "scarceOnes", "stackSize", "upOrDown", "sudoku", "throwItInAHole",
                  "clueStarved", "alternatingClues", "cowAndPig", "duck")


def fail(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def clean(text: str, what: str) -> str:
    if any(c in text for c in "\t\n\r|,;="):
        fail(f"{what} {text!r} holds a separator of the table format")
    return text


def suit_rows(suits: list[dict], color_abbr: dict[str, str]) -> list[str]:
    """One line per suit: S, name, abbreviation, clue colors, flags. The clue colors are
    the site's default when the file gives none (the suit's own name, if it is a color);
    the abbreviation is the suit's, else its first clue color's, else its first letter
    (the notation's letter, made unique per variant by the engine)."""
    rows = []
    for s in suits:
        name = clean(s["name"], "suit name")
        colors = s.get("clueColors")
        if colors is None:
            special = s.get("allClueColors") or s.get("noClueColors") or s.get("prism")
            colors = [] if special or name not in color_abbr else [name]
        abbr = s.get("abbreviation") or (color_abbr.get(colors[0]) if colors else None) or name[0]
        flags = [f for f in SUIT_FLAGS if s.get(f)]
        rows.append("\t".join(["S", name, abbr, ",".join(clean(c, "color") for c in colors), ",".join(flags)]))
    return rows


def value_text(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, list):
        return "|".join(clean(str(x), "list value") for x in v)
    return clean(str(v), "value")


def variant_rows(variants: list[dict], suit_names: set[str]) -> list[str]:
    rows = []
    seen_ids, seen_names = set(), set()
    for v in variants:
        name = clean(v["name"], "variant name")
        if v["id"] in seen_ids or name.lower() in seen_names:
            fail(f"variant {name!r} (id {v['id']}) is given twice")
        seen_ids.add(v["id"])
        seen_names.add(name.lower())
        for s in v["suits"]:
            base = s[:-len(REVERSED)] if s.endswith(REVERSED) else s
            if base not in suit_names:
                fail(f"variant {name!r}: unknown suit {s!r}")
        known = {"id", "newID", "name", "suits", *VARIANT_FIELDS}
        if set(v) - known:
            fail(f"variant {name!r}: fields this script does not know: {sorted(set(v) - known)}")
        flags = ";".join(f"{k}={value_text(v[k])}" for k in VARIANT_FIELDS if k in v)
        rows.append("\t".join(["V", str(v["id"]), name, ",".join(clean(s, "suit") for s in v["suits"]), flags]))
    return rows


MECHANICS = (  # (label, test on the site's variant object and its suits' flags)
    ("one-of-each (dark) suits", lambda v, sf: any("oneOfEach" in f for f in sf)),
    ("suits touched by every color (rainbow, omni, ...)", lambda v, sf: any("allClueColors" in f for f in sf)),
    ("suits touched by no color (white, gray, ...)", lambda v, sf: any("noClueColors" in f for f in sf)),
    ("suits touched by every rank (pink, omni, ...)", lambda v, sf: any("allClueRanks" in f for f in sf)),
    ("suits touched by no rank (brown, muddy, ...)", lambda v, sf: any("noClueRanks" in f for f in sf)),
    ("prism suits", lambda v, sf: any("prism" in f for f in sf)),
    ("inverted (orange) suits", lambda v, sf: any("inverted" in f for f in sf)),
    ("special rank (rainbow-ones, null-fives, deceptive, ...)", lambda v, sf: "specialRank" in v),
    ("a subset of the rank clues", lambda v, sf: "clueRanks" in v),
    ("own clue colors (color mute, dual-color, ...)", lambda v, sf: "clueColors" in v),
    ("clues that touch nothing (color blind, number blind, ...)",
     lambda v, sf: v.get("colorCluesTouchNothing") or v.get("rankCluesTouchNothing")),
    ("odds and evens", lambda v, sf: v.get("oddsAndEvens")),
    ("funnels", lambda v, sf: v.get("funnels")),
    ("chimneys", lambda v, sf: v.get("chimneys")),
    ("synesthesia", lambda v, sf: v.get("synesthesia")),
    ("critical fours", lambda v, sf: "criticalRank" in v),
    ("scarce ones", lambda v, sf: v.get("scarceOnes")),
    ("reversed suits", lambda v, sf: any(s.endswith(REVERSED) for s in v["suits"])),
    ("up or down", lambda v, sf: v.get("upOrDown")),
    ("sudoku", lambda v, sf: v.get("sudoku")),
    ("throw it in a hole", lambda v, sf: v.get("throwItInAHole")),
    ("clue starved", lambda v, sf: v.get("clueStarved")),
    ("alternating clues", lambda v, sf: v.get("alternatingClues")),
)


def summary(site: Path) -> str:
    """The table of docs/rules.md: per mechanic, how many of the site's variants have it and how many
    of those the engine supports (asked of the engine, by name)."""
    sys.path.insert(0, str(ROOT))
    from solver.hanabi.rules.sitevariants import refusal

    variants = json.loads((site / "variants.json").read_text())
    suits = {s["name"]: s for s in json.loads((site / "suits.json").read_text())}
    ok = {v["name"]: refusal(v["name"]) is None for v in variants}
    lines = ["| mechanic | variants | supported |", "|---|---|---|"]
    for label, test in MECHANICS:
        has = [v for v in variants
               if test(v, [set(k for k, x in suits.get(s.removesuffix(REVERSED), {}).items() if x is True)
                           for s in v["suits"]])]
        lines.append(f"| {label} | {len(has)} | {sum(ok[v['name']] for v in has)} |")
    lines.append(f"| **all** | **{len(variants)}** | **{sum(ok.values())}** |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summary", action="store_true", help="print docs/rules.md's table of mechanics")
    ap.add_argument("--site", type=Path, default=SHARED, help="folder with variants.json and suits.json")
    ap.add_argument("--colors", type=Path, default=COLORS, help="the site's colors.json")
    ap.add_argument("--commit", default=DEFAULT_COMMIT, help="the site's commit the files come from")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    if a.summary:
        print(summary(a.site))
        return 0
    try:
        variants = json.loads((a.site / "variants.json").read_text())
        suits = json.loads((a.site / "suits.json").read_text())
        colors = json.loads(a.colors.read_text())
    except (OSError, ValueError) as e:
        fail(f"cannot read the site's files: {e}")
    color_abbr = {c["name"]: c.get("abbreviation") or c["name"][0] for c in colors}
    header = [
        "# hanab.live's variants, built by scripts/build_variants.py from the site's own",
        "# packages/game/src/json/{variants,suits,colors}.json (github.com/Hanabi-Live/hanabi-live,",
        f"# commit {a.commit}). That data is licensed under the GNU GPL v3",
        "# (the licence text: tests/data/hanablive/LICENSE-hanab.live.txt). Do not edit: rebuild.",
        "# S  suit name  abbreviation  clue colors  flags",
        "# V  id  variant name  suits  flags (key=value; lists joined by |)",
    ]
    rows = suit_rows(suits, color_abbr) + variant_rows(variants, {s["name"] for s in suits})
    a.out.write_text("\n".join(header + rows) + "\n")
    print(f"{a.out}: {len(suits)} suits, {len(variants)} variants, {a.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
