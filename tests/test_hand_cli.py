"""The ``hand`` command: output, JSON, and bad input as one line ``error: ...`` naming the
problem and where, exit code 2, no traceback."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from test_hand_engine import random_game

from cli.hand import hand
from solver.hand.rules import Deal, Match, card_str

from conftest import REPO, assert_clean_error


def run_hand(*args: str, input: str | None = None):
    return CliRunner().invoke(hand, [str(a) for a in args], input=input)


def test_deal_is_seeded_and_round_trips():
    a = run_hand("deal", "--seed", "42")
    assert a.exit_code == 0 and a.output == run_hand("deal", "--seed", "42").output
    lines = a.output.splitlines()
    assert lines[0] == "Deal, seed 42: dealer 3, seat 0 leads"
    assert Deal.parse(lines[-1]) == Deal.random(42)
    js = json.loads(run_hand("deal", "--seed", "42", "--dealer", "1", "--json").output)
    assert js["seed"] == 42 and Deal.from_json(js) == Deal.random(42, 1)


def test_replay(tmp_path):
    m = random_game(3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(m.to_json()))
    res = run_hand("replay", path)
    assert res.exit_code == 0, res.output
    r = m.result()
    assert res.output.splitlines()[-1].startswith(f"Seat {r.winners[0]} wins" if len(r.winners) == 1 else "Seats")
    assert res.output.count("trick 8:") == len(m.rounds)
    js = json.loads(run_hand("replay", path, "--json").output)
    assert js["winners"] == list(r.winners) and js["totals"] == list(r.totals)
    assert [ro["scores"] for ro in js["rounds"]] == [list(s) for s in m.scores()]
    # standard input too
    assert run_hand("replay", "-", input=path.read_text()).output == res.output


def _bad_game(tmp_path, mutate):
    js = random_game(2).to_json()
    mutate(js)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(js))
    return path


def _swap_plays(js):
    p = js["rounds"][0]["plays"]
    p[1], p[2] = p[2], p[1]


def _revoke(js):
    """Replace the first card that followed suit while another suit was held by a card off suit."""
    r = js["rounds"][0]
    m = Match.from_json({"rounds": [{"dealer": r["dealer"], "hands": r["hands"], "bids": r["bids"], "plays": []}]})
    rnd = m.rounds[0]
    for i, c in enumerate(r["plays"]):
        if rnd.table and len(rnd.legal_moves()) < rnd.hands[rnd.to_move].bit_count():
            legal = {str(x) for x in rnd.legal_moves()}
            held = [x for x in range(32) if rnd.hands[rnd.to_move] >> x & 1]
            other = next(card_str(x) for x in held if card_str(x) not in legal)
            r["plays"][i] = other
            return
        rnd.apply(c)
    raise AssertionError("no revoke possible")


@pytest.mark.parametrize("mutate,needles", [
    (_swap_plays, ["rounds[0].plays[1] (trick 1)", "out of turn"]),
    (_revoke, ["rounds[0].plays[", "revoke: seat"]),
    (lambda js: js["rounds"][1]["bids"].__setitem__(0, 9), ["rounds[1].bids[0]", "out of range 0..8"]),
    (lambda js: js["rounds"][0]["hands"][0].__setitem__(0, js["rounds"][0]["hands"][1][0]),
     ["rounds[0]", "in seat 0's hand and in seat 1's"]),
    (lambda js: js["rounds"][0]["hands"][0].pop(), ["rounds[0]", "7 cards, not 8"]),
    (lambda js: js["rounds"][0]["hands"][2].__setitem__(3, "1S"), ["rounds[0]", "unknown rank"]),
    (lambda js: js["rounds"][0]["plays"].__setitem__(0, 7), ["rounds[0].plays[0]", "not a card"]),
])
def test_replay_bad_games(tmp_path, mutate, needles):
    path = _bad_game(tmp_path, mutate)
    assert_clean_error(run_hand("replay", path), str(path), *needles)


@pytest.mark.parametrize("content,needle", [("{", "invalid JSON"), ("[]", "expected a JSON object"),
                                            ('{"rounds": 3}', "rounds")])
def test_replay_unreadable(tmp_path, content, needle):
    path = tmp_path / "g.json"
    path.write_text(content)
    assert_clean_error(run_hand("replay", path), str(path), needle)


def test_missing_file():
    assert_clean_error(run_hand("replay", "/nonexistent/game.json"), "no such file")


@pytest.mark.parametrize("command", ["replay", "solve", "best", "review"])
@pytest.mark.parametrize("deep", ["[" * 100_000 + "]" * 100_000, '{"a": ' * 100_000 + "1" + "}" * 100_000])
def test_deeply_nested_json_is_one_line_as_in_hanabi(tmp_path, command, deep):
    """Both games read JSON through one reader (solver.common.jsontext): 100,000 nested
    lists or objects are "nested too deeply", not a RecursionError traceback."""
    path = tmp_path / "deep.json"
    path.write_text(deep)
    assert_clean_error(run_hand(command, path), str(path), "invalid JSON: nested too deeply")


def test_console_script_usage_error_is_one_line():
    res = subprocess.run([sys.executable, "-m", "cli.hand", "deal", "--dealer", "7"], capture_output=True,
                         text=True, cwd=REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("error:") and res.stderr.count("\n") == 1, res.stderr


# ---------------------------------------------------------------- solve and best

SMALL = "leader 1: S:A9 H:- D:Q C:7 / S:K H:T D:- C:98 / S:Q7 H:9 D:K C:- / S:- H:AK D:J C:T ; taken 1 1 1 1"


def test_solve_text_and_json(tmp_path):
    from solver.hand import bid_table, reachable

    res = run_hand("solve", SMALL)
    assert res.exit_code == 0, res.output
    assert "Bid table (exact bids)" in res.output and "Reachable trick vectors" in res.output
    js = json.loads(run_hand("solve", SMALL, "--json").output)
    from solver.hand.rules import Position
    p = Position.parse(SMALL)
    t = bid_table(p)
    assert [s["scores"] for s in js["seats"]] == [list(r.scores) for r in t.rows]
    assert {tuple(v) for v in js["reachable"]} == reachable(p).vectors
    assert js["complete"] is True
    # the same position from a JSON file, one seat, the other rule
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(p.to_json()))
    one = json.loads(run_hand("solve", path, "--seat", "2", "--rule", "atleast", "--json",
                              "--no-reachable").output)
    assert [s["seat"] for s in one["seats"]] == [2] and one["reachable"] is None
    assert one["seats"][0]["scores"] == list(bid_table(p, 2, "atleast").row(2).scores)


def test_solve_a_deal_file(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(str(Deal.random(5)) + "\n")
    res = run_hand("solve", path, "--no-reachable")
    assert res.exit_code == 0 and res.output.startswith("Deal: dealer 3, seat 0 leads")
    assert "  seat 0    -50  -40  -30  -20  -20  -20  -30  -40  -50   3 (-20)" in res.output


def test_solve_budget_prints_unknowns():
    res = run_hand("solve", str(Deal.random(5)), "--nodes", "5")
    assert res.exit_code == 0 and "?" in res.output and "node budget" in res.output
    js = json.loads(run_hand("solve", str(Deal.random(5)), "--nodes", "5", "--json").output)
    assert js["complete"] is False and js["reachable"] is None


def test_best():
    res = run_hand("best", SMALL + " ; bids 1 2 2 1")
    assert res.exit_code == 0, res.output
    assert "Seat 1 to play, bid 2" in res.output and "9C/8C" in res.output
    js = json.loads(run_hand("best", SMALL, "--bid", "1", "--json").output)
    assert js["seat"] == 1 and js["bid"] == 1
    assert sorted(c for ch in js["cards"] for c in ch["cards"]) == ["8C", "9C", "KS", "TH"]
    assert js["best"] and all(isinstance(ch["score"], int) for ch in js["cards"])


@pytest.mark.parametrize("args,needles", [
    (("solve", "leader 0: S:A / S:K / S:Q"), ["4 hands"]),
    (("solve", "dealer 3: S:AKQJT987 H:AKQJT987 / S:- / S:- / S:-"), ["16 cards, not 8"]),
    (("solve", "leader 0: S:A / S:K / S:Q / S:J ; table AS"), ["table card AS is also in seat 0's hand"]),
    (("solve", "leader 0: S:8 / S:K / S:Q9 / S:JT ; table AS 7H"), ["revoke: seat 1 played 7H but holds spades"]),
    (("solve", "leader 0: S:A / S:K / S:Q / S:J ; bids 1 2 9 0"), ["out of range"]),
    (("best", "leader 0: S:A / S:K / S:Q / S:J ; bids 1 2 3"), ["4 numbers"]),
    (("best", "leader 0:  /  /  / "), ["the round is over"]),
    (("solve", "/no/such/file"), ["no such file"]),
])
def test_solve_and_best_bad_input(args, needles):
    assert_clean_error(run_hand(*args), *needles)
