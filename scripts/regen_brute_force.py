"""Write tests/data/brute_force.json anew: the brute force's answers for every position the
solver tests ask it about (tests/known_max.py says why they are stored).

    .venv/bin/python scripts/regen_brute_force.py            # compute and write them all
    .venv/bin/python scripts/regen_brute_force.py --check    # compute them all, compare, write nothing

It runs the tests that ask the brute force (``TESTS``) with ``BRUTE_FORCE_RECORD`` set:
every answer is computed by the brute force (tests/refengine.py, written from the rules
alone), none looked up, and the run's answers are what gets written. The tests must pass
while recording, so the answers written are ones the solvers agree with.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "tests" / "data" / "brute_force.json"
TESTS = ["tests/test_suit_mechanics.py", "tests/test_solve.py", "tests/test_sat.py", "tests/test_cpsat.py",
         "tests/test_bounds.py"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the stored answers instead of writing them")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "answers.json"
        env = dict(os.environ, BRUTE_FORCE_RECORD=str(out))
        res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                              *TESTS], cwd=ROOT, env=env)
        if res.returncode != 0:
            print("regen_brute_force: the tests failed while recording; nothing written", file=sys.stderr)
            return 1
        answers = json.loads(out.read_text())
    if args.check:
        have = json.loads(STORE.read_text())
        wrong = {k: (have[k], v) for k, v in answers.items() if k in have and have[k] != v}
        missing = sorted(set(answers) - set(have))
        print(f"{len(answers)} positions computed: {len(wrong)} disagree with the store, {len(missing)} not in it")
        return 1 if wrong else 0
    STORE.write_text(json.dumps(answers, sort_keys=True, indent=0) + "\n")
    print(f"wrote {len(answers)} brute-force answers to {STORE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
