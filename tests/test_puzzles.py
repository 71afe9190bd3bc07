"""Endgame puzzles: generated puzzles pass the checker, are decisions with a crux, and
their answer kinds are balanced; corrupted ones are rejected with the reason; answers fail
at the right move; the generator is deterministic; the CLI's exit codes (0 valid / 1
invalid / 2 unreadable) and one-line errors; pictures and export."""
from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from puzzles.hanabi import analysis
from puzzles.hanabi.check import check_answer, check_puzzle
from puzzles.hanabi.format import VERSION, Puzzle, dumps, load_puzzle, parse_puzzle, write_puzzle
from puzzles.hanabi.generate import Config, generate, pick_kind
from puzzles.hanabi.notation import format_line, move_classes, parse_line, resolve
from solver.hanabi.rules import Action, MalformedError, game_from_json

from conftest import NV_SAMPLE, assert_clean_error, run_cli

SEED = 7
LIMITS = analysis.Limits(timeout=30.0, node_limit=None, engine="search")


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    ps, stats = generate(Config(count=6, seed=SEED))
    assert len(ps) == 6, stats
    return ps


@pytest.fixture(scope="module")
def pdir(tmp_path_factory, puzzles):
    d = tmp_path_factory.mktemp("puzzles")
    for p in puzzles:
        write_puzzle(p, d / f"{p.id}.json")
    return d


def files(pdir):
    return sorted(pdir.glob("*.json"))


def corrupt(p: Puzzle, edit) -> Puzzle:
    data = copy.deepcopy(p.data)
    edit(data)
    return parse_puzzle(data, "corrupted")


def problems(p: Puzzle) -> str:
    rep = check_puzzle(p, LIMITS)
    assert not rep.valid
    return "\n".join(rep.problems)


# ---- generated puzzles ---------------------------------------------------------

def test_generated_puzzles_pass_check(pdir):
    for f in files(pdir):
        p = load_puzzle(f)
        rep = check_puzzle(p)  # the default: the portfolio with SAT and CP-SAT
        assert rep.valid, (f, rep.problems)
        md = p.metadata
        wf = md["winning_first_moves"]
        assert 1 <= len(wf["choices"]) <= 2 and 1 <= wf["count"] <= 4
        assert sorted(m for c in wf["choices"] for m in c) == sorted(wf["moves"])
        assert md["answer_kind"] in analysis.ANSWER_KINDS
        assert f"answer kind: {md['answer_kind']}" in rep.notes
        assert md["difficulty"] in analysis.DIFFICULTIES
        assert md["greedy"]["score"] < p.max_score == p.target
        assert md["source"]["kind"] == "random" and md["source"]["seed"] == SEED
        assert p.data["version"] == VERSION


def test_puzzles_are_decisions_with_a_crux(puzzles):
    """The first move is a real decision (the greedy move loses, or one choice wins while a
    tempting move loses), some tempting first move loses, and the greedy strategy goes
    wrong somewhere on the solution line: the recorded crux."""
    for p in puzzles:
        md = p.metadata
        dec = md["decisions"]
        assert dec[0]["move"] == 1 and analysis.is_real_choice(dec[0])
        assert md["features"]["traps"] == len(dec[0]["traps"]) >= 1
        crux = md["features"]["crux"]
        assert crux >= 1 and dec[crux - 1]["greedy_loses"]
        assert all(not d["greedy_loses"] for d in dec[: crux - 1])
        assert md["features"]["greedy_errors"] == sum(d["greedy_loses"] for d in dec)
        # the recorded greedy move at the crux really loses
        st = p.position()
        line = [Action.from_json(a) for a in p.lines[0]["actions"]]
        for a in line[: crux - 1]:
            st.apply(a)
        st.apply(analysis.greedy_action(st))
        assert analysis.reaches(st, p.target, LIMITS)[0] is False


def test_generator_is_deterministic(puzzles):
    again, _ = generate(Config(count=6, seed=SEED, jobs=2))
    assert [dumps(p) for p in again] == [dumps(p) for p in puzzles]
    other, _ = generate(Config(count=2, seed=SEED + 1))
    assert {p.id for p in other}.isdisjoint({p.id for p in puzzles})


def test_puzzle_claims_hold(puzzles):
    """The facts behind the claims, recomputed directly: the greedy strategy falls short,
    the listed first moves win and every other one loses."""
    for p in puzzles:
        st = p.position()
        assert analysis.greedy_line(st)[1] < p.target
        fm = analysis.first_moves(st, p.target, LIMITS)
        assert sorted(fm.winning) == sorted(p.winning["moves"])
        assert not fm.undecided
        assert all(fm.results[k] < p.target for k in fm.losing)


