"""Solving with the CP-SAT model: seed lines, the two phases of :func:`cpsat_max`
(is the cards' bound reachable? then maximise) and :func:`model_accepts`."""
from __future__ import annotations

import math
import time
from collections.abc import Collection

from ortools.sat.python import cp_model

from solver.errors import EncodingError
from solver.hanabi.methods.strategy import best_greedy_line
from solver.hanabi.rules import DISCARD, PLAY, Action, State
from solver.hanabi.rules.support import check_solvable, deck_text

from .common import CpsatResult, _any_clue
from .model import _Encoding


def greedy_line(state: State, tries: int = 16) -> tuple[int, list[Action]]:
    """A quick line to seed the model: the best of ``tries`` greedy playouts
    (:func:`solver.hanabi.methods.strategy.best_greedy_line`: the plain greedy strategy, then playouts
    that deviate at random). Deterministic. Returns ``(score, actions)``; ``(-1, [])``
    when ``tries`` is 0."""
    if tries <= 0:
        return -1, []
    line, score = best_greedy_line(state, tries)
    return score, line


def _replay(state: State, line) -> tuple[list[Action], State]:
    """Replay ``line`` from ``state``; a clue that is no longer legal (its target's hand
    changed) is replaced by the first legal clue. Returns the applied actions and the end."""
    st = state.copy()
    out: list[Action] = []
    for a in line:
        if st.over:
            break
        if a.is_clue and a not in st.legal_actions():
            a = _any_clue(st, len(out))
        out.append(st.apply(a))
    return out, st


def canonical_line(state: State, line) -> list[Action]:
    """``line`` with the copies of a card renamed as the model's symmetry breaking
    requires: whenever a card is played or discarded from a hand that also holds a
    lower-order copy of it (same suit and rank) not yet used, the two names are swapped from
    that action on. Same hands, same stacks, same score and length; deck plays are left
    alone."""
    g = state.game
    line, _ = _replay(state, line)
    while True:
        st = state.copy()
        for i, a in enumerate(line):
            hand = st.hands[st.current]
            o = a.target
            if a.kind in (PLAY, DISCARD) and o in hand:
                older = [k for k in hand if k < o and g.suit_of[k] == g.suit_of[o] and g.rank_of[k] == g.rank_of[o]]
                if older:
                    k1 = min(older)
                    swap = {k1: o, o: k1}
                    line = line[:i] + [Action(b.kind, swap.get(b.target, b.target)) if b.kind in (PLAY, DISCARD) else b
                                       for b in line[i:]]
                    line, _ = _replay(state, line)
                    break
            st.apply(a)
        else:
            return line


def _seed(state: State, hint, seed_tries: int, seeds: dict):
    """The seed line: the better of the hint (a complete legal line; a partial one is
    ignored) and the greedy playouts, made canonical. Returns ``(line, score)`` or
    ``(None, -1)``."""
    line, score = None, -1
    if hint is not None:
        hint = list(hint)
        end = state.copy()
        for a in hint:
            if end.over:
                break
            end.apply(a)  # raises IllegalActionError if the hint is not a legal line
        if end.over:
            line, score = hint, end.score
            seeds["hint_score"] = score
    greedy_score, greedy = greedy_line(state, seed_tries)
    if greedy:
        seeds["greedy_score"] = greedy_score
        if greedy_score > score:
            line, score = greedy, greedy_score
    if line is not None:
        line = canonical_line(state, line)
        seeds["seed_score"] = score
    return line, score


def _upper0(state: State) -> int:
    """A first upper bound: the cards' bound (:meth:`State.max_reachable`), and at most one more point
    per deck card and per final-round turn (pace)."""
    g = state.game
    turns = g.num_players if state.turns_left is None else state.turns_left
    return min(state.max_reachable(), sum(state.stacks) + state.deck_left + turns)


