"""The ``hanabi`` command, assembled from its command groups: the games (:mod:`.game`:
solve, replay, show, deal), the game review and the batch runs (:mod:`.analyse`:
review, analyse, report), the chances (:mod:`.chances`), the puzzles (:mod:`.puzzle`:
``hanabi puzzle ...``) and the board in the browser (:mod:`.serve`). Each module defines
its commands; only this one puts them into the group, so none of them imports another's.
"""
from __future__ import annotations

from cli.common import CleanGroup, run

from . import analyse, chances, game, serve
from .puzzle import puzzle

hanabi = CleanGroup(name="hanabi", help=game.cli.help, params=list(game.cli.params), commands=dict(game.cli.commands))
for command in (*analyse.COMMANDS, *chances.COMMANDS, puzzle, *serve.COMMANDS):
    hanabi.add_command(command)


def main() -> None:
    """The ``hanabi`` console script."""
    run(hanabi)


__all__ = ["hanabi", "main"]
