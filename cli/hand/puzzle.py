"""``hand puzzle generate|check|render|gallery``: Hand endgame puzzles (docs/hand.md, "Endgame puzzles").

Unreadable input (a missing file, bad JSON, a field of the wrong shape, a card that is
not a card) is one line ``error: ...`` and exit code 2, through :class:`HandGroup`.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from cli.common import one_line
from puzzles.hand import KINDS, HandPuzzle, check_puzzle, generate, judge_answer, load_puzzle
from puzzles.hand.format import DIFFICULTIES
from solver.common.outputs import write_output
from solver.hand.rules import MalformedError, card_str, parse_card_list

from .common import HandGroup


@click.group(cls=HandGroup)
def puzzle() -> None:
    """Endgame puzzles: a mid-round position and one question for the seat to move."""


@puzzle.command("generate")
@click.option("--count", type=click.IntRange(1, 10_000), required=True, help="How many puzzles.")
@click.option("--out", "out_dir", required=True, type=click.Path(), help="Folder for the JSON files.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed, the same puzzles.")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None, help="Only puzzles of this difficulty.")
@click.option("--kind", type=click.Choice(KINDS), default=None,
              help="safe (keep your bid guaranteed) or table (every bid still makeable); default both.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes for the attempts (the same puzzles, in the same order).")
def generate_cmd(count: int, out_dir: str, seed: int, difficulty: str | None, kind: str | None, jobs: int) -> None:
    """Generate COUNT puzzles from seeded random deals into OUT (one JSON file each)."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise MalformedError(f"{out_dir}: cannot create the folder: {e.strerror or e}") from None
    t0, w0 = time.process_time(), time.perf_counter()
    made = 0
    for pz in generate(count, seed, difficulty, kind, jobs=jobs):
        path = out / f"{pz.id}.json"
        write_output(str(path), pz.dumps(), "")
        made += 1
        click.echo(f"{path}: {pz.kind}, seat {pz.seat}, {pz.cards_per_hand} cards a hand, {pz.difficulty} "
                   f"(rating {pz.rating}: depth {pz.depth}, {pz.wrong} wrong classes)")
    cpu = time.process_time() - t0
    if jobs == 1:
        click.echo(f"{made} puzzles in {cpu:.1f} s CPU")
    else:  # the workers' CPU is not this process's
        click.echo(f"{made} puzzles in {time.perf_counter() - w0:.1f} s wall ({jobs} worker processes)")
    if made < count:
        click.echo(f"error: only {made} of {count} puzzles found within the attempts allowed", err=True)
        sys.exit(1)


@puzzle.command("check")
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--answer", multiple=True, metavar="CARD",
              help="A proposed card (repeatable, or several in one value: 'QS JS').")
@click.option("--json", "as_json", is_flag=True, help="{valid, reason, correct, verdict}")
def check_cmd(puzzle_file: str, answer: tuple[str, ...], as_json: bool) -> None:
    """Check a puzzle (and an answer): exit 0 valid (and correct), 1 invalid or wrong, 2 unreadable."""
    cards = [c for i, a in enumerate(answer) for c in parse_card_list(a, f"--answer {i + 1}")]
    if answer and not cards:
        raise MalformedError("--answer: no card given")
    if not os.path.exists(puzzle_file):
        raise MalformedError(f"{puzzle_file}: no such file")
    pz = load_puzzle(puzzle_file)
    res = check_puzzle(pz)
    correct: bool | None = None
    verdict = ""
    if res.valid and cards:
        correct, verdict = judge_answer(pz, cards)
    if as_json:
        click.echo(json.dumps({"id": pz.id, "valid": res.valid, "reason": res.reason or None,
                               "correct": correct, "verdict": verdict or None}))
    elif not res.valid:
        click.echo(one_line(f"invalid: {pz.id}: {res.reason}"))
    elif correct is False:
        click.echo(one_line(f"wrong: {verdict}"))
    else:
        click.echo(f"valid: {pz.id}: {pz.text} Answer: {'/'.join(card_str(c) for c in pz.answer)} "
                   f"({pz.difficulty}, rating {pz.rating})")
        if verdict:
            click.echo(verdict)
    sys.exit(0 if res.valid and correct is not False else 1)


@puzzle.command("make")
@click.argument("deal_arg", metavar="DEAL")
@click.option("--plays", default="", help="The cards played from the deal to the puzzle's position, in order "
                                          "('TD 7D QD AD KS ...'); empty: the deal itself.")
@click.option("--bids", required=True, help="The four bids, seats 0..3 ('1 3 1 3').")
@click.option("--kind", type=click.Choice(KINDS), required=True,
              help="safe (keep your bid guaranteed) or table (every bid still makeable).")
