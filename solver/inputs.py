"""Turning command-line input (a file, ``--deck``, ``--seed``, ``--players``, ``--variant``
and rule flags) into a :class:`GameRecord`."""
from __future__ import annotations

import importlib.resources
from dataclasses import replace

from .game import Game, GameRecord, MalformedError, Rules, deck_from_seed, load_file, load_text, parse_variant

EXAMPLE = "example_deck.json"


def example_text() -> str:
    return importlib.resources.files("solver").joinpath("data", EXAMPLE).read_text()


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
    else:
        rec = load_file(file, players=players, rules=rules)
    if players is not None and rec.game.num_players != players:
        raise MalformedError(f"{rec.source}: file has {rec.game.num_players} players, --players says {players}")
    if rules is not None and rec.game.rules != rules:
        # a JSON file with its own options: command-line rule flags are merged in
        merged = replace(rec.game.rules, **flags)
        if variant is not None and parse_variant(variant) != rec.game.variant:
            raise MalformedError(f"{rec.source}: file's variant is {rec.game.variant.name!r}, "
                                 f"--variant says {variant!r}")
        g = rec.game
        rec.game = Game(merged, g.num_players, g.deck, names=g.names, starting_player=g.starting_player)
    return rec
