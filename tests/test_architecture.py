"""The layout's rules, read from the source (``ast``; docs/architecture.md says them in
words): imports run one way (the shared bottom, each game's rules engine, its search and
methods, its analysis and batch runs, the puzzles, the commands at the top), no
module-level import cycle, and no private name taken from another package."""
from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "puzzles", "cli", "web")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    """Every module of the three packages (the generated compiled kernels excepted)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            name = module_name(path)
            if not name.startswith("solver.kernel.compiled"):
                out[name] = path
    return out


MODULES = project_modules()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is imported: its top level, into ``if``/``try``
    blocks, not into functions or classes, nor ``if TYPE_CHECKING`` (never run)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _type_checking(node):
            yield from _top_level_imports(node.body)
            yield from _top_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *[h.body for h in node.handlers]):
                yield from _top_level_imports(block)


@cache
def imports(name: str, everywhere: bool = False) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """What module ``name`` imports from the project: (module, names taken, line), relative
    imports resolved, ``from package import submodule`` read as the submodule. Module level
    only, unless ``everywhere`` (then inside functions too)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text())
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    checking = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
                for n in ast.walk(node)}
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in checking] \
        if everywhere else list(_top_level_imports(tree.body))
    out: list[tuple[str, tuple[str, ...], int]] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out += [(a.name, (), node.lineno) for a in node.names if a.name.split(".")[0] in PACKAGES]
            continue
        base = package[:len(package) - node.level + 1] if node.level else []
        target = ".".join(base + ([node.module] if node.module else []))
        if target.split(".")[0] not in PACKAGES:
            continue
        plain = []
        for a in node.names:
            if f"{target}.{a.name}" in MODULES:
                out.append((f"{target}.{a.name}", (), node.lineno))
            else:
                plain.append(a.name)
        if plain or not node.names:
            out.append((target, tuple(plain), node.lineno))
    return tuple(out)