def _solve(enc: _Encoding, workers: int, time_limit: float | None, params: dict | None):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, int(workers))
    if workers > 1:
        # every worker searches the full problem (no local search or LNS workers: with two
        # cores these took the time the proofs need; measured on hard 2-player decks)
        solver.parameters.num_full_subsolvers = int(workers)
    # The LP relaxation of this model is weak and slows both the proofs and the search for
    # better lines (measured on hard 2-player decks): pure clause-learning search instead.
    solver.parameters.linearization_level = 0
    # Probing in presolve cost more than it saved: about half the time without it (hard
    # 2-player decks, measured by CP-SAT's deterministic time).
    solver.parameters.cp_model_probing_level = 0
    # Clause inprocessing (vivification, subsumption) and the search for big linear
    # overlaps in presolve took most of the deterministic time of the 25-feasibility
    # question on the hard 2-player decks, and a second presolve round gained nothing
    # (scripts/bench_cpsat.py; docs/encodings.md, 2.12).
    solver.parameters.use_sat_inprocessing = False
    solver.parameters.find_big_linear_overlap = False
    solver.parameters.max_presolve_iterations = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
    for key, value in (params or {}).items():
        if isinstance(value, (list, tuple)):  # a repeated field
            getattr(solver.parameters, key).extend(value)
        elif isinstance(value, str) and value.isupper() and hasattr(type(solver.parameters), value):
            setattr(solver.parameters, key, getattr(type(solver.parameters), value))  # an enum by name
        else:
            setattr(solver.parameters, key, value)
    code = solver.solve(enc.model)
    return code, solver


def cpsat_max(
    state: State,
    *,
    hint=None,
    timeout: float | None = None,
    workers: int = 1,
    seed_tries: int = 16,
    params: dict | None = None,
    two_phase: bool = True,
    redundant: bool | Collection[str] = True,
    symmetry: bool = True,
    deterministic_time: float | None = None,
    target: int | None = None,
) -> CpsatResult:
    """Maximise the final score from ``state`` with CP-SAT.

    ``deterministic_time``: a budget in CP-SAT's deterministic time for the whole call
    (its phases share it): the same budget gives the same answer on an idle or a loaded
    machine (``timeout`` is then an outer limit).

    ``hint``: an optional line (engine actions from ``state`` to the end of the game), a
    known good line, e.g. the search's. ``timeout``: seconds for the whole call (None:
    until proven). ``workers``: CP-SAT search workers. ``seed_tries``: greedy playouts
    tried too (0: none); one worker (the default) is deterministic, and
    was faster than two on the shared two-core machine. ``params``: extra CP-SAT parameters by name (e.g.
    ``{"random_seed": 1}``). ``two_phase``: first ask whether the first upper bound U (the
    cards' bound, capped by pace) is reachable at all, before maximising. ``redundant``,
    ``symmetry``: add the implied constraints / the symmetry breaking (for tests; ``redundant``
    may also name the redundant constraints to add, see ``_Encoding.part``). ``target``:
    the score the first phase asks for instead of U ("can the game reach ``target``?", as
    a confirmation asks of best + 1), at most U and above the seed line's score.

    The better of the hint and the greedy line is the seed line, scoring L. If L already
    meets U, the seed line is optimal as it stands (no model is built; ``stats["solved_by"]``
    says so). Otherwise:

    1. *feasibility* (``two_phase``): a model of the lines scoring T..U (T = ``target``,
       by default U), without objective. A solution scoring U is decoded and is optimal; one
       scoring less becomes the seed line; infeasible lowers U to T - 1 (and if U is then
       L, the seed line is optimal).
    2. *maximisation*: a model of the lines scoring L+1..U (every line up to U without a
       seed), maximised. Infeasible proves the seed line optimal; otherwise the solution is
       decoded and replayed.

    On a timeout the best line known (possibly the seed line) is returned as 'feasible'
    with the best proven bound.
    """
    check_solvable(state.game)
    run = _MaxRun(state, {"hint": hint, "timeout": timeout, "workers": workers, "seed_tries": seed_tries,
                          "params": params, "redundant": redundant, "symmetry": symmetry,
                          "deterministic_time": deterministic_time})
    if state.over:
        return run.result("optimal", state.score, state.score, [], "the game is over")
    run.find_seed()
    if run.seed is not None and run.seed_score >= run.upper:
        actions, end = _replay(state, run.seed)
        return run.result("optimal", end.score, end.score, actions, "the seed line reaches the cards' bound")
    if two_phase:
        done = run.feasibility(target)
        if done is not None:
            return done
    return run.maximise()


