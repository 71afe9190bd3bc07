"""The Hand search kernel the solver uses: the pure-Python source or its mypyc build.

The kernel is ``solver/handsolve/{tables,search}.py``. That source is the reference;
``setup.py`` also compiles a copy of it with mypyc into ``solver._kernel.hand`` (beside
the Hanabi kernel, in the same build and shared library), each module stamped with the
SHA-256 of its source; the shared loader (:mod:`solver.search._loader`) uses the build
only while its stamps match the current source. Everything in :mod:`solver.handsolve`
imports the kernel from here, never from its modules, so one choice holds for the process.

The environment variable ``HAND_KERNEL`` picks the implementation (``auto``, the
default, ``pure`` or ``compiled``, as ``HANABI_KERNEL`` does for the Hanabi kernel; see
:func:`solver.search._loader.pick`); when it is unset, ``HANABI_KERNEL`` applies to both
kernels. :data:`IMPLEMENTATION` says which one runs, :data:`NOTE` why, :func:`describe`
both (``hand --version`` prints it); :func:`load` gives either on its own (the
differential test, tests/test_hand_kernel.py, runs both side by side). Both raise the one
:class:`~solver.handsolve.budget.BudgetExhausted`.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

import solver.search._loader as _loader
from solver.search._loader import MODES
from solver.search._stamp import HAND_MODULES, HAND_PACKAGE, HAND_SOURCE

from .budget import BudgetExhausted

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
    "tables", "search", "BudgetExhausted", "Cooperative", "Paranoid", "IVALID", "SUIT_MASK", "REPS",
    "down_closure", "interval_bit", "up_closure", "vector_bit", "vector_of",
]

SOURCE_DIR = Path(__file__).resolve().parent
PURE_PACKAGE = __name__.rpartition(".")[0]  # solver.handsolve
COMPILED_PACKAGE = HAND_PACKAGE


class Kernel(NamedTuple):
    """One implementation of the Hand kernel: its two modules, and why it was chosen."""

    implementation: str  # "pure" or "compiled"
    tables: ModuleType
    search: ModuleType
    note: str


def mode() -> tuple[str, str]:
    """The mode asked for and the variable that asked: ``HAND_KERNEL``, else
    ``HANABI_KERNEL``, else ``auto``."""
    return _loader.asked_mode("HAND_KERNEL")


def describe() -> str:
    """The kernel in use, in one line: ``hand kernel: compiled (...)``."""
    return f"hand kernel: {IMPLEMENTATION} ({NOTE})"


def source_hashes(source_dir: Path = SOURCE_DIR) -> dict[str, str]:
    """The stamp each compiled module must carry: the hash of its current source."""
    return _loader.source_hashes(source_dir, HAND_MODULES)


def compiled_kernel(hashes: dict[str, str] | None = None) -> tuple[Kernel | None, str]:
    """The compiled kernel when it is built, imports and was built from the current source
    (``hashes``: the stamps to expect, default :func:`source_hashes`); otherwise None and why."""
    mods, why = _loader.compiled_modules(COMPILED_PACKAGE, HAND_MODULES,
                                         source_hashes() if hashes is None else hashes, HAND_SOURCE)
    if mods is None:
        return None, why
    return Kernel("compiled", mods[0], mods[1], why), ""


def load(mode_: str | None = None, hashes: dict[str, str] | None = None) -> Kernel:
    """The kernel ``mode_`` asks for (default: :func:`mode`); ``hashes`` as
    :func:`compiled_kernel` takes it."""
    value, variable = mode() if mode_ is None else (mode_, "HAND_KERNEL")
    impl, mods, note = _loader.pick(value, variable, PURE_PACKAGE, COMPILED_PACKAGE, HAND_MODULES,
                                    source_hashes() if hashes is None else hashes, HAND_SOURCE)
    return Kernel(impl, mods[0], mods[1], note)


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import search, tables
    from .search import (
        IVALID,
        SUIT_MASK,
        Cooperative,
        Paranoid,
        down_closure,
        interval_bit,
        up_closure,
        vector_bit,
        vector_of,
    )
    from .tables import REPS

    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = load()
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    tables, search = _kernel.tables, _kernel.search
    IVALID, SUIT_MASK, Cooperative, Paranoid = search.IVALID, search.SUIT_MASK, search.Cooperative, search.Paranoid
    down_closure, interval_bit, up_closure = search.down_closure, search.interval_bit, search.up_closure
    vector_bit, vector_of = search.vector_bit, search.vector_of
    REPS = tables.REPS
