"""hanab.live seeds -> decks (solver/hanabi/rules/seeds.py).

The reference values come from a real Go program (tests/go/seedvectors.go): stored in
tests/data/seed_vectors.json, and also run live when ``go`` is on PATH. The real games in
tests/data/hanablive (copies of ../shared/hanablive) were dealt by the hanab.live server
from the seeds in expected.json; their decks must come out exactly.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from solver.hanabi.rules import (
    BUILTIN,
    BY_HANABLIVE_ID,
    Card,
    GoRand,
    MalformedError,
    Rules,
    crc64_ecma,
    deck_from_seed,
    format_compact,
    game_from_seed,
    load_file,
    parse_seed,
    parse_variant,
    seed_int64,
    server_shuffle,
)
from solver.hanabi.rules import seeds as S

from conftest import HANABLIVE, REPO, SHARED, assert_clean_error, expected_results, needs_shared, run_cli

VECTORS_FILE = REPO / "tests" / "data" / "seed_vectors.json"
VARIANTS_DIR = SHARED / "hanablive" / "variants"
GO_PROGRAM = REPO / "tests" / "go" / "seedvectors.go"
VECTORS = json.loads(VECTORS_FILE.read_text())
M31 = (1 << 31) - 1


REAL = sorted((name, info) for name, info in expected_results().items() if info.get("seed"))
assert REAL, f"no real games with a seed in {HANABLIVE / 'expected.json'}"


# ---------------------------------------------------------------- the port vs Go's output
def check_against(vectors: dict):
    """Every value in a seedvectors.go output, recomputed by the Python port."""
    for hexdata, crc in vectors["crc64"]:
        assert crc64_ecma(bytes.fromhex(hexdata)) == crc, hexdata
    for v in vectors["seeds"]:
        assert crc64_ecma(v["hashed"].encode()) == v["crc64"], v["seed"]
        if v["seed"]:
            assert S.hashed_seed_bytes(v["seed"]) == v["hashed"].encode()
            assert seed_int64(v["seed"]) == v["int64_seed"], v["seed"]
        assert S.to_int64(v["crc64"]) == v["int64_seed"]
        r = GoRand(v["int64_seed"])
        assert [r.int63() for _ in v["int63"]] == v["int63"], v["seed"]
        for n, perm in v["perms"].items():
            assert server_shuffle(range(int(n)), v["int64_seed"]) == perm, (v["seed"], n)
    for v in vectors["variant_seeds"]:
        assert seed_int64(v["seed"]) == v["int64_seed"], v["seed"]
        assert server_shuffle(range(v["size"]), v["int64_seed"]) == v["perm"], v["seed"]
    for v in vectors["raw"]:
        r = GoRand(v["seed"])
        assert [r.int63() for _ in v["int63"]] == v["int63"], v["seed"]
        assert [r.uint64() for _ in v["uint64"]] == v["uint64"], v["seed"]
        assert [r.int31() for _ in v["int31"]] == v["int31"], v["seed"]
        assert [[n, r.intn(n)] for n, _ in v["intn"]] == v["intn"], v["seed"]
        assert [[n, r.int31n(n)] for n, _ in v["int31n"]] == v["int31n"], v["seed"]
        assert [[n, r.int63n(n)] for n, _ in v["int63n"]] == v["int63n"], v["seed"]
        for _ in range(1000):
            r.int63()
        assert [r.int63() for _ in v["int63_after_1000"]] == v["int63_after_1000"], v["seed"]


def test_stored_go_vectors():
    check_against(VECTORS)


def test_stored_vectors_cover_the_cases():
    """The stored file exercises what the port must get right: the rejection loop of
    Int31n (some n that is not a power of two), Intn above 2^31-1, negative and zero
    seeds, the legacy prefix, non-ASCII seeds, and a deal longer than the 607-word state."""
    raw = {v["seed"] for v in VECTORS["raw"]}
    assert {0, -1, M31, -(1 << 63)} <= raw
    assert any(n > M31 for v in VECTORS["raw"] for n, _ in v["intn"])
    seeds = {v["seed"]: v for v in VECTORS["seeds"]}
    assert seeds["legacy-1-p3v0s1"]["hashed"] == "p3v0s1"
    assert any(ord(c) > 127 for s in seeds for c in s)
    assert any(int(n) > S.RNG_LEN for v in VECTORS["seeds"] for n in v["perms"])


def test_stored_vectors_cover_every_deck_size_of_the_sites_variants():
    """The variant seeds: 26 site variants, and every deck length a site variant has."""
    from solver.hanabi.rules.sitevariants import refusal, site_names

    sizes = {len(parse_variant(n).composition()) for n in site_names() if refusal(n) is None}
    vs = VECTORS["variant_seeds"]
    assert len({v["variant"] for v in vs}) == 26 and {v["size"] for v in vs} == sizes


@needs_shared(VARIANTS_DIR / "variants.json")
@pytest.mark.parametrize("v", VECTORS["variant_seeds"], ids=lambda v: v["seed"])
def test_variant_seeds_deal_as_the_server(v):
    """A seed of a site variant deals the variant's deck (in InitDeck order, by the
    independent reference tests/siteoracle.py) permuted by Go's own deal loop: the
    project's deal is the server's, card by card."""
    import siteoracle as so

    site = so.load_site(VARIANTS_DIR)
    o = site.variants[v["variant"]]
    assert f"v{o.id}s" in v["seed"]
    unshuffled = so.deck(site, o)
    assert len(unshuffled) == v["size"]
    want = [unshuffled[i] for i in v["perm"]]
    n, variant, cards = deck_from_seed(v["seed"])
    assert variant.name == v["variant"]
    assert [(c.suit, c.rank) for c in cards] == want


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_live_go_program(tmp_path):
    """Build and run tests/go/seedvectors.go: the port agrees with Go itself, and the
    stored vectors are what the program prints."""
    env = dict(os.environ)
    env.setdefault("GOCACHE", str(tmp_path / "gocache"))
    env.setdefault("GOPATH", str(tmp_path / "gopath"))
    env["GO111MODULE"] = "off"  # one file, standard library only
    exe = tmp_path / "seedvectors"
    subprocess.run(["go", "build", "-o", str(exe), str(GO_PROGRAM)], check=True, env=env, timeout=600,
                   capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, timeout=120).stdout
    live = json.loads(out)
    check_against(live)
    assert live == VECTORS, "tests/data/seed_vectors.json is stale: regenerate it with tests/go/seedvectors.go"


# ---------------------------------------------------------------- independent checks
def test_crc64_standard_check_value():
    # CRC-64/XZ's catalogued check value (the CRC of b"123456789")
    assert crc64_ecma(b"123456789") == 0x995DC9BBDF1939FA
    assert crc64_ecma(b"") == 0
    assert crc64_ecma(bytearray(b"123456789")) == crc64_ecma(memoryview(b"123456789"))


def test_seedrand_is_the_lehmer_step():
    """Go's Schrage-method seedrand computes 48271 x mod (2^31 - 1) exactly."""
    xs = [1, 2, 44487, 44488, 44489, 89482311, M31 - 1, 123456789, 2**30, 987654321]
    for x in xs:
        assert S.seedrand(x) == 48271 * x % M31


