"""Every shell example of README.md and docs/ runs as written in a clone of the repository.

A ```` ```console ```` block is commands (``$ ...``) each followed by the output it shows:
the command must exit with 0 (or with the code a last output line ``(exit code N)`` names)
and print every line shown, in order. A line ``...`` stands for any lines, a line ending
in ``...`` for any line that begins so, and a time such as ``0.07 s`` for any time. A
```` ```sh ```` block is commands without output: each must exit with 0.

A block preceded by the comment ``<!-- example: not run (WHY) -->`` is not run (a
cluster, hours of work, a benchmark, a command that rewrites the documentation's own
files); every file it reads must still exist in the clone (files under ``../shared/``,
the shared data folder beside the clone, and ones an earlier command of the block writes
are allowed).

The commands run in a temporary folder that holds links to the clone's ``tests/``,
``docs/``, ``results/`` and ``scripts/``, with the environment's ``hanabi`` and ``hand``
first on the PATH; so that no example writes into the clone, a run example may not name
an output under those folders.
"""
from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^(?:<!-- example: (?P<tag>[^\n]*?) -->\n)?```(?P<info>console|sh)\n(?P<body>.*?)^```",
                   re.S | re.M)
LINKED = ("tests", "docs", "results", "scripts")
OUTPUT_OPTIONS = {"--out", "--db", "--plot", "--plots", "--csv", "--replay-out", "--lines", "--data", "--page",
                  "--json-out", "--store", "-o"}
FILE_LIKE = re.compile(r"(/|\.(json|jsonl|sqlite|txt|png|svg|gz|graphml|dot|md|py|pdf)$)")


@dataclass
class Command:
    line: str
    shown: list[str] = field(default_factory=list)


@dataclass
class Example:
    where: str
    kind: str
    not_run: str | None
    commands: list[Command]


def _commands(kind: str, body: str) -> list[Command]:
    lines = body.splitlines()
    out: list[Command] = []
    i = 0
    while i < len(lines):
        text = lines[i]
        if kind == "console" and not text.startswith("$ "):
            if out:
                out[-1].shown.append(text)
            i += 1
            continue
        if kind == "console":
            text = text[2:]
        while text.endswith("\\") and i + 1 < len(lines):  # a command continued on the next line
            i += 1
            text = text[:-1] + " " + lines[i].strip()
        if text.strip() and not text.lstrip().startswith("#"):
            out.append(Command(text))
        i += 1
    return out


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start("info")) + 1
            tag = m.group("tag")
            if tag is not None and not tag.startswith("not run"):
                raise ValueError(f"{page}:{line}: unknown example comment {tag!r}")
            found.append(Example(f"{page.relative_to(REPO)}:{line}", m.group("info"), tag,
                                 _commands(m.group("info"), m.group("body"))))
    return found


EXAMPLES = examples()
RUN = [e for e in EXAMPLES if e.not_run is None]
NOT_RUN = [e for e in EXAMPLES if e.not_run is not None]


def test_the_examples_are_found():
    # the front page's examples, and the pages': an empty list would make the tests vacuous
    assert sum(e.where.startswith("README.md") for e in RUN) >= 5
    assert sum(len(e.commands) for e in RUN) >= 35 and NOT_RUN


def test_the_output_check_can_fail():
    cmd = Command("x", ["Maximum score: 25/25 (exact)", "...", "wrote a.dot (0.07 s)", "Knowing the order; ..."])
    right = "Maximum score: 25/25 (exact)\nmore\nwrote a.dot (1.5 s)\nKnowing the order; it costs 0\n"
    _check_output("here", cmd, right)
    for wrong in ("Maximum score: 24/25 (exact)\nwrote a.dot (1.5 s)\nKnowing the order; x\n",
                  "wrote a.dot (1.5 s)\nMaximum score: 25/25 (exact)\nKnowing the order; x\n"):
        with pytest.raises(AssertionError):
            _check_output("here", cmd, wrong)


def _words(line: str) -> list[str]:
    return shlex.split(line, comments=True)


def _outputs(words: list[str]) -> set[str]:
    return {words[k + 1] for k, w in enumerate(words[:-1]) if w in OUTPUT_OPTIONS} | {
        w.split("=", 1)[1] for w in words if "=" in w and w.split("=", 1)[0] in OUTPUT_OPTIONS}


def _inputs(words: list[str]) -> list[str]:
    outs = _outputs(words)
    return [w for w in words[1:] if FILE_LIKE.search(w) and w not in outs and not w.startswith(("-", "tcp:"))
            and " " not in w and ":" not in w]


@pytest.mark.parametrize("example", NOT_RUN, ids=[e.where for e in NOT_RUN])
def test_an_example_not_run_reads_files_the_clone_has(example):
    assert example.not_run and re.fullmatch(r"not run \(.+\)", example.not_run), \
        f"{example.where}: say why it is not run: <!-- example: not run (WHY) -->"
    written: set[str] = set()
    missing = []
    for cmd in example.commands:
        words = _words(cmd.line)
        for path in _inputs(words):
            if path.startswith("../shared/") or path in written or path.rstrip("/") in written:
                continue
            if not glob.glob(str(REPO / path)) and not path.startswith(".venv/"):
                missing.append(path)
        written |= _outputs(words)
    assert not missing, f"{example.where}: the clone has no {missing}"


def _pattern(line: str) -> re.Pattern[str]:
    """A shown line as a pattern: a trailing ``...`` matches any end, a time any time."""
    prefix = line.endswith("...")
    body = re.escape(line[:-3] if prefix else line)
    body = re.sub(r"\d+\\\.\d+\\ (m?s)\b", r"[\\d.]+\\ \1", body)
    return re.compile(body + (".*" if prefix else "") + r"\s*$")


def _check_output(where: str, cmd: Command, stdout: str) -> None:
    got = stdout.splitlines()
    k = 0
    for shown in cmd.shown:
        if shown.strip() == "..." or not shown.strip() or re.fullmatch(r"\(exit code \d+\)", shown):
            continue
        pattern = _pattern(shown.rstrip())
        while k < len(got) and not pattern.match(got[k].rstrip()):
            k += 1
        assert k < len(got), f"{where}: `{cmd.line}` did not print (in this order): {shown!r}\n{stdout}"
        k += 1


@pytest.mark.parametrize("example", RUN, ids=[e.where for e in RUN])
def test_an_example_runs_as_written(example, tmp_path):
    for name in LINKED:
        (tmp_path / name).symlink_to(REPO / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200")
    env.pop("HANABI_SHARED", None)
    for cmd in example.commands:
        words = _words(cmd.line)
        into_clone = [p for p in _outputs(words) if p.split("/")[0] in LINKED]
        assert not into_clone, f"{example.where}: `{cmd.line}` would write into the clone: {into_clone}"
        expected = 0
        for shown in cmd.shown:
            m = re.fullmatch(r"\(exit code (\d+)\)", shown.strip())
            if m:
                expected = int(m.group(1))
        r = subprocess.run(cmd.line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == expected, (f"{example.where}: `{cmd.line}` exited with {r.returncode}, "
                                          f"not {expected}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
        _check_output(example.where, cmd, r.stdout)