def part_of(module: str) -> str:
    """The part a module belongs to, as the layering names them: ``solver.hanabi.rules``,
    ``solver.hand.search``, ``solver.common``, ``puzzles.hand``, ``cli`` ..."""
    parts = module.split(".")
    if parts[0] in ("cli", "web"):
        return parts[0]
    if parts[0] == "puzzles":
        return ".".join(parts[:2])
    if len(parts) >= 2 and parts[1] in ("hanabi", "hand") and len(parts) >= 3 and \
            f"solver.{parts[1]}.{parts[2]}" in MODULES:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def test_the_layout_has_a_folder_per_game_with_the_same_parts():
    for game in ("hanabi", "hand"):
        for part in ("rules", "search", "analysis", "batch"):
            assert f"solver.{game}.{part}" in MODULES, f"solver/{game}/{part}/ is missing"
    for part in ("hanabi", "hand"):
        assert f"puzzles.{part}" in MODULES and f"cli.{part}" in MODULES
    assert "solver.hanabi.methods" in MODULES and "solver.kernel" in MODULES
    # the root of the library holds only what both games share
    root = {p.name for p in (REPO / "solver").iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert root == {"__init__.py", "errors.py", "common", "kernel", "hanabi", "hand"}, root


def test_no_import_cycle():
    """No cycle among the project's modules: none at module level, and none hidden by
    putting one side's import into a function (only ``if TYPE_CHECKING`` imports, never
    run, are left out)."""
    graph = {m: sorted({t for t, _, _ in imports(m, everywhere=True) if t in MODULES and t != m}) for m in MODULES}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in graph:
        if m not in state:
            cycle = visit(m)
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_private_name_across_packages():
    """``from X import _name`` (or a private module ``X._m``) only from the importer's own
    package."""
    bad = []
    for m in MODULES:
        own = m if MODULES[m].name == "__init__.py" else m.rpartition(".")[0]
        for target, names, line in imports(m, everywhere=True):
            home = target if target in MODULES and MODULES[target].name == "__init__.py" else target.rpartition(".")[0]
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            private += [p for p in target.split(".") if p.startswith("_") and not p.startswith("__")]
            if private and not (home == own or home.startswith(own + ".")):
                bad.append(f"{MODULES[m].relative_to(REPO)}:{line}: {target} {private}")
    assert not bad, "\n".join(bad)


# what each part may import from the project, besides itself (module level and inside functions)
BOTTOM = ("solver.errors",)
# the one writer of output files (it imports only the errors): what writes a file takes it
WRITER = "solver.common.outputs"
ALLOWED: dict[str, tuple[str, ...]] = {
    "solver.errors": (),
    "solver.kernel": BOTTOM,
    "solver.common": BOTTOM,
    # the rules engines: the Hanabi one only the shared errors; Hand's nothing of the
    # library (both read JSON text through the one reader, which imports nothing)
    "solver.hanabi.rules": (*BOTTOM, "solver.common.jsontext"),
    "solver.hand.rules": ("solver.common.jsontext",),
    "solver.hanabi.search": (*BOTTOM, "solver.kernel", "solver.hanabi.rules"),
    "solver.hand.search": ("solver.kernel", "solver.hand.rules"),
    "solver.hanabi.chances": (*BOTTOM, "solver.kernel", "solver.hanabi.rules"),
    # the encodings are witnesses independent of the search: the rules engine only (and
    # the greedy strategy, built on it alone); portfolio and split solve take everything
    "solver.hanabi.methods": (*BOTTOM, WRITER, "solver.kernel", "solver.hanabi.rules", "solver.hanabi.search"),
    "solver.hanabi.analysis": (*BOTTOM, WRITER, "solver.hanabi.rules", "solver.hanabi.search", "solver.hanabi.methods",
                               "solver.hanabi.chances"),
    "solver.hand.analysis": ("solver.hand.rules", "solver.hand.search"),
    "solver.hanabi.batch": (*BOTTOM, "solver.common", "solver.hanabi.rules", "solver.hanabi.methods"),
    "solver.hand.batch": (*BOTTOM, "solver.common", "solver.hand", "solver.hand.rules", "solver.hand.search"),
    # the public APIs: each game's parts (solver itself is Hanabi's)
    "solver.hanabi": ("solver.hanabi.rules",),
    "solver.hand": ("solver.hand.rules", "solver.hand.search", "solver.hand.analysis"),
    "solver": (*BOTTOM, "solver.hanabi.rules", "solver.hanabi.methods", "solver.hanabi.analysis"),
    # the puzzles: each game's public API only
    "puzzles.hanabi": ("solver", *BOTTOM, WRITER, "solver.hanabi.rules", "solver.hanabi.analysis",
                       "solver.hanabi.chances"),
    "puzzles.hand": ("solver.hand", "solver.hand.rules", WRITER),
    "puzzles": (),
    # the board in the browser, above the library (the commands start it)
    "web": (*BOTTOM, "solver.common", "solver.hanabi.rules", "solver.hanabi.analysis", "solver.hanabi.batch",
            "solver.hand.rules", "solver.hand.analysis"),
}
SAT_CPSAT_ALLOWED = (*BOTTOM, WRITER, "solver.hanabi.rules", "solver.hanabi.methods.strategy",
                     "solver.hanabi.methods.sat", "solver.hanabi.methods.cpsat")


def _allowed(part: str, target: str) -> bool:
    return any(target == a or target.startswith(a + ".") for a in (part, *ALLOWED[part])) if part != "solver" \
        else target == "solver" or any(target == a or target.startswith(a + ".") for a in ALLOWED[part])


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_imports_run_one_way(part):
    members = [m for m in MODULES if part_of(m) == part]
    assert members, f"no module in {part}"
    bad = []
    for m in members:
        for target, _, line in imports(m, everywhere=True):
            if target.startswith("cli") or not _allowed(part, target):
                bad.append(f"{MODULES[m].relative_to(REPO)}:{line} imports {target}")
            elif ".methods." in m and m.split(".")[3] in ("sat", "cpsat"):
                if not any(target == a or target.startswith(a + ".") for a in SAT_CPSAT_ALLOWED):
                    bad.append(f"{MODULES[m].relative_to(REPO)}:{line} imports {target} (an encoding: the rules only)")
    assert not bad, "\n".join(bad)


def test_the_shared_json_reader_imports_nothing():
    assert not imports("solver.common.jsontext", everywhere=True)


def test_the_one_writer_imports_only_the_errors():
    assert {target for target, _, _ in imports(WRITER, everywhere=True)} <= {"solver.errors"}


def test_every_module_has_a_part_with_rules():
    assert {part_of(m) for m in MODULES} <= set(ALLOWED) | {"cli"}, \
        {part_of(m) for m in MODULES} - set(ALLOWED) - {"cli"}


def test_click_only_in_the_commands():
    for m, path in MODULES.items():
        if not m.startswith("cli"):
            tree = ast.parse(path.read_text())
            used = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            used |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
            assert "click" not in used, f"{path.relative_to(REPO)} imports click"


def test_importing_the_library_loads_no_puzzle_nor_command():
    """At run time: importing every library module loads no puzzle module and no command
    (the compiled kernels are loaded through their loaders: imported first on its own, a
    compiled module meets its loader half-initialised)."""
    code = ("import pkgutil, importlib, sys, solver\n"
            "for m in pkgutil.walk_packages(solver.__path__, 'solver.'):\n"
            "    if not m.name.startswith('solver.kernel.compiled'):\n"
            "        importlib.import_module(m.name)\n"
            "top = ('puzzles', 'cli', 'click', 'web', 'starlette')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in top))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert out.strip() == "[]"


def test_puzzles_take_no_private_attribute():
    """The puzzles use the library's public names only (no ``module._name``)."""
    for m, path in MODULES.items():
        if m.startswith("puzzles"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                    assert isinstance(node.value, ast.Name) and node.value.id == "self", \
                        f"{path.relative_to(REPO)}:{node.lineno} uses the private name {node.attr}"
