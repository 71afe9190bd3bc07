"""Running and judging the fuzzer's cases: a case run in-process under a watchdog
(:class:`Runner`), the rules of a clean outcome (:func:`judge`), shrinking a failing case
(:func:`shrink`), and a whole run (:func:`fuzz` and its :class:`Report` of failure groups;
:func:`main`, the command line).
"""
from __future__ import annotations

import copy
import json
import os
import re
import shlex
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import cli.hanabi

from .cases import COMMANDS, DIR, EXIT_CODES, FILE, MISSING, OUT, REPO, Case, counts
from .generate import Generator
from .mutate import nodes


class Hang(BaseException):
    """Raised by the watchdog (a BaseException: the code under test cannot catch it)."""


class _Entry:
    """The installed ``hanabi`` console script (:func:`cli.hanabi.main`) as CliRunner
    calls a command: ``main(args=..., prog_name=...)``."""

    name = "hanabi"

    def main(self, args: Any = (), prog_name: str = "hanabi", **_: Any) -> None:
        saved = sys.argv
        sys.argv = [prog_name, *args]
        try:
            cli.hanabi.main()
        finally:
            sys.argv = saved


ENTRY = _Entry()
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "Exception in thread", "Exception ignored in")
BAD_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]")


@dataclass
class Outcome:
    exit_code: int
    stdout: bytes
    stderr: bytes
    exception: BaseException | None
    exc_info: Any
    seconds: float
    hang: bool = False
    thread_errors: list[Any] = field(default_factory=list)  # (type, value, traceback) per failed thread


def _project_frame(tb: Any, with_line: bool = True) -> str:
    """The innermost frame of the project (not tests, not the venv): ``file:line
    (function: code)``, or ``file (function)`` without ``with_line``."""
    frames = traceback.extract_tb(tb)
    inside = [f for f in frames
              if f.filename.startswith(str(REPO)) and "/.venv/" not in f.filename
              and not f.filename.startswith(str(REPO / "tests"))]
    f = inside[-1] if inside else (frames[-1] if frames else None)
    if f is None:
        return "?"
    name = os.path.relpath(f.filename, REPO) if f.filename.startswith(str(REPO)) else f.filename
    if not with_line:
        return f"{name} ({f.name})"
    return f"{name}:{f.lineno} ({f.name}: {(f.line or '').strip()[:90]})"


