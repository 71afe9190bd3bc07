"""The two error kinds of the Hand rules engine, both ``ValueError`` (as python-chess does it).

``MalformedError``: the input cannot be read at all (bad notation, bad JSON, wrong types,
a deck that is not the 32 cards, a card twice, hands of impossible sizes).
``IllegalMoveError``: the input is well formed but breaks a rule of the game (a revoke, an
out-of-turn play, a card that is not in the hand, a bid out of range or made twice).

They are the Hand engine's own classes: the engine imports nothing from the Hanabi code.
"""
from __future__ import annotations


class MalformedError(ValueError):
    """Input that cannot be understood."""


class IllegalMoveError(ValueError):
    """A well-formed move (a card or a bid) that the rules do not allow here."""
