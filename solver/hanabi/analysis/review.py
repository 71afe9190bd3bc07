"""Game review: the exact maximum still reachable after every turn of a real game, and
the actions that lowered it."""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.common.outputs import save_figure
from solver.errors import SolverError
from solver.hanabi.chances import DEFAULT_NODES, Count, chances, unsupported_reason
from solver.hanabi.methods.portfolio import solve
from solver.hanabi.rules import Action, GameRecord, State
from solver.hanabi.rules.links import link_and_reason

from .render import describe_turn


@dataclass
class Point:
    """The position after ``turn`` actions (0: the deal)."""

    turn: int
    max_score: int  # best line found from here (the exact maximum when ``exact``)
    upper_bound: int
    exact: bool
    score: int  # the game's own score at this point
    proof_kind: str
    best_line: list[Action]
    seconds: float


@dataclass
class Drop:
    """The action made at ``turn`` (from the position after ``turn`` actions, as ``hanabi
    show --turn`` numbers it) lowered the maximum from ``before`` to ``after``; ``better``
    is what the best line played instead (it keeps ``before``)."""

    turn: int
    player: str
    action: str
    before: int
    after: int
    better: str
    certain: bool  # proven: the upper bound after is below the line before
    link: str | None = None  # hanab.live: the game up to this turn, then the best line (None: no link opens it)
    no_link: str | None = None  # why there is no link


@dataclass
class ChanceTurn:
    """With the pile's order unknown (``hanabi review --chances``): the action made at
    ``turn`` by ``player``, the chance of reaching ``target`` with the best play before it
    (``before``) and after it (``after``: the action's own value), and the best move
    (``best``, whose value is ``before``). Counts over the orders of the pile."""

    turn: int
    player: str
    action: str
    deck_left: int
    target: int
    before: Count
    after: Count
    best: str
    best_action: Action | None

    @property
    def lost(self) -> bool:
        """The action played was proven worse than the best move."""
        return self.after.hi < self.before.lo

    def to_json(self) -> dict:
        return {"turn": self.turn, "player": self.player, "action": self.action, "deck_left": self.deck_left,
                "target": self.target, "before": self.before.to_json(), "after": self.after.to_json(),
                "best": self.best, "best_action": None if self.best_action is None else self.best_action.to_json(),
                "lost": self.lost}


@dataclass
class Review:
    points: list[Point]
    drops: list[Drop]
    descriptions: list[str]  # one per action
    final_score: int
    perfect: int
    chances: list[ChanceTurn] = field(default_factory=list)
    chances_note: str = ""  # when --chances found no turn to look at, why

    def to_json(self) -> dict:
        return {
            "perfect": self.perfect,
            "final_score": self.final_score,
            "turns": [{"turn": p.turn, "action": self.descriptions[p.turn - 1] if p.turn else None,
                       "max_score": p.max_score, "upper_bound": p.upper_bound, "exact": p.exact,
                       "score": p.score, "proof_kind": p.proof_kind, "seconds": p.seconds} for p in self.points],
            "drops": [d.__dict__ for d in self.drops],
            "chances": [c.to_json() for c in self.chances],
        }


