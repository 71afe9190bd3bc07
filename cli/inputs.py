"""Turning command-line input (a file, ``--deck``, ``--seed``, ``--players``, ``--variant``
and rule flags) into a :class:`GameRecord`."""
from __future__ import annotations

import functools
import importlib.resources
from dataclasses import replace
from pathlib import Path

import click

from cli.common import option_keys
from solver.hanabi.rules import (
    Game,
    GameRecord,
    MalformedError,
    Rules,
    deck_from_seed,
    load_file,
    load_text,
    parse_variant,
)
from solver.hanabi.rules.fetch import is_reference, load_reference

EXAMPLE = "example_deck.json"


def example_text() -> str:
    return importlib.resources.files("solver.hanabi").joinpath("data", EXAMPLE).read_text()


def load_input(
    file=None,
    *,
    deck: str | None = None,
    players: int | None = None,
    variant: str | None = None,
    example: bool = False,
    seed: str | None = None,
    flags: dict | None = None,
) -> GameRecord:
    sources = sum(x is not None and x is not False for x in (file, deck, seed, example or None))
    if sources == 0:
        raise MalformedError("no input: give a FILE, --deck \"r1 y3 ...\", --seed SEED or --example")
    if sources > 1:
        raise MalformedError("give only one of FILE, --deck, --seed and --example")
    if file is not None and str(file) == "":
        raise MalformedError("FILE: empty file name")
    flags = {k: v for k, v in (flags or {}).items() if v is not None and v is not False}
    if seed is not None:
        # a hanab.live seed: players and variant from a p{N}v{id}s... seed, or given
        n, v, cards = deck_from_seed(seed, players, variant)
        return GameRecord(Game(Rules(v, **flags), n, cards), [], None, f"seed {seed!r}", {"seed": seed})
    rules = None
    if variant is not None or flags:
        rules = Rules(parse_variant("No Variant" if variant is None else variant), **flags)
    if example:
        rec = load_text(example_text(), "example", players=players, rules=rules)
    elif deck is not None:
        rec = load_text(deck, "--deck", players=players, rules=rules)
    elif not Path(file).exists() and is_reference(str(file)):  # a game on hanab.live: a link, a number
        rec = load_reference(str(file))
    else:
        rec = load_file(file, players=players, rules=rules)
    if players is not None and rec.game.num_players != players:
        raise MalformedError(f"{rec.source}: file has {rec.game.num_players} players, --players says {players}")
    if rules is not None and rec.game.rules != rules:
        # a JSON file with its own options: command-line rule flags are merged in
        if variant is not None and parse_variant(variant) != rec.game.variant:
            raise MalformedError(f"{rec.source}: file's variant is {rec.game.variant.name!r}, "
                                 f"--variant says {variant!r}")
        _check_merge(rec.source, rec.game.rules, flags)
        merged = replace(rec.game.rules, **flags)
        g = rec.game
        try:
            rec.game = Game(merged, g.num_players, g.deck, names=g.names, starting_player=g.starting_player)
        except MalformedError as e:  # e.g. --one-extra-card: hands larger than the deck
            raise MalformedError(f"{rec.source}: {e}") from None
    return rec


def _check_merge(source: str, file_rules: Rules, flags: dict) -> None:
    """Command-line rule flags that contradict the file's own options."""
    if file_rules.strikeout_score != "zero" and flags.get("strikeout_score", file_rules.strikeout_score) != \
            file_rules.strikeout_score:
        raise MalformedError(f"{source}: file's options.strikeoutScore is {file_rules.strikeout_score!r}, "
                             f"--strikeout-score says {flags['strikeout_score']!r}")
    for have, other, key, flag in (("one_extra_card", "one_less_card", "oneExtraCard", "--one-less-card"),
                                   ("one_less_card", "one_extra_card", "oneLessCard", "--one-extra-card")):
        if getattr(file_rules, have) and flags.get(other):
            raise MalformedError(f"{source}: file's options.{key} and {flag} contradict each other "
                                 f"(hand size +1 and -1)")


def input_options(f):
    """FILE or --deck/--seed/--example, --players, --variant, and the rule flags."""

    @click.argument("file", required=False, type=click.Path(dir_okay=False))
    @click.option("--deck", help='Deck in compact notation, top first: "r1 y3 b5 ...".')
    @click.option("--seed", help="A hanab.live seed, e.g. p3v0s1: the deck the server deals for it.")
    @click.option("--example", is_flag=True, help="Use the built-in example deck (3 players).")
    @click.option("--players", type=int, help="Player count (needed for a bare deck).")
    @click.option("--variant", help='Variant name, e.g. "No Variant", "Rainbow (5 Suits)".')
    @click.option("--empty-clues", is_flag=True, default=None, help="Allow clues that touch no card.")
    @click.option("--deck-plays", is_flag=True, default=None, help="The last deck card may be played from the deck.")
    @click.option("--strikeout-score", type=click.Choice(["zero", "stacks"]),
                  help="Score after the last strike (default zero).")
    @click.option("--reserve-token", is_flag=True, default=None, help="Advanced game's reserve 9th clue token.")
    @click.option("--one-extra-card", is_flag=True, default=None, help="Hand size +1.")
    @click.option("--one-less-card", is_flag=True, default=None, help="Hand size -1.")
    @click.option("--play-to-the-end", is_flag=True, default=None,
                  help="The printed end of game: play on until the final round is over (by default the "
                       "game also ends as hanab.live ends it, once nothing more can be scored).")
    @click.option("--strict-options", is_flag=True,
                  help="An option key of the game file that is not known is an error, not a warning.")
    @functools.wraps(f)
    def wrapper(file, deck, seed, example, players, variant, empty_clues, deck_plays, strikeout_score,
                reserve_token, one_extra_card, one_less_card, play_to_the_end, strict_options, **kw):
        if players is not None and not 2 <= players <= 6:
            raise MalformedError(f"bad player count {players}: must be 2 to 6")
        check_hand_flags(one_extra_card, one_less_card)
        flags = dict(empty_clues=empty_clues, deck_plays=deck_plays, strikeout_score=strikeout_score,
                     reserve_token=reserve_token, one_extra_card=one_extra_card, one_less_card=one_less_card,
                     play_to_the_end=play_to_the_end)
        with option_keys(strict_options):
            rec = load_input(file, deck=deck, players=players, variant=variant, example=example, seed=seed,
                             flags=flags)
        return f(rec, **kw)

    return wrapper


def check_hand_flags(one_extra_card, one_less_card) -> None:
    if one_extra_card and one_less_card:
        raise MalformedError("--one-extra-card and --one-less-card contradict each other (hand size +1 and -1): "
                             "give at most one")


def check_seconds(value: float | None, option: str, *, no_limit: bool = False) -> None:
    """A time limit given on the command line: positive and at most the solvers' longest
    wait (``nan``, ``inf`` and huge values refused: the timers cannot wait that long);
    ``no_limit``: leaving the option out means no limit (said in the message)."""
    from solver.hanabi.methods.portfolio import MAX_TIMEOUT

    if value is not None and not 0 < value <= MAX_TIMEOUT:  # also rejects nan
        hint = " (leave it out for no limit)" if no_limit else ""
        raise MalformedError(f"{option} must be a positive number of seconds, at most {MAX_TIMEOUT:.0f}{hint}, "
                             f"got {value}")


def check_turn(source: str, turn: int | None, actions: int) -> None:
    """``--turn N``: N actions of a game (:func:`solver.hanabi.analysis.answers.check_turn`)."""
    from solver.hanabi.analysis.answers import check_turn as check

    check(source, turn, actions, "--turn")
