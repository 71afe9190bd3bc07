"""The Hand search kernel the solver uses: the pure-Python source or its mypyc build.

The kernel is ``solver/hand/search/{tables,dfs}.py``. That source is the reference;
``setup.py`` also compiles a copy of it with mypyc into ``solver.kernel.compiled.hand`` (beside
the Hanabi kernel, in the same build and shared library), each module stamped with the
SHA-256 of its source; the shared loader (:mod:`solver.kernel.loader`) uses the build
only while its stamps match the current source. Everything in :mod:`solver.hand`
imports the kernel from here, never from its modules, so one choice holds for the process.

The environment variable ``HAND_KERNEL`` picks the implementation (``auto``, the
default, ``pure`` or ``compiled``, as ``HANABI_KERNEL`` does for the Hanabi kernel; see
:func:`solver.kernel.loader.pick`); when it is unset, ``HANABI_KERNEL`` applies to both
kernels. :data:`IMPLEMENTATION` says which one runs, :data:`NOTE` why, :func:`describe`
both (``hand --version`` prints it); :func:`load` gives either on its own (the
differential test, tests/test_hand_kernel.py, runs both side by side). Both raise the one
:class:`~solver.hand.search.budget.BudgetExhausted`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.kernel import loader
from solver.kernel.loader import MODES, Kernel
from solver.kernel.stamp import HAND as SPEC

from .budget import BudgetExhausted

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "SPEC", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
    "tables", "dfs", "BudgetExhausted", "Cooperative", "Paranoid", "IVALID", "SUIT_MASK", "REPS",
    "down_closure", "interval_bit", "up_closure", "vector_bit", "vector_of",
]

_front = loader.Front(SPEC)
mode, describe, source_hashes = _front.mode, _front.describe, _front.source_hashes
compiled_kernel, load = _front.compiled_kernel, _front.load


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import dfs, tables
    from .dfs import (
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

    _kernel: Kernel
    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = _front.kernel
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    tables, dfs = _kernel.tables, _kernel.dfs
    IVALID, SUIT_MASK, Cooperative, Paranoid = dfs.IVALID, dfs.SUIT_MASK, dfs.Cooperative, dfs.Paranoid
    down_closure, interval_bit, up_closure = dfs.down_closure, dfs.interval_bit, dfs.up_closure
    vector_bit, vector_of = dfs.vector_bit, dfs.vector_of
    REPS = tables.REPS
