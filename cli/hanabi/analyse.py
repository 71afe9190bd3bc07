"""``hanabi review``, ``hanabi analyse`` and ``hanabi report``."""
from __future__ import annotations

import contextlib
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from typing import NoReturn

import click

from cli.common import option_keys
from cli.inputs import check_seconds, input_options
from solver.hanabi.rules import MalformedError, Rules, parse_variant

from .chances import NODES_PER_SECOND

CHANCES_LEFT = 8  # review --chances: the turns with at most this many cards in the pile (scripts/bench_chances.py)


@click.command()
@input_options
@click.option("--actions", "actions_json",
              help="The line to review, for an input without actions (--seed, --deck, a deck file): a JSON "
                   "list of hanab.live action objects (e.g. `hanabi solve --json`'s), or @FILE to read it.")
@click.option("--timeout", type=float, default=10.0, show_default=True,
              help="Seconds per position (a counted budget; stopped at twice that).")
@click.option("--plot", "plot_path", help="Write the maximum-over-turns chart (PNG/SVG).")
@click.option("--chances", "with_chances", is_flag=True,
              help="Also the endgame's chances with the pile's order unknown: for each action made with at most "
                   "--chances-left cards in the pile, P(target) before and after it and the best move's.")
@click.option("--chances-left", type=int, default=CHANCES_LEFT, show_default=True,
              help="With --chances: the most cards in the pile for a turn to be looked at.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: every turn and every drop.")
def review(rec, actions_json, timeout, plot_path, with_chances, chances_left, as_json):
    """The exact maximum still reachable after every turn of a game, and the actions that
    lowered it: a game FILE, or a seed or deck with a line (--actions)."""
    from solver.common.outputs import check_plot_path
    from solver.common.progress import Progress
    from solver.hanabi.analysis.review import format_text, plot
    from solver.hanabi.analysis.review import review as run_review

    check_seconds(timeout, "--timeout")
    if plot_path is not None:
        check_plot_path(plot_path)
    if actions_json is not None:
        if rec.actions:
            raise MalformedError(f"{rec.source}: has its own {len(rec.actions)} actions; --actions is for an "
                                 f"input without them (--seed, --deck, a deck file)")
        rec.actions = _parse_actions(actions_json)
    rec.state_after()  # every action must be legal before any solving starts
    if chances_left < 0:
        raise MalformedError(f"--chances-left {chances_left}: must be 0 or more cards")
    n = len(rec.actions) + 1
    with Progress(n, "reviewing") as bar:
        rv = run_review(rec, timeout=timeout, progress=lambda i: bar.update(1),
                        chances_left=chances_left if with_chances else None,
                        chances_nodes=max(1, int(timeout * NODES_PER_SECOND)))
    if plot_path:
        try:
            plot(rv, plot_path, title=f"{rec.source}: {rec.game.variant.name}, {rec.game.num_players} players")
        except OSError as e:
            raise MalformedError(f"{plot_path}: cannot write: {e.strerror or e}") from None
    if as_json:
        click.echo(json.dumps(rv.to_json()))
    else:
        click.echo(format_text(rv, rec))


def _parse_actions(text: str) -> list:
    """``--actions``: a JSON list of hanab.live action objects, or ``@FILE`` holding one."""
    from solver.hanabi.rules import Action, parse_json, read_text

    where = "--actions"
    if text.startswith("@"):
        where = text[1:]
        text = read_text(where)
    data = parse_json(text, where)
    if isinstance(data, dict) and isinstance(data.get("actions"), list):
        data = data["actions"]  # a whole `solve --json` answer, or a game
    if not isinstance(data, list):
        raise MalformedError(f"{where}: expected a JSON list of actions, got {type(data).__name__}")
    return [Action.from_json(a, f"{where}: action {i}") for i, a in enumerate(data)]


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--db", "db_path", default="results.sqlite", show_default=True, help="The result store (SQLite).")
@click.option("--players", type=int, help="Player count, for seeds or decks that do not carry one.")
@click.option("--variant", help="Variant name, for seeds or decks that do not carry one.")
@click.option("--timeout", type=float, default=10.0, show_default=True,
              help="Seconds per deck (a counted budget: the same answers on any machine; stopped at twice that "
                   "of wall-clock time in any case).")
