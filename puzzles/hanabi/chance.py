"""Chance puzzles: every hand visible, the draw pile's cards known but not their order —
"which move gives the best chance of the target?" (docs/puzzles.md, "Chance puzzles").

A chance puzzle is one JSON object (format ``hanabi-chance-puzzle``, version 1): the game
up to the position (hanab.live game JSON: its deck is one order of the pile, which the
answer does not depend on), the question, and the answer: every distinct move with the
orders of the pile it wins (exact counts over ``D!``), the one best move. The generator
keeps a position only when exactly one class of equivalent moves is best among at least
three, and the greedy strategy's move is not it. The checker replays the position and
re-solves it exactly (:func:`solver.hanabi.chances.chances`); every stated count must match.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver import game_from_seed, greedy_action, greedy_line
from solver.common.outputs import write_output
from solver.hanabi.chances import chances, unsupported_reason
from solver.hanabi.rules import (
    Action,
    IllegalActionError,
    MalformedError,
    State,
    game_from_json,
    game_to_json,
    parse_json,
    read_text,
)

from .format import position_summary, rules_summary
from .notation import parse_line, resolve

FORMAT = "hanabi-chance-puzzle"
VERSION = 1
GENERATOR = "chance puzzles 1"
NODES = 2_000_000  # the chance search's budget when checking (deterministic)
GENERATE_NODES = 300_000  # ... and when generating: a position not solved within it is passed over
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class ChancePuzzle:
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def target(self) -> int:
        return int(self.data["question"]["target"])

    @property
    def difficulty(self) -> str:
        return str(self.data["rating"]["difficulty"])

    def position(self) -> State:
        """The position, replayed through the engine (IllegalActionError: it does not)."""
        rec = game_from_json(self.data["game"], f"{self.id}: game")
        return rec.game.initial_state().apply_all(rec.actions, f"{self.id}: game action")


def question_text(st: State, target: int) -> str:
    g = st.game
    return (f"{g.player_name(st.current)} to move. Every hand is visible; the draw pile holds {st.deck_left} "
            f"known cards in unknown order. Which move gives the best chance of {target} points?")


def _rows(st: State, target: int, nodes: int) -> tuple[list[dict[str, Any]], Any]:
    r = chances(st, target=target, objective="win", budget=nodes, clairvoyant=False)
    rows = [{"actions": [a.to_json() for a in m.actions], "text": m.text,
             "wins": m.win.lo if m.win is not None and m.win.exact else None,
             "upper": None if m.win is None or m.win.exact else m.win.hi} for m in r.moves]
    return rows, r


def rating(rows: list[dict[str, Any]], orders: int, deck_left: int, greedy_row: int) -> dict[str, Any]:
    """How hard: the gap between the best move and the runner-up (small: hard to see), the
    moves within 10 points of the best ("tempting"), the cards in the pile; and what the
    greedy move loses."""
    wins = sorted((r["wins"] for r in rows), reverse=True)
    best, second = wins[0], wins[1]
    gap = Fraction(best - second, orders)
    tempting = sum(1 for w in wins[1:] if Fraction(best - w, orders) <= Fraction(1, 10))
    points = tempting + (2 if gap < Fraction(1, 20) else 1 if gap < Fraction(1, 5) else 0) + deck_left // 4
    difficulty = "easy" if points <= 1 else "medium" if points <= 3 else "hard"
    return {"difficulty": difficulty, "gap": float(gap), "tempting": tempting, "points": points,
            "greedy_loses": float(Fraction(best - rows[greedy_row]["wins"], orders))}


def make_puzzle(st: State, source: dict[str, Any], nodes: int = NODES) -> ChancePuzzle | None:
    """A chance puzzle of ``st`` (target: the most its cards allow), or None when it does
    not make one: not every value exact, fewer than three distinct moves, more than one
    best, no chance at all, or the greedy move among the best."""
    if st.over or st.deck_left < 2 or unsupported_reason(st.game):
        return None
    target = st.max_reachable()
    g_act = greedy_action(st)
    # cheap first: the position's value and the greedy move's alone; most positions stop here
    quick = chances(st, target=target, objective="win", budget=nodes, clairvoyant=False, exact_for=[g_act])
    if not quick.exact or quick.win is None or quick.win.lo == 0 or len(quick.moves) < 3:
        return None
    mine = next(m for m in quick.moves if g_act in m.actions)
    if mine.win is None or not mine.win.exact or mine.win.lo == quick.win.lo:
        return None
    rows, r = _rows(st, target, nodes)
    if not r.moves_exact or len(rows) < 3 or len(r.best) != 1 or r.win is None or r.win.lo == 0:
        return None
    greedy_row = next(i for i, m in enumerate(r.moves) if g_act in m.actions)
    if r.moves[greedy_row] is r.best[0]:
        return None
    g = st.game
    pid = f"chance-{source.get('seed', 'deck')}-t{st.turn}"
    pos = position_summary(st)
    pos["draw_pile"] = " ".join(c if k == 1 else f"{c}x{k}" for c, k in r.pile)  # the order is the unknown
    data = {
        "format": FORMAT, "version": VERSION, "id": pid,
        "rules": rules_summary(g),
        "game": game_to_json(g, list(st.history)),
        "position": pos,
        "question": {"to_move": g.player_name(st.current), "target": target, "deck_left": st.deck_left,
                     "orders": r.orders, "text": question_text(st, target)},
        "answer": {"best": 0, "moves": rows, "greedy": greedy_row},
        "rating": rating(rows, r.orders, st.deck_left, greedy_row),
        "metadata": {"generator": GENERATOR, "source": source, "nodes": r.nodes},
    }
    return ChancePuzzle(data)


def generate(count: int, seed: int = 1, players: list[int] | None = None, min_left: int = 3, max_left: int = 8,
             difficulty: str | None = None, nodes: int = GENERATE_NODES, max_seeds: int = 100_000,
             mixed: bool = True, progress=None) -> list[ChancePuzzle]:
    """``count`` chance puzzles from hanab.live seeds ``p{P}v0s{k}``, k = seed, seed + 1, ...
    (P cycling through ``players``), each played by the greedy strategy with a few random
    deviations (``random.Random(k)``); every position with ``min_left`` to ``max_left``
    cards in the pile is tried, the first that makes a puzzle kept. ``mixed``: at most
    half of the answers a clue (the commonest answer: a stall that spares the pile).
    Deterministic."""
    players = players or [2, 3, 4, 5]
    out: list[ChancePuzzle] = []
    clues = 0
    for k in range(seed, seed + max_seeds):
        if len(out) >= count:
            break
        p = players[(k - seed) % len(players)]
        name = f"p{p}v0s{k}"
        state = game_from_seed(name).initial_state()
        line, _ = greedy_line(state, random.Random(k), 0.05)
        for a in line:
            if state.deck_left <= max_left and state.deck_left >= min_left and not state.over:
                pz = make_puzzle(state, {"kind": "seed", "seed": name}, nodes)
                if pz is not None and mixed and _is_clue(pz) and 2 * (clues + 1) > len(out) + 1:
                    pz = None
                if pz is not None and (difficulty is None or pz.difficulty == difficulty):
                    clues += _is_clue(pz)
                    out.append(pz)
                    if progress:
                        progress(pz)
                    break
            state.apply(a)
    return out


def render(p: ChancePuzzle, out) -> Path:
    """Draw the puzzle's table (the pile sorted: its order is the unknown) to ``.svg`` or ``.png``."""
    from .render import draw_position, picture_path, save_picture

    path, fmt = picture_path(out)
    st = p.position()
    g = st.game
    sub = (f"{p.id}    {g.variant.name}, {g.num_players} players    difficulty: {p.difficulty}    "
           f"{p.data['question']['orders']} orders of the pile")
    save_picture(draw_position(st, p.data["question"]["text"], sub, pile_order_hidden=True), path, fmt)
    return path