@click.option("--id", "pid", required=True, help="The puzzle's name (also in the file).")
@click.option("--author", default="", help="Who made it.")
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False), help="The puzzle file (JSON).")
def make_cmd(deal_arg: str, plays: str, bids: str, kind: str, pid: str, author: str, out_file: str) -> None:
    """Make a puzzle by hand from DEAL (a file or the deal in text notation), the cards
    played and the bids: the solver finds the answer, the line and the rating, or says why
    the position is not a puzzle (exit 1). The file passes ``hand puzzle check``."""
    from puzzles.hand.generate import make_puzzle
    from solver.common.outputs import check_output_path, write_output

    from .common import read_position

    check_output_path(out_file, "--out")
    where, deal, _ = read_position(deal_arg)
    if deal is None:
        raise MalformedError(f"{where}: a position; give the deal (the round's history is part of the puzzle)")
    played = parse_card_list(plays, "--plays") if plays.strip() else []
    try:
        bid_list = [int(x) for x in bids.replace(",", " ").split()]
    except ValueError:
        raise MalformedError(f"--bids {bids!r}: four whole numbers 0..8") from None
    if len(bid_list) != 4 or not all(0 <= b <= 8 for b in bid_list):
        raise MalformedError(f"--bids {bids!r}: four whole numbers 0..8, seats 0..3")
    pz = make_puzzle(pid, kind, deal, (bid_list[0], bid_list[1], bid_list[2], bid_list[3]), played, author)
    if isinstance(pz, str):
        click.echo(one_line(f"not a puzzle: {pz}"))
        sys.exit(1)
    write_output(out_file, pz.dumps(), "--out")
    click.echo(f"{out_file}: {pz.text} Answer: {'/'.join(card_str(c) for c in pz.answer)} ({pz.difficulty}, "
               f"rating {pz.rating}: depth {pz.depth}, {pz.wrong} wrong classes)")


@puzzle.command("render")
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--out", "out_file", required=True, type=click.Path(),
              help="The picture: .svg, .png or .pdf (the format follows the extension).")
def render_cmd(puzzle_file: str, out_file: str) -> None:
    """Draw PUZZLE's table: the four hands, the trick in progress, bids and tricks taken, the
    question (nothing of the answer)."""
    from puzzles.hand.render import output_format, render_puzzle  # matplotlib only for this command

    output_format(out_file)  # a bad extension or an unwritable path, before reading and drawing
    if not os.path.exists(puzzle_file):
        raise MalformedError(f"{puzzle_file}: no such file")
    pz = load_puzzle(puzzle_file)
    path = render_puzzle(pz, out_file)
    click.echo(f"{path}: {pz.id} ({pz.kind}, seat {pz.seat} to play, {pz.cards_per_hand} cards a hand)")


@puzzle.command("gallery")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="The gallery's folder (docs/hand-puzzles).")
@click.option("--seed", type=int, default=None,
              help="Slot k of the plan takes the first puzzle of seed + k (default 2026).")
@click.option("--from-files", is_flag=True,
              help="Redraw the pictures and rewrite the page from the puzzle files in OUT (no generating).")
def gallery_cmd(out_dir: str, seed: int | None, from_files: bool) -> None:
    """Build the puzzle gallery: 12 puzzles (both kinds; easy, medium, hard), their pictures
    and README.md with the answers folded."""
    from puzzles.hand import gallery  # matplotlib only for this command

    out = Path(out_dir)
    if from_files:
        if seed is not None:
            raise MalformedError("--seed: not with --from-files (the files give the seed)")
        if not out.is_dir():
            raise MalformedError(f"{out_dir}: no such folder")
        try:
            chosen, seed = gallery.from_files(out)
        except ValueError as e:
            raise MalformedError(str(e)) from None
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise MalformedError(f"{out_dir}: cannot create the folder: {e.strerror or e}") from None
        seed = gallery.DEFAULT_SEED if seed is None else seed

        def show(k: int, pz: HandPuzzle) -> None:
            click.echo(f"slot {k + 1}: {pz.id} ({pz.kind}, {pz.difficulty}, {pz.cards_per_hand} cards a hand)")

        try:
            chosen = gallery.choose(seed, on_pick=show)
        except ValueError as e:
            raise MalformedError(str(e)) from None
    try:
        gallery.write_gallery(out, chosen, seed, write_files=not from_files)
    except OSError as e:
        raise MalformedError(f"{out_dir}: cannot write: {e.strerror or e}") from None
    click.echo(f"{out / 'README.md'}: {len(chosen)} puzzles, seed {seed}")
