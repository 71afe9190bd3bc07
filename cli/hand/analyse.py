"""``hand analyse`` and ``hand report``: deal statistics at scale (docs/hand.md, "Deal
statistics"), through the same store and worker machinery as ``hanabi analyse``.

Bad input (a negative count, an unreadable or foreign store, a store made with other
budgets, an unwritable plot folder) is one line ``error: ...`` and exit code 2.
"""
from __future__ import annotations

import json
import os
import time

import click

from solver.hand.rules import MalformedError

MAX_SEED = 2 ** 62  # the store keys deals on their seed, a 64-bit SQLite integer
MAX_DEALS = 2 ** 40


@click.command()
@click.option("--deals", "count", type=click.IntRange(1, MAX_DEALS), required=True, help="How many deals.")
@click.option("--seed", "start", type=click.IntRange(0, MAX_SEED), default=1, show_default=True,
              help="The first deal's seed: the deals are Deal.random(SEED), ..., Deal.random(SEED + DEALS - 1).")
@click.option("--db", "db_path", default="hand-deals.sqlite", show_default=True, help="The deal store (SQLite).")
@click.option("--jobs", "workers", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@click.option("--dask", "use_dask", is_flag=True, help="Run on a local Dask cluster.")
@click.option("--scheduler", help="Run on an existing Dask cluster: tcp://host:port.")
@click.option("--nodes", type=click.IntRange(1), default=None,
              help="Node budget of each paranoid search (deterministic; default the solver's).")
@click.option("--coop-nodes", type=click.IntRange(1), default=None,
              help="Node budget of the cooperative search (deterministic; default the solver's).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="The run's counts as one JSON object.")
def analyse(count: int, start: int, db_path: str, workers: int | None, use_dask: bool, scheduler: str | None,
            nodes: int | None, coop_nodes: int | None, quiet: bool, as_json: bool) -> None:
    """Analyse DEALS seeded random deals, every card visible, and store each: every seat's
    bid table and bounds, and the trick vectors the table can reach.

    A rerun skips the deals the store holds; a killed run loses nothing that finished."""
    from cli.hanabi.analyse import running_batch
    from solver.common.progress import Progress
    from solver.hand import DEFAULT_COOP_NODES, DEFAULT_NODES
    from solver.hand.batch import DealRow, HandStore, run_deals

    if use_dask and scheduler:
        raise MalformedError("give --dask (a local cluster) or --scheduler ADDRESS, not both")
    budget = {"nodes": nodes or DEFAULT_NODES, "coop_nodes": coop_nodes or DEFAULT_COOP_NODES}
    store = HandStore(db_path, budget)
    where = "local" if use_dask else scheduler
    t0 = time.monotonic()
    bar: Progress | None = None
    complete = 0

    def on_start(n: int) -> None:
        nonlocal bar
        if not quiet and n:
            bar = Progress(n, f"analysing {n} deals")

    def progress(row: DealRow) -> None:
        nonlocal complete
        complete += row.complete
        if bar is not None:
            bar.update(1, f"seed {row.seed}")

    def close_bar() -> None:
        if bar is not None:
            bar.close()

    with running_batch(store, db_path, "deals", "analysed", close_bar):
        res = run_deals(start, count, store, workers=workers, dask=where, progress=progress, on_start=on_start)
    dt = time.monotonic() - t0
    if as_json:
        click.echo(json.dumps({"store": db_path, "total": res.total, "analysed": res.analysed,
                               "skipped": res.skipped, "complete": complete, "seconds": round(dt, 3)}))
        return
    rate = f", {res.analysed / dt:.2f} deals/s" if res.analysed and dt > 0 else ""
    click.echo(f"{db_path}: {res.analysed} deals analysed in {dt:.1f} s{rate} ({complete} fully decided); "
               f"{res.skipped} already stored; {res.total} in all")


@click.command()
@click.argument("db_path", metavar="DB", type=click.Path(dir_okay=False))
@click.option("--plot", "plot_dir", help="Write PNG charts into this folder.")
@click.option("--markdown", is_flag=True, help="The tables as Markdown instead of the text summary.")
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object.")
def report(db_path: str, plot_dir: str | None, markdown: bool, as_json: bool) -> None:
    """Summarise a deal store (opened read-only, never changed): best bids, guaranteed
    scores and exact guarantees by seat place, the sums of the best bids, reachability,
    the value of leading."""
    from solver.hand.batch import HandStore, format_markdown, format_text, plot, summarise

    if markdown and as_json:
        raise MalformedError("give --markdown or --json, not both")
    if plot_dir is not None and not plot_dir:
        raise MalformedError("--plot: empty folder name")
    with HandStore(db_path, None, create=False, readonly=True) as store:
        summary = summarise(store.rows(), db_path)
    if plot_dir:
        try:
            summary["plots"] = plot(summary, plot_dir)
        except OSError as e:
            raise MalformedError(f"{plot_dir}: cannot write: {e.strerror or e}") from None
    if as_json:
        click.echo(json.dumps(summary))
    elif markdown:
        click.echo(format_markdown(summary))
    else:
        click.echo(format_text(summary))


@click.command("export")
@click.argument("db_path", metavar="DB", type=click.Path(dir_okay=False))
@click.option("--out", "out_path", required=True, help="The file to write: gzip JSON Lines, e.g. deals.jsonl.gz.")
@click.option("--from", "start", type=click.IntRange(0, MAX_SEED), default=None, help="The first seed to export.")
@click.option("--to", "stop", type=click.IntRange(0, MAX_SEED), default=None, help="The last seed to export.")
def export_cmd(db_path: str, out_path: str, start: int | None, stop: int | None) -> None:
    """Write the deals a store holds (or those of seeds FROM..TO) to a portable file that
    `hand import` reads: to carry a run to another machine, or to publish the rows behind
    a table. The store is opened read-only."""
    from solver.common.outputs import STDOUT, check_output_path
    from solver.hand.batch import HandStore, export_rows

    if start is not None and stop is not None and stop < start:
        raise MalformedError(f"--from {start} --to {stop}: an empty range")
    check_output_path(out_path, "--out")
    if os.path.exists(out_path) and os.path.exists(db_path) and os.path.samefile(out_path, db_path):
        raise MalformedError(f"--out {out_path}: that is the store itself; name another file")
    with HandStore(db_path, None, create=False, readonly=True) as store:
        n = export_rows(store.rows(start, None if stop is None else stop + 1), store.budget, out_path)
    click.echo(f"{out_path}: {n} deals written", err=out_path == STDOUT)  # (not into the rows on stdout)


@click.command("import")
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--db", "db_path", default="hand-deals.sqlite", show_default=True,
              help="The deal store to add to (created with the files' budgets if missing).")
def import_cmd(files: tuple[str, ...], db_path: str) -> None:
    """Add the deals of export files (`hand export`) to a store. Each file is checked
    whole before anything of it is stored and goes in in one transaction; seeds the
    store holds keep their rows; files made with other node budgets are refused."""
    from solver.hand.batch import HandStore, file_budget, import_file

    # a new store takes the first file's budgets; an existing one keeps its own (and
    # refuses files made with others)
    budget = None if db_path and os.path.exists(db_path) else file_budget(files[0])
    with HandStore(db_path, budget) as store:
        for f in files:
            r = import_file(f, store)
            click.echo(f"{f}: {r.added} deals added, {r.rows - r.added} already stored")