def gallery_text(puzzles: list[ChancePuzzle], pictures: str | None, command: str) -> str:
    """A gallery page (Markdown): each puzzle's picture and question, the answer folded."""
    out = ["# Chance puzzles", "",
           "Every hand is visible; the draw pile's cards are known, their order is not. Which move gives the "
           "best chance of the target? Each answer is exact: the orders of the pile (copies told apart) in "
           "which the best play after the move reaches the target, from `hanabi chances`. "
           "`hanabi puzzle chances check FILE` re-solves a puzzle and proves every count; "
           "`--answer pr3` judges a move.", "",
           f"Made by `{command}`.", ""]
    for n, p in enumerate(puzzles, 1):
        q, a = p.data["question"], p.data["answer"]
        pos = p.data["position"]
        out.append(f"## {n}. {p.id} ({p.difficulty})")
        out.append("")
        if pictures:
            out.append(f"![{p.id}]({p.id}.{pictures})")
            out.append("")
        out.append(f"**{q['text']}** Stacks {pos['stacks']}; {pos['clues']} clue units, {pos['strikes']} strikes; "
                   f"the pile: {pos['draw_pile']} ({q['orders']} orders). File: [{p.id}.json]({p.id}.json).")
        out.append("")
        out.append("<details><summary>Answer</summary>")
        out.append("")
        best = a["moves"][a["best"]]
        out.append(f"**{best['text']}**: wins {best['wins']} of {q['orders']} orders "
                   f"({100 * best['wins'] / q['orders']:.2f}%). The greedy strategy's move, "
                   f"{a['moves'][a['greedy']]['text']}, wins {a['moves'][a['greedy']]['wins']}.")
        out.append("")
        out.append("| move | orders won | chance |")
        out.append("|---|---:|---:|")
        for m in a["moves"]:
            out.append(f"| {m['text']} | {m['wins']} | {100 * m['wins'] / q['orders']:.2f}% |")
        out.append("")
        out.append("</details>")
        out.append("")
    return "\n".join(out)