def review(rec: GameRecord, timeout: float | None = None, progress=None, *, on_point=None,
           chances_left: int | None = None,
           chances_nodes: int = DEFAULT_NODES) -> Review:
    """Solve the position before the first action and after each action. ``timeout`` is
    per position. Every best line is replayed in the engine; a drop at action t is
    reported with the best line's first action from the position before it.

    ``chances_left``: also, for each action made with at most that many cards in the pile,
    the chance of reaching the target before and after it when the pile's order is unknown
    (:func:`solver.hanabi.chances.chances`, ``chances_nodes`` per search), the target fixed at the
    first such turn (the most its cards allow).

    ``on_point(point)`` is told of each :class:`Point` as it is solved; ``progress(i)`` of
    its index."""
    st = rec.game.initial_state()
    points: list[Point] = []
    descriptions: list[str] = []
    states: list[State] = []
    for i, a in enumerate(rec.actions + [None]):
        sol = solve(st, timeout=timeout)  # its line is replayed in the engine
        points.append(Point(i, sol.max_score, sol.upper_bound, sol.exact, st.score, sol.proof.kind,
                            sol.actions, float(sol.stats.get("time", 0.0))))
        states.append(st.copy())
        if progress:
            progress(i)
        if on_point:
            on_point(points[-1])
        if a is None:
            break
        done = st.check(a)  # the action with what it touched, for the description
        descriptions.append(describe_turn(st, done).split(". ", 1)[1])
        st.apply(a)
    drops = []
    for i in range(1, len(points)):
        before, after = points[i - 1], points[i]
        # proven: everything reachable after the action is below a line that existed before
        # it; with timeouts, a lower best line alone is reported as an unproven drop
        if after.max_score < before.max_score:
            g = rec.game
            better = before.best_line[0].describe(g) if before.best_line else "-"
            link, why = link_and_reason(g, list(rec.actions[:i - 1]) + list(before.best_line), i - 1)
            drops.append(Drop(i - 1, g.player_name(states[i - 1].current), descriptions[i - 1].split(": ", 1)[1],
                              before.max_score, after.max_score, better,
                              certain=after.upper_bound < before.max_score, link=link, no_link=why))
    rv = Review(points, drops, descriptions, st.score, rec.game.perfect_score)
    if chances_left is not None:
        rv.chances, rv.chances_note = _chances(rec, states, descriptions, chances_left, chances_nodes)
    return rv


def _chances(rec: GameRecord, states: list[State], descriptions: list[str], left: int,
             nodes: int) -> tuple[list[ChanceTurn], str]:
    why = unsupported_reason(rec.game)
    if why is not None:
        return [], why
    out: list[ChanceTurn] = []
    target: int | None = None
    g = rec.game
    for t, a in enumerate(rec.actions):
        st = states[t]
        if st.over or st.deck_left > left:
            continue
        if target is None:
            target = st.max_reachable()
        r = chances(st, target=target, objective="win", budget=nodes, clairvoyant=False, exact_for=[a])
        mine = next(m for m in r.moves if a in m.actions)
        top = r.moves[0]
        if r.win is None or mine.win is None:  # (objective "win" gives both)
            raise SolverError("chances: no win count for the position or the move played")
        out.append(ChanceTurn(t, g.player_name(st.current), descriptions[t].split(": ", 1)[1], st.deck_left,
                              target, r.win, mine.win, top.text, top.action))
    note = "" if out else f"no action was made with at most {left} cards in the pile"
    return out, note


def format_text(rv: Review, rec: GameRecord) -> str:
    """One row per action: the turn it was made at, and the score and the maximum after it
    (the first row: the maximum at the deal)."""
    lines = [f"{'turn':>4}  {'action':<44} {'score':>5}  {'max':>7}"]
    p0 = rv.points[0]
    lines.append(f"{'':>4}  {'(deal)':<44} {p0.score:>5}  {_fmt(p0):>7}")
    drops = {d.turn: d for d in rv.drops}
    for p in rv.points[1:]:
        t = p.turn - 1  # the turn the action was made at
        mark = ""
        if t in drops:
            d = drops[t]
            mark = f"  <- drop {d.before}->{d.after}; {d.better} keeps {d.before}"
            if d.link:
                mark += f"; the best line: {d.link}"
            elif d.no_link and rec.game.variant.hanablive_id is not None:
                mark += f"; no hanab.live link ({d.no_link})"
        lines.append(f"{t:>4}  {rv.descriptions[t]:<44} {p.score:>5}  {_fmt(p):>7}{mark}")
    lines.append("")
    if rv.drops:
        lines.append(f"The maximum fell {len(rv.drops)} time(s): " + "; ".join(
            f"turn {d.turn} ({d.player}: {d.action}) {d.before}->{d.after}" for d in rv.drops))
    else:
        lines.append(f"The maximum never fell: {p0.max_score} was still reachable at the end.")
    stopped = rec.stopped()
    if stopped:
        lines.append(f"The game was stopped at turn {len(rec.actions)}: {stopped}; the site scores it 0 (the "
                     f"stacks held {rv.final_score}/{rv.perfect}); maximum at the deal {_fmt(p0)}.")
    else:
        lines.append(f"Final score {rv.final_score}/{rv.perfect}; maximum at the deal {_fmt(p0)}.")
    if rv.chances or rv.chances_note:
        lines.append("")
        lines.append(chances_text(rv))
    return "\n".join(lines)


