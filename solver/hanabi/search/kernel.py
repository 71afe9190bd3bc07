"""The search kernel the rest of the project uses: the pure-Python source or its mypyc build.

The kernel is the four modules ``solver/hanabi/search/{position,bounds,dfs,relaxed}.py``. That
source is the reference; ``setup.py`` also compiles a copy of it with mypyc into
``solver.kernel.compiled.hanabi`` (generated at build time, git-ignored) where mypyc and a C compiler
are present, each compiled module stamped with the SHA-256 of the source file it was
built from (:mod:`solver.kernel.stamp`). Everything in the project imports the kernel from here,
never from the modules themselves, so one choice holds for the whole process.

The environment variable ``HANABI_KERNEL`` picks the implementation:

- ``auto`` (the default): the compiled kernel when it is built, imports and every stamp
  matches the current source; otherwise, silently, the pure one (an editable install
  never runs compiled code older than the source: edit a kernel file and the pure source
  runs until the kernel is rebuilt, e.g. by ``scripts/setup.sh``);
- ``compiled``: the compiled kernel, or :class:`~solver.errors.KernelUnavailableError`
  saying why it cannot be used (CI runs the tests so);
- ``pure``: the source, always.

:data:`IMPLEMENTATION` says which one runs (``"pure"`` or ``"compiled"``), :data:`NOTE`
why (and :func:`describe` both, in one line, as ``hanabi --version`` prints it). Both implementations raise the one
:class:`~solver.errors.SearchTimeout` (defined outside the kernel). The kernel's modules
are here as :data:`position`, :data:`bounds`, :data:`dfs` and :data:`relaxed`, and their
public names below; :func:`load` gives either implementation on its own (the
differential test runs both side by side).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from solver.errors import SearchTimeout
from solver.kernel import loader
from solver.kernel.loader import MODES, Kernel
from solver.kernel.stamp import HANABI as SPEC

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "SPEC", "Kernel", "load", "describe", "compiled_kernel", "source_hashes", "mode",
    "position", "bounds", "dfs", "relaxed",
    "Position", "PLAY", "DISCARD", "CLUE", "quick_bound", "named_bound",
    "Budgeted", "Search", "RelaxedSearch", "SearchTimeout", "pack_key", "pack_relaxed_key",
    "CHECK_EVERY", "DEFAULT_MEMO_CAP", "ORDERS",
]

_front = loader.Front(SPEC)
mode, describe, source_hashes = _front.mode, _front.describe, _front.source_hashes
compiled_kernel, load = _front.compiled_kernel, _front.load


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import bounds, dfs, position, relaxed
    from .bounds import named_bound, quick_bound
    from .dfs import CHECK_EVERY, DEFAULT_MEMO_CAP, ORDERS, Budgeted, Search, pack_key
    from .position import CLUE, DISCARD, PLAY, Position
    from .relaxed import RelaxedSearch, pack_relaxed_key

    _kernel: Kernel
    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = _front.kernel
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    position, bounds, dfs, relaxed = _kernel.position, _kernel.bounds, _kernel.dfs, _kernel.relaxed
    Position, PLAY, DISCARD, CLUE = position.Position, position.PLAY, position.DISCARD, position.CLUE
    quick_bound, named_bound = bounds.quick_bound, bounds.named_bound
    Budgeted, Search, pack_key = dfs.Budgeted, dfs.Search, dfs.pack_key
    CHECK_EVERY, DEFAULT_MEMO_CAP, ORDERS = dfs.CHECK_EVERY, dfs.DEFAULT_MEMO_CAP, dfs.ORDERS
    RelaxedSearch, pack_relaxed_key = relaxed.RelaxedSearch, relaxed.pack_relaxed_key
