"""What both commands (``hanabi``, ``hand``) share: their error handling (every error one
line on standard error, exit code 2 for bad input, 3 for an internal error, 141 for a
closed pipe) and the group that turns the library's errors into those lines."""
from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import sys
import warnings
from collections.abc import Iterator

import click

from solver.errors import IllegalActionError, InputWarning, MalformedError, SolverError, UnknownKeyWarning


class CleanGroup(click.Group):
    """Turns our ValueErrors into a one-line message and exit code 2, and an internal
    contradiction (:class:`SolverError`, a bug) into one line and exit code 3. The
    library's warnings (an unknown option key in a game file) are one line each,
    ``warning: ...``; made errors (``--strict-options``), exit code 2."""

    def invoke(self, ctx):
        with warnings.catch_warnings():
            shown = warnings.showwarning

            def show(message, category, filename, lineno, file=None, line=None):
                if issubclass(category, UnknownKeyWarning):
                    click.echo(f"warning: {one_line(str(message))} (ignored)", err=True)
                elif issubclass(category, InputWarning):
                    click.echo(f"warning: {one_line(str(message))}", err=True)
                else:
                    shown(message, category, filename, lineno, file, line)

            warnings.showwarning = show
            try:
                return super().invoke(ctx)
            except (MalformedError, IllegalActionError) as e:
                fail(str(e))
            except UnknownKeyWarning as e:
                fail(f"{e} (--strict-options: an unknown key is an error)")
            except SolverError as e:
                fail(f"internal error (please report it): {e}", 3)


@contextlib.contextmanager
def option_keys(strict: bool) -> Iterator[None]:
    """Within it an unknown option key of a game file is an error (``strict``:
    ``--strict-options``) or a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error" if strict else "default", UnknownKeyWarning)
        yield


# what would break the one line or hide in it: control characters (a tab apart), NEL and
# the Unicode line and paragraph separators
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPES = {"\n": "\\n", "\r": "\\r"}


def one_line(text: str) -> str:
    """``text`` with newlines and other control characters escaped (``\\n``, ``\\x00``), and
    lone surrogates (bytes of a file name that are not UTF-8) as ``\\udcff``."""
    text = _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), m.group().encode("unicode_escape").decode()), text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def fail(message: str, code: int = 2):
    """Print a one-line error (newlines and control characters inside names escaped) and exit."""
    click.echo("error: " + one_line(message), err=True)
    sys.exit(code)


class OutputError(Exception):
    """A write to standard output failed (a full disk, a closed pipe, ...). Not an
    ``OSError``, so that nothing between the write and :func:`run` (click included)
    mistakes it for another failure."""

    def __init__(self, err: OSError) -> None:
        self.errno = err.errno
        self.strerror = err.strerror or str(err)
        super().__init__(self.strerror)


class _StdoutFile(io.FileIO):
    """Standard output's file descriptor, whose failed writes raise :class:`OutputError`."""

    def write(self, b):
        try:
            return super().write(b)
        except OSError as e:
            raise OutputError(e) from None


def _guard_stdout() -> None:
    """Route ``sys.stdout`` through :class:`_StdoutFile` (same encoding, errors and
    buffering), so that a failed write to it is told apart from every other ``OSError``."""
    out = sys.stdout
    if out is None or out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return  # already replaced (a test harness, an embedding program): leave it
    try:
        out.flush()
        fd = out.fileno()
    except (OSError, ValueError):
        return
    raw = _StdoutFile(fd, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=out.encoding, errors=out.errors,
                                  line_buffering=out.line_buffering, write_through=out.write_through)


def _silence_stdout() -> None:
    """After a failed write: standard output goes to the null device, so that the unwritten
    rest (and the interpreter's final flush) can do no more harm."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno() if sys.stdout is not None else 1)
        finally:
            os.close(null)
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError, OutputError):
        pass


EXIT_BROKEN_PIPE = 141  # as the shell reports a command killed by SIGPIPE (128 + 13), like cat or head


def run(group: click.Group, prog_name: str = "hanabi") -> None:
    """Run a command group with our error handling: every error is one line on stderr.

    A failed write to standard output (``> /dev/full``) is the one line ``error: cannot
    write the output: ...`` and exit code 2; an exception nothing else catches (a bug) the
    line ``error: internal error ...`` and exit code 3 (``HANABI_TRACEBACK=1`` shows its
    traceback instead); a closed pipe (``| head -1``) exits quietly with
    code 141, as a command killed by SIGPIPE. Standard output is flushed here, not at
    interpreter shutdown, so that no failure escapes as a traceback."""
    _guard_stdout()
    code = 0
    try:
        try:
            group.main(prog_name=prog_name, standalone_mode=False)
        except click.exceptions.Exit as e:
            code = e.exit_code
        except click.exceptions.Abort:
            fail("aborted", 1)
        except click.ClickException as e:
            # usage errors on one line, as all our errors
            fail(e.format_message().replace("\n", " "), 2)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()
    except OutputError as e:
        _silence_stdout()
        if e.errno == errno.EPIPE:
            sys.exit(EXIT_BROKEN_PIPE)
        fail(f"cannot write the output: {e.strerror}")
    except Exception as e:  # a bug: one line and exit code 3, never 1 (hand puzzle check's "invalid")
        if os.environ.get("HANABI_TRACEBACK"):
            raise
        text = str(e)
        text = text if len(text) <= 300 else text[:300] + "..."
        fail(f"internal error (please report it; HANABI_TRACEBACK=1 shows where): {type(e).__name__}: {text}", 3)
    sys.exit(code)
