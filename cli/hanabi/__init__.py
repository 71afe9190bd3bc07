"""The ``hanabi`` command, assembled from its command groups: the games (:mod:`.game`:
solve, replay, show, deal, export), the game review and the batch runs (:mod:`.analyse`:
review, analyse, report), the chances (:mod:`.chances`) and the puzzles
(:mod:`.puzzle`: ``hanabi puzzle ...``). Each module defines its commands; only this one
puts them into the group, so none of them imports another's.
"""
from __future__ import annotations

from cli.common import CleanGroup, run

from . import analyse, chances, game
from .puzzle import puzzle

hanabi = CleanGroup(name="hanabi", help=game.cli.help, params=list(game.cli.params), commands=dict(game.cli.commands))
for command in (*analyse.COMMANDS, *chances.COMMANDS, puzzle):
    hanabi.add_command(command)


def main() -> None:
    """The ``hanabi`` console script."""
    run(hanabi)


__all__ = ["hanabi", "main"]
