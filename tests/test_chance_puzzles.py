"""Chance puzzles (puzzles/hanabi/chance.py): generated puzzles pass the checker, corrupted ones
are rejected with the reason, answers are judged, bad files are one-line errors."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from puzzles.hanabi.chance import ChancePuzzle, check_puzzle, dumps, gallery_text, generate, load_puzzle
from puzzles.hanabi.notation import format_action
from solver.hanabi.rules import Action

from conftest import assert_clean_error, run_cli

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "puzzles" / "chances"


@pytest.fixture(scope="module")
def puzzle() -> ChancePuzzle:
    (p,) = generate(1, seed=419, players=[4], mixed=False)
    return p


def move_text(p: ChancePuzzle, row: int) -> str:
    st = p.position()
    return format_action(st, Action.from_json(p.data["answer"]["moves"][row]["actions"][0]))


def test_a_generated_puzzle_is_valid_and_its_answer_correct(puzzle):
    a = puzzle.data["answer"]
    assert len(a["moves"]) >= 3 and a["best"] != a["greedy"]
    wins = [m["wins"] for m in a["moves"]]
    assert wins[a["best"]] == max(wins) and wins.count(max(wins)) == 1
    v = check_puzzle(puzzle, move_text(puzzle, a["best"]))
    assert v.valid, v.problems
    assert v.answer_correct is True
    wrong = check_puzzle(puzzle, move_text(puzzle, a["greedy"]))
    assert wrong.valid and wrong.answer_correct is False
    assert str(a["moves"][a["greedy"]]["wins"]) in wrong.answer_message


def corrupted(p: ChancePuzzle, change) -> ChancePuzzle:
    data = copy.deepcopy(p.data)
    change(data)
    return ChancePuzzle(data)


def _count(d):
    d["answer"]["moves"][1]["wins"] += 1


def _best(d):
    d["answer"]["best"] = d["answer"]["greedy"]


def _greedy(d):
    d["answer"]["greedy"] = d["answer"]["best"]


def _target(d):
    d["question"]["target"] -= 1


def _to_move(d):
    d["question"]["to_move"] = "Nobody"


def _moved_card(d):
    """Two different cards of the pile's players swapped in the deck: another position."""
    deck = d["game"]["deck"]
    hands_end = 4 * 4
    i = next(k for k in range(hands_end, len(deck)) if deck[k] != deck[0])
    deck[0], deck[i] = deck[i], deck[0]


@pytest.mark.parametrize("change,needle", [
    (_count, "stated to win"),
    (_best, "answer.best"),
    (_greedy, "answer.greedy"),
    (_target, ""),
    (_to_move, "question.to_move"),
    (_moved_card, ""),
])
def test_corrupted_puzzles_are_rejected_with_the_reason(puzzle, change, needle):
    v = check_puzzle(corrupted(puzzle, change))
    assert not v.valid
    assert v.problems and all(isinstance(x, str) and x for x in v.problems)
    if needle:
        assert any(needle in x for x in v.problems), v.problems


def test_cli_check_exit_codes(puzzle, tmp_path):
    f = tmp_path / "p.json"
    f.write_text(dumps(puzzle))
    a = puzzle.data["answer"]
    ok = run_cli("puzzle", "chances", "check", str(f), "--answer", move_text(puzzle, a["best"]))
    assert ok.exit_code == 0, ok.output
    assert "valid" in ok.stdout and "correct" in ok.stdout
    wrong = run_cli("puzzle", "chances", "check", str(f), "--answer", move_text(puzzle, a["greedy"]), "--json")
    assert wrong.exit_code == 1
    assert json.loads(wrong.stdout)["answer"]["correct"] is False
    bad = tmp_path / "bad.json"
    bad.write_text(dumps(corrupted(puzzle, _count)))
    assert run_cli("puzzle", "chances", "check", str(bad)).exit_code == 1
    assert_clean_error(run_cli("puzzle", "chances", "check", str(f), "--answer", "pz9"), "--answer")
    trunc = tmp_path / "trunc.json"
    trunc.write_text(dumps(puzzle)[:200])
    assert_clean_error(run_cli("puzzle", "chances", "check", str(trunc)), "trunc.json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**puzzle.data, "format": "hanabi-endgame-puzzle"}))
    assert_clean_error(run_cli("puzzle", "chances", "check", str(other)), "format")
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({k: v for k, v in puzzle.data.items() if k != "answer"}))
    assert_clean_error(run_cli("puzzle", "chances", "check", str(missing)), "answer")


def test_render_shows_the_pile_without_its_order(puzzle, tmp_path):
    f = tmp_path / "p.json"
    f.write_text(dumps(puzzle))
    res = run_cli("puzzle", "chances", "render", str(f), "--out", str(tmp_path / "p.svg"))
    assert res.exit_code == 0, res.output
    svg = (tmp_path / "p.svg").read_text()
    assert "order unknown" in svg
    assert_clean_error(run_cli("puzzle", "chances", "render", str(f), "--out", str(tmp_path / "p.gif")), ".gif")


def gallery_files() -> list[Path]:
    files = sorted(GALLERY.glob("*.json"))
    assert files, f"no chance puzzles in {GALLERY}"
    return files


@pytest.mark.parametrize("path", gallery_files(), ids=lambda p: p.stem)
def test_gallery_puzzles_are_valid(path):
    p = load_puzzle(path)
    v = check_puzzle(p)
    assert v.valid, v.problems
    assert p.id in (GALLERY / "README.md").read_text()
    # the gallery page is what gallery_text writes for these puzzles (its answers included)
    assert f"| {p.data['answer']['moves'][0]['text']} | {p.data['answer']['moves'][0]['wins']} |" in \
        gallery_text([p], "svg", "x")
    assert (GALLERY / f"{p.id}.svg").exists()
