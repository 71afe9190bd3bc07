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


def solve(source, *, timeout: float | None = None, node_limit: int | None = None) -> Solution:
    """The maximum score reachable from ``source`` (a :class:`State` or a :class:`Game`,
    which means its initial state) when every card is visible.

    Returns the best line found (replayed in the engine), the proven upper bound with its
    reason, and whether the two meet. With ``timeout`` (seconds) or ``node_limit`` the
    answer may be "at least max_score, at most upper_bound"."""
    state = source.initial_state() if isinstance(source, Game) else source
    t0 = time.monotonic()
    deadline = t0 + timeout if timeout is not None else None
    pos = Position(state)
    if state.over:
        return Solution(state.score, state.score, True, [], Proof("over", f"the game is over ({state.end_reason})"),
                        {"nodes": 0, "time": 0.0})
    ub, kind, reason = named_bound(pos)
    search = Search(pos, deadline, node_limit)
    best_line: list[Action] = []
    best = None
    upper = ub
    proof = Proof(kind, reason, ("bound",))
    exact = False
    targets = []
    try:
        for target in range(ub, -1, -1):
            t1 = time.monotonic()
            ok = search.reach(target)
            targets.append({"target": target, "reachable": ok, "nodes": search.nodes,
                            "time": round(time.monotonic() - t1, 4)})
            if ok:
                best_line = to_engine_line(state, search.line)
                best = replay_score(state, best_line)
                exact = True
                break
            upper = target - 1
            proof = Proof("search", f"exhaustive search: no line reaches {target}", ("search",))
    except SearchTimeout:
        pass
    if best is None:
        best_line, best = _fallback_line(state)
        if best >= upper:
            exact = True
    if upper == ub and exact:
        proof = Proof(kind, reason, ("bound",))
    elif not exact:
        proof = Proof("open", f"timed out: at least {best}, at most {upper} ({proof.reason})", proof.methods)
    stats = {"nodes": search.nodes, "time": round(time.monotonic() - t0, 4), "memo": len(search.memo),
             "targets": targets}
    return Solution(best, upper, exact, best_line, proof, stats)


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
