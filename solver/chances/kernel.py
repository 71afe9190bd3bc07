"""The chance search's kernel (:mod:`.position`, :mod:`.search`): the one place the rest
of the project imports it from."""
from __future__ import annotations

from .position import CLUE, DISCARD, PLAY, ChancePos, Facts
from .search import SCORE, WIN, ChanceSearch, moves

move_order = moves

__all__ = ["CLUE", "DISCARD", "PLAY", "ChancePos", "Facts", "SCORE", "WIN", "ChanceSearch", "move_order"]
