"""Puzzles made by hand (``hand puzzle make``, :func:`puzzles.hand.generate.make_puzzle`):
from any deal, not only the generator's seeded ones; the solver fills in the answer, the
line and the rating, the checker proves them again, the brute-force oracle agrees, and a
position that is not a puzzle is refused with the reason."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from test_hand_puzzles import oracle_keepers

from cli.hand import hand
from puzzles.hand import HandPuzzle, check_puzzle, generate
from puzzles.hand.format import question_text
from puzzles.hand.generate import _bids, _walk, make_puzzle
from puzzles.hand.solve import NODES
from solver.hand.rules import Deal, IllegalMoveError, MalformedError, card_str

from conftest import assert_clean_error


def run_hand(*args):
    return CliRunner().invoke(hand, [str(a) for a in args])


@pytest.fixture(scope="module")
def generated() -> list[HandPuzzle]:
    out = list(generate(2, seed=11, kind="table")) + list(generate(2, seed=11, kind="safe"))
    assert len(out) == 4
    return out


def custom_puzzle(kind: str, seed: int) -> HandPuzzle:
    """A puzzle from a deal the generator never makes (dealer 1, shuffled by another
    source), its position and bids found as the generator finds them."""
    rng = random.Random(f"custom:{seed}")
    for _ in range(300):
        order = list(range(32))
        rng.shuffle(order)
        deal = Deal.from_order(order, dealer=1)
        plays, p = _walk(rng, deal, 3, rng.choice((0, 1)))
        bids = _bids(rng, p, kind, NODES)
        if bids is None:
            continue
        pz = make_puzzle(f"custom-{kind}-{seed}", kind, deal, bids, plays, "tester")
        if not isinstance(pz, str):
            return pz
    raise AssertionError("no custom puzzle found")  # pragma: no cover


def test_made_by_hand_is_what_the_generator_found(generated):
    for g in generated:
        pz = make_puzzle("mine", g.kind, g.deal, g.bids, list(g.plays), "me")
        assert isinstance(pz, HandPuzzle), pz
        for f in ("kind", "deal", "bids", "plays", "position", "seat", "answer", "line", "choices", "difficulty",
                  "rating", "depth", "wrong", "cards_per_hand"):
            assert getattr(pz, f) == getattr(g, f), f
        assert not pz.generated and pz.author == "me" and pz.seed is None
        js = json.loads(pz.dumps())
        assert js["metadata"]["source"] == {"walk": "by hand", "author": "me"}
        assert HandPuzzle.from_json(js) == pz
        assert check_puzzle(pz).valid, check_puzzle(pz).reason


@pytest.mark.parametrize("kind,seed", [("table", 1), ("safe", 2), ("table", 3)])
def test_a_puzzle_from_any_deal_checks_and_agrees_with_the_oracle(kind, seed):
    pz = custom_puzzle(kind, seed)
    assert pz.deal.dealer == 1 and pz.cards_per_hand == 3
    res = check_puzzle(pz)
    assert res.valid, res.reason
    assert oracle_keepers(pz.position, pz.kind, pz.seat, pz.bids) == {card_str(c) for c in pz.answer}
    # corrupted: another class stated as the answer, a card moved in the deal
    wrong = next(g for g, k in pz.choices if not k)
    d = json.loads(pz.dumps())
    d["solution"]["answer"] = [card_str(c) for c in wrong]
    bad = check_puzzle(HandPuzzle.from_json(d))
    assert not bad.valid and "stated answer" in bad.reason
    d = json.loads(pz.dumps())
    d["bids"][pz.seat] = (pz.bids[pz.seat] + 1) % 9
    d["question"]["text"] = question_text(pz.kind, pz.seat, tuple(d["bids"]))
    d["position"] = d["position"].rsplit("bids", 1)[0] + "bids " + " ".join(map(str, d["bids"]))
    changed = check_puzzle(HandPuzzle.from_json(d))
    assert not changed.valid and changed.reason


def test_not_a_puzzle_says_why(generated):
    g = next(p for p in generated if p.kind == "table")
    # bids no play can reach: no card keeps them
    impossible = (8, 0, 0, 0) if g.bids != (8, 0, 0, 0) else (0, 8, 0, 0)
    out = make_puzzle("x", "table", g.deal, impossible, list(g.plays))
    assert isinstance(out, str) and out.startswith("0 classes of cards keeps every bid makeable")
    # the whole line played too: the round is over
    out = make_puzzle("x", "table", g.deal, g.bids, list(g.plays) + [g.answer[0]] + list(g.line[1:]))
    assert out == "the round is over: no card to choose"
    with pytest.raises(IllegalMoveError, match=r"plays\[0\] \(trick 1\)"):
        make_puzzle("x", "table", g.deal, g.bids, [g.plays[1]] + list(g.plays[1:]))
    with pytest.raises(MalformedError, match="kind"):
        make_puzzle("x", "both", g.deal, g.bids, list(g.plays))
    with pytest.raises(MalformedError, match="id"):
        make_puzzle("a/b", "table", g.deal, g.bids, list(g.plays))


def test_cli_make(tmp_path, generated):
    g = generated[0]
    deal = tmp_path / "deal.txt"
    deal.write_text(str(g.deal))
    out = tmp_path / "mine.json"
    args = ["puzzle", "make", deal, "--plays", " ".join(card_str(c) for c in g.plays), "--bids",
            " ".join(map(str, g.bids)), "--kind", g.kind, "--id", "mine", "--author", "A. Player", "--out", out]
    r = run_hand(*args)
    assert r.exit_code == 0, r.output
    assert f"Answer: {'/'.join(card_str(c) for c in g.answer)}" in r.output
    r = run_hand("puzzle", "check", out, "--answer", card_str(g.answer[0]))
    assert r.exit_code == 0 and "correct" in r.output, r.output
    # not a puzzle: exit 1, the reason on one line, no file written
    none = tmp_path / "none.json"
    r = run_hand("puzzle", "make", deal, "--bids", "2 2 2 2", "--kind", "table", "--id", "n", "--out", none)
    assert r.exit_code == 1 and r.output.startswith("not a puzzle:") and r.output.count("\n") == 1
    assert not none.exists()
    # bad input: one line, exit 2
    base = ["puzzle", "make", deal, "--kind", "table", "--id", "n", "--out", none]
    assert_clean_error(run_hand(*base, "--bids", "1 2 3"), "--bids")
    assert_clean_error(run_hand(*base, "--bids", "1 2 3 x"), "--bids")
    assert_clean_error(run_hand(*base, "--bids", "1 2 3 9"), "--bids")
    assert_clean_error(run_hand(*base, "--bids", "1 2 3 2", "--plays", "ZZ"), "--plays")
    assert_clean_error(run_hand(*base, "--bids", "1 2 3 2", "--plays", card_str(g.plays[1])), "plays[0]")
    pos = tmp_path / "pos.txt"
    pos.write_text(g.position)
    assert_clean_error(run_hand("puzzle", "make", pos, "--bids", "1 2 3 2", "--kind", "table", "--id", "n",
                                "--out", none), "a position")
    assert_clean_error(run_hand(*base[:-1], tmp_path / "no" / "x.json", "--bids", "1 2 3 2"), "--out")
    assert not none.exists()
