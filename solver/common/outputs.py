"""Output files of the command line: checked before the work, written without leaving a
half-written file.

:func:`check_output_path` is what a command calls on an output option (``--replay-out``,
``--plot``, ...) before it starts computing, so that a bad path fails at once, not after
minutes of solving. :func:`write_output` writes the file when the work is done: into a
temporary file in the same folder, renamed over the target only once complete, so a full
disk or a crash never leaves a truncated file nor destroys the previous one.
"""
from __future__ import annotations

import os
import secrets
import stat

from solver.errors import MalformedError

__all__ = ["PLOT_SUFFIXES", "check_output_path", "check_plot_path", "write_output"]


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def check_output_path(path: str, option: str) -> None:
    """Raise a one-line :class:`MalformedError` naming ``option`` and ``path`` unless a
    file can be written at ``path``: not an empty (or blank) string, not a folder (nor a name ending
    in ``/``), its folder exists and is a folder, and the file (if it exists) or the folder
    (if not) is writable. Creates nothing. An existing file is fine (it is replaced)."""
    if not isinstance(path, str) or path == "":
        raise MalformedError(f"{option}: empty file name")
    if not path.strip():
        raise MalformedError(f"{option}: blank file name {path!r} (only spaces)")
    where = f"{option} {path}"
    if path.endswith(("/", os.sep)):
        raise MalformedError(f"{where}: names a folder, not a file")
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        st = None  # a part of the folder is a file: said below
    except ValueError as e:  # an embedded NUL byte
        raise MalformedError(f"{where}: not a usable file name ({e})") from None
    except OSError as e:
        raise MalformedError(f"{where}: {_reason(e)}") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise MalformedError(f"{where}: is a folder, not a file")
        if not os.access(path, os.W_OK):
            raise MalformedError(f"{where}: cannot write the file: permission denied")
        return
    folder = os.path.dirname(path) or os.curdir
    try:
        fst = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise MalformedError(f"{where}: folder {folder} does not exist") from None
    except OSError as e:
        raise MalformedError(f"{where}: folder {folder}: {_reason(e)}") from None
    if not stat.S_ISDIR(fst.st_mode):
        raise MalformedError(f"{where}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise MalformedError(f"{where}: cannot create a file in folder {folder}: permission denied")


PLOT_SUFFIXES = (".png", ".svg", ".pdf")  # the chart formats of --plot


def check_plot_path(path: str, option: str = "--plot") -> None:
    """A chart's file (``--plot`` of either game's review): a name ending in .png, .svg
    or .pdf, and writable (:func:`check_output_path`), checked before the work."""
    if not path.lower().endswith(PLOT_SUFFIXES):
        raise MalformedError(f"{option} {path!r}: the file name must end in .png, .svg or .pdf")
    check_output_path(path, option)


def write_output(path: str, text: str, option: str) -> None:
    """Write ``text`` (UTF-8) to the file ``path``. A regular file (or a new one) is
    written to a temporary file next to it and renamed over it when complete (the old
    file's permissions kept); a device or pipe (``/dev/stdout``) is written directly. A
    failure raises a one-line :class:`MalformedError` naming ``option`` and ``path`` and
    leaves any previous file as it was."""
    where = f"{option} {path}"
    try:
        st: os.stat_result | None = os.stat(path)  # through symbolic links
    except OSError:
        st = None
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            return
        real = os.path.realpath(path)  # replace the file a symbolic link points to, not the link
        folder, base = os.path.split(real)
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(6)}.tmp")
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666  # a new file: 0o666 less the umask
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            if st is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, real)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        raise MalformedError(f"{where}: cannot write: {_reason(e)}") from None
