"""Links that open a game on hanab.live: ``https://hanab.live/shared-replay-json/<code>``.

The code is the site's own compressed form of a game (its client's
``packages/client/src/lobby/hypoCompress.ts``), three fields joined by commas, with a
hyphen after every 20 characters (so that a posted link wraps):

1. the number of players, then the deck: the lowest and highest rank as two digits, then
   one base-62 character per card, ``suit * (high - low + 1) + rank - low``;
2. the actions: the lowest and highest action type as two digits (``00`` for none), then
   two base-62 characters per action, ``(value + 1) * (high - low + 1) + type - low`` and
   the target;
3. the variant's hanab.live id.

The site decodes a card's rank as ``index mod (high - low + 1) + 1``, so a deck must hold
a 1 (every deck the site deals does); players are named Alice, Bob, ... on the site.
``#N`` after the code opens the replay at turn N (the site counts turns from 1: ``#1`` is
the deal, so our turn ``t`` — the position after ``t`` actions — is ``#t+1``).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from .cards import COLOR_CLUE, PLAY, RANK_CLUE, Action, Card
from .errors import MalformedError
from .hanablive import GameRecord, check_site_game, site_end
from .options import Rules, variant_by_id
from .state import Game

SITE = "https://hanab.live"
BASE62 = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def replay_code(game: Game, actions: Iterable[Action]) -> str:
    """The site's compressed code of ``game`` with ``actions`` (moves, types 0-3), cut
    where the site ends the game (:func:`~.hanablive.site_end`); a game the site's replay
    loader refuses (:func:`~.hanablive.check_site_game`) raises :class:`MalformedError`."""
    v = game.variant
    if v.hanablive_id is None:
        raise MalformedError(f"variant {v.name!r} is not a hanab.live variant: no link the site can open")
    check_site_game(game)
    acts = list(actions)
    end = site_end(game, acts)
    if end is not None:
        acts = acts[:end]
    if game.starting_player:
        raise MalformedError("the site's replay links always start with the first player (startingPlayer 0)")
    ranks = [c.rank for c in game.deck]
    lo, hi = min(ranks), max(ranks)
    if lo != 1:
        raise MalformedError("the site reads a linked deck's ranks from 1: a deck without a 1 cannot be linked")
    span = hi - lo + 1
    deck = "".join(_char(c.suit * span + c.rank - lo, "card") for c in game.deck)
    if acts:
        tlo, thi = min(a.kind for a in acts), max(a.kind for a in acts)
        tspan = thi - tlo + 1
        moves = f"{tlo}{thi}" + "".join(
            _char((a.value + 1) * tspan + a.kind - tlo, "action") + _char(a.target, "action target") for a in acts)
    else:
        moves = "00"
    raw = f"{game.num_players}{lo}{hi}{deck},{moves},{v.hanablive_id}"
    return "-".join(raw[i:i + 20] for i in range(0, len(raw), 20))


def replay_link(game: Game, actions: Iterable[Action], turn: int | None = None) -> str:
    """A link that opens the game on hanab.live, at our ``turn`` (the position after that
    many actions) if given."""
    return _url(replay_code(game, actions), turn)


def _url(code: str, turn: int | None) -> str:
    url = f"{SITE}/shared-replay-json/{code}"
    return url if turn is None else f"{url}#{turn + 1}"


def _char(i: int, what: str) -> str:
    if not 0 <= i < len(BASE62):
        raise MalformedError(f"{what} does not fit the site's link format (code {i}, at most 61)")
    return BASE62[i]


def why_no_link(game: Game, actions: Iterable[Action]) -> str | None:
    """Why a link could not open this very game on the site, or None when it can. The
    code holds the players, the deck, the actions and the variant, nothing else: the site
    opens it with its default options, so a game that needs one of them (hand sizes one
    larger or smaller, a clue that touches no card where the variant does not allow it, a
    play from the deck) would be another game there, or stop at that action. Games the
    format cannot hold at all say why too (:func:`replay_code`)."""
    return link_and_reason(game, actions)[1]


def link_and_reason(game: Game, actions: Iterable[Action], turn: int | None = None) -> tuple[str | None, str | None]:
    """(:func:`replay_link`, None) when the site opens this very game, else (None, why not:
    :func:`why_no_link`)."""
    acts = list(actions)
    try:
        code = replay_code(game, acts)
    except MalformedError as e:
        return None, str(e)
    why = _needs_an_option(game, acts)
    return (None, why) if why else (_url(code, turn), None)


def _needs_an_option(game: Game, acts: list[Action]) -> str | None:
    """Which of the site's options the game needs (a link carries none), in words, or None."""
    r = game.rules
    if r.one_extra_card or r.one_less_card:
        which = "one extra card" if r.one_extra_card else "one card less"
        return (f"the game is played with {which} a hand, and a link carries no option: the site would deal "
                f"hands of the usual size")
    end = site_end(game, acts)
    st = game.initial_state()
    for i, a in enumerate(acts if end is None else acts[:end]):
        done = st.check(a)
        if done.kind in (COLOR_CLUE, RANK_CLUE) and not done.touched and \
                not game.variant.clue_always_legal(done.kind):
            return (f"action {i} is a clue that touches no card, which the site allows only with its option "
                    f"emptyClues, and a link carries no option")
        if done.kind == PLAY and done.target not in st.hands[st.current]:
            return (f"action {i} plays the last card straight from the deck, which the site allows only with its "
                    f"option deckPlays, and a link carries no option")
        st.apply(a)
    return None


