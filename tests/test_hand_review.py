"""``hand review`` and :mod:`solver.hand.analysis.review`: the game review of Hand.

Games from seeded random deals, played by a seeded random bot (and one seat by the
solver's best cards); the review's claims recomputed with the analyses (bid_table,
reachable) and on small endgames with the independent oracle (tests/hand_oracle.py);
the command's text, JSON and chart; bad input as one line ``error: ...``, exit code 2."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner
from test_hand_solver import o_pos

from cli.hand import hand
from solver.hand import (
    GameReview,
    RoundReview,
    best_cards,
    bid_table,
    is_made,
    reachable,
    review_game,
    review_round,
    seat_bounds,
)
from solver.hand.rules import Deal, Match, Position, Round, card_str

import hand_oracle as H
from conftest import REPO, assert_clean_error


def run_hand(*args: object, input: str | None = None):
    return CliRunner().invoke(hand, [str(a) for a in args], input=input)


def _bids(deal: Deal, rng: random.Random, table: bool = False) -> list[int]:
    """Per seat a bid it can force exactly at the deal when there is one (so that bids are
    often guaranteed and can be lost), else a random bid 0..3. ``table``: a trick vector all
    four can reach from the deal instead (one with a bid some seat can force exactly, if any)."""
    exact = [seat_bounds(deal, s).exact or () for s in range(4)]
    if table:
        vectors = sorted(reachable(deal).vectors or ())
        forced = [v for v in vectors if any(v[s] in exact[s] for s in range(4))]
        return list(rng.choice(forced or vectors))
    return [rng.choice(ex) if ex else rng.randrange(4) for ex in exact]


def bot_match(seed: int, rounds: int = 1, rule: str = "exact", follower: int | None = None,
              table: bool = False) -> Match:
    """A game of ``rounds`` rounds: seeded deals and bids (``table``: see :func:`_bids`),
    seeded random legal cards; seat ``follower`` (if given) always plays the first card of
    the solver's best class."""
    rng = random.Random(seed)
    m = Match(first_dealer=3, rule=rule)
    for _ in range(rounds):
        deal = Deal.random(rng.randrange(10 ** 6), m.next_dealer)
        r = m.new_round(deal)
        for s, b in enumerate(_bids(deal, rng, table)):
            r.bid(s, b)
        while not r.is_over:
            if r.to_move == follower:
                best = best_cards(r.position(), rule=rule).best
                assert best, "the solver's best card undecided"
                r.apply(best[0].cards[0])
            else:
                r.apply(rng.choice(r.legal_moves()))
    return m


def positions_of(rr: RoundReview) -> list[Position]:
    r = Round(rr.start.with_bids(list(rr.bids)))
    out = [r.position()]
    for c in rr.plays:
        r.apply(c)
        out.append(r.position())
    return out


def g_value(p: Position, seat: int, bid: int, rule: str) -> int:
    v = bid_table(p, seat, rule).row(seat).scores[bid]
    assert v is not None
    return v


# ---------------------------------------------------------------- the analysis


@pytest.fixture(scope="module")
def reviews() -> list[tuple[Match, GameReview]]:
    """Bot games (one round each, both rules, bids often makeable together), reviewed
    sparsely as the command does."""
    out = []
    for seed, rule, table in ((1, "exact", False), (2, "exact", True), (3, "atleast", False), (17, "exact", True)):
        m = bot_match(seed, rule=rule, table=table)
        out.append((m, review_game(m)))
    return out


def test_monotone_along_the_play_and_the_sparse_curve_is_the_full_one(reviews):
    """On real data: G searched in every position equals the review's curve (filled runs
    included); a coalition card never lowers G, a card of the seat never raises it; and
    coalition cards do raise it sometimes (so equality after them cannot be assumed)."""
    rises = 0
    for m, rv in reviews[:3]:
        full = review_game(m, every_position=True)
        for sparse_r, full_r in zip(rv.rounds, full.rounds):
            assert all(s.complete for s in full_r.seats)
            for sp, fu in zip(sparse_r.seats, full_r.seats):
                assert sp.curve == fu.curve, (sp.seat, sp.curve, fu.curve)
                assert not all(sp.searched)  # the sparse review skipped some positions
                for i, who in enumerate(full_r.players):
                    before, after = fu.curve[i], fu.curve[i + 1]
                    assert before is not None and after is not None
                    if who == fu.seat:
                        assert after <= before
                    else:
                        assert after >= before
                        rises += after > before
    assert rises > 0


