"""``solve`` for Up or Down and Sudoku: the best over the games with fixed stacks.

:mod:`solver.hanabi.methods.split` turns the position into one ordinary game per way its stacks can go
(a fixing). Each is solved by the usual methods, most promising first (by its named bound),
with the best real score so far as a floor: a fixing whose bound does not beat it is done
without a search, another is searched only for a line above it. Every line found is
replayed in the real engine (:func:`solver.hanabi.methods.split.to_real`), and only its real score counts.

The games solved for lines forbid the misplays the real game would play (the guards). In
Sudoku the guards forbid exactly those, so each game's bound is a bound of the real
position's lines that build the stacks that way. In Up or Down they forbid one misplay more
(a 4 on a stack of height 1 that was started by its 1, not its START card: the fixed game
cannot tell the two apart), so a bound there comes from the game without guards, which
allows every misplay: where the guarded game's maximum is not already held down by its named
bound, that game is solved too, with the same floor.

The answer is exact when every fixing is bounded by the best real line: by a named bound,
or by two independent methods (as for any solve); the proof names how many fixings each
settled.
"""
from __future__ import annotations

import time

from solver.errors import SearchTimeout
from solver.hanabi.rules import Action, State
from solver.hanabi.search.kernel import Position, Search, named_bound

from . import split
from .run import (
    METHOD_NAMES,
    Proof,
    Run,
    Solution,
    deadline_seconds,
    fallback_line,
    solve_encoding,
    to_engine_line,
)

# how a fixing's bound was settled: by a named bound, by two methods, by one, or not at all
_BOUND, _TWO, _ONE, _OPEN = "bound", "two", "one", "open"


def solve_split(state: State, *, timeout: float | None, node_limit: int | None, confirm: bool,
                engine: str) -> Solution:
    """:func:`solver.solve` for a game whose stacks are fixed before solving
    (:func:`solver.hanabi.methods.split.needs_split`); the same arguments. The budget (``timeout``,
    ``node_limit``) is each fixed game's."""
    g = state.game
    t0 = time.monotonic()
    best_line, best = fallback_line(state)
    best_fixing: tuple[int, ...] | None = None
    exact_guards = split.exact_guards(g)
    # (a named bound counts no misplay: it bounds the game without guards too)
    cands = _ranked(state)
    settled: dict[tuple[int, ...], tuple[int, str, tuple[str, ...]]] = {}  # fixing -> (upper, how, methods)
    solved = 0
    for ub, f, fs in cands:
        if ub <= best:
            settled[f] = (ub, _BOUND, ("bound",))
            continue
        solved += 1
        sol = _solve_one(fs, engine, timeout, node_limit, confirm, best)
        if sol.actions:
            line, score, _ = split.to_real(state, fs, sol.actions)  # (guarded: the same line)
            if score > best:
                best_line, best, best_fixing = line, score, f
        if exact_guards or ub <= best:
            settled[f] = _settled(sol, ub, best)
            continue
        # Up or Down: the bound of the game without guards (every misplay allowed)
        free = split.fixed_state(state, f, guarded=False)
        sol = _solve_one(free, engine, timeout, node_limit, confirm, best)
        if sol.actions:
            line, score, _ = split.to_real(state, free, sol.actions)
            if score > best:
                best_line, best, best_fixing = line, score, f
        settled[f] = _settled(sol, ub, best)
    upper = max(max(u for u, _, _ in settled.values()), best)
    stats: dict[str, object] = {"fixings": len(cands), "fixings_solved": solved,
                                "time": round(time.monotonic() - t0, 4)}
    if best_fixing is not None:
        stats["fixing"] = split.fixing_text(g, best_fixing)
    exact, proof = _proof(state, settled, best, upper)
    return Solution(best, upper, exact, best_line, proof, stats)


def _ranked(state: State) -> list[tuple[int, tuple[int, ...], State]]:
    """The games with fixed stacks (guarded), by their named bound, highest first:
    (bound, fixing, position)."""
    out = []
    for f in split.fixings(state):
        fs = split.fixed_state(state, f)
        out.append((named_bound(Position(fs))[0], f, fs))
    out.sort(key=lambda c: -c[0])  # (stable: fixings in their order within a bound)
    return out


