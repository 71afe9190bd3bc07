"""The chance search's kernel the rest of the project uses: the pure-Python source
(:mod:`.position`, :mod:`.search`) or its mypyc build (``solver._kernel.chances``, built
with the other kernels by ``setup.py``; see :mod:`solver.search.kernel`).

``CHANCES_KERNEL`` picks the implementation (``auto``, the default, ``pure`` or
``compiled``); when it is unset, ``HANABI_KERNEL`` applies, as for the Hand kernel. The rest
of the project imports the kernel from here, never from its modules, so one choice holds
for the process.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import solver.search._loader as _loader
from solver.search._stamp import CHANCES_MODULES, CHANCES_PACKAGE, CHANCES_SOURCE

__all__ = ["IMPLEMENTATION", "NOTE", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
           "position", "search", "CLUE", "DISCARD", "PLAY", "FROM_PILE", "ChancePos", "Facts", "SCORE", "WIN",
           "ChanceSearch",
           "move_order"]

SOURCE_DIR = Path(__file__).resolve().parent
PURE_PACKAGE = __name__.rpartition(".")[0]  # solver.chances


class Kernel(NamedTuple):
    implementation: str  # "pure" or "compiled"
    position: ModuleType
    search: ModuleType
    note: str


def mode() -> tuple[str, str]:
    """The mode asked for and the variable that asked: ``CHANCES_KERNEL``, else
    ``HANABI_KERNEL``, else ``auto``."""
    return _loader.asked_mode("CHANCES_KERNEL")


def describe() -> str:
    return f"chances kernel: {IMPLEMENTATION} ({NOTE})"


def source_hashes(source_dir: Path = SOURCE_DIR) -> dict[str, str]:
    return _loader.source_hashes(source_dir, CHANCES_MODULES)


def compiled_kernel() -> tuple[Kernel | None, str]:
    """The compiled kernel when it is built, imports and was built from the current
    source; otherwise None and why."""
    mods, why = _loader.compiled_modules(CHANCES_PACKAGE, CHANCES_MODULES, source_hashes(), CHANCES_SOURCE)
    if mods is None:
        return None, why
    return Kernel("compiled", mods[0], mods[1], why), ""


def load(mode_: str | None = None) -> Kernel:
    value, variable = mode() if mode_ is None else (mode_, "CHANCES_KERNEL")
    impl, mods, note = _loader.pick(value, variable, PURE_PACKAGE, CHANCES_PACKAGE, CHANCES_MODULES,
                                    source_hashes(), CHANCES_SOURCE)
    return Kernel(impl, mods[0], mods[1], note)


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import position, search
    from .position import CLUE, DISCARD, FROM_PILE, PLAY, ChancePos, Facts
    from .search import SCORE, WIN, ChanceSearch
    from .search import moves as move_order

    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = load()
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    position, search = _kernel.position, _kernel.search
    CLUE, DISCARD, PLAY, FROM_PILE = position.CLUE, position.DISCARD, position.PLAY, position.FROM_PILE
    ChancePos, Facts = position.ChancePos, position.Facts
    SCORE, WIN, ChanceSearch, move_order = search.SCORE, search.WIN, search.ChanceSearch, search.moves
