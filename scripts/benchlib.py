"""What the benchmark scripts share: the random decks, the version they measure, and ``--compare``'s run of
the same script on an older commit in the same run.

An older version runs in a temporary git worktree of that commit: the script itself (the
current file, so both versions are measured the same way) is started again with
``BENCH_ROOT`` naming the worktree (each script then imports the project from there) and
``--json FILE``, and its results are read back from that file.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


def random_deck(players: int, k: int) -> list[dict]:
    """Random No Variant deck ``k`` for ``players``, as ../shared/decks/README.md makes them:
    the 50 cards shuffled by ``random.Random`` seeded with ``p{players}c1s{k}`` (so any
    other tool can deal the same decks); hanab.live JSON cards."""
    d = [(s, r) for s in range(5) for r in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)]
    rng = random.Random()
    rng.seed(f"p{players}c1s{k}")
    rng.shuffle(d)
    return [{"suitIndex": s, "rank": r} for s, r in d]


def revision(root: Path) -> str:
    """The short commit id checked out at ``root`` ('' outside git)."""
    return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()


def run_previous(root: Path, commit: str, script: str, argv: list[str], *, env: dict[str, str] | None = None,
                 pythonpath: bool = False, quiet: bool = True):
    """Run ``script`` with ``argv`` on ``commit`` (a temporary worktree of the repository
    at ``root``) and return the JSON it writes (``--json``). ``env``: more environment
    variables for it; ``pythonpath``: the worktree is put on its PYTHONPATH too (ahead of
    the editable install's import hook); ``quiet``: its output is not shown (a failure
    still raises). When this process runs the compiled search kernel, the older version's
    kernel is compiled too (:func:`build_kernel`), so both run the same kind of code."""
    with tempfile.TemporaryDirectory() as tmp:
        wt = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(wt), commit],
                       check=True, capture_output=True)
        try:
            build_kernel(wt)
            out = Path(tmp) / "old.json"
            full_env = dict(os.environ, BENCH_ROOT=str(wt), **(env or {}))
            if pythonpath:
                full_env["PYTHONPATH"] = str(wt)
            subprocess.run([sys.executable, script, *argv, "--json", str(out)], check=True, env=full_env,
                           capture_output=quiet)
            return json.loads(out.read_text())
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(wt)], capture_output=True)


# where a version's compiled kernels are: since 0.2.0 solver/kernel/compiled/, before it
# solver/_kernel/
COMPILED_DIRS = ("solver/kernel/compiled/", "solver/_kernel/")


def project_module(*names: str):
    """The first of the modules ``names`` that imports: a script that also measures an
    older version (``--compare``) names a module by its path now and by its path before
    the layout of 0.2.0 (e.g. ``solver.hanabi.methods.sat`` and ``solver.encodings.sat``)."""
    import importlib

    for name in names[:-1]:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as e:
            if not name.startswith(e.name or "\0"):
                raise
    return importlib.import_module(names[-1])


def build_kernel(wt: Path) -> None:
    """Compile the search kernel of the worktree ``wt`` when this process runs the compiled
    kernel and that commit has one (setup.py): ``pip wheel`` builds the project as ``pip
    install`` does (its own build environment: ``setup.py build_ext`` under the venv's
    older setuptools refuses pyproject's metadata), and the compiled modules are unpacked
    into the worktree (:data:`COMPILED_DIRS`), beside the stamped copies the build wrote.
    Prints which kernel the older version runs."""
    if os.environ.get("HANABI_KERNEL") == "pure":
        return
    try:
        from solver.hanabi.search import kernel
    except ImportError:
        return
    if kernel.IMPLEMENTATION != "compiled":
        return
    if not (wt / "setup.py").exists():
        print("benchlib: no setup.py at the older commit: its kernel is pure Python", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, str(wt)],
                              capture_output=True, text=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if done.returncode or not wheels:
            why = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
            print(f"benchlib: the older version's kernel stays pure Python (the build failed: {why})",
                  file=sys.stderr)
            return
        with zipfile.ZipFile(wheels[0]) as z:
            for name in z.namelist():
                if name.startswith(COMPILED_DIRS):
                    z.extract(name, wt)
    print("benchlib: the older version's search kernel: compiled", file=sys.stderr)
