"""Real hanab.live games (tests/data/hanablive/, copies of ../shared/hanablive/) replay to
the score and end in expected.json, through the engine and through ``hanabi replay --json``."""
from __future__ import annotations

import json

import pytest

from solver.hanabi.rules import load_file, variant_by_name

from conftest import HANABLIVE, SHARED, expected_results, needs_shared, real_game_files, run_cli

END = {"all stacks complete": "perfect", "final round finished": "final_round", "strikeout": "strikeout"}

FILES = real_game_files()
SHARED_GAMES = SHARED / "hanablive"


def _end(expected: dict) -> str:
    text = expected["end"]
    return END.get(text, "strikeout" if "strike" in text else text)


def test_every_file_has_an_expectation():
    expected = expected_results()
    assert sorted(p.name for p in FILES) == sorted(expected)


@needs_shared(SHARED_GAMES)
def test_copies_are_the_shared_games():
    """tests/data/hanablive holds every game of ../shared/hanablive and its expected.json,
    byte for byte."""
    shared = sorted(p.name for p in SHARED_GAMES.glob("*.json"))
    assert shared == sorted(p.name for p in HANABLIVE.glob("*.json"))
    for name in shared:
        assert (HANABLIVE / name).read_bytes() == (SHARED_GAMES / name).read_bytes(), name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_through_engine(path):
    exp = expected_results()[path.name]
    rec = load_file(path)
    g = rec.game
    assert g.num_players == exp["players"]
    assert g.variant == variant_by_name(exp["variant"])
    assert len(rec.actions) + (rec.terminator is not None) == exp["actions_in_file"]
    st = rec.state_after()
    assert st.turn == exp["actions_used"]
    assert st.over and st.end_reason == _end(exp)
    assert st.score == exp["final_score"]
    assert st.legal_actions() == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_push_pop_through_the_whole_game(path):
    rec = load_file(path)
    st = rec.game.initial_state()
    snaps = [st.snapshot()]
    for a in rec.actions:
        done = st.check(a)
        assert done in st.legal_actions()
        st.push(done)
        snaps.append(st.snapshot())
    for snap in reversed(snaps[1:]):
        assert st.snapshot() == snap
        st.pop()
    assert st.snapshot() == snaps[0] and st.turn == 0 and not st.over


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_through_cli_json(path):
    exp = expected_results()[path.name]
    res = run_cli("replay", "--json", path)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["score"] == exp["final_score"]
    assert out["end_reason"] == _end(exp)
    assert out["turns"] == exp["actions_used"]
    assert out["players"] == exp["players"]
    assert out["variant"] == exp["variant"]
    assert out["strikes"] == load_file(path).state_after().strikes


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_and_show_text_output(path):
    exp = expected_results()[path.name]
    res = run_cli("replay", path)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == exp["actions_used"] + 2  # header, one line per action, final line
    assert f"score {exp['final_score']}/" in lines[-1] and _end(exp) in lines[-1]
    res = run_cli("show", "--json", "--turn", "0", path)
    assert res.exit_code == 0, res.output
    shown = json.loads(res.stdout)
    assert shown["turn"] == 0 and shown["score"] == 0 and shown["end_reason"] == "unfinished"
    res = run_cli("show", "--json", path)
    shown = json.loads(res.stdout)
    assert shown["turn"] == exp["actions_used"] and shown["score"] == exp["final_score"]
