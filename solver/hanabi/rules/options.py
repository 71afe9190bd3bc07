"""The options of a game: its variant, by name (ours or any of hanab.live's), by the site's
id or from a custom-variant object, and :class:`Rules`, the variant plus the rule options
that printed rule sheets and hanab.live disagree on."""
from __future__ import annotations

import difflib
import re
import warnings
from dataclasses import dataclass
from typing import Any

from .errors import MalformedError, UnknownKeyWarning
from .sitevariants import site_variant, site_variant_by_id
from .variant import BUILTIN, BY_HANABLIVE_ID, Variant, custom_variant

# The keys a game's options may hold: the rules (hanab.live's names, and ours:
# strikeoutScore, reserveToken, playToTheEnd), and the site's options that change nothing
# the engine plays (its clocks, speedrun mode, how a hand is ordered on screen). Any other
# key is a warning, and one that differs from a rule only in case or separators
# ("emptyclues", "deck_plays") an error: a misspelled rule would silently change every answer.
RULE_KEYS = ("variant", "startingPlayer", "emptyClues", "deckPlays", "oneExtraCard", "oneLessCard",
             "detrimentalCharacters", "allOrNothing", "strikeoutScore", "reserveToken", "playToTheEnd")
SITE_KEYS = ("timed", "timeBase", "timePerTurn", "speedrun", "cardCycle")


def _squashed(key: str) -> str:
    return re.sub(r"[\s_.\-]", "", key).casefold()


def check_option_keys(opts: dict[str, Any], where: str = "options") -> None:
    """Every key of ``opts`` is known: a near miss of a rule's name is a
    :class:`MalformedError`, another unknown key an :class:`UnknownKeyWarning` naming the
    closest known one (the key is then ignored)."""
    known = RULE_KEYS + SITE_KEYS
    for key in opts:
        if key in known:
            continue
        at = f"{where}.{key}" if str(key).isidentifier() else f"{where}[{str(key)!r}]"
        near = [k for k in known if _squashed(k) == _squashed(str(key))]
        if near:
            raise MalformedError(f"{at}: unknown option; the rule is spelled {near[0]!r} (a misspelled "
                                 f"rule would change every answer)")
        close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(known)})"
        warnings.warn(f"{at}: unknown option{hint}", UnknownKeyWarning, stacklevel=3)


def variant_by_name(name: object) -> Variant:
    """A variant by name: ours (:data:`BUILTIN`), or any of hanab.live's (exact or
    case-insensitive, see :mod:`.sitevariants`; a typo gets close matches suggested)."""
    if not isinstance(name, str):
        raise MalformedError(f"variant must be a name or an object, got {name!r}")
    v = BUILTIN.get(name)
    if v is not None:
        return v
    for k, cand in BUILTIN.items():
        if k.lower() == name.strip().lower():
            return cand
    return site_variant(name)


def variant_by_id(vid: object) -> Variant:
    """A hanab.live variant by its id (the ``v{id}`` of a seed ``p3v{id}s1``)."""
    if not isinstance(vid, int) or isinstance(vid, bool):
        raise MalformedError(f"variant id must be an integer, got {vid!r}")
    v = BY_HANABLIVE_ID.get(vid)
    if v is not None:
        return v
    return site_variant_by_id(vid)


def parse_variant(value: object) -> Variant:
    """A variant from a name or a custom-variant object."""
    if isinstance(value, Variant):
        return value
    if isinstance(value, dict):
        return custom_variant(value)
    return variant_by_name(value)


STRIKEOUT_SCORES = ("zero", "stacks")


