"""The library's commands of the ``hanabi`` command line: solve, replay, show, deal, and
the batch commands (review, analyse, report).

The whole ``hanabi`` command (these, the batch and chance commands and the puzzle
commands) is assembled in :mod:`cli.hanabi`.
"""
from __future__ import annotations

import json

import click

from cli.common import CleanGroup
from cli.inputs import check_hand_flags, check_seconds, check_turn, input_options, load_input
from solver.common.outputs import check_output_path, write_output
from solver.hanabi.analysis.render import describe_position, describe_turn, status_line
from solver.hanabi.methods.portfolio import ENGINES
from solver.hanabi.rules import END_WORDS, IllegalActionError, MalformedError, format_compact
from solver.hanabi.search import kernel


@click.group(cls=CleanGroup)
@click.version_option(package_name="hanabi-solver",
                      message="%(prog)s, version %(version)s\n" + kernel.describe().replace("%", "%%"))
def cli():
    """Perfect-information Hanabi: rules engine, exact maximum scores, puzzles."""


def end_reason(st) -> str:
    return st.end_reason or "unfinished"


def end_in_words(st) -> str:
    """The end reason with what it means: ``no_plays (no card left can be played ...)``."""
    return f"{st.end_reason} ({END_WORDS[st.end_reason]})" if st.end_reason else "unfinished"


@cli.command()
@input_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of the log.")
def replay(rec, as_json):
    """Replay a game through the engine, turn by turn."""
    st = rec.game.initial_state()
    log = []
    for i, a in enumerate(rec.actions):
        try:
            done = st.check(a)
        except IllegalActionError as e:
            raise IllegalActionError(f"{rec.source}: action {i}: {e}") from None
        line = describe_turn(st, done)
        st.push(done)
        log.append(f"{line:<60} {status_line(st)}")
    stopped = rec.stopped()
    if as_json:
        out = {
            "score": rec.site_score(),
            "stacks_score": st.score,  # the stacks' sum (the score unless the game was stopped early)
            "stopped": stopped,  # how the file's closing game-over action stopped the game, or null
            "strikes": st.strikes,
            "turns": st.turn,
            "end_reason": "stopped" if stopped else end_reason(st),
            "clues": st.clues,
            "stacks": st.stacks,
            "max_reachable": st.still_reachable(),
            "players": rec.game.num_players,
            "variant": rec.game.variant.name,
        }
        click.echo(json.dumps(out))
        return
    g = rec.game
    click.echo(f"{g.variant.name}, {g.num_players} players: {', '.join(g.names)}")
    for line in log:
        click.echo(line)
    if stopped:
        click.echo(f"Final: score 0/{g.perfect_score} as the site scores a game stopped early (the stacks hold "
                   f"{st.score}), {st.strikes} strikes, turn {st.turn} ({st.turn} actions), end: {stopped}")
    else:
        click.echo(f"Final: score {st.score}/{g.perfect_score}, {st.strikes} strikes, turn {st.turn} "
                   f"({st.turn} actions), end: {end_in_words(st)}")


@cli.command()
@input_options
@click.option("--turn", type=int, default=None, help="Show the position after this many actions (default: the end).")
@click.option("--json", "as_json", is_flag=True, help="The position as JSON.")
def show(rec, turn, as_json):
    """Print a position: stacks, hands, tokens, discards, the deck, pace."""
    check_turn(rec.source, turn, len(rec.actions))
    st = rec.state_after(turn)
    if as_json:
        snap = st.snapshot()
        snap.update(turn=st.turn, pace=st.pace, deck_left=st.deck_left, max_reachable=st.still_reachable(),
                    end_reason=end_reason(st))
        click.echo(json.dumps(snap))
        return
    click.echo(describe_position(st))



REPLAY_FORMATS = ("site", "ours")  # solve --replay-format: hanab.live's (checked) or our own game JSON


@cli.command()
@input_options
@click.option("--timeout", type=float, default=None,
              help="A budget of about this many seconds of work (counted, so the same answer on any machine; "
                   "stopped at twice that of wall-clock time in any case); then the answer is bounds.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object: max_score, upper_bound, exact, actions, proof, stats.")
@click.option("--replay-out", metavar="FILE",
              help="Write the optimal game as hanab.live JSON (a replay the site loads).")
@click.option("--replay-format", type=click.Choice(REPLAY_FORMATS), default=None,
              help="--replay-out's format: site (default: refused before solving if hanab.live cannot load the "
                   "game) or ours (any variant and rule option; for hanabi replay/show/review, not the site).")
@click.option("--engine", type=click.Choice(ENGINES), default="portfolio",
              show_default=True, help="portfolio: search first, encodings to prove and confirm; or one engine alone.")
@click.option("--turn", type=int, default=None,
              help="Solve the position after this many actions of the game (as show --turn; default: the end).")
