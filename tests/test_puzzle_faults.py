"""Faults found by fuzzing the puzzle commands, each pinned by a test: every field of the
puzzle format is validated (one-line error naming the field's path, exit code 2), the
claims the checker can recompute are checked (invalid, exit code 1), ``export
--with-solution`` refuses a puzzle with no usable solution line, one turn numbering
everywhere (turn N = the position after N actions, as ``hanabi show --turn N``), the
generator's progress line and ``--json`` summary, and the generator's quick screen of
positions with too many winning first moves.

The puzzles are the gallery's (docs/puzzles: small, valid, checked in a few ms) and, for
the generator, two puzzles of a fast seed."""
from __future__ import annotations

import copy
import io
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from cli.hanabi.puzzle import Progress
from puzzles.hanabi import analysis
from puzzles.hanabi import generate as gen
from puzzles.hanabi.check import check_answer, check_puzzle
from puzzles.hanabi.format import load_puzzle, parse_puzzle
from puzzles.hanabi.gallery import entry
from puzzles.hanabi.generate import Config, generate
from puzzles.hanabi.render import draw_position

from conftest import REPO, assert_clean_error, run_cli

GALLERY = REPO / "docs" / "puzzles"
EXAMPLE = GALLERY / "p2-t67-s2024-d89.json"  # the docs' example: Bob to move at turn 67, one card left
LIMITS = analysis.Limits(timeout=30.0, node_limit=None, engine="search")


def data(path: Path = EXAMPLE) -> dict:
    return json.loads(path.read_text())


def write(tmp_path, d: dict, name: str = "p.json") -> Path:
    f = tmp_path / name
    f.write_text(json.dumps(d))
    return f


def edited(edit, path: Path = EXAMPLE) -> dict:
    d = data(path)
    edit(d)
    return d


def _set(path: str, value):
    """An edit setting the field at ``path`` (``a.b[0].c``; ``value`` DELETE removes it)."""
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]

    def edit(d):
        obj = d
        for k in keys[:-1]:
            obj = obj[k]
        if value is DELETE:
            del obj[keys[-1]]
        else:
            obj[keys[-1]] = value

    return edit


DELETE = object()


# ---- 1. every field is validated: one line naming the field, exit code 2 ----------------

