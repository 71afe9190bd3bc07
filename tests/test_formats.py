"""Formats: hanab.live game JSON export -> import -> export is identical; the compact deck
notation round-trips; deck-only files load."""
from __future__ import annotations

import json
import random

import pytest

from solver.hanabi.rules import (
    BUILTIN,
    Action,
    Card,
    Game,
    MalformedError,
    Rules,
    format_compact,
    game_from_json,
    game_to_json,
    load_file,
    load_text,
    parse_compact,
    parse_variant,
)

from conftest import HANABLIVE, full_deck, real_game_files, run_cli

CUSTOM = [
    {"suits": 2, "ranks": [1, 1, 2, 3], "handSize": 2, "clueTokens": 2, "strikes": 3},
    {"suits": 6, "ranks": [1, 2], "handSize": 1, "clueTokens": 0, "strikes": 1},
    {"suits": 3, "ranks": [5, 4, 3, 2, 1, 1], "handSize": 3, "clueTokens": 5},
]
OPTION_SETS = [
    {},
    {"empty_clues": True},
    {"deck_plays": True, "strikeout_score": "stacks"},
    {"reserve_token": True, "one_extra_card": True},
    {"one_less_card": True, "empty_clues": True, "deck_plays": True},
]


def random_game(variant, players, options, seed, start=0, moves=30):
    """A shuffled deck and a random legal line of up to ``moves`` actions."""
    rng = random.Random(seed)
    v = parse_variant(variant)
    deck = full_deck(v)
    rng.shuffle(deck)
    names = [f"P{i}" for i in range(players)]
    game = Game(Rules(v, **options), players, deck, names=names, starting_player=start)
    st = game.initial_state()
    line = []
    while not st.over and len(line) < moves:
        a = rng.choice(st.legal_actions())
        st.apply(a)
        line.append(a)
    return game, line


def roundtrip(game, line, extra=None):
    """export -> JSON text -> import -> export; returns both exports and the import."""
    first = game_to_json(game, line, extra)
    text = json.dumps(first, indent=1)
    rec = load_text(text, "roundtrip")
    second = rec.to_json()
    assert json.dumps(second, indent=1) == text
    assert second == first
    g2 = rec.game
    assert (g2.deck, g2.names, g2.rules, g2.starting_player) == (game.deck, game.names, game.rules,
                                                                 game.starting_player)
    assert g2.variant.to_json() == game.variant.to_json()
    assert rec.actions == line
    s1, s2 = game.initial_state(), rec.state_after()
    for a in line:
        s1.apply(a)
    assert s1.snapshot() == s2.snapshot() and s1.end_reason == s2.end_reason
    return first, rec


@pytest.mark.parametrize("name", sorted(BUILTIN))
@pytest.mark.parametrize("opt_index", range(len(OPTION_SETS)))
def test_json_roundtrip_builtin_variants(name, opt_index):
    players = 2 + (opt_index + len(name)) % 5
    game, line = random_game(name, players, OPTION_SETS[opt_index], seed=sum(map(ord, name)) * 10 + opt_index,
                             start=opt_index % players)
    out, _ = roundtrip(game, line)
    opts = out.get("options", {})
    if name == "No Variant":
        assert "variant" not in opts
    else:
        assert opts["variant"] == name


@pytest.mark.parametrize("spec", CUSTOM, ids=lambda s: f"{s['suits']}x{len(s['ranks'])}")
@pytest.mark.parametrize("opt_index", range(len(OPTION_SETS)))
def test_json_roundtrip_custom_variants(spec, opt_index):
    opts = OPTION_SETS[opt_index]
    if opts.get("one_less_card") and spec["handSize"] == 1:
        opts = dict(opts, one_less_card=False)
    game, line = random_game(spec, 2 + opt_index % 3, opts, seed=opt_index, start=1, moves=60)
    out, rec = roundtrip(game, line, extra={"id": 7})
    canon = dict(spec, ranks=sorted(spec["ranks"]), strikes=spec.get("strikes", 3))
    assert out["options"]["variant"] == canon
    assert out["options"]["startingPlayer"] == 1 and out["id"] == 7


