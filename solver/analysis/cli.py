"""``hanabi review``, ``hanabi analyse`` and ``hanabi report``."""
from __future__ import annotations

import json
import sys
import time

import click

from ..game import MalformedError, Rules, load_file, parse_variant


def _positive(name: str, value):
    if value is not None and not value > 0:  # also rejects nan
        raise MalformedError(f"{name} must be positive, got {value}")


def _plot_path(path: str | None):
    if path is not None and not path.lower().endswith((".png", ".svg", ".pdf")):
        raise MalformedError(f"--plot {path!r}: the file name must end in .png, .svg or .pdf")


@click.command()
@click.argument("game_file", type=click.Path(dir_okay=False))
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds per position.")
@click.option("--plot", "plot_path", help="Write the maximum-over-turns chart (PNG/SVG).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: every turn and every drop.")
def review(game_file, timeout, plot_path, as_json):
    """The exact maximum still reachable after every turn of a game, and the actions that
    lowered it."""
    from .review import format_text, plot
    from .review import review as run_review

    _positive("--timeout", timeout)
    _plot_path(plot_path)
    rec = load_file(game_file)
    rec.state_after()  # every action must be legal before any solving starts
    n = len(rec.actions) + 1
    with click.progressbar(length=n, label="reviewing", file=sys.stderr) as bar:
        rv = run_review(rec, timeout=timeout, progress=lambda i: bar.update(1))
    if plot_path:
        try:
            plot(rv, plot_path, title=f"{rec.source}: {rec.game.variant.name}, {rec.game.num_players} players")
        except OSError as e:
            raise MalformedError(f"{plot_path}: cannot write: {e.strerror or e}") from None
    if as_json:
        click.echo(json.dumps(rv.to_json()))
    else:
        click.echo(format_text(rv, rec))


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("--db", "db_path", default="results.sqlite", show_default=True, help="The result store (SQLite).")
@click.option("--players", type=int, help="Player count, for seeds or decks that do not carry one.")
@click.option("--variant", help="Variant name, for seeds or decks that do not carry one.")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds per deck.")
@click.option("--jobs", "workers", type=int, help="Worker processes (default: all cores).")
@click.option("--dask", "use_dask", is_flag=True, help="Run on a local Dask cluster.")
@click.option("--scheduler", help="Run on an existing Dask cluster: tcp://host:port.")
@click.option("--redo-open", is_flag=True,
              help="Also re-solve stored decks that are not exact (e.g. with a longer --timeout); a row is "
                   "replaced only by tighter bounds.")
@click.option("--redo-undecided", is_flag=True,
              help="Like --redo-open, but only the decks where it is still open whether the perfect score is "
                   "reachable.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def analyse(inputs, db_path, players, variant, timeout, workers, use_dask, scheduler, redo_open, redo_undecided, quiet):
    """Solve many decks and store every result: INPUTS are seed ranges (p3v0s1..100000),
    single seeds, deck files (.jsonl, .json, compact text) or folders of game JSONs.

    A rerun skips what the store already holds; a killed run loses nothing that finished."""
    from .jobs import make_jobs
    from .run import JobError, run_batch
    from .store import Store

    _positive("--timeout", timeout)
    if players is not None and not 2 <= players <= 6:
        raise MalformedError(f"bad player count {players}: must be 2 to 6")
    if workers is not None and workers < 1:
        raise MalformedError(f"--jobs must be at least 1, got {workers}")
    if use_dask and scheduler:
        raise MalformedError("give --dask (a local cluster) or --scheduler ADDRESS, not both")
    rules = Rules(parse_variant(variant)) if variant is not None else None
    jobs = make_jobs(inputs, players=players, rules=rules)
    store = Store(db_path)
    where = "local" if use_dask else scheduler
    t0 = time.monotonic()
    bar = None
    stats = {"exact": 0, "winnable": 0}

    def on_start(n):
        nonlocal bar
        if not quiet and n:
            bar = click.progressbar(length=n, label=f"solving {n} decks", file=sys.stderr, show_eta=True,
                                    show_pos=True, item_show_func=lambda r: r.key if r else None)
            bar.__enter__()

    def progress(row):
        stats["exact"] += row.exact
        stats["winnable"] += row.winnable is True
        if bar is not None:
            bar.update(1, row)

    try:
        res = run_batch(jobs, store, timeout=timeout, workers=workers, dask=where, progress=progress, on_start=on_start,
                        redo_open=redo_open, redo_undecided=redo_undecided)
    except JobError as e:
        raise MalformedError(str(e)) from None
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
        store.close()
    dt = time.monotonic() - t0
    rate = f", {res.solved / dt:.1f} decks/s" if res.solved and dt > 0 else ""
    click.echo(f"{db_path}: {res.solved} solved in {dt:.1f} s{rate} ({stats['exact']} exact, "
               f"{stats['winnable']} winnable); {res.skipped} already stored; {res.total} in all")


@click.command()
@click.argument("db_path", type=click.Path(dir_okay=False))
@click.option("--plot", "plot_dir", help="Write PNG charts into this folder.")
@click.option("--csv", "csv_path", help="Export every stored row as CSV.")
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object.")
@click.option("--slowest", type=int, default=10, show_default=True, help="How many of the slowest decks to list.")
def report(db_path, plot_dir, csv_path, as_json, slowest):
    """Summarise a result store: maximum-score distribution per player count and variant,
    the share of winnable decks, why the others are not, the slowest decks."""
    from .report import format_text, plot, summarise, write_csv
    from .store import Store

    with Store(db_path, create=False) as store:
        summary = summarise(store, slowest=slowest)
        if csv_path:
            try:
                write_csv(store, csv_path)
            except OSError as e:
                raise MalformedError(f"{csv_path}: cannot write: {e.strerror or e}") from None
    if plot_dir:
        try:
            summary["plots"] = plot(summary, plot_dir)
        except OSError as e:
            raise MalformedError(f"{plot_dir}: cannot write: {e.strerror or e}") from None
    click.echo(json.dumps(summary) if as_json else format_text(summary))


COMMANDS = (review, analyse, report)