@dataclass(frozen=True)
class Rules:
    """A variant plus the rule options.

    - ``empty_clues`` (default False, as hanab.live): a clue may touch no card.
    - ``strikeout_score`` (default "zero", as hanab.live): the score after the last strike,
      0 or the stacks ("stacks").
    - ``reserve_token`` (default False): the advanced game's reserve 9th clue token; the
      team has one more clue token than the variant (9 in the standard game), all available
      at the start.
    - ``deck_plays`` (hanab.live ``deckPlays``): the last card of the deck may be played
      directly from the deck.
    - ``one_extra_card`` / ``one_less_card`` (hanab.live): hand size +1 / -1.
    - ``play_to_the_end`` (default False, as hanab.live): the printed rules' end of game,
      which plays on until the final round is over. By default the game also ends as the
      site ends it (``CheckEnd`` in its ``server/src/game.go``): as soon as the score
      equals the maximum still reachable, or when, in the final round, no card that could
      extend a stack is left but in the hands of players who have had their last turn.
    """

    variant: Variant
    empty_clues: bool = False
    strikeout_score: str = "zero"
    reserve_token: bool = False
    deck_plays: bool = False
    one_extra_card: bool = False
    one_less_card: bool = False
    play_to_the_end: bool = False

    def __post_init__(self) -> None:
        if self.strikeout_score not in STRIKEOUT_SCORES:
            raise MalformedError(f"strikeout_score must be 'zero' or 'stacks', got {self.strikeout_score!r}")
        if self.one_extra_card and self.one_less_card:
            raise MalformedError("one_extra_card and one_less_card contradict each other (hand size +1 and -1): "
                                 "give at most one")

    @property
    def clue_tokens(self) -> int:
        return self.variant.clue_tokens + (1 if self.reserve_token else 0)

    def hand_size(self, players: int) -> int:
        h = self.variant.hand_size(players) + self.one_extra_card - self.one_less_card
        if h < 1:
            raise MalformedError(f"hand size would be {h} for {players} players")
        return h

    # hanab.live option names <-> ours
    _JSON_FLAGS = (
        ("emptyClues", "empty_clues"),
        ("deckPlays", "deck_plays"),
        ("oneExtraCard", "one_extra_card"),
        ("oneLessCard", "one_less_card"),
        ("reserveToken", "reserve_token"),
        ("playToTheEnd", "play_to_the_end"),  # ours: the site ends games by its own rule
    )

    def to_json_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.variant.custom is not None or self.variant.name != "No Variant":
            opts["variant"] = self.variant.to_json()
        for key, attr in self._JSON_FLAGS:
            if getattr(self, attr):
                opts[key] = True
        if self.strikeout_score != "zero":
            opts["strikeoutScore"] = self.strikeout_score
        return opts

    @classmethod
    def from_json_options(cls, opts: object, where: str = "options") -> Rules:
        if opts is None:
            opts = {}
        if not isinstance(opts, dict):
            raise MalformedError(f"{where}: must be an object, got {type(opts).__name__}")
        check_option_keys(opts, where)
        # hanab.live options that change the rules and that we do not implement
        for key in ("detrimentalCharacters", "allOrNothing"):
            if opts.get(key):
                raise MalformedError(f"{where}.{key}: unsupported rule option")
        kwargs: dict[str, Any] = {}  # Rules field -> value: bools, and strikeout_score a str
        for key, attr in cls._JSON_FLAGS:
            if key in opts:
                v = opts[key]
                if not isinstance(v, bool):
                    raise MalformedError(f"{where}.{key}: must be true or false, got {v!r}")
                kwargs[attr] = v
        if kwargs.get("one_extra_card") and kwargs.get("one_less_card"):
            raise MalformedError(f"{where}: oneExtraCard and oneLessCard are both true: they contradict each other "
                                 f"(hand size +1 and -1)")
        if "strikeoutScore" in opts:
            v = opts["strikeoutScore"]
            if v not in STRIKEOUT_SCORES:
                raise MalformedError(f"{where}.strikeoutScore: must be 'zero' or 'stacks', got {v!r}")
            kwargs["strikeout_score"] = v
        try:
            variant = parse_variant(opts.get("variant", "No Variant"))
        except MalformedError as e:
            raise MalformedError(f"{where}.variant: {e}") from None
        return cls(variant, **kwargs)
