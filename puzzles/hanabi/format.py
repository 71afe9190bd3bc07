"""The puzzle file: one JSON object, versioned (see docs/puzzles.md).

``load_puzzle`` reads a file and checks its *shape* only (the format marker, the version,
the fields and their JSON types); anything it cannot read raises ``MalformedError``
("unreadable", exit code 2). Whether the content is *true* — the position replays, the
maximum is right, the lines reach the target — is the checker's job (``check.py``).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from solver.common.outputs import write_output
from solver.hanabi.rules import (
    Action,
    GameRecord,
    MalformedError,
    State,
    game_from_json,
    game_to_json,
    parse_json,
    read_text,
)

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

    def line_actions(self, i: int = 0) -> list[Action]:
        """Solution line ``i``'s engine actions (``MalformedError`` naming the action if one
        cannot be read; whether they are legal is up to the caller)."""
        where = f"{self.source}: solution.lines[{i}].actions"
        return [Action.from_json(a, f"{where}[{j}]") for j, a in enumerate(self.lines[i]["actions"])]

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


# ---- the shape of a puzzle file ---------------------------------------------------
# Every field the format defines is checked here: its JSON type, its range, its allowed
# values; a field the format does not define is an error too (a misspelt optional field
# would otherwise be silently ignored). Each error is one line naming the field's path
# (``metadata.difficulty: expected one of easy, medium, hard, got 'xyz'``). Whether the
# values are *true* is the checker's job.

ID_PATTERN = re.compile(r"p(\d+)-t(\d+)-[^/\\\x00-\x1f]+")
MOVE_PATTERN = re.compile(r"c|[pd](?:[A-Za-z]\d+|#\d+)")
SOURCE_KINDS = {  # metadata.source.kind -> its own fields (required, optional)
    "random": ({"seed": "int", "deck_index": "count"}, {}),
    "hanab.live seed": ({"seed": "str"}, {}),
    "deck file": ({"file": "str", "line": "line"}, {"deck_id": "scalar"}),
}
FEATURES_1_1 = ("turns", "plays", "traps", "decisions", "greedy_errors", "crux", "only_moves", "greedy_gap", "nodes",
                "pace")
FEATURES_GRAPH = ("lines", "forced", "graph_nodes")  # from generator puzzles 1.2 on


def _show(v) -> str:
    """A value as an error message shows it (short, on one line)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    text = repr(v)
    return text if len(text) <= 40 else text[:36] + "..." + text[-1]


