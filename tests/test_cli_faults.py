"""Faults found by fuzzing and fault injection, each fixed in the command line or the
loaders: output to a full device or a closed pipe, output paths checked before the work,
what a written solver line keeps of its input, the answer's wording when the second proof
is missing, strings that cannot be printed, contradictory rule flags, one-line ``.jsonl``
decks, one turn numbering, and what is still reachable once a game is over.

Most run in-process (click's CliRunner); the output faults need real file descriptors and
run ``python -m cli.hanabi`` (and ``python -m cli.hand``) in a subprocess."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver.hanabi.methods.portfolio
from cli.common import EXIT_BROKEN_PIPE
from cli.hanabi.game import score_text
from solver.common.outputs import check_output_path, write_output
from solver.hanabi.methods.portfolio import Proof, Solution
from solver.hanabi.rules import Action, MalformedError, Rules, game_from_json, load_file, parse_variant

from conftest import HANABLIVE, REPO, assert_clean_error, full_deck, run_cli

NV = parse_variant("No Variant")
GAME3 = HANABLIVE / "p3v0s1_example_game.json"      # 25 points, perfect
GAME5 = HANABLIVE / "p5v0s198_game149251.json"     # 23 points, final round
DECK = [c.to_json() for c in full_deck(NV)]


def _write(tmp_path, obj, name="game.json") -> Path:
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return p


def _cli(*args, stdout, module="cli.hanabi"):
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120)


# ---------------------------------------------------------------- 1. stdout faults
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")

OUTPUT_COMMANDS = [
    ("cli.hanabi", ["solve", "--seed", "p3v0s1", "--json"]),
    ("cli.hanabi", ["solve", "--example"]),                 # several lines, more than one buffer
    ("cli.hanabi", ["deal", "p3v0s1"]),
    ("cli.hanabi", ["show", GAME5]),
    ("cli.hanabi", ["replay", GAME5]),
    ("cli.hanabi", ["replay", "--json", GAME3]),
    ("cli.hand", ["deal", "--seed", "1", "--json"]),             # python -m cli.hand: the same run()
]


@needs_dev_full
@pytest.mark.parametrize("module,args", OUTPUT_COMMANDS, ids=lambda x: x if isinstance(x, str) else " ".join(
    map(str, x)).replace(str(HANABLIVE) + "/", ""))
def test_output_to_a_full_device(module, args):
    with open("/dev/full", "w") as full:
        proc = _cli(*args, stdout=full, module=module)
    assert proc.stderr == "error: cannot write the output: No space left on device\n", proc.stderr
    assert proc.returncode == 2


@needs_dev_full
def test_input_error_with_a_full_stdout_is_still_one_line(tmp_path):
    bad = _write(tmp_path, '{"players": ["a", "b"], "deck": [')
    with open("/dev/full", "w") as full:
        proc = _cli("replay", bad, stdout=full)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1 and "invalid JSON" in proc.stderr


def test_closed_pipe_exits_quietly():
    """``hanabi deal p3v0s1 | head -c1``: the reader is gone; no traceback, no message,
    exit code 141 (as a command killed by SIGPIPE)."""
    r, w = os.pipe()
    os.close(r)
    try:
        proc = _cli("replay", GAME5, stdout=w)
    finally:
        os.close(w)
    assert proc.stderr == ""
    assert proc.returncode == EXIT_BROKEN_PIPE == 141


def test_guarded_stdout_writes_as_before():
    """The real entry point writes the same bytes as the in-process command."""
    proc = _cli("deal", "p3v0s1", stdout=subprocess.PIPE)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == run_cli("deal", "p3v0s1").stdout


# ---------------------------------------------------------------- 2. output paths, before the work
@pytest.fixture
def no_solving(monkeypatch):
    """Make solving fail loudly: a path error must come before it."""
    def boom(*a, **k):
        raise AssertionError("solve ran before the output path was checked")
    monkeypatch.setattr(solver.hanabi.methods.portfolio, "solve", boom)


@pytest.mark.parametrize("make,needle", [
    (lambda d: "", "--replay-out: empty file name"),
    (lambda d: "  ", "--replay-out: blank file name"),
    (lambda d: "/nonexistent/x.json", "folder /nonexistent does not exist"),
    (lambda d: str(d / "no" / "x.json"), "does not exist"),
    (lambda d: str(d), "is a folder"),
    (lambda d: str(d / "new") + "/", "names a folder"),
    (lambda d: str(d / "file.txt" / "x.json"), "is not a folder"),
    (lambda d: str(d / "x\0.json"), "not a usable file name"),
])
def test_replay_out_checked_before_solving(tmp_path, no_solving, make, needle):
    (tmp_path / "file.txt").write_text("keep")
    path = make(tmp_path)
    assert_clean_error(run_cli("solve", "--example", "--replay-out", path), "--replay-out", needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]  # nothing created
    assert (tmp_path / "file.txt").read_text() == "keep"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_replay_out_in_a_read_only_folder(tmp_path, no_solving):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert_clean_error(run_cli("solve", "--example", "--replay-out", ro / "x.json"), "permission denied")
    finally:
        ro.chmod(0o755)


def test_check_output_path_creates_nothing(tmp_path):
    check_output_path(str(tmp_path / "new.json"), "--out")
    assert not (tmp_path / "new.json").exists()
    (tmp_path / "old.json").write_text("x")
    check_output_path(str(tmp_path / "old.json"), "--out")  # an existing file is fine: it is replaced
    with pytest.raises(MalformedError, match="^--out: empty file name$"):
        check_output_path("", "--out")


def test_write_output_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    target = tmp_path / "best.json"
    target.write_text("old")

    def no_rename(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(MalformedError, match="--replay-out .*best.json: cannot write: No space left on device"):
        write_output(str(target), "new", "--replay-out")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["best.json"]  # no temporary file left
    monkeypatch.undo()
    write_output(str(target), "new", "--replay-out")
    assert target.read_text() == "new"


# ---------------------------------------------------------------- 3. what --replay-out keeps
def test_replay_out_drops_the_real_games_id(tmp_path):
    assert "id" in json.loads(GAME3.read_text())
    out = tmp_path / "best.json"
    res = run_cli("solve", GAME3, "--replay-out", out)
    assert res.exit_code == 0, res.output
    obj = json.loads(out.read_text())
    assert "id" not in obj  # the written game is not the real game of that id
    assert obj["options"] == {"deckPlays": True} and len(obj["players"]) == 3


def test_replay_out_keeps_the_seed(tmp_path):
    out = tmp_path / "best.json"
    assert run_cli("solve", "--seed", "p3v0s1", "--replay-out", out).exit_code == 0
    obj = json.loads(out.read_text())
    assert obj["seed"] == "p3v0s1"  # the deck is still the one the seed deals
    assert load_file(out).extra == {"seed": "p3v0s1"}


# ---------------------------------------------------------------- 4. the answer's wording
def _sol(best, upper, exact, kind="unconfirmed"):
    return Solution(best, upper, exact, [], Proof(kind, "because", ("sat",)), {"nodes": 0, "time": 0.0})


def test_bounds_equal_but_not_confirmed_reads_as_no_contradiction(monkeypatch):
    monkeypatch.setattr(solver.hanabi.methods.portfolio, "solve", lambda *a, **k: _sol(24, 24, False))
    res = run_cli("solve", "--example")
    assert res.exit_code == 0, res.output
    line = next(ln for ln in res.stdout.splitlines() if ln.startswith("Maximum score: "))
    assert line == ("Maximum score: 24/25, found and bounded, but not confirmed by a second proof "
                    "(the second proof timed out)")
    assert "at least" not in line


def test_score_text_cases():
    assert score_text(_sol(25, 25, True, "perfect"), 25, "portfolio") == "25/25 (exact)"
    assert "sat engine alone" in score_text(_sol(22, 22, False), 25, "sat")
    assert score_text(_sol(22, 24, False, "open"), 25, "portfolio") == \
        "at least 22, at most 24 of 25 (not proven: timed out)"


# ---------------------------------------------------------------- 5. strings that cannot be printed
S = "@surrogate@"


def _with_surrogate(obj) -> str:
    """``obj`` as JSON, each ``S`` a string holding a lone surrogate (JSON ``"\\ud800x"``)."""
    return json.dumps(obj).replace(f'"{S}"', '"\\ud800x"')


@pytest.mark.parametrize("command", ["show", "replay", "solve", "review"])
def test_lone_surrogate_in_a_player_name(tmp_path, command):
    path = _write(tmp_path, _with_surrogate({"players": [S, "Bob"], "deck": DECK}))
    assert_clean_error(run_cli(command, path), str(path), "players[0]: not valid Unicode (lone surrogate)")


@pytest.mark.parametrize("key", ["seed", "id"])
def test_lone_surrogate_in_seed_or_id(tmp_path, key):
    """Printed and stored as keys by hanabi analyse."""
    path = _write(tmp_path, _with_surrogate({"players": ["a", "b"], "deck": DECK, key: S}))
    assert_clean_error(run_cli("show", path), f"{key}: not valid Unicode")


def test_lone_surrogate_in_the_variant_name(tmp_path):
    path = _write(tmp_path, _with_surrogate({"players": ["a", "b"], "deck": DECK, "options": {"variant": S}}))
    assert_clean_error(run_cli("show", path), "unknown variant", "\\ud800")


# ---------------------------------------------------------------- 6. contradictory flags
@pytest.mark.parametrize("args", [
    ["solve", "--example"], ["replay", "--seed", "p3v0s1"], ["show", "--example"], ["deal", "p3v0s1"],
])
def test_one_extra_and_one_less_card_on_the_command_line(args):
    assert_clean_error(run_cli(*args, "--one-extra-card", "--one-less-card"), "--one-extra-card",
                       "--one-less-card", "contradict")


def test_one_extra_and_one_less_card_in_a_file(tmp_path):
    path = _write(tmp_path, {"players": ["a", "b"], "deck": DECK,
                             "options": {"oneExtraCard": True, "oneLessCard": True}})
    assert_clean_error(run_cli("show", path), str(path), "oneExtraCard", "oneLessCard", "contradict")


def test_file_option_and_command_line_flag_contradict(tmp_path):
    path = _write(tmp_path, {"players": ["a", "b"], "deck": DECK, "options": {"oneExtraCard": True}})
    assert_clean_error(run_cli("show", path, "--one-less-card"), "options.oneExtraCard", "--one-less-card")
    path = _write(tmp_path, {"players": ["a", "b"], "deck": DECK, "options": {"strikeoutScore": "stacks"}})
    assert_clean_error(run_cli("show", path, "--strikeout-score", "zero"), "strikeoutScore", "--strikeout-score")
    assert run_cli("show", path, "--strikeout-score", "stacks").exit_code == 0


def test_rules_reject_both_hand_size_options():
    with pytest.raises(MalformedError, match="one_extra_card and one_less_card"):
        Rules(NV, one_extra_card=True, one_less_card=True)
    with pytest.raises(MalformedError, match="oneExtraCard and oneLessCard"):
        Rules.from_json_options({"oneExtraCard": True, "oneLessCard": True})


# ---------------------------------------------------------------- 7. deck lines (.jsonl) and integer players
def _line(**over):
    return dict({"players": 3, "deck": DECK}, **over)


@pytest.mark.parametrize("command", ["solve --json", "show --json", "replay --json"])
def test_one_line_jsonl_deck_is_accepted(tmp_path, command):
    path = _write(tmp_path, json.dumps(_line(id="d1", variant="No Variant")) + "\n\n", "deck.jsonl")
    res = run_cli(*command.split(), path)
    assert res.exit_code == 0, res.output
    assert res.stderr == ""
    rec = load_file(path)
    assert rec.game.num_players == 3 and rec.game.variant == NV and [c.to_json() for c in rec.game.deck] == DECK


def test_jsonl_of_several_lines_points_to_analyse(tmp_path):
    path = _write(tmp_path, "\n".join(json.dumps(_line(id=i)) for i in range(3)), "decks.jsonl")
    assert_clean_error(run_cli("solve", path), str(path), "3 JSON lines", "hanabi analyse")


def test_jsonl_errors_name_the_line(tmp_path):
    path = _write(tmp_path, "\n" + json.dumps(_line(players=9)), "deck.jsonl")
    assert_clean_error(run_cli("show", path), f"{path}: line 2:", "player count")
    path = _write(tmp_path, "42\n", "n.jsonl")
    assert_clean_error(run_cli("show", path), f"{path}: line 1:", "got a number")


def test_integer_players_and_top_level_variant_in_a_json_deck(tmp_path):
    v = parse_variant("Rainbow (5 Suits)")
    deck = [c.to_json() for c in full_deck(v)]
    path = _write(tmp_path, {"players": 4, "variant": v.name, "deck": deck})
    out = json.loads(run_cli("show", "--json", path).stdout)
    assert len(out["hands"]) == 4 and len(out["hands"][0]) == 4
    assert load_file(path).game.variant == v
    assert_clean_error(run_cli("show", path, "--players", "3"), "4 players", "--players says 3")
    assert_clean_error(run_cli("show", path, "--variant", "No Variant"), "Rainbow", "--variant says")
    bad = _write(tmp_path, {"players": 4, "variant": "No Variant", "deck": deck, "options": {"variant": v.name}})
    assert_clean_error(run_cli("show", bad), "'variant'", "options.variant", "disagree")
    assert_clean_error(run_cli("show", _write(tmp_path, {"players": True, "deck": DECK})), "'players' must be")


def test_empty_file_argument():
    assert_clean_error(run_cli("show", ""), "FILE: empty file name")


# ---------------------------------------------------------------- 10. one turn numbering
def test_turn_numbers_agree_between_replay_show_and_errors(tmp_path):
    """Line N of the replay log is the move made at turn N: by the player `show --turn N`
    has to act, the same N an illegal action's error names."""
    lines = [ln for ln in run_cli("replay", GAME5).stdout.splitlines() if re.match(r" *\d+\. ", ln)]
    rec = load_file(GAME5)
    assert len(lines) == len(rec.actions)
    for n in (0, 1, 17, len(lines) - 1):
        label, rest = lines[n].split(". ", 1)
        assert int(label) == n
        shown = run_cli("show", GAME5, "--turn", n).stdout.splitlines()[0]
        assert shown == f"Turn {n}: {rest.split(':')[0]} to act"
    obj = json.loads(GAME5.read_text())
    obj["actions"][17] = {"type": 0, "target": 99}
    assert_clean_error(run_cli("replay", _write(tmp_path, obj)), "action 17:")


