"""The two error kinds of the rules engine, both ``ValueError`` (defined with the library's
other errors, :mod:`solver.errors`).

``MalformedError``: the input cannot be read at all (bad JSON, wrong types,
unknown variant, a deck that does not match its variant, ...).
``IllegalActionError``: the input is well formed but breaks a rule of the game.
"""
from solver.errors import IllegalActionError, MalformedError, SeedMismatchWarning, UnknownKeyWarning

__all__ = ["IllegalActionError", "MalformedError", "SeedMismatchWarning", "UnknownKeyWarning"]
