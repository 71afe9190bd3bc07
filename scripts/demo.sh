#!/usr/bin/env bash
# The README's first command: set up the environment, then solve the built-in example deck.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV=${VENV:-.venv}
"$VENV/bin/hanabi" solve --example "$@"
