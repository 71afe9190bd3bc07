"""Puzzles from seeded random deals (docs/hand.md, "Endgame puzzles").

Attempt ``a`` of seed ``S`` draws, from ``random.Random("hand-puzzle:S:a")``: the kind
(unless asked for), the deal's seed (``Deal.random``), the endgame size (3-5 cards a
hand) and the cards already on the current trick (0-2); a bot plays seeded random legal
cards to that point. The bids are then chosen so that the question has exactly one
answering class among three or more, none of it the lowest or highest legal card:
``table``: a trick vector the table can still reach, ``safe``: a total the mover can
force exactly after one class only, the other seats' bids a vector the table can reach
with it. Everything follows from (seed, attempt): the same seed gives the same puzzles,
whether the attempts run in this process or spread over ``jobs`` worker processes (taken
in attempt order).
"""
from __future__ import annotations

import multiprocessing
import random
from collections.abc import Iterator

from solver.hand import reachable, seat_bounds
from solver.hand.rules import (
    HAND_SIZE,
    NUM_SEATS,
    Deal,
    IllegalMoveError,
    MalformedError,
    Position,
    Round,
    card_str,
    cards_of,
)

from .format import KINDS, SAFE, TABLE, HandPuzzle, puzzle_id
from .solve import NODES, after, choices, classes, difficulty_of, natural_cards, rating_of, stated_line

SIZES = (3, 4, 5)


def attempt_rng(seed: int, attempt: int) -> tuple[random.Random, str, int]:
    """The random source of attempt ``attempt`` of ``seed``, after its first two draws:
    (the source, the kind drawn, the deal's seed)."""
    rng = random.Random(f"hand-puzzle:{seed}:{attempt}")
    kind = rng.choice(KINDS)
    return rng, kind, rng.randrange(2 ** 32)


def _walk(rng: random.Random, deal: Deal, cards: int, on_table: int) -> tuple[list[int], Position]:
    r = Round(deal)
    plays: list[int] = []
    for _ in range((HAND_SIZE - cards) * NUM_SEATS + on_table):
        c = rng.choice(cards_of(r.legal_mask()))
        r.push(c)
        plays.append(c)
    return plays, r.position()


def _bids(rng: random.Random, p: Position, kind: str, nodes: int) -> tuple[int, int, int, int] | None:
    """Bids that make ``p`` a puzzle of ``kind``, or None."""
    gs = classes(p)
    if len(gs) < 3:
        return None
    low, high = natural_cards(p)
    natural = set(low) | set(high)
    seat = p.to_move
    whole = reachable(p, nodes=nodes).vectors
    if whole is None:
        return None
    if kind == TABLE:
        per = []
        for g in gs:
            v = reachable(after(p, g[0]), nodes=nodes).vectors
            if v is None:
                return None
            per.append(v)
        cands = sorted(v for v in whole if sum(v in s for s in per) == 1
                       and not natural & set(gs[next(i for i, s in enumerate(per) if v in s)]))
        return rng.choice(cands) if cands else None
    exacts = []
    for g in gs:
        e = seat_bounds(after(p, g[0]), seat, nodes=nodes).exact
        if e is None:
            return None
        exacts.append(set(e))
    ok = [b for b in range(HAND_SIZE + 1) if sum(b in e for e in exacts) == 1
          and not natural & set(gs[next(i for i, e in enumerate(exacts) if b in e)])]
    if not ok:
        return None
    b = rng.choice(ok)
    with_b = sorted(v for v in whole if v[seat] == b)
    return rng.choice(with_b)


def generate_one(seed: int, attempt: int, kind: str | None = None, difficulty: str | None = None,
                 sizes: tuple[int, ...] = SIZES, nodes: int = NODES) -> HandPuzzle | None:
    """The puzzle of attempt ``attempt`` of ``seed``, or None if that deal makes none (of
    the kind and difficulty asked for)."""
    rng, k, deal_seed = attempt_rng(seed, attempt)
    kind = kind or k
    cards = rng.choice(sizes)
    on_table = rng.choice((0, 0, 1, 2))
    deal = Deal.random(deal_seed)
    plays, p = _walk(rng, deal, cards, on_table)
    bids = _bids(rng, p, kind, nodes)
    if bids is None:
        return None
    pz = build_puzzle(puzzle_id(kind, seed, attempt), kind, deal, bids, tuple(plays), p.with_bids(bids), nodes,
                      source=(seed, attempt, deal_seed))
    if isinstance(pz, str):  # pragma: no cover  (the bids were chosen for one answer)
        return None
    if difficulty is not None and pz.difficulty != difficulty:
        return None
    return pz


