"""hanab.live game JSON in and out, and loading decks/games from files or text.

A game file: ``players`` (names), ``deck`` (``{suitIndex, rank}``, top first), ``actions``
(``{type, target, value}``), ``options`` (``variant`` and rule options; ``startingPlayer``
for old games). A file without actions is a deck; a deck object may give ``players`` as a
player count and ``variant`` at the top level (the deck lines of ``hanabi analyse``), and a
``.jsonl`` file holding one such line is read as that object. A file that is not JSON is
read as a deck in compact notation (``r1 y3 b5 ...``).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import END_VOTE, GAME_OVER, Action, Card, parse_compact
from .errors import MalformedError
from .state import Game, State
from .variant import Rules, parse_variant

StrPath = str | os.PathLike[str]  # a file name, as open() and Path() take it


@dataclass
class GameRecord:
    """A game as read from a file: the fixed facts, the actions, and where the replay
    stopped. ``actions`` are the moves only (types 0-3); ``terminator`` is a trailing
    game-over/vote action if the file had one."""

    game: Game
    actions: list[Action] = field(default_factory=list)
    terminator: Action | None = None
    source: str = "<input>"
    extra: dict[str, Any] = field(default_factory=dict)

    def state_after(self, n: int | None = None) -> State:
        """Replay the first ``n`` actions (all if None); illegal ones raise an error that
        names the source and the action's 0-based index."""
        acts = self.actions if n is None else self.actions[:n]
        return self.game.initial_state().apply_all(acts, f"{self.source}: action")

    def to_json(self, actions: list[Action] | None = None) -> dict[str, Any]:
        return game_to_json(self.game, self.actions if actions is None else actions, self.extra)


def _card(obj: object, i: int, where: str) -> Card:
    if not isinstance(obj, dict):
        raise MalformedError(f"{where}: deck[{i}] must be an object, got {type(obj).__name__}")
    vals: list[int] = []
    for key in ("suitIndex", "rank"):
        if key not in obj:
            raise MalformedError(f"{where}: deck[{i}] is missing {key!r}")
        v = obj[key]
        if not isinstance(v, int) or isinstance(v, bool):
            raise MalformedError(f"{where}: deck[{i}].{key} must be an integer, got {v!r}")
        vals.append(v)
    return Card(vals[0], vals[1])


_JSON_TYPES = {int: "a number", float: "a number", str: "a string", list: "a list",
               dict: "an object", type(None): "null"}


def json_type(obj: object) -> str:
    """What kind of JSON value ``obj`` is, for messages: "a number", "a string", "null",
    "true", ..."""
    if isinstance(obj, bool):
        return "true" if obj else "false"
    return _JSON_TYPES.get(type(obj), type(obj).__name__)