def test_solution_lines_round_trip_through_the_notation(puzzles):
    for p in puzzles:
        st = p.position()
        for ln in p.lines:
            acts = [Action.from_json(a) for a in ln["actions"]]
            assert format_line(st, acts) == ln["line"]
            cur = st.copy()
            for item in parse_line(ln["line"]):
                cur.apply(resolve(item, cur))
            assert cur.over and cur.score >= p.target


def test_difficulty_filter():
    ps, _ = generate(Config(count=2, seed=SEED, difficulty="easy"))
    assert [p.difficulty for p in ps] == ["easy", "easy"]


def test_answer_kinds_are_balanced(puzzles):
    """The default (mixed): at most a third of the answers are clues, each puzzle's kind
    is the kind of its winning choices."""
    kinds = [p.metadata["answer_kind"] for p in puzzles]
    assert kinds.count("clue") <= round(len(puzzles) / 3)
    assert kinds.count("play") >= 2
    for p in puzzles:
        st = p.position()
        assert analysis.answer_kind(st, p.winning["moves"]) == p.metadata["answer_kind"]
        assert analysis.choices(st, p.winning["moves"]) == p.winning["choices"]


@pytest.fixture(scope="module")
def play_puzzles() -> list[Puzzle]:
    ps, stats = generate(Config(count=2, seed=SEED + 2, answer_kind="play"))
    assert len(ps) == 2, stats
    return ps


def test_answer_kind_filter(play_puzzles):
    for kind, ps in (("play", play_puzzles), ("clue", generate(Config(count=1, seed=SEED + 2, answer_kind="clue"))[0])):
        assert ps and all(p.metadata["answer_kind"] == kind for p in ps)
        for p in ps:
            assert all(c[0][0] == kind[0] for c in p.winning["choices"])
            assert check_puzzle(p, LIMITS).valid


def test_pick_kind_caps_clues():
    cfg = Config(count=6)
    assert pick_kind({"clue": {}, "play": {}}, Counter(), cfg) == "play"
    assert pick_kind({"clue": {}, "play": {}}, Counter(play=3), cfg) == "clue"
    assert pick_kind({"clue": {}}, Counter(clue=2), cfg) is None  # a third of 6 already
    assert pick_kind({"clue": {}}, Counter(clue=2), Config(count=6, answer_kind="any")) == "clue"
    assert pick_kind({"either": {}, "play": {}}, Counter(play=1), cfg) == "either"
    # of one kind, the puzzle whose first move is already the crux
    assert pick_kind({"play, crux later": {}, "play": {}, "clue": {}}, Counter(clue=1), cfg) == "play"
    assert pick_kind({"play, crux later": {}}, Counter(), Config(count=6, answer_kind="play")) == "play, crux later"


def test_choices_group_a_misplay_with_its_discard(puzzles):
    """A discard and a misplay of the same card are one choice; a play of a playable card
    and its discard are two; discarding a playable card is not a tempting move."""
    seen = set()
    for p in puzzles:
        st = p.position()
        classes = move_classes(st)
        for label, a in classes.items():
            if label[0] != "p" or "d" + label[1:] not in classes:
                continue
            pair = [label, "d" + label[1:]]
            if st.is_playable(a.target):
                assert analysis.choices(st, pair) == [[label], ["d" + label[1:]]]
                assert analysis.answer_kind(st, pair) == "either"
                assert not analysis.looks_safe(st, classes["d" + label[1:]])
                seen.add("playable")
            else:
                assert analysis.choices(st, pair) == [["d" + label[1:], label]]
                assert analysis.choices(st, [label]) == [[label]]  # a misplay alone is a play
                assert analysis.answer_kind(st, pair) == "discard"
                assert analysis.answer_kind(st, pair + ["c"]) == "either"
                seen.add("misplay")
    assert seen == {"playable", "misplay"}


# ---- corrupted puzzles ---------------------------------------------------------