def test_curve_values_are_the_bid_table(reviews):
    """A sample of the searched values against bid_table in the same position."""
    _, rv = reviews[0]
    rr = rv.rounds[0]
    ps = positions_of(rr)
    for s in rr.seats:
        for i in range(0, len(ps), 5):
            assert s.curve[i] == g_value(ps[i], s.seat, s.bid, rr.rule)


def test_mistakes_first_loss_and_better_cards(reviews):
    """Every mistake is a card of its seat that lowered G; the first loss is the seat's first
    card with the bid guaranteed before and not after; each better class, played in that
    position instead, keeps G (recomputed), the card played gives ``after``."""
    statuses = set()
    checked = 0
    for _, rv in reviews:
        for rr in rv.rounds:
            ps = positions_of(rr)
            for s in rr.seats:
                statuses.add(s.status)
                assert s.complete
                own = [i for i, p in enumerate(rr.players) if p == s.seat]
                drops = [i for i in own if s.curve[i + 1] < s.curve[i]]
                assert [m.index for m in s.mistakes] == drops
                for m in s.mistakes:
                    assert rr.players[m.index] == s.seat and m.card == rr.plays[m.index]
                    assert (m.before, m.after) == (s.curve[m.index], s.curve[m.index + 1])
                    assert m.loses_bid == (is_made(m.before, s.bid, rr.rule) and not is_made(m.after, s.bid, rr.rule))
                    p = ps[m.index]
                    assert g_value(p.after(m.card), s.seat, s.bid, rr.rule) == m.after
                    assert m.better, "G before is the best class's value: some class keeps it"
                    for g in m.better:
                        assert g_value(p.after(g[0]), s.seat, s.bid, rr.rule) == m.before
                        checked += 1
                if s.status == "lost":
                    f = s.first_loss
                    assert f is not None and f in s.mistakes and f.loses_bid
                    assert rr.players[f.index] == s.seat
                    assert is_made(s.curve[f.index], s.bid, rr.rule)
                    assert not is_made(s.curve[f.index + 1], s.bid, rr.rule)
                    assert s.guaranteed_from is not None and s.guaranteed_from <= f.index
                    assert not any(m.loses_bid for m in s.mistakes if m.index < f.index)
                    assert all(is_made(v, s.bid, rr.rule) for v in s.curve[s.guaranteed_from:f.index + 1])
                elif s.status in ("kept", "gained"):
                    assert (s.guaranteed_from == 0) == (s.status == "kept")
                    assert all(is_made(v, s.bid, rr.rule) for v in s.curve[s.guaranteed_from:])
                    assert not any(is_made(v, s.bid, rr.rule) for v in s.curve[:s.guaranteed_from])
                else:
                    assert s.status == "never" and s.guaranteed_from is None
                    assert not any(is_made(v, s.bid, rr.rule) for v in s.curve)
                    assert not any(m.loses_bid for m in s.mistakes)
                assert s.tricks == rr.tricks[s.seat] and s.score == rr.scores[s.seat]
    assert {"lost", "never", "kept"} <= statuses and checked > 0


def test_table_view(reviews):
    """The bid vector is makeable (reachable) before the loss card and not after; the
    better classes keep it; the player of the loss card is named."""
    seen = set()
    for _, rv in reviews:
        for rr in rv.rounds:
            t = rr.table
            seen.add(t.status)
            ps = positions_of(rr)

            def makeable(p: Position, rr: RoundReview = rr) -> bool:
                got = reachable(p).makeable(rr.rule)
                assert got is not None
                return rr.bids in got

            assert makeable(ps[0]) == (t.status != "never")
            if t.status == "lost":
                i = t.loss_index
                assert i is not None and t.loss_seat == rr.players[i] and t.loss_card == rr.plays[i]
                assert makeable(ps[i]) and not makeable(ps[i + 1])
                assert all(t.makeable[: i + 1]) and not any(t.makeable[i + 1:])
                for g in t.better:
                    assert makeable(ps[i].after(g[0]))
            elif t.status == "kept":
                assert makeable(ps[-1])
    assert "lost" in seen