def _traceback_location(text: str) -> str:
    """The exception type and the last project frame (else the last frame's file) of a
    traceback printed as text (a thread's, say)."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', text)
    inside = [f for f in frames if f[0].startswith(str(REPO)) and "/.venv/" not in f[0]]
    excs = re.findall(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning))\b", text, re.M)
    exc = excs[-1] if excs else "?"
    if inside:
        f = inside[-1]
        return f"{exc} at {os.path.relpath(f[0], REPO)}:{f[1]} ({f[2]})"
    return f"{exc} in {os.path.basename(frames[-1][0]) if frames else '?'}"


def _reject_constant(tok: str) -> Any:
    raise ValueError(f"{tok} is not JSON")


def judge(case: Case, out: Outcome) -> tuple[tuple[str, ...], str] | None:
    """None if the outcome is clean, else (the group key, what is wrong). It is clean when:

    - no exception escapes (``result.exception`` is None or a ``SystemExit``),
    - the exit code is in the command's documented set (replay/show/solve: 0 or 2; puzzle
      check: 0, 1 or 2),
    - neither stream holds a Python traceback, and both are valid UTF-8,
    - with exit code 2: stderr is exactly one line starting with ``error: `` (no control
      characters that break it into several lines on a terminal), after any one-line
      ``warning: `` lines, and stdout is empty,
    - with ``--json`` and a verdict (exit 0, or 1 for ``puzzle check``): stdout is one valid
      JSON value (no NaN/Infinity),
    - it finishes within the :class:`Runner`'s ``hang_seconds`` (a watchdog: ``solve`` runs
      with ``--timeout 0.2``).
    """
    cmd = case.command
    if out.hang:
        return ("hang", cmd), f"no answer within the watchdog's limit ({out.seconds:.1f} s)"
    exc = out.exception
    if exc is not None and not isinstance(exc, SystemExit):
        where = _project_frame(out.exc_info[2]) if out.exc_info else "?"
        # grouped by type, file and function (line numbers move while the code is edited)
        group = _project_frame(out.exc_info[2], with_line=False) if out.exc_info else "?"
        msg = str(exc).replace("\n", " ")[:200]
        return ("exception", type(exc).__name__, group), f"uncaught {type(exc).__name__} at {where}: {msg}"
    if out.thread_errors:
        t, v, tb = out.thread_errors[0]
        where = _project_frame(tb)
        inner = traceback.extract_tb(tb)
        last = f"{os.path.basename(inner[-1].filename)}:{inner[-1].lineno}" if inner else "?"
        return ("thread-exception", cmd, t.__name__), \
            f"uncaught {t.__name__} in a thread ({where}; raised at {last}): {v}; its traceback is printed on stderr"
    try:
        stdout = out.stdout.decode("utf-8")
        stderr = out.stderr.decode("utf-8")
    except UnicodeDecodeError as e:
        return ("not-utf8", cmd), f"output is not UTF-8 text: {e}"
    for marker in TRACEBACK_MARKERS:
        for stream, text in (("stdout", stdout), ("stderr", stderr)):
            if marker in text:
                loc = _traceback_location(text[text.index(marker):])
                where = "a thread" if "Exception in thread" in text else loc.split(":")[0]
                return ("traceback-in-output", cmd, where), f"{stream} holds a traceback ({loc})"
    code = out.exit_code
    if code not in EXIT_CODES[cmd]:
        first = stderr.strip().splitlines()[0][:160] if stderr.strip() else ""
        return ("exit-code", cmd, str(code)), f"exit code {code} (allowed {sorted(EXIT_CODES[cmd])}): {first}"
    if code == 2:
        # one-line warnings (an unknown option key) may come before the error line
        while stderr.startswith("warning: ") and "\n" in stderr:
            stderr = stderr.split("\n", 1)[1]
        if not stderr.startswith("error: "):
            return ("error-format", cmd, "not 'error: '"), f"stderr does not start with 'error: ': {stderr[:160]!r}"
        if not stderr.endswith("\n") or stderr.count("\n") != 1:
            return ("error-format", cmd, "lines"), f"stderr is not one line: {stderr[:300]!r}"
        m = BAD_CONTROL.search(stderr[:-1])
        if m:
            return ("error-format", cmd, "control character"), \
                f"the error line holds the control character {m.group()!r}: {stderr[:200]!r}"
        if stdout:
            return ("error-format", cmd, "stdout"), f"exit 2 but stdout is not empty: {stdout[:160]!r}"
    if case.json_out and (code == 0 or (code == 1 and cmd == "puzzle check")) and "--help" not in case.argv({}):
        try:
            json.loads(stdout, parse_constant=_reject_constant)
        except ValueError as e:
            return ("bad-json", cmd), f"--json output is not valid JSON ({e}): {stdout[:160]!r}"
    return None


class Runner:
    """Runs cases in a work directory, with a watchdog.

    Each case runs in-process through the installed console script's own entry point
    (:func:`cli.hanabi.main`, i.e. ``cli.common.run(cli.hanabi.hanabi)``, which turns click's
    usage errors into the one-line form) under ``click.testing.CliRunner``.
    """

    def __init__(self, workdir: Path, hang_seconds: float = 30.0):
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "adir").mkdir(exist_ok=True)
        self.hang_seconds = hang_seconds
        try:
            self.cli = CliRunner(catch_exceptions=True, capture="fd")  # C-level output too (click >= 8.4)
        except TypeError:
            self.cli = CliRunner(catch_exceptions=True)
        self.count = 0

    def paths(self, case: Case) -> dict[str, str]:
        self.count += 1
        return {FILE: str(self.dir / f"{case.name}{case.suffix}"), OUT: str(self.dir / f"out{self.count % 7}.json"),
                DIR: str(self.dir / "adir"), MISSING: str(self.dir / "no such file.json")}

    def run(self, case: Case) -> Outcome:
        paths = self.paths(case)
        argv = case.argv(paths)
        if case.content is not None:
            try:
                Path(paths[FILE]).write_bytes(case.content)
            except OSError:
                pass  # an impossible name: the command must say it cannot read it
        use_alarm = self.hang_seconds > 0 and hasattr(signal, "setitimer")
        old = None

        def on_alarm(signum: int, frame: Any) -> None:
            raise Hang()

        # exceptions in threads the command starts (pytest's own hook would swallow them)
        thread_errors: list[Any] = []
        saved_hook = threading.excepthook

        def on_thread_error(args: Any) -> None:
            thread_errors.append((args.exc_type, args.exc_value, args.exc_traceback))
            try:
                sys.stderr.write(f"Exception in thread {getattr(args.thread, 'name', '?')}:\n"
                                 + "".join(traceback.format_exception(args.exc_type, args.exc_value,
                                                                      args.exc_traceback)))
            except Exception:
                pass

        threading.excepthook = on_thread_error
        t0 = time.perf_counter()
        hang = False
        if use_alarm:
            old = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.hang_seconds)
        try:
            res = self.cli.invoke(ENTRY, argv, prog_name="hanabi")  # type: ignore[arg-type]
        except Hang:
            hang = True
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
            threading.excepthook = saved_hook
        dt = time.perf_counter() - t0
        if case.content is not None:
            try:
                os.unlink(paths[FILE])
            except OSError:
                pass
        if hang:
            return Outcome(-1, b"", b"", None, None, dt, hang=True)
        return Outcome(res.exit_code, res.stdout_bytes, res.stderr_bytes, res.exception, res.exc_info, dt,
                       thread_errors=thread_errors)



# ---------------------------------------------------------------- shrinking
def _parse(content: bytes) -> Any:
    """The JSON value of ``content`` if it is plain UTF-8 JSON that re-encodes to the
    same value (else a ValueError)."""
    text = content.decode("utf-8")
    if text.startswith("\ufeff"):
        raise ValueError("BOM")
    return json.loads(text)


def _json_candidates(obj: Any) -> list[Any]:
    """Smaller versions of ``obj``: one key or item dropped, a list halved, a value made
    trivial (breadth first: the big cuts first)."""
    out: list[Any] = []
    for holder, key, val in nodes(obj, limit=400):
        if isinstance(holder, dict | list):  # drop the key or the item
            out.append(lambda h=holder, k=key: h.pop(k))
        if isinstance(val, list) and len(val) > 1:  # keep either half of a list
            out.append(lambda h=holder, k=key, v=val: h.__setitem__(k, v[:len(v) // 2]))
            out.append(lambda h=holder, k=key, v=val: h.__setitem__(k, v[len(v) // 2:]))
        if isinstance(val, dict | list) and val:
            out.append(lambda h=holder, k=key, v=val: h.__setitem__(k, type(v)()))
        if isinstance(val, str) and len(val) > 1:
            out.append(lambda h=holder, k=key, v=val: h.__setitem__(k, v[: max(1, len(v) // 2)]))
    return out


def shrink(runner: Runner, case: Case, key: tuple[str, ...], budget: float) -> Case:
    """A smaller case with the same failure key, within ``budget`` seconds."""
    deadline = time.monotonic() + budget

    def same(c: Case) -> bool:
        res = judge(c, runner.run(c))
        return res is not None and res[0] == key

    best = case
    # 1. drop argument groups
    i = best.fixed
    while i < len(best.groups) and time.monotonic() < deadline:
        cand = copy.copy(best)
        cand.groups = best.groups[:i] + best.groups[i + 1:]
        if same(cand):
            best = cand
        else:
            i += 1
    # 2. shorten long argument values
    for gi in range(best.fixed, len(best.groups)):
        frac = 2
        while time.monotonic() < deadline:
            g = best.groups[gi]
            if len(g) != 2 or g[1] in (FILE, OUT, DIR, MISSING) or len(g[1]) // frac < 1:
                break
            cand = copy.copy(best)
            cand.groups = list(best.groups)
            cut = len(g[1]) // frac
            cand.groups[gi] = [g[0], g[1][:len(g[1]) - cut]]
            if same(cand):
                best = cand
            else:
                frac *= 2
    if best.content is None or time.monotonic() >= deadline:
        return best
    # 3. JSON structure
    try:
        obj = _parse(best.content)
    except (ValueError, RecursionError):
        obj = None
    if obj is not None:
        try:
            return _shrink_json(best, obj, same, deadline)
        except RecursionError:  # nested too deeply to copy: cut the text instead
            pass
    # 4. text: delete chunks
    return _shrink_text(best, same, deadline)


def _shrink_json(best: Case, obj: Any, same: Callable[[Case], bool], deadline: float) -> Case:
    """Drop keys and items, halve lists, empty values, while the failure stays the same."""
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for k in range(len(_json_candidates(obj))):
            if time.monotonic() >= deadline:
                break
            trial = copy.deepcopy(obj)
            cands = _json_candidates(trial)  # the same order as for obj
            if k >= len(cands):
                break
            cands[k]()
            try:
                data = json.dumps(trial).encode()
            except (ValueError, RecursionError):
                continue
            cand = copy.copy(best)
            cand.content = data
            if same(cand):
                best, obj, progress = cand, trial, True
                break
    return best


def _shrink_text(best: Case, same: Callable[[Case], bool], deadline: float) -> Case:
    data = best.content or b""
    chunk = max(1, len(data) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        while i < len(data) and time.monotonic() < deadline:
            trial = data[:i] + data[i + chunk:]
            cand = copy.copy(best)
            cand.content = trial
            if trial != data and same(cand):
                best, data = cand, trial
            else:
                i += chunk
        chunk //= 2
    return best



# ---------------------------------------------------------------- a run
def _shell(arg: str) -> str:
    """A shell word for ``arg`` (surrogate escapes, the bytes of argv, as $'\\xff')."""
    if all(" " < ch < "\x7f" for ch in arg):
        return shlex.quote(arg)
    raw = arg.encode("utf-8", "surrogateescape")
    inner = "".join(chr(b) if 32 <= b < 127 and chr(b) not in "\\'" else f"\\x{b:02x}" for b in raw)
    return f"$'{inner}'"


def _clean(text: str) -> str:
    """Printable in any terminal: lone surrogates and non-ASCII escaped."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


