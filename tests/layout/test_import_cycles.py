"""No import circles in the package (issue 27), imports of ``TYPE_CHECKING`` blocks and functions included.

The graph is read from the source with `ast`, every ``import`` statement wherever it stands, so an
import a type checker alone follows, or one a function makes late, counts as any other: a circle
hidden that way is a circle all the same. An import names a module (``from shutthebox.core import
dice``: ``shutthebox.core.dice``) or the module whose names it takes. The contract ``no-circles`` of
``.importlinter`` (`acyclic_siblings`) holds the same between sibling packages as well.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Set
from pathlib import Path

import shutthebox

PACKAGE = Path(shutthebox.__file__).resolve().parent


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.Import | ast.ImportFrom, module: str, package: bool, known: Set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    source = node.module or ""
    if node.level:
        base = module.split(".") if package else module.split(".")[:-1]
        source = ".".join([*base[: len(base) - node.level + 1], *([source] if source else [])])
    return [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source for alias in node.names]


def import_graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports, wherever the import is."""
    files = {_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for named in _targets(node, module, path.name == "__init__.py", files.keys()):
                target = named
                while target not in files and "." in target:  # a name of a module: that module
                    target = target.rpartition(".")[0]
                if target in files and target != module:
                    imported.add(target)
        graph[module] = imported
    return graph


def circles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    held: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        held.add(root)
        while work:
            module, rest = work[-1]
            step = next(rest, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    held.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in held:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    held.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d", "f"}, "f": {"e"}}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["e", "f"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_follows_imports_of_type_checking_blocks_and_functions() -> None:
    graph = import_graph()
    assert "shutthebox.core.dice" in graph["shutthebox.core.chance"]
    assert "shutthebox.core.match" in graph["shutthebox"]  # its TYPE_CHECKING block
    assert "shutthebox.strategy.advice" in graph["shutthebox.cli.hint"]  # an import in a function


def test_the_package_has_no_import_circle() -> None:
    found = circles(import_graph())
    assert not found, "\n".join(" <-> ".join(circle) for circle in found)
