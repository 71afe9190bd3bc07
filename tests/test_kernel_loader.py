"""The one loader of the compiled kernels (solver/kernel/), over all three of them (the
Hanabi search, the Hand search, the chance search; solver.kernel.stamp.KERNELS): the pure
kernel is the source, an unknown mode names the choices, a stale stamp or a missing build
makes ``auto`` pick the pure kernel and ``compiled`` refuse, saying why, the compiled
copies carry the hash of their source, and one rule of environment variables picks the
mode (the kernel's own, else ``HANABI_KERNEL``) in a fresh interpreter.

What each kernel computes, pure against compiled, is tested beside it (test_kernel.py,
test_hand_kernel.py, test_chances.py)."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import KernelUnavailableError, UnknownOptionError
from solver.kernel import loader, stamp
from solver.kernel.stamp import KERNELS, STAMP_NAME, file_hash, stamp_line

REPO = Path(__file__).resolve().parents[1]
IDS = [spec.name for spec in KERNELS]


def compiled_or_skip(spec: stamp.Spec) -> loader.Kernel:
    kernel, why = loader.compiled_kernel(spec)
    if kernel is None:
        pytest.skip(f"the compiled {spec.label} is not built: {why}")
    return kernel


def test_the_list_of_kernels_is_what_setup_and_setup_sh_read():
    """setup.py and scripts/setup.sh read the one list (stamp.py, by path and as a script)."""
    assert {spec.name for spec in KERNELS} == {"hanabi", "hand", "chances"}
    out = subprocess.run([sys.executable, str(REPO / "solver" / "kernel" / "stamp.py")], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == stamp.build_inputs()
    for path in out:
        assert (REPO / path).is_file(), path
    setup = (REPO / "setup.py").read_text()
    assert "stamp.KERNELS" in setup and "KERNEL_MODULES" not in setup
    assert "solver/kernel/stamp.py" in (REPO / "scripts" / "setup.sh").read_text()


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_each_front_loads_through_the_one_loader(spec):
    front = importlib.import_module(spec.front)
    assert front.SPEC is spec
    assert front.IMPLEMENTATION in ("pure", "compiled")
    assert front.describe() == f"{spec.label}: {front.IMPLEMENTATION} ({front.NOTE})"


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_pure_is_the_source(spec):
    k = loader.load(spec, "pure")
    assert k.implementation == "pure" and k.note == f"{spec.variable}=pure"
    for name in spec.modules:
        assert Path(getattr(k, name).__file__) == REPO / spec.source / f"{name}.py"
    with pytest.raises(AttributeError, match="no module 'nothing'"):
        k.nothing  # noqa: B018


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_an_unknown_mode_names_the_choices(spec):
    with pytest.raises(UnknownOptionError,
                       match=rf"unknown {spec.variable} value 'fast' \(one of auto, pure, compiled\)"):
        loader.load(spec, "fast")


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_a_stale_stamp_picks_the_pure_kernel_and_compiled_refuses(spec):
    """As after an edit of the source in an editable install: the stamps no longer match."""
    compiled_or_skip(spec)
    last = spec.modules[-1]
    edited = dict(loader.source_hashes(spec), **{last: file_hash(REPO / "README.md")})
    k = loader.load(spec, "auto", hashes=edited)
    path = f"{spec.source}/{last}.py"
    assert k.implementation == "pure" and "stale" in k.note and path in k.note
    assert getattr(k, last).__file__.endswith(".py")
    with pytest.raises(KernelUnavailableError, match=rf"{spec.variable}=compiled, but the compiled kernel is stale: "
                                                     rf"{path} changed since it was built"):
        loader.load(spec, "compiled", hashes=edited)
    assert loader.load(spec, "compiled").implementation == "compiled"  # the real stamps match


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_a_missing_build_picks_the_pure_kernel_and_compiled_refuses(spec):
    missing = spec._replace(name="no_such_kernel")
    k = loader.load(missing, "auto")
    assert k.implementation == "pure" and "not built" in k.note and "no_such_kernel" in k.note
    not_built = rf"{spec.variable}=compiled, but the compiled kernel is not built"
    with pytest.raises(KernelUnavailableError, match=not_built):
        loader.load(missing, "compiled")
    assert issubclass(KernelUnavailableError, ImportError)


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_the_compiled_copies_carry_the_hash_of_their_source(spec):
    compiled = compiled_or_skip(spec)
    for name in spec.modules:
        source = REPO / spec.source / f"{name}.py"
        mod = getattr(compiled, name)
        assert mod.__file__.endswith((".so", ".pyd"))
        assert getattr(mod, STAMP_NAME) == file_hash(source)
        copy = REPO / Path(*spec.package.split(".")) / f"{name}.py"
        if copy.exists():  # (an editable install: the generated copy beside the build)
            assert copy.read_text() == source.read_text() + stamp_line(file_hash(source), name, spec.source)


@pytest.mark.parametrize("spec", [s for s in KERNELS if s.variable != stamp.SHARED_VARIABLE],
                         ids=[s.name for s in KERNELS if s.variable != stamp.SHARED_VARIABLE])
@pytest.mark.parametrize(("own", "shared", "expected"), [
    ("pure", "", "pure"), ("", "pure", "pure"), ("auto", "pure", "auto"), ("bogus", "", "bogus"),
])
def test_the_environment_variables_in_a_fresh_interpreter(spec, own, shared, expected):
    """The kernel's own variable first, else ``HANABI_KERNEL``, else ``auto``."""
    code = f"import {spec.front} as k; print(k.IMPLEMENTATION)"
    env = dict(os.environ, **{spec.variable: own, stamp.SHARED_VARIABLE: shared})
    for variable, value in ((spec.variable, own), (stamp.SHARED_VARIABLE, shared)):
        if not value:
            env.pop(variable)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env)
    if expected == "bogus":
        assert res.returncode != 0 and f"unknown {spec.variable} value 'bogus'" in res.stderr
    else:
        assert res.returncode == 0, res.stderr
        built = loader.compiled_kernel(spec)[0] is not None
        assert res.stdout.strip() == ("compiled" if expected == "auto" and built else "pure")


def test_the_hanabi_kernel_reads_its_variable_through_the_one_rule():
    """``HANABI_KERNEL`` is both the Hanabi kernel's own variable and the shared one."""
    env = dict(os.environ, HANABI_KERNEL="bogus")
    res = subprocess.run([sys.executable, "-c", "import solver"], capture_output=True, text=True, cwd=REPO, env=env)
    assert res.returncode != 0 and "unknown HANABI_KERNEL value 'bogus'" in res.stderr
    fronts = [REPO / Path(*spec.front.split(".")).with_suffix(".py") for spec in KERNELS]
    for path in fronts:
        assert "os.environ" not in path.read_text(), f"{path} reads the environment itself"


@pytest.mark.parametrize("spec", KERNELS, ids=IDS)
def test_load_called_first_in_a_fresh_interpreter(spec):
    """``loader.load`` asked for the compiled kernel before its game's package is imported
    (as scripts/test.sh does to print the kernels) gets it: the compiled modules import
    that package, whose front loads the kernel too, and that nested load must not find
    them half imported."""
    compiled_or_skip(spec)
    code = (f"from solver.kernel import loader, stamp; k = loader.load(stamp.{spec.name.upper()}, 'compiled'); "
            "print(k.implementation)")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_KERNEL")}
    env[spec.variable] = "compiled"  # (the front's own load, nested, asks for compiled too)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "compiled"