def test_the_solver_follower_makes_no_mistake():
    """A seat that always plays the solver's best card never lowers its guaranteed score."""
    for seed, follower in ((11, 0), (12, 2)):
        m = bot_match(seed, follower=follower)
        rv = review_game(m)
        s = rv.rounds[0].seats[follower]
        assert s.complete and s.mistakes == () and s.status in ("kept", "gained", "never")
        own = [s.curve[i] for i, p in enumerate(rv.rounds[0].players) if p == follower]
        assert own  # it played, and G never fell at its cards
        assert all(isinstance(v, int) for v in s.curve)


def test_unfinished_round_and_timeouts():
    m = bot_match(5)
    js = m.to_json()
    js["rounds"][0]["plays"] = js["rounds"][0]["plays"][:13] + [None]  # a timeout card, then unfinished
    m2 = Match.from_json(js)
    rr = review_game(m2).rounds[0]
    assert not rr.over and rr.scores is None and len(rr.plays) == 14 and rr.timeouts == (13,)
    for s in rr.seats:
        assert len(s.curve) == 15 and s.score is None and s.made is None
        for mk in s.mistakes:
            assert mk.timeout == (mk.index == 13)
    js["rounds"][0]["plays"] = []  # bids only: the deal alone
    rr0 = review_game(Match.from_json(js)).rounds[0]
    assert rr0.plays == () and rr0.tricks == (0, 0, 0, 0) and rr0.table.makeable == (rr.table.makeable[0],)
    assert [s.curve for s in rr0.seats] == [s.curve[:1] for s in rr.seats]


def test_budget_gives_unknowns_never_guesses(reviews):
    m, full = reviews[0]
    rv = review_game(m, nodes=3, coop_nodes=3)
    rr, fr = rv.rounds[0], full.rounds[0]
    assert not rv.complete
    for s, fs in zip(rr.seats, fr.seats):
        assert any(v is None for v in s.curve)
        assert all(v is None or v == w for v, w in zip(s.curve, fs.curve))
        assert s.status == "unknown" or s.status == fs.status
    assert all(v is None or v == w for v, w in zip(rr.table.makeable, fr.table.makeable))


def test_small_endgames_against_the_oracle():
    """Reviews from positions of 3-4 cards a hand, every value against the oracle's
    guaranteed score and reachable vectors."""
    rng = random.Random(7)
    for k in range(12):
        o = H.random_midtrick(rng, 3 + k % 2)
        start = Position.from_json(o)
        r = Round(start)
        while not r.is_over:
            r.apply(rng.choice(r.legal_moves()))
        rule = ("exact", "atleast")[k % 2]
        bids = [start.taken[s] + rng.randrange(3) for s in range(4)]
        rr = review_round(start, bids, r.played, rule, every_position=k % 3 == 0)
        ps = positions_of(rr)
        for s in rr.seats:
            want = [H.guaranteed_score(o_pos(p), s.seat, s.bid, rule) for p in ps]
            assert list(s.curve) == want, (k, s.seat)
        for i, p in enumerate(ps):
            vecs = H.reachable_vectors(o_pos(p))
            ok = any(all(v[j] == bids[j] if rule == "exact" else v[j] >= bids[j] for j in range(4)) for v in vecs)
            assert rr.table.makeable[i] == ok, (k, i)


# ---------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> tuple[str, Match]:
    m = bot_match(21, rounds=2)
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(json.dumps(m.to_json()))
    return str(path), m