def _is_clue(p: ChancePuzzle) -> bool:
    a = p.data["answer"]
    return bool(Action.from_json(a["moves"][a["best"]]["actions"][0]).is_clue)


# ---------------------------------------------------------------- the file
def dumps(p: ChancePuzzle) -> str:
    return json.dumps(p.data, indent=1) + "\n"


def write_puzzle(p: ChancePuzzle, path) -> None:
    write_output(str(path), dumps(p), "")


_SHAPE: dict[str, type | tuple[type, ...]] = {"format": str, "version": int, "id": str, "game": dict,
                                              "question": dict, "answer": dict, "rating": dict, "metadata": dict}


def parse_puzzle(obj: object, source: str) -> ChancePuzzle:
    """Shape-check a chance puzzle (MalformedError naming what is wrong and where)."""
    if not isinstance(obj, dict):
        raise MalformedError(f"{source}: a chance puzzle is a JSON object, got {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise MalformedError(f"{source}: format: expected {FORMAT!r}, got {obj.get('format')!r}")
    for k, t in _SHAPE.items():
        if k not in obj:
            raise MalformedError(f"{source}: missing field {k!r}")
        if not isinstance(obj[k], t) or isinstance(obj[k], bool):
            raise MalformedError(f"{source}: {k}: expected {getattr(t, '__name__', t)}")
    if obj["version"] != VERSION:
        raise MalformedError(f"{source}: version {obj['version']} (this reader knows {VERSION})")
    q, a = obj["question"], obj["answer"]
    for k in ("target", "deck_left", "orders"):
        if not isinstance(q.get(k), int) or isinstance(q.get(k), bool):
            raise MalformedError(f"{source}: question.{k}: expected an integer")
    if not isinstance(a.get("moves"), list) or not a["moves"]:
        raise MalformedError(f"{source}: answer.moves: expected a non-empty list")
    for i, m in enumerate(a["moves"]):
        where = f"{source}: answer.moves[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("actions"), list) or not m["actions"]:
            raise MalformedError(f"{where}: expected an object with a non-empty list of actions")
        if not isinstance(m.get("wins"), int) or isinstance(m.get("wins"), bool):
            raise MalformedError(f"{where}.wins: expected an integer")
        for j, x in enumerate(m["actions"]):
            Action.from_json(x, f"{where}.actions[{j}]")
    for k in ("best", "greedy"):
        v = a.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(a["moves"]):
            raise MalformedError(f"{source}: answer.{k}: expected an index into answer.moves")
    game_from_json(obj["game"], f"{source}: game")
    return ChancePuzzle(obj)


def load_puzzle(path) -> ChancePuzzle:
    return parse_puzzle(parse_json(read_text(path), str(path)), str(path))


# ---------------------------------------------------------------- the checker
@dataclass
class Verdict:
    valid: bool
    problems: list[str] = field(default_factory=list)
    answer_correct: bool | None = None
    answer_message: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "problems": self.problems}
        if self.answer_correct is not None:
            out["answer"] = {"correct": self.answer_correct, "message": self.answer_message}
        return out


