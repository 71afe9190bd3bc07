"""The puzzle generator: play real decks to the endgame, keep the positions with one line.

For each deck (a random shuffle made from ``--seed`` and the deck's index, or a deck from
a JSON-lines file), one *walk* plays it to the end: a bot that mostly plays the greedy
strategy (``analysis.greedy_action``) but now and then discards or stalls instead; the
solver's optimal line spending clue tokens whenever that keeps its score (games low on
tokens, where a clue is not always there to stall with); or the solver's own optimal
line. The walk's endgame positions (at most ``window`` cards left in the deck) are
examined in a random order; a position makes a puzzle when:

1. the maximum from the position is exact (``Solution.exact``);
2. at least ``MIN_PLAYS`` points are still to score, and at least 3 kinds of move are legal;
3. the greedy strategy falls short of the maximum;
4. at most ``max_winning`` *choices* of first move keep the maximum (see
   ``analysis.choices``: a discard and a misplay of the same card are one choice), every
   other move provably loses;
5. it is not forced: some first move that looks safe (``analysis.looks_safe``) loses;
6. the line has a crux: the greedy strategy's move loses at the first move or at a later
   position of the solution line;
7. the answer kind (``analysis.answer_kind``: play, discard, clue or either), the rated
   difficulty and the depth of the crux (``max_crux``) match what was asked.

One puzzle per deck (so puzzles do not repeat one game): the deck offers its first
puzzle of each answer kind (of a kind, one whose crux is the first move if it finds one),
and with ``answer_kind="mixed"`` the generator takes the kind it has fewest of so far,
clues at most a third of the whole set.

Every solver call is bounded by a node limit (and a timeout as a safety net), so the same
``--seed`` gives the same puzzles on any machine; decks are examined in parallel with
``jobs`` processes, but taken in deck order.
"""
from __future__ import annotations

import math
import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from solver import (
    Action,
    Card,
    Game,
    MalformedError,
    Rules,
    SolverError,
    State,
    format_compact,
    game_from_json,
    game_from_seed,
    greedy_action,
    parse_variant,
)
from solver.hanabi.rules import read_jsonl

from . import analysis
from .analysis import ANSWER_KIND_OPTIONS, GENERATOR_LIMITS, Limits
from .format import GENERATOR_VERSION, Puzzle, build_puzzle
from .notation import format_line, move_class, move_classes

# the player counts of random decks, in turn: fewer players more often, since their
# endgames make puzzles less often (about 1 deck in 18 with 2 players, 1 in 26 with 3,
# 1 in 13 with 4, 1 in 7 with 5), so that the counts come out roughly even
PLAYER_CYCLE = (2, 3, 4, 2, 3, 5, 2, 3, 4, 3)
MIN_PLAYS = 3
# the walk styles and how often each is chosen: the careful walks reach the endgame low
# on clue tokens, where most play and discard answers are; the bots (tokens to spare) and
# the solver's line give most of the clue answers
WALK_STYLES = {"careful 100%": 3, "careful 60%": 3, "careful 30%": 1, "bot 20%": 1, "bot 30%": 1, "solver": 1}
LOW_TOKENS = 2  # candidate positions with 0, then 1, then 2 or more clue tokens
CLUE_SHARE = 1 / 3  # answer_kind="mixed": at most this share of clue answers
RARE_KINDS = ("discard", "either")  # a few in a hundred puzzles: look at more decks for them
RARE_KIND_DECKS = 2000  # decks per puzzle before giving up (200 for the other kinds)


@dataclass
class Config:
    count: int = 10
    seed: int = 0
    players: int | None = None  # None: 2 to 5 players, in turn (PLAYER_CYCLE)
    variant: str = "No Variant"
    difficulty: str | None = None  # easy / medium / hard, or None for any
    answer_kind: str = "mixed"  # mixed (balanced), any, or one of analysis.ANSWER_KINDS
    decks: list[str] = field(default_factory=list)  # JSON-lines deck files (instead of random decks)
    source_seeds: bool = False  # hanab.live seeds p{P}v{V}s{N}, N = seed, seed + 1, ... (solver.hanabi.rules.seeds)
    jobs: int = 1
    limits: Limits = GENERATOR_LIMITS
    window: int = 12  # examine positions with at most this many cards left in the deck
    max_candidates: int = 10  # positions examined per deck
    max_winning: int = 2  # winning choices of first move at most
    max_crux: int | None = None  # the first move where the greedy strategy goes wrong, at most (1: the first)
    max_decks: int | None = None  # give up after this many decks (default: 200 per puzzle, 2000 for rare kinds)


