"""A compact notation for lines of actions, and the move classes used to count first moves.

Tokens are separated by spaces or commas; letter case does not matter:

- ``pr3`` play the r3 in the hand of the player to act; ``p#12`` (or ``p12``) play card 12
  (its hanab.live *order*, the deck index). With ``--deck-plays``, ``p#N`` may name the
  last card of the deck.
- ``dy1`` / ``d#7`` discard, the same way.
- ``c1r`` clue seat 1 (0-based, as in hanab.live's JSON) the color red (the color's
  suit letter); ``c15`` clue seat 1 the rank 5; ``c1:r`` and ``c1:5`` also work.
- ``c`` a clue whose content does not matter: the first legal clue, to the next player
  when possible (every card is visible, so a clue is only a way to pass the turn).

A line may also be given as a JSON list of hanab.live action objects
(``[{"type": 0, "target": 12, "value": 0}, ...]``).
"""
from __future__ import annotations

import re

from solver.hanabi.rules import (
    COLOR_CLUE,
    DISCARD,
    PLAY,
    RANK_CLUE,
    Action,
    Card,
    IllegalActionError,
    MalformedError,
    State,
    parse_json,
)

MAX_ORDER_DIGITS = 6  # card orders are deck indices: a longer number cannot name a card
_TOKEN = re.compile(r"^(?:(?P<pd>[pd])(?:#?(?P<order>\d+)|(?P<card>[a-z]\d))|c(?:(?P<seat>\d):?(?P<val>[a-z]|\d))?)$")


def clue_letters(variant) -> list[str]:
    """The letter of each clue color (the suit letter of the suit named like it)."""
    by_name = {s.name: s.letter for s in variant.suits}
    return [by_name.get(name, name[0].lower()) for name in variant.clue_colors]


class LineToken:
    """One parsed token, resolved against a position with :meth:`resolve`."""

    def __init__(self, text: str, index: int):
        self.text = text
        self.index = index
        m = _TOKEN.match(text.lower())
        shown = repr(text) if len(text) <= 24 else repr(text[:20] + "...")
        if not m:
            raise MalformedError(f"answer: move {index + 1} {shown}: not a move "
                                 f"(expected e.g. pr3, p#12, dy1, c1r, c15 or c)")
        if m.group("order") is not None and len(m.group("order")) > MAX_ORDER_DIGITS:
            raise MalformedError(f"answer: move {index + 1} {shown}: card order too large (a card's order is "
                                 f"its place in the deck)")
        self.m = m

    def resolve(self, st: State) -> Action:
        """The engine action this token means in ``st`` (not yet validated by the rules,
        except that a named card must be in the hand of the player to act)."""
        m, g = self.m, st.game
        if m.group("pd"):
            kind = PLAY if m.group("pd") == "p" else DISCARD
            if m.group("order") is not None:
                return Action(kind, int(m.group("order")))
            card = Card.parse(m.group("card"), g.variant)
            for o in st.hands[st.current]:
                if g.deck[o] == card:
                    return Action(kind, o)
            if kind == PLAY and g.rules.deck_plays and st.deck_left == 1 and g.deck[st.next_draw] == card:
                return Action(PLAY, st.next_draw)
            have = " ".join(g.deck[o].to_str(g.variant) for o in reversed(st.hands[st.current])) or "nothing"
            raise IllegalActionError(f"{g.player_name(st.current)} holds no {card.to_str(g.variant)} (holds {have})")
        if m.group("seat") is None:
            a = st.first_clue()
            if a is None:
                short = " (no clue tokens left)" if st.clues < g.clue_cost else ""
                raise IllegalActionError("no clue is legal here" + short)
            return a
        seat, val = int(m.group("seat")), m.group("val")
        if val.isdigit():
            return Action(RANK_CLUE, seat, int(val))
        letters = clue_letters(g.variant)
        if val not in letters:
            raise IllegalActionError(f"{val!r} is not a clue color of {g.variant.name!r} (colors: {' '.join(letters)})")
        return Action(COLOR_CLUE, seat, letters.index(val))


def parse_line(text: str) -> list[LineToken] | list[Action]:
    """A line in compact notation (tokens to resolve move by move) or as a JSON list of
    hanab.live actions. Raises :class:`MalformedError` when it cannot be read."""
    s = text.strip()
    if s.startswith("["):
        obj = parse_json(s, "answer")
        if not isinstance(obj, list):
            raise MalformedError("answer: a JSON answer must be a list of actions")
        return [Action.from_json(a, f"answer action {i}") for i, a in enumerate(obj)]
    tokens = [t for t in re.split(r"[\s,]+", s) if t]
    if not tokens:
        raise MalformedError("answer: empty line")
    return [LineToken(t, i) for i, t in enumerate(tokens)]


def resolve(item, st: State) -> Action:
    """An action of a parsed line, in position ``st``."""
    return item.resolve(st) if isinstance(item, LineToken) else item


def format_action(st: State, a: Action) -> str:
    """``a`` (legal in ``st``) in compact notation: cards by name, clues by seat and value."""
    g = st.game
    if a.kind in (PLAY, DISCARD):
        letter = "p" if a.kind == PLAY else "d"
        if a.target not in st.hands[st.current]:
            return f"{letter}#{a.target}"
        return letter + g.deck[a.target].to_str(g.variant)
    if a.kind == COLOR_CLUE:
        return f"c{a.target}{clue_letters(g.variant)[a.value]}"
    return f"c{a.target}{a.value}"


def format_line(st: State, actions) -> str:
    """A line of engine actions from ``st`` in compact notation."""
    st = st.copy()
    out = []
    for a in actions:
        out.append(format_action(st, a))
        st.apply(a)
    return " ".join(out)


def move_class(st: State, a: Action) -> str:
    """The class of a first move: :meth:`State.move_class` (``c`` for every clue,
    ``pr3``/``dy1`` for a play or a discard of a card, ``p#N`` for a deck play)."""
    return st.move_class(a)


def describe_class(label: str, variant=None) -> str:
    """Words for a move class: ``c`` -> ``a clue``, ``pr3`` -> ``play r3``."""
    if label == "c":
        return "a clue"
    verb = "play" if label[0] == "p" else "discard"
    rest = label[1:]
    return f"{verb} {'card ' if rest.startswith('#') else ''}{rest}"


def move_classes(st: State) -> dict[str, Action]:
    """Every class of legal move from ``st`` with one representative action each, in the
    engine's order (plays, discards, then clues): :meth:`State.move_classes`."""
    return st.move_classes()