def test_json_option_names_are_hanablive():
    v = parse_variant("No Variant")
    game = Game(Rules(v, empty_clues=True, deck_plays=True, one_extra_card=True, reserve_token=True,
                      strikeout_score="stacks"), 3, full_deck(v), starting_player=2)
    out = game_to_json(game)
    assert out["options"] == {"emptyClues": True, "deckPlays": True, "oneExtraCard": True,
                              "reserveToken": True, "strikeoutScore": "stacks", "startingPlayer": 2}
    assert sorted(out) == ["actions", "deck", "options", "players"]
    assert out["deck"][:3] == [{"suitIndex": 0, "rank": 1}] * 3
    plain = game_to_json(Game(v, 2, full_deck(v)), [Action.rank_clue(1, 3)])
    assert "options" not in plain
    assert plain["actions"] == [{"type": 3, "target": 1, "value": 3}]


@pytest.mark.parametrize("path", real_game_files(), ids=lambda p: p.name)
def test_json_roundtrip_real_games(path):
    rec = load_file(path)
    roundtrip(rec.game, rec.actions, rec.extra)
    # the export keeps everything the engine reads from the original file
    original = json.loads(path.read_text())
    out = rec.to_json()
    assert out["players"] == original["players"] and out["deck"] == original["deck"]
    moves = [a for a in original["actions"] if a["type"] in (0, 1, 2, 3)]
    assert [(a["type"], a["target"]) for a in out["actions"]] == [(a["type"], a["target"]) for a in moves]
    assert [a["value"] for a in out["actions"] if a["type"] >= 2] == [a["value"] for a in moves if a["type"] >= 2]


def test_action_json_and_terminator():
    v = parse_variant(CUSTOM[0])
    deck = full_deck(v)
    obj = {"players": ["a", "b"], "deck": [c.to_json() for c in deck], "options": {"variant": CUSTOM[0]},
           "actions": [{"type": 3, "target": 1, "value": 2}, {"type": 1, "target": 2},
                       {"type": 4, "target": 0, "value": 1}]}
    rec = game_from_json(obj)
    assert rec.actions == [Action.rank_clue(1, 2), Action.discard(2)]
    assert rec.terminator is not None and rec.terminator.kind == 4
    assert rec.to_json()["actions"] == [{"type": 3, "target": 1, "value": 2}, {"type": 1, "target": 2, "value": 0}]
    st = rec.state_after()
    assert st.turn == 2 and st.discards == [2]


# ---------------------------------------------------------------- compact notation
@pytest.mark.parametrize("variant", [*sorted(BUILTIN), *CUSTOM], ids=str)
def test_compact_notation_roundtrip(variant):
    v = parse_variant(variant)
    deck = full_deck(v)
    random.Random(5).shuffle(deck)
    text = format_compact(deck, v)
    assert len(text.split()) == len(deck)
    assert parse_compact(text, v) == deck
    assert format_compact(parse_compact(text, v), v) == text
    # case, commas, newlines and comments are accepted
    messy = "# a deck\n" + ",\n".join(t.upper() for t in text.split()) + "  # the end\n"
    assert parse_compact(messy, v) == deck


def test_compact_notation_letters():
    nv = parse_variant("No Variant")
    assert format_compact([Card(0, 1), Card(1, 3), Card(3, 5), Card(4, 2)], nv) == "r1 y3 b5 p2"
    assert parse_compact("r1 y3 b5 p2 g4", nv) == [Card(0, 1), Card(1, 3), Card(3, 5), Card(4, 2), Card(2, 4)]
    assert parse_compact("t2", parse_variant("6 Suits")) == [Card(5, 2)]
    assert parse_compact("k5", parse_variant("Black (5 Suits)")) == [Card(4, 5)]
    assert parse_compact("m1", parse_variant("Rainbow (6 Suits)")) == [Card(5, 1)]


@pytest.mark.parametrize("text,needle", [
    ("r1 x2", "deck position 1"),
    ("r1 k1", "unknown suit letter"),
    ("r6", "no rank 6"),
    ("r1 r10", "deck position 1"),
    ("rr", "expected a suit letter and a rank"),
    ("   # only a comment", "empty"),
])
def test_compact_notation_errors(text, needle):
    with pytest.raises(MalformedError, match=needle):
        parse_compact(text, parse_variant("No Variant"))


def test_compact_notation_custom_rank_must_exist():
    with pytest.raises(MalformedError, match="no rank 3"):
        parse_compact("r1 r3", parse_variant({"suits": 1, "ranks": [1, 2], "handSize": 1, "clueTokens": 1}))