@dataclass
class DeckSource:
    """Where deck ``index`` comes from."""

    game: Game
    meta: dict


def _read_deck_files(paths) -> list[dict]:
    """The deck objects of the ``--decks`` files, each with its file's name (qualified by
    the file's place among ``paths`` when two files share a name, e.g. ``k1/decks.jsonl``
    and ``k2/decks.jsonl``, so that their puzzles' ids and file names differ)."""
    rows = []
    stems = [Path(p).stem for p in paths]
    for k, path in enumerate(paths):
        name = Path(path).name if stems.count(stems[k]) == 1 else f"{Path(path).stem}{k + 1}{Path(path).suffix}"
        for n, obj in read_jsonl(path):
            if not isinstance(obj, dict):
                raise MalformedError(f"{path}: line {n}: must be an object")
            rows.append({"obj": obj, "file": name, "line": n})
    if not rows:
        raise MalformedError(f"no decks in {', '.join(map(str, paths))}")
    return rows


def deck_source(cfg: Config, index: int, rows: list[dict] | None = None) -> DeckSource:
    """The game for deck ``index``: deterministic in ``cfg.seed`` and ``index``."""
    if cfg.decks:
        if rows is None:
            raise MalformedError("deck_source: cfg.decks needs the rows read from the deck files")
        row = rows[index % len(rows)]
        obj = row["obj"]
        where = f"{row['file']}: line {row['line']}"
        players = cfg.players or obj.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise MalformedError(f"{where}: no player count (give --players)")
        opts = dict(obj.get("options") or {})
        if "variant" in obj:
            opts.setdefault("variant", obj["variant"])
        rec = game_from_json({"deck": obj.get("deck"), "options": opts}, where, players=players)
        meta = {"kind": "deck file", "file": row["file"], "line": row["line"]}
        if "id" in obj:
            meta["deck_id"] = obj["id"]
        return DeckSource(rec.game, meta)
    variant = parse_variant(cfg.variant)
    players = cfg.players or PLAYER_CYCLE[index % len(PLAYER_CYCLE)]
    if cfg.source_seeds:
        if variant.hanablive_id is None:
            raise MalformedError(f"variant {variant.name!r} has no hanab.live id: it has no hanab.live seeds")
        name = f"p{players}v{variant.hanablive_id}s{cfg.seed + index}"
        return DeckSource(game_from_seed(name, players, Rules(variant)), {"kind": "hanab.live seed", "seed": name})
    deck = [Card(s, r) for s, r in variant.composition()]
    random.Random(f"hanabi-puzzles deck {cfg.seed} {index}").shuffle(deck)
    return DeckSource(Game(Rules(variant), players, deck), {"kind": "random", "seed": cfg.seed, "deck_index": index})


# ---- walks ----------------------------------------------------------------------

WALK_NODES = 50_000  # the solver's line from the deal
CAREFUL_NODES = 5_000  # each check that a clue keeps the careful walk's score


def bot_action(st: State, rng: random.Random, deviate: float) -> Action:
    """The greedy strategy, except that with probability ``deviate`` the bot discards a
    random card or stalls with a random clue instead (as real players do)."""
    return greedy_action(st, rng, deviate)


def walk_name(style: str) -> str:
    if style == "solver":
        return "the solver's optimal line"
    kind, pct = style.split()
    if kind == "careful":
        return f"the solver's line, stalling with a clue whenever that keeps its score, on {pct} of the turns"
    return f"greedy bot, deviating {pct} of the time"


def careful_walk(game: Game, spend: float, rng: random.Random, limits: Limits) -> list[Action]:
    """The solver's line from the deal, except that (with probability ``spend`` at each
    turn) a player gives a clue instead of playing or discarding whenever a line with a
    clue here still reaches the planned score. Real players spend their tokens on
    information; with every card visible, that is a stall, and the game reaches its
    endgame with few tokens left (where a clue is not always there to stall with)."""
    st = game.initial_state()
    sol = analysis.solve_bounded(st, Limits(timeout=limits.timeout, node_limit=WALK_NODES, engine="search"))
    plan, target = list(sol.actions), sol.max_score
    line = []
    while not st.over:
        a = plan[0]
        if not a.is_clue and st.clues > 0 and rng.random() < spend:
            clue = st.first_clue()  # None: no legal clue here (e.g. one costs more tokens than there are)
            if clue is not None:
                child = st.copy()
                child.apply(clue)
                rest = analysis.line_reaching(child, target, CAREFUL_NODES)
                if rest is not None:
                    plan = [clue] + rest
                    a = clue
        line.append(st.apply(a))
        plan.pop(0)
    return line