class _Shape:
    """The shape checks of one puzzle object; every error names ``source`` and the path."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, msg: str):
        raise MalformedError(f"{self.source}: {path}: {msg}" if path else f"{self.source}: {msg}")

    def obj(self, v, path: str, required=(), optional=(), any_keys: bool = False) -> dict:
        """An object with the ``required`` keys, and no others than the ``optional`` ones
        (any, with ``any_keys``: an object whose keys the format does not fix)."""
        if not isinstance(v, dict):
            self.fail(path, f"expected an object, got {_show(v)}")
        for k in required:
            if k not in v:
                self.fail(path, f"missing key {k!r}")
        known = (*required, *optional)
        for k in [] if any_keys else v:
            if k not in known:
                where = f"{path}.{k}" if path else str(k)
                self.fail(where, f"unknown field (the format defines {', '.join(known)})")
        return v

    def integer(self, v, path: str, lo: int | None = None, hi: int | None = None, null: bool = False) -> int | None:
        if v is None and null:
            return v
        if not isinstance(v, int) or isinstance(v, bool) or (lo is not None and v < lo) or (hi is not None and v > hi):
            what = ("an integer" if lo is None and hi is None else f"an integer from {lo} to {hi}" if hi is not None
                    else f"an integer of at least {lo}")
            self.fail(path, f"expected {what}{' or null' if null else ''}, got {_show(v)}")
        return v

    def number(self, v, path: str, positive: bool = False) -> float:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and (not positive or v > 0)
        if not ok:
            self.fail(path, f"expected a {'positive' if positive else 'finite'} number, got {_show(v)}")
        return v

    def string(self, v, path: str, empty: bool = False) -> str:
        if not isinstance(v, str) or (not empty and not v.strip()):
            self.fail(path, f"expected a {'' if empty else 'non-empty '}string, got {_show(v)}")
        return v

    def boolean(self, v, path: str) -> bool:
        if not isinstance(v, bool):
            self.fail(path, f"expected true or false, got {_show(v)}")
        return v

    def choice(self, v, path: str, options) -> str:
        if not isinstance(v, str) or v not in options:
            self.fail(path, f"expected one of {', '.join(options)}, got {_show(v)}")
        return v

    def array(self, v, path: str, each=None, nonempty: bool = False, null: bool = False) -> list | None:
        if v is None and null:
            return v
        if not isinstance(v, list) or (nonempty and not v):
            self.fail(path, f"expected a {'non-empty ' if nonempty else ''}list{' or null' if null else ''}, "
                            f"got {'an empty list' if isinstance(v, list) else _show(v)}")
        if each is not None:
            for i, x in enumerate(v):
                each(x, f"{path}[{i}]")
        return v

    def move(self, v, path: str) -> str:
        if not isinstance(v, str) or not MOVE_PATTERN.fullmatch(v):
            self.fail(path, f"expected a kind of move (c, pr3, dy1 or p#N), got {_show(v)}")
        return v

    def moves(self, v, path: str, nonempty: bool = False, null: bool = False) -> list | None:
        self.array(v, path, self.move, nonempty=nonempty, null=null)
        if v is not None and len(set(v)) != len(v):
            self.fail(path, f"lists a kind of move twice: {', '.join(sorted({m for m in v if v.count(m) > 1}))}")
        return v


def _check_shape(obj: dict, sh: _Shape) -> None:
    """Every field of a puzzle object (``format`` and ``version`` already checked)."""
    from solver import ENGINES

    from .analysis import ANSWER_KINDS, DIFFICULTIES

    sh.obj(obj, "", ("format", "version", "id", "game", "rules", "question", "solution", "metadata"))
    if not isinstance(obj["id"], str) or not ID_PATTERN.fullmatch(obj["id"]):
        sh.fail("id", f"expected p{{players}}-t{{turn}}-{{source}} (e.g. p2-t67-s2024-d89), got {_show(obj['id'])}")
    sh.obj(obj["game"], "game", any_keys=True)  # a hanab.live game: the game loader checks it (check.py)
    rules = sh.obj(obj["rules"], "rules",
                   ("variant", "players", "hand_size", "clue_tokens", "strikes", "perfect_score", "options"))
    sh.string(rules["variant"], "rules.variant")
    sh.integer(rules["players"], "rules.players", 2, 6)
    sh.integer(rules["hand_size"], "rules.hand_size", 1)
    sh.integer(rules["clue_tokens"], "rules.clue_tokens", 0)
    sh.integer(rules["strikes"], "rules.strikes", 1)
    perfect = sh.integer(rules["perfect_score"], "rules.perfect_score", 1)
    sh.obj(rules["options"], "rules.options", any_keys=True)  # the game's options: compared

    q = sh.obj(obj["question"], "question", ("target", "position"), ("text",))
    sh.integer(q["target"], "question.target", 0, perfect)
    if "text" in q:
        sh.string(q["text"], "question.text")
    pos = sh.obj(q["position"], "question.position",
                 ("turn", "to_move", "score", "stacks", "clues", "strikes", "hands", "draw_pile", "discards", "pace"),
                 ("turns_left",))
    for k in ("turn", "clues", "strikes"):
        sh.integer(pos[k], f"question.position.{k}", 0)
    sh.integer(pos["score"], "question.position.score", 0, perfect)
    sh.integer(pos["pace"], "question.position.pace")
    if "turns_left" in pos:
        sh.integer(pos["turns_left"], "question.position.turns_left", 0)
    sh.string(pos["to_move"], "question.position.to_move")
    for k in ("stacks", "draw_pile", "discards"):
        sh.string(pos[k], f"question.position.{k}", empty=True)

    def hand(h, path):
        sh.obj(h, path, ("player", "cards"))
        sh.string(h["player"], f"{path}.player")
        sh.string(h["cards"], f"{path}.cards", empty=True)

    sh.array(pos["hands"], "question.position.hands", hand, nonempty=True)

    sol = sh.obj(obj["solution"], "solution", ("max_score", "lines"), ("proof",))
    sh.integer(sol["max_score"], "solution.max_score", 0, perfect)
    if "proof" in sol:
        sh.string(sol["proof"], "solution.proof")

    def line(ln, path):
        sh.obj(ln, path, ("actions",), ("line",))
        sh.array(ln["actions"], f"{path}.actions", lambda a, p: sh.obj(a, p, any_keys=True))  # Action.from_json
        if "line" in ln:
            sh.string(ln["line"], f"{path}.line", empty=True)

    sh.array(sol["lines"], "solution.lines", line)

    meta = sh.obj(obj["metadata"], "metadata", ("winning_first_moves",),
                  ("answer_kind", "difficulty", "rating", "features", "decisions", "greedy", "source", "generator",
                   "limits"))
    wf = sh.obj(meta["winning_first_moves"], "metadata.winning_first_moves", ("count", "moves"),
                ("choices", "total", "after"))
    sh.integer(wf["count"], "metadata.winning_first_moves.count", 0)
    sh.moves(wf["moves"], "metadata.winning_first_moves.moves")
    if "choices" in wf:
        ch = wf["choices"]
        if not isinstance(ch, list) or not all(isinstance(c, list) and c for c in ch):
            sh.fail("metadata.winning_first_moves.choices", f"must be a list of lists of strings, got {_show(ch)}")
        sh.array(ch, "metadata.winning_first_moves.choices", lambda c, p: sh.moves(c, p, nonempty=True))
    if "total" in wf:
        sh.integer(wf["total"], "metadata.winning_first_moves.total", 1)
    if "after" in wf:
        after = sh.obj(wf["after"], "metadata.winning_first_moves.after", any_keys=True)
        for k, v in after.items():
            sh.move(k, f"metadata.winning_first_moves.after key {k!r}")
            sh.integer(v, f"metadata.winning_first_moves.after.{k}", 0, perfect, null=True)
    if "answer_kind" in meta:
        sh.choice(meta["answer_kind"], "metadata.answer_kind", ANSWER_KINDS)
    if "difficulty" in meta:
        sh.choice(meta["difficulty"], "metadata.difficulty", DIFFICULTIES)
    if "rating" in meta:
        sh.number(meta["rating"], "metadata.rating")
    if "features" in meta:
        f = sh.obj(meta["features"], "metadata.features", FEATURES_1_1, FEATURES_GRAPH)
        for k in FEATURES_1_1:
            where = f"metadata.features.{k}"
            if k == "crux":
                sh.integer(f[k], where, 1, null=True)
            elif k == "pace":
                sh.integer(f[k], where)
            else:
                sh.integer(f[k], where, 0)
        for k in FEATURES_GRAPH:
            if k in f:
                sh.integer(f[k], f"metadata.features.{k}", 0 if k == "forced" else 1, null=True)

    def decision(d, path):
        sh.obj(d, path, ("move", "player", "line", "winning", "classes", "many", "traps", "greedy", "greedy_loses"))
        sh.integer(d["move"], f"{path}.move", 1)
        sh.string(d["player"], f"{path}.player")
        sh.move(d["line"], f"{path}.line")
        sh.moves(d["winning"], f"{path}.winning", null=True)
        sh.integer(d["classes"], f"{path}.classes", 0)
        sh.boolean(d["many"], f"{path}.many")
        if (d["winning"] is None) != d["many"]:
            sh.fail(f"{path}.winning", f"expected {'null' if d['many'] else 'a list'} (many is "
                                       f"{_show(d['many'])}), got {_show(d['winning'])}")
        sh.moves(d["traps"], f"{path}.traps")
        sh.move(d["greedy"], f"{path}.greedy")
        sh.boolean(d["greedy_loses"], f"{path}.greedy_loses")

    if "decisions" in meta:
        sh.array(meta["decisions"], "metadata.decisions", decision)
        for i, d in enumerate(meta["decisions"]):
            if d["move"] != i + 1:
                sh.fail(f"metadata.decisions[{i}].move", f"expected {i + 1} (the moves of the line in order), got "
                                                         f"{_show(d['move'])}")
    if "greedy" in meta:
        gr = sh.obj(meta["greedy"], "metadata.greedy", ("score", "line"))
        sh.integer(gr["score"], "metadata.greedy.score", 0, perfect)
        sh.string(gr["line"], "metadata.greedy.line", empty=True)
    if "source" in meta:
        src = meta["source"]
        kind = sh.obj(src, "metadata.source", ("kind",), any_keys=True)["kind"]
        sh.choice(kind, "metadata.source.kind", tuple(SOURCE_KINDS))
        own, extra = SOURCE_KINDS[kind]
        sh.obj(src, "metadata.source", ("kind", *own), ("walk", "turn", *extra))
        for k, t in {**own, **extra, "walk": "str", "turn": "count"}.items():
            if k not in src:
                continue
            where = f"metadata.source.{k}"
            if t == "str":
                sh.string(src[k], where)
            elif t == "int":
                sh.integer(src[k], where)
            elif t == "count":
                sh.integer(src[k], where, 0)
            elif t == "line":
                sh.integer(src[k], where, 1)
            elif not isinstance(src[k], (str, int)) or isinstance(src[k], bool):
                sh.fail(where, f"expected a string or an integer, got {_show(src[k])}")
    if "generator" in meta:
        sh.string(meta["generator"], "metadata.generator")
    if "limits" in meta:
        lim = sh.obj(meta["limits"], "metadata.limits", ("node_limit", "timeout", "engine"))
        sh.integer(lim["node_limit"], "metadata.limits.node_limit", 1, null=True)
        sh.number(lim["timeout"], "metadata.limits.timeout", positive=True)
        sh.choice(lim["engine"], "metadata.limits.engine", ENGINES)


def parse_puzzle(obj, source: str = "<puzzle>") -> Puzzle:
    """Check the shape of a puzzle object (every field: type, range, allowed values; no
    unknown fields); raises ``MalformedError`` naming the field."""
    if not isinstance(obj, dict):
        raise MalformedError(f"{source}: a puzzle must be a JSON object, got {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise MalformedError(f"{source}: not a puzzle file (format is {_show(fmt)}, expected {FORMAT!r})")
    ver = obj.get("version")
    if not isinstance(ver, int) or isinstance(ver, bool) or ver != VERSION:
        raise MalformedError(f"{source}: unsupported puzzle version {_show(ver)} (this version reads {VERSION})")
    _check_unicode(obj, source)
    _check_shape(obj, _Shape(source))
    return Puzzle(obj, source)


def _check_unicode(obj, source: str) -> None:
    """Every string of the puzzle (keys and values, at any depth) is valid Unicode: a lone
    surrogate (JSON ``"\ud800"``) could be neither printed nor written back."""
    todo = [(obj, "")]
    while todo:
        v, path = todo.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                p = f"{path}.{k}" if path else str(k)
                todo.append((k, p))
                todo.append((x, p))
        elif isinstance(v, list):
            todo.extend((x, f"{path}[{i}]") for i, x in enumerate(v))
        elif isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                where = path.encode("utf-8", "backslashreplace").decode("utf-8")
                raise MalformedError(f"{source}: {where}: not valid Unicode (lone surrogate)") from None


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
    write_output(str(path), dumps(p), "")
