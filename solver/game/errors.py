"""The two error kinds of the rules engine, both ``ValueError``.

``MalformedError``: the input cannot be read at all (bad JSON, wrong types,
unknown variant, a deck that does not match its variant, ...).
``IllegalActionError``: the input is well formed but breaks a rule of the game.
"""


class MalformedError(ValueError):
    """Input that cannot be understood."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow in this position."""
