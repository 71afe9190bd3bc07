"""Hand endgame puzzles (puzzles/hand/, `hand puzzle`): generated puzzles pass the checker;
their answers agree with the independent brute-force oracle (tests/hand_oracle.py) on
3- and 4-card endgames; corrupted puzzles are rejected with the reason; bad input to the command
is one line and exit code 2; the same seed gives the same puzzles."""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.hand import hand
from puzzles.hand import HandPuzzle, check_puzzle, generate, generate_one, judge_answer, load_puzzle
from puzzles.hand.format import question_text
from solver.hand.rules import MalformedError, Position, card_str, cards_of, parse_card

import hand_oracle as H
from conftest import REPO, assert_clean_error


@pytest.fixture(scope="module")
def small() -> list[HandPuzzle]:
    """Puzzles of 3 cards a hand, both kinds (small enough for the oracle)."""
    out = list(generate(3, seed=2, kind="table", sizes=(3,))) + list(generate(2, seed=2, kind="safe", sizes=(3,)))
    assert len(out) == 5
    return out


@pytest.fixture(scope="module")
def mixed() -> list[HandPuzzle]:
    out = list(generate(4, seed=7))
    assert len(out) == 4
    return out


def o_pos(p: Position) -> dict:
    return {"hands": [[card_str(c) for c in cards_of(h)] for h in p.hands], "leader": p.leader,
            "table": [card_str(c) for c in p.table], "taken": list(p.taken)}


def o_after(o: dict, card: str) -> dict:
    """The oracle's position after the mover plays ``card`` (the trick resolved by the
    oracle's own trick_winner)."""
    o = copy.deepcopy(o)
    mover = (o["leader"] + len(o["table"])) % 4
    o["hands"][mover].remove(card)
    o["table"].append(card)
    if len(o["table"]) == 4:
        w = H.trick_winner(o["table"], o["leader"])
        o["taken"][w] += 1
        o["leader"], o["table"] = w, []
    return o


def oracle_keepers(position: str, kind: str, seat: int, bids: tuple[int, ...]) -> set[str]:
    """The mover's legal cards that keep the question, by brute force."""
    o = o_pos(Position.parse(position))
    mover = (o["leader"] + len(o["table"])) % 4
    assert mover == seat
    led = o["table"][0][1] if o["table"] else None
    out = set()
    for c in H.legal_cards(o["hands"][mover], led):
        a = o_after(o, c)
        if kind == "safe":
            ok = bids[seat] in H.exact_guarantees(a, seat)
        else:
            ok = tuple(bids) in H.reachable_vectors(a)
        if ok:
            out.add(c)
    return out


def test_generated_puzzles_check_and_round_trip(small, mixed):
    kinds = set()
    for pz in small + mixed:
        res = check_puzzle(pz)
        assert res.valid, (pz.id, res.reason)
        assert HandPuzzle.from_json(json.loads(pz.dumps())) == pz
        assert len(pz.choices) >= 3 and pz.line[0] in pz.answer
        kinds.add(pz.kind)
    assert kinds == {"safe", "table"}
    assert {pz.cards_per_hand for pz in mixed} <= {3, 4, 5}


def test_answers_agree_with_the_oracle(small):
    four = [next(generate(1, seed=4, kind=k, sizes=(4,))) for k in ("table", "safe")]  # and two of 4 cards
    for pz in small + four:
        keepers = oracle_keepers(pz.position, pz.kind, pz.seat, pz.bids)
        assert keepers == {card_str(c) for c in pz.answer}, pz.id
        p = Position.parse(pz.position)
        legal = [card_str(c) for c in cards_of(p.legal_mask())]
        ranks = [parse_card(c) & 7 for c in legal]
        natural = {c for c, r in zip(legal, ranks) if r in (min(ranks), max(ranks))}
        assert natural and not natural & keepers, pz.id
        # the stated line, replayed by the oracle's rules, ends with the promise kept
        o = o_pos(p)
        for c in pz.line:
            o = o_after(o, card_str(c))
        assert not any(o["hands"]) and not o["table"]
        if pz.kind == "safe":
            assert o["taken"][pz.seat] == pz.bids[pz.seat]
        else:
            assert tuple(o["taken"]) == pz.bids


def _data(pz: HandPuzzle) -> dict:
    return json.loads(pz.dumps())


def _reason(d: dict) -> str:
    res = check_puzzle(HandPuzzle.from_json(d))
    assert not res.valid
    return res.reason


def _swap_in_position(text: str, a: int, b: int) -> str:
    """The position text with one card of seat a and one of seat b of the same count swapped."""
    p = Position.parse(text)
    ca, cb = cards_of(p.hands[a])[0], cards_of(p.hands[b])[0]
    hands = list(p.hands)
    hands[a] = hands[a] & ~(1 << ca) | 1 << cb
    hands[b] = hands[b] & ~(1 << cb) | 1 << ca
    return str(Position((hands[0], hands[1], hands[2], hands[3]), p.leader, p.table, p.taken, p.bids))


