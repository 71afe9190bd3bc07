"""The ``hanabi`` command, assembled above the library and the application packages.

The library (:mod:`solver`) never imports the puzzles (:mod:`puzzles`); this package
imports both and puts their commands in one group: the library's commands
(:mod:`solver.cli`: solve, replay, show, deal, review, analyse, report) and the puzzle
commands (:mod:`puzzles.cli`: ``hanabi puzzle ...``).
"""
from __future__ import annotations

from puzzles.cli import puzzle
from solver.cli import CleanGroup, run
from solver.cli import cli as library_cli

hanabi = CleanGroup(name="hanabi", help=library_cli.help, params=list(library_cli.params),
                    commands=dict(library_cli.commands))
hanabi.add_command(puzzle)


def main() -> None:
    """The ``hanabi`` console script."""
    run(hanabi)


__all__ = ["hanabi", "main"]
