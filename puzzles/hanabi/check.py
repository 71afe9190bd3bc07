"""The checker: is a puzzle true, and does a proposed answer reach the target?

A puzzle is *valid* when:

1. its game JSON reads, matches its ``rules`` summary and replays legally to a position
   that is not over, and that position is the one the question shows (every card);
2. the target is at most the stated maximum, and the stated maximum is the solver's exact
   maximum from the position;
3. every listed solution line is legal and ends the game with at least the target (the
   compact ``line`` text too, when present);
4. the winning first moves (the kinds of move after which the target is still reachable)
   are exactly the ones listed, and as many as claimed; their grouping into choices and
   the answer kind (play, discard, clue or either), when stated, follow from them.

An answer (a line from the position) is *correct* when it is legal and ends the game with
at least the target. Otherwise it fails at the first move after which the target is out of
reach (or that is illegal); the check names it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.hanabi.rules import Action, IllegalActionError, MalformedError, State

from . import analysis
from .analysis import CHECK_LIMITS, Limits
from .format import ID_PATTERN, Puzzle, parse_puzzle, position_summary, rules_summary
from .notation import describe_class, format_line, move_class, parse_line, resolve


@dataclass
class AnswerResult:
    correct: bool
    message: str
    fail_move: int | None = None  # 1-based index in the answer
    fail_turn: int | None = None  # the game turn of the failing move (actions before it, as State.turn)
    score: int | None = None  # final score, when the line ends the game

    def to_json(self) -> dict:
        return {"correct": self.correct, "message": self.message, "fail_move": self.fail_move,
                "fail_turn": self.fail_turn, "score": self.score}


@dataclass
class Report:
    puzzle: Puzzle
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    state: State | None = None
    answer: AnswerResult | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        out = {"id": self.puzzle.id, "valid": self.valid, "problems": self.problems, "notes": self.notes}
        if self.answer is not None:
            out["answer"] = self.answer.to_json()
        return out


def _replay_line(st: State, actions) -> State:
    """Replay a line of engine actions from ``st`` (a copy); illegal ones raise."""
    return st.copy().apply_all(actions, "move")


def _line_problem(st: State, actions, target: int) -> str | None:
    try:
        end = _replay_line(st, actions)
    except (IllegalActionError, MalformedError) as e:
        return str(e)
    if not end.over:
        return f"the game is not over after its {len(actions)} moves"
    if end.score < target:
        return f"ends with {end.score} points, below the target {target}"
    return None


def check_puzzle(p: Puzzle, limits: Limits = CHECK_LIMITS) -> Report:
    """Is the puzzle true? Its shape is checked first (``MalformedError`` naming the field,
    as :func:`format.parse_puzzle`: a Puzzle need not come from a file)."""
    parse_puzzle(p.data, p.source)
    rep = Report(p)
    prob = rep.problems
    # 1. the position
    try:
        rec = p.record()
    except MalformedError as e:
        prob.append(f"position: {e}")
        return rep
    rules = rules_summary(rec.game)
    for k, v in rules.items():
        if p.data["rules"].get(k) != v:
            prob.append(f"rules.{k}: the file says {p.data['rules'].get(k)!r}, the game JSON means {v!r}")
    try:
        st = rec.state_after()
    except IllegalActionError as e:
        prob.append(f"position: {e}")
        return rep
    if st.over:
        prob.append(f"position: the game is already over ({st.end_reason}) after {st.turn} actions")
        return rep
    rep.state = st
    shown = p.question["position"]
    actual = position_summary(st)
    for k in shown:
        if k not in actual:  # e.g. turns_left before the final round
            prob.append(f"question.position.{k}: the puzzle shows {shown[k]!r}, the replay has no {k}")
    for k, v in actual.items():
        if k == "hands":
            got = shown.get("hands")
            if not isinstance(got, list) or len(got) != len(v):
                prob.append("question.position.hands: not one entry per player")
                continue
            for _seat, (h_file, h_real) in enumerate(zip(got, v)):
                if h_file != h_real:
                    cards = h_file.get("cards") if isinstance(h_file, dict) else h_file
                    prob.append(f"question.position: {h_real['player']}'s hand is {h_real['cards']!r} after the "
                                f"replay, the puzzle shows {cards!r}")
        elif shown.get(k) != v:
            prob.append(f"question.position.{k}: the puzzle shows {shown.get(k)!r}, the replay gives {v!r}")
    _check_id_and_source(p, st, prob)
    target, stated = p.target, p.max_score
    if target > stated:
        prob.append(f"question.target {target} is above the stated maximum {stated}")
    if target <= st.score:
        prob.append(f"question.target {target} is already reached (score {st.score})")
    # 2. the maximum
    sol = analysis.solve_bounded(st, limits)
    if not sol.exact:
        prob.append(f"maximum: could not prove it within the limits (at least {sol.max_score}, at most "
                    f"{sol.upper_bound}); the stated maximum is {stated}")
    elif sol.max_score != stated:
        prob.append(f"maximum: the puzzle states {stated}, the exact maximum is {sol.max_score} ({sol.proof.reason})")
    else:
        rep.notes.append(f"maximum {stated} (exact: {sol.proof.reason})")
    # 3. the solution lines
    if not p.lines:
        prob.append("solution: no line listed")
    for i, ln in enumerate(p.lines, 1):
        try:
            acts = [Action.from_json(a, f"action {j}") for j, a in enumerate(ln["actions"])]
        except MalformedError as e:
            prob.append(f"solution line {i}: {e}")
            continue
        why = _line_problem(st, acts, target)
        if why:
            prob.append(f"solution line {i}: {why}")
            continue
        if ln.get("line"):
            res = check_answer(st, ln["line"], target, limits, locate=False)
            if not res.correct:
                prob.append(f"solution line {i}: its compact text {ln['line']!r}: {res.message}")
    first_line = None
    if p.lines and not any(m.startswith("solution line 1:") for m in prob):
        first_line = [Action.from_json(a) for a in p.lines[0]["actions"]]
    if p.lines and not any(m.startswith("solution line") for m in prob):
        rep.notes.append(f"{len(p.lines)} solution line{'s' if len(p.lines) > 1 else ''} "
                         f"reach{'es' if len(p.lines) == 1 else ''} {target}")
    # 4. the winning first moves
    fm = analysis.first_moves(st, target, limits)
    claimed = p.winning
    if fm.undecided:
        prob.append(f"winning first moves: could not decide {', '.join(fm.undecided)} within the limits")
    else:
        got = sorted(fm.winning)
        if claimed["count"] != len(got):
            prob.append(f"winning first moves: the puzzle claims {claimed['count']}, there are {len(got)} "
                        f"({', '.join(got) or 'none'})")
        if sorted(claimed["moves"]) != got:
            prob.append(f"winning first moves: the puzzle lists {', '.join(sorted(claimed['moves'])) or 'none'}, "
                        f"the moves that keep {target} are {', '.join(got) or 'none'}")
        if "total" in claimed and claimed["total"] != fm.total:
            prob.append(f"winning first moves: the puzzle counts {claimed['total']} kinds of first move, "
                        f"there are {fm.total}")
        if claimed["count"] == len(got) and sorted(claimed["moves"]) == got:
            rep.notes.append(f"winning first moves: {len(got)} of {fm.total} "
                             f"({', '.join(describe_class(m) for m in got)})")
            # the answer kind and the choices follow from the winning moves
            kind = analysis.answer_kind(st, fm.winning)
            stated_kind = p.metadata.get("answer_kind")
            if stated_kind is not None and stated_kind != kind:
                prob.append(f"metadata.answer_kind: the puzzle says {stated_kind!r}, its winning first moves make it "
                            f"{kind!r}")
            ch = analysis.choices(st, fm.winning)
            if "choices" in claimed and sorted(map(sorted, claimed["choices"])) != sorted(map(sorted, ch)):
                prob.append(f"winning first moves: the puzzle groups them as {claimed['choices']}, "
                            f"the choices are {ch}")
            elif stated_kind is not None:
                rep.notes.append(f"answer kind: {kind}")
    if "after" in claimed:
        _check_after(claimed["after"], fm, prob)
    _check_metadata(p, st, first_line, prob)
    return rep


def _check_id_and_source(p: Puzzle, st: State, prob: list[str]) -> None:
    """The id names the player count and the turn of the position (``p2-t67-...``), and
    ``metadata.source.turn`` is that turn."""
    m = ID_PATTERN.fullmatch(p.id)
    if m is None:  # (parse_puzzle refuses such an id: a Puzzle built otherwise)
        prob.append(f"id: {p.id!r} does not name the player count and the turn (p2-t67-...)")
        return
    players, turn = int(m.group(1)), int(m.group(2))
    if (players, turn) != (st.game.num_players, st.turn):
        prob.append(f"id: {p.id!r} says {players} players at turn {turn}, the position is {st.game.num_players} "
                    f"players at turn {st.turn}")
    src = p.metadata.get("source")
    if src is not None and "turn" in src and src["turn"] != st.turn:
        prob.append(f"metadata.source.turn: the puzzle says {src['turn']}, the position is at turn {st.turn}")


def _check_after(after: dict, fm: analysis.FirstMoves, prob: list[str]) -> None:
    """``winning_first_moves.after``: one entry per kind of first move, each the exact
    maximum after it (where the checker knows it exactly)."""
    if set(after) != set(fm.results):
        prob.append(f"metadata.winning_first_moves.after: lists {', '.join(after) or 'nothing'}, the kinds of "
                    f"first move are {', '.join(fm.results)}")
        return
    wrong = [f"{k}: {after[k]} (exact: {v})" for k, v in fm.results.items()
             if v is not None and after[k] is not None and after[k] != v]
    if wrong:
        prob.append(f"metadata.winning_first_moves.after: wrong maximum after {'; '.join(wrong)}")


def _check_metadata(p: Puzzle, st: State, line: list[Action] | None, prob: list[str]) -> None:
    """What the metadata claims and the checker can recompute cheaply: the greedy line, the
    features that follow from the position, the lines and the decisions, the decisions'
    moves and players along the first solution line, the rating of the features and the
    difficulty of the rating."""
    md = p.metadata
    g = st.game
    greedy_actions, greedy_score = analysis.greedy_line(st)
    if "greedy" in md:
        text = format_line(st, greedy_actions)
        if md["greedy"]["score"] != greedy_score or md["greedy"]["line"] != text:
            prob.append(f"metadata.greedy: the puzzle says {md['greedy']['line']!r} scoring {md['greedy']['score']}, "
                        f"the greedy strategy plays {text!r} scoring {greedy_score}")
    dec = md.get("decisions")
    if dec is not None and line is not None:
        cur = st.copy()
        for d, a in zip(dec, line):
            who, kind = g.player_name(cur.current), move_class(cur, a)
            if (d["player"], d["line"]) != (who, kind):
                prob.append(f"metadata.decisions[{d['move'] - 1}]: says {d['player']} plays {d['line']}, the first "
                            f"solution line has {who} play {kind} there")
                break
            cur.apply(a)
        if len(dec) > len(line):
            prob.append(f"metadata.decisions: {len(dec)} positions, the first solution line has {len(line)} moves")
    f = md.get("features")
    if f is not None:
        derived: dict[str, int | None] = {"plays": p.target - st.score, "pace": st.pace,
                                          "greedy_gap": p.target - greedy_score}
        if line is not None:
            derived["turns"] = len(line)
        if dec is not None:
            errors = [d["move"] for d in dec if d["greedy_loses"]]
            derived.update(greedy_errors=len(errors), crux=errors[0] if errors else None,
                           decisions=sum(1 for d in dec if analysis.is_decision(d)),
                           only_moves=sum(1 for d in dec if not d["many"] and d["classes"] == 1),
                           traps=len(dec[0]["traps"]) if dec else 0)
        for k, v in derived.items():
            if f[k] != v:
                prob.append(f"metadata.features.{k}: the puzzle says {f[k]!r}, it is {v!r}")
        if "rating" in md and abs(analysis.rating(f) - md["rating"]) > 0.005:
            prob.append(f"metadata.rating: the puzzle says {md['rating']}, its features rate {analysis.rating(f)}")
    if "rating" in md and "difficulty" in md and analysis.difficulty(md["rating"]) != md["difficulty"]:
        prob.append(f"metadata.difficulty: the puzzle says {md['difficulty']!r}, its rating {md['rating']} makes it "
                    f"{analysis.difficulty(md['rating'])!r}")


def _reachable(st: State, target: int, limits: Limits) -> tuple[bool | None, int | None]:
    """(is the target still reachable, the exact maximum when it is not)."""
    ok, sol = analysis.reaches(st, target, limits)
    best = st.score if st.over else (sol.max_score if sol is not None and sol.exact else None)
    return ok, best


def check_answer(start: State, text: str, target: int, limits: Limits = CHECK_LIMITS,
                 locate: bool = True) -> AnswerResult:
    """Does the line ``text`` (compact notation or a JSON list of hanab.live actions),
    played from ``start``, end the game with at least ``target``? Raises
    ``MalformedError`` if it cannot be read. With ``locate``, a failing line is pinned to
    the first move after which the target is out of reach."""
    items = parse_line(text)
    st = start.copy()
    states = [st.copy()]
    done: list[Action] = []
    g = st.game

    def where(i: int, s: State, a: Action | None = None) -> str:
        who = g.player_name(s.current)
        what = f", {who}: {a.describe(g)}" if a is not None else f", {who} to act"
        return f"move {i + 1} (game turn {s.turn}{what})"

    for i, item in enumerate(items):
        if st.over:
            return AnswerResult(False, f"{where(i, st)}: the game is already over ({st.end_reason}, "
                                f"score {st.score})", i + 1, st.turn, st.score)
        try:
            a = st.check(resolve(item, st))
        except IllegalActionError as e:
            return AnswerResult(False, f"{where(i, st)}: illegal: {e}", i + 1, st.turn)
        except MalformedError as e:  # e.g. a suit letter the variant does not have
            raise MalformedError(f"answer: move {i + 1}: {e}") from None
        st.push(a)
        done.append(a)
        states.append(st.copy())
    if st.over and st.score >= target:
        return AnswerResult(True, f"reaches {st.score} (target {target}) in {len(done)} moves", score=st.score)
    if not st.over:
        ok, _ = _reachable(st, target, limits)
        if ok:
            return AnswerResult(False, f"incomplete: the game is not over after the {len(done)} moves given "
                                f"({target} is still reachable from there)")
        if ok is None:
            return AnswerResult(False, f"incomplete: the game is not over after the {len(done)} moves given "
                                f"(whether {target} is still reachable was not decided within the limits)")
    if not locate:
        end = f"ends with {st.score}" if st.over else "is not over"
        return AnswerResult(False, f"the game {end} after {len(done)} moves (target {target})",
                            score=st.score if st.over else None)
    # states[0] reaches the target and states[-1] does not: find the first move after
    # which it is out of reach (reachability only ever goes from yes to no)
    lo, hi = 0, len(states) - 1
    best_hi = None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ok, best = _reachable(states[mid], target, limits)
        if ok is None:
            break
        if ok:
            lo = mid
        else:
            hi, best_hi = mid, best
    else:
        if best_hi is None:
            _, best_hi = _reachable(states[hi], target, limits)
        s_before = states[hi - 1]
        a = done[hi - 1]
        after = f"at most {best_hi} points can be scored" if best_hi is not None else "the target is out of reach"
        if states[hi].over:
            after = f"the game ends with {states[hi].score} points"
        return AnswerResult(False, f"fails at {where(hi - 1, s_before, a)}: after it {after} "
                            f"(target {target})", hi, s_before.turn, st.score if st.over else None)
    end = f"ends with {st.score}" if st.over else "cannot reach the target any more"
    return AnswerResult(False, f"the game {end} after {len(done)} moves (target {target}); the failing move "
                        f"could not be pinned within the limits", score=st.score if st.over else None)
