"""Solving a SAT encoding: choosing the model, decoding and replaying a model's line
through the engine, sessions answered in deterministic conflict budgets, the maximum
score, and checking DRAT proofs."""
from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

from pysat.solvers import Solver, SolverNames

from solver.common.outputs import write_output
from solver.errors import EncodingError, UnknownOptionError
from solver.hanabi.rules import Action, IllegalActionError, MalformedError, State
from solver.hanabi.rules.support import deck_text

from .common import Encoding, SatMax, SatResult
from .steps import _decode_steps, encode_steps
from .turns import _decode_turns, encode_turns

MODELS = ("steps", "turns")
# the python-sat solver names (pysat.solvers.SolverNames), checked before any work
SOLVER_NAMES = tuple(sorted(k for k in vars(SolverNames) if not k.startswith("_")))


def encode(state: State, target: int, *, model: str = "steps", features: frozenset[str] | None = None) -> Encoding:
    """The CNF for "score >= target is reachable from ``state``" in the given model."""
    if model == "steps":
        return encode_steps(state, target, features=features)
    if model == "turns":
        return encode_turns(state, target, features=features)
    raise UnknownOptionError("SAT model", model, MODELS)


# --------------------------------------------------------------------------------------
# Decode and verify
# --------------------------------------------------------------------------------------
def _decode(enc: Encoding, model: list[int]) -> list[Action]:
    """The model's line as engine actions, replayed through the engine; raises
    :class:`EncodingError` (a bug) if the engine rejects it, or it does not finish the game with at
    least the target."""
    true = {lit for lit in model if lit > 0}
    try:
        actions = _decode_steps(enc, true) if enc.model == "steps" else _decode_turns(enc, true)
    except IllegalActionError as err:
        raise EncodingError(f"decode: the engine rejects the line: {err}", deck=deck_text(enc.data.state),
                            method=f"sat {enc.model}") from err
    st = enc.data.state.copy()
    for a in actions:
        st.apply(a)
    if not st.over:
        raise EncodingError("decode: the line does not finish the game", deck=deck_text(enc.data.state),
                            method=f"sat {enc.model}")
    if st.score < enc.target:
        raise EncodingError(f"decode: the line scores {st.score} < target {enc.target}",
                            deck=deck_text(enc.data.state), method=f"sat {enc.model}")
    return actions


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------
def sat_reachable(
    state: State,
    target: int,
    *,
    timeout: float | None = None,
    solver: str = "cadical195",
    proof_path: str | Path | None = None,
    cnf_path: str | Path | None = None,
    model: str = "steps",
    features: frozenset[str] | None = None,
    conflicts: int | None = None,
) -> SatResult:
    """Can the game, from ``state``, end with a score of at least ``target``?

    ``solver``: a python-sat solver name (``cadical195``, ``glucose4``, ...). ``timeout``
    in seconds (None: no limit) turns a long search into ``'unknown'``; ``conflicts``, a
    deterministic budget in solver conflicts, does the same whatever the machine's load
    (it takes the place of ``timeout``). ``proof_path``:
    when the answer is UNSAT, write the solver's DRAT proof there (use a solver that can
    log proofs, e.g. CaDiCaL or Glucose), with the CNF at ``cnf_path`` (default:
    ``proof_path + '.cnf'``), for :func:`check_drat`; ``cnf_path`` alone writes the CNF.
    ``model``: ``'steps'`` (default) or ``'turns'``. ``features``: which optional
    constraint groups to add (default all; see ``STEP_FEATURES``/``TURN_FEATURES``).
    """
    _check_options(solver, model)
    t0 = time.perf_counter()
    if state.over:
        ok = state.score >= target
        stats = {"variables": 0, "clauses": 0, "turns": 0, "time": 0.0, "encode_time": 0.0,
                 "solve_time": 0.0, "target": target, "model": model, "solver": solver}
        return SatResult("sat" if ok else "unsat", [] if ok else None, stats)
    if proof_path is not None and cnf_path is None:
        cnf_path = str(proof_path) + ".cnf"
    with SatSession(state, target, solver=solver, model=model, features=features,
                    with_proof=proof_path is not None, slices=False) as session:
        if cnf_path is not None:
            write_output(str(cnf_path), session.enc.to_dimacs(), "")
        remaining = None if timeout is None or conflicts is not None else max(0.0, timeout - session.encode_time)
        res = session.run(conflicts, remaining)
    res.stats["time"] = time.perf_counter() - t0
    if res.status == "unsat" and proof_path is not None:
        write_output(str(proof_path), "".join(line + "\n" for line in session.proof or []), "")
        res.stats["proof_path"], res.stats["cnf_path"] = str(proof_path), str(cnf_path)
    return res


