"""The documentation is tested: every Python snippet in README.md and docs/ runs as
written, and every function docs/encodings.md names still exists in the code."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def snippets() -> list[tuple[str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text()
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((f"{path.relative_to(REPO)}:{line}", m.group(1)))
    return out


SNIPPETS = snippets()


def test_there_are_snippets():
    # README.md has the API examples; an empty list would make the next test vacuous
    assert sum(where.startswith("README.md") for where, _ in SNIPPETS) >= 3


@pytest.mark.parametrize("where,code", SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_snippet_runs(where, code, monkeypatch):
    monkeypatch.chdir(REPO)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), {"__name__": "__snippet__"})
    # a snippet that prints shows its result; the output must not be empty then
    if "print(" in code:
        assert out.getvalue().strip(), f"{where}: printed nothing"


def test_readme_api_example_prints_what_it_says():
    where, code = next((w, c) for w, c in SNIPPETS if "game_from_seed(\"p3v0s1\")" in c and "solve(" in c)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), {"__name__": "__snippet__"})
    first, _, last = out.getvalue().splitlines()
    assert first == "25 25 True" and last == "25"


ENCODING_NOTE = REPO / "docs" / "encodings.md"
CODE = "\n".join(p.read_text() for p in [*(REPO / "solver").rglob("*.py"), *(REPO / "scripts").glob("*.py"),
                                        *(REPO / "tests").glob("*.py")])


def test_functions_named_in_the_encodings_note_exist():
    names = set(re.findall(r"`(_?[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)(?:\(|`)", ENCODING_NOTE.read_text()))
    defined = set(re.findall(r"^\s*(?:def|class) (\w+)", CODE, re.M)) | set(re.findall(r"^(\w+) = ", CODE, re.M))
    missing = []
    for name in sorted(names):
        leaf = name.split(".")[-1]
        if "_" not in leaf and leaf not in defined:
            continue  # plain words in backticks (variables, options), not function names
        if leaf not in defined and not re.search(rf"\b{re.escape(leaf)}\b", CODE):
            missing.append(name)
    assert not missing, f"docs/encodings.md names what the code no longer has: {missing}"
