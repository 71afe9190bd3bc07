"""Bad input gets a one-line ``error: ...`` on stderr naming the problem and where, exit
code 2, and never a traceback; a fuzz test mutates real game files (tests/data/hanablive)
to make sure of it.

Every command reads its input (FILE, --deck, --seed, --example, --players, --variant and
the rule flags) through the same code (cli.hanabi.game.input_options, cli.inputs), so each
bad input is checked here once, through ``replay`` (and ``show``, which replays a file's
actions as ``solve`` does); tests/test_solve_cli.py keeps only the errors of ``solve``'s
own options."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

from solver.hanabi.rules import load_file, parse_variant

from conftest import REPO, assert_clean_error, full_deck, real_game_files, run_cli

FILES = real_game_files()


def _nv_game(**over):
    """A valid deck-only No Variant game object (2 players), with keys overridden."""
    v = parse_variant("No Variant")
    obj = {"players": ["Alice", "Bob"], "deck": [c.to_json() for c in full_deck(v)], "actions": []}
    obj.update(over)
    return obj


def _real(i=0):
    return json.loads(FILES[i].read_text())


def _write(tmp_path, content, name="game.json"):
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif isinstance(content, str):
        p.write_text(content)
    else:
        p.write_text(json.dumps(content))
    return p


def replay_error(tmp_path, content, *needles, args=()):
    path = _write(tmp_path, content)
    res = run_cli("replay", "--json", *args, path)
    return assert_clean_error(res, str(path), *needles)


# ---------------------------------------------------------------- malformed / truncated JSON
@pytest.mark.parametrize("text", [
    '{"players": ["a", "b"], "deck": [',
    '{"players": ["a", "b"],, }',
    "[1, 2",
    "{'players': []}",
    '{"deck": [] } trailing',
])
def test_malformed_json(tmp_path, text):
    replay_error(tmp_path, text, "invalid JSON")


def test_truncated_real_file(tmp_path):
    text = FILES[0].read_text()
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 2):
        replay_error(tmp_path, text[:cut], "invalid JSON")


def test_not_utf8(tmp_path):
    replay_error(tmp_path, b'{"players": ["\xff\xfe"]}', "UTF-8")


def test_empty_file(tmp_path):
    replay_error(tmp_path, "", "empty file")
    replay_error(tmp_path, " \n\n", "empty file")


@pytest.mark.parametrize("text,kind", [
    ("42", "a number"), ("-1.5e3", "a number"), ('"hello"', "a string"), ("null", "null"), ("true", "true"),
])
def test_json_value_that_is_no_object(tmp_path, text, kind):
    """A file holding a JSON number, string, true or null: said so, not "needs a player count"."""
    err = replay_error(tmp_path, text, f"expected a JSON object (a game or a deck), got {kind}")
    assert "player count" not in err
    # with --players too: still the JSON value, not a deck in compact notation
    replay_error(tmp_path, text, f"got {kind}", args=["--players", "2"])


def test_text_that_is_no_deck_names_the_card(tmp_path):
    """A text file that is not a compact deck says so, before asking for --players."""
    path = _write(tmp_path, "hello world", "deck.txt")
    assert_clean_error(run_cli("replay", "--json", path), "deck position 0", "'hello'")


def test_deeply_nested_json(tmp_path):
    replay_error(tmp_path, "[" * 100_000 + "]" * 100_000)


def test_huge_integer(tmp_path):
    obj = json.dumps(_nv_game(actions=[{"type": 0, "target": 0}]))
    replay_error(tmp_path, obj.replace('"target": 0', '"target": ' + "9" * 5000))


# ---------------------------------------------------------------- wrong types
@pytest.mark.parametrize("over,needle", [
    ({"players": "Alice Bob"}, "'players' must be a list"),
    ({"players": ["Alice", 2]}, "'players' must be a list"),
    ({"deck": {"suitIndex": 0}}, "'deck' must be a list"),
    ({"deck": None}, "'deck' must be a list"),
    ({"actions": "none"}, "'actions' must be a list"),
    ({"actions": [[0, 1, 0]]}, "action 0"),
    ({"actions": [{"type": "play", "target": 0}]}, "action 0.type"),
    ({"actions": [{"type": 0, "target": 1.0}]}, "action 0.target"),
    ({"actions": [{"type": 0, "target": True}]}, "action 0.target"),
    ({"actions": [{"type": 2}]}, "missing key 'target'"),
    ({"actions": [{"type": 9, "target": 0}]}, "unknown action type"),
    ({"actions": [{"type": 4, "target": 0}, {"type": 0, "target": 0}]}, "not the last"),
    ({"options": []}, "options"),
    ({"options": {"emptyClues": "true"}}, "emptyClues"),
    ({"options": {"deckPlays": 1}}, "deckPlays"),
    ({"options": {"strikeoutScore": 0}}, "strikeoutScore"),
    ({"options": {"startingPlayer": "0"}}, "startingPlayer"),
    ({"options": {"startingPlayer": 2}}, "startingPlayer"),
    ({"options": {"variant": ["No Variant"]}}, "variant"),
    ({"options": {"variant": {"suits": 2, "ranks": [1, 2], "handSize": 1}}}, "clueTokens"),
    ({"options": {"variant": {"suits": 9, "ranks": [1], "handSize": 1, "clueTokens": 1}}}, "suits"),
])
def test_wrong_types_and_values(tmp_path, over, needle):
    replay_error(tmp_path, _nv_game(**over), needle)


@pytest.mark.parametrize("card,needle", [
    ("x", "deck[3] must be an object"),
    ({"rank": 1}, "deck[3] is missing 'suitIndex'"),
    ({"suitIndex": 0, "rank": "1"}, "deck[3].rank must be an integer"),
    ({"suitIndex": 0, "rank": None}, "deck[3].rank must be an integer"),
    ({"suitIndex": 5, "rank": 1}, "deck[3].suitIndex 5 out of range"),
    ({"suitIndex": -1, "rank": 1}, "deck[3].suitIndex -1 out of range"),
    ({"suitIndex": 0, "rank": 6}, "deck[3].rank 6"),
])
def test_bad_card(tmp_path, card, needle):
    obj = _nv_game()
    obj["deck"][3] = card
    replay_error(tmp_path, obj, needle)


def test_top_level_not_an_object(tmp_path):
    replay_error(tmp_path, [1, 2, 3], "expected a JSON object (a game or a deck), got a list")


# ---------------------------------------------------------------- variant and deck
def test_unknown_variant(tmp_path):
    replay_error(tmp_path, _nv_game(options={"variant": "Purple Rain (5 Suits)"}), "unknown variant", "Purple Rain")


@pytest.mark.parametrize("args", [
    ["--variant", "Nope", "FILE"],
    ["--variant", "Nope", "--example"],
    ["--variant", "Nope", "--players", "2", "--deck", "NV"],
    ["--variant", "", "--players", "2", "--deck", "NV"],
])
def test_unknown_variant_on_command_line(tmp_path, args):
    path = _write(tmp_path, _nv_game())
    v = parse_variant("No Variant")
    nv = " ".join(c.to_str(v) for c in full_deck(v))
    args = [str(path) if a == "FILE" else nv if a == "NV" else a for a in args]
    assert_clean_error(run_cli("replay", "--json", *args), "unknown variant")


def test_variant_flag_contradicts_file(tmp_path):
    path = _write(tmp_path, _nv_game())
    assert_clean_error(run_cli("replay", "--json", "--variant", "6 Suits", path), "6 Suits")


def test_deck_missing_a_card(tmp_path):
    obj = _nv_game()
    del obj["deck"][-1]
    replay_error(tmp_path, obj, "deck does not match", "missing p5")


def test_deck_of_another_variant(tmp_path):
    replay_error(tmp_path, _nv_game(options={"variant": "6 Suits"}), "deck does not match", "6 Suits")
    # purple cards read as black ones: too many black cards
    replay_error(tmp_path, _nv_game(options={"variant": "Black (5 Suits)"}), "deck does not match", "unexpected k1 k1")


def test_deck_for_custom_variant_mismatch(tmp_path):
    spec = {"suits": 1, "ranks": [1, 2], "handSize": 1, "clueTokens": 1}
    deck = [{"suitIndex": 0, "rank": 1}, {"suitIndex": 0, "rank": 1}]
    replay_error(tmp_path, {"players": ["a", "b"], "deck": deck, "options": {"variant": spec}},
                 "deck does not match", "missing r2")


@pytest.mark.parametrize("deck,needles", [
    ("r1 q2", ["--deck", "deck position 1", "q2"]),
    ("r1 r2 r3", ["--deck", "deck does not match"]),
    ("r1 r6", ["--deck", "deck position 1"]),
    ("r1, ,, #", ["deck does not match"]),
    ("   ", ["--deck", "empty"]),
    ("r11 y2", ["--deck", "deck position 0"]),
])
def test_malformed_compact_deck(deck, needles):
    assert_clean_error(run_cli("replay", "--json", "--players", "2", "--deck", deck), *needles)


# ---------------------------------------------------------------- illegal actions
@pytest.mark.parametrize("index,action,needle", [
    (0, {"type": 1, "target": 0}, "clue tokens"),        # discard with every token available
    (0, {"type": 0, "target": 40}, "still in the deck"),
    (3, {"type": 0, "target": 99}, "no such card"),
    (7, {"type": 2, "target": 9, "value": 0}, "no such player"),
    (12, {"type": 3, "target": 0, "value": 9}, "rank clue"),
])
def test_illegal_action_names_its_index(tmp_path, index, action, needle):
    obj = _real(0)
    obj["actions"][index] = action
    err = replay_error(tmp_path, obj, f"action {index}:", needle)
    # 'show' replays through the same check
    path = _write(tmp_path, obj, "again.json")
    assert_clean_error(run_cli("show", path), f"action {index}:")
    assert "action" in err


def test_clue_to_self_names_its_index(tmp_path):
    obj = _real(0)
    rec = load_file(FILES[0])
    i = next(i for i in range(10, len(rec.actions)) if rec.state_after(i).clues > 0)
    obj["actions"][i] = {"type": 3, "target": rec.state_after(i).current, "value": 1}
    replay_error(tmp_path, obj, f"action {i}:", "themself")


def test_action_after_game_end(tmp_path):
    obj = _real(0)
    obj["actions"].append({"type": 3, "target": 1, "value": 1})
    n = len(obj["actions"]) - 1
    replay_error(tmp_path, obj, f"action {n}:", "game is over")


def test_error_stays_one_line_with_odd_player_names(tmp_path):
    replay_error(tmp_path, _nv_game(players=["Al\nice", "Bob"], actions=[{"type": 0, "target": 7}]),
                 "action 0:")


@pytest.mark.parametrize("name,shown", [
    ("Alic\x00e", "Alic\\x00e"), ("A\x1b[2Jl", "A\\x1b[2Jl"), ("Al\u2028ice", "Al\\u2028ice"),
    ("Al\x85ice", "Al\\x85ice"), ("Al\rice", "Al\\rice"),
])
def test_error_line_escapes_control_characters(tmp_path, name, shown):
    """A name with a NUL, an escape sequence or a Unicode line separator is shown escaped
    in the one error line, not written raw to the terminal."""
    err = replay_error(tmp_path, _nv_game(players=[name, "Bob"], actions=[{"type": 0, "target": 7}]),
                       "action 0:", shown)
    assert not any(c in err[:-1] for c in "\x00\x1b\x85\u2028\r\n")


# ---------------------------------------------------------------- player counts, files
@pytest.mark.parametrize("names", [[], ["Solo"], [f"P{i}" for i in range(7)]])
def test_bad_player_count_in_file(tmp_path, names):
    replay_error(tmp_path, _nv_game(players=names), "player count")


def test_too_many_players_for_a_small_deck(tmp_path):
    spec = {"suits": 1, "ranks": [1, 2, 3], "handSize": 2, "clueTokens": 1}
    deck = [{"suitIndex": 0, "rank": r} for r in (1, 2, 3)]
    replay_error(tmp_path, {"players": ["a", "b"], "deck": deck, "options": {"variant": spec}}, "player count",
                 "need 4 cards for 2 hands of 2, deck has 3")
    spec = {"suits": 1, "ranks": [1, 1, 2, 2, 3, 3, 4, 5], "handSize": 5, "clueTokens": 2}
    deck = [{"suitIndex": 0, "rank": r} for r in spec["ranks"]]
    replay_error(tmp_path, {"players": ["a", "b"], "deck": deck, "options": {"variant": spec}},
                 "need 10 cards for 2 hands of 5, deck has 8")


@pytest.mark.parametrize("n", ["1", "7", "0", "-2"])
def test_bad_player_count_on_command_line(n):
    v = parse_variant("No Variant")
    text = " ".join(c.to_str(v) for c in full_deck(v))
    assert_clean_error(run_cli("replay", "--json", "--players", n, "--deck", text), "player count")


def test_player_count_contradicts_file(tmp_path):
    path = _write(tmp_path, _nv_game())
    assert_clean_error(run_cli("replay", "--json", "--players", "3", path), "3")


def test_missing_file(tmp_path):
    path = tmp_path / "nope.json"
    assert_clean_error(run_cli("replay", "--json", path), str(path), "cannot read")


def test_bare_compact_deck_needs_players(tmp_path):
    path = _write(tmp_path, "r1 r2 r3", "deck.txt")
    assert_clean_error(run_cli("replay", "--json", path), "player count")


def test_show_turn_out_of_range(tmp_path):
    path = _write(tmp_path, _nv_game())
    assert_clean_error(run_cli("show", "--turn", "5", path), "--turn 5")


def test_no_input_at_all():
    assert_clean_error(run_cli("replay", "--json"), "no input")


def test_real_process_clean_error(tmp_path):
    """The installed entry point, in a real process: exit 2, one line, no traceback."""
    path = _write(tmp_path, '{"players": ["a", "b"], "deck": [{"suitIndex": 0')
    proc = subprocess.run([sys.executable, "-m", "cli.hanabi", "replay", "--json", str(path)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1
    assert str(path) in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- fuzz
WRONG = [None, True, False, "", "x", "No Variant", "Rainbow (5 Suits)", -1, 0, 1, 2, 3, 4, 5, 6, 7, 99,
         10**6, -10**9, 2.5, float("1e300"), [], [0], [None], {}, {"a": 1},
         {"suitIndex": 0, "rank": 1}, {"type": 0, "target": 0},
         {"suits": 2, "ranks": [1, 2], "handSize": 1, "clueTokens": 1}]
OPTION_KEYS = ["variant", "emptyClues", "deckPlays", "oneExtraCard", "oneLessCard", "reserveToken",
               "strikeoutScore", "startingPlayer", "detrimentalCharacters"]


def _paths(node, prefix=()):
    """Every node below the root, as a path of keys / indices."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for k, v in items:
        yield prefix + (k,)
        yield from _paths(v, prefix + (k,))


