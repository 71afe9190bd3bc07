"""``hanabi puzzle ...``: generate, check, render and export endgame puzzles.

Registered in the ``hanabi`` command by :mod:`cli.hanabi` (the library, ``solver``, never
imports this package). Errors about unreadable input are one line, exit code 2, raised as
``MalformedError`` and printed by the top-level ``CleanGroup``.
"""
from __future__ import annotations

import importlib.util
import json
import math
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

import click

from puzzles.hanabi.analysis import (
    ANSWER_KIND_OPTIONS,
    ANSWER_KINDS,
    CHECK_LIMITS,
    DIFFICULTIES,
    GENERATOR_LIMITS,
    Limits,
)
from puzzles.hanabi.format import load_puzzle, write_puzzle
from solver import MAX_TIMEOUT
from solver.common.outputs import STDOUT, write_output
from solver.hanabi.rules import MalformedError


def _has_seed_module() -> bool:
    try:
        return importlib.util.find_spec("solver.hanabi.rules.seeds") is not None
    except ImportError:  # pragma: no cover
        return False


def _seconds(ctx, param, value):
    """A ``--timeout``: click's FloatRange lets ``nan`` through (it compares false), and
    ``inf`` or a huge number would overflow the solvers' timers."""
    if value is not None and not (math.isfinite(value) and value <= MAX_TIMEOUT):
        raise MalformedError(f"--timeout: expected a finite number of seconds, at most {MAX_TIMEOUT:.0f}, got {value}")
    return value


@click.group()
def puzzle():
    """Endgame puzzles: generate, check, render, export."""


class Progress:
    """One line of progress on standard error, redrawn in place at most every ``every``
    seconds (at once when a puzzle is found), and only when standard error is a terminal
    (nothing at all otherwise: a log file gets no bar)."""

    def __init__(self, count: int, stream=None, every: float = 0.5):
        self.count = count
        self.stream = stream or sys.stderr
        self.every = every
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.monotonic()
        self.last: float | None = None  # when the line was last drawn
        self.found = 0

    def update(self, stats, found: int) -> None:
        """After each deck: the counts so far (``stats``) and the puzzles found."""
        now = time.monotonic()
        if not self.enabled or (found == self.found and self.last is not None and now - self.last < self.every):
            return
        self.last, self.found = now, found
        text = (f"puzzles {found}/{self.count}: {stats['decks']} decks, {stats['examined']} positions, "
                f"{now - self.t0:.0f} s")
        if not found:
            text += " (often 10 to 40 decks a puzzle)"
        width = shutil.get_terminal_size().columns
        self.stream.write("\r" + text[: max(width - 1, 20)] + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.last is not None:
            self.stream.write("\n")
            self.stream.flush()


@puzzle.command()
@click.option("--count", type=click.IntRange(1, 100000), default=10, show_default=True, help="How many puzzles.")
@click.option("--players", type=click.IntRange(2, 6), help="Player count (default: 2 to 5, in turn).")
@click.option("--variant", default="No Variant", show_default=True, help="Variant of the random decks.")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), help="Keep only puzzles of this difficulty.")
@click.option("--answer-kind", type=click.Choice(ANSWER_KIND_OPTIONS), default="mixed", show_default=True,
              help="The kind of winning first move: play, discard, clue, either (several kinds win), any, or "
                   "mixed (balanced: at most a third clues).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random decks and walks.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Directory to write to.")
@click.option("--decks", "deck_files", multiple=True, type=click.Path(dir_okay=False),
              help="Take the decks from this JSON-lines file (id, players, variant, deck) instead of random ones.")
@click.option("--source-seeds", is_flag=True,
              help="Deal the decks from hanab.live seeds p{P}v{V}s{N}, N = --seed, --seed + 1, ... (as the site does).")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--pictures", type=click.Choice(["svg", "png"]), help="Also draw each puzzle.")
@click.option("--window", type=click.IntRange(0, 60), default=12, show_default=True,
              help="Examine positions with at most this many cards left in the deck.")
@click.option("--max-winning", type=click.IntRange(1, 10), default=2, show_default=True,
              help="Keep positions where at most this many choices of first move keep the maximum (a discard "
                   "and a misplay of the same card are one choice).")
