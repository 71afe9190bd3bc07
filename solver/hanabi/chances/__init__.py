"""Endgame chances: the win probability and the expected score when every hand is known
and the draw pile's order is not (:func:`chances`; the model and the search:
:mod:`solver.hanabi.chances.search`)."""
from __future__ import annotations

from .api import CLAIRVOYANT_LIMIT, DEFAULT_NODES, OBJECTIVES, Chances, Count, MoveChance, chances
from .build import unsupported_reason

__all__ = ["CLAIRVOYANT_LIMIT", "DEFAULT_NODES", "OBJECTIVES", "Chances", "Count", "MoveChance", "chances",
           "unsupported_reason"]
