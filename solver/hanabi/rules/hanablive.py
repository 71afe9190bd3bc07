"""hanab.live game JSON in and out, and loading decks/games from files or text.

A game file: ``players`` (names), ``deck`` (``{suitIndex, rank}``, top first), ``actions``
(``{type, target, value}``), ``options`` (``variant`` and rule options; ``startingPlayer``
for old games). A file without actions is a deck; a deck object may give ``players`` as a
player count and ``variant`` at the top level (the deck lines of ``hanabi analyse``), and a
``.jsonl`` file holding one such line is read as that object. A file that is not JSON is
read as a deck in compact notation (``r1 y3 b5 ...``).

Two writers: :func:`game_to_json` (lenient: our own files, any variant and rule option)
and :func:`site_game_json` (a game hanab.live loads as a replay, or a one-line
:class:`MalformedError` saying why the site could not; the rules are those of the site's
``server/src/command_replay_create.go``, named where they are checked).
"""
from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from solver.common.jsontext import parse_json as read_json

from .cards import END_VOTE, GAME_OVER, Action, Card, parse_compact
from .errors import IllegalActionError, MalformedError, SeedMismatchWarning
from .options import Rules, parse_variant
from .state import Game, State
from .variant import Variant

StrPath = str | os.PathLike[str]  # a file name, as open() and Path() take it


@dataclass
class GameRecord:
    """A game as read from a file: the fixed facts, the actions, and where the replay
    stopped. ``actions`` are the moves only (types 0-3); ``terminator`` is a trailing
    game-over/vote action if the file had one. ``extra`` holds the file's fields the engine
    does not read but a writer keeps: ``id``, ``seed`` and ``notes`` (as they were)."""

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

    def stopped(self) -> str | None:
        """How the game was stopped before its end, when its file closes with the site's
        game-over action (a timeout, a player's or the table's termination), else None."""
        t = self.terminator
        if t is None:
            return None
        how = SITE_END_CONDITIONS.get(t.value, f"stopped (end condition {t.value})")
        if t.kind == GAME_OVER and 0 <= t.target < self.game.num_players and t.value in (3, 4):
            how += f" ({self.game.player_name(t.target)})"
        return how

    def site_score(self) -> int:
        """The score the site gives the game: 0 for a game stopped before its end (as a
        timed game out of time scores 0), else the score its actions reach."""
        return 0 if self.terminator is not None else self.state_after().score

    def to_json(self, actions: list[Action] | None = None) -> dict[str, Any]:
        return game_to_json(self.game, self.actions if actions is None else actions, self.extra)

    def to_site_json(self) -> dict[str, Any]:
        """The game as hanab.live loads it (:func:`site_game_json`): the same deck, moves,
        options, notes and closing game-over action, the seed if it deals this deck."""
        return site_game_json(self.game, self.actions, self.extra, terminator=self.terminator)


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
    if "notes" in obj:
        extra["notes"] = obj["notes"]  # kept as they are; site_game_json checks them
    seed = extra.get("seed")
    if isinstance(seed, str) and seed and game.variant.hanablive_id is not None and _site_seed(game, seed) is None:
        warnings.warn(f"{where}: seed {seed!r} does not deal this deck on hanab.live (for {game.num_players} "
                      f"players, {game.variant.name}): the deck is read, the seed left aside", SeedMismatchWarning,
                      stacklevel=2)
    return GameRecord(game, actions, terminator, source, extra)


