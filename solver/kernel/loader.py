"""The one loader of the compiled kernels (:data:`~solver.kernel.stamp.KERNELS`: the Hanabi
search, the Hand search, the chance search): the pure-Python source or its mypyc build,
the build only while every module's stamp (:mod:`.stamp`) is the hash of its current
source file.

Each kernel's front module (``solver/hanabi/search/kernel.py``,
``solver/hand/search/kernel.py``, ``solver/hanabi/chances/kernel.py``) calls :func:`load`
once at import, so one choice holds for the whole process. One rule picks the mode for
every kernel: its own environment variable, else ``HANABI_KERNEL``, else ``auto``
(:func:`asked_mode`); the modes are described at :func:`load`. It imports nothing from the
project but :mod:`solver.errors` (its two errors).
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from solver.errors import KernelUnavailableError, UnknownOptionError

from .stamp import SHARED_VARIABLE, STAMP_NAME, Spec, file_hash

MODES = ("auto", "pure", "compiled")
NOT_BUILT = ("the compiled kernel is not built: {}; pip install and scripts/setup.sh build it when mypyc and a "
             "C compiler are there, unless HANABI_NO_COMPILE=1")
# the folder that holds the solver package (the project, or site-packages)
PACKAGE_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Kernel:
    """One implementation of a kernel: its modules (as attributes, by name: ``k.dfs``),
    which one it is and why it was chosen."""

    implementation: str  # "pure" or "compiled"
    names: tuple[str, ...]
    modules: tuple[ModuleType, ...]
    note: str  # why this one (the compiled kernel: what it is)

    def __getattr__(self, name: str) -> ModuleType:
        names = object.__getattribute__(self, "names")
        if name in names:
            return object.__getattribute__(self, "modules")[names.index(name)]
        raise AttributeError(f"the kernel has no module {name!r}")


def asked_mode(spec: Spec) -> tuple[str, str]:
    """The mode asked for ``spec`` and the variable that asked: its own variable, else
    ``HANABI_KERNEL``, else ``auto`` (said to come from its own)."""
    for variable in (spec.variable, SHARED_VARIABLE):
        value = os.environ.get(variable)
        if value:
            return value, variable
    return "auto", spec.variable


def source_hashes(spec: Spec, source_dir: Path | None = None) -> dict[str, str]:
    """The stamp each compiled module must carry: the hash of its current source."""
    folder = PACKAGE_ROOT / spec.source if source_dir is None else source_dir
    return {name: file_hash(folder / f"{name}.py") for name in spec.modules}


def pure_kernel(spec: Spec, note: str) -> Kernel:
    """The kernel's source modules."""
    mods = tuple(importlib.import_module(f"{spec.pure_package}.{name}") for name in spec.modules)
    return Kernel("pure", spec.modules, mods, note)


def compiled_kernel(spec: Spec, hashes: dict[str, str] | None = None) -> tuple[Kernel | None, str]:
    """The compiled copies (``spec.package``) when they are built, import and carry the
    stamps ``hashes`` (default: :func:`source_hashes`); otherwise None and why not."""
    package = spec.package
    hashes = source_hashes(spec) if hashes is None else hashes
    try:
        try:
            found = importlib.util.find_spec(package) is not None
        except ModuleNotFoundError:  # (a parent package missing: the copies not generated)
            found = False
        if not found:
            return None, NOT_BUILT.format(f"no {package}")
        # the compiled modules import their game's package, whose front loads the kernel at
        # import: that package first, so a caller of load() other than the front does not
        # find the compiled modules half imported (a no-op when the front is the caller)
        importlib.import_module(spec.pure_package)
        mods = []
        for name in spec.modules:
            full = f"{package}.{name}"
            module_spec = importlib.util.find_spec(full)
            origin = module_spec.origin if module_spec is not None else None
            if origin is None or not origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                return None, NOT_BUILT.format(f"no extension module {full}")
            mods.append(importlib.import_module(full))
    except Exception as e:  # (a broken build: whatever it raises, the pure kernel still runs)
        return None, f"the compiled kernel does not import: {type(e).__name__}: {e}"
    busy = [f"{package}.{name}" for name, mod in zip(spec.modules, mods)
            if getattr(getattr(mod, "__spec__", None), "_initializing", False)]
    if busy:  # (imported directly, it imported the kernel's loader before it was complete)
        return None, (f"{busy[0]} is still being imported (import the kernel through its loader, "
                      f"{spec.front}, not the compiled module directly)")
    stale = [name for name, mod in zip(spec.modules, mods) if getattr(mod, STAMP_NAME, None) != hashes[name]]
    if stale:
        files = ", ".join(f"{spec.source}/{name}.py" for name in stale)
        return None, (f"the compiled kernel is stale: {files} changed since it was built; "
                      f"scripts/setup.sh (or pip install) rebuilds it")
    why = f"the mypyc build of the current source, {package}"
    return Kernel("compiled", spec.modules, tuple(mods), why), why


def load(spec: Spec, mode: str | None = None, hashes: dict[str, str] | None = None) -> Kernel:
    """The kernel ``mode`` asks for (default: :func:`asked_mode`; ``hashes`` as
    :func:`compiled_kernel` takes them):

    - ``auto``: the compiled kernel when it is built, imports and every stamp matches the
      current source; otherwise, silently, the pure one (its note says why);
    - ``compiled``: the compiled kernel, or :class:`~solver.errors.KernelUnavailableError`
      saying why it cannot be used;
    - ``pure``: the source, always.
    """
    variable = spec.variable
    if mode is None:
        mode, variable = asked_mode(spec)
    if mode not in MODES:
        raise UnknownOptionError(f"{variable} value", mode, MODES)
    if mode == "pure":
        return pure_kernel(spec, f"{variable}=pure")
    kernel, why = compiled_kernel(spec, hashes)
    if kernel is not None:
        return kernel
    if mode == "compiled":
        raise KernelUnavailableError(f"{variable}=compiled, but {why}")
    return pure_kernel(spec, why)


def describe(spec: Spec, kernel: Kernel) -> str:
    """A kernel in one line, as ``--version`` prints it: ``search kernel: compiled (...)``."""
    return f"{spec.label}: {kernel.implementation} ({kernel.note})"


class Front:
    """What a kernel's front module gives the rest of the project (its ``mode``,
    ``describe``, ``source_hashes``, ``compiled_kernel`` and ``load``), for one kernel:
    ``Front(spec)`` loads the kernel the environment asks for, once (:attr:`kernel`)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.kernel = load(spec)

    def mode(self) -> tuple[str, str]:
        """The mode asked for and the variable that asked (:func:`asked_mode`)."""
        return asked_mode(self.spec)

    def describe(self) -> str:
        """The kernel in use, in one line: ``search kernel: compiled (...)``."""
        return describe(self.spec, self.kernel)

    def source_hashes(self, source_dir: Path | None = None) -> dict[str, str]:
        """The stamp each compiled module must carry: the hash of its current source."""
        return source_hashes(self.spec, source_dir)

    def compiled_kernel(self, hashes: dict[str, str] | None = None) -> tuple[Kernel | None, str]:
        """The compiled kernel when it is built, imports and was built from the current
        source (``hashes``: the stamps to expect); otherwise None and why not."""
        return compiled_kernel(self.spec, hashes)

    def load(self, mode: str | None = None, hashes: dict[str, str] | None = None) -> Kernel:
        """Either kernel on its own (:func:`load`; default: the mode the environment asks)."""
        return load(self.spec, mode, hashes)
