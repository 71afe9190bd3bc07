"""Cards, actions, and the compact deck notation (``r1 y3 b5 ...``)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from .errors import MalformedError
from .variant import Variant

if TYPE_CHECKING:  # state imports this module: the annotation-only import would be circular at run time
    from .state import Game

PLAY, DISCARD, COLOR_CLUE, RANK_CLUE = 0, 1, 2, 3  # hanab.live action types
GAME_OVER, END_VOTE = 4, 5
KIND_NAMES = {PLAY: "play", DISCARD: "discard", COLOR_CLUE: "color clue", RANK_CLUE: "rank clue"}


class CardJSON(TypedDict):
    """A card as hanab.live's JSON writes it (an entry of a game's ``deck``)."""

    suitIndex: int
    rank: int


class ActionJSON(TypedDict):
    """An action as hanab.live's JSON writes it (an entry of a game's ``actions``)."""

    type: int
    target: int
    value: int


@dataclass(frozen=True, order=True)
class Card:
    """A card's identity: suit index (in the variant's suit order) and rank."""

    suit: int
    rank: int

    def to_str(self, variant: Variant) -> str:
        return f"{variant.suits[self.suit].letter}{self.rank}"

    def to_json(self) -> CardJSON:
        return {"suitIndex": self.suit, "rank": self.rank}

    @classmethod
    def parse(cls, token: str, variant: Variant) -> Card:
        """A card from compact notation such as ``r1`` or ``K5`` (letter case ignored)."""
        m = re.fullmatch(r"([A-Za-z])([0-9])", token.strip())
        if not m:
            raise MalformedError(f"card {token!r}: expected a suit letter and a rank, like 'r1'")
        letter, rank = m.group(1).lower(), int(m.group(2))
        try:
            suit = variant.suit_index(letter)
        except KeyError:
            letters = " ".join(s.letter for s in variant.suits)
            raise MalformedError(
                f"card {token!r}: unknown suit letter {letter!r} (variant {variant.name!r} has {letters})"
            ) from None
        if rank not in variant.suits[suit].ranks:
            raise MalformedError(f"card {token!r}: {variant.suits[suit].name} has no rank {rank}")
        return cls(suit, rank)


@dataclass(frozen=True)
class Action:
    """One action, with hanab.live's numbering. ``target`` is a card order for plays and
    discards and a player for clues; ``value`` is the clue-color index or the rank.
    ``touched`` (the card orders a clue touches) is content filled in by the engine; it is
    not part of equality, so an action parsed from a file equals the one the engine made."""

    kind: int
    target: int
    value: int = 0
    touched: tuple[int, ...] = field(default=(), compare=False)

    @staticmethod
    def play(order: int) -> Action:
        return Action(PLAY, order)

    @staticmethod
    def discard(order: int) -> Action:
        return Action(DISCARD, order)

    @staticmethod
    def color_clue(player: int, color: int) -> Action:
        return Action(COLOR_CLUE, player, color)

    @staticmethod
    def rank_clue(player: int, rank: int) -> Action:
        return Action(RANK_CLUE, player, rank)

    @property
    def is_clue(self) -> bool:
        return self.kind >= COLOR_CLUE

    def to_json(self) -> ActionJSON:
        return {"type": self.kind, "target": self.target, "value": self.value}

    @classmethod
    def from_json(cls, obj: object, where: str = "action") -> Action:
        if not isinstance(obj, dict):
            raise MalformedError(f"{where}: must be an object, got {type(obj).__name__}")
        for key in ("type", "target"):
            if key not in obj:
                raise MalformedError(f"{where}: missing key {key!r}")
        vals: dict[str, int] = {}
        for key in ("type", "target", "value"):
            v = obj.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool):
                raise MalformedError(f"{where}.{key}: must be an integer, got {v!r}")
            vals[key] = v
        if vals["type"] not in (PLAY, DISCARD, COLOR_CLUE, RANK_CLUE, GAME_OVER, END_VOTE):
            raise MalformedError(f"{where}.type: unknown action type {vals['type']}")
        if vals["type"] in (PLAY, DISCARD):
            vals["value"] = 0  # hanab.live leaves value unused here
        return cls(vals["type"], vals["target"], vals["value"])

    def describe(self, game: Game) -> str:
        """Human text, e.g. ``play r3 (#12)`` or ``clue Bob blue (touches 2)``."""
        v = game.variant
        if self.kind in (PLAY, DISCARD):
            card = game.deck[self.target].to_str(v) if 0 <= self.target < len(game.deck) else "?"
            return f"{KIND_NAMES[self.kind]} {card} (#{self.target})"
        if self.kind in (COLOR_CLUE, RANK_CLUE):
            name = game.player_name(self.target)
            what = v.clue_colors[self.value].lower() if self.kind == COLOR_CLUE else str(self.value)
            cards = " ".join(game.deck[o].to_str(v) for o in self.touched)
            return f"clue {name} {what} (touches {cards or 'nothing'})"
        return "game over" if self.kind == GAME_OVER else "ended by vote"


def parse_compact(text: str, variant: Variant) -> list[Card]:
    """A deck in compact notation: cards like ``r1`` separated by spaces or commas, top of
    the deck first; ``#`` starts a comment to the end of the line."""
    lines = [ln.split("#", 1)[0] for ln in text.splitlines()]
    tokens = [t for t in re.split(r"[\s,]+", " ".join(lines)) if t]
    if not tokens:
        raise MalformedError("deck notation is empty")
    cards = []
    for i, tok in enumerate(tokens):
        try:
            cards.append(Card.parse(tok, variant))
        except MalformedError as e:
            raise MalformedError(f"deck position {i}: {e}") from None
    return cards


def format_compact(deck: Iterable[Card], variant: Variant) -> str:
    return " ".join(c.to_str(variant) for c in deck)
