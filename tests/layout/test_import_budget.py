"""Every module imports at its top (issue 27): no import inside a function, no ``TYPE_CHECKING`` block.

The start-up budget of ``shutthebox --help`` and ``shutthebox scores`` (`test_fast_start`) lives in
a few modules only, the ones those commands load; each of the others states its imports at the top,
so what a module needs is read in one place and an import circle shows at once. The exceptions are
listed here, each with why, and with what it may import late (None: anything).
"""

from __future__ import annotations

import ast
from pathlib import Path

import shutthebox

PACKAGE = Path(shutthebox.__file__).resolve().parent

BUDGET = "the start-up budget of --help and scores (tests/layout/test_fast_start.py)"
LAZY_PACKAGE = "a package whose names load on demand (PEP 562 __getattr__); the block names them for mypy"

ALLOWED: dict[str, tuple[frozenset[str] | None, str]] = {
    "shutthebox.cli.main": (None, BUDGET + ": the entry imports a command's modules when asked for"),
    "shutthebox.cli.parser": (None, BUDGET + ": the parser of every command"),
    "shutthebox.cli.flags.*": (None, BUDGET + ": the flags of each command, part of the parser"),
    "shutthebox.storage.reader": (None, BUDGET + ": the fast history reader, SQLAlchemy only as fallback"),
    "shutthebox.cli.scores": (frozenset({"json"}), BUDGET + ": the run of scores, json for --json alone"),
    "shutthebox.storage.location": (None, BUDGET + ": where the history is, platformdirs only off Linux"),
    "shutthebox.i18n": (None, BUDGET + ": the i18n runtime, Babel only to compile a catalog"),
    "shutthebox.core.options": (None, BUDGET + ": the rules' enums, named by the words scores shows"),
    "shutthebox": (None, LAZY_PACKAGE),
    "shutthebox.storage": (None, LAZY_PACKAGE + " (SQLAlchemy only for the names that need it)"),
    "shutthebox.web": (None, LAZY_PACKAGE),
    "shutthebox.cli.hint": (
        frozenset({"shutthebox.strategy.advice", "shutthebox.strategy.cost"}),
        "a hint on a few tiles answers in plain Python (strategy.choices) without NumPy's solver nor a "
        "match (test_fast_start, issue 14): the solver only for a bigger position",
    ),
    "shutthebox.cli.simulate": (frozenset({"matplotlib"}), "the sim extra, for --plot alone"),
    "shutthebox.storage.database": (
        frozenset({"shutthebox.storage.migrating"}),
        "Alembic only for a database not at the newest revision: one at it opens with a query (issue 30)",
    ),
    "shutthebox.cli.play": (
        frozenset({"shutthebox.term.app", "shutthebox.term.saving"}),
        "the tui extra: without Textual, line by line; without SQLAlchemy, played and not saved",
    ),
    "shutthebox.reports.atlas": (frozenset({"matplotlib"}), "the sim extra: no plots without it"),
    "shutthebox.web.app": (
        frozenset({"shutthebox.web.redishub"}),
        "the redis extra, only when a Redis URL is configured: the hub of several processes",
    ),
    "shutthebox.web.rates": (frozenset({"redis"}), "the redis extra, only when the limits are kept in Redis"),
    "shutthebox.cli.serve": (frozenset({"redis"}), "the redis extra, only when --redis is given"),
    "shutthebox.ops.throwaway": (
        frozenset({"psycopg"}),
        "the postgres extra, only for a throwaway PostgreSQL",
    ),
    "shutthebox.ops.loadtest.server": (
        frozenset({"shutthebox.ops"}),
        "throwaway services: refused if not there",
    ),
    "shutthebox.web.shared": (
        frozenset({"PIL"}),
        "Pillow, for the shared board as PNG: refused in words if absent",
    ),
}
"""Module (``package.*``: every module of the package) -> what it may import late (a name covers its
submodules; None: anything), and why."""


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _allowance(module: str) -> tuple[frozenset[str] | None, str] | None:
    if module in ALLOWED:
        return ALLOWED[module]
    stars = (kept for name, kept in ALLOWED.items() if name.endswith(".*") and module.startswith(name[:-1]))
    return next(stars, None)


def _covered(imported: list[str], late: frozenset[str] | None) -> bool:
    if late is None:
        return True
    wanted = [any(name == ok or name.startswith(f"{ok}.") for ok in late) for name in imported]
    return bool(imported) and all(wanted)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return [alias.name for alias in node.names]


def offences(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """(line, what, modules) for each import inside a function and each ``TYPE_CHECKING`` block."""
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.append((node.lineno, "a TYPE_CHECKING block", []))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found.append((inner.lineno, "an import in a function", _imported(inner)))
    return found


def test_every_module_imports_at_its_top() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _name(path)
        allowance = _allowance(module)
        for line, what, imported in offences(ast.parse(path.read_text(encoding="utf-8"))):
            if allowance is not None and _covered(imported, allowance[0]):
                continue
            where = path.relative_to(PACKAGE.parent)
            wrong.append(f"{where}:{line}: {what} {' '.join(imported)}".rstrip())
    assert not wrong, "\n".join(wrong)


def test_every_exception_is_a_module_and_says_why() -> None:
    modules = {_name(path) for path in PACKAGE.rglob("*.py")}
    for module, (_late, why) in ALLOWED.items():
        assert module in modules or module.endswith(".*"), module
        assert len(why) > 20, module