def test_card_moved_between_hands_is_rejected(mixed):
    pz = mixed[0]
    p = Position.parse(pz.position)
    a, b = [s for s in range(4) if p.hands[s]][:2]
    d = _data(pz)
    d["position"] = _swap_in_position(pz.position, a, b)
    assert "position does not match the replay" in _reason(d)
    d = _data(pz)  # a card moved in the deal: 7 and 9 cards are unreadable, a swap does not replay
    h0, h1 = d["deal"]["hands"][0], d["deal"]["hands"][1]
    h1.append(h0.pop())
    with pytest.raises(MalformedError, match="deal"):
        HandPuzzle.from_json(d)
    d = _data(pz)
    h0, h1 = d["deal"]["hands"][0], d["deal"]["hands"][1]
    h0[0], h1[0] = h1[0], h0[0]
    r = _reason(d)
    assert "do not replay" in r or "does not match" in r or "deal_seed" in r, r


def test_changed_bid_is_rejected(small):
    tried = 0
    for pz in small:
        for b in range(9):
            bids = list(pz.bids)
            bids[pz.seat] = b
            if b == pz.bids[pz.seat] or \
                    oracle_keepers(pz.position, pz.kind, pz.seat, tuple(bids)) == {card_str(c) for c in pz.answer}:
                continue
            d = _data(pz)
            d["bids"] = bids
            with pytest.raises(MalformedError, match="question.text"):
                HandPuzzle.from_json(d)
            d["question"]["text"] = question_text(pz.kind, pz.seat, tuple(bids))
            assert "bids" in _reason(d)  # the position shown still has the old bids
            p = Position.parse(pz.position)
            d["position"] = str(p.with_bids(bids))
            r = _reason(d)
            assert "classes" in r or "no card" in r or "answer" in r, r
            tried += 1
            break
    assert tried


def test_wrong_stated_answer_and_features_are_rejected(mixed):
    pz = mixed[1]
    other = next(g for g, k in pz.choices if not k)
    d = _data(pz)
    d["solution"]["answer"] = [card_str(c) for c in other]
    assert "stated answer" in _reason(d)
    d = _data(pz)
    d["solution"]["line"] = d["solution"]["line"][:-1]
    assert "stops with 1 tricks" in _reason(d)
    d = _data(pz)
    d["metadata"]["source"]["attempt"] += 1
    assert "deal seed of seed" in _reason(d)
    d = _data(pz)
    d["id"] = "hand-x"
    assert "should be" in _reason(d)
    d = _data(pz)
    d["metadata"]["rating"] += 1
    assert "rating" in _reason(d)
    d = _data(pz)
    d["metadata"]["features"]["depth"] += 1
    assert "depth" in _reason(d)


def test_judge_answer(mixed):
    pz = mixed[0]
    assert judge_answer(pz, list(pz.answer))[0]
    wrong = next(g for g, k in pz.choices if not k)[0]
    ok, msg = judge_answer(pz, [wrong])
    assert not ok and card_str(wrong) in msg


@pytest.mark.parametrize("field,value,needle", [
    ("version", 2, "version"), ("format", "x", "format"), ("bids", [1, 2, 3], "bids"),
    ("plays", ["ZZ"], "plays[0]"), ("question", {"kind": "best", "seat": 0, "text": ""}, "question.kind"),
    ("rule", "atleast", "rule"), ("id", "a/b", "id"),
])
def test_format_errors_name_the_field(mixed, field, value, needle):
    d = _data(mixed[0])
    d[field] = value
    with pytest.raises(MalformedError) as e:
        HandPuzzle.from_json(d)
    assert needle in str(e.value)
    d = _data(mixed[0])
    del d["metadata"]["features"]["wrong"]
    with pytest.raises(MalformedError, match="metadata.features: missing field 'wrong'"):
        HandPuzzle.from_json(d)


def test_seeded_reproducible():
    a = [p.to_json() for p in generate(3, seed=11, sizes=(3,))]
    b = [p.to_json() for p in generate(3, seed=11, sizes=(3,))]
    assert a == b and len(a) == 3
    c = [p.to_json() for p in generate(3, seed=12, sizes=(3,))]
    assert c != a
    first = a[0]["metadata"]["source"]
    again = generate_one(11, first["attempt"], sizes=(3,))
    assert again is not None and again.to_json() == a[0]


def run_hand(*args: str):
    return CliRunner().invoke(hand, [str(x) for x in args])