def walk(game: Game, style: str, rng: random.Random, limits: Limits) -> list[Action]:
    """A whole game's actions in the given style."""
    st = game.initial_state()
    if style == "solver":
        walk_limits = Limits(timeout=limits.timeout, node_limit=WALK_NODES, engine="search")
        return list(analysis.solve_bounded(st, walk_limits).actions)
    kind, pct = style.split()
    share = int(pct.rstrip("%")) / 100
    if kind == "careful":
        return careful_walk(game, share, rng, limits)
    line = []
    while not st.over:
        line.append(st.apply(bot_action(st, rng, share)))
    return line


# ---- examining a position ------------------------------------------------------

def examine(game: Game, actions: list[Action], cfg: Config, stats: Counter,
            kinds: set[str] | None = None) -> dict | None:
    """A puzzle's parts if the position after ``actions`` makes one (of an answer kind in
    ``kinds``, when given), else None (the reason counted in ``stats``)."""
    limits = cfg.limits
    st = game.initial_state().apply_all(actions)
    stats["examined"] += 1
    sol = analysis.solve_bounded(st, limits)
    if not sol.exact:
        stats["not exact"] += 1
        return None
    target = sol.max_score
    if target - st.score < MIN_PLAYS:
        stats["too few points to score"] += 1
        return None
    classes = move_classes(st)
    if len(classes) < 3:
        stats["forced"] += 1
        return None
    greedy_actions, greedy_score = analysis.greedy_line(st)
    if greedy_score >= target:
        stats["greedy reaches it"] += 1
        return None
    # a quick screen first (lines only, no proofs): most positions that get this far have
    # too many winning first moves, and finding them costs less than proving maxima
    if analysis.more_winning_than(st, target, cfg.max_winning, known=(move_class(st, sol.actions[0]),)):
        stats["too many winning first moves"] += 1
        return None
    fm = analysis.first_moves(st, target, limits, stop_after=cfg.max_winning, by_choice=True, fail_fast=True)
    choices = analysis.choices(st, fm.winning)
    if len(choices) > cfg.max_winning:
        stats["too many winning first moves"] += 1
        return None
    if fm.undecided:
        stats["undecided first move"] += 1
        return None
    if not fm.winning:  # the maximum is exact, so some move keeps it: a contradiction
        raise SolverError(f"no first move keeps the exact maximum {target} at turn {st.turn}",
                          deck=format_compact(game.deck, game.variant), method=cfg.limits.engine)
    kind = analysis.answer_kind(st, fm.winning)
    if kinds is not None and kind not in kinds:
        stats["another answer kind"] += 1
        return None
    left = st.copies_left()
    if not any(analysis.looks_safe(st, fm.representatives[k], left) for k in fm.losing):
        stats["forced: no tempting first move loses"] += 1
        return None
    if not analysis.is_real_choice(analysis.decisions(st, sol.actions, fm, limits, budget=1)[0]):
        stats["first move not a decision: the greedy move wins, with another choice"] += 1
        return None
    dec = analysis.decisions(st, sol.actions, fm, limits)
    feats = analysis.features(st, sol, fm, greedy_score, dec)
    if not feats["greedy_errors"]:
        stats["no crux: the greedy move wins all along the line"] += 1
        return None
    if cfg.max_crux is not None and feats["crux"] > cfg.max_crux:
        stats["crux too late"] += 1
        return None
    # the solution graph, only for a position that is a puzzle (but for its difficulty);
    # its features are None when it is over its cap (analysis.graph_features). Without a
    # difficulty filter it is built only for the puzzles taken (finish_puzzle).
    rate = level = None
    if cfg.difficulty:
        feats.update(analysis.graph_features(st, target, limits))
        rate = analysis.rating(feats)
        level = analysis.difficulty(rate)
        if level != cfg.difficulty:
            stats[f"difficulty {level}"] += 1
            return None
    lines = [sol.actions]
    first = move_class(st, sol.actions[0])
    for label in fm.winning:
        if label != first and label in fm.solutions:
            lines.append([fm.representatives[label]] + list(fm.solutions[label].actions))
    return {
        "state": st, "target": target, "solution": sol, "first_moves": fm, "features": feats,
        "rating": rate, "difficulty": level, "greedy_score": greedy_score, "lines": lines,
        "greedy_line": format_line(st, greedy_actions), "kind": kind, "choices": choices, "decisions": dec,
    }