def _preview(data: bytes | None, n: int = 240) -> str:
    if data is None:
        return "(no file)"
    text = data[:n].decode("utf-8", "backslashreplace")
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    return repr(text) + (f"... ({len(data)} bytes)" if len(data) > n else "")


@dataclass
class Group:
    key: tuple[str, ...]
    message: str
    case: Case
    hits: int = 1
    shrunk: Case | None = None
    repro: str = ""


@dataclass
class Report:
    command: str
    seed: str
    inputs: int = 0
    seconds: float = 0.0
    exit_codes: dict[int, int] = field(default_factory=dict)
    groups: dict[tuple[str, ...], Group] = field(default_factory=dict)
    slowest: list[tuple[float, str]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)  # the kinds of clean error seen (coverage)

    def format(self, limit: int = 12) -> str:
        lines = [f"{self.command}: {len(self.groups)} kind(s) of failure in {self.inputs} inputs "
                 f"(seed {self.seed!r}; HANABI_FUZZ_SEED / HANABI_FUZZ_N to rerun)"]
        for n, g in enumerate(sorted(self.groups.values(), key=lambda g: -g.hits)[:limit], 1):
            c = g.shrunk or g.case
            lines.append(f"{n}. [{g.hits}x] {_clean(g.message)}")
            lines.append(f"   input: {_clean(c.desc[:300])}")
            lines.append(f"   repro: {g.repro}")
            lines.append(f"   file : {_preview(c.content)}")
        if len(self.groups) > limit:
            lines.append(f"... and {len(self.groups) - limit} more")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"command": self.command, "seed": self.seed, "inputs": self.inputs, "seconds": self.seconds,
                "exit_codes": self.exit_codes,
                "failures": [{"key": [_clean(k) for k in g.key], "hits": g.hits, "message": _clean(g.message),
                              "repro": _clean(g.repro), "input": _preview((g.shrunk or g.case).content, 600),
                              "desc": _clean((g.shrunk or g.case).desc)} for g in self.groups.values()]}


