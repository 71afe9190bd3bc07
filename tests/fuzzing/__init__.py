"""A seeded fuzzer for the ``hanabi`` command line (``replay``, ``show``, ``solve`` and ``puzzle
check``), used by tests/test_fuzz.py and runnable alone as ``python -m fuzzing`` from tests/:
:mod:`.values` and :mod:`.mutate` make odd JSON and text, :mod:`.cases` and :mod:`.generate` the
inputs, :mod:`.run` runs, judges and shrinks them.
"""
from .cases import COMMANDS, EXIT_CODES, Case, counts
from .generate import Generator
from .run import Outcome, Report, Runner, fuzz, judge, main, shrink

__all__ = ["COMMANDS", "EXIT_CODES", "Case", "Generator", "Outcome", "Report", "Runner", "counts", "fuzz", "judge",
           "main", "shrink"]