BAD_FIELDS = [
    # (field, bad value, what the error says)
    ("metadata.difficulty", "xyz", "metadata.difficulty: expected one of easy, medium, hard, got 'xyz'"),
    ("metadata.difficulty", 3, "metadata.difficulty: expected one of easy, medium, hard, got 3"),
    ("metadata.rating", math.nan, "metadata.rating: expected a finite number, got nan"),
    ("metadata.rating", math.inf, "metadata.rating: expected a finite number, got inf"),
    ("metadata.rating", "high", "metadata.rating: expected a finite number, got 'high'"),
    ("metadata.rating", True, "metadata.rating: expected a finite number, got true"),
    ("metadata.answer_kind", "maybe", "metadata.answer_kind: expected one of play, discard, clue, either"),
    ("version", True, "unsupported puzzle version true"),
    ("id", "../../etc/passwd", "id: expected p{players}-t{turn}-{source}"),
    ("id", 7, "id: expected p{players}-t{turn}-{source}"),
    ("id", "", "id: expected p{players}-t{turn}-{source}"),
    ("rules.players", "2", "rules.players: expected an integer from 2 to 6, got '2'"),
    ("rules.perfect_score", 0, "rules.perfect_score: expected an integer of at least 1, got 0"),
    ("rules.options", [], "rules.options: expected an object, got a list"),
    ("question.target", 26, "question.target: expected an integer from 0 to 25, got 26"),
    ("question.target", -1, "question.target: expected an integer from 0 to 25, got -1"),
    ("question.target", 25.0, "question.target: expected an integer from 0 to 25, got 25.0"),
    ("question.target", True, "question.target: expected an integer from 0 to 25, got true"),
    ("question.text", 5, "question.text: expected a non-empty string, got 5"),
    ("question.position.turn", -1, "question.position.turn: expected an integer of at least 0, got -1"),
    ("question.position.score", 99, "question.position.score: expected an integer from 0 to 25, got 99"),
    ("question.position.hands", [], "question.position.hands: expected a non-empty list, got an empty list"),
    ("question.position.hands[0].cards", 5, "question.position.hands[0].cards: expected a string, got 5"),
    ("question.position.hands[1].seat", 1, "question.position.hands[1].seat: unknown field"),
    ("question.position.stacks", None, "question.position.stacks: expected a string, got null"),
    ("solution.max_score", "25", "solution.max_score: expected an integer from 0 to 25, got '25'"),
    ("solution.proof", "", "solution.proof: expected a non-empty string, got ''"),
    ("solution.lines[0].line", 5, "solution.lines[0].line: expected a string, got 5"),
    ("solution.lines[0].actions[0]", "py5", "solution.lines[0].actions[0]: expected an object, got 'py5'"),
    ("metadata.winning_first_moves.count", -1, "metadata.winning_first_moves.count: expected an integer of at "
                                               "least 0, got -1"),
    ("metadata.winning_first_moves.moves", ["zz"], "metadata.winning_first_moves.moves[0]: expected a kind of move"),
    ("metadata.winning_first_moves.moves", ["py5", "py5"], "metadata.winning_first_moves.moves: lists a kind of "
                                                           "move twice: py5"),
    ("metadata.winning_first_moves.total", 0, "metadata.winning_first_moves.total: expected an integer of at least 1"),
    ("metadata.winning_first_moves.after.py5", "yes", "metadata.winning_first_moves.after.py5: expected an integer "
                                                      "from 0 to 25 or null, got 'yes'"),
    ("metadata.winning_first_moves.after.x", 3, "metadata.winning_first_moves.after key 'x': expected a kind of move"),
    ("metadata.features.nodes", -3, "metadata.features.nodes: expected an integer of at least 0, got -3"),
    ("metadata.features.crux", 0, "metadata.features.crux: expected an integer of at least 1 or null, got 0"),
    ("metadata.features.lines", "many", "metadata.features.lines: expected an integer of at least 1 or null"),
    ("metadata.features.turns", DELETE, "metadata.features: missing key 'turns'"),
    ("metadata.features.fun", 1, "metadata.features.fun: unknown field"),
    ("metadata.decisions[0].greedy_loses", "yes", "metadata.decisions[0].greedy_loses: expected true or false, "
                                                  "got 'yes'"),
    ("metadata.decisions[0].move", 2, "metadata.decisions[0].move: expected 1 (the moves of the line in order), got 2"),
    ("metadata.decisions[0].winning", None, "metadata.decisions[0].winning: expected a list (many is false), got null"),
    ("metadata.decisions[0].traps", "pg4", "metadata.decisions[0].traps: expected a list, got 'pg4'"),
    ("metadata.greedy.score", "24", "metadata.greedy.score: expected an integer from 0 to 25, got '24'"),
    ("metadata.source.kind", "moon", "metadata.source.kind: expected one of random, hanab.live seed, deck file, "
                                     "got 'moon'"),
    ("metadata.source.deck_index", -1, "metadata.source.deck_index: expected an integer of at least 0, got -1"),
    ("metadata.source.file", "x.jsonl", "metadata.source.file: unknown field"),
    ("metadata.source.seed", "2024", "metadata.source.seed: expected an integer, got '2024'"),
    ("metadata.generator", "", "metadata.generator: expected a non-empty string, got ''"),
    ("metadata.limits.engine", "warp", "metadata.limits.engine: expected one of portfolio, search, sat, cpsat, "
                                       "got 'warp'"),
    ("metadata.limits.timeout", 0, "metadata.limits.timeout: expected a positive number, got 0"),
    ("metadata.limits.node_limit", 0, "metadata.limits.node_limit: expected an integer of at least 1 or null, got 0"),
    ("metadata.dificulty", "easy", "metadata.dificulty: unknown field"),
    ("extra", {}, "extra: unknown field"),
    ("question.position.draw_pile", DELETE, "question.position: missing key 'draw_pile'"),
]


@pytest.mark.parametrize("field,value,message", BAD_FIELDS,
                         ids=[f"{f}={'<deleted>' if v is DELETE else repr(v)}"[:60] for f, v, _ in BAD_FIELDS])
