#!/usr/bin/env bash
# The README's test command: set up the environment, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV=${VENV:-.venv}
# lint and types first (seconds): ruff on the whole tree, mypy on the rules engines (strict,
# see [tool.mypy] in pyproject.toml), the search, the hand command and the endgame chances
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/mypy" --no-error-summary solver/hanabi/rules/ solver/hanabi/search/ solver/hand/rules/ solver/hand/ solver/hand/batch/ cli/hand/ \
    solver/hanabi/chances/
# which search kernel the tests run on (HANABI_KERNEL=compiled, as CI sets it, fails here
# at once, saying why, when the compiled kernel is not built or is stale)
"$VENV/bin/python" -c 'import solver.hanabi.search.kernel as k; print(k.describe())'
set +e
"$VENV/bin/python" -m pytest -p no:cacheprovider "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "test.sh: pytest collected no tests - treating as a failure" >&2
    exit 1
fi
exit "$rc"
