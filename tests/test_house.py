"""The shape of the package: no import circles, the engine below the tools, each package says
what goes in and what comes out.

The import graph is read from the source (every `import`, function-level ones too, since a
lazy import is still a dependency), with module names as installed: the folders are mapped
to `lumos.*` by pyproject.toml's `package-dir`. This is what the house issue asks to stay
true: a reader finds the tools from folder names, and nothing reaches back up the house.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx
import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
    "package-dir"]
CODE_PACKAGES = {"lumos", "lumos.compiler", "lumos.interpreter"}
TOOLS = ("lumos.api", "lumos.cli", "lumos.reference", "lumos.editor", "lumos.toolkit")
PRIVATE_CHECKED = TOOLS + ("lumos.diagnostics", "lumos.interpreter")


def _modules() -> dict[str, Path]:
    found = {}
    for package in CODE_PACKAGES:
        base = ROOT / PACKAGE_DIRS[package]
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if package == "lumos" and any((base / parts[0]).resolve() == (ROOT / PACKAGE_DIRS[p]).resolve()
                                          for p in CODE_PACKAGES - {"lumos"}):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package] + parts)] = path
    return found


MODULES = _modules()


def _imports(module: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import of the file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            out.append((base, [a.name for a in node.names], node.lineno))
    return out


def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for module, path in MODULES.items():
        g.add_node(module)
        for target, names, _ in _imports(module, path):
            for t in [target] + [f"{target}.{n}" for n in names]:
                if t in MODULES and t != module:
                    g.add_edge(module, t)
    return g


def test_the_package_is_found_where_pyproject_says():
    assert {"lumos.api", "lumos.diagnostics", "lumos.cli", "lumos.compiler.game", "lumos.interpreter.engine",
            "lumos.reference.domain", "lumos.editor.lsp", "lumos.toolkit.expansions"} <= set(MODULES)


def test_no_import_circles():
    cycles = sorted(nx.simple_cycles(_graph()), key=len)
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(c + [c[0]]) for c in cycles[:10])


def test_the_engine_does_not_import_the_tools():
    bad = [f"{m} imports {t}" for m, t in _graph().edges
           if m.startswith(("lumos.compiler", "lumos.interpreter", "lumos.diagnostics")) and t.startswith(TOOLS)]
    assert not bad, "\n".join(bad)


def test_the_interpreter_imports_neither_the_compiler_nor_lark():
    bad = [f"{m}:{line}: imports {t}" for m, p in MODULES.items() if m.startswith("lumos.interpreter")
           for t, _, line in _imports(m, p) if t.startswith(("lumos.compiler", "lark"))]
    assert not bad, "\n".join(bad)


def test_diagnostics_sit_at_the_bottom():
    """Compiler and interpreter report through lumos.diagnostics, which imports neither."""
    g = _graph()
    assert not [t for t in g.successors("lumos.diagnostics")]
    users = set(g.predecessors("lumos.diagnostics"))
    assert any(u.startswith("lumos.compiler") for u in users) and any(u.startswith("lumos.interpreter")
                                                                      for u in users)


def test_no_module_takes_a_private_name_from_another():
    """Shared helpers are public in one small module (lumos.cli.common), never `_private` imports."""
    bad = [f"{m}:{line}: from {t} import {n}" for m, p in MODULES.items() if m.startswith(PRIVATE_CHECKED)
           for t, names, line in _imports(m, p) if t in MODULES for n in names
           if n.startswith("_") and not n.startswith("__")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", sorted(m for m, p in MODULES.items() if p.name == "__init__.py"))
def test_each_package_says_what_goes_in_and_comes_out(package):
    doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 20, f"{package} needs a docstring: what goes in, what comes out"


def test_each_cli_command_has_its_own_module():
    from lumos.cli import COMMANDS, build_parser
    parser = build_parser()
    names = set(parser._subparsers._group_actions[0].choices)
    assert {c.__name__.rpartition(".")[2] for c in COMMANDS} == names