def test_check_rejects_a_bad_field_in_one_line(tmp_path, field, value, message):
    f = write(tmp_path, edited(_set(field, value)))
    assert_clean_error(run_cli("puzzle", "check", f), "p.json: ", message)


def test_the_gallery_and_the_example_read_and_check():
    """The committed puzzles, and one of the earlier generator 1.1, pass every shape and
    claim check."""
    for f in sorted(GALLERY.glob("*.json")) + [REPO / "tests" / "data" / "puzzle_generator_1_1.json"]:
        rep = check_puzzle(load_puzzle(f), LIMITS)
        assert rep.valid, (f.name, rep.problems)


def test_every_command_rejects_a_bad_field(tmp_path):
    f = write(tmp_path, edited(_set("metadata.difficulty", "xyz")))
    for args in (["render", f, "--out", tmp_path / "x.svg"], ["export", f], ["graph", f, "--out", tmp_path / "x.dot"]):
        assert_clean_error(run_cli("puzzle", *args), "metadata.difficulty: expected one of")


# ---- 1b. claims the checker recomputes: invalid, exit code 1 -----------------------------

WRONG_CLAIMS = [
    ("metadata.difficulty", "hard", "metadata.difficulty: the puzzle says 'hard', its rating 11.3 makes it 'easy'"),
    ("metadata.rating", 19.0, "metadata.rating: the puzzle says 19.0, its features rate 11.3"),
    ("metadata.features.plays", 4, "metadata.features.plays: the puzzle says 4, it is 3"),
    ("metadata.features.crux", 2, "metadata.features.crux: the puzzle says 2, it is 1"),
    ("metadata.greedy.line", "pg5 pg4 dg4", "metadata.greedy: the puzzle says 'pg5 pg4 dg4' scoring 24, the greedy "
                                            "strategy plays 'pg4 dg4 pg5' scoring 24"),
    ("metadata.decisions[1].player", "Bob", "metadata.decisions[1]: says Bob plays pg4, the first solution line has "
                                            "Alice play pg4 there"),
    ("metadata.winning_first_moves.after.pg4", 25, "metadata.winning_first_moves.after: wrong maximum after pg4: 25 "
                                                   "(exact: 24)"),
    ("metadata.winning_first_moves.after.pg4", DELETE, "metadata.winning_first_moves.after: lists "),
    ("id", "p2-t68-s2024-d89", "id: 'p2-t68-s2024-d89' says 2 players at turn 68, the position is 2 players at "
                               "turn 67"),
    ("metadata.source.turn", 68, "metadata.source.turn: the puzzle says 68, the position is at turn 67"),
    ("question.position.turns_left", 2, "question.position.turns_left: the puzzle shows 2, the replay has no "
                                        "turns_left"),
]


@pytest.mark.parametrize("field,value,message", WRONG_CLAIMS, ids=[f for f, _, _ in WRONG_CLAIMS])
def test_check_rejects_a_wrong_claim(tmp_path, field, value, message):
    f = write(tmp_path, edited(_set(field, value)))
    res = run_cli("puzzle", "check", f)
    assert res.exit_code == 1, res.output
    assert "INVALID" in res.stdout and message in res.stdout, res.stdout


# ---- 2. export --with-solution needs a solution line that ends the game ------------------

def test_export_with_solution_and_no_line_is_an_error(tmp_path):
    f = write(tmp_path, edited(_set("solution.lines", [])))
    out = tmp_path / "game.json"
    assert_clean_error(run_cli("puzzle", "export", f, "--with-solution", "--out", out),
                       "p.json: --with-solution: the puzzle lists no solution line")
    assert not out.exists()
    res = run_cli("puzzle", "export", f)  # without the flag the position alone is fine
    assert res.exit_code == 0 and json.loads(res.stdout)["actions"]


