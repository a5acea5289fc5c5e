"""The store's layout: each SQL statement written in one module, and no import loop between its modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "bot" / "store"
STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE) ")


def _module_imports(path: Path) -> set[str]:
    """The bot.store modules a module imports anywhere (at the top or inside a function)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    out.add(node.module.split(".")[0])
                else:
                    out.update(alias.name for alias in node.names)
            elif node.level == 0 and node.module and node.module.startswith("bot.store"):
                out.add(node.module.split(".")[2] if node.module.count(".") >= 2 else "__init__")
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names if a.name.startswith("bot.store."))
    return out


def _statements(path: Path) -> set[str]:
    """The SQL statements written in a module, placeholders and spacing made alike (``?``, one space)."""
    out = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    for node in ast.walk(tree):
        if id(node) in parts:  # a piece of an f-string, read with the whole below
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        if STATEMENT.match(text):
            text = re.sub(r"\$\d+|(?<!:):[A-Za-z_]\w*|\?", "?", text)
            out.add(" ".join(text.split()))
    return out


def test_the_store_modules_import_each_other_without_a_loop():
    graph = {p.stem: _module_imports(p) & {q.stem for q in STORE.glob("*.py")} for p in STORE.glob("*.py")}
    assert graph["base"] == {"rows", "urls"}  # the interface knows no backend

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import loop: {' → '.join((*path, name))}"
        for imported in graph[name]:
            visit(imported, (*path, name))

    for name in graph:
        visit(name, ())


def test_no_sql_statement_is_written_in_two_store_modules():
    modules = {p.stem: _statements(p) for p in STORE.glob("*.py")}
    assert len(modules["sql"]) > 40  # the shared statements are found
    for a in modules:
        for b in modules:
            if a < b:
                assert not modules[a] & modules[b], f"written in both {a}.py and {b}.py"