# ---------------------------------------------------------------- deck-only files
def test_load_deck_only_json_file(tmp_path):
    v = parse_variant("No Variant")
    deck = full_deck(v)
    random.Random(1).shuffle(deck)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"players": ["A", "B", "C"], "deck": [c.to_json() for c in deck]}))
    rec = load_file(path)
    assert rec.actions == [] and rec.terminator is None
    assert rec.game.deck == tuple(deck) and rec.game.num_players == 3 and rec.game.hand_size == 5
    assert rec.state_after().snapshot() == rec.game.initial_state().snapshot()
    res = run_cli("replay", "--json", path)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["score"], out["turns"], out["end_reason"], out["strikes"]) == (0, 0, "unfinished", 0)
    res = run_cli("show", "--json", path)
    shown = json.loads(res.stdout)
    assert shown["hands"] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]
    assert shown["deck_left"] == 35 and shown["clues"] == 8 and shown["turn"] == 0


def test_load_deck_only_json_without_players(tmp_path):
    spec = CUSTOM[0]
    v = parse_variant(spec)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"deck": [c.to_json() for c in full_deck(v)], "options": {"variant": spec}}))
    with pytest.raises(MalformedError, match="player count"):
        load_file(path)
    rec = load_file(path, players=3)
    assert rec.game.num_players == 3 and rec.game.variant == v and rec.game.names == ("Alice", "Bob", "Cathy")
    res = run_cli("show", "--json", "--players", "2", path)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["hands"] == [[0, 1], [2, 3]]


def test_load_compact_deck_file_and_option(tmp_path):
    v = parse_variant("Rainbow (5 Suits)")
    deck = full_deck(v)
    random.Random(2).shuffle(deck)
    text = format_compact(deck, v)
    path = tmp_path / "deck.txt"
    path.write_text("# a rainbow deck\n" + text + "\n")
    rec = load_file(path, players=4, rules=Rules(v))
    assert rec.game.deck == tuple(deck) and rec.game.hand_size == 4 and rec.actions == []
    for args in (["--variant", "Rainbow (5 Suits)", "--players", "4", str(path)],
                 ["--variant", "Rainbow (5 Suits)", "--players", "4", "--deck", text]):
        res = run_cli("show", "--json", *args)
        assert res.exit_code == 0, res.output
        shown = json.loads(res.stdout)
        assert shown["hands"][3] == [12, 13, 14, 15] and shown["deck_left"] == 34
    res = run_cli("show", "--json", "--players", "2", "--deck", format_compact(full_deck(parse_variant("No Variant")),
                                                                               parse_variant("No Variant")))
    assert res.exit_code == 0 and json.loads(res.stdout)["hands"][1] == [5, 6, 7, 8, 9]


def test_cli_rule_flags_apply_to_a_deck(tmp_path):
    v = parse_variant("No Variant")
    text = format_compact(full_deck(v), v)
    res = run_cli("show", "--json", "--players", "2", "--reserve-token", "--one-less-card", "--deck", text)
    assert res.exit_code == 0, res.output
    shown = json.loads(res.stdout)
    assert shown["clues"] == 9 and shown["hands"] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def _stopped_game(tmp_path, closing):
    d = json.loads((HANABLIVE / "p5v0s198_game149251.json").read_text())
    d["actions"] = d["actions"][:20] + [closing]
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(d))
    return path


@pytest.mark.parametrize("closing,how", [
    ({"type": 4, "target": 1, "value": 4}, "terminated by a player (Bob)"),
    ({"type": 4, "target": 2, "value": 3}, "timeout (Cathy)"),
    ({"type": 5, "target": -1, "value": 10}, "terminated by vote"),
])
def test_a_game_stopped_early_scores_as_the_site_scores_it(tmp_path, closing, how):
    """Issue 35: a closing game-over action is read, not dropped: the site scores a game
    stopped before its end 0, and the review covers the play before it."""
    path = _stopped_game(tmp_path, closing)
    out = json.loads(run_cli("replay", path, "--json").stdout)
    assert out["score"] == 0 and out["stacks_score"] == 9 and out["stopped"] == how and out["turns"] == 20
    assert out["end_reason"] == "stopped"
    text = run_cli("replay", path).stdout.splitlines()[-1]
    assert text.startswith("Final: score 0/25 as the site scores a game stopped early (the stacks hold 9)")
    assert text.endswith(f"end: {how}")
    review = run_cli("review", path)
    assert review.exit_code == 0
    assert f"The game was stopped at turn 20: {how}; the site scores it 0" in review.stdout
    assert json.loads(run_cli("review", path, "--json").stdout)["turns"][-1]["turn"] == 20