def _check_options(solver: str, model: str) -> None:
    if solver not in SOLVER_NAMES:
        raise UnknownOptionError("SAT solver", solver, SOLVER_NAMES)
    if model not in MODELS:
        raise UnknownOptionError("SAT model", model, MODELS)


# conflicts per slice of a sliced CaDiCaL run (pysat's CaDiCaL cannot be interrupted): a
# fixed size, so that the same budget runs the same slices whatever the machine's load
SLICE_CONFLICTS = 5000


class SatSession:
    """One question ("can the game end with at least ``target``?") with its CNF and a
    live solver, answered in budgets of conflicts: each :meth:`run` goes on where the last
    one stopped, learnt clauses kept, so a caller that doubles the budget round by round
    pays for each conflict once. The conflict budget is deterministic: the same budgets
    give the same answers on an idle or a loaded machine; ``timeout`` is only an outer
    safety limit (the answer is then ``'unknown'``). ``with_proof``: the solver logs a
    DRAT proof, kept in ``proof`` when the answer is UNSAT. ``slices``: CaDiCaL spends a
    conflict budget in fixed slices (:meth:`_sliced`, so that a timeout can stop it);
    False: in one call (then give no timeout with a budget). Close it (or use ``with``)
    to free the solver."""

    def __init__(self, state: State, target: int, *, solver: str = "cadical195", model: str = "steps",
                 features: frozenset[str] | None = None, with_proof: bool = False, slices: bool = True):
        _check_options(solver, model)
        if state.over:
            raise MalformedError("SatSession: the game is over")
        t0 = time.perf_counter()
        self.state, self.target, self.solver_name, self.model = state, target, solver, model
        self.enc = encode(state, target, model=model, features=features)
        self.encode_time = time.perf_counter() - t0
        self.solve_time = 0.0
        self.conflicts = 0  # conflicts spent so far
        self.result: SatResult | None = None  # once decided
        self.proof: list[str] | None = None  # the DRAT proof of an UNSAT answer (with_proof)
        self._with_proof, self._slices = with_proof, slices
        kwargs = {"with_proof": True} if with_proof else {}
        self._s: Solver | None = Solver(name=solver, bootstrap_with=self.enc.clauses, **kwargs)

    def run(self, conflicts: int | None, timeout: float | None = None) -> SatResult:
        """Spend up to ``conflicts`` more conflicts (None: no such limit) and at most
        ``timeout`` seconds (None: none)."""
        if self.result is not None:
            return self.result
        if self._s is None:
            raise MalformedError("SatSession: closed")
        s = self._s
        t0 = time.perf_counter()
        if conflicts is None and timeout is None:
            res = s.solve()
        elif self.solver_name.startswith("cadical") and (self._slices or conflicts is None):
            res = self._sliced(s, conflicts, timeout)
        else:
            if conflicts is not None:
                s.conf_budget(conflicts)
            timer = None
            if timeout is not None:
                timer = threading.Timer(timeout, s.interrupt)
                timer.start()
            try:
                res = s.solve_limited(expect_interrupt=timeout is not None)
            finally:
                if timer is not None:
                    timer.cancel()
                    s.clear_interrupt()
        self.solve_time += time.perf_counter() - t0
        self.conflicts = int(s.accum_stats().get("conflicts", 0))
        stats = {"variables": self.enc.pool.top, "clauses": len(self.enc.clauses), "turns": self.enc.length,
                 "time": self.encode_time + self.solve_time, "encode_time": self.encode_time,
                 "solve_time": self.solve_time, "target": self.target, "model": self.model,
                 "solver": self.solver_name, "conflicts": self.conflicts}
        if res is None:
            return SatResult("unknown", None, stats)
        if res:
            self.result = SatResult("sat", _decode(self.enc, s.get_model()), stats)
        else:
            if self._with_proof:
                self.proof = s.get_proof()
            self.result = SatResult("unsat", None, stats)
        self.close()
        return self.result

    @staticmethod
    def _sliced(s: Solver, conflicts: int | None, timeout: float | None) -> bool | None:
        """pysat's CaDiCaL cannot be interrupted: it runs in conflict-budget slices. With a
        conflict budget the slices are fixed (``SLICE_CONFLICTS``: the same budget runs
        the same slices whatever the load); with a timeout alone they are sized from the
        measured conflict rate. Learnt clauses are kept between slices."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        left, budget, res = conflicts, 2000, None
        while (left is None or left > 0) and (deadline is None or time.perf_counter() < deadline):
            step = min(left, SLICE_CONFLICTS) if left is not None else budget
            t0 = time.perf_counter()
            s.conf_budget(step)
            res = s.solve_limited()
            if res is not None:
                break
            if left is not None:
                left -= step
            elif deadline is not None:
                took = max(time.perf_counter() - t0, 1e-3)
                budget = int(max(1000, min(budget / took * min(deadline - time.perf_counter(), 5.0), 4 * budget)))
        return res

    def close(self) -> None:
        if self._s is not None:
            self._s.delete()
            self._s = None

    def __enter__(self) -> SatSession:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _line_score(state: State, actions: list[Action]) -> int:
    st = state.copy()
    for a in actions:
        st.apply(a)
    return st.score


def sat_max(
    state: State,
    *,
    timeout: float | None = None,
    lower: int = 0,
    upper: int | None = None,
    solver: str = "cadical195",
    model: str = "steps",
) -> SatMax:
    """The maximum final score from ``state``, by a series of :func:`sat_reachable` calls.

    The first target is ``upper`` (default: the position's max reachable score, which
    ignores time and so bounds the maximum); if it is UNSAT, a binary search follows
    between the best line found (or ``lower``, a score believed reachable, e.g. from a
    heuristic) and the proven bound. A SAT answer raises the floor to the line's actual
    score, an UNSAT one lowers the bound, so the expensive UNSAT calls stay few. If
    ``lower`` turns out to be unreachable the search carries on below it.

    ``timeout`` bounds the total time; when it runs out, ``exact`` is False,
    ``upper_bound`` is the bound proven so far and ``max_score`` the best line found (-1
    and no actions if none was found).
    """
    t0 = time.perf_counter()
    calls: list[dict] = []
    if state.over:
        return SatMax(state.score, True, state.score, [], {"calls": calls, "time": 0.0})
    ub = state.max_reachable() if upper is None else upper
    ub = max(0, min(ub, state.game.perfect_score))
    lo = max(0, min(lower, ub))          # believed reachable; proven once best >= lo
    best, best_actions = -1, None
    target = ub
    while True:
        left = None if timeout is None else timeout - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        r = sat_reachable(state, target, timeout=left, solver=solver, model=model)
        calls.append({"target": target, "status": r.status,
                      **{k: r.stats[k] for k in ("variables", "clauses", "turns", "time")}})
        if r.status == "unknown":
            break
        if r.status == "sat":
            if r.actions is None:
                raise EncodingError("sat_max: a 'sat' answer came without its line")
            best, best_actions = _line_score(state, r.actions), r.actions
            lo = best
        else:
            ub = target - 1
            lo = min(lo, ub)
        if best >= ub or ub < 0:
            break
        # next: halfway between the floor and the bound (the floor itself while no line
        # reaches it yet and nothing lies between)
        target = (lo + ub + 1) // 2 if lo < ub else lo
    ub = max(ub, best)
    stats = {"calls": calls, "time": time.perf_counter() - t0}
    return SatMax(best, best == ub, ub, best_actions or [], stats)


def check_drat(cnf_path: str | Path, proof_path: str | Path, *, timeout: float | None = None) -> bool | None:
    """Check a DRAT proof of unsatisfiability with ``drat-trim`` if it is on the PATH;
    None if it is not. True when drat-trim answers ``s VERIFIED``."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    args = [exe, str(cnf_path), str(proof_path)]
    if timeout is not None:
        args += ["-t", str(int(max(1, timeout)))]
    try:
        out = subprocess.run(args, capture_output=True, text=True,
                             timeout=None if timeout is None else timeout + 10)
    except subprocess.TimeoutExpired:
        return False
    return "s VERIFIED" in out.stdout