def test_cli_text_and_json(game_file):
    path, m = game_file
    res = run_hand("review", path)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("Round 1: dealer 3, seat 0 leads; bids " + " ".join(map(str, m.rounds[0].bids)))
    assert sum(line.startswith("  seat ") for line in lines) == 8 and res.output.count("  table: ") == 2
    sc = m.rounds[1].scores()
    assert f"  result: tricks {' '.join(map(str, m.rounds[1].taken))}; scores" in lines[-1]
    assert " ".join(f"{x:+d}" if x else "0" for x in sc) in lines[-1]
    js = json.loads(run_hand("review", path, "--json").output)
    assert js["format"] == "hand-review" and js["version"] == 1 and js["rule"] == "exact"
    assert js["complete"] is True and isinstance(js["nodes"], int)
    lib = review_game(m)
    assert [r["round"] for r in js["rounds"]] == [1, 2]
    for jr, rr in zip(js["rounds"], lib.rounds):
        assert set(jr) == {"round", "dealer", "leader", "bids", "plays", "players", "timeouts", "over", "tricks",
                           "scores", "seats", "table", "complete", "nodes"}
        assert jr["plays"] == [str(c) for c in rr.plays] and len(jr["plays"]) == 32
        assert jr["scores"] == list(rr.scores or ()) and jr["tricks"] == list(rr.tricks)
        for js_s, s in zip(jr["seats"], rr.seats):
            assert set(js_s) == {"seat", "bid", "made_score", "status", "start", "guaranteed_from", "curve",
                                 "searched", "first_loss", "mistakes", "undecided_cards", "tricks", "score", "made",
                                 "nodes"}
            assert js_s["curve"] == list(s.curve) and len(js_s["curve"]) == 33
            assert js_s["status"] == s.status
            for jm, mk in zip(js_s["mistakes"], s.mistakes):
                assert set(jm) == {"index", "trick", "seat", "card", "before", "after", "better", "undecided",
                                   "loses_bid", "timeout"}
                assert jm["card"] == str(mk.card) and jm["better"] == [[str(c) for c in g] for g in mk.better]
        assert set(jr["table"]) == {"status", "makeable", "loss_index", "loss_trick", "loss_seat", "loss_card",
                                    "better", "undecided", "nodes"}
    one = json.loads(run_hand("review", "-", "--json", "--round", "2", input=open(path).read()).output)
    assert one["rounds"] == [js["rounds"][1]]  # one round alone, from standard input: the same