def link_or_none(game: Game, actions: Iterable[Action], turn: int | None = None) -> str | None:
    """:func:`replay_link`, or None when a link could not open this very game on the site
    (:func:`why_no_link` says why)."""
    return link_and_reason(game, actions, turn)[0]


LINK = re.compile(r"^(?:https?://[^/\s]+)?/?shared-replay-json/(?P<code>[A-Za-z0-9,\-]+)(?:#(?P<turn>\d+))?$")


def is_link(text: str) -> bool:
    """``text`` is a shared-replay link (``https://hanab.live/shared-replay-json/...``)."""
    return LINK.match(text.strip()) is not None


def game_from_link(text: str) -> GameRecord:
    """The game a shared-replay link holds, decoded here (no network): the players (named
    Alice, Bob, ... as the site names them), the deck, the actions, the variant, and the
    site's default options, as the site opens it. The link's ``#N`` (a turn) is left to the
    commands' ``--turn``."""
    m = LINK.match(text.strip())
    if m is None:
        raise MalformedError(f"{text[:80]!r}: not a shared-replay link (https://hanab.live/shared-replay-json/...)")
    where = "the link"
    parts = m["code"].replace("-", "").split(",")
    if len(parts) != 3 or len(parts[0]) < 4:
        raise MalformedError(f"{where}: expected three fields (players and deck, actions, variant), got {len(parts)}")
    head, moves, vid = parts
    if not (head[:3].isdigit() and vid.isdigit() and len(vid) <= 6):
        raise MalformedError(f"{where}: the player count, the ranks or the variant id is not a number")
    players, lo, hi = int(head[0]), int(head[1]), int(head[2])
    if not 2 <= players <= 6 or not 1 <= lo <= hi <= 9:
        raise MalformedError(f"{where}: {players} players, ranks {lo}..{hi}: not a game")
    variant = variant_by_id(int(vid))
    span = hi - lo + 1
    deck = []
    for i, ch in enumerate(head[3:]):
        idx = _index(ch, f"{where}: deck card {i}")
        suit, rank = divmod(idx, span)
        deck.append(Card(suit, rank + lo))
    actions = []
    if moves != "00":
        if len(moves) < 2 or not moves[:2].isdigit() or len(moves) % 2:
            raise MalformedError(f"{where}: the actions field is malformed")
        tlo, thi = int(moves[0]), int(moves[1])
        tspan = thi - tlo + 1
        if tspan < 1:
            raise MalformedError(f"{where}: action types {tlo}..{thi}")
        for k in range(2, len(moves), 2):
            a = _index(moves[k], f"{where}: action {k // 2 - 1}")
            value, kind = divmod(a, tspan)
            actions.append(Action(kind + tlo, _index(moves[k + 1], f"{where}: action {k // 2 - 1}"), value - 1))
    rules = Rules(variant)
    game = Game(rules, players, deck)
    rec = GameRecord(game, actions, None, where, {})
    rec.state_after()  # every action legal, or an error naming it
    return rec


def _index(ch: str, what: str) -> int:
    i = BASE62.find(ch)
    if i < 0:
        raise MalformedError(f"{what}: {ch!r} is not a character of the site's code")
    return i
