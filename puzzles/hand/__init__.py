"""Hand (Hareega) endgame puzzles: a mid-round position with every card visible and one
question for the seat to move (docs/hand.md, "Endgame puzzles").

- :mod:`.format`: :class:`HandPuzzle` (frozen) and its JSON (versioned), read with
  :class:`~solver.hand.rules.MalformedError` (a ``ValueError``) naming the field at fault;
- :mod:`.solve`: the two questions ("safe": paranoid; "table": cooperative) on the
  solver's public API, the card classes, the natural cards, the line and difficulty;
- :mod:`.generate`: puzzles from seeded random deals played by a seeded bot;
- :mod:`.check`: replays a puzzle through the engine, re-solves it, judges an answer.

It imports the rules engine and the solver (never the other way round) and nothing of
the Hanabi puzzles.
"""
from .check import CheckResult, check_puzzle, judge_answer
from .format import FORMAT, KINDS, VERSION, HandPuzzle, load_puzzle
from .generate import generate, generate_one

__all__ = ["FORMAT", "KINDS", "VERSION", "CheckResult", "HandPuzzle", "check_puzzle", "generate",
           "generate_one", "judge_answer", "load_puzzle"]