def test_cli_generate_and_check(tmp_path):
    r = run_hand("puzzle", "generate", "--count", "2", "--out", tmp_path / "p", "--seed", "3")
    assert r.exit_code == 0, r.output
    files = sorted((tmp_path / "p").glob("*.json"))
    assert len(files) == 2
    again = run_hand("puzzle", "generate", "--count", "2", "--out", tmp_path / "q", "--seed", "3")
    assert [f.read_text() for f in files] == [f.read_text() for f in sorted((tmp_path / "q").glob("*.json"))]
    assert again.exit_code == 0
    f = files[0]
    pz = load_puzzle(f)
    r = run_hand("puzzle", "check", f)
    assert r.exit_code == 0 and r.stdout.startswith("valid:"), r.output
    r = run_hand("puzzle", "check", f, "--answer", card_str(pz.answer[-1]))
    assert r.exit_code == 0 and "correct" in r.stdout
    wrong = next(g for g, k in pz.choices if not k)[0]
    r = run_hand("puzzle", "check", f, "--answer", card_str(wrong))
    assert r.exit_code == 1 and r.stdout.startswith("wrong:") and r.stdout.count("\n") == 1
    d = json.loads(f.read_text())
    d["solution"]["answer"] = [card_str(wrong)]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    r = run_hand("puzzle", "check", bad)
    assert r.exit_code == 1 and r.stdout.startswith("invalid:") and r.stdout.count("\n") == 1, r.output
    r = run_hand("puzzle", "check", f, "--json")
    assert json.loads(r.stdout)["valid"] is True


def test_cli_bad_input(tmp_path, mixed):
    assert_clean_error(run_hand("puzzle", "check", tmp_path / "none.json"), "no such file")
    nj = tmp_path / "nj.json"
    nj.write_text("{not json")
    assert_clean_error(run_hand("puzzle", "check", nj), "invalid JSON")
    d = _data(mixed[0])
    d["version"] = 9
    v = tmp_path / "v.json"
    v.write_text(json.dumps(d))
    assert_clean_error(run_hand("puzzle", "check", v), "version")
    good = tmp_path / "g.json"
    good.write_text(mixed[0].dumps())
    assert_clean_error(run_hand("puzzle", "check", good, "--answer", "ZZ"), "--answer")
    (tmp_path / "file").write_text("")
    assert_clean_error(run_hand("puzzle", "generate", "--count", "1", "--out", tmp_path / "file"))


@pytest.mark.parametrize("args", [["--count", "0"], ["--count", "1", "--difficulty", "brutal"]])
def test_console_script_usage_errors_are_one_line(tmp_path, args):
    res = subprocess.run([sys.executable, "-m", "cli.hand", "puzzle", "generate", "--out", str(tmp_path), *args],
                         capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("error:") and res.stderr.count("\n") == 1, res.stderr


def _leaves(o: object, pre: tuple = ()):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _leaves(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _leaves(v, pre + (i,))
    else:
        yield pre


def test_every_field_changed_is_rejected_cleanly(small):
    """Each leaf of a puzzle set to another value: a ValueError on reading or an invalid
    verdict, never another exception; only the free texts walk and generator may change."""
    base = _data(small[0])
    free = {("metadata", "source", "walk"), ("metadata", "generator")}
    count = 0
    for path in _leaves(base):
        for value in (None, "x", -1, 99, [], 1.5, True, "AS"):
            d = copy.deepcopy(base)
            o = d
            for k in path[:-1]:
                o = o[k]
            if o[path[-1]] == value or path in free:
                continue
            o[path[-1]] = value
            try:
                res = check_puzzle(HandPuzzle.from_json(d))
            except ValueError:
                continue
            assert not res.valid and res.reason, (path, value)
            count += 1
    assert count  # some changes read well and were rejected by the checker


def test_the_question_counts_one_trick_in_the_singular():
    """Issue 34, item 10: "exactly 1 tricks" read badly; a file that still says so loads."""
    assert "makes sure of exactly 1 trick whatever" in question_text("safe", 0, (1, 2, 3, 2))
    assert "makes sure of exactly 2 tricks whatever" in question_text("safe", 1, (1, 2, 3, 2))
    assert "makes sure of exactly 0 tricks whatever" in question_text("safe", 0, (0, 2, 3, 3))
    d = json.loads((REPO / "docs" / "hand-puzzles" / "hand-safe-s2027-a17.json").read_text())
    seat, bids = d["question"]["seat"], tuple(d["bids"])
    d["question"]["text"] = question_text("safe", seat, bids, legacy=True)
    assert HandPuzzle.from_json(d).text == question_text("safe", seat, bids)


def test_the_gallery_says_one_trick():
    text = (REPO / "docs" / "hand-puzzles" / "README.md").read_text(encoding="utf-8")
    assert "exactly 1 tricks" not in text and "exactly 1 trick, not" in text
