"""Fuzzing the command line: every generated input of ``replay``, ``show``, ``solve`` and
``puzzle check`` ends in a success or a clean error (the fuzzer is the package tests/fuzzing/:
``judge`` in run.py says what that means, ``Generator`` in generate.py how the inputs are made).

``HANABI_FUZZ_N`` (default 3000) is the number of inputs of one run, shared out among the
four commands; ``HANABI_FUZZ_SEED`` (default 20250601) seeds them, so a run is repeatable.
``HANABI_FUZZ_SHRINK`` (seconds per command, default 5; 0: off) bounds the shrinking of
failing inputs. A failure names, per kind, how often it happened, a shrunk input written to
a file under the test's temporary directory and the ``hanabi`` command that reproduces it.
``python -m fuzzing --n 10000 --seed 7``, run from tests/, runs the same outside pytest.
"""
from __future__ import annotations

import os

import pytest
from fuzzing import COMMANDS, EXIT_CODES, counts, fuzz

N = int(os.environ.get("HANABI_FUZZ_N", "3000"))
SEED = os.environ.get("HANABI_FUZZ_SEED", "20250601")
SHRINK = float(os.environ.get("HANABI_FUZZ_SHRINK", "5"))


def test_enough_inputs():
    assert sum(counts(N).values()) >= N
    if "HANABI_FUZZ_N" not in os.environ:
        assert sum(counts(N).values()) >= 2000


@pytest.mark.parametrize("command", COMMANDS)
def test_fuzz_command(command, tmp_path):
    n = counts(N)[command]
    rep = fuzz(command, n, SEED, tmp_path, shrink_seconds=SHRINK)
    assert rep.inputs == n
    if rep.groups:
        pytest.fail(rep.format(), pytrace=False)
    # the inputs reach both the successes and the errors of the command
    assert set(rep.exit_codes) <= EXIT_CODES[command]
    if n >= 200:
        assert rep.exit_codes.get(2, 0) >= n // 10, rep.exit_codes
        assert rep.exit_codes.get(0, 0) + rep.exit_codes.get(1, 0) >= n // 20, rep.exit_codes
