"""The puzzle generator: play real decks to the endgame, keep the positions with one line.

For each deck (a random shuffle made from ``--seed`` and the deck's index, or a deck from
a JSON-lines file), one *walk* plays it to the end: a bot that mostly plays the greedy
strategy (``analysis.greedy_action``) but now and then discards or stalls instead, or the
solver's own optimal line. The walk's endgame positions (at most ``window`` cards left in
the deck) are examined in a random order, and the first that makes a puzzle is kept (one
puzzle per deck, so puzzles do not repeat one game):

1. the maximum from the position is exact (``Solution.exact``);
2. at least ``MIN_PLAYS`` points are still to score, and at least 3 kinds of move are legal;
3. the greedy strategy falls short of the maximum;
4. at most ``max_winning`` kinds of first move keep the maximum (see
   ``notation.move_class``), every other one provably loses;
5. the answer is not the obvious move: the greedy strategy's first move loses;
6. the rated difficulty matches ``--difficulty`` (if given).

Every solver call is bounded by a node limit (and a timeout as a safety net), so the same
``--seed`` gives the same puzzles on any machine; decks are examined in parallel with
``jobs`` processes, but taken in deck order.
"""
from __future__ import annotations

import json
import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from solver.game import Action, Card, Game, MalformedError, Rules, State, game_from_json, parse_variant

from . import analysis
from .analysis import GENERATOR_LIMITS, Limits
from .format import GENERATOR_VERSION, Puzzle, build_puzzle
from .notation import first_clue, format_line, move_class, move_classes

# the player counts of random decks, in turn: fewer players more often, since their
# endgames make puzzles less often (about 1 deck in 11 with 2 players, 1 in 3 with 5)
PLAYER_CYCLE = (2, 3, 2, 4, 2, 3, 5, 2, 3)
MIN_PLAYS = 3
WALK_STYLES = ("bot 10%", "bot 20%", "bot 30%", "spender 10%", "spender 30%", "solver")


@dataclass
class Config:
    count: int = 10
    seed: int = 0
    players: int | None = None  # None: 2 to 5 players, in turn (PLAYER_CYCLE)
    variant: str = "No Variant"
    difficulty: str | None = None  # easy / medium / hard, or None for any
    decks: list[str] = field(default_factory=list)  # JSON-lines deck files (instead of random decks)
    source_seeds: bool = False  # hanab.live seeds p{P}v{V}s{N}, N = seed, seed + 1, ... (solver.game.seeds)
    jobs: int = 1
    limits: Limits = GENERATOR_LIMITS
    window: int = 12  # examine positions with at most this many cards left in the deck
    max_candidates: int = 10  # positions examined per deck
    max_winning: int = 2
    max_decks: int | None = None  # give up after this many decks (default: 200 per puzzle)


@dataclass
class DeckSource:
    """Where deck ``index`` comes from."""

    game: Game
    meta: dict


def _read_deck_files(paths) -> list[dict]:
    rows = []
    for path in paths:
        try:
            text = Path(path).read_text()
        except OSError as e:
            raise MalformedError(f"{path}: cannot read file: {e.strerror or e}") from None
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise MalformedError(f"{path}: line {n}: invalid JSON: {e.msg}") from None
            if not isinstance(obj, dict):
                raise MalformedError(f"{path}: line {n}: must be an object")
            rows.append({"obj": obj, "file": Path(path).name, "line": n})
    if not rows:
        raise MalformedError(f"no decks in {', '.join(map(str, paths))}")
    return rows


def deck_source(cfg: Config, index: int, rows: list[dict] | None = None) -> DeckSource:
    """The game for deck ``index``: deterministic in ``cfg.seed`` and ``index``."""
    if cfg.decks:
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
        from solver.game.seeds import game_from_seed

        if variant.hanablive_id is None:
            raise MalformedError(f"variant {variant.name!r} has no hanab.live id: it has no hanab.live seeds")
        name = f"p{players}v{variant.hanablive_id}s{cfg.seed + index}"
        return DeckSource(game_from_seed(name, players, Rules(variant)), {"kind": "hanab.live seed", "seed": name})
    deck = [Card(s, r) for s, r in variant.composition()]
    random.Random(f"hanabi-puzzles deck {cfg.seed} {index}").shuffle(deck)
    return DeckSource(Game(Rules(variant), players, deck), {"kind": "random", "seed": cfg.seed, "deck_index": index})


# ---- walks ----------------------------------------------------------------------

def bot_action(st: State, rng: random.Random, deviate: float, spender: bool = False) -> Action:
    """The greedy strategy, except that with probability ``deviate`` the bot discards a
    random card or stalls with a random clue instead (as real players do). A *spender*
    gives a clue rather than discard trash while it has a token, so its games run low on
    clue tokens (where a stall is not always available)."""
    if rng.random() < deviate:
        opts = []
        if st.clues < st.game.max_clues:
            opts.extend(Action.discard(o) for o in st.hands[st.current])
        clues = [a for a in st.legal_actions() if a.is_clue]
        if clues:
            opts.append(rng.choice(clues))
        if opts:
            return rng.choice(opts)
    if spender and st.clues > 0 and not any(analysis.is_playable(st, o) for o in st.hands[st.current]):
        clue = first_clue(st)
        if clue is not None:
            return clue
    return analysis.greedy_action(st)