class _MaxRun:
    """One call of :func:`cpsat_max`: the position, the options, the seed line and the
    upper bound so far, the budgets left, and the statistics of the models solved."""

    def __init__(self, state: State, options: dict):
        self.state = state
        self.t_start = time.perf_counter()
        timeout = options.get("timeout")
        self.deadline = None if timeout is None else self.t_start + timeout
        self.dtime = options.get("deterministic_time")  # what is left of the deterministic budget
        self.options = options
        self.seeds: dict = {"hint_score": None, "greedy_score": None, "seed_score": None}
        self.phases: list[dict] = []
        self.stats = {"variables": 0, "constraints": 0, "turns": 0, "time": 0.0, "build_time": 0.0,
                      "branches": 0, "conflicts": 0, **self.seeds, "phases": self.phases, "solved_by": "cpsat"}
        self.seed: list[Action] | None = None
        self.seed_score = -1
        self.upper = state.score

    def find_seed(self) -> None:
        """The data: the seed line (the hint's or the greedy playouts') and the first upper
        bound."""
        o = self.options
        self.seed, self.seed_score = _seed(self.state, o["hint"], o["seed_tries"], self.seeds)
        self.upper = _upper0(self.state)

    # ---- results ----------------------------------------------------------------------
    def result(self, status: str, score: int | None, upper: int, actions: list[Action],
               how: str | None = None) -> CpsatResult:
        self.stats.update(self.seeds)
        if how is not None:
            self.stats["solved_by"] = how
        self.stats["wall_time"] = time.perf_counter() - self.t_start
        return CpsatResult(status, score, upper, actions, self.stats)

    def no_line(self) -> CpsatResult:
        """A game with fixed stacks (solver.hanabi.methods.split) may have no line at all:
        every one meets a position with no legal action (a dead end of that game)."""
        return self.result("optimal", -1, -1, [], "cpsat: no line, every one meets a position with no legal "
                           "action in the game with fixed stacks")

    def seed_is_optimal(self) -> CpsatResult:
        if self.seed is None:
            raise EncodingError("no seed line to return", deck=deck_text(self.state), method="cpsat")
        actions, end = _replay(self.state, self.seed)
        return self.result("optimal", end.score, end.score, actions, "cpsat: no line beats the seed line")

    def decoded(self, enc: _Encoding, solver: cp_model.CpSolver, status: str, bound: int) -> CpsatResult:
        actions, end = self.checked_line(enc, solver)
        return self.result(status, end.score, max(bound, end.score), actions)

    def checked_line(self, enc: _Encoding, solver: cp_model.CpSolver) -> tuple[list[Action], State]:
        """The solution's line, replayed; it must finish the game with the objective's score."""
        actions, end = enc.decode(solver)
        objective = solver.value(enc.score)
        if not end.over or end.score != objective:
            raise EncodingError(f"decoded line scores {end.score} (over={end.over}), objective {objective}",
                                deck=deck_text(self.state), method="cpsat")
        return actions, end

    def fallback(self, bound: int) -> CpsatResult:
        """Time is up: the seed line (if any) and the bound proven so far."""
        if self.seed is not None:
            actions, end = _replay(self.state, self.seed)
            return self.result("feasible", end.score, max(bound, end.score), actions)
        return self.result("unknown", None, bound, [])

    # ---- budgets and models -----------------------------------------------------------
    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def out_of_time(self) -> bool:
        left = self.left()
        return (left is not None and left <= 0) or (self.dtime is not None and self.dtime <= 0)

    def solve(self, target: int, top: int, maximize: bool) -> tuple[_Encoding, int, cp_model.CpSolver]:
        """Build and solve one model; returns (encoding, status code, solver)."""
        o, stats = self.options, self.stats
        t0 = time.perf_counter()
        enc = _Encoding(self.state, target, upper=top, maximize=maximize, symmetry=o["symmetry"],
                        redundant=o["redundant"])
        if self.seed is not None:
            enc.add_hint(self.seed)  # not a solution (it scores less), but a guide
        t1 = time.perf_counter()
        extra = dict(o["params"] or {})
        if self.dtime is not None:
            extra["max_deterministic_time"] = max(0.001, self.dtime)
        code, solver = _solve(enc, o["workers"], self.left(), extra)
        if self.dtime is not None:
            self.dtime -= solver.response_proto.deterministic_time
        proto = enc.model.proto
        stats["variables"] = max(stats["variables"], len(proto.variables))
        stats["constraints"] = max(stats["constraints"], len(proto.constraints))
        stats["turns"] = enc.E
        stats["time"] += solver.wall_time
        stats["build_time"] += t1 - t0
        stats["branches"] += solver.num_branches
        stats["conflicts"] += solver.num_conflicts
        self.phases.append({"target": target, "upper": top, "objective": maximize,
                            "status": solver.status_name(code), "time": round(solver.wall_time, 3),
                            "build_time": round(t1 - t0, 3),
                            "deterministic_time": round(solver.response_proto.deterministic_time, 3)})
        if code == cp_model.MODEL_INVALID:
            raise EncodingError("the model is invalid", deck=deck_text(self.state), method="cpsat")
        return enc, code, solver

    # ---- the two phases ---------------------------------------------------------------
    def feasibility(self, target: int | None) -> CpsatResult | None:
        """Phase 1: can the game reach U (or the target asked for) at all? A model without
        objective. Returns the answer when it settles the question, else None (phase 2
        follows, with a better seed line or a lower U)."""
        upper = self.upper
        first = upper if target is None else max(min(target, upper), self.seed_score + 1)
        enc, code, solver = self.solve(first, upper, False)
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if solver.value(enc.score) >= upper:
                return self.decoded(enc, solver, "optimal", upper)
            # a line scoring first..U-1: the new seed line, which phase 2 tries to beat
            actions, end = self.checked_line(enc, solver)
            self.seed, self.seed_score = actions, end.score
            self.seeds["seed_score"] = end.score
        elif code != cp_model.INFEASIBLE:
            return self.fallback(upper)
        else:
            self.upper = first - 1
            if self.seed is not None and self.upper <= self.seed_score:
                return self.seed_is_optimal()
            if self.upper < 0:
                if self.state.game.guarded:
                    return self.no_line()
                raise EncodingError("no line at all", deck=deck_text(self.state), method="cpsat")
        if self.out_of_time():
            return self.fallback(self.upper)
        return None

    def maximise(self) -> CpsatResult:
        """Phase 2: maximise over the lines that beat the seed line (up to U)."""
        upper, seed_score = self.upper, self.seed_score
        enc, code, solver = self.solve(seed_score + 1 if self.seed is not None else 0, upper, True)
        if code == cp_model.INFEASIBLE:
            if self.seed is None:  # every legal line up to U is a solution without a seed
                if self.state.game.guarded:
                    return self.no_line()
                raise EncodingError("the model without a seed is infeasible", deck=deck_text(self.state),
                                    method="cpsat")
            return self.seed_is_optimal()
        best = solver.best_objective_bound
        bound = upper if not math.isfinite(best) else min(upper, math.floor(best + 1e-6))
        bound = max(bound, seed_score)  # lines scoring at most seed_score are outside the model
        if code == cp_model.OPTIMAL:
            return self.decoded(enc, solver, "optimal", 0)
        if code == cp_model.FEASIBLE:
            return self.decoded(enc, solver, "feasible", bound)
        return self.fallback(bound)


def model_accepts(state: State, line) -> bool:
    """Whether the model from ``state`` holds ``line`` (a complete legal line, made
    canonical first): every decision variable and counter is fixed to its value along the
    line, and the model must still have a solution with the line's score. For tests and
    debugging: a False is a bug (the model cuts a legal line)."""
    line = list(line)
    if state.over:
        return not line
    line = canonical_line(state, line)
    _, end = _replay(state, line)
    enc = _Encoding(state, end.score, upper=end.score)
    values, score = enc.line_values(line)
    if score != end.score:
        raise EncodingError(f"the model scores the line {score}, the engine {end.score}", deck=deck_text(state),
                            method="cpsat")
    for var, value in values.items():
        enc.model.add(var == value)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    code = solver.solve(enc.model)
    return code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and solver.value(enc.score) == end.score