@click.option("--jobs", "workers", type=int, help="Worker processes (default: all cores).")
@click.option("--dask", "use_dask", is_flag=True, help="Run on a local Dask cluster.")
@click.option("--scheduler", help="Run on an existing Dask cluster: tcp://host:port.")
@click.option("--redo-open", is_flag=True,
              help="Also re-solve stored decks that are not exact (e.g. with a longer --timeout; those solved "
                   "with a larger budget than this run's are left as they are); a row is replaced only by tighter "
                   "bounds.")
@click.option("--redo-undecided", is_flag=True,
              help="Like --redo-open, but only the decks where it is still open whether the perfect score is "
                   "reachable.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="The run's counts as one JSON object.")
@click.option("--strict-options", is_flag=True,
              help="An option key of a game file that is not known is an error, not a warning.")
def analyse(inputs, db_path, players, variant, timeout, workers, use_dask, scheduler, redo_open, redo_undecided, quiet,
            as_json, strict_options):
    """Solve many decks and store every result: INPUTS are seed ranges (p3v0s1..100000),
    single seeds, deck files (.jsonl, .json, compact text) or folders of game JSONs.

    A rerun skips what the store already holds; a killed run loses nothing that finished."""
    from solver.common.progress import Progress
    from solver.hanabi.batch.jobs import make_jobs
    from solver.hanabi.batch.run import run_batch
    from solver.hanabi.batch.store import Store

    check_seconds(timeout, "--timeout")
    if players is not None and not 2 <= players <= 6:
        raise MalformedError(f"bad player count {players}: must be 2 to 6")
    if workers is not None and workers < 1:
        raise MalformedError(f"--jobs must be at least 1, got {workers}")
    if use_dask and scheduler:
        raise MalformedError("give --dask (a local cluster) or --scheduler ADDRESS, not both")
    if redo_open and redo_undecided:
        raise MalformedError("give --redo-open (every inexact row) or --redo-undecided (only the rows whose "
                             "winnability is open), not both")
    rules = Rules(parse_variant(variant)) if variant is not None else None
    with option_keys(strict_options):
        jobs = make_jobs(inputs, players=players, rules=rules, warn=lambda m: click.echo(f"warning: {m}", err=True))
    store = Store(db_path)
    where = "local" if use_dask else scheduler
    t0 = time.monotonic()
    bar: Progress | None = None
    stats = {"exact": 0, "winnable": 0}

    def on_start(n):
        nonlocal bar
        if not quiet and n:
            bar = Progress(n, f"solving {n} decks")

    def progress(row):
        stats["exact"] += row.exact
        stats["winnable"] += row.winnable is True
        if bar is not None:
            bar.update(1, row.name)

    def close_bar():
        if bar is not None:
            bar.close()

    with running_batch(store, db_path, "rows", "solved", close_bar):
        res = run_batch(jobs, store, timeout=timeout, workers=workers, dask=where, progress=progress,
                        on_start=on_start, redo_open=redo_open, redo_undecided=redo_undecided)
    dt = time.monotonic() - t0
    if as_json:
        click.echo(json.dumps({"store": str(db_path), "total": res.total, "solved": res.solved,
                               "skipped": res.skipped, "stored_meanwhile": res.stored_meanwhile,
                               "repeats": res.repeats, "unchanged": res.unchanged, "exact": stats["exact"],
                               "winnable": stats["winnable"], "seconds": round(dt, 3)}))
        return
    rate = f", {res.solved / dt:.1f} decks/s" if res.solved and dt > 0 else ""
    more = ""
    if res.stored_meanwhile:
        more += f"; {res.stored_meanwhile} solved but stored meanwhile by another run"
    if res.unchanged:
        more += f"; {res.unchanged} re-solved without a tighter result (kept as stored)"
    if res.repeats:
        more += f"; {res.repeats} inputs repeat an earlier game (solved once)"
    click.echo(f"{db_path}: {res.solved} solved in {dt:.1f} s{rate} ({stats['exact']} exact, "
               f"{stats['winnable']} winnable); {res.skipped} already stored; {res.total} in all{more}")


@contextlib.contextmanager
def running_batch(store, db_path, noun: str, verb: str, close_bar: Callable[[], None]) -> Iterator[None]:
    """Around a batch run writing to ``store`` (either game's): a worker's failure
    (:class:`~.pool.JobError`) as a one-line error; Ctrl-C or SIGTERM as
    :func:`stop_interrupted` says ("N ``noun`` this run ``verb`` are stored"); the
    progress bar (``close_bar``) and the store closed in any case."""
    from solver.common.pool import JobError

    rows_before = len(store)
    try:
        with _terminate_as_interrupt():
            yield
    except JobError as e:
        raise MalformedError(str(e)) from None
    except KeyboardInterrupt as e:
        close_bar()
        stop_interrupted(e, store, rows_before, db_path, noun, verb)
    finally:
        close_bar()
        store.close()


def stop_interrupted(e: KeyboardInterrupt, store, rows_before: int, db_path, noun: str, verb: str) -> NoReturn:
    """A batch stopped by Ctrl-C or SIGTERM (:func:`_terminate_as_interrupt`): a
    transaction it cut short rolled back, the rows this run added counted in the store (the
    signal may come between a row's commit and the progress callback), the store closed,
    one line said ("N rows this run solved are stored"), exit code 128 + the signal."""
    with contextlib.suppress(Exception):
        if store.db.in_transaction:
            store.db.execute("ROLLBACK")
    try:
        added = f"{len(store) - rows_before} {noun}"
    except ValueError:
        added = f"the {noun}"
    store.close()
    signum = e.args[0] if e.args and isinstance(e.args[0], int) else signal.SIGINT
    name = "SIGTERM" if signum == signal.SIGTERM else "Ctrl-C"
    click.echo(f"{db_path}: stopped by {name}: {added} this run {verb} are stored; "
               f"run the same command again to go on", err=True)
    sys.exit(128 + signum)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM raises KeyboardInterrupt(SIGTERM) in the main thread while the batch runs,
    so a terminated run stops its workers and closes the store as Ctrl-C does (instead of
    dying at once and leaving the workers to fail on a broken pipe)."""
    def handler(signum, frame):
        raise KeyboardInterrupt(signum)

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (e.g. called from a test runner's thread)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@click.command()
@click.argument("db_path", type=click.Path(dir_okay=False))
@click.option("--plot", "plot_dir", help="Write PNG charts into this folder.")
@click.option("--csv", "csv_path", help="Export every stored row as CSV.")
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object.")
@click.option("--slowest", type=int, default=10, show_default=True, help="How many of the slowest decks to list.")
def report(db_path, plot_dir, csv_path, as_json, slowest):
    """Summarise a result store: maximum-score distribution per player count and variant,
    the share of winnable decks, why the others are not, the slowest decks. The store is
    opened read-only and never changed."""
    from solver.hanabi.batch.report import format_text, plot, summarise, write_csv
    from solver.hanabi.batch.store import Store

    if slowest < 0:
        raise MalformedError(f"--slowest must be 0 or more, got {slowest}")
    if csv_path is not None:
        from solver.common.outputs import check_output_path

        check_output_path(csv_path, "--csv")
    if plot_dir is not None and not plot_dir:
        raise MalformedError("--plot: empty folder name")
    with Store(db_path, create=False, readonly=True) as store:
        summary = summarise(store, slowest=slowest)
        if csv_path:
            write_csv(store, csv_path)
    if plot_dir:
        try:
            summary["plots"] = plot(summary, plot_dir)
        except OSError as e:
            raise MalformedError(f"{plot_dir}: cannot write: {e.strerror or e}") from None
    click.echo(json.dumps(summary) if as_json else format_text(summary))


COMMANDS = (review, analyse, report)