@click.option("--max-crux", type=click.IntRange(1, 40),
              help="Keep puzzles where the greedy strategy goes wrong by this move of the solution (1: the first "
                   "move is the trap).")
@click.option("--node-limit", type=click.IntRange(1000), default=GENERATOR_LIMITS.node_limit, show_default=True,
              help="Search nodes per solver call (keeps the output the same on every machine).")
@click.option("--timeout", type=click.FloatRange(0.1), default=GENERATOR_LIMITS.timeout, show_default=True,
              callback=_seconds,
              help="Seconds per solver call at most (a safety net; the node limit normally comes first).")
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object (not a line per puzzle).")
def generate(count, players, variant, difficulty, answer_kind, seed, out_dir, deck_files, source_seeds, jobs, pictures,
             window, max_winning, max_crux, node_limit, timeout, as_json):
    """Generate endgame puzzles from real decks into DIR (one JSON file each)."""
    from puzzles.hanabi.generate import Config, read_decks
    from puzzles.hanabi.generate import generate as run
    from solver.hanabi.rules import parse_variant

    v = parse_variant(variant)  # a bad name is a one-line error before any work
    if source_seeds:
        if deck_files:
            raise MalformedError("give only one of --decks and --source-seeds")
        if not _has_seed_module():  # pragma: no cover
            raise MalformedError("--source-seeds needs solver.hanabi.rules.seeds, which this installation lacks")
        if v.hanablive_id is None:
            raise MalformedError(f"--source-seeds: variant {v.name!r} has no hanab.live id")
        if seed < 0:
            raise MalformedError("--source-seeds: --seed must be 0 or more (the first seed suffix)")
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise MalformedError(f"{out}: cannot create directory: {e.strerror or e}") from None
    cfg = Config(count=count, seed=seed, players=players, variant=variant, difficulty=difficulty,
                 answer_kind=answer_kind, decks=list(deck_files), source_seeds=source_seeds, jobs=jobs, window=window,
                 max_winning=max_winning, max_crux=max_crux,
                 limits=Limits(timeout=timeout, node_limit=node_limit, engine="search"))
    rows = read_decks(cfg)  # bad deck files are one-line errors before the progress bar
    t0 = time.monotonic()
    written = []
    progress = Progress(count)
    progress.update(Counter(), 0)

    def on_puzzle(p):
        path = out / f"{p.id}.json"
        write_puzzle(p, path)
        if pictures:
            from puzzles.hanabi.render import render_puzzle

            render_puzzle(p, path.with_suffix("." + pictures))
        written.append((path, p))

    try:
        _, stats = run(cfg, on_puzzle, rows, on_deck=progress.update)
    finally:
        progress.close()
    levels = Counter(p.difficulty for _, p in written)
    kinds = Counter(p.metadata.get("answer_kind") for _, p in written)
    elapsed = time.monotonic() - t0
    if as_json:
        rejected = {k: v for k, v in stats.items() if k not in ("decks", "examined", "puzzles")
                    and not k.startswith("walk ")}
        click.echo(json.dumps({
            "count": count, "found": len(written), "complete": len(written) >= count,
            "puzzles": [{"path": str(path), "id": p.id, "difficulty": p.difficulty,
                         "answer_kind": p.metadata.get("answer_kind"), "to_move": p.question["position"]["to_move"],
                         "target": p.target, "winning_first_moves": p.winning["moves"]} for path, p in written],
            "difficulties": {d: levels[d] for d in DIFFICULTIES},
            "answer_kinds": {k: kinds[k] for k in ANSWER_KINDS},
            "decks": stats["decks"], "examined": stats["examined"],
            "walks": {k[len("walk "):]: v for k, v in stats.items() if k.startswith("walk ")},
            "rejected": rejected, "time": round(elapsed, 2)}))
    else:
        for path, p in written:
            st = p.question["position"]
            click.echo(f"{path}  {p.difficulty:<6}  {p.metadata.get('answer_kind', '?'):<7}  "
                       f"{st['to_move']} to move, target {p.target}, "
                       f"{p.winning['count']} winning first move{'s' if p.winning['count'] != 1 else ''} "
                       f"({' '.join(p.winning['moves'])})")
        mix = ", ".join(f"{levels[d]} {d}" for d in DIFFICULTIES if levels[d])
        kmix = ", ".join(f"{kinds[k]} {k}" for k in ANSWER_KINDS if kinds[k])
        click.echo(f"{len(written)} puzzles ({mix or 'none'}; answers: {kmix or 'none'}) from {stats['decks']} "
                   f"decks, {stats['examined']} positions examined, in {elapsed:.1f} s")
    if len(written) < count:
        click.echo(f"error: only {len(written)} of {count} puzzles found", err=True)
        sys.exit(1)