def walk_name(style: str) -> str:
    if style == "solver":
        return "the solver's optimal line"
    kind, pct = style.split()
    return f"{'greedy bot' if kind == 'bot' else 'clue-spending bot'}, deviating {pct} of the time"


def walk(game: Game, style: str, rng: random.Random, limits: Limits) -> list[Action]:
    """A whole game's actions in the given style."""
    st = game.initial_state()
    if style == "solver":
        walk_limits = Limits(timeout=limits.timeout, node_limit=50_000, engine="search")
        return list(analysis.solve_bounded(st, walk_limits).actions)
    kind, pct = style.split()
    deviate = int(pct.rstrip("%")) / 100
    line = []
    while not st.over:
        line.append(st.apply(bot_action(st, rng, deviate, kind == "spender")))
    return line


# ---- examining a position ------------------------------------------------------

def examine(game: Game, actions: list[Action], cfg: Config, stats: Counter) -> dict | None:
    """A puzzle's parts if the position after ``actions`` makes one, else None (the reason
    counted in ``stats``)."""
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
    fm = analysis.first_moves(st, target, limits, stop_after=cfg.max_winning)
    if len(fm.winning) > cfg.max_winning:
        stats["too many winning first moves"] += 1
        return None
    if fm.undecided:
        stats["undecided first move"] += 1
        return None
    if not fm.winning:  # the maximum is exact, so some move keeps it: a contradiction
        raise RuntimeError(f"no first move keeps the exact maximum {target}")
    if move_class(st, greedy_actions[0]) in fm.winning:
        stats["the obvious first move wins"] += 1
        return None
    feats = analysis.features(st, sol, fm, greedy_score, limits)
    rate = analysis.rating(feats)
    level = analysis.difficulty(rate)
    if cfg.difficulty and level != cfg.difficulty:
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
        "greedy_line": format_line(st, greedy_actions),
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
        "difficulty": found["difficulty"],
        "rating": found["rating"],
        "features": found["features"],
        "winning_first_moves": {
            "count": len(fm.winning),
            "moves": list(fm.winning),
            "total": fm.total,
            "after": dict(fm.results),
        },
        "greedy": {"score": found["greedy_score"], "line": found["greedy_line"]},
        "source": source,
        "generator": GENERATOR_VERSION,
        "limits": {"node_limit": limits.node_limit, "timeout": limits.timeout, "engine": limits.engine},
    }
    return build_puzzle(pid, game, actions, found["target"], sol.max_score, sol.proof.reason, lines, metadata)


# ---- one deck (runs in a worker process) -----------------------------------------

_CFG: Config | None = None
_ROWS: list[dict] | None = None


def _init(cfg: Config, rows) -> None:
    global _CFG, _ROWS
    _CFG, _ROWS = cfg, rows


def puzzle_from_deck(index: int, cfg: Config | None = None, rows=None) -> tuple[int, dict | None, Counter]:
    """At most one puzzle from deck ``index``: (index, puzzle JSON or None, reject counts)."""
    cfg = cfg or _CFG
    rows = rows if rows is not None else _ROWS
    stats: Counter = Counter()
    src = deck_source(cfg, index, rows)
    rng = random.Random(f"hanabi-puzzles walk {cfg.seed} {index}")
    style = rng.choice(WALK_STYLES)
    line = walk(src.game, style, rng, cfg.limits)
    st = src.game.initial_state()
    candidates = []
    for i, a in enumerate(line):
        if st.deck_left <= cfg.window:
            candidates.append(i)
        st.push(a)
    rng.shuffle(candidates)
    stats["decks"] += 1
    for n in candidates[: cfg.max_candidates]:
        found = examine(src.game, line[:n], cfg, stats)
        if found is not None:
            source = dict(src.meta, walk=walk_name(style), turn=n)
            p = make_puzzle(src.game, line[:n], found, source, cfg.limits)
            stats["puzzles"] += 1
            return index, p.data, stats
    return index, None, stats


def generate(cfg: Config, on_puzzle=None) -> tuple[list[Puzzle], Counter]:
    """``cfg.count`` puzzles (fewer if ``max_decks`` decks run out) and the reject counts.
    ``on_puzzle(puzzle)`` is called as each one is accepted."""
    rows = _read_deck_files(cfg.decks) if cfg.decks else None
    max_decks = cfg.max_decks or max(200, 200 * cfg.count)
    out: list[Puzzle] = []
    stats: Counter = Counter()
    ids = set()

    def take(result) -> bool:
        _, data, st = result
        stats.update(st)
        if data is not None and data["id"] not in ids:
            ids.add(data["id"])
            p = Puzzle(data)
            out.append(p)
            if on_puzzle:
                on_puzzle(p)
        return len(out) >= cfg.count

    if cfg.count <= 0:
        return out, stats
    if cfg.jobs <= 1:
        for i in range(max_decks):
            if take(puzzle_from_deck(i, cfg, rows)):
                break
        return out, stats
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(cfg.jobs, initializer=_init, initargs=(cfg, rows)) as pool:
        for result in pool.imap(puzzle_from_deck, range(max_decks), chunksize=1):
            if take(result):
                pool.terminate()
                break
    return out, stats