def make_puzzle(game: Game, actions: list[Action], found: dict, source: dict, limits: Limits) -> Puzzle:
    st: State = found["state"]
    fm = found["first_moves"]
    sol = found["solution"]
    if source["kind"] == "random":
        where = f"s{source['seed']}-d{source['deck_index']}"
    elif source["kind"] == "hanab.live seed":
        where = source["seed"]
    else:
        where = f"{Path(source['file']).stem}-l{source['line']}"
    pid = f"p{game.num_players}-t{st.turn}-{where}"
    lines = [{"line": format_line(st, ln), "actions": [a.to_json() for a in ln]} for ln in found["lines"]]
    metadata = {
        "answer_kind": found["kind"],
        "difficulty": found["difficulty"],
        "rating": found["rating"],
        "features": found["features"],
        "winning_first_moves": {
            "count": len(fm.winning),
            "moves": list(fm.winning),
            "choices": found["choices"],
            "total": fm.total,
            "after": dict(fm.results),
        },
        "decisions": found["decisions"],
        "greedy": {"score": found["greedy_score"], "line": found["greedy_line"]},
        "source": source,
        "generator": GENERATOR_VERSION,
        "limits": {"node_limit": limits.node_limit, "timeout": limits.timeout, "engine": limits.engine},
    }
    return build_puzzle(pid, game, actions, found["target"], sol.max_score, sol.proof.reason, lines, metadata)


def finish_puzzle(data: dict, limits: Limits) -> dict:
    """A puzzle JSON from :func:`make_puzzle` with its solution graph's features, rating
    and difficulty filled in, if :func:`examine` left them out (no difficulty filter: the
    graph is built only for the puzzles the generator takes). The same result either way:
    the graph depends only on the position, the target and the node limits."""
    md = data["metadata"]
    if md["difficulty"] is None:
        st = Puzzle(data).position()
        md["features"].update(analysis.graph_features(st, data["question"]["target"], limits))
        md["rating"] = analysis.rating(md["features"])
        md["difficulty"] = analysis.difficulty(md["rating"])
    return data


# ---- one deck (runs in a worker process) -----------------------------------------

_CFG: Config | None = None
_ROWS: list[dict] | None = None


def _init(cfg: Config, rows) -> None:
    global _CFG, _ROWS
    _CFG, _ROWS = cfg, rows


def wanted_kinds(cfg: Config) -> set[str] | None:
    if cfg.answer_kind in ("mixed", "any"):
        return None
    if cfg.answer_kind not in analysis.ANSWER_KINDS:
        raise MalformedError(f"unknown answer kind {cfg.answer_kind!r} (one of {', '.join(ANSWER_KIND_OPTIONS)})")
    return {cfg.answer_kind}


def offer_key(kind: str, crux: int) -> str:
    """How a deck offers its puzzles: by answer kind, and whether the first move is
    already where the greedy strategy goes wrong (``play``) or only a later one
    (``play, crux later``)."""
    return kind if crux == 1 else f"{kind}, crux later"


def puzzle_from_deck(index: int, cfg: Config | None = None, rows=None) -> tuple[int, dict, Counter]:
    """The puzzles deck ``index`` offers: (index, {offer key: puzzle JSON}, reject counts).
    With ``answer_kind="mixed"`` the first puzzle of each answer kind among the deck's
    candidate positions, and of each kind a puzzle whose crux is the first move if there
    is one (stopping once two answer kinds are found); otherwise the first puzzle."""
    cfg = cfg or _CFG
    if cfg is None:
        raise MalformedError("puzzle_from_deck: no configuration: pass cfg, or start the worker with _init")
    rows = rows if rows is not None else _ROWS
    stats: Counter = Counter()
    src = deck_source(cfg, index, rows)
    rng = random.Random(f"hanabi-puzzles walk {cfg.seed} {index}")
    style = rng.choices(list(WALK_STYLES), weights=list(WALK_STYLES.values()))[0]
    line = walk(src.game, style, rng, cfg.limits)
    st = src.game.initial_state()
    candidates, tokens = [], {}
    for i, a in enumerate(line):
        if st.deck_left <= cfg.window:
            candidates.append(i)
            tokens[i] = st.clues
        st.push(a)
    rng.shuffle(candidates)
    # positions low on clue tokens first: with no token, the answer must be a play or a
    # discard; with one, a stall now may leave none for later
    candidates.sort(key=lambda n: min(tokens[n], LOW_TOKENS))
    stats["decks"] += 1
    stats[f"walk {style}"] += 1
    found: dict[str, dict] = {}
    kinds = wanted_kinds(cfg)
    mixed = cfg.answer_kind == "mixed"
    for n in candidates[: cfg.max_candidates]:
        if mixed:  # a kind found with its crux at the first move is not looked for again
            kinds = set(analysis.ANSWER_KINDS) - set(found)
        got = examine(src.game, line[:n], cfg, stats, kinds)
        if got is not None:
            key = offer_key(got["kind"], got["features"]["crux"])
            if key in found:
                continue
            source = dict(src.meta, walk=walk_name(style), turn=n)
            found[key] = make_puzzle(src.game, line[:n], got, source, cfg.limits).data
            stats["puzzles"] += 1
            if not mixed or len({k.split(",")[0] for k in found}) >= 2:
                break
    return index, found, stats