def game_to_json(game: Game, actions: Iterable[Action] = (), extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Our own game JSON, in hanab.live's format but lenient: any variant (custom ones as
    an object) and our own options (``reserveToken``, ``strikeoutScore``), ``extra`` as it
    is. For a file the site must load use :func:`site_game_json`."""
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


# ---------------------------------------------------------------- the site's replay loader
# hanab.live's server/src/command_replay_create.go (isJSONValid, loadJSONOptionsToTable) and
# what it runs on the game: command_table_start.go, command_action.go, game.go (CheckEnd).

# type-4/5 values commandActionEndGame accepts (command_action.go:439-443): the ways a game
# is stopped before its end; a normal end (1) or a strikeout (2) is the server's own doing
SITE_END_CONDITIONS = {3: "timeout", 4: "terminated by a player", 6: "idle timeout", 8: "all or nothing failed",
                       10: "terminated by vote"}
_NOT_SITE = "not a game hanab.live can load"


def site_deck_size(variant: Variant) -> int:
    """The deck length the site's loader demands (``Variant.GetDeckSize`` and
    ``totalCardsInSuit``, variant.go:100-124), per suit of stack size S (5; 4 in Sudoku with
    4 suits): S cards for a one-of-each suit (S + 1 in Up or Down: its START), 2S - 1 in
    Critical Fours and Up or Down, 2S otherwise (two of each in Sudoku). The site forgets
    Scarce Ones (9 cards a suit), whose JSON games it therefore refuses."""
    one_less = variant.name.startswith("Critical Fours") or variant.up_or_down  # IsCriticalFours, IsUpOrDown
    size = 0
    for suit in variant.suits:
        s = suit.max_rank  # the stack size
        if len(set(suit.ranks)) == len(suit.ranks):
            size += s + (1 if variant.up_or_down else 0)  # OneOfEach
        else:
            size += 2 * s - (1 if one_less else 0)
    return size


def site_problem(game: Game) -> str | None:
    """Why hanab.live cannot load any game of ``game``'s variant, options and deck as a
    replay (None: it can). The deck, the players and the options; not the actions."""
    v = game.variant
    if v.custom is not None:
        return f"variant {v.name!r} is one of our custom variants, not one of the site's"
    if v.hanablive_id is None:
        return f"variant {v.name!r} is not one of the site's variants (it has no hanab.live id)"
    r = game.rules
    if r.play_to_the_end:
        return ("option playToTheEnd (the printed end of game) is ours: the site ends a game as soon as "
                "nothing more can be scored")
    if r.reserve_token:
        return ("option reserveToken (the reserve clue token) is ours: the site has no such option and would "
                f"replay the game with {v.clue_tokens} clue tokens")
    if r.strikeout_score != "zero":
        return (f"option strikeoutScore {r.strikeout_score!r} is ours: the site has no such option and scores "
                f"a strikeout 0")
    if not 2 <= game.num_players <= 6:  # command_replay_create.go:357
        return f"{game.num_players} players: the site takes 2 to 6"
    if not 0 <= game.starting_player < game.num_players:  # used unchecked: command_table_start.go:197
        return f"startingPlayer {game.starting_player} is not a seat 0..{game.num_players - 1}"
    want = site_deck_size(v)
    if len(game.deck) != want:  # command_replay_create.go:338-342
        return (f"the site's loader wants {want} cards for variant {v.name!r} (its GetDeckSize), "
                f"the deck has {len(game.deck)}")
    return None


def check_site_game(game: Game, extra: Mapping[str, Any] | None = None) -> None:
    """Raise a one-line :class:`MalformedError` if hanab.live cannot load a game of
    ``game``'s variant, options and deck (:func:`site_problem`), or with ``extra``'s
    notes; what a command checks before the work when it will write for the site."""
    why = site_problem(game)
    if why is None and extra and extra.get("notes") is not None:  # null: none, as the site reads it
        why = _notes_problem(game, extra["notes"])
    if why is not None:
        raise MalformedError(f"{_NOT_SITE}: {why}")


def _notes_problem(game: Game, notes: object) -> str | None:
    """The site's rules for ``notes`` (command_replay_create.go:362-387): none, or one list
    of strings per player, each at most one a card and one a stack base."""
    if not isinstance(notes, list):
        return f"notes must be a list (one list of notes a player), got {json_type(notes)}"
    if notes and len(notes) != game.num_players:
        return f"{len(notes)} lists of notes for {game.num_players} players (the site wants one a player)"
    most = len(game.deck) + game.variant.num_suits
    for i, mine in enumerate(notes):
        if not isinstance(mine, list) or not all(isinstance(x, str) for x in mine):
            return f"notes[{i}] must be a list of strings"
        if len(mine) > most:
            return f"notes[{i}] has {len(mine)} notes, the site takes at most {most} (one a card and stack base)"
    return None


def site_end(game: Game, actions: Sequence[Action]) -> int | None:
    """After how many of ``actions`` hanab.live ends the game (None: not within them); an
    illegal one raises :class:`IllegalActionError` naming its index. The engine's ends
    under the site's rules (:attr:`Rules.play_to_the_end` off, whatever ``game`` says):
    strikeout, the final round, and the site's own in ``CheckEnd`` (game.go:239-336), the
    score at the most still reachable or no card left to play but with players who have
    had their last turn. Actions after the end are not looked at."""
    if game.rules.play_to_the_end:
        game = Game(replace(game.rules, play_to_the_end=False), game.num_players, game.deck,
                    names=game.names, starting_player=game.starting_player)
    st = game.initial_state()
    for i, a in enumerate(actions):
        try:
            st.push(st.check(a))
        except IllegalActionError as e:
            raise IllegalActionError(f"action {i}: {e}") from None
        if st.over:
            return i + 1
    return None


def _check_terminator(game: Game, act: Action) -> None:
    if act.kind == GAME_OVER:
        if not 0 <= act.target < game.num_players:  # command_replay_create.go:317-323
            raise MalformedError(f"{_NOT_SITE}: the game-over action's target {act.target} is not a seat "
                                 f"0..{game.num_players - 1} (the site's loader refuses it)")
    elif act.kind == END_VOTE:
        if act.target != -1:  # command_replay_create.go:324-329
            raise MalformedError(f"{_NOT_SITE}: the end-by-vote action's target must be -1, got {act.target}")
    else:
        raise MalformedError(f"terminator must be a game-over (type 4) or end-by-vote (type 5) action, "
                             f"got type {act.kind}")
    if act.value not in SITE_END_CONDITIONS:  # command_action.go:439-448
        known = ", ".join(f"{k} ({v})" for k, v in SITE_END_CONDITIONS.items())
        raise MalformedError(f"{_NOT_SITE}: a closing game-over action with value {act.value}: the site stops "
                             f"its replay there (it takes {known}; it ends a game itself otherwise)")


def _site_seed(game: Game, seed: object) -> str | None:
    """``seed`` if the site, dealing from it, gets ``game``'s deck (with a seed it ignores
    the JSON's deck: command_table_start.go:127-139); None otherwise."""
    from .seeds import seed_deals

    return seed if isinstance(seed, str) and seed_deals(seed, game.num_players, game.variant, game.deck) else None


