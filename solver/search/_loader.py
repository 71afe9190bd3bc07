"""The one loader of the compiled kernels (the Hanabi search kernel, :mod:`solver.search.kernel`,
and the Hand search kernel, :mod:`solver.handsolve.kernel`): the pure-Python source or its
mypyc build, the build only while every module's stamp (:mod:`._stamp`) is the hash of
its current source file.

Each kernel's own module calls :func:`pick` once at import, so one choice holds for the
whole process; the modes (``auto``, ``pure``, ``compiled``) are described there. It
imports nothing from the project but :mod:`solver.errors` (its two errors).
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
from pathlib import Path
from types import ModuleType

from ..errors import KernelUnavailableError, UnknownOptionError
from ._stamp import STAMP_NAME, file_hash

MODES = ("auto", "pure", "compiled")
NOT_BUILT = ("the compiled kernel is not built: {}; pip install and scripts/setup.sh build it when mypyc and a "
             "C compiler are there, unless HANABI_NO_COMPILE=1")


def asked_mode(own: str) -> tuple[str, str]:
    """The mode asked for a kernel with its own environment variable ``own`` (e.g.
    ``HAND_KERNEL``) and the variable that asked: ``own``, else ``HANABI_KERNEL``, else
    ``auto`` (said to come from ``own``)."""
    for variable in (own, "HANABI_KERNEL"):
        value = os.environ.get(variable)
        if value:
            return value, variable
    return "auto", own


def source_hashes(source_dir: Path, modules: tuple[str, ...]) -> dict[str, str]:
    """The stamp each compiled module must carry: the hash of its current source."""
    return {name: file_hash(source_dir / f"{name}.py") for name in modules}


def pure_modules(package: str, modules: tuple[str, ...]) -> list[ModuleType]:
    """The kernel's source modules (``package.NAME``)."""
    return [importlib.import_module(f"{package}.{name}") for name in modules]


def compiled_modules(package: str, modules: tuple[str, ...], hashes: dict[str, str],
                     source: str) -> tuple[list[ModuleType] | None, str]:
    """The compiled copies ``package.NAME`` when they are built, import and carry the
    stamps ``hashes`` (of the source files ``source/NAME.py``); otherwise None and why not."""
    try:
        try:
            found = importlib.util.find_spec(package) is not None
        except ModuleNotFoundError:  # (a parent package missing: solver._kernel not generated)
            found = False
        if not found:
            return None, NOT_BUILT.format(f"no {package}")
        mods = []
        for name in modules:
            full = f"{package}.{name}"
            spec = importlib.util.find_spec(full)
            origin = spec.origin if spec is not None else None
            if origin is None or not origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
                return None, NOT_BUILT.format(f"no extension module {full}")
            mods.append(importlib.import_module(full))
    except Exception as e:  # (a broken build: whatever it raises, the pure kernel still runs)
        return None, f"the compiled kernel does not import: {type(e).__name__}: {e}"
    busy = [f"{package}.{name}" for name, mod in zip(modules, mods)
            if getattr(getattr(mod, "__spec__", None), "_initializing", False)]
    if busy:  # (imported directly, it imported the kernel's loader before it was complete)
        return None, (f"{busy[0]} is still being imported (import the kernel through its loader, "
                      f"{source.replace('/', '.')}.kernel, not the compiled module directly)")
    stale = [name for name, mod in zip(modules, mods) if getattr(mod, STAMP_NAME, None) != hashes[name]]
    if stale:
        files = ", ".join(f"{source}/{name}.py" for name in stale)
        return None, (f"the compiled kernel is stale: {files} changed since it was built; "
                      f"scripts/setup.sh (or pip install) rebuilds it")
    return mods, f"the mypyc build of the current source, {package}"


def pick(mode: str, variable: str, pure_package: str, package: str, modules: tuple[str, ...],
         hashes: dict[str, str], source: str) -> tuple[str, list[ModuleType], str]:
    """The kernel ``mode`` asks for (``variable``: the environment variable it came from,
    for messages): ``(implementation, modules, note)``.

    - ``auto``: the compiled kernel when it is built, imports and every stamp matches the
      current source; otherwise, silently, the pure one (the note says why);
    - ``compiled``: the compiled kernel, or :class:`~solver.errors.KernelUnavailableError`
      saying why it cannot be used;
    - ``pure``: the source, always.
    """
    if mode not in MODES:
        raise UnknownOptionError(f"{variable} value", mode, MODES)
    if mode == "pure":
        return "pure", pure_modules(pure_package, modules), f"{variable}=pure"
    mods, why = compiled_modules(package, modules, hashes, source)
    if mods is not None:
        return "compiled", mods, why
    if mode == "compiled":
        raise KernelUnavailableError(f"{variable}=compiled, but {why}")
    return "pure", pure_modules(pure_package, modules), why