def test_changed_card_is_rejected(puzzles):
    """Swapping two cards keeps the deck's composition; the replay then shows a hand or
    a draw pile the question does not (or an earlier clue no longer touches a card)."""
    rejected = 0
    for p in puzzles:
        st = p.position()
        g = st.game
        pile = list(range(st.next_draw, len(g.deck)))
        hand = st.hands[st.current]
        pairs = [(a, b) for a in pile for b in pile if g.deck[a] != g.deck[b]][:1]
        pairs += [(hand[-1], b) for b in pile + [o for h in st.hands for o in h] if g.deck[b] != g.deck[hand[-1]]][:1]
        for a, b in pairs:
            def swap(d, a=a, b=b):
                deck = d["game"]["deck"]
                deck[a], deck[b] = deck[b], deck[a]

            text = problems(corrupt(p, swap))
            if a in pile:
                assert "question.position.draw_pile: the puzzle shows" in text
            else:
                assert f"{g.player_name(st.current)}'s hand is" in text or "touches no card" in text, text
            rejected += 1
    assert rejected >= len(puzzles)

    def change(d):  # a card the deck cannot have: the deck no longer matches the variant
        d["game"]["deck"][0] = {"suitIndex": 0, "rank": 5}

    assert "deck does not match" in problems(corrupt(puzzles[0], change))


def test_wrong_maximum_is_rejected(puzzles):
    p = puzzles[0]

    def lower(d):
        d["solution"]["max_score"] -= 1
        d["question"]["target"] -= 1

    text = problems(corrupt(p, lower))
    assert f"the puzzle states {p.max_score - 1}, the exact maximum is {p.max_score}" in text


def test_solution_not_reaching_target_is_rejected(puzzles):
    p = puzzles[0]
    st = p.position()
    greedy, score = analysis.greedy_line(st)

    def bad_line(d):
        d["solution"]["lines"][0] = {"line": format_line(st, greedy), "actions": [a.to_json() for a in greedy]}

    text = problems(corrupt(p, bad_line))
    assert f"solution line 1: ends with {score} points, below the target {p.target}" in text

    def illegal(d):
        d["solution"]["lines"][0]["actions"][0] = {"type": 0, "target": 0, "value": 0}

    assert "solution line 1: move 0: play card #0" in problems(corrupt(p, illegal))


def test_wrong_count_of_winning_first_moves_is_rejected(puzzles):
    p = puzzles[0]
    n = p.winning["count"]

    def recount(d):
        d["metadata"]["winning_first_moves"]["count"] = n + 1

    assert f"the puzzle claims {n + 1}, there are {n}" in problems(corrupt(p, recount))

    losing = next(k for k in move_classes(p.position()) if k not in p.winning["moves"])

    def relist(d):
        d["metadata"]["winning_first_moves"]["moves"] = [losing]
        d["metadata"]["winning_first_moves"]["count"] = 1

    assert f"the puzzle lists {losing}" in problems(corrupt(p, relist))


def test_wrong_answer_kind_is_rejected(puzzles):
    p = puzzles[0]
    other = next(k for k in analysis.ANSWER_KINDS if k != p.metadata["answer_kind"])

    def rekind(d):
        d["metadata"]["answer_kind"] = other

    assert f"metadata.answer_kind: the puzzle says {other!r}" in problems(corrupt(p, rekind))

    def regroup(d):
        d["metadata"]["winning_first_moves"]["choices"] = [[m] for m in d["metadata"]["winning_first_moves"]["moves"]] \
            + [["c"]]

    assert "the puzzle groups them as" in problems(corrupt(p, regroup))
    with pytest.raises(MalformedError, match="choices: must be a list of lists"):
        corrupt(p, lambda d: d["metadata"]["winning_first_moves"].update(choices=["pr1"]))


def test_position_that_does_not_replay_is_rejected(puzzles):
    p = puzzles[0]

    def bad_action(d):
        d["game"]["actions"][3] = {"type": 0, "target": 49, "value": 0}

    assert "position: " in problems(corrupt(p, bad_action))


# ---- answers ---------------------------------------------------------------------

def _losing_alternative(st, target):
    """A move class that loses from ``st`` and one action of it, or None."""
    fm = analysis.first_moves(st, target, LIMITS)
    for k in fm.losing:
        return k, fm.representatives[k]
    return None


def test_wrong_answer_fails_at_the_right_move(puzzles):
    checked = 0
    for p in puzzles:
        st = p.position()
        line = [Action.from_json(a) for a in p.lines[0]["actions"]]
        # deviate at the latest move of the solution where some move loses
        cur = st.copy()
        spots = []
        for i, a in enumerate(line):
            alt = _losing_alternative(cur, p.target)
            if alt:
                spots.append((i, cur.copy(), alt))
            cur.apply(a)
        i, at, (label, bad) = spots[-1]
        after = at.copy()
        after.apply(bad)
        rest, _ = analysis.greedy_line(after)
        answer = format_line(st, line[:i] + [bad] + rest)
        res = check_answer(st, answer, p.target, LIMITS)
        assert not res.correct
        assert res.fail_move == i + 1, (p.id, answer, res.message)
        # "turn N" is the position after N actions, as State.turn and hanabi show --turn N
        assert res.fail_turn == at.turn
        assert f"fails at move {i + 1} (game turn {at.turn}," in res.message
        checked += 1
    assert checked == len(puzzles)