def solve(rec, timeout, as_json, replay_out, replay_format, engine, turn):
    """The maximum score reachable with every card visible, an optimal line and a proof.

    If FILE contains actions, solves from the position after them (or after the first N:
    --turn N)."""
    from solver.hanabi.analysis.answers import solve_from, solve_json

    check_seconds(timeout, "--timeout", no_limit=True)
    check_turn(rec.source, turn, len(rec.actions))
    if replay_out is not None:
        check_replay_out(rec, replay_out, replay_format)  # before the work, not after it
    elif replay_format is not None:
        raise MalformedError("--replay-format: give --replay-out FILE too")
    start, sol, link, why = solve_from(rec, turn, timeout=timeout, engine=engine)
    if replay_out is not None:
        write_replay_out(rec, list(rec.actions[:start.turn]) + list(sol.actions), replay_out, replay_format)
    if as_json:
        click.echo(json.dumps(solve_json(start, sol, link, why)))
        return
    g = rec.game
    click.echo(f"{g.variant.name}, {g.num_players} players" + (f", from turn {start.turn}" if start.turn else ""))
    click.echo("Maximum score: " + score_text(sol, g.perfect_score, engine))
    click.echo(f"Why not more: {sol.proof.reason}")
    click.echo(search_text(sol.stats, engine))
    if link:
        click.echo(f"On hanab.live: {link}")
    elif why and rec.game.variant.hanablive_id is not None:
        click.echo(f"On hanab.live: no link ({why})")
    if start.over:
        click.echo(f"The game is over: no move is left to make (it ended: {end_in_words(start)}).")
        return
    click.echo("Optimal line:" if sol.exact else "Best line found:")
    st = start.copy()
    for a in sol.actions:
        line = describe_turn(st, a)
        st.push(a)
        click.echo(f"{line:<60} {status_line(st)}")
    click.echo(f"Final: score {st.score}, end: {end_in_words(st)}")


def search_text(stats: dict, engine: str) -> str:
    """What did the work: the search's nodes, the split solve of Up or Down and Sudoku
    (the ways the stacks can go, each an ordinary game), or one encoding alone."""
    seconds = f"{stats.get('time', 0.0):.3f} s"
    if "nodes" in stats:
        return f"Search: {stats['nodes']} nodes, {seconds}"
    if "fixings" in stats:
        return (f"Search: the stacks fixed first (docs/variants.md): {stats['fixings']} ways they can go, "
                f"{stats.get('fixings_solved', 0)} searched (the bounds of the others do not beat the best "
                f"line), {seconds}")
    return f"Search: the {engine} encoding alone, {seconds}"


def check_replay_out(rec, path: str, fmt: str | None) -> None:
    """Before solving: ``--replay-out`` can be written, and (the site format) hanab.live can
    load the game: its variant, options, deck and notes (a one-line error, exit code 2)."""
    from solver.hanabi.rules.hanablive import check_site_game

    check_output_path(path, "--replay-out")
    if fmt != "ours":
        try:
            check_site_game(rec.game, rec.extra)
        except MalformedError as e:
            raise MalformedError(f"--replay-out {path}: {e} (--replay-format ours writes our own JSON)") from None


def write_replay_out(rec, actions, path: str, fmt: str | None) -> None:
    """The input game with ``actions`` (its own and the line) as a game file. The site
    format (:func:`~solver.hanabi.rules.hanablive.site_game_json`) keeps the notes, the seed if it
    deals the deck, never the ``id`` (the written game is not the real game of that id)
    nor the input's closing game-over action (the line plays on from there); ours
    (:func:`~solver.hanabi.rules.game_to_json`) keeps the seed and the notes."""
    from solver.hanabi.rules import game_to_json
    from solver.hanabi.rules.hanablive import site_game_json

    if fmt == "ours":
        extra = {k: v for k, v in rec.extra.items() if (k == "seed" and isinstance(v, str)) or k == "notes"}
        obj = game_to_json(rec.game, actions, extra)
    else:
        try:
            obj = site_game_json(rec.game, actions, rec.extra)
        except MalformedError as e:
            raise MalformedError(f"--replay-out {path}: {e}") from None
    write_output(path, json.dumps(obj, indent=1) + "\n", "--replay-out")


def score_text(sol, perfect: int, engine: str) -> str:
    """The answer's maximum in words: exact; found and bounded but the bound not confirmed
    by a second method; or between two bounds (timed out)."""
    if sol.exact:
        return f"{sol.max_score}/{perfect} (exact)"
    if sol.max_score == sol.upper_bound:
        why = (f"the {engine} engine alone: no second method" if engine in ("sat", "cpsat")
               else "the second proof timed out")
        return f"{sol.max_score}/{perfect}, found and bounded, but not confirmed by a second proof ({why})"
    return f"at least {sol.max_score}, at most {sol.upper_bound} of {perfect} (not proven: timed out)"



@cli.command()
@click.argument("seed")
@click.option("--players", type=int, help="Player count (needed unless SEED is p{N}v{id}s...).")
@click.option("--variant", help="Variant name (needed unless SEED is p{N}v{id}s...).")
@click.option("--one-extra-card", is_flag=True, default=None, help="Hand size +1.")
@click.option("--one-less-card", is_flag=True, default=None, help="Hand size -1.")
@click.option("--json", "as_json", is_flag=True,
              help='{"seed", "players", "variant", "deck": [{"suitIndex", "rank"}, ...]}')
def deal(seed, players, variant, one_extra_card, one_less_card, as_json):
    """The deck hanab.live deals for SEED (e.g. p3v0s1), top first, and the hands."""
    check_hand_flags(one_extra_card, one_less_card)
    rec = load_input(seed=seed, players=players, variant=variant,
                     flags=dict(one_extra_card=one_extra_card, one_less_card=one_less_card))
    g = rec.game
    if as_json:
        out = {"seed": seed, "players": g.num_players, "variant": g.variant.to_json(),
               "deck": [c.to_json() for c in g.deck]}
        click.echo(json.dumps(out))
        return
    h = g.hand_size
    click.echo(f"Seed {seed}: {g.variant.name}, {g.num_players} players, {h} cards each")
    click.echo(f"Deck (top first, {len(g.deck)} cards): {format_compact(g.deck, g.variant)}")
    w = max(len(n) for n in g.names)
    for p in range(g.num_players):
        lo = p * h
        click.echo(f"  {g.names[p]:<{w}}  {format_compact(g.deck[lo:lo + h], g.variant)}   (#{lo}-#{lo + h - 1})")
    rest = g.deck[g.num_players * h:]
    click.echo(f"Draw pile (next first, {len(rest)} cards): {format_compact(rest, g.variant) or '-'}")
