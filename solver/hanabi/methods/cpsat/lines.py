"""Lines and the CP-SAT model: the values of its variables along a known line (hints)
and the decoding of a solution into engine actions, replayed: functions of the model
(:class:`~.model._Encoding`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from solver.errors import EncodingError
from solver.hanabi.rules import COLOR_CLUE, DISCARD, PLAY, RANK_CLUE, Action, State
from solver.hanabi.rules.support import deck_text

from .common import _DECK_MISPLAY, _DECK_PLAY, _DISCARD, _HAND_USES, _MISPLAY, _PLAY, _any_clue

if TYPE_CHECKING:  # (the model these functions build or read)
    from .model import _Encoding



# =====================================================================================
# hint: the values of the variables along a known line
# =====================================================================================
def line_values(enc: _Encoding, line) -> tuple[dict, int | None]:
    """The values of the decision variables and counters along ``line`` (engine actions
    from the position; a partial line gives the events it covers), and the line's score
    if it ends the game. Raises IllegalActionError if the line is not legal, and
    EncodingError if one of its actions has no model variable (an encoding bug)."""
    st = enc.state.copy()
    line = list(line)
    vals: dict = {}

    def put(var, value):
        if not isinstance(var, (bool, int)):
            vals[var] = int(value)

    i = 0
    for e in range(enc.E + 1):
        put(enc.alive[e], not st.over)
        put(enc.clues[e], st.clues)
        put(enc.strikes[e], st.strikes)
        if enc.game.alternation_binds:
            put(enc.last_color[e], st.last_clue == COLOR_CLUE)
            put(enc.last_rank[e], st.last_clue == RANK_CLUE)
        for s in range(enc.S):
            put(enc.stack[e, s], st.stacks[s])
        if e == enc.E:
            break
        run = 0
        first = None
        if not st.over and e < enc.D:
            while i < len(line) and line[i].is_clue:
                first = line[i].kind if first is None else first
                st.apply(line[i])
                i += 1
                run += 1
        if e in enc.first_color:
            put(enc.first_color[e], first == COLOR_CLUE)
            put(enc.odd[e], run % 2)
        if e < enc.D:
            put(enc.run[e], run)
            if enc.RM > 0:
                for r in range(enc.n):
                    put(enc.runmod[e, r], run % enc.n == r)
                put(enc.runq[e], run // enc.n)
            put(enc.clues_at[e], st.clues)
        chosen = None
        if not st.over:
            if i >= len(line):
                break  # a partial line: the rest is left to the solver
            a = st.check(line[i])  # raises IllegalActionError if illegal here
            i += 1
            me = st.current
            for p in range(enc.n):
                put(enc.actor[e, p], p == me)
            o = a.target
            if a.kind == PLAY:
                fits = enc.rank[o] == st.stacks[enc.suit[o]] + 1
                if o in st.hands[me]:
                    chosen = (enc.play if fits else enc.misplay).get((e, o))
                else:
                    chosen = (enc.deck_play if fits else enc.deck_misplay).get(e)
            elif a.kind == DISCARD:
                chosen = enc.discard.get((e, o))
            else:
                chosen = enc.clue.get(e)
                if e in enc.clue_color:
                    put(enc.clue_color[e], a.kind == COLOR_CLUE)
            if chosen is None:
                raise EncodingError(f"action at event {e} ({a}) has no variable", deck=deck_text(enc.state),
                                    method="cpsat")
            st.apply(a)
        for v, _, _ in enc.actions[e]:
            put(v, v is chosen)
        for o, u in enc.uses_at[e]:
            put(u, any(v is chosen for v, kind, c in enc.actions[e] if c == o and kind in _HAND_USES))
    if st.over and i == len(line):
        put(enc.score, st.score)
        return vals, st.score
    return vals, None

def add_hint(enc: _Encoding, line) -> int | None:
    """Hint ``line`` to the solver; returns its score if it ends the game."""
    vals, score = enc.line_values(line)
    for var, value in vals.items():
        enc.model.add_hint(var, value)
    return score

# =====================================================================================
# decode
# =====================================================================================
def decode(enc: _Encoding, solver: cp_model.CpSolver) -> tuple[list[Action], State]:
    """The solution as engine actions, replayed from the position (raises on an illegal
    one, which would be an encoding bug)."""

    def value(lit) -> bool:
        return lit if isinstance(lit, bool) else solver.boolean_value(lit)

    st = enc.state.copy()
    actions = []
    for e in range(enc.E):
        if not value(enc.alive[e]) or st.over:  # (the engine may end it first: Game.site_end)
            break
        if e < enc.D and enc.RM > 0:
            kind = None  # Alternating Clues where it binds: the run's types alternate from the first
            if e in enc.first_color:
                kind = COLOR_CLUE if solver.boolean_value(enc.first_color[e]) else RANK_CLUE
            for _ in range(solver.value(enc.run[e])):
                actions.append(st.apply(_any_clue(st, e, kind)))
                if st.over:  # a position with nothing left to score ends at its first action
                    return actions, st
                if kind is not None:
                    kind = RANK_CLUE if kind == COLOR_CLUE else COLOR_CLUE
        chosen = [(kind, o) for v, kind, o in enc.actions[e] if solver.boolean_value(v)]
        if len(chosen) != 1:
            raise EncodingError(f"event {e} chooses {len(chosen)} actions", deck=deck_text(enc.state),
                                method="cpsat")
        kind, o = chosen[0]
        if kind in (_PLAY, _MISPLAY, _DECK_PLAY, _DECK_MISPLAY):
            action = Action(PLAY, o)
        elif kind == _DISCARD:
            action = Action(DISCARD, o)
        else:
            cc = enc.clue_color.get(e)
            action = _any_clue(st, e, None if cc is None else
                               COLOR_CLUE if solver.boolean_value(cc) else RANK_CLUE)
        actions.append(st.apply(action))
    return actions, st
