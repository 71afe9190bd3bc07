"""Output files of both command lines: checked before the work, written without leaving a
half-written file or destroying what was at the path.

Every writer (``--out``, ``--csv``, ``--replay-out``, ``--plot``, a puzzle or gallery
file, ``hand export``) goes through :func:`open_output` (or :func:`write_output`, its
one-call form), and every command checks its output options with
:func:`check_output_path` before it starts computing, so that a bad path fails at once,
not after minutes of solving. What a path may be:

- ``-``: standard output, written as it is (so is a path naming this process's standard
  output, such as ``/dev/stdout``, and ``/dev/null``);
- a regular file, or a name that does not exist yet: written to a temporary file in the
  same folder and renamed over the target only once complete and synced, so a full disk or
  a crash never leaves a truncated file nor destroys the previous one (its permissions are
  kept);
- a symbolic link: followed; the file it points to is replaced as above and the link
  stays a link;
- anything else (a folder, a device, a named pipe, a socket) is refused with a one-line
  error: it is not a file this command was asked to replace.

A write error (a full disk, a closed pipe) is a :class:`~solver.errors.MalformedError`
naming the option and the path, never a success.
"""
from __future__ import annotations

import io
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, Literal

from solver.errors import MalformedError

__all__ = ["PLOT_SUFFIXES", "STDOUT", "OutputTarget", "check_output_path", "check_plot_path", "open_output",
           "output_target", "save_figure", "write_output"]

STDOUT = "-"  # the name of standard output
DISCARD = "/dev/null"  # the one device written to (what it is for)


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def _where(option: str, path: str) -> str:
    """How a message names the output: ``--out x.gz`` (or the path alone, for a file a
    command writes without an option naming it)."""
    return f"{option} {path}" if option else path


@dataclass(frozen=True)
class OutputTarget:
    """Where an output goes: ``kind`` is ``direct`` (standard output or ``/dev/null``,
    written as it is), ``file`` (an existing regular file, replaced) or ``new`` (created);
    ``real`` is the file written (symbolic links followed; empty for standard output)."""

    path: str
    kind: Literal["direct", "file", "new"]
    real: str
    mode: int = 0o666  # the permissions the written file gets (a new file: less the umask)


def _special(st: os.stat_result) -> str | None:
    """What a non-regular file is, in words (None for a regular file)."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file"
    return "is not a regular file"


def _is_stdout(st: os.stat_result) -> bool:
    try:
        return os.path.samestat(st, os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False  # (no real standard output: under a test runner, say)


def output_target(path: str, option: str) -> OutputTarget:
    """Where writing ``path`` (the value of ``option``; ``""`` for a file no option names) goes, or a one-line
    :class:`MalformedError` naming both saying why it cannot be written. Creates nothing."""
    if not isinstance(path, str) or path == "":
        raise MalformedError(f"{option or 'output'}: empty file name")
    if not path.strip():
        raise MalformedError(f"{option or 'output'}: blank file name {path!r} (only spaces)")
    if path == STDOUT:
        return OutputTarget(path, "direct", "")
    where = _where(option, path)
    if path.endswith(("/", os.sep)):
        raise MalformedError(f"{where}: names a folder, not a file")
    try:
        st: os.stat_result | None = os.stat(path)  # through symbolic links
    except (FileNotFoundError, NotADirectoryError):
        st = None  # (a part of the folder that is a file: said below)
    except ValueError as e:  # an embedded NUL byte
        raise MalformedError(f"{where}: not a usable file name ({e})") from None
    except OSError as e:
        raise MalformedError(f"{where}: {_reason(e)}") from None
    if st is not None:
        why = _special(st)
        if why is not None:
            if _is_stdout(st) or (stat.S_ISCHR(st.st_mode) and os.path.realpath(path) == DISCARD):
                return OutputTarget(path, "direct", path)
            raise MalformedError(f"{where}: {why}; name a file (or - for standard output)")
        if not os.access(path, os.W_OK):
            raise MalformedError(f"{where}: cannot write the file: permission denied")
        return OutputTarget(path, "file", os.path.realpath(path), stat.S_IMODE(st.st_mode))
    real = os.path.realpath(path)  # (a dangling link: the file it names is created)
    folder = os.path.dirname(real) or os.curdir
    try:
        fst = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise MalformedError(f"{where}: cannot write: folder {os.path.dirname(path) or folder} does not exist") \
            from None
    except OSError as e:
        raise MalformedError(f"{where}: folder {folder}: {_reason(e)}") from None
    if not stat.S_ISDIR(fst.st_mode):
        raise MalformedError(f"{where}: cannot write: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise MalformedError(f"{where}: cannot create a file in folder {folder}: permission denied")
    return OutputTarget(path, "new", real)


def check_output_path(path: str, option: str) -> None:
    """Raise a one-line :class:`MalformedError` naming ``option`` and ``path`` unless
    ``path`` can be written (:func:`output_target`). Creates nothing; an existing regular
    file is fine (it is replaced)."""
    output_target(path, option)


PLOT_SUFFIXES = (".png", ".svg", ".pdf")  # the chart formats of --plot


def check_plot_path(path: str, option: str = "--plot") -> None:
    """A chart's file (``--plot`` of either game's review): a name ending in .png, .svg
    or .pdf, and writable (:func:`check_output_path`), checked before the work."""
    if not path.lower().endswith(PLOT_SUFFIXES):
        raise MalformedError(f"{option} {path!r}: the file name must end in .png, .svg or .pdf")
    check_output_path(path, option)


@contextmanager
def open_output(path: str, option: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A context manager giving a file to write ``path`` through (text in UTF-8, or bytes
    when ``binary``), committed as the module says when the block ends without an
    exception and discarded otherwise. A failure to write raises a one-line
    :class:`MalformedError` naming ``option`` and ``path``."""
    target = output_target(path, option)
    where = _where(option, path)
    if target.kind == "direct":
        try:
            if target.real == "":
                out = sys.stdout.buffer if binary else sys.stdout
                yield out
                out.flush()
            else:
                with open(target.real, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
                    yield fh
        except OSError as e:
            raise MalformedError(f"{where}: cannot write: {_reason(e)}") from None
        return
    folder, base = os.path.split(target.real)
    tmp = os.path.join(folder, f".{base}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, target.mode)
    except OSError as e:
        raise MalformedError(f"{where}: cannot write: {_reason(e)}") from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if target.kind == "file":
            os.chmod(tmp, target.mode)  # (the umask does not narrow an existing file's permissions)
        os.replace(tmp, target.real)
    except OSError as e:
        _discard(tmp)
        raise MalformedError(f"{where}: cannot write: {_reason(e)}") from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write_output(path: str, data: str | bytes, option: str) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` as :func:`open_output` does."""
    if isinstance(data, bytes):
        with open_output(path, option, True) as fh:
            fh.write(data)
    else:
        with open_output(path, option, False) as fh:
            fh.write(data)


def save_figure(fig: Any, path: str, option: str, dpi: int, fmt: str | None = None, **savefig: Any) -> None:
    """Write a matplotlib figure to ``path`` in the format ``fmt`` (default: the one its
    suffix names, .png, .svg or .pdf), as :func:`write_output` writes (matplotlib itself
    would write through whatever is at the path); ``savefig`` goes to ``Figure.savefig``."""
    fmt = fmt or os.path.splitext(path)[1].lower().lstrip(".") or "png"
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, **savefig)
    write_output(path, buf.getvalue(), option)
