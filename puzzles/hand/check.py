"""The checker: every claim of a puzzle proved again with the engine and the solver.

:func:`check_puzzle` replays the deal, the bids and the plays through the rules engine and
compares the result with the position the puzzle shows; re-solves the question for every
class of the mover's legal cards (three or more, exactly one keeping the question, the
stated answer, neither the lowest nor the highest legal card in it); replays the stated
line to the end of the round, re-proving each of its decisions, and recounts its depth,
the rating and the difficulty. :func:`judge_answer` says whether proposed cards answer it.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.hand.rules import (
    NUM_SEATS,
    Deal,
    IllegalMoveError,
    MalformedError,
    Position,
    Round,
    card_str,
    format_cards,
    format_hand,
)

from .format import SAFE, HandPuzzle, puzzle_id
from .generate import attempt_rng
from .solve import NODES, after, choices, difficulty_of, natural_cards, rating_of


@dataclass(frozen=True)
class CheckResult:
    """``valid``: every claim holds; else ``reason``, the first that does not (one line)."""

    valid: bool
    reason: str
    position: Position | None


def _cards(cs: tuple[int, ...] | list[int]) -> str:
    return "/".join(card_str(c) for c in cs)


def replay(pz: HandPuzzle) -> Position:
    """The position the deal, the bids and the plays reach (engine-checked)."""
    r = Round(pz.deal, pz.bids)
    for i, c in enumerate(pz.plays):
        try:
            r.apply(c)
        except (MalformedError, IllegalMoveError) as e:
            raise IllegalMoveError(f"plays[{i}] (trick {i // NUM_SEATS + 1}): {e}") from None
    return r.position()


def _diff(shown: Position, real: Position) -> str:
    for s in range(NUM_SEATS):
        if shown.hands[s] != real.hands[s]:
            return f"seat {s} holds {format_hand(shown.hands[s])}, the replay gives {format_hand(real.hands[s])}"
    if shown.leader != real.leader:
        return f"leader {shown.leader}, the replay gives {real.leader}"
    if shown.table != real.table:
        return f"table {format_cards(shown.table) or '-'}, the replay gives {format_cards(real.table) or '-'}"
    if shown.taken != real.taken:
        return f"taken {' '.join(map(str, shown.taken))}, the replay gives {' '.join(map(str, real.taken))}"
    return f"bids {shown.bids}, the puzzle's bids are {real.bids}"


def _check(pz: HandPuzzle, nodes: int) -> tuple[str, Position | None]:
    try:
        p = replay(pz)
    except (MalformedError, IllegalMoveError) as e:
        return f"the plays do not replay: {e}", None
    try:
        shown = Position.parse(pz.position, "position")
    except (MalformedError, IllegalMoveError) as e:
        return str(e), p
    if shown != p:
        return f"position does not match the replay: {_diff(shown, p)}", p
    if p.is_over:
        return "the round is over: no card to choose", p
    if pz.seat != p.to_move:
        return f"question.seat is {pz.seat} but seat {p.to_move} is to play", p
    if pz.cards_per_hand != p.tricks_left:
        return f"metadata.features.cards_per_hand is {pz.cards_per_hand}, the position has {p.tricks_left}", p
    if pz.seed is not None and pz.attempt is not None and pz.deal_seed is not None:
        # a generated puzzle: its deal and its name follow from the seed and the attempt
        if Deal.random(pz.deal_seed, pz.deal.dealer).hands != pz.deal.hands:
            return f"the deal is not the one of metadata.source.deal_seed {pz.deal_seed}", p
        if attempt_rng(pz.seed, pz.attempt)[2] != pz.deal_seed:
            return (f"metadata.source: deal_seed {pz.deal_seed} is not the deal seed of seed {pz.seed}, "
                    f"attempt {pz.attempt}"), p
        if pz.id != puzzle_id(pz.kind, pz.seed, pz.attempt):
            return f"id {pz.id!r} should be {puzzle_id(pz.kind, pz.seed, pz.attempt)!r}", p
    bids = pz.bids
    chs = choices(p, pz.kind, pz.seat, bids, nodes)
    if any(k is None for _, k in chs):
        return f"undecided within the node budget ({nodes} per search)", p
    if len(chs) < 3:
        return f"only {len(chs)} classes of legal cards; a puzzle needs 3 or more", p
    good = [g for g, k in chs if k]
    what = "keeps the bid guaranteed" if pz.kind == SAFE else "keeps every bid makeable"
    if not good:
        return f"no card {what}", p
    if len(good) > 1:
        return f"{len(good)} classes {what}: {', '.join(_cards(g) for g in good)} (a puzzle needs exactly one)", p
    if tuple(good[0]) != pz.answer:
        return f"the stated answer {_cards(pz.answer)} is wrong: the card that {what} is {_cards(good[0])}", p
    stated = [(tuple(g), k) for g, k in pz.choices]
    if stated != [(tuple(g), bool(k)) for g, k in chs]:
        return "solution.choices does not match the solver's classes and verdicts", p
    low, high = natural_cards(p)
    if set(low) & set(pz.answer) or set(high) & set(pz.answer):
        return "the answer is a natural card (the lowest or highest legal card)", p
    # the line: replayed through the engine, every decision re-proved, the depth recounted
    if not pz.line or pz.line[0] not in pz.answer:
        return "solution.line does not start with the answer", p
    q = p
    depth = 0
    for i, c in enumerate(pz.line):
        if q.is_over:
            return f"solution.line: {len(pz.line) - i} cards after the end of the round", p
        try:
            q.check_card(c)
        except IllegalMoveError as e:
            return f"solution.line[{i}]: {e}", p
        if pz.kind != SAFE or q.to_move == pz.seat:
            here = chs if i == 0 else choices(q, pz.kind, pz.seat, bids, nodes)
            if any(k is None for _, k in here):
                return f"solution.line[{i}]: undecided within the node budget", p
            ok = [g for g, k in here if k]
            if not any(c in g for g in ok):
                return f"solution.line[{i}]: {card_str(c)} by seat {q.to_move} loses the question", p
            if len(ok) == 1 and len(here) >= 2 and q.to_move == pz.seat:
                depth += 1
        q = after(q, c)
    if not q.is_over:
        return f"solution.line stops with {q.tricks_left} tricks to play", p
    if pz.kind == SAFE and q.taken[pz.seat] != bids[pz.seat]:  # pragma: no cover  (re-proved above)
        return f"solution.line: seat {pz.seat} ends with {q.taken[pz.seat]} tricks, bid {bids[pz.seat]}", p
    if pz.kind != SAFE and q.taken != bids:  # pragma: no cover
        return f"solution.line ends with tricks {q.taken}, bids {bids}", p
    if depth != pz.depth:
        return f"metadata.features.depth is {pz.depth}, the line has {depth}", p
    if pz.wrong != len(chs) - 1:
        return f"metadata.features.wrong is {pz.wrong}, there are {len(chs) - 1} wrong classes", p
    if pz.rating != rating_of(depth, pz.wrong):
        return f"metadata.rating is {pz.rating}, the features give {rating_of(depth, pz.wrong)}", p
    if pz.difficulty != difficulty_of(pz.rating):
        return f"metadata.difficulty is {pz.difficulty}, the rating gives {difficulty_of(pz.rating)}", p
    return "", p


def check_puzzle(pz: HandPuzzle, nodes: int = NODES) -> CheckResult:
    """Prove every claim of ``pz`` again (see the module's doc)."""
    reason, p = _check(pz, nodes)
    return CheckResult(not reason, reason, p)


def judge_answer(pz: HandPuzzle, cards: list[int]) -> tuple[bool, str]:
    """(correct, a one-line verdict) for proposed cards, each judged against the puzzle's
    (checked) answer: a card equivalent to the answer is as good as it."""
    if not cards:
        return False, "no card proposed"
    p = Position.parse(pz.position, "position")
    what = "makes sure of the bid" if pz.kind == SAFE else "keeps every bid makeable"
    for c in cards:
        try:
            p.check_card(c)
        except IllegalMoveError as e:
            return False, f"{card_str(c)}: not a legal card here: {e}"
        if c not in pz.answer:
            return False, f"{card_str(c)} is wrong: only {_cards(pz.answer)} {what}"
    return True, f"{' '.join(card_str(c) for c in cards)}: correct, it {what}"