def find_line_split(state: State, target: int, *, node_limit: int | None = None,
                    timeout: float | None = None) -> list[Action] | None:
    """:func:`solver.find_line` for a game whose stacks are fixed before solving: the
    search in each game with fixed stacks whose bound admits ``target``, in turn, within
    ``node_limit`` nodes in all and ``timeout`` seconds; the line replayed in the real
    engine."""
    deadline = None if timeout is None else time.monotonic() + timeout
    nodes = 0
    for ub, _, fs in _ranked(state):
        if ub < target:
            break
        limit = None if node_limit is None else node_limit - nodes
        if limit is not None and limit <= 0:
            return None
        search = Search(Position(fs), deadline, limit)
        try:
            ok = search.reach(target)
        except SearchTimeout:
            return None
        finally:
            nodes += search.nodes
        if ok:
            line, score, _ = split.to_real(state, fs, to_engine_line(fs, search.line))
            if score >= target:
                return line
    return None


def _solve_one(fs: State, engine: str, timeout, node_limit, confirm: bool, floor: int) -> Solution:
    """One fixed game, by ``engine``, for a line above ``floor`` or a proof that none is."""
    limit = deadline_seconds(timeout, engine)
    deadline = None if limit is None else time.monotonic() + limit
    if fs.over:
        return Solution(fs.score, fs.score, True, [], Proof("over", "the game is over", ("rules",)))
    if engine in ("sat", "cpsat"):
        return solve_encoding(fs, engine, deadline)
    run = Run(fs, deadline, node_limit, use_sat=engine == "portfolio", timeout=timeout, floor=floor)
    try:
        run.main_loop()
        return run.result(confirm)
    finally:
        run.close()


def _settled(sol: Solution, ub: int, best: int) -> tuple[int, str, tuple[str, ...]]:
    """A solved fixing's bound and how it stands: (upper bound, how, methods)."""
    if ub <= best:  # (its named bound, once a better line was found elsewhere)
        return ub, _BOUND, ("bound",)
    upper = min(sol.upper_bound, ub)
    methods = sol.proof.methods
    if sol.exact:
        how = _BOUND if methods == ("bound",) or sol.proof.kind not in ("search", "unconfirmed", "open") else _TWO
        return upper, how, methods
    return upper, _ONE if sol.proof.kind == "unconfirmed" else _OPEN, methods


def _proof(state: State, settled, best: int, upper: int) -> tuple[bool, Proof]:
    g = state.game
    n = len(settled)
    ways = "directions" if g.up_or_down else "starts"
    if best == upper == g.perfect_score:
        return True, Proof("perfect", f"the perfect score of {g.variant.name} is {g.perfect_score}", ("bound",))
    counts: dict[str, int] = {}
    methods: set[str] = set()
    for _, how, ms in settled.values():
        counts[how] = counts.get(how, 0) + 1
        methods.update(ms)
    parts = []
    if counts.get(_BOUND):
        parts.append(f"{counts[_BOUND]} by a named bound")
    if counts.get(_TWO):
        named = sorted(m for m in methods if m not in ("bound", "rules"))
        parts.append(f"{counts[_TWO]} by two methods ({', '.join(METHOD_NAMES[m] for m in named)})")
    if counts.get(_ONE):
        parts.append(f"{counts[_ONE]} by one method only")
    if counts.get(_OPEN):
        parts.append(f"{counts[_OPEN]} open")
    what = (f"the {n} ways the stacks' {ways} can be fixed (each an ordinary game: docs/variants.md), "
            f"bounded by {upper}: " + ", ".join(parts))
    ms = tuple(sorted(methods - {"rules"}))
    if best < upper:
        return False, Proof("open", f"at least {best}, at most {upper}: {what}", ms)
    if counts.get(_OPEN) or counts.get(_ONE):
        return False, Proof("unconfirmed", f"at least {best}, at most {upper}: {what}; not every one confirmed by "
                            f"a second, independent method", ms)
    return True, Proof("split", f"no line reaches {best + 1}: {what}", ms)
