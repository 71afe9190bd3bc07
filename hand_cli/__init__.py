"""The ``hand`` command (Hand, also called Hareega), above the library: the rules engine
(:mod:`solver.hand`) and the full-information solver (:mod:`solver.handsolve`)."""
from __future__ import annotations

from .cli import hand, main

__all__ = ["hand", "main"]
