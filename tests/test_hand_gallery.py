"""The Hand puzzle gallery (docs/hand-puzzles, `hand puzzle gallery`): every puzzle passes
the checker and is the one its seed and attempt generate; both kinds and the three
difficulties are there; every picture the page names exists and shows its puzzle; the page
is the one the gallery code writes from the files (regenerated, not edited by hand), and
nothing of an answer shows outside its folded part."""
from __future__ import annotations

import dataclasses
import re

import pytest
from click.testing import CliRunner

from cli.hand import hand
from puzzles.hand import check_puzzle, generate_one, load_puzzle
from puzzles.hand.format import SAFE, TABLE
from puzzles.hand.gallery import PLAN, choose, entry, from_files, index_text
from puzzles.hand.render import card_label
from solver.hand.rules import NUM_SEATS, Position, cards_of

from conftest import REPO, assert_clean_error

GALLERY = REPO / "docs" / "hand-puzzles"
FILES = sorted(GALLERY.glob("*.json"))


def test_the_gallery_has_its_twelve_puzzles():
    ps, _ = from_files(GALLERY)
    assert len(ps) == len(FILES) == len(PLAN) == 12
    assert {pz.kind for pz in ps} == {"safe", "table"}
    assert {pz.difficulty for pz in ps} == {"easy", "medium", "hard"}
    for pz, (kind, level, mid) in zip(ps, PLAN):
        assert (pz.kind, pz.difficulty) == (kind, level)
        assert mid is None or (len(pz.plays) % NUM_SEATS > 0) == mid


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_gallery_puzzle_checks_and_is_generated(path):
    pz = load_puzzle(path)
    res = check_puzzle(pz)
    assert res.valid, (path.name, res.reason)
    again = generate_one(pz.seed, pz.attempt, pz.kind, pz.difficulty)
    assert again is not None and again.dumps() == path.read_text(encoding="utf-8")


def test_every_picture_named_exists_and_shows_its_puzzle():
    page = (GALLERY / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page)
    assert sorted(named) == sorted(f"{f.stem}.svg" for f in FILES)
    for name in named:
        svg = (GALLERY / name).read_text(encoding="utf-8")
        pz = load_puzzle(GALLERY / name.replace(".svg", ".json"))
        assert svg.startswith("<?xml") and pz.id in svg
        for c in cards_of(Position.parse(pz.position).hands[pz.seat]):
            assert f">{card_label(c)}</text>" in svg
    for link in re.findall(r"\(\[json\]\(([^)]+)\)\)", page):
        assert (GALLERY / link).is_file(), link


def test_the_page_is_the_one_the_code_writes():
    ps, seed = from_files(GALLERY)
    assert (GALLERY / "README.md").read_text(encoding="utf-8") == index_text(ps, seed)


def test_nothing_of_the_answer_before_the_fold():
    """The part of an entry above <details> does not change with the solution."""
    pz = load_puzzle(FILES[0])
    wrong = next(g for g, k in pz.choices if not k)
    other = dataclasses.replace(pz, answer=wrong, line=wrong[:1], choices=tuple((g, not k) for g, k in pz.choices))
    a, b = entry(pz, 1, "x.svg"), entry(other, 1, "x.svg")
    assert a.split("<details>")[0] == b.split("<details>")[0]
    assert a != b


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_gallery_command_from_files_redraws_the_same(tmp_path):
    """`hand puzzle gallery --from-files` on two of the gallery's files: the page for those
    two, and pictures that draw what the committed ones draw."""
    for f in FILES[:2]:
        (tmp_path / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    r = CliRunner().invoke(hand, ["puzzle", "gallery", "--out", str(tmp_path), "--from-files"])
    assert r.exit_code == 0, r.output
    ps, seed = from_files(tmp_path)
    assert r.stdout == f"{tmp_path / 'README.md'}: 2 puzzles, seed {seed}\n"
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == index_text(ps, seed)
    for f in FILES[:2]:
        new = (tmp_path / f"{f.stem}.svg").read_text(encoding="utf-8")
        assert _texts(new) == _texts((GALLERY / f"{f.stem}.svg").read_text(encoding="utf-8"))


def test_gallery_choose_takes_the_first_puzzle_of_each_slot():
    plan = ((TABLE, "medium", None), (SAFE, "easy", False))
    ps = choose(100, plan)
    for k, (pz, (kind, level, _)) in enumerate(zip(ps, plan)):
        assert (pz.seed, pz.kind, pz.difficulty) == (100 + k, kind, level)
        assert all(generate_one(pz.seed, a, kind, level) is None for a in range(pz.attempt))
        assert check_puzzle(pz).valid


def test_gallery_command_bad_input(tmp_path):
    def run(*args: object):
        return CliRunner().invoke(hand, ["puzzle", "gallery", *map(str, args)])

    assert_clean_error(run("--out", tmp_path, "--from-files"), "no puzzle files")
    assert_clean_error(run("--out", tmp_path / "none", "--from-files"), "none: no such folder")
    assert_clean_error(run("--out", tmp_path, "--from-files", "--seed", "3"), "--seed")
    (tmp_path / "bad.json").write_text("[]")
    assert_clean_error(run("--out", tmp_path, "--from-files"), "bad.json")
    (tmp_path / "file").write_text("")
    assert_clean_error(run("--out", tmp_path / "file" / "g"), "cannot create the folder")
