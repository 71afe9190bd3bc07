"""What we write for hanab.live is a game its server loads as a replay
(``server/src/command_replay_create.go``: ``isJSONValid``, ``loadJSONOptionsToTable``):
``site_game_json`` refuses, in one line, a game the site cannot take (not a site variant,
our own rule options, a deck length its loader refuses, no action, bad notes, a closing
action it refuses); keeps the notes, the seed only when it deals the deck, a closing
game-over action of a game stopped early; drops the ``id`` and the moves after the site's
own end of the game. ``solve --replay-out`` (refused before solving) and ``puzzle export``
use it; ``--replay-format ours`` writes our own JSON."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

import solver.hanabi.methods.portfolio
from cli.inputs import load_input
from solver.hanabi.methods.strategy import greedy_line
from solver.hanabi.rules import (
    Action,
    Card,
    Game,
    IllegalActionError,
    MalformedError,
    Rules,
    custom_variant,
    game_from_json,
    game_from_seed,
    load_file,
    load_text,
    parse_variant,
)
from solver.hanabi.rules.hanablive import SITE_END_CONDITIONS, check_site_game, site_deck_size, site_end, site_game_json

from conftest import HANABLIVE, REPO, assert_clean_error, full_deck, real_game_files, run_cli

GAME3 = HANABLIVE / "p3v0s1_example_game.json"  # deckPlays, id, notes; the deck p3v0s1 deals
GAME5 = HANABLIVE / "p5v0s198_game149251.json"  # no options, id, notes of every player
PUZZLE = REPO / "docs" / "puzzles" / "p2-t67-s2024-d89.json"
CUSTOM = {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 1, "strikes": 2}


def shuffled(variant, seed: int = 1) -> list[Card]:
    deck = full_deck(variant)
    random.Random(seed).shuffle(deck)
    return deck


def some_moves(game: Game, n: int = 6) -> list[Action]:
    """``n`` legal moves, clues and discards (no strike)."""
    st = game.initial_state()
    for _ in range(n):
        st.apply(next(a for a in st.legal_actions() if a.kind != 0))
    return list(st.history)


@pytest.fixture
def no_solving(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("solve ran before the game was checked")
    monkeypatch.setattr(solver.hanabi.methods.portfolio, "solve", boom)


# ---------------------------------------------------------------- 1. refusals
REFUSED = [
    (lambda: Game(custom_variant(CUSTOM), 2, shuffled(CUSTOM)), "one of our custom variants"),
    (lambda: Game(parse_variant("Multicolor (6 Suits)"), 3, shuffled("Multicolor (6 Suits)")),
     "'Multicolor (6 Suits)' is not one of the site's variants"),
    (lambda: Game(Rules(parse_variant("No Variant"), reserve_token=True), 3, shuffled("No Variant")),
     "option reserveToken"),
    (lambda: Game(Rules(parse_variant("No Variant"), strikeout_score="stacks"), 3, shuffled("No Variant")),
     "option strikeoutScore 'stacks'"),
    # the site's GetDeckSize counts 10 cards a suit in Scarce Ones (two 1s: 9 a suit)
    (lambda: game_from_seed("p3v2394s1"), "wants 50 cards for variant 'Scarce Ones (5 Suits)'"),
]


@pytest.mark.parametrize("make,needle", REFUSED, ids=["custom", "multicolor", "reserveToken", "strikeoutScore",
                                                      "scarce-ones"])
def test_what_the_site_cannot_load_is_refused_in_one_line(make, needle):
    game = make()
    with pytest.raises(MalformedError) as e:
        site_game_json(game, some_moves(game))
    msg = str(e.value)
    assert msg.startswith("not a game hanab.live can load: ") and needle in msg and "\n" not in msg
    with pytest.raises(MalformedError, match="not a game hanab.live can load"):
        check_site_game(game)


def test_the_site_deck_sizes():
    assert [site_deck_size(parse_variant(n)) for n in ("No Variant", "6 Suits", "Black (6 Suits)",
                                                          "Rainbow (5 Suits)", "Critical Fours (5 Suits)")] == \
        [50, 60, 55, 50, 45]
    game = game_from_seed("x", 2, "Critical Fours (5 Suits)")  # 45 cards: the site agrees
    assert len(site_game_json(game, some_moves(game))["deck"]) == 45


def test_at_least_one_action():
    game = game_from_seed("p3v0s1")
    with pytest.raises(MalformedError, match="no action .*at least one action"):
        site_game_json(game, [])
    # a closing action alone is one action to the site's loader
    out = site_game_json(game, [], terminator=Action(4, 0, 4))
    assert out["actions"] == [{"type": 4, "target": 0, "value": 4}]


def test_an_illegal_move_names_its_index():
    game = game_from_seed("p3v0s1")
    moves = some_moves(game, 3) + [Action.play(49)]  # not in the mover's hand
    with pytest.raises(IllegalActionError, match="^action 3: "):
        site_game_json(game, moves)
    with pytest.raises(MalformedError, match="action 0: not a move"):
        site_game_json(game, [Action(4, 0, 4)])


# ---------------------------------------------------------------- 2. the seed
def test_seed_kept_when_it_deals_the_deck():
    rec = load_input(seed="p3v0s1")
    out = site_game_json(rec.game, some_moves(rec.game), rec.extra)
    assert out["seed"] == "p3v0s1"
    assert load_text(json.dumps(out), "x").extra == {"seed": "p3v0s1"}
    real = load_file(GAME3)  # the real game of seed p3v0s1 (its file has no seed)
    assert "seed" not in real.to_site_json()
    assert site_game_json(real.game, real.actions, dict(real.extra, seed="p3v0s1"))["seed"] == "p3v0s1"


@pytest.mark.parametrize("seed", ["p3v0s2", "p4v0s1", "p3v1s1", "", 7, None])
def test_seed_dropped_when_it_deals_another_deck(seed):
    # with a seed the site deals from it and ignores the JSON's deck
    real = load_file(GAME3)
    out = site_game_json(real.game, real.actions, dict(real.extra, seed=seed))
    assert "seed" not in out


def test_seed_dropped_for_another_deck_of_that_seed():
    game = game_from_seed("p3v0s1")
    deck = list(game.deck)
    deck[-1], deck[-2] = deck[-2], deck[-1]
    assert deck != list(game.deck)
    other = Game(game.rules, 3, deck)
    assert "seed" not in site_game_json(other, some_moves(other), {"seed": "p3v0s1"})


# ---------------------------------------------------------------- 3. notes, id
def test_notes_round_trip():
    original = json.loads(GAME5.read_text())
    rec = load_file(GAME5)
    assert rec.extra["notes"] == original["notes"]  # the loader keeps them
    out = rec.to_site_json()
    assert out["notes"] == original["notes"] and "id" not in out
    back = load_text(json.dumps(out), "back")
    assert back.extra == {"notes": original["notes"]} and back.to_site_json() == out
    assert rec.to_json()["notes"] == original["notes"]  # our own writer keeps them too


@pytest.mark.parametrize("notes,needle", [
    ("r3", "notes must be a list"),
    ([["a"], ["b"]], "2 lists of notes for 3 players"),
    ([["a"], [1], []], "notes[1] must be a list of strings"),
    ([[""] * 56, [], []], "notes[0] has 56 notes, the site takes at most 55"),
])
def test_notes_the_site_refuses(notes, needle):
    rec = load_file(GAME3)
    with pytest.raises(MalformedError, match="not a game hanab.live can load") as e:
        site_game_json(rec.game, rec.actions, dict(rec.extra, notes=notes))
    assert needle in str(e.value)


def test_empty_notes_are_left_out():
    rec = load_file(GAME3)
    assert "notes" not in site_game_json(rec.game, rec.actions, dict(rec.extra, notes=[]))


# ---------------------------------------------------------------- 4. the closing game-over action
def _stopped(tmp_path, closing: dict, n: int = 20):
    """GAME5 stopped after ``n`` moves by ``closing`` (as the site exports a terminated game)."""
    obj = json.loads(GAME5.read_text())
    obj["actions"] = obj["actions"][:n] + [closing]
    return load_text(json.dumps(obj), "stopped")


@pytest.mark.parametrize("closing", [{"type": 4, "target": 2, "value": 4}, {"type": 4, "target": 0, "value": 3},
                                     {"type": 5, "target": -1, "value": 10}])
def test_a_closing_game_over_action_is_kept(tmp_path, closing):
    rec = _stopped(tmp_path, closing)
    assert rec.terminator is not None and len(rec.actions) == 20
    out = rec.to_site_json()
    assert out["actions"][-1] == closing and len(out["actions"]) == 21
    back = load_text(json.dumps(out), "back")
    assert back.terminator == rec.terminator and back.actions == rec.actions


@pytest.mark.parametrize("closing,needle", [
    ({"type": 4, "target": 0, "value": 1}, "value 1"),  # a normal end is the server's own: it refuses it
    ({"type": 4, "target": 0, "value": 2}, "value 2"),
    ({"type": 4, "target": -1, "value": 6}, "target -1 is not a seat"),  # idle timeout: the loader refuses -1
    ({"type": 5, "target": 0, "value": 10}, "target must be -1"),
])
def test_closing_actions_the_site_refuses(tmp_path, closing, needle):
    with pytest.raises(MalformedError, match="not a game hanab.live can load") as e:
        _stopped(tmp_path, closing).to_site_json()
    assert needle in str(e.value)
    assert set(SITE_END_CONDITIONS) == {3, 4, 6, 8, 10}


def test_no_closing_action_after_the_end():
    rec = load_file(GAME5)
    with pytest.raises(MalformedError, match="after the game's end"):
        site_game_json(rec.game, rec.actions, terminator=Action(4, 0, 4))


def test_none_added_to_a_game_that_ended_by_itself():
    # the site's exports of games that ended by themselves have no closing action (a
    # type-4 value 1 would stop its replay: command_action.go:439-448)
    for path in real_game_files():
        rec = load_file(path)
        assert rec.terminator is None
        acts = rec.to_site_json()["actions"]
        assert len(acts) == len(rec.actions) and acts[-1]["type"] < 4


# ---------------------------------------------------------------- 5. the site's own end of a game
def test_moves_after_the_sites_end_are_dropped():
    """The site also ends a game when nothing more can be scored (game.go CheckEnd); the
    printed rules play on to the final round. The greedy line of some seed under the
    printed rules shows it: written for the site, it stops where the site stops."""
    for n in range(1, 200):
        game = game_from_seed(f"p2v0s{n}")
        printed = Game(replace(game.rules, play_to_the_end=True), 2, game.deck)
        line, score = greedy_line(printed.initial_state())
        end = site_end(game, line)
        if end is not None and end < len(line):
            break
    else:
        pytest.fail("no greedy line the site ends early")
    assert site_end(printed, line) == end  # the site's end, whatever the game's own rules
    out = site_game_json(game, line)
    assert out["actions"] == [a.to_json() for a in line[:end]]
    st = load_text(json.dumps(out), "x").state_after()
    assert st.over and st.end_reason in ("max_score", "no_plays") and st.score == score
    with pytest.raises(MalformedError, match="playToTheEnd"):
        site_game_json(printed, line)


@pytest.mark.parametrize("path", real_game_files(), ids=lambda p: p.name)
def test_the_site_ended_the_real_games_where_we_say(path):
    rec = load_file(path)
    assert site_end(rec.game, rec.actions) == len(rec.actions)
    assert site_end(rec.game, rec.actions[:-1]) is None


# ---------------------------------------------------------------- 6. real games load back the same
@pytest.mark.parametrize("path", real_game_files(), ids=lambda p: p.name)
def test_real_games_load_back_the_same(path):
    original = json.loads(path.read_text())
    rec = load_file(path)
    out = rec.to_site_json()
    assert sorted(out) == sorted(k for k in original if k != "id")
    assert out["players"] == original["players"] and out["deck"] == original["deck"]
    assert out["actions"] == original["actions"] and out.get("options") == original.get("options")
    assert out["notes"] == original["notes"]
    back = load_text(json.dumps(out, indent=1), "back")
    g, g2 = rec.game, back.game
    assert (g2.deck, g2.names, g2.rules, g2.starting_player) == (g.deck, g.names, g.rules, g.starting_player)
    assert back.actions == rec.actions and back.terminator is None
    assert back.state_after().snapshot() == rec.state_after().snapshot()


def test_starting_player_is_written_as_the_site_reads_it():
    # old games: options.startingPlayer, used unchecked by the site (command_table_start.go:197)
    v = parse_variant("No Variant")
    game = Game(v, 3, shuffled(v), starting_player=2)
    out = site_game_json(game, some_moves(game))
    assert out["options"] == {"startingPlayer": 2}
    assert game_from_json(out).game.starting_player == 2


# ---------------------------------------------------------------- 7. solve --replay-out
INPUTS = [
    ("custom", lambda d: [_file(d, {"players": 2, "deck": [c.to_json() for c in shuffled(CUSTOM)],
                                    "options": {"variant": CUSTOM}})], "one of our custom variants"),
    ("multicolor", lambda d: [_file(d, {"players": 3, "deck": [c.to_json() for c in shuffled("Multicolor (6 Suits)")],
                                        "options": {"variant": "Multicolor (6 Suits)"}})], "Multicolor"),
    ("reserveToken", lambda d: ["--example", "--reserve-token"], "option reserveToken"),
    ("strikeoutScore", lambda d: ["--example", "--strikeout-score", "stacks"], "option strikeoutScore"),
    ("scarce-ones", lambda d: ["--seed", "p3v2394s1"], "Scarce Ones"),
    ("notes", lambda d: [_file(d, dict(json.loads(GAME3.read_text()), notes=[["x"]]))], "1 lists of notes"),
]


def _file(d, obj) -> str:
    path = d / "in.json"
    path.write_text(json.dumps(obj))
    return str(path)


@pytest.mark.parametrize("name,args,needle", INPUTS, ids=[i[0] for i in INPUTS])
def test_replay_out_refused_before_solving(tmp_path, no_solving, name, args, needle):
    out = tmp_path / "best.json"
    err = assert_clean_error(run_cli("solve", *args(tmp_path), "--replay-out", out),
                             f"--replay-out {out}: not a game hanab.live can load: ", needle, "--replay-format ours")
    assert not out.exists(), err


def test_replay_format_ours_writes_our_own_json(tmp_path):
    v = custom_variant(CUSTOM)
    game = Game(Rules(v, deck_plays=True, strikeout_score="stacks"), 2, shuffled(CUSTOM, 5), starting_player=1)
    path = _file(tmp_path, {"players": ["a", "b"], "deck": [c.to_json() for c in game.deck],
                            "options": {"variant": CUSTOM, "deckPlays": True, "strikeoutScore": "stacks",
                                        "startingPlayer": 1}})
    out = tmp_path / "best.json"
    res = run_cli("solve", path, "--replay-out", out, "--replay-format", "ours")
    assert res.exit_code == 0, res.output
    rec = load_file(out)
    assert rec.game.rules == game.rules and rec.game.starting_player == 1 and rec.state_after().over
    assert_clean_error(run_cli("solve", "--example", "--replay-format", "ours"), "--replay-format: give --replay-out")


def test_replay_out_of_a_real_game(tmp_path):
    out = tmp_path / "best.json"
    res = run_cli("solve", GAME5, "--replay-out", out, "--replay-format", "site")
    assert res.exit_code == 0, res.output
    original, written = json.loads(GAME5.read_text()), json.loads(out.read_text())
    assert "id" not in written and written["notes"] == original["notes"]
    assert written["actions"] == original["actions"] and written["deck"] == original["deck"]


# ---------------------------------------------------------------- 8. puzzle export
def _puzzle(tmp_path, edit) -> str:
    d = json.loads(PUZZLE.read_text())
    edit(d)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(d))
    return str(path)


def _other_game(variant, players):
    def edit(d):
        d["game"] = {"players": [f"P{i}" for i in range(players)],
                     "deck": [c.to_json() for c in shuffled(variant)], "options": {"variant": variant}}
    return edit


@pytest.mark.parametrize("edit,needle", [
    (lambda d: d["game"].setdefault("options", {}).update(reserveToken=True), "option reserveToken"),
    (lambda d: d["game"].setdefault("options", {}).update(strikeoutScore="stacks"), "option strikeoutScore"),
    (_other_game(CUSTOM, 2), "one of our custom variants"),
    (_other_game("Multicolor (6 Suits)", 3), "Multicolor"),
], ids=["reserveToken", "strikeoutScore", "custom", "multicolor"])
def test_puzzle_export_refuses_what_the_site_cannot_load(tmp_path, edit, needle):
    f = _puzzle(tmp_path, edit)
    out = tmp_path / "game.json"
    assert_clean_error(run_cli("puzzle", "export", f, "--with-solution", "--out", out),
                       f"{f}: export: not a game hanab.live can load: ", needle)
    assert not out.exists()


def test_puzzle_export_is_a_site_game(tmp_path):
    f = _puzzle(tmp_path, lambda d: d["game"].update(id=5))
    res = run_cli("puzzle", "export", f)
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert "id" not in obj and obj["actions"]
    full = json.loads(run_cli("puzzle", "export", f, "--with-solution").stdout)
    assert full["actions"][:len(obj["actions"])] == obj["actions"]
    assert load_text(json.dumps(full), "x").state_after().over


def test_null_notes_are_none():
    rec = load_file(GAME3)
    assert "notes" not in site_game_json(rec.game, rec.actions, dict(rec.extra, notes=None))
