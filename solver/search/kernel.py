"""The search kernel the rest of the project uses: the pure-Python source or its mypyc build.

The kernel is the four modules ``solver/search/{position,bounds,dfs,relaxed}.py``. That
source is the reference; ``setup.py`` also compiles a copy of it with mypyc into
``solver._kernel`` (generated at build time, git-ignored) where mypyc and a C compiler
are present, each compiled module stamped with the SHA-256 of the source file it was
built from (:mod:`._stamp`). Everything in the project imports the kernel from here,
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

import importlib
import importlib.machinery
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from ..errors import KernelUnavailableError, SearchTimeout, UnknownOptionError
from ._stamp import COMPILED_PACKAGE, KERNEL_MODULES, STAMP_NAME, file_hash

__all__ = [
    "IMPLEMENTATION", "NOTE", "MODES", "Kernel", "load", "describe", "compiled_kernel", "source_hashes",
    "position", "bounds", "dfs", "relaxed",
    "Position", "PLAY", "DISCARD", "CLUE", "quick_bound", "named_bound",
    "Budgeted", "Search", "RelaxedSearch", "SearchTimeout", "pack_key", "pack_relaxed_key",
    "CHECK_EVERY", "DEFAULT_MEMO_CAP", "ORDERS",
]

MODES = ("auto", "pure", "compiled")
SOURCE_DIR = Path(__file__).resolve().parent
PURE_PACKAGE = __name__.rpartition(".")[0]  # solver.search


class Kernel(NamedTuple):
    """One implementation of the kernel: its four modules, and why it was chosen."""

    implementation: str  # "pure" or "compiled"
    position: ModuleType
    bounds: ModuleType
    dfs: ModuleType
    relaxed: ModuleType
    note: str  # why this one (the compiled kernel: what it is)


def describe() -> str:
    """The kernel in use, in one line: ``search kernel: compiled (...)``."""
    return f"search kernel: {IMPLEMENTATION} ({NOTE})"


def source_hashes(source_dir: Path = SOURCE_DIR) -> dict[str, str]:
    """The stamp each compiled module must carry: the hash of its current source."""
    return {name: file_hash(source_dir / f"{name}.py") for name in KERNEL_MODULES}


def _pure(note: str) -> Kernel:
    p, b, d, r = (importlib.import_module(f"{PURE_PACKAGE}.{name}") for name in KERNEL_MODULES)
    return Kernel("pure", p, b, d, r, note)


def compiled_kernel(hashes: dict[str, str] | None = None) -> tuple[Kernel | None, str]:
    """The compiled kernel when it is built, imports and was built from the current source
    (``hashes``: the stamps to expect, default :func:`source_hashes`); otherwise None and
    why not."""
    not_built = ("the compiled kernel is not built: {}; pip install and scripts/setup.sh build it when mypyc and a "
                 "C compiler are there, unless HANABI_NO_COMPILE=1")
    try:
        hashes = source_hashes() if hashes is None else hashes
        if importlib.util.find_spec(COMPILED_PACKAGE) is None:
            return None, not_built.format(f"no {COMPILED_PACKAGE}")
        mods = []
        for name in KERNEL_MODULES:
            full = f"{COMPILED_PACKAGE}.{name}"
            spec = importlib.util.find_spec(full)
            origin = spec.origin if spec is not None else None
            if origin is None or not origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                return None, not_built.format(f"no extension module {full}")
            mods.append(importlib.import_module(full))
    except Exception as e:  # (a broken build: whatever it raises, the pure kernel still runs)
        return None, f"the compiled kernel does not import: {type(e).__name__}: {e}"
    stale = [name for name, mod in zip(KERNEL_MODULES, mods) if getattr(mod, STAMP_NAME, None) != hashes[name]]
    if stale:
        files = ", ".join(f"solver/search/{name}.py" for name in stale)
        return None, (f"the compiled kernel is stale: {files} changed since it was built; "
                      f"scripts/setup.sh (or pip install) rebuilds it")
    p, b, d, r = mods
    note = f"the mypyc build of the current source, {COMPILED_PACKAGE}"
    return Kernel("compiled", p, b, d, r, note), ""


def load(mode: str | None = None, hashes: dict[str, str] | None = None) -> Kernel:
    """The kernel ``mode`` asks for (default: ``HANABI_KERNEL``, else ``auto``; see the module
    docstring); ``hashes`` as :func:`compiled_kernel` takes it."""
    if mode is None:
        mode = os.environ.get("HANABI_KERNEL") or "auto"
    if mode not in MODES:
        raise UnknownOptionError("HANABI_KERNEL value", mode, MODES)
    if mode == "pure":
        return _pure("HANABI_KERNEL=pure")
    kernel, why = compiled_kernel(hashes)
    if kernel is not None:
        return kernel
    if mode == "compiled":
        raise KernelUnavailableError(f"HANABI_KERNEL=compiled, but {why}")
    return _pure(why)  # (silently: NOTE says why, and hanabi --version prints it)


if TYPE_CHECKING:  # (the types are the source's; the compiled kernel has the same)
    from . import bounds, dfs, position, relaxed
    from .bounds import named_bound, quick_bound
    from .dfs import CHECK_EVERY, DEFAULT_MEMO_CAP, ORDERS, Budgeted, Search, pack_key
    from .position import CLUE, DISCARD, PLAY, Position
    from .relaxed import RelaxedSearch, pack_relaxed_key

    IMPLEMENTATION: str
    NOTE: str
else:
    _kernel = load()
    IMPLEMENTATION, NOTE = _kernel.implementation, _kernel.note
    position, bounds, dfs, relaxed = _kernel.position, _kernel.bounds, _kernel.dfs, _kernel.relaxed
    Position, PLAY, DISCARD, CLUE = position.Position, position.PLAY, position.DISCARD, position.CLUE
    quick_bound, named_bound = bounds.quick_bound, bounds.named_bound
    Budgeted, Search, pack_key = dfs.Budgeted, dfs.Search, dfs.pack_key
    CHECK_EVERY, DEFAULT_MEMO_CAP, ORDERS = dfs.CHECK_EVERY, dfs.DEFAULT_MEMO_CAP, dfs.ORDERS
    RelaxedSearch, pack_relaxed_key = relaxed.RelaxedSearch, relaxed.pack_relaxed_key
