"""``solve``: the maximum score reachable from a position, with an optimal line and a proof."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .game import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, Game, IllegalActionError, State
from .search.bounds import named_bound
from .search.dfs import Search, SearchTimeout
from .search.position import CLUE, Position


@dataclass(frozen=True)
class Proof:
    """Why nothing above ``upper_bound`` is reachable.

    kind: ``perfect`` (the variant's maximum), ``discards``/``pace``/``late_cards``/
    ``final_round`` (a named static argument), ``search`` (exhausted search), or
    ``open`` (not proven: the search ran out of time)."""

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
    rules engine (``apply`` validates every one). A clue stall becomes a real clue: the
    first legal clue, preferring the next player."""
    st = state.copy()
    out = []
    for kind, o in moves:
        if kind == CLUE:
            act = next(a for a in st.legal_actions() if a.kind in (COLOR_CLUE, RANK_CLUE))
        else:
            act = Action(PLAY if kind == 0 else DISCARD, o)
        out.append(st.apply(act))
    return out


def replay_score(state: State, actions) -> int:
    """The final score of ``actions`` from ``state``, replayed in the engine; the line must
    end the game."""
    st = state.copy()
    for i, a in enumerate(actions):
        try:
            st.apply(a)
        except IllegalActionError as e:
            raise IllegalActionError(f"line action {i}: {e}") from None
    if not st.over:
        raise IllegalActionError(f"line of {len(actions)} actions does not end the game")
    return st.score


def solve(source, *, timeout: float | None = None, node_limit: int | None = None,
          confirm: bool = True) -> Solution:
    """The maximum score reachable from ``source`` (a :class:`State` or a :class:`Game`,
    which means its initial state) when every card is visible.

    Returns the best line found (replayed in the engine), the proven upper bound with its
    reason, and whether the two meet. The search alternates between the top ("can we
    reach the upper bound?") and the bottom ("can we beat the best line?") with growing
    node budgets, so a timeout still leaves the tightest bounds found. A maximum below the
    perfect score that only the search proves is reported exact only when a second,
    independent method (an encoding) agrees (``confirm``).

    With ``timeout`` (seconds) or ``node_limit`` the answer may be "at least max_score, at
    most upper_bound"."""
    state = source.initial_state() if isinstance(source, Game) else source
    t0 = time.monotonic()
    deadline = t0 + timeout if timeout is not None else None
    if state.over:
        return Solution(state.score, state.score, True, [], Proof("over", f"the game is over ({state.end_reason})",
                        ("rules",)), {"nodes": 0, "time": 0.0})
    pos = Position(state)
    ub, kind, reason = named_bound(pos)
    best_line, best = _fallback_line(state)
    search = Search(pos, deadline)
    upper = ub
    attempts = []
    budget = 20000
    timed_out = False
    while best < upper:
        for target in (upper, best + 1):
            if best >= upper:
                break
            limit = search.nodes + budget
            search.node_limit = limit if node_limit is None else min(limit, node_limit)
            t1 = time.monotonic()
            n1 = search.nodes
            try:
                ok = search.reach(target)
            except SearchTimeout:
                attempts.append({"target": target, "result": "budget", "nodes": search.nodes - n1,
                                 "time": round(time.monotonic() - t1, 4)})
                if (node_limit is not None and search.nodes >= node_limit) or (
                        deadline is not None and time.monotonic() >= deadline):
                    timed_out = True
                    break
                continue
            attempts.append({"target": target, "result": ok, "nodes": search.nodes - n1,
                             "time": round(time.monotonic() - t1, 4)})
            if ok:
                line = to_engine_line(state, search.line)
                score = replay_score(state, line)
                if score > best:
                    best_line, best = line, score
            else:
                upper = target - 1
        if timed_out:
            break
        budget *= 2
    methods: tuple[str, ...]
    if upper == ub:
        proof = Proof(kind, reason, ("bound",))
    else:
        proof = Proof("search", f"exhaustive search: no line reaches {upper + 1}; {reason}", ("search",))
    exact = best == upper
    stats = {"nodes": search.nodes, "memo": len(search.memo), "attempts": attempts}
    if exact and proof.kind == "search" and best < pos.perfect:
        # a search-only proof of a sub-perfect maximum needs a second, independent method
        proof, exact = _confirm(state, best, proof, deadline, stats)
        if not exact:
            upper = ub
    elif not exact:
        proof = Proof("open", f"timed out: at least {best}, at most {upper}; {proof.reason}", proof.methods)
    stats["time"] = round(time.monotonic() - t0, 4)
    return Solution(best, upper, exact, best_line, proof, stats)


def _confirm(state: State, best: int, proof: Proof, deadline, stats) -> tuple[Proof, bool]:
    """Ask an independent encoding whether ``best + 1`` is reachable. Returns the proof
    and whether the maximum is now confirmed."""
    try:
        from .encodings.sat import sat_reachable
    except ImportError:
        sat_reachable = None
    if sat_reachable is not None:
        left = None if deadline is None else max(1.0, deadline - time.monotonic())
        t1 = time.monotonic()
        res = sat_reachable(state, best + 1, timeout=left)
        stats["confirm"] = {"method": "sat", "status": res.status, "time": round(time.monotonic() - t1, 4)}
        if res.status == "unsat":
            return Proof("search", proof.reason + f"; SAT agrees: {best + 1} is unsatisfiable", ("search", "sat")), True
        if res.status == "sat":
            raise RuntimeError(f"search and SAT disagree: SAT reaches {best + 1}, search says at most {best}")
    return Proof("open", f"at least {best}; the search proves at most {best}, not yet confirmed by a second "
                 f"method ({proof.reason})", proof.methods), False


def _fallback_line(state: State) -> tuple[list[Action], int]:
    """A quick greedy line (used when the search is cut off before finding any)."""
    pos = Position(state)
    s = Search(pos)
    moves = []
    while not pos.over:
        kind, o = s.moves()[0]
        pos.push(kind, o)
        moves.append((kind, o))
    line = to_engine_line(state, moves)
    return line, replay_score(state, line)
