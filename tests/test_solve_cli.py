"""``hanabi solve``: clean one-line errors for its own options and a few inputs, the
``--json`` object, the human output, ``--replay-out`` (a hanab.live game JSON the engine
loads and replays to the maximum), and solving from the position after a file's actions.

Bad input in general (files, --deck, --players, --variant, illegal actions), which every
command reads through the same code, is tested once, in tests/test_bad_input.py."""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from solver.hanabi.methods.portfolio import solve as api_solve
from solver.hanabi.rules import (
    Action,
    Card,
    Game,
    Rules,
    custom_variant,
    format_compact,
    game_to_json,
    load_file,
    parse_compact,
    parse_variant,
)

from conftest import REPO, assert_clean_error, expected_results, full_deck, real_game_files, run_cli

FILES = real_game_files()

NV = parse_variant("No Variant")


def nv_text(seed=None) -> str:
    """A No Variant deck in compact notation (shuffled if ``seed`` is given)."""
    deck = full_deck(NV)
    if seed is not None:
        random.Random(seed).shuffle(deck)
    return format_compact(deck, NV)


def nv_game_obj(players=2, seed=1, **over) -> dict:
    deck = full_deck(NV)
    random.Random(seed).shuffle(deck)
    obj = {"players": [f"P{i}" for i in range(players)], "deck": [c.to_json() for c in deck], "actions": []}
    obj.update(over)
    return obj


def write(tmp_path, content, name="game.json"):
    p = tmp_path / name
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return p


def solve_json(*args) -> dict:
    res = run_cli("solve", "--json", *args)
    assert res.exit_code == 0, (res.output, res.exception)
    assert res.stderr == ""
    return json.loads(res.stdout)


def check_json(out: dict, start_state) -> None:
    """The --json object: fields and types; the actions replay from ``start_state`` to
    max_score and end the game."""
    for key in ("max_score", "upper_bound", "exact", "actions", "proof", "stats"):
        assert key in out, key
    assert isinstance(out["max_score"], int) and isinstance(out["upper_bound"], int)
    assert isinstance(out["exact"], bool)
    assert out["max_score"] <= out["upper_bound"] <= start_state.game.perfect_score
    if out["exact"]:
        assert out["max_score"] == out["upper_bound"]
    assert isinstance(out["proof"], dict) and {"kind", "reason", "methods"} <= set(out["proof"])
    assert isinstance(out["proof"]["reason"], str) and out["proof"]["reason"]
    assert isinstance(out["proof"]["methods"], list)
    assert isinstance(out["stats"], dict) and "nodes" in out["stats"] and "time" in out["stats"]
    assert isinstance(out["actions"], list)
    st = start_state.copy()
    for i, a in enumerate(out["actions"]):
        assert set(a) == {"type", "target", "value"}, a  # hanab.live action objects
        st.apply(Action.from_json(a, f"actions[{i}]"))
    assert st.over and st.score == out["max_score"]


# ---------------------------------------------------------------- bad input
def test_malformed_deck_notation_in_file(tmp_path):
    path = write(tmp_path, nv_text(1).replace("b3", "x3", 1), "deck.txt")
    assert_clean_error(run_cli("solve", "--players", "3", path), str(path), "unknown suit letter 'x'")


def test_illegal_first_action_in_deck_file(tmp_path):
    path = write(tmp_path, nv_game_obj(players=2, actions=[{"type": 0, "target": 30, "value": 0}]))
    assert_clean_error(run_cli("solve", path), str(path), "action 0:", "#30")


@pytest.mark.parametrize("t", ["0", "-1", "-0.5", "0.0", "-inf"])
def test_non_positive_timeout(t):
    assert_clean_error(run_cli("solve", "--example", "--timeout", t), "--timeout")


def test_nan_timeout_is_rejected():
    """NaN is not a positive number of seconds (it would also disable the deadline)."""
    assert not math.nan > 0
    assert_clean_error(run_cli("solve", "--example", "--timeout", "nan"), "--timeout")


@pytest.mark.parametrize("t", ["inf", "1e30", "20000000"])
def test_too_long_timeout_is_rejected(t):
    """Beyond the solvers' timers (threading.TIMEOUT_MAX): it used to end in an
    OverflowError traceback from a timer thread."""
    assert_clean_error(run_cli("solve", "--example", "--timeout", t), "--timeout", "at most", "no limit")


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_human_output_of_an_encoding_alone(engine):
    """The encodings report no search nodes: the text used to fail with KeyError 'nodes'."""
    res = run_cli("solve", "--example", "--engine", engine)
    assert res.exit_code == 0, (res.output, res.exception)
    assert f"Search: the {engine} encoding alone, " in res.stdout
    assert res.stdout.splitlines()[-1].startswith("Final: score 25")


