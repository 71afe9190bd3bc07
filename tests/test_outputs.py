"""Every writer of both commands goes through one helper (solver.common.outputs) and treats a
path the same way: a regular file or a new name is replaced whole (a temporary file renamed
over it), a symbolic link is written through to the file it names (the link stays a link),
standard output is ``-``, and a folder, a device or a named pipe is refused with a one-line
error before any work and left as it was (issue 34, item 1: ``hand export --out`` replaced a
symbolic link, a FIFO and, run as root, the ``/dev/full`` device node)."""
from __future__ import annotations

import gzip
import os
import re
import stat

import pytest
from click.testing import CliRunner

from cli.hand import hand
from solver.common.outputs import check_output_path, open_output, output_target, save_figure, write_output
from solver.errors import MalformedError

from conftest import DATA, HANABLIVE, assert_clean_error, run_cli

GAME3 = HANABLIVE / "p3v0s1_example_game.json"


def run_hand(*args):
    return CliRunner().invoke(hand, [str(a) for a in args])


# ------------------------------------------------------------------ the helper itself
def test_a_new_file_and_a_regular_file_are_replaced_whole(tmp_path):
    new = tmp_path / "new.txt"
    write_output(str(new), "one\n", "--out")
    assert new.read_text() == "one\n"
    new.chmod(0o640)
    write_output(str(new), b"two\n", "--out")
    assert new.read_bytes() == b"two\n"
    assert stat.S_IMODE(new.stat().st_mode) == 0o640  # (the old file's permissions kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt"]  # (no temporary file left)


def test_a_symbolic_link_is_written_through(tmp_path):
    target, link = tmp_path / "real.txt", tmp_path / "link.txt"
    target.write_text("old")
    link.symlink_to(target.name)
    write_output(str(link), "new", "--out")
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text() == "new"
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to("made.txt")
    write_output(str(dangling), "made", "--out")  # (as the shell's > does: the file it names is made)
    assert dangling.is_symlink() and (tmp_path / "made.txt").read_text() == "made"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_a_folder_and_a_device_are_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    cases = [(fifo, "is a named pipe (FIFO), not a file"), (tmp_path, "is a folder, not a file")]
    if os.path.exists("/dev/full"):
        cases.append(("/dev/full", "is a device, not a file"))
    for path, why in cases:
        with pytest.raises(MalformedError, match=rf"^--out {path}: {re.escape(why)}; name a file \(or - "):
            check_output_path(str(path), "--out")
        with pytest.raises(MalformedError):
            write_output(str(path), "x", "--out")
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # (left as it was)
    if os.path.exists("/dev/full"):
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_standard_output_and_dev_null_are_written_as_they_are(capsys):
    assert output_target("-", "--out").kind == "direct"
    write_output("-", "to stdout\n", "--out")
    assert capsys.readouterr().out == "to stdout\n"
    if os.path.exists("/dev/null"):
        assert output_target("/dev/null", "--out").kind == "direct"
        write_output("/dev/null", "gone", "--out")


def test_a_failed_block_leaves_the_old_file(tmp_path):
    out = tmp_path / "keep.txt"
    out.write_text("old")
    with pytest.raises(RuntimeError), open_output(str(out), "--out") as fh:
        fh.write("half")
        raise RuntimeError("the work failed")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_figure_goes_through_the_helper(tmp_path):
    from matplotlib.figure import Figure

    target, link = tmp_path / "chart.png", tmp_path / "link.png"
    target.write_bytes(b"old")
    link.symlink_to(target.name)
    save_figure(Figure(), str(link), "--plot", 50)
    assert link.is_symlink() and target.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(MalformedError, match="--plot .*: is a folder"):
        save_figure(Figure(), str(tmp_path), "--plot", 50)


# ------------------------------------------------------------------ the commands
@pytest.fixture(scope="module")
def hand_store(tmp_path_factory):
    db = tmp_path_factory.mktemp("hand") / "hd.sqlite"
    res = run_hand("analyse", "--deals", 2, "--seed", 7, "--db", db, "--jobs", 1, "--nodes", "200",
                   "--coop-nodes", "200", "--quiet")
    assert res.exit_code == 0, res.output
    return db


@pytest.fixture(scope="module")
def hanabi_store(tmp_path_factory):
    db = tmp_path_factory.mktemp("hanabi") / "s.sqlite"
    res = run_cli("analyse", "p3v0s1..2", "--db", db, "--quiet")
    assert res.exit_code == 0, res.output
    return db


HAND_PUZZLE = DATA / "hand_puzzle.json"  # (a copy of the gallery's docs/hand-puzzles/hand-safe-s2027-a17.json)


def _writers(hand_store, hanabi_store, out):
    """Each writer of both commands writing ``out``: (name, suffix, run, a check of what it wrote)."""
    return {
        "hand export --out": (".gz", lambda: run_hand("export", hand_store, "--out", out),
                              lambda data: gzip.decompress(data).startswith(b'{"budget"')),
        "hand puzzle render --out": (".svg", lambda: run_hand("puzzle", "render", HAND_PUZZLE, "--out", out),
                                     lambda data: b"<svg" in data),
        "hanabi report --csv": (".csv", lambda: run_cli("report", hanabi_store, "--csv", out),
                                lambda data: b"p3v0s1" in data),
        "hanabi solve --replay-out": (".json", lambda: run_cli("solve", GAME3, "--replay-out", out),
                                      lambda data: b'"players"' in data),
    }


WRITERS = ["hand export --out", "hand puzzle render --out", "hanabi report --csv", "hanabi solve --replay-out"]


def _writer(name, hand_store, hanabi_store, make_out):
    suffix = _writers(hand_store, hanabi_store, None)[name][0]
    out = make_out(suffix)
    _, run, ok = _writers(hand_store, hanabi_store, out)[name]
    return out, run, ok


@pytest.mark.parametrize("name", WRITERS)
def test_each_writer_writes_through_a_symbolic_link(tmp_path, hand_store, hanabi_store, name):
    def make_link(suffix):
        link = tmp_path / f"link{suffix}"
        (tmp_path / f"real{suffix}").write_bytes(b"old")
        link.symlink_to(f"real{suffix}")
        return link

    link, run, ok = _writer(name, hand_store, hanabi_store, make_link)
    target = tmp_path / os.readlink(link)
    res = run()
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == target.name
    assert ok(target.read_bytes()), target.read_bytes()[:200]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("name", WRITERS)
def test_each_writer_refuses_a_fifo_and_a_device(tmp_path, hand_store, hanabi_store, name):
    def make_fifo(suffix):
        fifo = tmp_path / f"pipe{suffix}"
        os.mkfifo(fifo)
        return fifo

    def a_device(suffix):  # (a link with the writer's suffix to /dev/full: the device is what is written)
        link = tmp_path / f"full{suffix}"
        link.symlink_to("/dev/full")
        return link

    fifo, run, _ = _writer(name, hand_store, hanabi_store, make_fifo)
    assert_clean_error(run(), str(fifo), "is a named pipe (FIFO), not a file")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    if os.path.exists("/dev/full"):
        device, run, _ = _writer(name, hand_store, hanabi_store, a_device)
        assert_clean_error(run(), str(device), "is a device, not a file")
        assert device.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_hand_export_to_standard_output(hand_store):
    res = CliRunner().invoke(hand, ["export", str(hand_store), "--out", "-"])
    assert res.exit_code == 0, res.output
    assert gzip.decompress(res.stdout_bytes).startswith(b'{"budget"')
    assert "-: 2 deals written" in res.stderr  # (the count on stderr, not in the rows)
