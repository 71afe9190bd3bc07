#!/usr/bin/env python3
"""Fingerprints of the SAT CNFs and CP-SAT models for a fixed set of positions: a refactor
of an encoding that should change nothing must leave every fingerprint as it was.

Positions: 60 random tiny games (tests/test_sat.py's ``random_position``, every rule
option) and the first 4 decks of each reference sample in tests/data/decks/ under three
rule sets, from turn 0 and a few random moves in. For each: the SAT ``steps`` and ``turns``
models at two targets (its SHA-256 of the DIMACS text), and the CP-SAT model with four
option sets (of the model's text form). It prints one line per encoding and the total.

    .venv/bin/python scripts/encoding_fingerprint.py                # this tree's, one line each
    .venv/bin/python scripts/encoding_fingerprint.py --compare HEAD  # this tree against HEAD

``--compare COMMIT`` runs this script on COMMIT (a temporary worktree, ``BENCH_ROOT``) and
names the encodings whose fingerprints differ; it exits 1 if any does.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchlib import project_module, run_previous  # noqa: E402
from test_sat import random_position  # noqa: E402

from solver.hanabi.rules import Card, Game, Rules, variant_by_name  # noqa: E402

from conftest import HARD_SAMPLE, NV_SAMPLE  # noqa: E402

encode = project_module("solver.hanabi.methods.sat", "solver.encodings.sat").encode
_Encoding = project_module("solver.hanabi.methods.cpsat.model", "solver.encodings.cpsat.model")._Encoding


def states():
    for seed in range(60):
        st, _ = random_position(seed)
        yield f"tiny{seed}", st
    for path in (NV_SAMPLE, HARD_SAMPLE):
        for i, line in enumerate(path.read_text().splitlines()[:4]):
            d = json.loads(line)
            cards = [Card(c["suitIndex"], c["rank"]) for c in d["deck"]]
            for opts in ({}, {"deck_plays": True, "empty_clues": True}, {"play_to_the_end": True}):
                st = Game(Rules(variant_by_name(d["variant"]), **opts), d["players"], cards).initial_state()
                name = f"{path.name}:{i}:{','.join(sorted(opts)) or 'default'}"
                yield name, st
                rng = random.Random(i)
                for _ in range(rng.randrange(3, 12)):
                    if st.over:
                        break
                    st.apply(rng.choice(st.legal_actions()))
                if not st.over:
                    yield name + ":mid", st


def fingerprints() -> dict[str, str]:
    out = {}
    for name, st in states():
        for target in (max(1, st.score + 1), st.game.perfect_score):
            for model in ("steps", "turns"):
                cnf = encode(st, target, model=model).to_dimacs()
                out[f"{name} sat {model} {target}"] = hashlib.sha256(cnf.encode()).hexdigest()[:16]
        for kw in ({}, {"maximize": False, "target": 3}, {"symmetry": False, "redundant": False}, {"upper": 20}):
            text = str(_Encoding(st, **kw).model.Proto())
            out[f"{name} cpsat {','.join(sorted(kw)) or 'default'}"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return out


def total(fps: dict[str, str]) -> str:
    h = hashlib.sha256()
    for k in sorted(fps):
        h.update(f"{k} {fps[k]}\n".encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", metavar="COMMIT", help="compare with the fingerprints of COMMIT")
    ap.add_argument("--json", dest="json_out", type=Path, help="write the fingerprints to this JSON file")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the total")
    a = ap.parse_args(argv)
    fps = fingerprints()
    if a.json_out:
        a.json_out.write_text(json.dumps(fps))
    if not a.quiet and not a.compare:
        for k, v in fps.items():
            print(k, v)
    print(f"{len(fps)} encodings, total {total(fps)}")
    if not a.compare:
        return 0
    old = run_previous(ROOT, a.compare, str(Path(__file__).resolve()), ["--quiet"], pythonpath=True)
    changed = sorted(k for k in fps.keys() | old.keys() if fps.get(k) != old.get(k))
    print(f"{a.compare}: {len(old)} encodings, total {total(old)}")
    for k in changed:
        print(f"differs: {k}: {old.get(k, '-')} -> {fps.get(k, '-')}")
    print("the same encodings" if not changed else f"{len(changed)} encodings differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
