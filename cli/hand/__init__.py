"""The ``hand`` command (Hand, also called Hareega), assembled from its command groups: the
deals and their analyses (:mod:`.game`: deal, replay, solve, best), the deal statistics
(:mod:`.analyse`: analyse, report, export, import), the game review (:mod:`.review`) and
the puzzles (:mod:`.puzzle`). Each module defines its commands; only this one puts them
into the group."""
from __future__ import annotations

from cli.common import run

from . import analyse, review
from .game import hand
from .puzzle import puzzle

for command in (analyse.analyse, analyse.report, analyse.export_cmd, analyse.import_cmd, review.review, puzzle):
    hand.add_command(command)


def main() -> None:
    """The ``hand`` console script."""
    run(hand, prog_name="hand")


__all__ = ["hand", "main"]