def test_fast_seeding_equals_gos_loop():
    """The state the generator uses equals a line-by-line port of rngSource.Seed."""
    for seed in (0, 1, -1, M31, M31 + 5, -(1 << 63), (1 << 63) - 1, 433193417571552390):
        stepwise = S.seeded_state_stepwise(seed)
        assert S.seeded_state(seed) == stepwise
        assert GoRand(seed).state() == stepwise


def test_seed_reduction():
    """rngSource.Seed reduces mod 2^31 - 1: seeds equal mod it give the same stream, and
    0 is the same as 89482311."""
    def head(seed):
        r = GoRand(seed)
        return [r.int63() for _ in range(3)]
    assert head(5) == head(5 + M31) == head(5 - M31)
    assert head(0) == head(M31) == head(89482311)
    assert head(1) != head(2)


def test_go_rand_argument_errors():
    r = GoRand(1)
    for bad in (0, -1):
        with pytest.raises(ValueError):
            r.intn(bad)
        with pytest.raises(ValueError):
            r.int31n(bad)
        with pytest.raises(ValueError):
            r.int63n(bad)
    with pytest.raises(ValueError):
        r.int31n(1 << 31)
    with pytest.raises(ValueError):
        GoRand(1 << 63)


def test_shuffle_state_continues_like_gorand():
    """server_shuffle draws exactly Intn(1), Intn(2), ..., Intn(n) from one stream."""
    seed = seed_int64("p4v0s17")
    r = GoRand(seed)
    perm = list(range(50))
    for i in range(50):
        j = r.intn(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    assert server_shuffle(range(50), seed) == perm


# ---------------------------------------------------------------- real hanab.live games
@pytest.mark.parametrize("name,info", REAL, ids=[n for n, _ in REAL])
def test_real_game_decks(name, info):
    rec = load_file(HANABLIVE / name)
    players, variant, deck = deck_from_seed(info["seed"])
    assert players == info["players"] == rec.game.num_players
    assert variant.name == info["variant"] == rec.game.variant.name
    assert tuple(deck) == rec.game.deck
    g = game_from_seed(info["seed"], rules=rec.game.rules)
    assert g.deck == rec.game.deck and g.rules == rec.game.rules and g.num_players == players


def test_real_game_seed_with_explicit_agreeing_arguments():
    name, info = REAL[0]
    rec = load_file(HANABLIVE / name)
    _, _, deck = deck_from_seed(info["seed"], info["players"], info["variant"])
    assert tuple(deck) == rec.game.deck
    # the same string with explicit arguments is an ordinary seed string too
    p, v, deck2 = deck_from_seed(info["seed"], players=info["players"], variant=parse_variant(info["variant"]))
    assert deck2 == deck


# ---------------------------------------------------------------- seed strings
def test_parse_seed():
    assert parse_seed("p3v0s1") == (3, BY_HANABLIVE_ID[0])
    assert parse_seed("p6v21sabc-1") == (6, BUILTIN["Black (5 Suits)"])
    assert parse_seed("p2v16s") == (2, BUILTIN["Rainbow (5 Suits)"])
    for other in ("abc", "P3v0s1", "p03v0s1", "p3v00s1", "p3v0", "x-p3v0s1", "legacy-1-p3v0s1", "p３v0s1"):
        assert parse_seed(other) == (None, None), other


def test_deck_is_the_variants_cards():
    for vid, variant in BY_HANABLIVE_ID.items():
        players, v, deck = deck_from_seed(f"p4v{vid}s3")
        assert (players, v) == (4, variant)
        assert Counter(deck) == Counter(Card(s, r) for s, r in variant.composition())
    # different suffixes, player counts and variants give different decks
    decks = {tuple(deck_from_seed(s)[2]) for s in ("p3v0s1", "p3v0s2", "p4v0s1", "p2v0s1")}
    assert len(decks) == 4


def test_other_strings_need_players_and_variant():
    p, v, deck = deck_from_seed("my seed", 2, "No Variant")
    assert (p, v) == (2, BUILTIN["No Variant"])
    nv = [Card(s, r) for s, r in v.composition()]
    assert deck == server_shuffle(nv, seed_int64("my seed"))
    custom = {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 2}
    p, v, deck = deck_from_seed("my seed", 3, custom)
    assert Counter(deck) == Counter(Card(s, r) for s, r in v.composition()) and len(deck) == 8
    g = game_from_seed("my seed", 3, custom)
    assert g.deck == tuple(deck) and g.hand_size == 2


def test_game_from_seed_rules():
    g = game_from_seed("p3v0s1", rules=Rules(BUILTIN["No Variant"], deck_plays=True))
    assert g.rules.deck_plays and g.deck == tuple(deck_from_seed("p3v0s1")[2])
    assert game_from_seed("p3v16s4").variant == BUILTIN["Rainbow (5 Suits)"]
    assert game_from_seed("p3v16s4", rules="Rainbow (5 Suits)").deck == game_from_seed("p3v16s4").deck


def test_legacy_prefix_drops_nine_bytes():
    """As the server: 'legacy-' then any 2 bytes are dropped, whatever they are."""
    assert S.hashed_seed_bytes("legacy-1-p3v0s1") == b"p3v0s1"
    assert S.hashed_seed_bytes("legacy-12-x") == b"-x"
    assert S.hashed_seed_bytes("legacy-ab") == b""
    assert seed_int64("legacy-7-abc") == seed_int64("abc")
    assert deck_from_seed("legacy-1-p3v0s1", 3, "No Variant")[2] == deck_from_seed("p3v0s1")[2]
    assert S.hashed_seed_bytes("Legacy-1-x") == b"Legacy-1-x"


@pytest.mark.parametrize("seed,kwargs,needles", [
    ("", {}, ["seed ''", "empty"]),
    ("", {"players": 3, "variant": "No Variant"}, ["seed ''", "empty"]),
    ("p1v0s1", {}, ["'p1v0s1'", "bad player count 1"]),
    ("p7v0s1", {}, ["'p7v0s1'", "bad player count 7"]),
    ("p99999999999v0s1", {}, ["bad player count"]),
    ("p3v9999s1", {}, ["'p3v9999s1'", "unknown hanab.live variant id 9999"]),
    ("p3v" + "9" * 5000 + "s1", {}, ["unknown hanab.live variant id"]),
    ("p3v0s1", {"players": 4}, ["'p3v0s1'", "3 players, not 4"]),
    ("p3v0s1", {"variant": "6 Suits"}, ["'p3v0s1'", "'No Variant'", "'6 Suits'"]),
    ("p3v0s1", {"variant": "Nonsense"}, ["unknown variant 'Nonsense'"]),
    ("abc", {}, ["'abc'", "give the player count and the variant"]),
    ("abc", {"players": 3}, ["'abc'", "give the variant"]),
    ("abc", {"variant": "No Variant"}, ["'abc'", "give the player count"]),
    ("abc", {"players": 9, "variant": "No Variant"}, ["'abc'", "bad player count 9"]),
    ("legacy-", {"players": 3, "variant": "No Variant"}, ["'legacy-'", "9-byte"]),
    ("a\ud800", {"players": 3, "variant": "No Variant"}, ["UTF-8"]),
    (None, {}, ["seed must be a string"]),
])
def test_bad_seeds(seed, kwargs, needles):
    with pytest.raises(MalformedError) as ei:
        deck_from_seed(seed, **kwargs)
    msg = str(ei.value)
    assert "\n" not in msg and len(msg) < 400, msg
    for n in needles:
        assert n in msg, (n, msg)


def test_long_seed_is_quoted_short():
    seed = "x" * 1000
    with pytest.raises(MalformedError) as ei:
        deck_from_seed(seed)
    assert "xxxx..." in str(ei.value) and len(str(ei.value)) < 200


def test_dealing_speed():
    """Dealing is cheap enough to sweep many seeds (a loose bound: about 0.1 ms on the
    development machine)."""
    import time

    t = time.perf_counter()
    for i in range(200):
        deck_from_seed(f"p3v0s{i}")
    assert (time.perf_counter() - t) / 200 < 0.005


# ---------------------------------------------------------------- the generated table
def test_rngcooked_table_is_generated_with_licence():
    text = (REPO / "solver" / "hanabi" / "rules" / "_rngcooked.py").read_text()
    assert text.startswith("# GENERATED by scripts/regen_rngcooked.py")
    assert "The Go Authors" in text and "Redistribution and use in source and binary forms" in text
    from solver.hanabi.rules._rngcooked import RNG_COOKED, RNG_LEN

    assert RNG_LEN == len(RNG_COOKED) == 607
    assert all(-(1 << 63) <= v < (1 << 63) for v in RNG_COOKED)


def test_regen_script_on_a_sample(tmp_path):
    """The script reads the table out of rng.go and the licence, and writes a module."""
    vals = [(-1) ** i * (i * 7919 + 3) for i in range(607)]
    body = ",\n".join(", ".join(str(v) for v in vals[i:i + 4]) for i in range(0, 607, 4))
    rng = tmp_path / "rng.go"
    rng.write_text("package rand\nconst (\n\trngLen = 607\n)\nvar (\n\t// comment\n"
                   f"\trngCooked [rngLen]int64 = [...]int64{{\n{body},\n\t}}\n)\n")
    lic = tmp_path / "LICENSE"
    lic.write_text("Copyright (c) 2009 The Go Authors.\n\nRedistribution and use in source and binary forms ...\n")
    out = tmp_path / "_rngcooked.py"
    script = REPO / "scripts" / "regen_rngcooked.py"
    subprocess.run([sys.executable, script, rng, "--license", lic, "--out", out], check=True, capture_output=True)
    ns: dict = {}
    exec(out.read_text(), ns)
    assert list(ns["RNG_COOKED"]) == vals
    assert "# Redistribution and use" in out.read_text()
    check = subprocess.run([sys.executable, script, rng, "--license", lic, "--out", out, "--check"])
    assert check.returncode == 0
    rng.write_text(rng.read_text().replace("rngLen = 607", "rngLen = 606"))
    bad = subprocess.run([sys.executable, script, rng, "--license", lic, "--out", out], capture_output=True)
    assert bad.returncode != 0


DEBIAN_RNG_GO = Path("/usr/lib/go-1.19/src/math/rand/rng.go")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/golang-1.19-src/copyright")


@pytest.mark.skipif(not (DEBIAN_RNG_GO.exists() and DEBIAN_COPYRIGHT.exists()),
                    reason="Debian's golang-1.19-src is not installed")
def test_committed_table_matches_debian_go_source():
    res = subprocess.run([sys.executable, REPO / "scripts" / "regen_rngcooked.py", "--check"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


# ---------------------------------------------------------------- command line
def test_cli_deal_text():
    res = run_cli("deal", "p3v0s1")
    assert res.exit_code == 0, res.output
    players, v, deck = deck_from_seed("p3v0s1")
    out = res.stdout
    assert "No Variant, 3 players, 5 cards each" in out
    assert format_compact(deck, v) in out
    assert f"Alice  {format_compact(deck[0:5], v)}" in out
    assert f"Cathy  {format_compact(deck[10:15], v)}" in out
    assert f"Draw pile (next first, 35 cards): {format_compact(deck[15:], v)}" in out


def test_cli_deal_json():
    res = run_cli("deal", "p5v0s198", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"seed", "players", "variant", "deck"}
    assert out["seed"] == "p5v0s198" and out["players"] == 5 and out["variant"] == "No Variant"
    assert out["deck"] == [c.to_json() for c in deck_from_seed("p5v0s198")[2]]
    res = run_cli("deal", "hello", "--players", "2", "--variant", "Rainbow (5 Suits)", "--json")
    out = json.loads(res.stdout)
    assert out["players"] == 2 and out["variant"] == "Rainbow (5 Suits)"
    assert out["deck"] == [c.to_json() for c in deck_from_seed("hello", 2, "Rainbow (5 Suits)")[2]]


def test_cli_deal_hand_size_flags():
    res = run_cli("deal", "p4v0s2", "--one-extra-card")
    assert res.exit_code == 0 and "4 players, 5 cards each" in res.stdout


@pytest.mark.parametrize("name,info", REAL, ids=[n for n, _ in REAL])
def test_cli_seed_input_matches_the_game_file(name, info):
    """``--seed`` is an input like FILE: the starting position equals the real game's."""
    by_seed = run_cli("show", "--seed", info["seed"], "--turn", "0")
    by_file = run_cli("show", HANABLIVE / name, "--turn", "0")
    assert by_seed.exit_code == 0 and by_file.exit_code == 0
    assert by_seed.stdout == by_file.stdout


def test_cli_solve_with_seed():
    res = run_cli("solve", "--seed", "p3v0s1", "--json", "--engine", "search")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["max_score"] == 25 and out["exact"]


def test_cli_seed_replay_out_keeps_the_seed(tmp_path):
    path = tmp_path / "out.json"
    res = run_cli("solve", "--seed", "p3v0s1", "--engine", "search", "--replay-out", path)
    assert res.exit_code == 0, res.output
    obj = json.loads(path.read_text())
    assert obj["seed"] == "p3v0s1"
    assert [Card(c["suitIndex"], c["rank"]) for c in obj["deck"]] == deck_from_seed("p3v0s1")[2]


@pytest.mark.parametrize("args,needles", [
    (["deal", ""], ["seed ''", "empty"]),
    (["deal", "p3v9999s1"], ["'p3v9999s1'", "unknown hanab.live variant id 9999"]),
    (["deal", "p9v0s1"], ["bad player count 9"]),
    (["deal", "abc"], ["'abc'", "give the player count and the variant"]),
    (["deal", "p3v0s1", "--players", "4"], ["3 players, not 4"]),
    (["deal", "p3v0s1", "--variant", "6 Suits"], ["'No Variant'", "'6 Suits'"]),
    (["deal", "abc", "--players", "3", "--variant", "Bogus"], ["unknown variant 'Bogus'"]),
    (["solve", "--seed", "abc"], ["'abc'", "give the player count and the variant"]),
    (["solve", "--seed", "p3v0s1", "--example"], ["give only one of"]),
    (["show", "--seed", "p3v0s1", "--deck", "r1"], ["give only one of"]),
    (["replay", "--seed", "p3v0s1", "--players", "2"], ["3 players, not 2"]),
    (["show", "--seed", "p3v0s1", "--turn", "3"], ["seed 'p3v0s1'", "--turn 3 out of range"]),
])
def test_cli_bad_seeds(args, needles):
    assert_clean_error(run_cli(*args), *needles)