def test_export_with_solution_that_does_not_end_the_game(tmp_path):
    d = data()
    d["solution"]["lines"][0]["actions"] = d["solution"]["lines"][0]["actions"][:1]
    assert_clean_error(run_cli("puzzle", "export", write(tmp_path, d), "--with-solution"),
                       "solution.lines[0] does not end the game")
    d["solution"]["lines"][0]["actions"] = [{"type": 0, "target": 0, "value": 0}]
    assert_clean_error(run_cli("puzzle", "export", write(tmp_path, d), "--with-solution"),
                       "p.json: solution.lines[0]: action 0: ")
    d["solution"]["lines"][0]["actions"] = [{"type": "play"}]
    assert_clean_error(run_cli("puzzle", "export", write(tmp_path, d), "--with-solution"),
                       "p.json: solution.lines[0].actions[0]")


# ---- 3. one turn numbering: turn N = the position after N actions ------------------------

def test_check_and_show_name_the_same_turn(tmp_path):
    p = load_puzzle(EXAMPLE)
    st = p.position()
    assert st.turn == 67 == p.question["position"]["turn"]
    game = tmp_path / "game.json"
    assert run_cli("puzzle", "export", EXAMPLE, "--out", game).exit_code == 0
    shown = run_cli("show", game).stdout.splitlines()[0]
    assert shown.startswith("Turn 67:"), shown
    assert run_cli("show", game, "--turn", "67").stdout.splitlines()[0] == shown
    res = run_cli("puzzle", "check", EXAMPLE, "--answer", "pg4 dg4 pg5")
    assert "Bob to move at turn 67, target 25" in res.stdout
    assert "fails at move 1 (game turn 67, Bob: play g4" in res.stdout
    out = json.loads(run_cli("puzzle", "check", EXAMPLE, "--answer", "pg4 dg4 pg5", "--json").stdout)
    assert out["answer"]["fail_move"] == 1 and out["answer"]["fail_turn"] == 67
    res = run_cli("puzzle", "graph", EXAMPLE, "--out", tmp_path / "g.dot")
    assert "(Bob to move at turn 67)" in res.stdout


def test_an_illegal_answer_move_names_its_turn():
    p = load_puzzle(EXAMPLE)
    st = p.position()
    res = check_answer(st, "py5 pg5", p.target, LIMITS)  # Alice holds no g5
    assert not res.correct and res.fail_move == 2 and res.fail_turn == st.turn + 1 == 68
    assert "move 2 (game turn 68, Alice to act): illegal" in res.message


def test_picture_and_gallery_show_the_turn_of_the_position():
    p = load_puzzle(EXAMPLE)
    st = p.position()
    fig = draw_position(st)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert any("Turn 67" in t for t in texts) and not any("Turn 68" in t for t in texts)
    assert "turn 67, score 22" in entry(p, 1, "x.svg")
    # the committed gallery was redrawn from its files (python -m puzzles.hanabi.gallery --from-files)
    assert "Turn 67</text>" in (GALLERY / "p2-t67-s2024-d89.svg").read_text()
    assert "players; turn 67, score 22" in (GALLERY / "README.md").read_text()


def test_no_turn_plus_one_in_the_puzzle_code():
    for path in (REPO / "puzzles").glob("*.py"):
        assert not re.search(r"turn\s*\+\s*1", path.read_text()), f"{path.name}: a 1-based turn"


# ---- 4. the generator: progress line, the quick screen, the graph only when taken --------

class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal_and_throttled():
    quiet = io.StringIO()
    p = Progress(3, quiet, every=0)
    p.update(Counter(decks=1, examined=9), 0)
    p.close()
    assert quiet.getvalue() == ""
    tty = _Tty()
    p = Progress(3, tty, every=3600)
    p.update(Counter(), 0)
    for n in range(1, 50):  # within the hour: no redraw while nothing is found
        p.update(Counter(decks=n, examined=10 * n), 0)
    p.update(Counter(decks=50, examined=500), 1)  # a puzzle: at once
    p.close()
    lines = tty.getvalue().split("\r")[1:]
    assert len(lines) == 2, lines
    assert lines[0].startswith("puzzles 0/3: 0 decks") and "decks a puzzle" in lines[0]
    assert lines[1].startswith("puzzles 1/3: 50 decks, 500 positions") and lines[1].endswith("\x1b[K\n")