def build_puzzle(pid: str, kind: str, deal: Deal, bids: tuple[int, int, int, int], plays: tuple[int, ...],
                 p: Position, nodes: int = NODES, *, source: tuple[int, int, int] | None = None,
                 author: str | None = None) -> HandPuzzle | str:
    """The puzzle of position ``p`` (reached from ``deal`` by ``plays``, with ``bids``)
    and question ``kind``: its classes, answer, line, depth and rating; or the reason it
    is not one (one line). ``source``: the generator's (seed, attempt, deal seed); None
    for a puzzle made by hand (``author``)."""
    seat = p.to_move
    chs = choices(p, kind, seat, bids, nodes)
    if any(k is None for _, k in chs):
        return f"undecided within the node budget ({nodes} per search)"
    if len(chs) < 3:
        return f"seat {seat} has {len(chs)} classes of legal cards; a puzzle needs 3 or more"
    answers = [g for g, k in chs if k]
    what = "keeps the bid guaranteed" if kind == SAFE else "keeps every bid makeable"
    if len(answers) != 1:
        named = ", ".join("/".join(card_str(c) for c in g) for g in answers)
        return f"{len(answers)} classes of cards {what}{': ' + named if named else ''} (a puzzle needs exactly one)"
    low, high = natural_cards(p)
    if (set(low) | set(high)) & set(answers[0]):
        return (f"the answer {'/'.join(card_str(c) for c in answers[0])} is a natural card "
                f"(the lowest or the highest legal card)")
    got = stated_line(p, kind, seat, bids, nodes)
    if got is None:  # pragma: no cover  (the answer keeps it, so a line does)
        return "no line keeps the question"
    line, depth = got
    wrong = len(chs) - 1
    rating = rating_of(depth, wrong)
    seed, attempt, deal_seed = source if source is not None else (None, None, None)
    return HandPuzzle(
        id=pid, kind=kind, rule="exact", deal=deal, bids=bids, plays=plays, position=str(p), seat=seat,
        answer=answers[0], line=tuple(line), choices=tuple((g, bool(k)) for g, k in chs),
        difficulty=difficulty_of(rating), rating=rating, depth=depth, wrong=wrong, cards_per_hand=p.tricks_left,
        seed=seed, attempt=attempt, deal_seed=deal_seed, author=author)


def make_puzzle(pid: str, kind: str, deal: Deal, bids: tuple[int, int, int, int], plays: list[int],
                author: str = "", nodes: int = NODES) -> HandPuzzle | str:
    """A puzzle made by hand: the round ``deal`` played by ``plays`` (checked by the engine:
    an illegal card is an :class:`~solver.hand.rules.IllegalMoveError` naming it), ``bids``, and
    the question ``kind`` for the seat to move; or the reason the position is not a puzzle."""
    if kind not in KINDS:
        raise MalformedError(f"kind {kind!r}: one of {', '.join(KINDS)}")
    if not pid or "/" in pid or "\\" in pid:
        raise MalformedError(f"id {pid!r}: a non-empty name without '/'")
    r = Round(deal, bids)
    for i, c in enumerate(plays):
        try:
            r.apply(c)
        except (MalformedError, IllegalMoveError) as e:
            raise IllegalMoveError(f"plays[{i}] (trick {i // NUM_SEATS + 1}): {e}") from None
    p = r.position()
    if p.is_over:
        return "the round is over: no card to choose"
    return build_puzzle(pid, kind, deal, bids, tuple(plays), p, nodes, author=author)


def generate(count: int, seed: int = 1, difficulty: str | None = None, kind: str | None = None,
             max_attempts: int | None = None, sizes: tuple[int, ...] = SIZES,
             nodes: int = NODES, jobs: int = 1) -> Iterator[HandPuzzle]:
    """Up to ``count`` puzzles from attempts 0, 1, 2, ... of ``seed`` (at most
    ``max_attempts`` attempts, default 200 per puzzle asked for); ``jobs`` > 1 tries the
    attempts in that many worker processes, the same puzzles in the same order."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind {kind!r}: one of {', '.join(KINDS)}")
    limit = max_attempts if max_attempts is not None else 200 * max(count, 1)
    if count <= 0:
        return
    if jobs <= 1:
        made = 0
        for a in range(limit):
            pz = generate_one(seed, a, kind, difficulty, sizes, nodes)
            if pz is not None:
                made += 1
                yield pz
                if made >= count:
                    return
        return
    # workers from a fork server (or spawned), not forks of the caller, whose threads'
    # locks a fork would copy; the results come back in attempt order (imap)
    methods = multiprocessing.get_all_start_methods()
    pool = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn").Pool(jobs)
    try:
        made = 0
        tasks = ((seed, a, kind, difficulty, sizes, nodes) for a in range(limit))
        for pz in pool.imap(_attempt, tasks, chunksize=2):
            if pz is not None:
                made += 1
                yield pz
                if made >= count:
                    return
    finally:
        pool.terminate()  # the attempts after the last puzzle needed are not wanted
        pool.join()


def _attempt(task: tuple[int, int, str | None, str | None, tuple[int, ...], int]) -> HandPuzzle | None:
    seed, attempt, kind, difficulty, sizes, nodes = task
    return generate_one(seed, attempt, kind, difficulty, sizes, nodes)


__all__ = ["SAFE", "TABLE", "attempt_rng", "build_puzzle", "generate", "generate_one", "make_puzzle"]
