"""The chance search's kernel the rest of the project uses: the pure-Python source
(:mod:`.position`, :mod:`.search`) or its mypyc build (``solver.kernel.compiled.chances``, built
with the other kernels by ``setup.py``; see :mod:`solver.hanabi.search.kernel`).

``CHANCES_KERNEL`` picks the implementation (``auto``, the default, ``pure`` or
``compiled``); when it is unset, ``HANABI_KERNEL`` applies, as for the Hand kernel. The rest
of the project imports the kernel from here, never from its modules, so one choice holds
for the process.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.kernel import loader
from solver.kernel.loader import MODES, Kernel
from solver.kernel.stamp import CHANCES as SPEC

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "SPEC", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
    "position", "search", "CLUE", "DISCARD", "PLAY", "FROM_PILE", "ChancePos", "Facts", "SCORE", "WIN",
    "ChanceSearch", "move_order",
]

_front = loader.Front(SPEC)
mode, describe, source_hashes = _front.mode, _front.describe, _front.source_hashes
compiled_kernel, load = _front.compiled_kernel, _front.load


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import position, search
    from .position import CLUE, DISCARD, FROM_PILE, PLAY, ChancePos, Facts
    from .search import SCORE, WIN, ChanceSearch
    from .search import moves as move_order

    _kernel: Kernel
    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = _front.kernel
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    position, search = _kernel.position, _kernel.search
    CLUE, DISCARD, PLAY, FROM_PILE = position.CLUE, position.DISCARD, position.PLAY, position.FROM_PILE
    ChancePos, Facts = position.ChancePos, position.Facts
    SCORE, WIN, ChanceSearch, move_order = search.SCORE, search.WIN, search.ChanceSearch, search.moves