def check_text(value: str, where: str) -> str:
    """``value`` if it is valid Unicode (encodable as UTF-8); a string holding a lone
    surrogate (JSON ``"\\ud800"``) raises a one-line :class:`MalformedError` naming
    ``where``: it could not be printed or stored."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedError(f"{where}: not valid Unicode (lone surrogate)") from None
    return value


def _options(obj: dict[str, Any], where: str) -> object:
    """The object's ``options``, with a top-level ``variant`` (the deck-line format of
    ``hanabi analyse``: ``{"players": 3, "variant": "No Variant", "deck": [...]}``) moved
    into them."""
    opts = obj.get("options")
    if "variant" not in obj:
        return opts
    top = obj["variant"]
    try:
        variant = parse_variant(top)
    except MalformedError as e:
        raise MalformedError(f"{where}: variant: {e}") from None
    if opts is None:
        return {"variant": top}
    if not isinstance(opts, dict):
        return opts  # from_json_options names the fault
    if "variant" not in opts:
        return dict(opts, variant=top)
    try:
        same = variant == parse_variant(opts["variant"])
    except MalformedError:
        same = False  # from_json_options names the fault
    if not same:
        raise MalformedError(f"{where}: 'variant' {top!r} and options.variant {opts['variant']!r} disagree")
    return opts


def game_from_json(obj: object, source: str = "<input>", players: int | None = None) -> GameRecord:
    """Parse a hanab.live game/deck object. ``players`` is a list of names, or (a bare
    deck) a player count; ``players`` (the argument) is used when the object has neither.
    A top-level ``variant`` name stands for ``options.variant``."""
    where = source
    if not isinstance(obj, dict):
        raise MalformedError(f"{where}: expected a JSON object (a game or a deck), got {json_type(obj)}")
    opts_obj = _options(obj, where)
    rules = Rules.from_json_options(opts_obj, f"{where}: options")
    variant = rules.variant
    names = obj.get("players")
    if names is None:
        if players is None:
            raise MalformedError(f"{where}: no 'players' (a list of names or a player count) and no player count "
                                 f"given (--players)")
        n = players
    elif isinstance(names, int) and not isinstance(names, bool):
        n, names = names, None  # a bare deck with its player count
    else:
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise MalformedError(f"{where}: 'players' must be a list of names or a player count")
        for i, name in enumerate(names):
            check_text(name, f"{where}: players[{i}]")
        n = len(names)
    if "deck" not in obj:
        raise MalformedError(f"{where}: missing key 'deck'")
    deck_obj = obj["deck"]
    if not isinstance(deck_obj, list):
        raise MalformedError(f"{where}: 'deck' must be a list, got {type(deck_obj).__name__}")
    deck = [_card(c, i, where) for i, c in enumerate(deck_obj)]
    for i, c in enumerate(deck):
        if not 0 <= c.suit < variant.num_suits:
            raise MalformedError(f"{where}: deck[{i}].suitIndex {c.suit} out of range for {variant.name!r}")
        if c.rank not in variant.suits[c.suit].ranks:
            raise MalformedError(f"{where}: deck[{i}].rank {c.rank} not in suit {variant.suits[c.suit].name}")
    opts = opts_obj if isinstance(opts_obj, dict) else {}
    start = opts.get("startingPlayer", 0)
    if not isinstance(start, int) or isinstance(start, bool):
        raise MalformedError(f"{where}: options.startingPlayer must be an integer, got {start!r}")
    try:
        game = Game(rules, n, deck, names=names, starting_player=start)
    except MalformedError as e:
        raise MalformedError(f"{where}: {e}") from None
    acts_obj = obj.get("actions", [])
    if not isinstance(acts_obj, list):
        raise MalformedError(f"{where}: 'actions' must be a list, got {type(acts_obj).__name__}")
    actions: list[Action] = []
    terminator: Action | None = None
    for i, a in enumerate(acts_obj):
        act = Action.from_json(a, f"{where}: action {i}")
        if act.kind in (GAME_OVER, END_VOTE):
            if i != len(acts_obj) - 1:
                raise MalformedError(f"{where}: action {i}: game-over action is not the last one")
            terminator = act
        else:
            actions.append(act)
    extra = {k: obj[k] for k in ("id", "seed") if k in obj}
    for k, v in extra.items():
        if isinstance(v, str):
            check_text(v, f"{where}: {k}")  # printed and stored (hanabi analyse's keys)
    return GameRecord(game, actions, terminator, source, extra)


def game_to_json(game: Game, actions: Iterable[Action] = (), extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A hanab.live game JSON object (loadable as a replay)."""
    out: dict[str, Any] = {}
    if extra:
        out.update(extra)
    out["players"] = list(game.names)
    out["deck"] = [c.to_json() for c in game.deck]
    out["actions"] = [a.to_json() for a in actions]
    opts = game.rules.to_json_options()
    if game.starting_player:
        opts["startingPlayer"] = game.starting_player
    if opts:
        out["options"] = opts
    return out