def _parent(obj, path):
    for k in path[:-1]:
        obj = obj[k]
    return obj


def mutate(rng: random.Random, obj: dict, text: str) -> tuple[str, str]:
    """One random mutation of a valid game: (description, file content)."""
    kind = rng.choice(["truncate", "truncate", "flip", "delete", "replace", "replace", "replace",
                       "drop_item", "swap", "option", "int_shift"])
    if kind == "truncate":
        cut = rng.randrange(len(text))
        return f"truncate at {cut}", text[:cut]
    if kind == "flip":
        i = rng.randrange(len(text))
        ch = rng.choice('{}[]",:0123456789-aeZ \\')
        return f"char {i} -> {ch!r}", text[:i] + ch + text[i + 1:]
    new = copy.deepcopy(obj)
    paths = list(_paths(new))
    if kind == "delete":
        dict_paths = [p for p in paths if isinstance(_parent(new, p), dict)]
        p = rng.choice(dict_paths)
        del _parent(new, p)[p[-1]]
        desc = f"delete {p}"
    elif kind == "replace":
        p = rng.choice(paths)
        val = copy.deepcopy(rng.choice(WRONG))
        _parent(new, p)[p[-1]] = val
        desc = f"{p} = {val!r}"
    elif kind == "drop_item":
        key = rng.choice(["deck", "actions", "players"])
        if new[key]:
            i = rng.randrange(len(new[key]))
            del new[key][i]
        desc = f"delete {key}[...]"
    elif kind == "swap":
        key = rng.choice(["deck", "actions"])
        i, j = rng.randrange(len(new[key])), rng.randrange(len(new[key]))
        new[key][i], new[key][j] = new[key][j], new[key][i]
        desc = f"swap {key}[{i}] {key}[{j}]"
    elif kind == "option":
        opts = new.setdefault("options", {})
        key = rng.choice(OPTION_KEYS)
        opts[key] = copy.deepcopy(rng.choice(WRONG + [True, "stacks"]))
        desc = f"options[{key!r}] = {opts[key]!r}"
    else:  # shift an integer by a small amount (values out of range, other cards, other seats)
        ints = [p for p in paths if type(_parent(new, p)[p[-1]]) is int]
        p = rng.choice(ints)
        _parent(new, p)[p[-1]] += rng.choice([-2, -1, 1, 2, 10, 60])
        desc = f"{p} shifted"
    return desc, json.dumps(new)


def test_fuzz_mutated_real_games(tmp_path):
    rng = random.Random(20240601)
    originals = [(json.loads(p.read_text()), p.read_text()) for p in FILES]
    outcomes = {0: 0, 2: 0}
    path = tmp_path / "mutant.json"
    for n in range(1000):
        obj, text = originals[n % len(originals)]
        desc, content = mutate(rng, obj, text)
        path.write_text(content)
        res = run_cli("replay", "--json", path)
        where = f"mutation {n} ({desc})"
        if res.exit_code == 0:
            out = json.loads(res.stdout)
            assert out["end_reason"] in ("perfect", "strikeout", "final_round", "unfinished"), where
            assert res.stderr == "", where
        else:
            try:
                assert_clean_error(res, str(path))
            except AssertionError as e:
                raise AssertionError(f"{where}: {e}; exception {res.exception!r}") from None
        outcomes[res.exit_code] += 1
    # the mutations exercise both outcomes
    assert outcomes[2] > 400 and outcomes[0] > 20, outcomes
