"""A store that cannot be written (issue 34, item 7): a run with nothing to store succeeds,
one with rows to store says "read-only" and why before any work, and ``report`` reads it
as it is. The file or its folder is made immutable (``chattr +i``), which even root cannot
write; where that is not possible (another file system, no privilege) the tests skip."""
from __future__ import annotations

import shutil
import subprocess
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from cli.hand import hand

from conftest import assert_clean_error, run_cli

TINY = ("--nodes", "2000", "--coop-nodes", "2000")


@contextmanager
def immutable(*paths):
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: cannot make a file read-only for root")
    done = []
    try:
        for p in paths:
            r = subprocess.run(["chattr", "+i", str(p)], capture_output=True, text=True)
            if r.returncode != 0:
                pytest.skip(f"cannot make {p} immutable here: {r.stderr.strip()}")
            done.append(p)
        yield
    finally:
        for p in reversed(done):
            subprocess.run(["chattr", "-i", str(p)], capture_output=True)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_result_store(tmp_path, what):
    folder = tmp_path / "stores"
    folder.mkdir()
    db = folder / "seeds.sqlite"
    assert run_cli("analyse", "p2v0s1..4", "--db", db, "--jobs", "1", "--quiet").exit_code == 0
    before = db.read_bytes()
    with immutable(db, *([folder] if what == "folder" else [])):
        again = run_cli("analyse", "p2v0s1..4", "--db", db, "--jobs", "1", "--quiet")
        assert again.exit_code == 0, again.output
        assert "0 solved" in again.stdout and "4 already stored" in again.stdout
        more = run_cli("analyse", "p2v0s1..6", "--db", db, "--jobs", "1", "--quiet")
        why = "the file is read-only" if what == "file" else "read-only"
        assert_clean_error(more, "the store is read-only", why, "decks not stored yet: 2")
        report = run_cli("report", db)
        assert report.exit_code == 0 and "4 decks" in report.stdout
    assert db.read_bytes() == before


def test_a_read_only_hand_store(tmp_path):
    db = tmp_path / "deals.sqlite"
    runner = CliRunner()
    assert runner.invoke(hand, ["analyse", "--deals", "2", "--seed", "1", "--db", str(db), "--jobs", "1",
                                *TINY]).exit_code == 0
    before = db.read_bytes()
    with immutable(db):
        again = runner.invoke(hand, ["analyse", "--deals", "2", "--seed", "1", "--db", str(db), "--jobs", "1",
                                     *TINY])
        assert again.exit_code == 0, again.output
        more = runner.invoke(hand, ["analyse", "--deals", "3", "--seed", "1", "--db", str(db), "--jobs", "1",
                                    *TINY])
        assert_clean_error(more, "the store is read-only", "deals not stored yet: 1")
        assert runner.invoke(hand, ["report", str(db)]).exit_code == 0
    assert db.read_bytes() == before
