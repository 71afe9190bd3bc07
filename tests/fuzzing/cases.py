"""What the fuzzer runs: the commands and their exit codes, the :class:`Case` type (a command line
and a file's content), the valid seeds (:func:`load_seeds`: real games, decks, puzzles and
synthetic games played by a bot) and the values of the command-line options.
"""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.hanabi.rules import BUILTIN, PLAY, Card, Game, Rules, format_compact, game_to_json, parse_variant

from .values import ARG_SURROGATES, VARIANT_NAMES, random_custom

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
PUZZLE_DIR = REPO / "docs" / "puzzles"

COMMANDS = ("replay", "show", "solve", "puzzle check")
EXIT_CODES = {"replay": {0, 2}, "show": {0, 2}, "solve": {0, 2}, "puzzle check": {0, 1, 2}}
# share of the inputs per command (solve and puzzle check are the slow ones)
SHARES = {"replay": 0.28, "show": 0.22, "solve": 0.27, "puzzle check": 0.23}
SOLVE_TIMEOUT = "0.2"

FILE, OUT, DIR, MISSING = "@FILE@", "@OUT@", "@DIR@", "@MISSING@"


def counts(n: int) -> dict[str, int]:
    """The number of inputs of each command for ``n`` in all (at least ``n`` in total)."""
    return {c: max(1, math.ceil(n * s)) for c, s in SHARES.items()}



def _read_json(path: Path) -> Any:
    return json.loads(path.read_text())


@dataclass
class Seeds:
    """Valid inputs to start from, built once per run."""

    games: list[dict]  # complete games (real and synthetic)
    real: list[dict]
    decks: list[dict]  # deck-only objects
    compact: list[tuple[str, int]]  # (deck text, players)
    jsonl: list[str]  # one-line deck objects
    puzzles: list[dict]
    tiny: list[dict] = field(default_factory=list)  # small synthetic games (cheap to solve from the start)


def _bot_move(rng: random.Random, st):
    acts = st.legal_actions()
    hand = st.hands[st.current]
    plays = [a for a in acts if a.kind == PLAY and a.target in hand and st.is_playable(a.target)]
    r = rng.random()
    if plays and r < 0.85:
        return rng.choice(plays)
    if r < 0.04:
        return rng.choice(acts)  # anything, misplays included
    safe = [a for a in acts if a.kind != PLAY]
    return rng.choice(safe or acts)


def synthetic_game(rng: random.Random, small: bool = False) -> dict | None:
    """A legal game of a random variant and rules, played to its end by a simple bot,
    as hanab.live JSON (None when the random variant admits no player count)."""
    if small:
        spec: Any = random_custom(rng)
        spec["suits"] = rng.randint(1, 2)
        spec["ranks"] = spec["ranks"][:rng.randint(1, 5)]
        spec["handSize"] = rng.randint(1, 3)
    elif rng.random() < 0.7:
        spec = rng.choice(sorted(BUILTIN))
    else:
        spec = random_custom(rng)
    v = parse_variant(spec)
    flags: dict[str, Any] = {}
    for name in ("empty_clues", "deck_plays", "reserve_token"):
        if rng.random() < 0.2:
            flags[name] = True
    hand = rng.random()
    if hand < 0.1:
        flags["one_extra_card"] = True
    elif hand < 0.2:
        flags["one_less_card"] = True
    if rng.random() < 0.2:
        flags["strikeout_score"] = "stacks"
    try:
        rules = Rules(v, **flags)
    except ValueError:
        return None
    deck = [Card(s, r) for s, r in v.composition()]
    rng.shuffle(deck)
    for players in rng.sample(range(2, 7), 5):
        try:
            g = Game(rules, players, deck, starting_player=rng.randrange(players) if rng.random() < 0.2 else 0)
            break
        except ValueError:
            continue
    else:
        return None
    st = g.initial_state()
    while not st.over and st.turn < 400:
        acts = st.legal_actions()
        if not acts:
            break
        st.apply(_bot_move(rng, st))
    obj = game_to_json(g, st.history)
    if rng.random() < 0.3:
        obj["players"] = [f"P{i}" for i in range(g.num_players)]
    return obj


def load_seeds(rng: random.Random) -> Seeds:
    real = [_read_json(p) for p in sorted((DATA / "hanablive").glob("*.json")) if p.name != "expected.json"]
    assert real, "no real games in tests/data/hanablive"
    games = list(real)
    tiny: list[dict] = []
    while len(games) < len(real) + 24:
        g = synthetic_game(rng)
        if g is not None:
            games.append(g)
    while len(tiny) < 16:
        g = synthetic_game(rng, small=True)
        if g is not None:
            tiny.append(g)
    decks = []
    for g in real + games[len(real):len(real) + 6]:
        d = {k: g[k] for k in ("players", "deck", "options") if k in g}
        decks.append(d)
        bare = {k: g[k] for k in ("deck", "options") if k in g}
        bare["_players"] = len(g["players"])  # the --players to give (removed before writing)
        decks.append(bare)
    compact = []
    for g in real + games[len(real):len(real) + 8]:
        v = parse_variant((g.get("options") or {}).get("variant", "No Variant"))
        if v.custom is not None:
            continue
        cards = [Card(c["suitIndex"], c["rank"]) for c in g["deck"]]
        compact.append((format_compact(cards, v), len(g["players"])))
    jsonl = [ln for ln in (DATA / "decks" / "nv_winnable_sample.jsonl").read_text().splitlines() if ln.strip()][:4]
    jsonl += [ln for ln in (DATA / "decks" / "hard_2p_first20.jsonl").read_text().splitlines() if ln.strip()][:2]
    puzzles = [_read_json(p) for p in sorted(PUZZLE_DIR.glob("*.json"))]
    assert puzzles, f"no puzzle files in {PUZZLE_DIR}"
    return Seeds(games, real, decks, compact, jsonl, puzzles, tiny)



