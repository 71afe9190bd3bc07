"""hanabi-solver: the maximum score of perfect-information Hanabi decks.

The package-level API, as ``chess`` gives its own::

    import solver

    game = solver.game_from_seed("p3v0s1")        # the deck hanab.live deals for this seed
    sol = solver.solve(game, timeout=10)          # a Solution
    print(sol.max_score, sol.exact, sol.proof.reason)

- rules engine: :class:`Game` (fixed facts), :class:`State` (a position: ``apply``,
  ``push``/``pop``, ``legal_actions``, card queries), :class:`Rules`, :class:`Variant`,
  :class:`Action`, :class:`Card`;
- loaders: :func:`load_file`, :func:`load_text`, :func:`game_from_json`,
  :func:`game_from_seed`, :func:`deck_from_seed`, :func:`parse_variant`,
  :func:`parse_compact`; writers :func:`game_to_json`, :func:`format_compact`;
- solving: :func:`solve` → :class:`Solution` with a :class:`Proof`; :func:`find_line`;
  :func:`solution_graph` and :func:`write_graph` (:mod:`solver.hanabi.analysis.graph`); the greedy
  strategy :func:`greedy_line`;
- endgame chances with the pile's order unknown: :func:`solver.hanabi.chances.chances` (the
  public module :mod:`solver.hanabi.chances`, imported on use);
- errors (:mod:`solver.errors`): :class:`MalformedError`, :class:`IllegalActionError`,
  :class:`UnknownOptionError`, :class:`GraphBudgetError` (all ``ValueError``), :class:`SolverError`,
  :class:`MethodsDisagreeError`, :class:`EncodingError`.
"""
from __future__ import annotations

from .errors import (
    EncodingError,
    GraphBudgetError,
    GraphTooLargeError,
    GraphUndecidedError,
    IllegalActionError,
    MalformedError,
    MethodsDisagreeError,
    SolverError,
    StoreError,
    UnknownOptionError,
)
from .hanabi.methods.portfolio import ENGINES, MAX_TIMEOUT, Proof, Solution, find_line, solve
from .hanabi.methods.strategy import greedy_action, greedy_line
from .hanabi.rules import (
    COLOR_CLUE,
    DISCARD,
    PLAY,
    RANK_CLUE,
    Action,
    Card,
    Game,
    GameRecord,
    Rules,
    State,
    Variant,
    deck_from_seed,
    format_compact,
    game_from_json,
    game_from_seed,
    game_to_json,
    load_file,
    load_text,
    parse_compact,
    parse_variant,
    replay,
)


def _version() -> str:
    """The installed distribution's version (pyproject.toml holds the one number)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanabi-solver")
    except PackageNotFoundError:  # (run from a source tree that was never installed)
        return "unknown"


__all__ = [
    # rules engine
    "Game", "State", "Rules", "Variant", "Action", "Card", "GameRecord", "replay",
    "PLAY", "DISCARD", "COLOR_CLUE", "RANK_CLUE",
    # loaders and writers
    "load_file", "load_text", "game_from_json", "game_from_seed", "deck_from_seed", "parse_variant",
    "parse_compact", "format_compact", "game_to_json",
    # solving
    "solve", "Solution", "Proof", "ENGINES", "MAX_TIMEOUT", "find_line", "greedy_action", "greedy_line",
    # the solution graph (solver.hanabi.analysis.graph, imported on first use: networkx is slow to import)
    "solution_graph", "write_graph",
    # errors
    "MalformedError", "IllegalActionError", "UnknownOptionError", "GraphBudgetError", "GraphTooLargeError",
    "GraphUndecidedError", "StoreError", "SolverError", "MethodsDisagreeError", "EncodingError",
]

_LAZY = {"solution_graph": "solution_graph", "write_graph": "write_graph"}


def __getattr__(name: str):
    """``solver.solution_graph`` and ``solver.write_graph`` import :mod:`solver.hanabi.analysis.graph`
    (and networkx) only when first asked for; ``solver.__version__`` reads the installed
    distribution's metadata then too (it costs milliseconds an import need not pay)."""
    if name == "__version__":
        return _version()
    if name in _LAZY:
        from .hanabi.analysis import graph

        return getattr(graph, _LAZY[name])
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