def test_correct_alternative_answers_pass(puzzles):
    for p in puzzles:
        st = p.position()
        for ln in p.lines:
            # clues by content-free "c", and the JSON form of the same line
            alt = " ".join("c" if t.startswith("c") else t for t in ln["line"].split())
            res = check_answer(st, alt, p.target, LIMITS)
            assert res.correct, (p.id, alt, res.message)
            assert check_answer(st, json.dumps(ln["actions"]), p.target, LIMITS).correct


def test_answer_errors(puzzles):
    p = puzzles[0]
    st = p.position()
    first = p.lines[0]["line"].split()
    res = check_answer(st, " ".join(first[:-1]), p.target, LIMITS)
    assert not res.correct and "incomplete" in res.message
    res = check_answer(st, p.lines[0]["line"] + " c", p.target, LIMITS)
    assert not res.correct and res.fail_move == len(first) + 1 and "already over" in res.message
    with pytest.raises(MalformedError, match="answer: move 2 'x7'"):
        check_answer(st, "c x7", p.target, LIMITS)


# ---- command line -------------------------------------------------------------------

def test_cli_check_exit_codes(pdir, puzzles, tmp_path):
    f = files(pdir)[0]
    p = load_puzzle(f)
    res = run_cli("puzzle", "check", f)
    assert res.exit_code == 0, res.output
    assert ": valid" in res.stdout
    res = run_cli("puzzle", "check", f, "--answer", p.lines[0]["line"])
    assert res.exit_code == 0 and "answer: correct" in res.stdout
    losing = next(k for k in move_classes(p.position()) if k not in p.winning["moves"])
    res = run_cli("puzzle", "check", f, "--answer", losing, "--json")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["valid"] is True and out["answer"]["correct"] is False and out["answer"]["fail_move"] in (1, None)
    bad = tmp_path / "bad.json"
    data = copy.deepcopy(p.data)
    data["solution"]["max_score"] -= 1  # (a target above the perfect score would be unreadable, exit 2)
    data["question"]["target"] -= 1
    data["metadata"]["features"]["plays"] -= 1
    data["metadata"]["features"]["greedy_gap"] -= 1
    bad.write_text(json.dumps(data))
    res = run_cli("puzzle", "check", bad)
    assert res.exit_code == 1 and "INVALID" in res.stdout and "maximum" in res.stdout


