"""Every error the library raises, in one place.

Input errors, both ``ValueError`` (as python-chess does it):

- :class:`MalformedError`: the input cannot be read at all (bad JSON, wrong types, an
  unknown variant, a deck that does not match its variant, ...). :class:`UnknownOptionError`
  is the kind for an unknown engine, model, solver or option name given to the library;
  :class:`GraphBudgetError` (too large, or undecided within its budget) for a solution
  graph that cannot be built within the budget the caller chose.
- :class:`IllegalActionError`: the input is well formed but breaks a rule of the game.
- :class:`StoreError`, a :class:`MalformedError`: a result store that cannot be read or
  written (not a store, corrupt values, a full disk, a lock held too long); the rows
  already committed are never touched.

Internal errors, :class:`SolverError` (a ``RuntimeError``): a result the library refuses
to report because it contradicts itself. They are bug reports, never the user's fault;
each names the deck and the method involved.

- :class:`MethodsDisagreeError`: two methods contradict each other (one finds a line
  reaching a score another proved unreachable).
- :class:`EncodingError`: an encoding produced something the rules engine rejects (a
  line that is illegal, or scores other than the model says), or a model that contradicts
  a known fact.

The search's own signal, never raised to the caller: :class:`SearchTimeout` (the search's
deadline or node limit passed; the portfolio catches it). It lives here, outside the search
kernel, so that the pure and the compiled kernel (:mod:`solver.hanabi.search.kernel`) raise the
one class every ``except SearchTimeout`` catches.

It imports nothing: it is the bottom of the library (the Hanabi rules engine takes its two
input errors from here; Hand's engine has its own, :mod:`solver.hand.rules.errors`).

Warnings, not errors, :class:`InputWarning` (a ``UserWarning``): :class:`UnknownKeyWarning`,
a game file's option the engine does not know, ignored (``warnings.simplefilter("error",
UnknownKeyWarning)`` makes it an error, as ``hanabi --strict-options`` does), and
:class:`SeedMismatchWarning`, a file's seed that does not deal its deck.

The environment: :class:`KernelUnavailableError` (an ``ImportError``), ``HANABI_KERNEL=compiled``
asked for the compiled search kernel and it is not built, or built from other source.
"""
from __future__ import annotations

__all__ = [
    "MalformedError", "IllegalActionError", "UnknownOptionError",
    "GraphBudgetError", "StoreError", "GraphTooLargeError", "GraphUndecidedError",
    "SolverError", "MethodsDisagreeError", "EncodingError", "SearchTimeout", "KernelUnavailableError",
    "InputWarning", "UnknownKeyWarning", "SeedMismatchWarning",
]


class MalformedError(ValueError):
    """Input that cannot be understood."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow in this position."""


class UnknownOptionError(MalformedError):
    """An engine, model, solver or option name the library does not know."""

    def __init__(self, what: str, name: object, known) -> None:
        self.what, self.name, self.known = what, name, tuple(known)
        super().__init__(f"unknown {what} {name!r} (one of {', '.join(map(str, self.known))})")


class InputWarning(UserWarning):
    """Input that is read, but not as its author may have meant: the commands print it as
    one ``warning:`` line."""


class UnknownKeyWarning(InputWarning):
    """A key of a game file's options that neither the engine nor hanab.live knows: it is
    ignored (the message names the closest known key)."""


class SeedMismatchWarning(InputWarning):
    """A game file's ``seed`` that does not deal its deck on hanab.live: the deck is read,
    the seed left aside."""


class StoreError(MalformedError):
    """A result store (:mod:`solver.hanabi.batch.store`) that cannot be read or written: not
    a store, a newer schema, corrupt values, a full disk, a lock held longer than the busy
    timeout. The message names the file and the cause; committed rows are never lost."""


class GraphBudgetError(MalformedError):
    """The solution graph (:mod:`solver.hanabi.analysis.graph`) could not be built completely within its
    budget: a deterministic budget the caller chose, so a ``ValueError`` (the command
    line prints it as a one-line error); a partial graph is never returned."""


class GraphTooLargeError(GraphBudgetError):
    """The solution graph has more positions than ``max_nodes``."""

    def __init__(self, max_nodes: int, depth: int) -> None:
        self.max_nodes, self.depth = max_nodes, depth
        super().__init__(f"solution graph too large: more than {max_nodes} positions (found down to {depth} moves "
                         f"from the position); raise the cap (max_nodes, --max-nodes) or start nearer the end of "
                         f"the game")


class GraphUndecidedError(GraphBudgetError):
    """A move whose result (target still reachable or not) was not decided exactly
    within the budget."""

    def __init__(self, message: str, label: str | None = None, turn: int | None = None) -> None:
        self.label, self.turn = label, turn
        super().__init__(message)


class SolverError(RuntimeError):
    """An internal contradiction: a bug in a solver, never bad input."""

    def __init__(self, message: str, *, deck: str | None = None, method: str | None = None) -> None:
        self.deck, self.method = deck, method
        where = []
        if method:
            where.append(f"method {method}")
        if deck:
            where.append(f"deck {deck}")
        super().__init__(message + (f" ({'; '.join(where)})" if where else ""))


class MethodsDisagreeError(SolverError):
    """Two methods contradict each other about one target."""

    def __init__(self, target: int, found_by: str, refuted_by, *, deck: str | None = None) -> None:
        self.target, self.found_by, self.refuted_by = target, found_by, tuple(sorted(refuted_by))
        super().__init__(f"methods disagree: {found_by} reaches {target}, "
                         f"{', '.join(self.refuted_by)} proved it unreachable", deck=deck, method=found_by)


class EncodingError(SolverError):
    """An encoding's model or decoded line contradicts the rules engine."""


class SearchTimeout(Exception):
    """Raised inside the search when the deadline or node limit passes (caught by its
    callers: a search that runs out of budget answers "undecided", never an error)."""


class KernelUnavailableError(ImportError):
    """``HANABI_KERNEL=compiled`` and the compiled search kernel cannot be used: not built
    (``HANABI_NO_COMPILE=1``, no mypyc or no C compiler at install) or built from source
    that has changed since (see :mod:`solver.hanabi.search.kernel`)."""
