"""The chance search's kernel the rest of the project uses: the pure-Python source
(:mod:`.position`, :mod:`.search`) or its mypyc build (``solver.kernel.compiled.chances``, built
with the other kernels by ``setup.py``; see :mod:`solver.hanabi.search.kernel`).

``CHANCES_KERNEL`` picks the implementation (``auto``, the default, ``pure`` or
``compiled``); when it is unset, ``HANABI_KERNEL`` applies, as for the Hand kernel. The rest
of the project imports the kernel from here, never from its modules, so one choice holds
for the process.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from solver.kernel import loader
from solver.kernel.loader import MODES, Kernel
from solver.kernel.stamp import CHANCES as SPEC

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "SPEC", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
    "position", "search", "CLUE", "DISCARD", "PLAY", "FROM_PILE", "ChancePos", "Facts", "SCORE", "WIN",
    "ChanceSearch", "move_order",
]


def mode() -> tuple[str, str]:
    """The mode asked for and the variable that asked: ``CHANCES_KERNEL``, else
    ``HANABI_KERNEL``, else ``auto``."""
    return loader.asked_mode(SPEC)


def describe() -> str:
    """The kernel in use, in one line: ``chances kernel: compiled (...)``."""
    return loader.describe(SPEC, _kernel)


def source_hashes(source_dir: Path | None = None) -> dict[str, str]:
    """The stamp each compiled module must carry: the hash of its current source."""
    return loader.source_hashes(SPEC, source_dir)


def compiled_kernel(hashes: dict[str, str] | None = None) -> tuple[Kernel | None, str]:
    """The compiled kernel when it is built, imports and was built from the current source
    (``hashes``: the stamps to expect, default :func:`source_hashes`); otherwise None and why."""
    return loader.compiled_kernel(SPEC, hashes)


def load(mode_: str | None = None, hashes: dict[str, str] | None = None) -> Kernel:
    """The kernel ``mode_`` asks for (default: :func:`mode`; see
    :func:`solver.kernel.loader.load`); ``hashes`` as :func:`compiled_kernel` takes it."""
    return loader.load(SPEC, mode_, hashes)


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import position, search
    from .position import CLUE, DISCARD, FROM_PILE, PLAY, ChancePos, Facts
    from .search import SCORE, WIN, ChanceSearch
    from .search import moves as move_order

    _kernel: Kernel
    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = load()
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    position, search = _kernel.position, _kernel.search
    CLUE, DISCARD, PLAY, FROM_PILE = position.CLUE, position.DISCARD, position.PLAY, position.FROM_PILE
    ChancePos, Facts = position.ChancePos, position.Facts
    SCORE, WIN, ChanceSearch, move_order = search.SCORE, search.WIN, search.ChanceSearch, search.moves
