"""The puzzle file: one JSON object, versioned (see docs/puzzles.md).

``load_puzzle`` reads a file and checks its *shape* only (the format marker, the version,
the fields and their JSON types); anything it cannot read raises ``MalformedError``
("unreadable", exit code 2). Whether the content is *true* — the position replays, the
maximum is right, the lines reach the target — is the checker's job (``check.py``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from solver.game import GameRecord, MalformedError, State, game_from_json, game_to_json, parse_json, read_text

FORMAT = "hanabi-endgame-puzzle"
VERSION = 1
GENERATOR_VERSION = "puzzles 1.2"


def rules_summary(game) -> dict:
    """The rules of the position in words a reader can check at a glance (the game JSON's
    ``options`` are the authority; the checker verifies the two agree)."""
    v = game.variant
    return {
        "variant": v.name,
        "players": game.num_players,
        "hand_size": game.hand_size,
        "clue_tokens": game.max_clues,
        "strikes": game.strike_limit,
        "perfect_score": game.perfect_score,
        "options": game.rules.to_json_options(),
    }


def _cards(game, orders) -> str:
    return " ".join(game.deck[o].to_str(game.variant) for o in orders)


def position_summary(st: State) -> dict:
    """The position in compact notation: what the puzzle shows. Hands are newest card
    first (as hanab.live draws them); the draw pile is next card first."""
    g = st.game
    v = g.variant
    out = {
        "turn": st.turn,
        "to_move": g.player_name(st.current),
        "score": st.score,
        "stacks": " ".join(f"{s.letter}{st.stacks[i]}" for i, s in enumerate(v.suits)),
        "clues": st.clues,
        "strikes": st.strikes,
        "hands": [{"player": g.names[p], "cards": _cards(g, reversed(h))} for p, h in enumerate(st.hands)],
        "draw_pile": _cards(g, range(st.next_draw, len(g.deck))),
        "discards": _cards(g, sorted(st.discards, key=lambda o: (g.deck[o], o))),
        "pace": st.pace,
    }
    if st.turns_left is not None:
        out["turns_left"] = st.turns_left
    return out


def question_text(st: State, target: int, max_score: int) -> str:
    g = st.game
    what = f"{target} points" + (" (the maximum)" if target == max_score else "")
    pile = f"the draw pile too ({st.deck_left} card{'s' if st.deck_left != 1 else ''})" if st.deck_left else \
        "the draw pile is empty"
    return (f"{g.player_name(st.current)} to move. Every card is visible, {pile}. "
            f"Score {what} from here.")


@dataclass
class Puzzle:
    """A puzzle file's content, its shape checked (its truth is not)."""

    data: dict
    source: str = "<puzzle>"

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def game_json(self) -> dict:
        return self.data["game"]

    @property
    def question(self) -> dict:
        return self.data["question"]

    @property
    def target(self) -> int:
        return self.data["question"]["target"]

    @property
    def max_score(self) -> int:
        return self.data["solution"]["max_score"]

    @property
    def lines(self) -> list[dict]:
        return self.data["solution"]["lines"]

    @property
    def metadata(self) -> dict:
        return self.data["metadata"]

    @property
    def winning(self) -> dict:
        return self.data["metadata"]["winning_first_moves"]

    @property
    def difficulty(self) -> str:
        return self.data["metadata"].get("difficulty", "?")

    def record(self) -> GameRecord:
        """The position's game (raises ``MalformedError`` if the game JSON is bad)."""
        return game_from_json(self.game_json, f"{self.source}: game")

    def position(self) -> State:
        return self.record().state_after()

    def to_json(self) -> dict:
        return self.data


def build_puzzle(pid: str, game, actions, target: int, max_score: int, proof: str, lines: list[dict],
                 metadata: dict) -> Puzzle:
    """A puzzle from its parts; ``lines`` are ``{"line": compact, "actions": [json...]}``."""
    st = game.initial_state().apply_all(actions)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "id": pid,
        "game": game_to_json(game, actions),
        "rules": rules_summary(game),
        "question": {
            "target": target,
            "text": question_text(st, target, max_score),
            "position": position_summary(st),
        },
        "solution": {"max_score": max_score, "proof": proof, "lines": lines},
        "metadata": metadata,
    }
    return Puzzle(data)


