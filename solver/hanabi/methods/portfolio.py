"""``solve``: the maximum score reachable from a position, with an optimal line and a proof;
``find_line``: a line reaching a target. An ordinary game is solved by one portfolio run
(:mod:`.run`), Up or Down and Sudoku by one per way the stacks can go (:mod:`.splitsolve`).
The records and budgets of a run are named here too, as the API gives them."""
from __future__ import annotations

import time

from solver.errors import SearchTimeout, UnknownOptionError
from solver.hanabi.rules import Action, Game, GameRecord, MalformedError, State, as_state
from solver.hanabi.search.kernel import Position, Search

from .run import (
    CONFIRM_CPSAT_DTIME,
    DEADLINE_FACTOR,
    ENGINES,
    MAX_TIMEOUT,
    ROUND_SECONDS,
    Proof,
    Run,
    Solution,
    budget,
    deadline_seconds,
    replay_score,
    rounds_for,
    search_line,
    solve_encoding,
    to_engine_line,
)
from .split import needs_split
from .splitsolve import find_line_split, solve_split

__all__ = ["CONFIRM_CPSAT_DTIME", "DEADLINE_FACTOR", "ENGINES", "MAX_TIMEOUT", "ROUND_SECONDS", "Proof", "Solution",
           "budget", "deadline_seconds", "find_line", "replay_score", "rounds_for", "search_line", "solve",
           "to_engine_line"]


def find_line(source: State | Game | GameRecord, target: int, *, node_limit: int | None = None,
              timeout: float | None = None) -> list[Action] | None:
    """A line from ``state`` to the end of the game scoring at least ``target``, if the
    exhaustive search finds one within ``node_limit`` nodes (deterministic) and
    ``timeout`` seconds; else None (none exists, or the budget ran out first). The line is
    replayed through the rules engine. ``source`` is taken as :func:`solve` takes it."""
    state = as_state(source, "find_line")
    if state.over:
        return [] if state.score >= target else None
    if needs_split(state.game):  # Up or Down, Sudoku: in each game with fixed stacks in turn
        return find_line_split(state, target, node_limit=node_limit, timeout=timeout)
    deadline = None if timeout is None else time.monotonic() + timeout
    search = Search(Position(state), deadline, node_limit)
    try:
        if not search.reach(target):
            return None
    except SearchTimeout:
        return None
    return to_engine_line(state, search.line)


def solve(source, *, timeout: float | None = None, node_limit: int | None = None,
          confirm: bool = True, engine: str = "portfolio") -> Solution:
    """The maximum score reachable from ``source`` (a :class:`State`; a :class:`Game`, which
    means its initial state; or what a loader returns, a :class:`GameRecord`: its game from
    the start) when every card is visible.

    Returns the best line found (replayed in the engine), the proven upper bound with its
    reason, and whether the two meet. Three methods take turns with doubling node budgets,
    so a timeout still leaves the tightest bounds found:

    - the search at the top target ("can we reach the upper bound?"),
    - the search at the bottom ("can we beat the best line?"),
    - the relaxed game with unlimited clues at the top target (a "no" lowers the bound).

    A maximum below the perfect score is reported exact only when its bound is a named
    argument, or when two independent methods prove the next score unreachable (with
    ``confirm``, a second method is run when only one has).

    ``engine``: ``portfolio`` (the default, as above), ``search`` (the search and the
    relaxed game only, no encodings), ``sat`` or ``cpsat`` (that encoding alone: its
    line and its proven bound; a maximum below perfect is then never reported exact).

    ``timeout`` (seconds) is a budget: the work it buys is counted in deterministic units
    (:func:`budget`: about that many seconds on the benchmark machine), so the answer is the
    same on any machine; the wall clock stops the solve at ``DEADLINE_FACTOR`` times it in
    any case (for ``sat``/``cpsat`` alone, at the timeout: they have no counted budget).
    With a timeout or ``node_limit`` the answer may be "at least max_score, at most
    upper_bound"."""
    if engine not in ENGINES:
        raise UnknownOptionError("engine", engine, ENGINES)
    state = as_state(source, "solve")
    for name, value in (("timeout", timeout), ("node_limit", node_limit)):
        if value is not None and not value >= 0:  # also rejects nan
            raise MalformedError(f"solve: {name} must be 0 or more, got {value!r}")
    if timeout is not None and timeout > MAX_TIMEOUT:  # inf too: the timers cannot wait that long
        raise MalformedError(f"solve: timeout must be at most {MAX_TIMEOUT:.0f} s (None for no limit), got {timeout!r}")
    t0 = time.monotonic()
    limit = deadline_seconds(timeout, engine)
    deadline = None if limit is None else t0 + limit
    if state.over:
        return Solution(state.score, state.score, True, [], Proof("over", f"the game is over ({state.end_reason})",
                        ("rules",)), {"nodes": 0, "time": 0.0})
    if needs_split(state.game):  # Up or Down, Sudoku: one ordinary game per way the stacks can go
        sol = solve_split(state, timeout=timeout, node_limit=node_limit, confirm=confirm, engine=engine)
    elif engine in ("sat", "cpsat"):
        sol = solve_encoding(state, engine, deadline)
    else:
        run = Run(state, deadline, node_limit, use_sat=engine == "portfolio", timeout=timeout)
        try:
            run.main_loop()
            sol = run.result(confirm)
        finally:
            run.close()
    sol.stats["time"] = round(time.monotonic() - t0, 4)
    return sol
