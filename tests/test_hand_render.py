"""`hand puzzle render`: the picture of a Hand puzzle (puzzles/hand/render.py). It writes an
SVG, a PNG or a PDF from the extension; the SVG holds what it draws as text (each seat,
its bid and tricks, every card of the seat to move, the cards on the table, the
question); the same puzzle gives the same bytes, and nothing of the solution changes
them; bad input is one line ``error: ...`` and exit code 2, and nothing is written."""
from __future__ import annotations

import dataclasses
import html
import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.hand import hand
from puzzles.hand import HandPuzzle, generate
from puzzles.hand.render import card_label, render_puzzle
from solver.hand.rules import NUM_SEATS, Position, cards_of

from conftest import REPO, assert_clean_error


@pytest.fixture(scope="module")
def puzzles() -> list[HandPuzzle]:
    """Generated puzzles: one with no card on the current trick, one with some."""
    ps = list(generate(10, seed=1))
    fresh = next(p for p in ps if len(p.plays) % NUM_SEATS == 0)
    mid = next(p for p in ps if len(p.plays) % NUM_SEATS)
    return [fresh, mid]


def run_hand(*args: object):
    return CliRunner().invoke(hand, [str(x) for x in args])


def svg_texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def test_render_svg_shows_the_position(tmp_path, puzzles):
    for pz in puzzles:
        f = tmp_path / f"{pz.id}.json"
        f.write_text(pz.dumps())
        out = tmp_path / f"{pz.id}.svg"
        r = run_hand("puzzle", "render", f, "--out", out)
        assert r.exit_code == 0, r.output
        assert r.stdout.startswith(f"{out}: {pz.id}")
        svg = out.read_text(encoding="utf-8")
        assert svg.startswith("<?xml") and "<svg" in svg[:400] and svg.rstrip().endswith("</svg>")
        texts = svg_texts(svg)
        p = Position.parse(pz.position)
        for s in range(NUM_SEATS):
            assert any(t.startswith(f"Seat {s}") for t in texts), s
            assert f"bid {pz.bids[s]}, taken {p.taken[s]}" in texts
        assert f"Seat {pz.seat}   \u25b6 to play" in texts  # the seat to move, marked
        for c in cards_of(p.hands[pz.seat]):
            assert card_label(c) in texts, card_label(c)
        for c in p.table:
            assert card_label(c) in texts
        every = {card_label(c) for c in range(32)}
        in_play = [card_label(c) for h in p.hands for c in cards_of(h)] + [card_label(c) for c in p.table]
        assert sorted(t for t in texts if t in every) == sorted(in_play)  # each card in play drawn once, no other
        assert pz.text in " ".join(texts)  # the question, wrapped over lines
        assert any(f"{p.tricks_left} tricks left" in t for t in texts)
        if p.table:
            assert f"seat {p.leader}, led" in texts
        else:
            assert f"seat {pz.seat} leads" in texts


def test_render_png_pdf_and_same_bytes(tmp_path, puzzles):
    pz = puzzles[1]
    f = tmp_path / "p.json"
    f.write_text(pz.dumps())
    for ext, head in (("png", b"\x89PNG\r\n\x1a\n"), ("pdf", b"%PDF-"), ("SVG", b"<?xml")):
        out = tmp_path / f"p.{ext}"
        r = run_hand("puzzle", "render", f, "--out", out)
        assert r.exit_code == 0, r.output
        assert out.read_bytes().startswith(head), ext
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    render_puzzle(pz, a)
    render_puzzle(pz, b)
    assert a.read_bytes() == b.read_bytes()


def test_the_picture_does_not_depend_on_the_solution(tmp_path, puzzles):
    """Swap the answer and a wrong class, drop the line: the same picture."""
    for pz in puzzles:
        wrong = next(g for g, k in pz.choices if not k)
        other = dataclasses.replace(pz, answer=wrong, line=wrong[:1],
                                    choices=tuple((g, not k) for g, k in pz.choices), depth=0, rating=0)
        render_puzzle(pz, tmp_path / "a.svg")
        render_puzzle(other, tmp_path / "b.svg")
        assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_render_bad_input_is_one_line(tmp_path, puzzles):
    good = tmp_path / "g.json"
    good.write_text(puzzles[0].dumps())
    assert_clean_error(run_hand("puzzle", "render", good, "--out", tmp_path / "x.jpg"), "x.jpg", ".svg, .png or .pdf")
    assert_clean_error(run_hand("puzzle", "render", good, "--out", tmp_path / "x"), "no extension")
    # the output path is checked before the puzzle is read
    assert_clean_error(run_hand("puzzle", "render", tmp_path / "none.json", "--out", tmp_path / "x.gif"), "x.gif")
    assert_clean_error(run_hand("puzzle", "render", tmp_path / "none.json", "--out", tmp_path / "x.svg"),
                       "none.json: no such file")
    nj = tmp_path / "nj.json"
    nj.write_text("{not json")
    assert_clean_error(run_hand("puzzle", "render", nj, "--out", tmp_path / "x.svg"), "nj.json: invalid JSON")
    d = json.loads(puzzles[0].dumps())
    d["bids"] = [1, 2, 3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    assert_clean_error(run_hand("puzzle", "render", bad, "--out", tmp_path / "x.svg"), "bad.json", "bids")
    d = json.loads(puzzles[0].dumps())
    d["position"] = "leader 9: nonsense"
    bad.write_text(json.dumps(d))
    assert_clean_error(run_hand("puzzle", "render", bad, "--out", tmp_path / "x.svg"), "position")
    (tmp_path / "afile").write_text("")
    assert_clean_error(run_hand("puzzle", "render", good, "--out", tmp_path / "afile" / "x.svg"), "is not a folder")
    assert_clean_error(run_hand("puzzle", "render", good, "--out", tmp_path / "nodir" / "x.png"), "does not exist")
    (tmp_path / "d.svg").mkdir()
    assert_clean_error(run_hand("puzzle", "render", good, "--out", tmp_path / "d.svg"), "is a folder")
    assert not list(tmp_path.glob("x.*"))  # nothing written


def test_console_script_render_error_is_one_line(tmp_path):
    res = subprocess.run([sys.executable, "-m", "cli.hand", "puzzle", "render", str(tmp_path / "none.json"),
                          "--out", str(tmp_path / "p.svg")], capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"error: {tmp_path / 'none.json'}: no such file\n"
