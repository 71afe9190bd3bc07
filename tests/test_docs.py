"""The documentation is tested: every Python snippet in README.md and docs/ runs as
written, every function docs/encodings.md names still exists in the code, the front page
stays short, every relative link resolves and every page is reachable from the front page."""
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
    # README.md has the round trip, docs/api.md the API examples; an empty list would make
    # the next test vacuous
    assert sum(where.startswith("README.md") for where, _ in SNIPPETS) >= 1
    assert sum(where.startswith("docs/api.md") for where, _ in SNIPPETS) >= 3


@pytest.mark.parametrize("where,code", SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_snippet_runs(where, code, monkeypatch):
    monkeypatch.chdir(REPO)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), {"__name__": "__snippet__"})
    # a snippet that prints shows its result; the output must not be empty then
    if "print(" in code:
        assert out.getvalue().strip(), f"{where}: printed nothing"


def _output(where: str, code: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), {"__name__": "__snippet__"})
    return out.getvalue().splitlines()


def test_api_example_prints_what_it_says():
    where, code = next((w, c) for w, c in SNIPPETS if "game_from_seed(\"p3v0s1\")" in c and "solve(" in c)
    first, _, last = _output(where, code)
    assert first == "25 25 True" and last == "25"


def test_readme_round_trip_prints_what_it_says(monkeypatch):
    """The front page's example: a loader's result goes to the solver as it is."""
    monkeypatch.chdir(REPO)
    where, code = next((w, c) for w, c in SNIPPETS if w.startswith("README.md"))
    assert "solver.solve(record)" in code
    assert _output(where, code) == ["25 True the perfect score of No Variant is 25", "25", "23"]


# ---------------------------------------------------------------------------------------
# The front page and the links
# ---------------------------------------------------------------------------------------
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _links(path: Path) -> list[str]:
    """The relative link targets of a page (not in code blocks nor code spans)."""
    text = re.sub(r"`[^`\n]*`", "", CODE_FENCE.sub("", path.read_text()))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    out = set()
    for title in re.findall(r"^#+ (.*)$", CODE_FENCE.sub("", path.read_text()), re.M):
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def test_readme_fits_on_a_few_screens():
    lines = (REPO / "README.md").read_text().count("\n")
    assert lines <= 260, f"README.md has {lines} lines: the manual's pages are in docs/"


@pytest.mark.parametrize("page", DOCS, ids=[str(p.relative_to(REPO)) for p in DOCS])
def test_every_relative_link_resolves(page):
    broken = []
    for target in _links(page):
        file, _, anchor = target.partition("#")
        dest = page if not file else (page.parent / file).resolve()
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no heading #{anchor})")
    assert not broken, f"{page.relative_to(REPO)}: broken links: {broken}"


def test_every_page_is_reachable_from_the_readme():
    seen, todo = set(), [REPO / "README.md"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for target in _links(page):
            file = target.partition("#")[0]
            dest = (page.parent / file).resolve() if file else page
            if dest.suffix == ".md" and dest.exists() and REPO in dest.parents:
                todo.append(dest)
    unreached = [str(p.relative_to(REPO)) for p in DOCS if p not in seen]
    assert not unreached, f"pages no link leads to from README.md: {unreached}"


def test_the_index_links_every_page():
    index = REPO / "docs" / "README.md"
    linked = {(index.parent / t.partition("#")[0]).resolve() for t in _links(index)}
    missing = [str(p.relative_to(REPO)) for p in DOCS if p != index and REPO / "docs" in p.parents
               and p not in linked]
    assert not missing, f"docs/README.md does not list: {missing}"


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
