#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment and install the project into it.
# VENV picks the folder (default .venv); FRESH=1 recreates it. The install compiles the
# search kernels (Hanabi's, Hand's and the chance search's) with mypyc (setup.py) unless HANABI_NO_COMPILE=1; a
# later run rebuilds them when a kernel's source has changed since (until then the pure
# source runs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV:-.venv}
if [ "${FRESH:-0}" = 1 ]; then rm -rf "$VENV"; fi
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
# what the compiled kernels are built from: the build script and the kernels' source (the
# one list of them: solver/kernel/stamp.py)
kernel_src=$(cat $("$PY" solver/kernel/stamp.py) | sha256sum)
tried="$VENV/.kernel-tried"  # the kernel_src of the last build attempt (one attempt per source)
stamp="$VENV/.installed"
# which compiled kernels the environment runs, in one line (after a build)
kernels='from solver.kernel import loader, stamp
got = [spec.name for spec in stamp.KERNELS if loader.compiled_kernel(spec)[0] is not None]
names = ", ".join(got)
print(f"{len(got)} of {len(stamp.KERNELS)} kernels compiled" + (f" ({names})" if got else ""))'
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
    if [ "${HANABI_NO_COMPILE:-0}" != 1 ]; then
        echo "setup.sh: installing the project into $VENV and compiling its search kernels with mypyc (a minute or two)" >&2
    else
        echo "setup.sh: installing the project into $VENV (HANABI_NO_COMPILE=1: the kernels stay pure Python)" >&2
    fi
    t0=$SECONDS
    "$VENV/bin/python" -m pip install -q -e '.[test]'
    echo "setup.sh: installed in $((SECONDS - t0)) s; $(HANABI_KERNEL=pure "$VENV/bin/python" -c "$kernels")" >&2
    if [ "${HANABI_NO_COMPILE:-0}" != 1 ]; then echo "$kernel_src" > "$tried"; fi
    touch "$stamp"
fi
# The compiled kernels are current when each compiled module's stamp is the hash of its
# source (solver/kernel/loader.py); otherwise rebuild them in
# place (an editable install never runs them stale: the pure source runs meanwhile).
# Quick when nothing changed.
if [ "${HANABI_NO_COMPILE:-0}" != 1 ]; then
    current='import sys; from solver.kernel import loader, stamp
sys.exit(any(loader.compiled_kernel(spec)[0] is None for spec in stamp.KERNELS))'
    if ! HANABI_KERNEL=pure "$VENV/bin/python" -c "$current" && [ "$(cat "$tried" 2>/dev/null)" != "$kernel_src" ]; then
        echo "setup.sh: compiling the search kernels with mypyc (its source changed; about a minute)" >&2
        t0=$SECONDS
        "$VENV/bin/python" -m pip install -q --no-deps -e .
        echo "setup.sh: compiled in $((SECONDS - t0)) s; $(HANABI_KERNEL=pure "$VENV/bin/python" -c "$kernels")" >&2
        echo "$kernel_src" > "$tried"
        if ! HANABI_KERNEL=pure "$VENV/bin/python" -c "$current"; then
            echo "setup.sh: the compiled kernels could not be built (pip install -v -e . says why); the pure one runs" >&2
        fi
    fi
fi