def _links(p, st) -> dict:
    """Links that open the puzzle on hanab.live at its position: ``position`` (the game up
    to it) and ``solution`` (then the first solution line); None where no link would open
    this very game, and then ``no_link`` says why."""
    from solver.hanabi.rules.links import link_and_reason

    rec = p.record()
    acts = list(rec.actions)
    position, why = link_and_reason(rec.game, acts, st.turn)
    solution, why_solution = link_and_reason(rec.game, acts + p.line_actions(0), st.turn) if p.lines else (None, None)
    return {"position": position, "solution": solution, "no_link": why or why_solution}


@puzzle.command()
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--answer", help='A line from the position: compact ("c pr3 dy1 c1r ...") or a JSON list of '
                               'hanab.live actions.')
@click.option("--json", "as_json", is_flag=True, help="The verdict as one JSON object.")
@click.option("--timeout", type=click.FloatRange(0.1), default=CHECK_LIMITS.timeout, show_default=True,
              callback=_seconds, help="Seconds per solver call at most.")
@click.option("--engine", type=click.Choice(["portfolio", "search"]), default=CHECK_LIMITS.engine,
              show_default=True, help="Solver engine for the proofs.")
def check(puzzle_file, answer, as_json, timeout, engine):
    """Check a puzzle (and an answer): exit 0 valid, 1 invalid or wrong, 2 unreadable."""
    from puzzles.hanabi.check import check_answer, check_puzzle
    from puzzles.hanabi.notation import parse_line

    p = load_puzzle(puzzle_file)
    if answer is not None:
        parse_line(answer)  # unreadable answers are errors (exit 2) before any work
    limits = Limits(timeout=timeout, node_limit=None, engine=engine)
    rep = check_puzzle(p, limits)
    if answer is not None and rep.state is not None:
        rep.answer = check_answer(rep.state, answer, p.target, limits)
    ok = rep.valid and (rep.answer is None or rep.answer.correct)
    links = _links(p, rep.state) if rep.valid else {}
    if as_json:
        click.echo(json.dumps({**rep.to_json(), "links": links}))
    else:
        # a file name from the command line may hold bytes that are not UTF-8 (surrogates
        # here): shown escaped, not a crash
        def say(text: str) -> None:
            click.echo(text.encode("utf-8", "backslashreplace").decode("utf-8"))

        if rep.valid:
            st = rep.state
            say(f"{p.id}: valid")
            say(f"  {st.game.player_name(st.current)} to move at turn {st.turn}, target {p.target}")
            for n in rep.notes:
                say(f"  {n}")
            for what in ("position", "solution"):
                if links.get(what):
                    say(f"  {what} on hanab.live: {links[what]}")
            if links.get("no_link"):
                say(f"  no hanab.live link: {links['no_link']}")
        else:
            say(f"{p.id}: INVALID")
            for prob in rep.problems:
                say(f"  - {prob}")
        if answer is not None:
            if rep.answer is None:
                say("answer: not checked (the position could not be set up)")
            else:
                say(f"answer: {'correct' if rep.answer.correct else 'wrong'}: {rep.answer.message}")
    sys.exit(0 if ok else 1)


@puzzle.command()
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Picture file: .svg or .png.")
def render(puzzle_file, out):
    """Draw the puzzle's table (stacks, hands, tokens, discards, draw pile) to SVG or PNG."""
    from puzzles.hanabi.render import render_puzzle

    p = load_puzzle(puzzle_file)
    if Path(out).suffix.lower() not in (".svg", ".png"):
        raise MalformedError(f"{out}: the picture must be .svg or .png")
    render_puzzle(p, out)
    click.echo(f"wrote {out}")