def test_the_split_solve_says_what_it_searched():
    """Issue 34, item 10: an Up or Down solve printed "Search: the portfolio encoding"."""
    res = run_cli("solve", "--seed", "p2v24s7")
    assert res.exit_code == 0, (res.output, res.exception)
    line = next(x for x in res.stdout.splitlines() if x.startswith("Search:"))
    assert "encoding" not in line and "the stacks fixed first" in line and "32 ways they can go" in line


def test_a_finished_game_says_it_is_over():
    """Issue 34, item 10: solving a finished game printed an empty "Optimal line:"."""
    res = run_cli("solve", str(REPO / "tests" / "data" / "hanablive" / "p5v0s198_game149251.json"))
    assert res.exit_code == 0, (res.output, res.exception)
    assert "Optimal line:" not in res.stdout and "Best line found:" not in res.stdout
    assert "The game is over: no move is left to make" in res.stdout
    assert "Maximum score: 23/25" in res.stdout


def test_timeout_not_a_number_real_process():
    """A click usage error goes through the real entry point as one line too."""
    proc = subprocess.run([sys.executable, "-m", "cli.hanabi", "solve", "--example", "--timeout", "abc"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert "--timeout" in proc.stderr and "Traceback" not in proc.stderr


def test_replay_out_unwritable(tmp_path):
    out = tmp_path / "no" / "such" / "dir" / "out.json"
    assert_clean_error(run_cli("solve", "--example", "--replay-out", out), str(out))


def test_two_inputs(tmp_path):
    path = write(tmp_path, nv_game_obj())
    assert_clean_error(run_cli("solve", "--example", path), "only one")


# ---------------------------------------------------------------- --json
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_json_output_for_deck_notation(players):
    text = nv_text(f"cli-{players}")
    out = solve_json("--players", str(players), "--deck", text)
    game = Game(Rules(NV), players, _parse(text))
    check_json(out, game.initial_state())
    assert out.get("from_turn", 0) == 0
    api = api_solve(game)
    if out["exact"] and api.exact:
        assert out["max_score"] == api.max_score


def _parse(text):
    return parse_compact(text, NV)


def test_json_output_for_example():
    out = solve_json("--example")
    rec = load_file(REPO / "solver" / "hanabi" / "data" / "example_deck.json")
    check_json(out, rec.game.initial_state())


@pytest.mark.parametrize("opts", [
    {},
    {"emptyClues": True},
    {"deckPlays": True, "strikeoutScore": "stacks"},
    {"startingPlayer": 2},
])
def test_json_output_custom_variant_file(tmp_path, opts):
    spec = {"suits": 3, "ranks": [1, 1, 2, 3, 4], "handSize": 2, "clueTokens": 2, "strikes": 2}
    v = custom_variant(spec)
    deck = [Card(s, r) for s, r in v.composition()]
    random.Random(len(opts)).shuffle(deck)
    game = Game(Rules.from_json_options(dict(opts, variant=spec)), 3, deck,
                starting_player=opts.get("startingPlayer", 0))
    path = write(tmp_path, game_to_json(game))
    out = solve_json(path)
    check_json(out, load_file(path).game.initial_state())
    assert out["exact"] and out["max_score"] == api_solve(game).max_score


def test_json_rule_flags_on_command_line():
    text = nv_text("flags")
    out = solve_json("--players", "2", "--deck", text, "--deck-plays", "--empty-clues", "--strikeout-score", "stacks")
    game = Game(Rules(NV, deck_plays=True, empty_clues=True, strikeout_score="stacks"), 2, _parse(text))
    check_json(out, game.initial_state())


def test_human_output():
    res = run_cli("solve", "--example")
    assert res.exit_code == 0, res.output
    out = json.loads(run_cli("solve", "--example", "--json").stdout)
    lines = res.stdout.splitlines()
    assert lines[0].startswith("No Variant, 3 players")
    assert any(ln.startswith("Maximum score: ") and str(out["max_score"]) in ln for ln in lines)
    assert any(ln.startswith("Why not more: ") for ln in lines)
    turn_lines = [ln for ln in lines if ln[:3].strip().isdigit() and ln[3:4] == "."]
    assert len(turn_lines) == len(out["actions"])
    assert lines[-1].startswith(f"Final: score {out['max_score']}")


# ---------------------------------------------------------------- --replay-out
def check_replay_file(path, expect_score: int, expect_prefix: list | None = None):
    """The written file is a hanab.live game the engine loads and replays to the end."""
    obj = json.loads(path.read_text())
    assert {"players", "deck", "actions"} <= set(obj)
    rec = load_file(path)
    st = rec.state_after()
    assert st.over and st.score == expect_score
    if expect_prefix is not None:
        assert obj["actions"][: len(expect_prefix)] == expect_prefix
    return rec


@pytest.mark.parametrize("players", [2, 4, 6])
def test_replay_out_from_deck(tmp_path, players):
    text = nv_text(f"replay-{players}")
    out_path = tmp_path / "best.json"
    out = solve_json("--players", str(players), "--deck", text, "--replay-out", out_path)
    rec = check_replay_file(out_path, out["max_score"])
    assert len(rec.game.names) == players
    assert [c for c in rec.game.deck] == _parse(text)
    assert [a.to_json() for a in rec.actions] == out["actions"]


def test_replay_out_keeps_variant_and_options(tmp_path):
    spec = {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 1, "strikes": 2}
    v = custom_variant(spec)
    deck = [Card(s, r) for s, r in v.composition()]
    random.Random(5).shuffle(deck)
    game = Game(Rules(v, deck_plays=True, strikeout_score="stacks", empty_clues=True), 2, deck, starting_player=1)
    path = write(tmp_path, game_to_json(game))
    out_path = tmp_path / "best.json"
    # our own format: the site knows neither custom variants nor strikeoutScore
    res = run_cli("solve", path, "--replay-out", out_path, "--replay-format", "ours")
    assert res.exit_code == 0, res.output
    rec = load_file(out_path)
    assert rec.game.rules == game.rules and rec.game.starting_player == 1 and rec.game.deck == game.deck
    st = rec.state_after()
    assert st.over and st.score == api_solve(game).max_score


# ---------------------------------------------------------------- FILE with actions
def _real_cases():
    out = []
    for p in FILES:
        n = len(load_file(p).actions)
        for k in sorted(set(range(0, n + 1, 4)) | {n - 3, n - 1, n}):
            if k >= 0:
                out.append((p, k))
    return out


@pytest.mark.parametrize("path,k", _real_cases(), ids=lambda x: x.name if hasattr(x, "name") else str(x))
def test_solve_from_a_real_game_prefix(tmp_path, path, k):
    """The first K actions of a real game: the maximum from there is at least the real final
    score (the games did not strike out), at most hanab.live's max-score of the position,
    and the line (written after the K actions by --replay-out) replays to it."""
    exp = expected_results()[path.name]
    obj = json.loads(path.read_text())
    obj["actions"] = obj["actions"][:k]
    src = write(tmp_path, obj, "prefix.json")
    out_path = tmp_path / "best.json"
    out = solve_json(src, "--replay-out", out_path, "--timeout", "60")
    start = load_file(src).state_after()
    assert out.get("from_turn", k) == k
    check_json(out, start)
    assert out["exact"], out["proof"]
    if "strike" not in exp["end"]:
        assert out["max_score"] >= exp["final_score"], (k, out["max_score"], exp["final_score"])
    assert out["max_score"] <= start.max_reachable()
    if start.over:
        assert out["actions"] == [] and out["max_score"] == start.score
    check_replay_file(out_path, out["max_score"], expect_prefix=[
        {"type": a["type"], "target": a["target"], "value": a.get("value", 0) if a["type"] > 1 else 0}
        for a in obj["actions"]])


def test_human_output_from_a_position(tmp_path):
    obj = json.loads(FILES[0].read_text())
    obj["actions"] = obj["actions"][:10]
    src = write(tmp_path, obj)
    res = run_cli("solve", src)
    assert res.exit_code == 0, res.output
    assert "from turn 10" in res.stdout.splitlines()[0]


GAME149251 = REPO / "tests" / "data" / "hanablive" / "p5v0s198_game149251.json"


@pytest.mark.parametrize("turn,best", [(0, 25), (35, 25), (36, 24), (41, 23), (53, 23)])
def test_solve_at_a_turn_of_the_game(turn, best):
    """Issue 34, item 4: "what was still reachable at turn N?", with show --turn's meaning
    (the position after N actions): the clue at turn 35 cost a point, the discard at 40 another."""
    res = run_cli("solve", str(GAME149251), "--turn", str(turn), "--json")
    assert res.exit_code == 0, (res.output, res.exception)
    out = json.loads(res.stdout)
    assert out["from_turn"] == turn and out["max_score"] == best and out["exact"]
    shown = run_cli("show", str(GAME149251), "--turn", str(turn), "--json")
    assert json.loads(shown.stdout)["turn"] == turn


def test_solve_at_a_turn_writes_the_game_up_to_it_then_the_line(tmp_path):
    out = tmp_path / "replay.json"
    res = run_cli("solve", str(GAME149251), "--turn", "36", "--replay-out", str(out))
    assert res.exit_code == 0, (res.output, res.exception)
    assert "from turn 36" in res.stdout and "Maximum score: 24/25" in res.stdout
    original = json.loads(GAME149251.read_text())["actions"]
    written = json.loads(out.read_text())["actions"]
    assert written[:36] == original[:36] and written[36:] != original[36:]
    replayed = run_cli("replay", str(out), "--json")
    assert json.loads(replayed.stdout)["score"] == 24


@pytest.mark.parametrize("turn", ["54", "-1"])
def test_solve_at_a_turn_out_of_range(turn):
    assert_clean_error(run_cli("solve", str(GAME149251), "--turn", turn), "--turn", "out of range 0..53")
