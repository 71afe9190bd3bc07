#!/usr/bin/env bash
# The README's test command: set up the environment, then run the test suite.
#
#   scripts/test.sh            the whole suite (what CI runs: .ci/run)
#   scripts/test.sh --fast     the edit-test loop: lint, types and the tests not marked slow
#   scripts/test.sh ARGS...    pytest's own arguments after either (e.g. -k solve, tests/test_rules.py)
#
# The tests run in parallel on every core (pytest-xdist) unless JOBS says how many
# (JOBS=0: in this process, one at a time).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then
    fast=1
    shift
fi
bash scripts/setup.sh
VENV=${VENV:-.venv}
# lint and types first (seconds): ruff on the whole tree, mypy on the whole tree (its files
# and settings, strict for the rules engines and the Hand code: [tool.mypy] in pyproject.toml)
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/mypy" --no-error-summary
# which kernels the tests run on (HANABI_KERNEL=compiled, as CI sets it, fails here at
# once, saying why, when a compiled kernel is not built or is stale)
"$VENV/bin/python" -c 'from solver.kernel import loader, stamp
for spec in stamp.KERNELS: print(loader.describe(spec, loader.load(spec)))'
jobs=${JOBS:-$("$VENV/bin/python" -c 'import os; print(len(os.sched_getaffinity(0)))')}
# -rs: the summary names every skipped test and why it skipped
args=(-p no:cacheprovider -rs)
if [ "$jobs" != 0 ]; then args+=(-n "$jobs"); fi
if [ "$fast" = 1 ]; then args+=(-m "not slow"); fi
set +e
"$VENV/bin/python" -m pytest "${args[@]}" "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "test.sh: pytest collected no tests - treating as a failure" >&2
    exit 1
fi
exit "$rc"
