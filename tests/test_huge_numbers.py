"""Numbers too large to read, and crashes (issue 34, item 3): a 5,000-digit integer in a
file or an argument is a one-line error naming the field that holds it (not Python's
advice to raise its digit limit, not a traceback), and an exception nothing catches (a
bug) is one line with exit code 3, never 1, which ``hand puzzle check`` keeps for an
invalid puzzle."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from click.testing import CliRunner

from cli.hand import hand

from conftest import DATA, HANABLIVE, REPO, assert_clean_error, run_cli

BIG = "9" * 5000


def run_hand(*args):
    return CliRunner().invoke(hand, [str(a) for a in args])


def test_a_huge_number_in_a_hanabi_game_names_its_field(tmp_path):
    text = (HANABLIVE / "p3v0s1_example_game.json").read_text()
    d = json.loads(text)
    d["deck"][3]["rank"] = 7777
    path = tmp_path / "big.json"
    path.write_text(json.dumps(d).replace("7777", BIG))
    err = assert_clean_error(run_cli("show", path), f"{path}: deck[3].rank: a number of 5000 digits")
    assert "set_int_max_str_digits" not in err


def test_a_huge_number_in_hand_files_names_its_field(tmp_path):
    game = tmp_path / "game.json"
    game.write_text((DATA / "hand_review_game.json").read_text().replace('"dealer": 3', f'"dealer": {BIG}', 1))
    assert BIG in game.read_text()
    for command in ("review", "replay"):
        assert_clean_error(run_hand(command, game), "rounds[0].dealer: a number of 5000 digits")
    puzzle = tmp_path / "puzzle.json"
    puzzle.write_text((DATA / "hand_puzzle.json").read_text().replace('"version": 1', f'"version": {BIG}', 1))
    assert_clean_error(run_hand("puzzle", "check", puzzle), "version: a number of 5000 digits")


def test_a_huge_number_in_hand_notation_names_its_part():
    deal = "S:T7 H:- D:AQ8 C:QJ9 / S:A98 H:A97 D:J C:8 / S:- H:KQJT D:T9 C:A7 / S:KQJ H:8 D:K7 C:KT"
    assert_clean_error(run_hand("solve", f"dealer {BIG}: {deal}"), "dealer: a number of 5000 digits")
    position = ("leader 2: S:J98 H:Q D:- C:T / S:AT H:A8 D:Q C:- / S:- H:9 D:8 C:KQ / S:- H:- D:AJ97 C:7 ; "
                f"table KD ; taken 2 0 1 {BIG} ; bids 3 1 2 0")
    assert_clean_error(run_hand("best", position), "taken: a number of 5000 digits")


def test_a_huge_seed_range(tmp_path):
    assert_clean_error(run_cli("analyse", f"p3v0s1..{BIG}", "--db", tmp_path / "s.sqlite"),
                       "a seed number of 5000 digits")
    assert not (tmp_path / "s.sqlite").exists()


def test_a_crash_is_one_line_and_exit_code_3():
    """A bug in a command (here: the notation parser made to raise) is one line, exit 3."""
    code = ("import sys, cli.hand as h, solver.hand.rules.notation as n\n"
            "def boom(*a, **k): raise KeyError('boom')\n"
            "n.parse_text = boom\n"
            "import solver.hand.rules.state as s; s.parse_text = boom\n"
            "sys.argv = ['hand', 'solve', 'dealer 3: x']\n"
            "h.main()\n")
    env = dict(os.environ)
    env.pop("HANABI_TRACEBACK", None)
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert r.stderr.startswith("error: internal error") and "KeyError" in r.stderr and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr
    shown = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=dict(env, HANABI_TRACEBACK="1"),
                           capture_output=True, text=True, timeout=60)
    assert "Traceback" in shown.stderr and shown.returncode != 0
