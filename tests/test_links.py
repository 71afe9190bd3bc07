"""hanab.live replay links: our encoder against a decoder written here from the site's
format (``packages/client/src/lobby/hypoCompress.ts``: ``expand``, ``decompressDeck``,
``stringToDeckCard``, ``decompressActions``, ``stringToAction``), on thousands of random
games of many variants, including the site's decoding quirks."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from solver.hanabi.rules import Action, Game, MalformedError, parse_variant
from solver.hanabi.rules.hanablive import site_end
from solver.hanabi.rules.links import replay_code, replay_link
from solver.hanabi.rules.seeds import game_from_seed
from solver.hanabi.rules.sitevariants import refusal, site_names

B62 = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def site_expand(code: str) -> dict:
    """What the site's ``expand`` makes of a code: players count, deck, actions, variant id."""
    normal = code.replace("-", "")
    players_deck, actions, variant = normal.split(",", 2)
    n = int(players_deck[0])
    lo, hi = int(players_deck[1]), int(players_deck[2])
    r = hi - lo + 1
    deck = []
    for ch in players_deck[3:]:
        index = B62.index(ch)
        rank = index % r + 1  # the site adds 1, not the lowest rank
        deck.append({"suitIndex": (index - rank + 1) // r, "rank": rank})
    acts = []
    tlo, thi = int(actions[0]), int(actions[1])
    if tlo >= 0 and tlo <= thi and not (actions[:2] == "00" and len(actions) == 2):
        tr = thi - tlo + 1
        for i in range(2, len(actions), 2):
            index = B62.index(actions[i])
            kind = index % tr
            val = (index - kind) // tr
            acts.append({"type": kind + tlo, "target": B62.index(actions[i + 1]),
                         "value": None if val == 0 else val - 1})
    return {"players": n, "deck": deck, "actions": acts, "variant": int(variant)}


def random_game_actions(g, rng, n_max):
    st = g.initial_state()
    out = []
    while not st.over and len(out) < n_max:
        a = rng.choice(st.legal_actions())
        st.push(a)
        out.append(a)
    return out


# the site's replay loader refuses Scarce Ones games (it counts their decks wrong)
SUPPORTED = [n for n in site_names() if refusal(n) is None and not n.startswith("Scarce Ones")]


def test_thousands_of_random_games_round_trip_through_the_sites_decoder():
    rng = random.Random(2026)
    names = rng.sample(SUPPORTED, 150)
    cases = 0
    for name in names:
        v = parse_variant(name)
        for k in range(14):
            players = rng.randint(2, 6)
            g = game_from_seed(f"p{players}v{v.hanablive_id}s{k + 1}")
            acts = random_game_actions(g, rng, rng.randint(0, 80))
            end = site_end(g, acts)  # the site ends some games earlier: the link stops there
            acts = acts[:end] if end is not None else acts
            code = replay_code(g, acts)
            assert all(len(part) <= 20 for part in code.split("-"))
            got = site_expand(code)
            assert got["players"] == players and got["variant"] == v.hanablive_id
            assert got["deck"] == [c.to_json() for c in g.deck]
            assert got["actions"] == [{**a.to_json(), "value": a.to_json()["value"]} for a in acts]
            cases += 1
    assert cases >= 2000


def test_a_link_stops_where_the_site_ends_the_game_and_refuses_scarce_ones():
    rng = random.Random(4)
    cut = 0
    for k in range(1, 60):
        g = game_from_seed(f"p2v0s{k}")
        printed = Game(replace(g.rules, play_to_the_end=True), 2, g.deck)
        st, acts = printed.initial_state(), []
        while not st.over:  # no misplays, many discards: stacks die, and the site ends the game early
            moves = [a for a in st.legal_actions() if not (a.kind == 0 and not st.is_playable(a.target))]
            discards = [a for a in moves if a.kind == 1]
            a = rng.choice(discards if discards and rng.random() < 0.7 else moves)
            st.push(a)
            acts.append(a)
        end = site_end(g, acts)
        if end is not None and end < len(acts):
            assert len(site_expand(replay_code(g, acts))["actions"]) == end
            cut += 1
    assert cut
    v = parse_variant("Scarce Ones (5 Suits)")
    with pytest.raises(MalformedError, match="deck"):
        replay_code(game_from_seed(f"p2v{v.hanablive_id}s1"), [])


def test_a_link_opens_at_a_turn_and_refuses_what_the_site_cannot_read():
    g = game_from_seed("p3v0s1")
    assert replay_link(g, []).startswith("https://hanab.live/shared-replay-json/3")
    assert replay_link(g, [], turn=0).endswith("#1")  # the site counts turns from 1
    assert site_expand(replay_code(g, []))["actions"] == []
    from solver.hanabi.rules import Game, Rules, parse_compact

    spec = parse_variant({"suits": 2, "ranks": [1, 2], "handSize": 2, "clueTokens": 2})
    custom = Game(Rules(spec), 2, parse_compact("r1 r2 y1 y2", spec))
    with pytest.raises(MalformedError, match="not a hanab.live variant"):
        replay_code(custom, [])
    multi = Game(Rules(parse_variant("Multicolor (6 Suits)")), 2, list(game_from_seed("p2v1s1").deck))
    with pytest.raises(MalformedError, match="not a hanab.live variant"):
        replay_code(multi, [Action(0, 0)])


def test_solve_and_review_print_links_of_their_lines(tmp_path):
    import json

    from solver.hanabi.rules import load_file

    from conftest import real_game_files, run_cli

    res = run_cli("solve", "--seed", "p3v1032s7", "--json")
    out = json.loads(res.stdout)
    code = out["link"].split("/shared-replay-json/")[1]
    code, turn = code.split("#")
    got = site_expand(code)
    assert turn == "1" and got["variant"] == 1032
    assert [(a["type"], a["target"]) for a in got["actions"]] == [(a["type"], a["target"]) for a in out["actions"]]
    assert "On hanab.live: https://hanab.live/shared-replay-json/" in run_cli("solve", "--seed", "p3v1032s7").stdout

    game = next(f for f in real_game_files() if f.name.startswith("p5v0s198"))
    rec = load_file(game)
    rv = json.loads(run_cli("review", game, "--json", "--timeout", "10").stdout)
    assert rv["drops"]
    for d in rv["drops"]:
        code, turn = d["link"].split("/shared-replay-json/")[1].split("#")
        acts = site_expand(code)["actions"]
        assert int(turn) == d["turn"] + 1
        assert [(a["type"], a["target"]) for a in acts[:d["turn"]]] == [
            (a.kind, a.target) for a in rec.actions[:d["turn"]]]
        assert len(acts) > d["turn"]  # the best line follows


def test_puzzle_check_and_export_print_links_to_the_position(tmp_path):
    import json

    from puzzles.hanabi.format import load_puzzle

    from conftest import REPO, run_cli

    path = REPO / "docs" / "puzzles" / "p2-t67-s2024-d89.json"
    p = load_puzzle(path)
    rec, line = p.record(), p.line_actions(0)
    rep = json.loads(run_cli("puzzle", "check", str(path), "--json").stdout)
    for what, want in (("position", rec.actions), ("solution", list(rec.actions) + line)):
        code, turn = rep["links"][what].split("/shared-replay-json/")[1].split("#")
        got = site_expand(code)
        assert int(turn) == len(rec.actions) + 1  # opens at the puzzle's position
        assert got["deck"] == [c.to_json() for c in rec.game.deck]
        assert [(a["type"], a["target"]) for a in got["actions"]] == [(a.kind, a.target) for a in want]
    assert f"solution on hanab.live: {rep['links']['solution']}" in run_cli("puzzle", "check", str(path)).stdout
    out = run_cli("puzzle", "export", str(path), "--out", str(tmp_path / "g.json"), "--with-solution").stdout
    assert f"On hanab.live: {rep['links']['solution']}" in out


# ---------------------------------------------------------------------------------------
# A link only where the site opens the same game (issue 35): the code carries no option
# ---------------------------------------------------------------------------------------
def test_no_link_for_hands_of_another_size():
    from solver.hanabi.rules import Rules, variant_by_name
    from solver.hanabi.rules.links import link_and_reason
    from solver.hanabi.rules.seeds import game_from_seed

    from conftest import run_cli

    for flag in ("one_extra_card", "one_less_card"):
        g = game_from_seed("p3v0s21", rules=Rules(variant_by_name("No Variant"), **{flag: True}))
        link, why = link_and_reason(g, [])
        assert link is None and "a link carries no option" in why
    res = run_cli("solve", "--seed", "p3v0s21", "--one-extra-card", "--json")
    out = json.loads(res.stdout)
    assert out["link"] is None and "one extra card" in out["no_link"]
    text = run_cli("solve", "--seed", "p3v0s21", "--one-extra-card").stdout
    assert "On hanab.live: no link (the game is played with one extra card a hand" in text
    plain = json.loads(run_cli("solve", "--seed", "p3v0s21", "--json").stdout)
    assert plain["link"].startswith("https://hanab.live/shared-replay-json/") and plain["no_link"] is None


def test_no_link_for_a_line_with_an_empty_clue_or_a_deck_play():
    from solver.hanabi.methods.strategy import greedy_line
    from solver.hanabi.rules import COLOR_CLUE, PLAY, Rules, variant_by_name
    from solver.hanabi.rules.links import link_and_reason
    from solver.hanabi.rules.seeds import game_from_seed

    g = game_from_seed("p2v0s1", rules=Rules(variant_by_name("No Variant"), empty_clues=True))
    st = g.initial_state()
    bob = {g.deck[o].suit for o in st.hands[1]}
    colour = next(c for c in range(5) if c not in bob)
    empty = Action(COLOR_CLUE, 1, colour)
    link, why = link_and_reason(g, [empty])
    assert link is None and "action 0 is a clue that touches no card" in why
    assert link_and_reason(g, [])[0] is not None  # the game itself can be linked

    g = game_from_seed("p2v0s1", rules=Rules(variant_by_name("No Variant"), deck_plays=True))
    st = g.initial_state()
    line, _ = greedy_line(st)
    acts = []
    for a in line:
        if st.deck_left == 1 or st.over:
            break
        acts.append(st.apply(a))
    assert st.deck_left == 1 and not st.over
    deck_play = Action(PLAY, st.next_draw)
    link, why = link_and_reason(g, acts + [deck_play])
    assert link is None and f"action {len(acts)} plays the last card straight from the deck" in why
    assert link_and_reason(g, acts)[0] is not None


# ---------------------------------------------------------------------------------------
# Games named by the site: a link decoded here, a game number fetched (issue 35)
# ---------------------------------------------------------------------------------------
def test_our_decoder_reads_back_what_the_sites_decoder_reads():
    from solver.hanabi.rules.links import game_from_link

    rng = random.Random(35)
    for name in rng.sample(SUPPORTED, 40):
        v = parse_variant(name)
        for k in range(5):
            players = rng.randint(2, 6)
            g = game_from_seed(f"p{players}v{v.hanablive_id}s{k + 1}")
            acts = random_game_actions(g, rng, rng.randint(0, 60))
            end = site_end(g, acts)
            acts = acts[:end] if end is not None else acts
            url = replay_link(g, acts, len(acts))
            rec = game_from_link(url)
            site = site_expand(replay_code(g, acts))
            assert rec.game.num_players == site["players"] and rec.game.variant.hanablive_id == site["variant"]
            assert [c.to_json() for c in rec.game.deck] == site["deck"]
            assert [a.to_json() for a in rec.actions] == site["actions"]


@pytest.mark.parametrize("bad,words", [
    ("https://hanab.live/shared-replay-json/515dl", "expected three fields"),
    ("https://hanab.live/shared-replay-json/911aaa,00,0", "9 players, ranks 1..1: not a game"),
    ("https://hanab.live/shared-replay-json/215a!b,00,0", "not a shared-replay link"),
])
def test_a_broken_link_is_one_line(bad, words):
    from conftest import assert_clean_error, run_cli

    assert_clean_error(run_cli("show", bad), words)


def test_every_command_reads_a_link(tmp_path):
    from conftest import HANABLIVE, run_cli

    game = HANABLIVE / "p5v0s198_game149251.json"
    link = json.loads(run_cli("solve", str(game), "--turn", "40", "--json").stdout)["link"]
    shown = json.loads(run_cli("show", link, "--json").stdout)
    assert shown["score"] == 24 and shown["turn"] == 53  # the game to turn 40, then the best line
    replayed = json.loads(run_cli("replay", link, "--json").stdout)
    assert replayed["score"] == 24
    solved = json.loads(run_cli("solve", link, "--turn", "40", "--json").stdout)
    assert solved["max_score"] == 24 and solved["exact"]
    assert run_cli("review", link).exit_code == 0
    assert run_cli("chances", link, "--turn", "45").exit_code == 0


def test_a_game_number_or_replay_address_is_fetched(hanablive_site):
    from conftest import assert_clean_error, run_cli

    for ref in ("149251", "https://hanab.live/replay/149251", "https://hanab.live/replay/149251#20"):
        out = json.loads(run_cli("replay", ref, "--json").stdout)
        assert out["score"] == 23 and out["turns"] == 53
    assert_clean_error(run_cli("show", "999999"), "hanab.live game 999999: no such game")


def test_offline_a_game_number_is_one_line(monkeypatch):
    from conftest import assert_clean_error, run_cli

    with socket_closed() as port:
        monkeypatch.setenv("HANABI_SITE", f"http://127.0.0.1:{port}")
        assert_clean_error(run_cli("show", "149251"), "hanab.live game 149251: cannot reach", "(offline?)")


def socket_closed():
    """A port nobody listens on."""
    import contextlib
    import socket

    @contextlib.contextmanager
    def ctx():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        yield port

    return ctx()