@pytest.fixture(scope="module")
def traced():
    """generate(count=2, seed=0) with its screens, first-move counts and graphs traced."""
    calls = Counter()
    screened = []
    real_screen, real_fm, real_graph = (analysis.more_winning_than, analysis.first_moves,
                                        analysis.graph_features)

    def screen(st, target, max_choices, *a, **k):
        out = real_screen(st, target, max_choices, *a, **k)
        calls["screen"] += 1
        if out:
            screened.append((st.copy(), target, max_choices))
        return out

    def fm(*a, **k):
        calls["count" if k.get("fail_fast") else "fm"] += 1
        return real_fm(*a, **k)

    def graph(*a, **k):
        calls["graph"] += 1
        return real_graph(*a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(analysis, "more_winning_than", screen)
    mp.setattr(analysis, "first_moves", fm)
    mp.setattr(analysis, "graph_features", graph)
    try:
        ps, stats = generate(Config(count=2, seed=0))
    finally:
        mp.undo()
    return ps, stats, calls, screened


def test_screen_spares_the_count_of_first_moves(traced):
    """Positions with too many winning first moves are rejected by the quick screen (lines
    only) before the first moves are counted with a proof of each maximum."""
    _, stats, calls, screened = traced
    assert screened and len(screened) <= stats["too many winning first moves"]
    assert calls["count"] == calls["screen"] - len(screened)


def test_screen_rejects_only_what_the_count_rejects(traced):
    for st, target, max_choices in traced[3][:8]:
        fm = analysis.first_moves(st, target, analysis.GENERATOR_LIMITS, stop_after=max_choices, by_choice=True,
                                  fail_fast=True)
        assert fm.undecided or len(analysis.choices(st, fm.winning)) > max_choices


def test_graph_only_for_the_puzzles_taken(traced):
    ps, stats, calls, _ = traced
    assert stats["puzzles"] > len(ps) == 2  # the decks offered more puzzles than were taken
    assert calls["graph"] == 2
    for p in ps:
        f = p.metadata["features"]
        assert {"lines", "forced", "graph_nodes"} <= set(f)
        assert p.metadata["rating"] == analysis.rating(f) and p.difficulty == analysis.difficulty(p.metadata["rating"])
        assert check_puzzle(p, LIMITS).valid


def test_graph_taken_late_gives_the_same_file(traced):
    """The graph built once a puzzle is taken gives the file that the eager graph of a
    difficulty filter gives (the same position, target and node limits)."""
    for p in traced[0]:
        rec = p.record()
        cfg = Config(seed=0, difficulty=p.difficulty)
        found = gen.examine(rec.game, list(rec.actions), cfg, Counter())
        assert found is not None and found["difficulty"] == p.difficulty
        eager = gen.make_puzzle(rec.game, list(rec.actions), found, p.metadata["source"], cfg.limits)
        assert eager.data == p.data


# ---- 5. --json for the generator's summary -----------------------------------------------

def test_generate_json_summary(tmp_path, traced):
    out = tmp_path / "gen"
    res = run_cli("puzzle", "generate", "--count", "2", "--seed", "0", "--out", out, "--json")
    assert res.exit_code == 0, res.output
    assert res.stderr == ""
    s = json.loads(res.stdout)
    assert s["count"] == s["found"] == 2 and s["complete"] is True
    assert [x["id"] for x in s["puzzles"]] == [p.id for p in traced[0]]
    assert all(Path(x["path"]).exists() for x in s["puzzles"])
    assert sum(s["difficulties"].values()) == 2 and sum(s["answer_kinds"].values()) == 2
    assert s["decks"] == traced[1]["decks"] and sum(s["walks"].values()) == s["decks"]
    assert s["rejected"]["greedy reaches it"] == traced[1]["greedy reaches it"]


def test_generate_json_when_decks_run_out(tmp_path, monkeypatch):
    real = gen.generate

    def one_deck(cfg, *a, **k):
        cfg.max_decks = 1
        return real(cfg, *a, **k)

    monkeypatch.setattr(gen, "generate", one_deck)
    res = run_cli("puzzle", "generate", "--count", "3", "--seed", "0", "--out", tmp_path / "o", "--json")
    assert res.exit_code == 1
    s = json.loads(res.stdout)
    assert s["complete"] is False and s["found"] < 3 and s["decks"] == 1
    assert res.stderr.startswith("error: only ") and res.stderr.count("\n") == 1


def test_shape_errors_name_the_source():
    d = edited(_set("metadata.rating", "x"))
    with pytest.raises(ValueError, match=r"^mine\.json: metadata\.rating: expected a finite number, got 'x'$"):
        parse_puzzle(copy.deepcopy(d), "mine.json")


def test_timeout_nan_is_named(tmp_path):
    """click's FloatRange lets nan through; it used to fail later as 'solve: timeout ...'."""
    for args in (["check", EXAMPLE], ["generate", "--count", "1", "--out", tmp_path / "o"]):
        assert_clean_error(run_cli("puzzle", *args, "--timeout", "nan"),
                           "--timeout: expected a finite number of seconds, at most 10000000, got nan")


def test_answer_with_a_huge_card_order_is_one_line():
    """(tests/test_fuzz.py) ``p#`` and 5000 digits raised Python's int-conversion ValueError."""
    err = assert_clean_error(run_cli("puzzle", "check", EXAMPLE, "--answer", "py5 p#" + "9" * 5000),
                             "answer: move 2 'p#" + "9" * 18 + "...': card order too large")
    assert len(err) < 200
    res = run_cli("puzzle", "check", EXAMPLE, "--answer", "p#999999")  # a number, but no such card: wrong
    assert res.exit_code == 1 and "no such card" in res.stdout


@pytest.mark.parametrize("path, value", [
    ("id", "p2-t59-s2027-d270\ud800"),
    ("question.text", "Alice\ud800 to move"),
])
def test_a_lone_surrogate_anywhere_in_a_puzzle_is_one_line(tmp_path, path, value):
    """Found by tests/test_fuzz.py: a surrogate let through by the shape checks crashed the
    printing of the verdict (UnicodeEncodeError)."""
    d = edited(_set(path, value))
    p = write(tmp_path, d)
    for args in (["check", p], ["check", p, "--json"], ["render", p, "--out", tmp_path / "x.svg"]):
        assert_clean_error(run_cli("puzzle", *args), path, "lone surrogate")


def test_a_lone_surrogate_in_a_key_or_deep_inside(tmp_path):
    d = data()
    d["metadata"]["decisions"][0]["player"] = "Bob\ud800"
    assert_clean_error(run_cli("puzzle", "check", write(tmp_path, d)), "metadata.decisions[0].player")
    d = data()
    d["rules"]["options"]["\udc80"] = True
    assert_clean_error(run_cli("puzzle", "check", write(tmp_path, d, "k.json")), "lone surrogate")


@pytest.mark.parametrize("value", ["inf", "1e30", "nan"])
def test_puzzle_timeouts_are_finite(tmp_path, value):
    assert_clean_error(run_cli("puzzle", "check", EXAMPLE, "--timeout", value), "--timeout")
    assert_clean_error(run_cli("puzzle", "generate", "--count", "1", "--out", tmp_path / "o", "--timeout", value),
                       "--timeout")


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path):
    """Found by tests/test_fuzz.py (seed 777, shrunk): an invalid puzzle under a file name
    holding a byte that is not UTF-8 crashed the printing of its problems."""
    pos = {"turn": 49, "to_move": "B", "score": 20, "stacks": "r", "clues": 7, "strikes": 0,
           "hands": [{"player": "A", "cards": "b"}], "draw_pile": "p", "discards": "r", "pace": 1}
    text = json.dumps({
        "format": "hanabi-endgame-puzzle", "version": 1, "id": "p4-t49-s2034-d9", "game": {},
        "rules": {"variant": "N", "players": 4, "hand_size": 4, "clue_tokens": 8, "strikes": 3,
                  "perfect_score": 25, "options": {}},
        "question": {"target": 24, "position": pos}, "solution": {"max_score": 22, "lines": []},
        "metadata": {"winning_first_moves": {"count": 1, "moves": []}},
    })
    p = tmp_path / "sur\udcffrogate.json"
    p.write_text(text)
    res = run_cli("puzzle", "check", p)
    assert res.exit_code in (1, 2) and isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output and "\\udcff" in res.output