@puzzle.command()
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), help="Write here instead of standard output.")
@click.option("--with-solution", is_flag=True, help="Append the first solution line (a replay to the end).")
def export(puzzle_file, out, with_solution):
    """The position as hanab.live game JSON (the deck and the actions that reach it), a
    replay the site loads; a game it cannot load (not a site variant, our own rule options)
    is a one-line error."""
    from solver.hanabi.rules.hanablive import check_site_game, site_game_json

    p = load_puzzle(puzzle_file)
    rec = p.record()
    try:
        check_site_game(rec.game, rec.extra)  # before replaying the line
    except MalformedError as e:
        raise MalformedError(f"{puzzle_file}: export: {e} (the puzzle file holds the game in our own JSON)") from None
    st = rec.state_after()  # the actions must replay
    actions = list(rec.actions)
    if with_solution:
        if not p.lines:
            raise MalformedError(f"{puzzle_file}: --with-solution: the puzzle lists no solution line "
                                 f"(solution.lines is empty)")
        line = p.line_actions(0)
        end = st.copy().apply_all(line, f"{puzzle_file}: solution.lines[0]: action")
        if not end.over:
            raise MalformedError(f"{puzzle_file}: --with-solution: solution.lines[0] does not end the game "
                                 f"(not over after its {len(line)} moves)")
        actions += line
    try:  # the notes and a seed that deals the deck are kept, not the puzzle's closing action
        obj = site_game_json(rec.game, actions, rec.extra)
    except MalformedError as e:
        raise MalformedError(f"{puzzle_file}: export: {e}") from None
    text = json.dumps(obj, indent=1) + "\n"
    if out:
        write_output(out, text, "--out")
        click.echo(f"wrote {out}", err=out == STDOUT)
        links = _links(p, st)
        link = links["solution" if with_solution else "position"]
        if link:
            click.echo(f"On hanab.live: {link}")
        elif links["no_link"]:
            click.echo(f"On hanab.live: no link ({links['no_link']})")
    else:
        click.echo(text, nl=False)


@puzzle.command()
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Graph file: .graphml or .dot.")
@click.option("--json", "as_json", is_flag=True, help="The numbers as one JSON object.")
@click.option("--max-nodes", type=click.IntRange(1), default=None,
              help="Positions in the graph at most (default: solver.hanabi.analysis.graph.MAX_NODES).")
def graph(puzzle_file, out, as_json, max_nodes):
    """The solution graph of the puzzle: every optimal line from the position, to .graphml or .dot."""
    from solver.hanabi.analysis.graph import (
        GRAPH_FORMATS,
        MAX_NODES,
        forced_along,
        solution_graph,
        summary,
        write_graph,
    )

    if Path(out).suffix.lower() not in GRAPH_FORMATS:  # before any work
        raise MalformedError(f"{out}: the graph file must be .graphml or .dot")
    p = load_puzzle(puzzle_file)
    st = p.position()
    if st.over:
        raise MalformedError(f"{puzzle_file}: the position is already over ({st.end_reason})")
    G = solution_graph(st, p.target, max_nodes=max_nodes or MAX_NODES)
    s = summary(G)
    main = None
    if p.lines:
        try:
            main = forced_along(G, st, p.line_actions(0))
        except MalformedError:  # the listed line is unreadable or not optimal: the checker's business
            main = None
    write_graph(G, out)
    if as_json:
        click.echo(json.dumps({"id": p.id, "target": p.target, **{k: v for k, v in s.items() if k != "target"},
                               "forced_on_solution_line": main, "time": G.graph["time"], "out": str(out)}))
        return
    b = s["branching"]
    who = st.game.player_name(st.current)
    lo, hi = s["forced_per_line"]
    click.echo(f"{p.id}: solution graph for target {p.target} ({who} to move at turn {st.turn})")
    click.echo(f"  {s['nodes']} positions, {s['edges']} optimal moves, {s['terminal']} final positions, "
               f"{b['transpositions']} reached in more than one way")
    length = s["line_length"]
    click.echo(f"  {s['lines']} distinct optimal line{'s' if s['lines'] != 1 else ''}, "
               f"{length[0]}{'' if length[0] == length[1] else f' to {length[1]}'} moves long")
    per_line = f"{lo}" if lo == hi else f"{lo} to {hi}"
    along = f"; {main} on the puzzle's solution line" if main is not None else ""
    click.echo(f"  forced moves (one optimal kind of move): {s['forced']} positions in the graph, {per_line} on "
               f"each line{along}")
    click.echo(f"  branching: {b['mean']} optimal kinds of move per position on average, at most {b['max']}")
    click.echo(f"wrote {out} ({G.graph['time']:.2f} s)")