def site_game_json(game: Game, actions: Iterable[Action], extra: Mapping[str, Any] | None = None, *,
                   terminator: Action | None = None) -> dict[str, Any]:
    """``game`` and ``actions`` as hanab.live game JSON that the site loads as a replay
    (the format of its exports: ``players``, ``deck``, ``actions``, ``options``, ``notes``,
    ``seed``). Raises a one-line :class:`MalformedError` naming why the site could not:
    a variant or option not the site's, a deck length its loader refuses, no action at all,
    bad notes or a closing action it refuses; an illegal move raises
    :class:`IllegalActionError` naming its index.

    From ``extra`` it keeps ``notes`` and ``seed`` (only if the seed deals this deck), never
    ``id`` (the written game is not that game). The moves after the one at which the site
    ends the game (:func:`site_end`: it also ends a game when no card is left to play) are
    dropped. ``terminator`` (a type-4/5 action of a game stopped early) is written last;
    none is added for a game that ended by itself, as in the site's exports."""
    check_site_game(game, extra)
    moves = list(actions)
    for i, a in enumerate(moves):
        if not isinstance(a, Action) or a.kind in (GAME_OVER, END_VOTE):
            raise MalformedError(f"action {i}: not a move (a game-over action goes in terminator)")
    end = site_end(game, moves)
    if end is not None:
        moves = moves[:end]
    closing: list[Action] = []
    if terminator is not None:
        _check_terminator(game, terminator)
        if end is not None:
            raise MalformedError(f"{_NOT_SITE}: a closing game-over action after the game's end "
                                 f"(the site ends it after action {end - 1})")
        closing.append(terminator)
    if not moves and not closing:  # command_replay_create.go:274-278
        raise MalformedError(f"{_NOT_SITE}: no action (the site loads a replay only with at least one action)")
    out: dict[str, Any] = {"players": list(game.names), "deck": [c.to_json() for c in game.deck],
                           "actions": [a.to_json() for a in moves + closing]}
    opts = game.rules.to_json_options()
    if game.starting_player:
        opts["startingPlayer"] = game.starting_player
    if opts:
        out["options"] = opts
    extra = extra or {}
    if extra.get("notes"):
        out["notes"] = extra["notes"]
    seed = _site_seed(game, extra.get("seed"))
    if seed is not None:
        out["seed"] = seed
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


def as_state(source: object, who: str) -> State:
    """The position a public function was given (``who`` names the function, for the
    error): a :class:`State` as it is; a :class:`Game`, or what a loader returns (a
    :class:`GameRecord`: its game), from the start. Anything else is a
    :class:`MalformedError`."""
    if isinstance(source, GameRecord):
        source = source.game
    if isinstance(source, Game):
        return source.initial_state()
    if isinstance(source, State):
        return source
    raise MalformedError(f"{who}: expected a Game, a State or a GameRecord, got {type(source).__name__}")


def parse_json(text: str, where: str) -> Any:
    """``json.loads`` with a one-line :class:`MalformedError` naming ``where`` and the
    line (for text of several lines) and column of the fault (the reader both games share,
    :func:`solver.common.jsontext.parse_json`)."""
    return read_json(text, where, MalformedError)


def read_jsonl(path: StrPath, text: str | None = None) -> Iterator[tuple[int, Any]]:
    """The objects of a JSON Lines file, as (line number, object); blank lines skipped."""
    if text is None:
        text = read_text(path)
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield n, parse_json(line, f"{path}: line {n}")