def load_text(text: str, source: str, *, players: int | None = None, rules: Rules | None = None) -> GameRecord:
    """A game from file contents: JSON if it looks like JSON, compact notation otherwise."""
    stripped = text.lstrip()
    if stripped.startswith("{") or stripped.startswith("["):
        return _from_object(parse_json(text, source), source, players, rules)
    rules = rules or Rules.from_json_options({})
    try:
        deck = parse_compact(text, rules.variant)
    except MalformedError as e:
        raise MalformedError(f"{source}: {e}") from None
    if players is None:
        raise MalformedError(f"{source}: a deck in compact notation needs a player count (--players)")
    try:
        game = Game(rules, players, deck)
    except MalformedError as e:
        raise MalformedError(f"{source}: {e}") from None
    return GameRecord(game, [], None, source)


def _from_object(obj: object, source: str, players: int | None, rules: Rules | None) -> GameRecord:
    """A game from a parsed JSON value; ``rules`` (from the command line) stand in for a
    deck object's missing options."""
    if rules is not None and isinstance(obj, dict) and "options" not in obj:
        opts = rules.to_json_options()
        if "variant" in obj:  # the object's own variant name; the caller compares it with the rules'
            opts.pop("variant", None)
        obj = dict(obj, options=opts)
    return game_from_json(obj, source, players)


def load_file(path: StrPath, *, players: int | None = None, rules: Rules | None = None) -> GameRecord:
    """A game from a file: hanab.live game or deck JSON, a JSON Lines file (``.jsonl``)
    holding one such object, or a deck in compact notation."""
    text = read_text(path)
    if not text.strip():
        raise MalformedError(f"{path}: empty file")
    lines = _json_lines(path, text)
    if lines is None:
        if not text.lstrip().startswith(("{", "[")):
            try:
                obj = json.loads(text)
            except ValueError:
                pass  # not JSON: compact notation
            else:
                # a number, a string, true/false or null: JSON, but no game
                raise MalformedError(f"{path}: expected a JSON object (a game or a deck), got {json_type(obj)}")
        return load_text(text, str(path), players=players, rules=rules)
    if len(lines) > 1:
        raise MalformedError(f"{path}: {len(lines)} JSON lines (decks or games): this command reads one game; "
                             f"use 'hanabi analyse {path}' for a file of many")
    n, obj = lines[0]
    return _from_object(obj, f"{path}: line {n}", players, rules)


def _json_lines(path: StrPath, text: str) -> list[tuple[int, Any]] | None:
    """The objects of a JSON Lines file (``.jsonl``, as ``hanabi analyse`` reads them);
    None for any other file."""
    if Path(path).suffix.lower() != ".jsonl":
        return None
    return list(read_jsonl(path, text))


def read_text(path: StrPath) -> str:
    """A UTF-8 text file (a BOM is dropped); unreadable files raise a one-line
    :class:`MalformedError` naming the file."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise MalformedError(f"{path}: cannot read file: {e.strerror or e}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise MalformedError(f"{path}: not UTF-8 text (byte {e.start})") from None


def parse_json(text: str, where: str) -> Any:
    """``json.loads`` with a one-line :class:`MalformedError` naming ``where`` and the
    line (for text of several lines) and column of the fault."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        at = f"line {e.lineno} column {e.colno}" if "\n" in text.strip() else f"column {e.colno}"
        raise MalformedError(f"{where}: invalid JSON at {at}: {e.msg}") from None
    except RecursionError:
        raise MalformedError(f"{where}: invalid JSON: nested too deeply") from None
    except ValueError as e:  # e.g. an integer beyond Python's digit limit
        raise MalformedError(f"{where}: invalid JSON: {e}") from None


def read_jsonl(path: StrPath, text: str | None = None) -> Iterator[tuple[int, Any]]:
    """The objects of a JSON Lines file, as (line number, object); blank lines skipped."""
    if text is None:
        text = read_text(path)
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield n, parse_json(line, f"{path}: line {n}")