def _pct(c: Count) -> str:
    lo = f"{100 * float(c.value):.1f}%"
    return lo if c.exact else f"{lo}..{100 * float(c.upper):.1f}%"


def chances_text(rv: Review) -> str:
    """The endgame's chances, one line per action: "turn 61: Bob discarded y4, P(25)
    83.3% -> 30.0%; play r5 (#40) kept 83.3%"."""
    if not rv.chances:
        return f"Endgame chances: {rv.chances_note}."
    tgt = rv.chances[0].target
    lines = [f"Endgame chances (every hand known, the pile's order unknown; P({tgt}): the chance of reaching "
             f"{tgt} with the best play from there):"]
    zero_from: int | None = None
    for k, c in enumerate(rv.chances):
        prev = rv.chances[k - 1] if k else None
        if prev is not None and prev.turn == c.turn - 1 and prev.after.exact and c.before.exact \
                and prev.after.lo * c.before.den != c.before.lo * prev.after.den:
            # the card drawn after the previous action (the only other change) moved the chance
            lines.append(f"  the card drawn then: P({tgt}) {_pct(prev.after)} -> {_pct(c.before)}")
        if c.before.exact and c.before.lo == 0 and not c.lost:
            zero_from = c.turn if zero_from is None else zero_from
            continue
        line = f"turn {c.turn}: {c.player}: {c.action} ({c.deck_left} in the pile), P({tgt}) {_pct(c.before)}"
        if c.lost:
            line += f" -> {_pct(c.after)}; {c.best} kept {_pct(c.before)}"
        elif c.after.exact and c.before.exact:
            line += " kept (a best move)"
        else:
            line += f" -> {_pct(c.after)} (not decided within the budget)"
        lines.append(line)
    if zero_from is not None:
        lines.append(f"from turn {zero_from} on: P({tgt}) is 0 (no order of the pile left allows {tgt})")
    return "\n".join(lines)


def _fmt(p: Point) -> str:
    return str(p.max_score) if p.exact else f"{p.max_score}..{p.upper_bound}"


def plot(rv: Review, path: str, title: str = "") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    turns = [p.turn for p in rv.points]
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.step(turns, [p.upper_bound for p in rv.points], where="post", color="#aa3377", lw=1, ls="--",
            label="upper bound" if not all(p.exact for p in rv.points) else None)
    ax.step(turns, [p.max_score for p in rv.points], where="post", color="#4477aa", lw=2,
            label="maximum still reachable")
    ax.plot(turns, [p.score for p in rv.points], color="#228833", lw=1.5, label="score so far")
    for k, d in enumerate(rv.drops):
        ax.annotate(f"{d.turn}: {d.action}", (d.turn + 1, d.after), xytext=(0, -28 - 14 * (k % 2)),
                    textcoords="offset points", fontsize=7, ha="center", arrowprops=dict(arrowstyle="->", lw=0.6))
        ax.plot([d.turn + 1], [d.after], "o", color="#ee6677")
    ax.set_xlabel("turn (actions taken)")
    ax.set_ylabel("score")
    ax.set_ylim(0, rv.perfect + 1)
    ax.set_title(title or "Game review")
    ax.legend(loc="lower right", fontsize=8)
    if rv.chances:  # --chances: the chance of the target with the pile's order unknown, on its own axis
        ax2 = ax.twinx()
        tgt = rv.chances[0].target
        ax2.step([c.turn for c in rv.chances], [100 * float(c.before.value) for c in rv.chances], where="post",
                 color="#ee7733", lw=1.5, label=f"P({tgt}), the pile's order unknown")
        lost = [c for c in rv.chances if c.lost]
        ax2.plot([c.turn for c in lost], [100 * float(c.after.value) for c in lost], "v", color="#ee7733")
        ax2.set_ylim(0, 105)
        ax2.set_ylabel(f"P({tgt}) %")
        ax2.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    try:
        save_figure(fig, str(path), "--plot", 110)
    finally:
        plt.close(fig)