def test_cli_unreadable_files(pdir, tmp_path):
    text = files(pdir)[0].read_text()
    trunc = tmp_path / "trunc.json"
    trunc.write_text(text[: len(text) // 2])
    assert_clean_error(run_cli("puzzle", "check", trunc), "trunc.json", "invalid JSON")
    assert_clean_error(run_cli("puzzle", "check", tmp_path / "missing.json"), "missing.json", "cannot read")
    data = json.loads(text)
    data["version"] = VERSION + 1
    wrong = tmp_path / "v2.json"
    wrong.write_text(json.dumps(data))
    assert_clean_error(run_cli("puzzle", "check", wrong), "unsupported puzzle version")
    notp = tmp_path / "game.json"
    notp.write_text(json.dumps(data["game"]))
    assert_clean_error(run_cli("puzzle", "check", notp), "not a puzzle file")
    del data["solution"]
    data["version"] = VERSION
    nosol = tmp_path / "nosol.json"
    nosol.write_text(json.dumps(data))
    assert_clean_error(run_cli("puzzle", "check", nosol), "missing key 'solution'")
    assert_clean_error(run_cli("puzzle", "check", files(pdir)[0], "--answer", "c zz"), "answer: move 2 'zz'")
    for cmd in ("render", "export"):
        extra = ["--out", str(tmp_path / "x.svg")] if cmd == "render" else []
        assert_clean_error(run_cli("puzzle", cmd, trunc, *extra), "invalid JSON")


def test_cli_generate(tmp_path, play_puzzles):
    out = tmp_path / "gen"
    res = run_cli("puzzle", "generate", "--count", "2", "--seed", SEED + 2, "--answer-kind", "play", "--out", out,
                  "--pictures", "svg")
    assert res.exit_code == 0, (res.output, res.exception)
    made = sorted(out.glob("*.json"))
    assert [f.stem for f in made] == sorted(p.id for p in play_puzzles)
    assert all(f.with_suffix(".svg").stat().st_size > 1000 for f in made)
    assert "2 puzzles" in res.stdout and "answers: 2 play" in res.stdout
    assert res.stderr == ""  # no progress line when standard error is not a terminal
    assert_clean_error(run_cli("puzzle", "generate", "--count", "1", "--variant", "Nope", "--out", out),
                       "unknown variant")
    res = run_cli("puzzle", "generate", "--count", "1", "--answer-kind", "bogus", "--out", out)
    assert res.exit_code == 2 and "bogus" in res.output


def test_generate_from_deck_file_and_seeds():
    ps, _ = generate(Config(count=1, seed=1, decks=[str(NV_SAMPLE)]))  # a few decks of nv_winnable.jsonl
    assert ps[0].metadata["source"]["kind"] == "deck file"
    assert check_puzzle(ps[0], LIMITS).valid
    ps, _ = generate(Config(count=1, seed=1, source_seeds=True))
    src = ps[0].metadata["source"]
    assert src["kind"] == "hanab.live seed" and src["seed"].startswith("p")
    assert check_puzzle(ps[0], LIMITS).valid


def test_generate_bad_deck_files(tmp_path):
    bad = tmp_path / "decks.jsonl"
    bad.write_text('{"players": 2, "deck": []}\n\n{"players": 2, "deck": [\n')
    assert_clean_error(run_cli("puzzle", "generate", "--count", "1", "--decks", bad, "--out", tmp_path / "o"),
                       "decks.jsonl: line 3", "invalid JSON")
    bad.write_text("[1, 2]\n")
    assert_clean_error(run_cli("puzzle", "generate", "--count", "1", "--decks", bad, "--out", tmp_path / "o"),
                       "decks.jsonl: line 1", "must be an object")
    assert_clean_error(run_cli("puzzle", "generate", "--count", "1", "--decks", tmp_path / "none.jsonl",
                               "--out", tmp_path / "o"), "none.jsonl", "cannot read")


def test_cli_bad_json_answer(pdir):
    f = files(pdir)[0]
    assert_clean_error(run_cli("puzzle", "check", f, "--answer", '[{"type": 0, "target": '), "answer", "invalid JSON")
    assert_clean_error(run_cli("puzzle", "check", f, "--answer", '[{"type": 0}] x'), "answer", "invalid JSON")


def test_render_and_export(pdir, tmp_path):
    f = files(pdir)[0]
    p = load_puzzle(f)
    for ext in ("svg", "png"):
        pic = tmp_path / f"pic.{ext}"
        res = run_cli("puzzle", "render", f, "--out", pic)
        assert res.exit_code == 0, res.output
        head = pic.read_bytes()[:200]
        assert (b"<svg" in head or b"<?xml" in head) if ext == "svg" else head.startswith(b"\x89PNG")
    assert_clean_error(run_cli("puzzle", "render", f, "--out", tmp_path / "pic.gif"), "svg or .png")
    res = run_cli("puzzle", "export", f)
    assert res.exit_code == 0
    rec = game_from_json(json.loads(res.stdout), "export")
    st = rec.state_after()
    assert st.key() == p.position().key()
    out = tmp_path / "full.json"
    res = run_cli("puzzle", "export", f, "--with-solution", "--out", out)
    assert res.exit_code == 0
    end = game_from_json(json.loads(out.read_text()), "export").state_after()
    assert end.over and end.score == p.target
    res = run_cli("show", out)  # the exported file is an ordinary game file
    assert res.exit_code == 0


def test_deck_files_of_one_name_in_two_folders_give_distinct_puzzle_ids(tmp_path):
    """k1/decks.jsonl and k2/decks.jsonl: their puzzles must not overwrite each other."""
    from puzzles.hanabi.generate import _read_deck_files

    lines = NV_SAMPLE.read_text().splitlines()
    for k in ("k1", "k2"):
        (tmp_path / k).mkdir()
        (tmp_path / k / "decks.jsonl").write_text("\n".join(lines[:2]) + "\n")
    rows = _read_deck_files([str(tmp_path / "k1" / "decks.jsonl"), str(tmp_path / "k2" / "decks.jsonl")])
    assert {r["file"] for r in rows} == {"decks1.jsonl", "decks2.jsonl"}
    assert {r["file"] for r in _read_deck_files([str(NV_SAMPLE)])} == {NV_SAMPLE.name}