def pick_kind(offered, counts: Counter, cfg: Config) -> str | None:
    """Which of the puzzles a deck ``offered`` (by :func:`offer_key`) to take, given the
    ``counts`` of answer kinds so far: with ``answer_kind="mixed"`` one of the kind there
    are fewest of (ties: play, discard, clue, either), clues at most ``CLUE_SHARE`` of
    ``cfg.count``, its crux at the first move if the deck offers that; otherwise the
    first offered."""
    keys = sorted(offered, key=lambda k: (analysis.ANSWER_KINDS.index(k.split(",")[0]), k))
    if cfg.answer_kind != "mixed":
        return keys[0] if keys else None
    cap = max(1, math.floor(CLUE_SHARE * cfg.count + 0.5))
    ok = [k for k in keys if not k.startswith("clue") or counts["clue"] < cap]
    return min(ok, key=lambda k: counts[k.split(",")[0]]) if ok else None


def read_decks(cfg: Config) -> list[dict] | None:
    """The rows of ``cfg.decks`` (None without deck files), each one checked to make a
    game, so that a bad file or row is a one-line error before any work starts."""
    if not cfg.decks:
        return None
    rows = _read_deck_files(cfg.decks)
    for i in range(len(rows)):
        deck_source(cfg, i, rows)
    return rows


def generate(cfg: Config, on_puzzle=None, rows: list[dict] | None = None,
             on_deck=None) -> tuple[list[Puzzle], Counter]:
    """``cfg.count`` puzzles (fewer if ``max_decks`` decks run out) and the reject counts.
    ``on_puzzle(puzzle)`` is called as each one is accepted, ``on_deck(stats, found)`` after
    each deck (in deck order: the counts so far and the number of puzzles); ``rows`` are the
    deck rows if :func:`read_decks` has read them already."""
    if rows is None:
        rows = read_decks(cfg)
    wanted_kinds(cfg)  # an unknown kind is an error before any work
    per_puzzle = RARE_KIND_DECKS if cfg.answer_kind in RARE_KINDS else 200
    max_decks = cfg.max_decks or per_puzzle * cfg.count
    out: list[Puzzle] = []
    stats: Counter = Counter()
    counts: Counter = Counter()
    ids = set()

    def take(result) -> bool:
        _, offered, st = result
        stats.update(st)
        key = pick_kind(offered, counts, cfg)
        if key is not None and offered[key]["id"] not in ids:
            data = finish_puzzle(offered[key], cfg.limits)
            ids.add(data["id"])
            counts[data["metadata"]["answer_kind"]] += 1
            p = Puzzle(data)
            out.append(p)
            if on_puzzle:
                on_puzzle(p)
        elif offered:
            stats["deck's puzzles not needed (answer kinds)"] += 1
        if on_deck:
            on_deck(stats, len(out))
        return len(out) >= cfg.count

    if cfg.count <= 0:
        return out, stats
    if cfg.jobs <= 1:
        for i in range(max_decks):
            if take(puzzle_from_deck(i, cfg, rows)):
                break
        return out, stats
    # workers from a fork server, not forks of this process: a fork copies the locks this
    # process's threads hold (the SAT timer's, OR-Tools' pool), and a worker needing one hangs
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload(["puzzles.hanabi.generate"])
    with ctx.Pool(cfg.jobs, initializer=_init, initargs=(cfg, rows)) as pool:
        for result in pool.imap(puzzle_from_deck, range(max_decks), chunksize=1):
            if take(result):
                pool.terminate()
                break
    return out, stats