PLAYERS = ["2", "3", "4", "5", "6", "1", "7", "0", "-1", "abc", "", "1" + "0" * 30, "2.0", " 3", "٣", "3 ", "+3",
           "0x3", "9" * 5000]
TURNS = ["0", "-1", "1", "5", "abc", "", "1.5", "10" + "0" * 30, "-" + "9" * 30, "٣", " 2", "9" * 5000]
TIMEOUTS = ["0.2"] * 60 + ["0.05", "0.1", "1e-9", "1e-300", "5e-324", "0", "-0", "-1", "nan", "NaN", "-nan",
                           "abc", "", "0x1", "1e-3", "2e-1", ".2"]
BIG_TIMEOUTS = ["inf", "Infinity", "1e308", "1e20", "86400"]
ENGINES = ["portfolio"] * 16 + ["search"] * 6 + ["sat"] * 6 + ["cpsat"] * 4 + ["bogus", "SAT", ""]
SEED_STRINGS = ["p3v0s1", "p2v0s7", "p5v0s198", "p4v1s3", "p2v2s9", "p3v16s2", "p6v0s1", "p3v21s4", "p2v3s5",
                "p7v0s1", "p1v0s1", "p0v0s1", "p3v99s1", "p3v-1s1", "p3v0s", "p3v0", "p3", "pv0s1", "p03v0s1",
                "p3v00s1", "p3v0s1\n", " p3v0s1", "P3V0S1", "legacy-x-p3v0s1", "legacy-", "legacy-abc", "legacy-x-",
                "", " ", "x", "hello world", "\udcff", "p3v0s\udcff", "x" * 10000, "p2v0s" + "9" * 5000, "😀",
                "p3v0s1" + "\u0301", "p٣v0s1", "p3v0s-1", "p10v0s1", "p2v1" + "0" * 30 + "s1"]


def variant_arg(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        return rng.choice(VARIANT_NAMES)
    if r < 0.7:
        return rng.choice(sorted(BUILTIN)) + rng.choice(ARG_SURROGATES + ["\n", " ", "x", "\x1b"])
    if r < 0.85:
        return json.dumps(random_custom(rng))
    return rng.choice(["x" * 10000, "\udcff", "%s", "{}", "-", "--", "None", "0", "16"])


def input_flags(rng: random.Random, p: float, need_players: int | None = None) -> list[list[str]]:
    """Random options of the shared input (players, variant, rule flags), as argument groups."""
    out: list[list[str]] = []
    if need_players is not None and rng.random() < 0.85:
        out.append(["--players", str(need_players)])
    elif rng.random() < p:
        out.append(["--players", rng.choice(PLAYERS)])
    if rng.random() < p:
        out.append(["--variant", variant_arg(rng)])
    for flag in ("--empty-clues", "--deck-plays", "--reserve-token", "--one-extra-card", "--one-less-card"):
        if rng.random() < p / 2:
            out.append([flag])
    if rng.random() < p / 2:
        out.append(["--strikeout-score", rng.choice(["zero", "stacks", "stacks", "bogus", "", "ZERO"])])
    if rng.random() < p / 4:
        out.append(rng.choice([["--bogus"], ["--players"], ["extra-arg"], ["--json", "--json"], ["--example"],
                               ["--deck", "r1 r2"], ["--seed", "p3v0s1"], ["--help"], ["--"], ["-"],
                               ["--variant="], ["--players=3"], [MISSING]]))
    return out


@dataclass
class Case:
    """One input: a command line (argument groups; the first ``fixed`` groups are the
    command itself and are never dropped when shrinking) and a file's content."""

    command: str
    groups: list[list[str]]
    content: bytes | None = None
    suffix: str = ".json"
    desc: str = ""
    fixed: int = 1
    json_out: bool = False
    name: str = "input"

    def argv(self, paths: dict[str, str]) -> list[str]:
        return [paths.get(a, a) for g in self.groups for a in g]


def file_name(rng: random.Random) -> str:
    if rng.random() < 0.95:
        return "input"
    return rng.choice(["with space", "new\nline", "sur\udcffrogate", "ünïcode", "-dash", "x" * 240, "quote'\"",
                       "tab\there", "back\\slash"])