def check_puzzle(p: ChancePuzzle, answer: str | None = None, nodes: int = NODES) -> Verdict:
    """Replay the position, re-solve it exactly and compare every stated count, the best
    move, its uniqueness and the greedy move; judge ``answer`` (compact notation, e.g.
    ``pr3``/``dy1``/``c``, or a hanab.live action as JSON) if given."""
    problems: list[str] = []
    try:
        st = p.position()
    except (IllegalActionError, MalformedError) as e:
        return Verdict(False, [f"the game does not replay: {e}"])
    q, a = p.data["question"], p.data["answer"]
    g = st.game
    if st.over:
        return Verdict(False, ["the game is over at the position"])
    if q["to_move"] != g.player_name(st.current):
        problems.append(f"question.to_move is {q['to_move']!r}, but {g.player_name(st.current)} is to move")
    if q["deck_left"] != st.deck_left:
        problems.append(f"question.deck_left is {q['deck_left']}, the pile holds {st.deck_left}")
    if not 0 <= q["target"] <= g.perfect_score:
        return Verdict(False, problems + [f"question.target {q['target']} is not a score"])
    why = unsupported_reason(g)
    if why:
        return Verdict(False, problems + [why])
    rows, r = _rows(st, q["target"], nodes)
    if not r.moves_exact:
        return Verdict(False, problems + ["the position could not be solved exactly within the budget"])
    if q["orders"] != r.orders:
        problems.append(f"question.orders is {q['orders']}, the pile has {r.orders} orders")
    mine = {frozenset(json.dumps(x, sort_keys=True) for x in m["actions"]): m for m in a["moves"]}
    truth = {frozenset(json.dumps(x, sort_keys=True) for x in m["actions"]): m for m in rows}
    if set(mine) != set(truth):
        problems.append(f"answer.moves does not group the legal moves as the solver does ({len(mine)} stated, "
                        f"{len(truth)} distinct moves)")
    else:
        for key, m in mine.items():
            if m["wins"] != truth[key]["wins"]:
                problems.append(f"{m.get('text', '?')}: stated to win {m['wins']} of {r.orders} orders, "
                                f"the solver finds {truth[key]['wins']}")
    best = a["moves"][a["best"]]
    if len(r.best) != 1:
        problems.append(f"{len(r.best)} moves are best: the answer is not unique")
    elif {Action.from_json(x) for x in best["actions"]} != set(r.best[0].actions):
        problems.append(f"answer.best is {best.get('text', '?')!r}, the best move is {r.best[0].text!r}")
    g_act = greedy_action(st)
    if r.best and g_act in r.best[0].actions:
        problems.append("the greedy strategy's move is the best one: not a puzzle")
    if g_act not in {Action.from_json(x) for x in a["moves"][a["greedy"]]["actions"]}:
        problems.append("answer.greedy does not name the greedy strategy's move")
    v = Verdict(not problems, problems)
    if answer is not None:
        act = parse_answer(answer, st)
        row = next((m for m in r.moves if act in m.actions), None)
        if row is None:
            v.answer_correct, v.answer_message = False, f"{answer!r} is not a legal move here"
        elif r.best and row is r.best[0]:
            v.answer_correct = True
            v.answer_message = f"{row.text}: wins {row.win.lo} of {r.orders} orders, the best chance"
        else:
            b = r.best[0] if r.best else r.moves[0]
            v.answer_correct = False
            v.answer_message = (f"{row.text} wins {row.win.lo} of {r.orders} orders; {b.text} wins "
                                f"{b.win.lo}")
    return v


def parse_answer(text: str, st: State) -> Action:
    """A move in compact notation (``pr3``, ``dy1``, ``c``, ``c1r``) or a hanab.live action
    object in JSON; MalformedError if unreadable, IllegalActionError if not legal here."""
    items = parse_line(text)
    if len(items) != 1:
        raise MalformedError(f"answer: one move, got {len(items)}")
    act = resolve(items[0], st)
    return st.check(act)