def _need(obj: dict, key: str, kind, where: str):
    if key not in obj:
        raise MalformedError(f"{where}: missing key {key!r}")
    v = obj[key]
    ok = isinstance(v, kind) and not (kind is int and isinstance(v, bool))
    if not ok:
        name = {dict: "an object", list: "a list", str: "a string", int: "an integer"}[kind]
        raise MalformedError(f"{where}.{key}: must be {name}, got {type(v).__name__}")
    return v


def parse_puzzle(obj, source: str = "<puzzle>") -> Puzzle:
    """Check the shape of a puzzle object; raises ``MalformedError`` naming the field."""
    if not isinstance(obj, dict):
        raise MalformedError(f"{source}: a puzzle must be a JSON object, got {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise MalformedError(f"{source}: not a puzzle file (format is {fmt!r}, expected {FORMAT!r})")
    ver = obj.get("version")
    if ver != VERSION:
        raise MalformedError(f"{source}: unsupported puzzle version {ver!r} (this version reads {VERSION})")
    _need(obj, "id", str, source)
    _need(obj, "game", dict, source)
    _need(obj, "rules", dict, source)
    q = _need(obj, "question", dict, source)
    _need(q, "target", int, f"{source}: question")
    _need(q, "position", dict, f"{source}: question")
    sol = _need(obj, "solution", dict, source)
    _need(sol, "max_score", int, f"{source}: solution")
    lines = _need(sol, "lines", list, f"{source}: solution")
    for i, ln in enumerate(lines):
        where = f"{source}: solution.lines[{i}]"
        if not isinstance(ln, dict):
            raise MalformedError(f"{where}: must be an object")
        _need(ln, "actions", list, where)
        if "line" in ln and not isinstance(ln["line"], str):
            raise MalformedError(f"{where}.line: must be a string")
    meta = _need(obj, "metadata", dict, source)
    wf = _need(meta, "winning_first_moves", dict, f"{source}: metadata")
    _need(wf, "count", int, f"{source}: metadata.winning_first_moves")
    moves = _need(wf, "moves", list, f"{source}: metadata.winning_first_moves")
    if not all(isinstance(m, str) for m in moves):
        raise MalformedError(f"{source}: metadata.winning_first_moves.moves: must be a list of strings")
    if "choices" in wf:
        ch = wf["choices"]
        if not isinstance(ch, list) or not all(isinstance(c, list) and c and all(isinstance(m, str) for m in c)
                                               for c in ch):
            raise MalformedError(f"{source}: metadata.winning_first_moves.choices: must be a list of lists of strings")
    if "answer_kind" in meta and not isinstance(meta["answer_kind"], str):
        raise MalformedError(f"{source}: metadata.answer_kind: must be a string")
    return Puzzle(obj, source)


def load_puzzle(path) -> Puzzle:
    """Read and shape-check a puzzle file; ``MalformedError`` (one line) if unreadable."""
    obj = parse_json(read_text(path), str(path))
    return parse_puzzle(obj, str(path))


def dumps(p: Puzzle) -> str:
    """The file text: indented, but each card and action object on one line."""
    text = json.dumps(p.data, indent=1)
    # fold lists of strings (moves, choices), then the small {...} objects of deck cards,
    # actions and decisions onto single lines
    text = re.sub(r"\[\n\s+(\"[^\"\n]*\"(?:,\n\s+\"[^\"\n]*\")*)\n\s+\]",
                  lambda m: "[" + re.sub(r",\n\s+", ", ", m.group(1)) + "]", text)
    text = re.sub(r"\[\n\s+(\[[^\[\]\n]*\](?:,\n\s+\[[^\[\]\n]*\])*)\n\s+\]",
                  lambda m: "[" + re.sub(r",\n\s+", ", ", m.group(1)) + "]", text)
    return re.sub(r"\{\n\s+(\"(?:suitIndex|type|move)\"[^{}]*?)\n\s+\}",
                  lambda m: "{" + re.sub(r"\n\s+", " ", m.group(1)) + "}", text) + "\n"


def write_puzzle(p: Puzzle, path) -> None:
    try:
        Path(path).write_text(dumps(p))
    except OSError as e:
        raise MalformedError(f"{path}: cannot write: {e.strerror or e}") from None