@pytest.mark.parametrize("ext,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_cli_plot(game_file, tmp_path, ext, magic):
    path, _ = game_file
    out = tmp_path / f"review{ext}"
    res = run_hand("review", path, "--round", "1", "--plot", out)
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(magic)
    if ext == ".svg":
        assert b"<svg" in out.read_bytes()[:2000]


def test_cli_budget(game_file):
    path, _ = game_file
    res = run_hand("review", path, "--round", "1", "--nodes", "2")
    assert res.exit_code == 0 and "?" in res.output and "node budget" in res.output


def _game_js(game_file) -> dict:
    return json.loads(open(game_file[0]).read())


def _write(tmp_path, text: str) -> str:
    p = tmp_path / "bad.json"
    p.write_text(text)
    return str(p)


def _revoke(js: dict) -> None:
    r = js["rounds"][0]
    rnd = Match.from_json({"rounds": [{**r, "plays": []}]}).rounds[0]
    for i, c in enumerate(r["plays"]):
        legal = {str(x) for x in rnd.legal_moves()}
        held = [card_str(x) for x in range(32) if rnd.hands[rnd.to_move] >> x & 1]
        other = [x for x in held if x not in legal]
        if other:
            r["plays"][i] = other[0]
            return
        rnd.apply(c)
    raise AssertionError("no revoke possible")


def test_cli_bad_game_files(game_file, tmp_path):
    js = _game_js(game_file)
    text = json.dumps(js)
    assert_clean_error(run_hand("review", tmp_path / "nothing.json"), "nothing.json", "no such file")
    p = _write(tmp_path, text[: len(text) // 2])
    assert_clean_error(run_hand("review", p), p, "invalid JSON")
    bad = json.loads(text)
    _revoke(bad)
    p = _write(tmp_path, json.dumps(bad))
    assert_clean_error(run_hand("review", p), p, "rounds[0].plays[", "revoke: seat")
    bad = json.loads(text)
    r0 = bad["rounds"][0]
    bad["rounds"][0]["plays"][0] = r0["hands"][2][0]  # seat 0 leads round 1: a card of seat 2's
    p = _write(tmp_path, json.dumps(bad))
    assert_clean_error(run_hand("review", p), p, "rounds[0].plays[0] (trick 1)", "out of turn")
    bad["rounds"][0]["plays"][0] = "7Z"
    p = _write(tmp_path, json.dumps(bad))
    assert_clean_error(run_hand("review", p), p, "rounds[0].plays[0] (trick 1)")
    p = _write(tmp_path, '{"kind": "game", "rounds": []}')
    assert_clean_error(run_hand("review", p), p, "no round to review")
    bad = json.loads(text)
    bad["rule"] = "atmost"
    p = _write(tmp_path, json.dumps(bad))
    assert_clean_error(run_hand("review", p), p, "unknown scoring rule 'atmost'")
    bad = json.loads(text)
    bad["rounds"][1]["plays"][5] = bad["rounds"][1]["plays"][1]  # a card already played
    p = _write(tmp_path, json.dumps(bad))
    assert_clean_error(run_hand("review", p), p, "rounds[1].plays[5] (trick 2)")


@pytest.mark.parametrize("args,needles", [
    (("--round", "0"), ["--round 0", "rounds 1..2"]),
    (("--round", "3"), ["--round 3", "rounds 1..2"]),
    (("--plot", "review.txt"), ["--plot", ".png, .svg or .pdf"]),
    (("--plot", "/nonexistent/folder/r.png"), ["--plot /nonexistent/folder/r.png", "does not exist"]),
    (("--plot", ""), ["--plot"]),
])
def test_cli_bad_options(game_file, args, needles):
    assert_clean_error(run_hand("review", game_file[0], *args), *needles)


def test_cli_usage_error_is_one_line(game_file):
    res = subprocess.run([sys.executable, "-m", "cli.hand", "review", game_file[0], "--nodes", "0"],
                         capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("error:") and res.stderr.count("\n") == 1 and "--nodes" in res.stderr


def test_cli_checks_the_plot_path_before_the_work(game_file, tmp_path, monkeypatch):
    import solver.hand

    def never(*a: object, **k: object) -> None:
        raise AssertionError("the review ran before the output path was checked")

    monkeypatch.setattr(solver.hand, "review_game", never)
    under_a_file = os.path.join(game_file[0], "r.png")  # its folder is the game file
    assert_clean_error(run_hand("review", game_file[0], "--plot", under_a_file), f"--plot {under_a_file}")
    assert_clean_error(run_hand("review", game_file[0], "--plot", tmp_path), "--plot", ".png, .svg or .pdf")
    folder = tmp_path / "d.png"
    folder.mkdir()
    assert_clean_error(run_hand("review", game_file[0], "--plot", folder), "is a folder")
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            assert_clean_error(run_hand("review", game_file[0], "--plot", ro / "r.png"), "permission denied")
        finally:
            ro.chmod(0o700)
    assert_clean_error(run_hand("review", game_file[0], "--round", "9", "--plot", tmp_path / "r.png"), "--round 9")


def test_example_game_and_docs():
    """tests/data/hand_review_game.json is bot_match(17, rounds=2, table=True), and the
    example output in docs/hand.md is the command's output on its round 1."""
    path = REPO / "tests" / "data" / "hand_review_game.json"
    assert json.loads(path.read_text()) == bot_match(17, rounds=2, table=True).to_json()
    res = run_hand("review", path, "--round", "1")
    assert res.exit_code == 0, res.output
    doc = (REPO / "docs" / "hand.md").read_text()
    section = doc[doc.index("## Game review"):doc.index("## Endgame puzzles")]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    assert block == res.output
