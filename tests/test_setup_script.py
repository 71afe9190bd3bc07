"""The set-up and test commands say what they do (issue 34, item 9): set-up prints a line
before and after the install that compiles the kernels, with its time, and the test
command's summary names every skipped test with its reason."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_setup_says_when_it_compiles_and_how_long_it_took(tmp_path):
    # an environment whose pip does nothing (it logs its calls) and whose python is this
    # one: the script's own steps run, in a second instead of minutes
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "pip.log"
    stub = venv / "bin" / "python"
    stub.write_text(f'#!/usr/bin/env bash\nif [ "$1" = -m ] && [ "$2" = pip ]; then echo "$@" >> {log}; exit 0; fi\n'
                    f'exec {sys.executable} "$@"\n')
    stub.chmod(0o755)
    env = dict(os.environ, VENV=str(venv), FRESH="0")
    env.pop("HANABI_NO_COMPILE", None)
    r = subprocess.run(["bash", str(REPO / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert any(re.fullmatch(rf"setup\.sh: installing the project into {re.escape(str(venv))} and compiling its "
                            r"search kernels with mypyc \(a minute or two\)", line) for line in lines), r.stderr
    assert any(re.fullmatch(r"setup\.sh: installed in \d+ s; [0-3] of 3 kernels compiled( \(.*\))?", line)
               for line in lines), r.stderr
    assert "-e .[test]" in log.read_text()
    # a second run has nothing to install and says nothing
    again = subprocess.run(["bash", str(REPO / "scripts" / "setup.sh")], env=env, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0 and "installing" not in again.stderr


def test_the_test_command_shows_why_tests_skip():
    text = (REPO / "scripts" / "test.sh").read_text()
    args = re.search(r"^args=\((.*)\)$", text, re.M)
    assert args and "-rs" in args.group(1).split(), "scripts/test.sh's pytest arguments must include -rs"