# ---------------------------------------------------------------- chance puzzles
@puzzle.group("chances")
def chance_group():
    """Chance puzzles: the draw pile's order unknown, which move gives the best chance?"""


@chance_group.command("generate")
@click.option("--count", type=click.IntRange(1, 10000), default=5, show_default=True, help="How many puzzles.")
@click.option("--seed", type=click.IntRange(0), default=1, show_default=True,
              help="The first hanab.live seed number (p{P}v0s{seed}, then the next ones).")
@click.option("--players", help="Player counts, in turn (default 2,3,4,5).")
@click.option("--difficulty", type=click.Choice(("easy", "medium", "hard")), help="Keep only this difficulty.")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Directory to write to.")
@click.option("--pictures", type=click.Choice(["svg", "png"]), help="Also draw each puzzle.")
@click.option("--gallery", is_flag=True, help="Also write README.md: the puzzles with their answers folded.")
def chance_generate(count, seed, players, difficulty, out_dir, pictures, gallery):
    """Generate chance puzzles from hanab.live seeds played by the greedy strategy: exactly
    one best move among at least three, and the greedy move is not it."""
    from puzzles.hanabi.chance import gallery_text, generate, render, write_puzzle

    try:
        plist = [int(x) for x in players.split(",")] if players else None
    except ValueError:
        raise MalformedError(f"--players {players!r}: expected player counts like 2,3") from None
    if plist is not None and not all(2 <= x <= 6 for x in plist):
        raise MalformedError(f"--players {players!r}: player counts are 2 to 6")
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise MalformedError(f"{out}: cannot create: {e.strerror or e}") from None

    def done(p):
        write_puzzle(p, out / f"{p.id}.json")
        if pictures:
            render(p, out / f"{p.id}.{pictures}")
        click.echo(f"{p.id}: {p.difficulty}, {p.data['question']['deck_left']} cards in the pile")

    ps = generate(count, seed=seed, players=plist, difficulty=difficulty, progress=done)
    if gallery:
        cmd = f"hanabi puzzle chances generate --count {count} --seed {seed}" + \
            (f" --players {players}" if players else "") + (f" --difficulty {difficulty}" if difficulty else "") + \
            f" --out {out_dir}" + (f" --pictures {pictures}" if pictures else "") + " --gallery"
        write_output(str(out / "README.md"), gallery_text(ps, pictures, cmd), "")
    click.echo(f"{len(ps)} chance puzzles in {out}")


@chance_group.command("check")
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--answer", help="A move from the position: compact (pr3, dy1, c, c1r) or a JSON list holding one "
                               "hanab.live action.")
@click.option("--json", "as_json", is_flag=True, help="The verdict as one JSON object.")
def chance_check(puzzle_file, answer, as_json):
    """Check a chance puzzle (re-solved exactly) and an answer: exit 0 valid/correct, 1
    invalid/wrong, 2 unreadable."""
    from puzzles.hanabi.chance import check_puzzle, load_puzzle, parse_answer

    p = load_puzzle(puzzle_file)
    if answer is not None:
        try:
            parse_answer(answer, p.position())  # unreadable or illegal answers: exit 2 before the work
        except ValueError as e:
            raise MalformedError(f"--answer: {e}") from None
    v = check_puzzle(p, answer)
    ok = v.valid and v.answer_correct is not False
    if as_json:
        click.echo(json.dumps({"id": p.id, **v.to_json()}))
    else:
        click.echo(f"{p.id}: {'valid' if v.valid else 'INVALID'}")
        for prob in v.problems:
            click.echo(f"  - {prob}")
        if v.answer_correct is not None:
            click.echo(f"answer: {'correct' if v.answer_correct else 'wrong'}: {v.answer_message}")
    sys.exit(0 if ok else 1)


@chance_group.command("render")
@click.argument("puzzle_file", metavar="PUZZLE", type=click.Path(dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="Picture file: .svg or .png.")
def chance_render(puzzle_file, out):
    """Draw a chance puzzle's table (the pile sorted: its order is the unknown)."""
    from puzzles.hanabi.chance import load_puzzle, render

    render(load_puzzle(puzzle_file), out)
    click.echo(f"wrote {out}")