def test_solve_from_a_position_numbers_its_line_from_there(tmp_path):
    obj = json.loads(GAME3.read_text())
    obj["actions"] = obj["actions"][:10]
    lines = run_cli("solve", _write(tmp_path, obj)).stdout.splitlines()
    assert lines[0].endswith("from turn 10")
    first = next(ln for ln in lines if re.match(r" *\d+\. ", ln))
    assert first.startswith(" 10. ")


# ---------------------------------------------------------------- 11. reachable after the end
def test_finished_game_reaches_only_its_score():
    out = json.loads(run_cli("replay", "--json", GAME5).stdout)
    assert out["score"] == 23 and out["end_reason"] == "final_round"
    assert out["max_reachable"] == 23
    snap = json.loads(run_cli("show", "--json", GAME5).stdout)
    assert snap["over"] and snap["max_reachable"] == 23
    text = run_cli("show", GAME5).stdout
    assert "max reachable 23" in text and text.startswith("Turn 53: game over (final_round)")
    # before the end, the card bound as before
    st = load_file(GAME5).state_after(40)
    assert not st.over and st.still_reachable() == st.max_reachable()
    assert json.loads(run_cli("show", "--json", GAME5, "--turn", 40).stdout)["max_reachable"] == st.max_reachable()


def test_still_reachable_after_a_strikeout():
    deck = full_deck(NV, "r2 r3 r4 y2 y3 g2 g3 g4 b2 b3")  # no 1 in either hand: every play strikes
    st = game_from_json({"players": ["a", "b"], "deck": [c.to_json() for c in deck]}).game.initial_state()
    for _ in range(3):
        st.apply(Action.play(st.hands[st.current][0]))
    assert st.over and st.end_reason == "strikeout" and st.score == 0
    assert st.still_reachable() == 0 < st.max_reachable()


def test_replay_out_to_a_pipe_and_through_a_link(tmp_path):
    """A device or pipe is written as it is (not replaced by a file); a symbolic link keeps
    pointing to the file, which gets the new content."""
    proc = _cli("solve", "--example", "--replay-out", "/dev/stdout", "--json", stdout=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr
    assert '"players"' in proc.stdout and '"max_score"' in proc.stdout
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("old")
    link.symlink_to(target.name)
    assert run_cli("solve", "--example", "--replay-out", link).exit_code == 0
    assert link.is_symlink() and load_file(link).state_after().score == 25


def test_hands_too_large_after_a_command_line_flag_name_the_file(tmp_path):
    spec = {"suits": 1, "ranks": [1, 1, 2, 2], "handSize": 2, "clueTokens": 2}
    path = _write(tmp_path, {"players": ["a", "b"], "deck": [{"suitIndex": 0, "rank": r} for r in spec["ranks"]],
                             "options": {"variant": spec}})
    assert run_cli("show", path).exit_code == 0
    assert_clean_error(run_cli("show", path, "--one-extra-card"), str(path),
                       "need 6 cards for 2 hands of 3, deck has 4")