def _error_kind(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").split("\n")[0]
    text = re.sub(r"/\S*", "PATH", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "S", text)
    return re.sub(r"-?\d+", "N", text)[:70]


def fuzz(command: str, n: int, seed: str, workdir: Path, *, shrink_seconds: float = 20.0, max_shrink: int = 8,
         hang_seconds: float = 30.0, progress: Callable[[int, Report], None] | None = None) -> Report:
    """Run ``n`` generated inputs of ``command``; failures grouped in the report, the
    first of each group shrunk and written under ``workdir/repro``.

    Failures are grouped by kind (the exception type and the innermost project frame of its
    traceback, or the broken rule); the first input of each group is shrunk (arguments
    dropped, JSON keys and list items removed, text cut) and written to a file with the
    command that reproduces it.
    """
    gen = Generator(command, seed)
    runner = Runner(Path(workdir) / "run", hang_seconds)
    rep = Report(command, seed)
    t0 = time.perf_counter()
    marks = gen.landmarks()
    for i in range(n):
        case = marks[i] if i < len(marks) else gen.case()
        out = runner.run(case)
        rep.inputs += 1
        rep.exit_codes[out.exit_code] = rep.exit_codes.get(out.exit_code, 0) + 1
        rep.slowest = sorted(rep.slowest + [(out.seconds, case.desc[:120])], reverse=True)[:5]
        if out.exit_code in (1, 2) and out.stderr:
            kind = _error_kind(out.stderr)
            rep.errors[kind] = rep.errors.get(kind, 0) + 1
        verdict = judge(case, out)
        if verdict is not None:
            key, msg = verdict
            if key in rep.groups:
                rep.groups[key].hits += 1
            else:
                rep.groups[key] = Group(key, msg, case)
        if progress is not None:
            progress(i, rep)
    rep.seconds = time.perf_counter() - t0
    # shrink and write the reproducers
    repro = Path(workdir) / "repro"
    repro.mkdir(parents=True, exist_ok=True)
    per = shrink_seconds / max(1, min(max_shrink, len(rep.groups)))
    for n_group, g in enumerate(sorted(rep.groups.values(), key=lambda g: -g.hits), 1):
        c = g.case
        if n_group <= max_shrink and shrink_seconds > 0:
            c = g.shrunk = shrink(runner, c, g.key, per)
        # one folder per group: the file keeps its name (an error message or the output may show it)
        folder = repro / f"{command.replace(' ', '-')}-{n_group}"
        folder.mkdir(exist_ok=True)
        name = c.name + c.suffix if c.name != "input" else f"{command.replace(' ', '-')}-{n_group}{c.suffix or '.txt'}"
        paths = {FILE: str(folder / name), OUT: str(folder / "out.json"), DIR: str(folder),
                 MISSING: str(folder / "no such file.json")}
        if c.content is not None:
            try:
                Path(paths[FILE]).write_bytes(c.content)
            except OSError:
                pass
        words = []
        for i, (orig, a) in enumerate(zip(c.argv({}), c.argv(paths))):
            if len(a) > 100 and orig not in paths:  # a long value: in a file of its own
                arg_file = folder / f"arg{i}.txt"
                arg_file.write_bytes(a.encode("utf-8", "surrogateescape"))
                words.append(f'"$(cat {shlex.quote(str(arg_file))})"')
            else:
                words.append(_shell(a))
        g.repro = "hanabi " + " ".join(words)
    return rep


def main(argv: list[str] | None = None) -> int:
    """``python -m fuzzing [--n N] [--seed S] [--command C ...] [--json FILE]`` (from tests/)."""
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description="A seeded fuzzer for the ``hanabi`` command line: ``replay``, "
                                             "``show``, ``solve`` and ``puzzle check``.")
    ap.add_argument("--n", type=int, default=int(os.environ.get("HANABI_FUZZ_N", "3000")))
    ap.add_argument("--seed", default=os.environ.get("HANABI_FUZZ_SEED", "20250601"))
    ap.add_argument("--command", action="append", choices=COMMANDS)
    ap.add_argument("--json", help="write the reports here")
    ap.add_argument("--shrink", type=float, default=20.0, help="seconds of shrinking per command")
    ap.add_argument("--errors", type=int, default=0, help="print the N most frequent clean errors")
    ap.add_argument("--out", help="work directory (default: a new temporary one)")
    args = ap.parse_args(argv)
    work = Path(args.out or tempfile.mkdtemp(prefix="hanabi-fuzz-"))
    reports = []
    per = counts(args.n)
    for cmd in args.command or COMMANDS:
        rep = fuzz(cmd, per[cmd], args.seed, work / cmd.replace(" ", "-"), shrink_seconds=args.shrink)
        reports.append(rep)
        print(f"{cmd}: {rep.inputs} inputs in {rep.seconds:.1f} s, exit codes {dict(sorted(rep.exit_codes.items()))}")
        if rep.groups:
            print(rep.format(limit=100))
        if args.errors:
            for kind, k in sorted(rep.errors.items(), key=lambda x: -x[1])[:args.errors]:
                print(f"  {k:6d}  {_clean(kind)}")
        print("  slowest:", ", ".join(f"{s:.2f}s {d[:60]!r}" for s, d in rep.slowest[:3]))
        sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps([r.to_json() for r in reports], indent=1))
    return 1 if any(r.groups for r in reports) else 0

