"""No import loop in engine/, render/ or bot/: the graph of which module imports which is acyclic.

The graph is read from the source (the AST of every module), so it counts every import:
at module level, inside functions and under ``if TYPE_CHECKING:``. Importing ``a.b.c`` from
outside package ``a.b`` also runs ``a/__init__`` and ``a/b/__init__``, so those count as
imported too (a package whose ``__init__`` imports back is a loop at run time).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "bot")


def module_names(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _ancestors(name: str) -> list[str]:
    """``a.b.c`` → ``["a", "a.b"]``."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module → the modules of ``packages`` it imports (directly, anywhere in its source)."""
    modules = module_names(root, packages)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base_parts = here[:len(here) - (node.level - 1)]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                targets.add(base)
                # ``from package import module`` imports that module
                targets.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules)
        for target in targets:
            if target not in modules:
                continue
            mine = set(_ancestors(name)) | {name}
            graph[name].update(t for t in (*_ancestors(target), target) if t in modules and t not in mine)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A loop of imports (first module repeated at the end), or None if the graph is acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_no_module_of_engine_render_or_bot_imports_itself_through_others():
    graph = import_graph(ROOT)
    assert len(graph) > 100 and any(graph.values())  # the tree was read
    assert find_cycle(graph) is None, " → ".join(find_cycle(graph) or [])


def test_a_loop_held_together_by_an_import_inside_a_function_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from . import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def late():\n    from .a import thing\n    return thing\n")
    assert find_cycle(import_graph(tmp_path, ("pkg",))) == ["pkg.a", "pkg.b", "pkg.a"]


def test_a_package_init_that_imports_a_module_importing_it_from_outside_is_a_loop(tmp_path):
    for folder in ("pkg", "pkg/inner", "other"):
        (tmp_path / folder).mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "inner" / "__init__.py").write_text("from ...other.user import x\n")
    (tmp_path / "pkg" / "inner" / "core.py").write_text("")
    (tmp_path / "other" / "__init__.py").write_text("")
    (tmp_path / "other" / "user.py").write_text("from pkg.inner.core import y\n")
    assert find_cycle(import_graph(tmp_path, ("pkg", "other"))) is not None


def test_siblings_of_a_package_importing_each_other_through_its_init_are_no_loop(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from .b import B\n")
    (tmp_path / "pkg" / "a.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "b.py").write_text("from .a import X\nB = X\n")
    assert find_cycle(import_graph(tmp_path, ("pkg",))) is None
