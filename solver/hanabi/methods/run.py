"""One run of the portfolio on an ordinary game (:class:`Run`: the bounds, the best line,
and which method proved what), what it returns (:class:`Solution` with its :class:`Proof`),
its budgets, and the lines it replays through the rules engine. :func:`solver.solve`
(:mod:`.portfolio`) runs it on the position, or once per fixing of the stacks for Up or
Down and Sudoku (:mod:`.splitsolve`)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from solver.errors import EncodingError, MethodsDisagreeError, SearchTimeout
from solver.hanabi.rules import DISCARD, PLAY, Action, IllegalActionError, MalformedError, State
from solver.hanabi.rules.support import deck_text
from solver.hanabi.search.kernel import CLUE, ORDERS, Position, RelaxedSearch, Search, named_bound  # pure or compiled

from .strategy import greedy_line


@dataclass(frozen=True)
class Proof:
    """Why nothing above ``upper_bound`` is reachable.

    kind: ``perfect`` (the variant's maximum), ``discards``/``pace``/``late_cards``/
    ``capacity``/``final_round`` (a named static argument), ``search`` (two independent
    methods proved the next score unreachable: see ``methods``), ``unconfirmed`` (one
    method proved the bound; the maximum is not reported exact), ``open`` (timed out
    between the bounds), ``over`` (the game has ended)."""

    kind: str
    reason: str
    methods: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"kind": self.kind, "reason": self.reason, "methods": list(self.methods)}


@dataclass
class Solution:
    max_score: int  # the best score of the returned line (a lower bound when not exact)
    upper_bound: int
    exact: bool
    actions: list[Action]
    proof: Proof
    stats: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "max_score": self.max_score,
            "upper_bound": self.upper_bound,
            "exact": self.exact,
            "actions": [a.to_json() for a in self.actions],
            "proof": self.proof.to_json(),
            "stats": self.stats,
        }


def to_engine_line(state: State, moves) -> list[Action]:
    """Turn the search's abstract moves into engine actions, replaying each through the
    rules engine (``apply`` validates every one). A clue stall becomes a real clue:
    :meth:`State.first_clue` (the next player first; of the type the move names, where
    Alternating Clues binds)."""
    return engine_line(state, moves)[0]


def engine_line(state: State, moves) -> tuple[list[Action], State]:
    """:func:`to_engine_line` and the position it ends in (one replay for both)."""
    st = state.copy()
    out = []
    for kind, o in moves:
        if kind == CLUE:
            act = st.first_clue(o if o >= 0 else None)
            if act is None:
                raise EncodingError(f"the search stalls at turn {st.turn} but no clue is legal",
                                    deck=deck_text(state), method="search")
        else:
            act = Action(PLAY if kind == 0 else DISCARD, o)
        out.append(st.apply(act))
    return out, st


def replay_score(state: State, actions) -> int:
    """The final score of ``actions`` from ``state``, replayed in the engine; the line must
    end the game."""
    return final_score(state.copy().apply_all(actions, "line action"), len(actions))


def final_score(end: State, length: int) -> int:
    """The score a line of ``length`` actions ends with, from the position ``end`` it led
    to; the line must end the game."""
    if not end.over:
        raise IllegalActionError(f"line of {length} actions does not end the game")
    return end.score


def search_line(state: State, moves) -> tuple[list[Action], int]:
    """The search's abstract ``moves`` as engine actions, and the score they end the game
    with (replayed once: :func:`engine_line`, :func:`final_score`)."""
    line, end = engine_line(state, moves)
    return line, final_score(end, len(line))


# The budget of each confirming method ("is the next score really unreachable?"), in
# deterministic units: the search's and the relaxed game's nodes, CP-SAT's deterministic
# time (about 20 s of either on the hard 2-player decks), SAT's conflicts (below). A solve
# given a timeout longer than CONFIRM_SCALE_SECONDS scales them by timeout / that (the
# timeout asked for, not the time left, so the budget stays the same on a loaded machine).
CONFIRM_NODES = 400_000
CONFIRM_CPSAT_DTIME = 15.0
CONFIRM_SCALE_SECONDS = 40.0
# Search nodes per target in the first round (doubling each round), by player count: with
# 2-4 players a deck the search cannot settle in a few thousand nodes goes to SAT sooner
# (scripts/bench_solve.py: 2p mean 29 -> 22 ms, hard 2p decks 1.9 -> 1.3 s); with 5-6
# players the SAT model is larger and the longer search pays.
# With 5-6 players each round runs the search in SEARCH_ORDERS of the child orders
# (dfs.ORDERS) in turn, each with the round's nodes: on the slowest decks of 1,000 random
# 6-player ones, where one order needed 150,000 to 400,000 nodes (or more) to find the
# perfect line, another often finds it in a few hundred (scripts/bench_solve.py).
FIRST_BUDGET = {2: 2000, 3: 2000, 4: 2000, 5: 10000, 6: 10000}
SEARCH_ORDERS = {2: 1, 3: 1, 4: 1, 5: 3, 6: 3}
# The SAT solver the portfolio asks (python-sat name), by player count. With 3-6 players
# the question is nearly always "find the perfect line", where MiniSat 2.2 was faster
# (scripts/bench_solve.py: random 3p/4p/6p mean 4.7/7.6/23.4 -> 2.9/3.8/18.5 ms); with 2
# players many answers are proofs of "unreachable", where CaDiCaL had the shorter tail
# (with MiniSat 2 of the 154 hard_2p decks stayed open at 10 s). CaDiCaL is also the
# encoding's own default, for DRAT proofs.
SAT_SOLVER = {2: "cadical195", 3: "minisat22", 4: "minisat22", 5: "minisat22", 6: "minisat22"}
# The SAT budget of the first round, in the solver's conflicts (doubling each round; a
# target's solver is kept from round to round, so each round goes on where the last one
# stopped): deterministic, so a deck gets the same answer on an idle or a loaded machine;
# the deadline is only an outer limit. About 2-4 s of CaDiCaL on the hard 2-player decks.
FIRST_SAT_CONFLICTS = 20_000
# Where the SAT encoding does not apply (Alternating Clues where it binds: docs/variants.md)
# CP-SAT takes its place in the main loop, with this deterministic time in the first round
# (doubling each round).
FIRST_CPSAT_DTIME = 0.5
# ... and the search there, whose moves keep misplays and every discard (no stall is as
# good as another), gets this many times the first round's nodes
ALTERNATION_NODES = 16
# CP-SAT's model there is large (a clue type per clue, per player and event) and takes
# seconds to build and presolve, where the search often finds the line in its first rounds:
# CP-SAT joins the main loop from this round on (its dtime as if it had run from the first)
ALTERNATION_CPSAT_ROUND = 3
# The SAT budget of a confirmation ("is the next score really unreachable?").
CONFIRM_SAT_CONFLICTS = 200_000


# The main loop's rounds, deterministic: a timeout of T seconds buys the rounds whose
# work, at the first round's cost below doubling each round, fits in WORK_SHARE * T on
# the benchmark machine (2 cores; CPU seconds of round 0, search and SAT, measured on
# decks that go several rounds: 6 players 1.0-1.2 s; 2 players 0.5 s for a round whose SAT
# call ended after 3,800 of its 20,000 conflicts, so 1.0 is on the safe side). So a machine up
# to 1 / WORK_SHARE times slower or busier still runs every round before the deadline,
# and gives the same answer; the deadline is the outer limit.
ROUND_SECONDS = {2: 1.0, 3: 1.0, 4: 1.0, 5: 1.2, 6: 1.2}
WORK_SHARE = 0.5
# The wall-clock limit of a solve given a timeout of T: DEADLINE_FACTOR * T. The budget a
# timeout buys is work measured in deterministic units (the rounds above, the
# confirmations' conflicts, deterministic time and nodes), about T seconds of it on the
# benchmark machine; the deadline is only the outer safety limit, far enough out that a
# machine twice as slow or busy still spends the whole budget (the same answer).
DEADLINE_FACTOR = 2.0


def deadline_seconds(timeout: float | None, engine: str = "portfolio") -> float | None:
    """The wall-clock limit, in seconds from the start, of a solve by ``engine`` given
    ``timeout`` (None: none): ``DEADLINE_FACTOR`` times it, except for the encodings run
    alone (``sat``, ``cpsat``), which have no deterministic budget: the timeout is theirs."""
    if timeout is None:
        return None
    return timeout * (1.0 if engine in ("sat", "cpsat") else DEADLINE_FACTOR)


def rounds_for(timeout: float, players: int) -> int:
    """The main loop's rounds that a ``timeout`` buys (at least one)."""
    work = WORK_SHARE * timeout / ROUND_SECONDS[players]
    r = 1
    while (1 << (r + 1)) - 1 <= work:
        r += 1
    return r


def budget(timeout: float | None, players: int) -> dict:
    """The deterministic budget of ``solve(game, timeout=timeout)`` (the portfolio) for a
    game of ``players``: the ``timeout`` asked for (None: no limit), the wall-clock
    ``deadline`` it sets (``DEADLINE_FACTOR`` times it: only an outer limit), the main
    loop's ``rounds`` it buys (:func:`rounds_for`; None: until solved), the ``scale`` of
    the confirmations (``timeout / CONFIRM_SCALE_SECONDS``, at least 1), the first round's
    search nodes (``first_nodes``, in each of ``search_orders`` child orders) and SAT
    conflicts (``first_sat_conflicts``; both doubling each round), and the budgets of a
    confirmation: SAT conflicts, CP-SAT deterministic time, the relaxed game's and the
    search's nodes. The solve reads its budgets from here.
    Plain JSON values: the result store keeps them with each row."""
    if players not in FIRST_BUDGET:
        raise MalformedError(f"budget: bad player count {players!r}: must be 2 to 6")
    if timeout is not None and not timeout >= 0:  # also rejects nan
        raise MalformedError(f"budget: timeout must be 0 or more, got {timeout!r}")
    scale = 1.0 if timeout is None else max(1.0, timeout / CONFIRM_SCALE_SECONDS)
    return {
        "timeout": None if timeout is None else float(timeout),
        "deadline": deadline_seconds(timeout),
        "rounds": None if timeout is None else rounds_for(timeout, players),
        "scale": scale,
        "first_nodes": FIRST_BUDGET[players],
        "search_orders": SEARCH_ORDERS[players],
        "first_sat_conflicts": FIRST_SAT_CONFLICTS,
        "confirm_sat_conflicts": int(CONFIRM_SAT_CONFLICTS * scale),
        "confirm_cpsat_dtime": CONFIRM_CPSAT_DTIME * scale,
        "confirm_nodes": int(CONFIRM_NODES * scale),
    }


def _sat_module():
    try:
        from .sat import SatSession
    except ImportError:  # pragma: no cover - the encodings are part of the package
        return None
    return SatSession


METHOD_NAMES = {
    "bound": "a named bound",
    "search": "the exhaustive search",
    "relaxed": "the relaxed game (unlimited clues)",
    "sat": "the SAT encoding",
    "cpsat": "the CP-SAT encoding",
}


ENGINES = ("portfolio", "search", "sat", "cpsat")


MAX_TIMEOUT = 1e7  # seconds (~115 days): longer waits overflow the platform's timers (threading.TIMEOUT_MAX)


class Run:
    """One solve: the bounds, the best line, and which method proved what."""

    def __init__(self, state: State, deadline, node_limit, use_sat: bool = True, timeout: float | None = None,
                 floor: int = -1):
        self.state = state
        # the budgets (deterministic; the confirmations' grow with the timeout asked for)
        self.budget = budget(timeout, state.game.num_players)
        self.deadline = deadline
        self.node_limit = node_limit
        pos = Position(state)
        self.static_ub, self.static_kind, self.static_reason = named_bound(pos)
        self.upper = self.static_ub
        # the best line so far, first the greedy one (on random decks it is often perfect,
        # and then no search runs at all)
        self.best_line, self.best = fallback_line(state)
        # ``floor``: a score known reachable another way (solver.hanabi.methods.splitsolve: in another
        # fixed game); only a line above it is wanted, and the bound is proved down to it.
        # Until such a line is found the best line is empty.
        if floor > self.best:
            self.best_line, self.best = [], floor
        self.search = Search(pos, deadline)
        self._relaxed: RelaxedSearch | None = None  # made on first use
        self.relaxed_open = True  # False once the relaxed game reaches the current top
        self.unreachable: dict[int, set[str]] = {}  # target -> methods proving it unreachable
        self.attempts: list[dict] = []
        self.timed_out = False  # the deadline (or the node limit) passed
        self.spent = False  # every round the budget buys has run
        self.rounds = 0
        self.use_sat = use_sat and _sat_module() is not None
        self._sessions: dict = {}  # target -> its SatSession, kept across rounds until decided

    def close(self) -> None:
        """Free the SAT solvers still open."""
        for session in self._sessions.values():
            session.close()
        self._sessions.clear()

    @property
    def relaxed(self) -> RelaxedSearch:
        """The relaxed game's search, with its own position (made on first use)."""
        if self._relaxed is None:
            self._relaxed = RelaxedSearch(Position(self.state), self.deadline)
        return self._relaxed

    def _relaxed_nodes(self) -> int:
        return self._relaxed.nodes if self._relaxed is not None else 0

    def _nodes(self) -> int:
        return self.search.nodes + self._relaxed_nodes()

    def _attempt(self, method: str, engine, target: int, budget: int, order: int = 0):
        """Run one engine at one target within ``budget`` nodes: True, False or None; the
        search in the child ``order`` (one of ``dfs.ORDERS``), every run setting its own."""
        if engine is self.search:
            engine.order = order
        limit = engine.nodes + budget
        if self.node_limit is not None:
            limit = min(limit, engine.nodes + max(0, self.node_limit - self._nodes()))
        engine.node_limit = limit
        t1 = time.monotonic()
        n1 = engine.nodes
        try:
            ok = engine.reach(target)
        except SearchTimeout:
            ok = None
            if (self.deadline is not None and time.monotonic() >= self.deadline) or (
                    self.node_limit is not None and self._nodes() >= self.node_limit):
                self.timed_out = True
        attempt = {"method": method, "target": target, "result": "budget" if ok is None else ok,
                   "nodes": engine.nodes - n1, "time": round(time.monotonic() - t1, 4)}
        if engine is self.search:
            attempt["order"] = self.search.order
        self.attempts.append(attempt)
        return ok

    def _proved_unreachable(self, target: int, method: str):
        self.unreachable.setdefault(target, set()).add(method)
        if target <= self.upper:
            self.upper = target - 1
        for t in [t for t in self._sessions if t > self.upper]:  # questions settled: solvers freed
            self._sessions.pop(t).close()

    def _search_top_bottom(self, budget: int):
        """The search at the top target, then just above the best line, each in the
        budget's child orders in turn until one settles it; a target is not searched twice
        with the same budget and order (the best line one short of the top)."""
        for target in dict.fromkeys((self.upper, self.best + 1)):
            for order in ORDERS[:self.budget["search_orders"]]:
                if self.best >= self.upper or self.timed_out:
                    return
                ok = self._attempt("search", self.search, target, budget, order)
                if ok:
                    line, score = search_line(self.state, self.search.line)
                    if score > self.best:
                        self.best_line, self.best = line, score
                    break
                if ok is False:
                    self._proved_unreachable(target, "search")
                    break

    def _left(self) -> float | None:
        """Seconds the deadline leaves (None: no deadline)."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _sat(self, target: int, conflicts: int):
        """SAT at one target, ``conflicts`` more conflicts at most (the deadline an outer
        limit): True (line found), False (unsatisfiable) or None."""
        session_class = _sat_module()
        left = self._left()
        if session_class is None or (left is not None and left <= 0.05):
            return None
        if self.state.game.alternation_binds:  # (not modelled there: the search and CP-SAT are the two)
            return None
        t1 = time.monotonic()
        solver = SAT_SOLVER[self.state.game.num_players]
        session = self._sessions.get(target)
        if session is None:
            session = self._sessions[target] = session_class(self.state, target, solver=solver)
        res = session.run(conflicts, timeout=self._left())
        if res.status != "unknown":
            del self._sessions[target]
        self.attempts.append({"method": "sat", "solver": solver, "target": target, "result": res.status,
                              "conflicts": res.stats["conflicts"], "time": round(time.monotonic() - t1, 4)})
        if res.status == "sat":
            score = replay_score(self.state, res.actions)
            if score > self.best:
                self.best_line, self.best = list(res.actions), score
            return True
        if res.status == "unsat":
            self._proved_unreachable(target, "sat")
            return False
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.timed_out = True
        return None

    def main_loop(self):
        budget, conflicts = self.budget["first_nodes"], self.budget["first_sat_conflicts"]
        dtime = FIRST_CPSAT_DTIME
        if self.state.game.alternation_binds:  # its search keeps every misplay and discard: more nodes
            budget *= ALTERNATION_NODES
        rounds = self.budget["rounds"]
        while self.best < self.upper and not self.timed_out:
            if rounds is not None and self.rounds >= rounds:
                self.spent = True  # the budget, not the clock, ends the search
                break
            self.rounds += 1
            self._search_top_bottom(budget)
            if self.use_sat and self.best < self.upper and not self.timed_out:
                if self.state.game.alternation_binds:  # no SAT model there: CP-SAT instead,
                    if self.rounds >= ALTERNATION_CPSAT_ROUND:  # once the search had its first rounds
                        self._cpsat(dtime)
                else:
                    self._sat(self.upper, conflicts)
            # without the encodings, the relaxed game is the other way to lower the bound
            if not self.use_sat and self.relaxed_open and self.best < self.upper and not self.timed_out:
                target = self.upper
                ok = self._attempt("relaxed", self.relaxed, target, budget)
                if ok:
                    self.relaxed_open = False
                elif ok is False:
                    self._proved_unreachable(target, "relaxed")
            budget *= 2
            conflicts *= 2
            dtime *= 2

    def _cpsat(self, dtime: float):
        """CP-SAT maximises the score from the position, seeded with the best line, within
        ``dtime`` of its deterministic time (the deadline an outer limit); its proven
        bound counts as a proof for every target above it."""
        left = self._left()
        if left is not None and left <= 0.05:
            return
        try:
            from .cpsat import cpsat_max
        except ImportError:  # pragma: no cover
            return
        left = self._left()  # again: the first import (OR-Tools) takes about 0.3 s
        if left is not None and left <= 0.05:
            return
        t1 = time.monotonic()
        # Its first phase asks the target itself ("can the game reach best + 1?"), so any
        # better line is CP-SAT's own find: no greedy playouts to seed it.
        res = cpsat_max(self.state, hint=self.best_line, timeout=left, deterministic_time=dtime,
                        target=self.best + 1, seed_tries=0)
        self.attempts.append({"method": "cpsat", "target": self.best + 1, "result": res.status,
                              "upper_bound": res.upper_bound, "time": round(time.monotonic() - t1, 4)})
        if res.max_score is not None and res.max_score > self.best:
            score = replay_score(self.state, res.actions)
            self.best_line, self.best = list(res.actions), score
        # only a bound CP-SAT itself proved counts (not its no-model shortcut, where the
        # seed line met the cards' bound)
        if res.upper_bound < self.best + 1 and str(res.stats.get("solved_by", "")).startswith("cpsat"):
            self._proved_unreachable(self.best + 1, "cpsat")

    def _confirm(self, target: int) -> set[str]:
        """Run further methods on "``target`` is unreachable" until two agree, each within
        its deterministic budget (:func:`budget`: SAT ``CONFIRM_SAT_CONFLICTS`` more
        conflicts, CP-SAT ``CONFIRM_CPSAT_DTIME``, the relaxed game and the search
        ``CONFIRM_NODES``; scaled by a long timeout) and never beyond the deadline."""
        have = self.unreachable.setdefault(target, set())
        # CP-SAT before the relaxed game: its hand-capacity constraint decides the hard
        # two-player decks in seconds, where the relaxed game may need its whole budget
        for method in ("sat", "cpsat", "relaxed", "search"):
            if len(have) >= 2 or method in have or self.timed_out:
                continue
            if method == "sat":
                if self.use_sat:
                    self._sat(target, self.budget["confirm_sat_conflicts"])
                continue
            if method == "cpsat":
                if self.use_sat:
                    self._cpsat(self.budget["confirm_cpsat_dtime"])
                continue
            engine = self.relaxed if method == "relaxed" else self.search
            r = self._attempt(method, engine, target, self.budget["confirm_nodes"])
            if r is False:
                self._proved_unreachable(target, method)
            elif r and method == "search":
                raise MethodsDisagreeError(target, "the search", have, deck=deck_text(self.state))
        if self.best >= target:
            raise MethodsDisagreeError(target, "the best line", have, deck=deck_text(self.state))
        return have

    def result(self, confirm: bool) -> Solution:
        best, upper = self.best, self.upper
        stopped = "deadline" if self.timed_out else "budget" if self.spent else None  # (None: settled)
        stats = {"nodes": self.search.nodes, "relaxed_nodes": self._relaxed_nodes(), "memo": len(self.search.memo),
                 "rounds": self.rounds, "stopped_by": stopped, "attempts": self.attempts}
        if best == upper == self.static_ub:
            proof = Proof(self.static_kind, self.static_reason, ("bound",))
            return Solution(best, upper, True, self.best_line, proof, stats)
        if best == upper:
            target = upper + 1
            have = self.unreachable.get(target, set())
            if confirm and len(have) < 2:
                have = self._confirm(target)
            methods = tuple(sorted(have))
            words = " and ".join(METHOD_NAMES[m] for m in methods)
            reason = f"{words} {'prove' if len(methods) > 1 else 'proves'} that no line reaches {target}"
            if "relaxed" in methods:
                reason += " (the relaxed game: even with unlimited clue tokens and a free choice of who draws)"
            if len(methods) >= 2:
                return Solution(best, upper, True, self.best_line, Proof("search", reason, methods), stats)
            # one method only: the bound stands, but the maximum is not reported exact
            proof = Proof("unconfirmed", f"at least {best}, at most {upper}: {reason}; not yet confirmed by a "
                          f"second, independent method", methods)
            return Solution(best, upper, False, self.best_line, proof, stats)
        methods = tuple(sorted(self.unreachable.get(upper + 1, ()))) or ("bound",)
        why = (f"the budget's {self.rounds} round{'s' if self.rounds != 1 else ''} spent" if self.spent
               else "timed out")
        proof = Proof("open", f"{why}: at least {best}, at most {upper}", methods)
        return Solution(best, upper, False, self.best_line, proof, stats)


def solve_encoding(state: State, engine: str, deadline) -> Solution:
    """One encoding alone, for cross-checks: its best line and its proven bound."""
    left = None if deadline is None else max(0.1, deadline - time.monotonic())
    pos = Position(state)
    ub, kind, reason = named_bound(pos)
    t1 = time.monotonic()
    if engine == "sat":
        from .sat import sat_max

        sat = sat_max(state, timeout=left)
        line, upper = (list(sat.actions) if sat.max_score >= 0 else []), sat.upper_bound
        encoding = sat.stats
    else:
        from .cpsat import cpsat_max

        cpsat = cpsat_max(state, timeout=left)
        line, upper = list(cpsat.actions), cpsat.upper_bound
        encoding = cpsat.stats
    stats = {"time": round(time.monotonic() - t1, 4), "engine": engine, "encoding": encoding}
    if not line:
        line, best = fallback_line(state)
    else:
        best = replay_score(state, line)
    if best == upper == pos.perfect:
        return Solution(best, upper, True, line, Proof("perfect", reason, (engine,)), stats)
    if best == upper:
        return Solution(best, upper, False, line, Proof("unconfirmed", f"at least {best}, at most {upper}: "
                        f"{METHOD_NAMES[engine]} proves that no line reaches {upper + 1}", (engine,)), stats)
    return Solution(best, upper, False, line, Proof("open", f"timed out: at least {best}, at most {upper}",
                    (engine,)), stats)


def fallback_line(state: State) -> tuple[list[Action], int]:
    """The greedy strategy's line (:mod:`solver.hanabi.methods.strategy`): the first lower bound, and the
    line reported when the search is cut off before finding a better one."""
    return greedy_line(state)  # every action applied through the engine
