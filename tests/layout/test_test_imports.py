"""The tests' own imports: one root for what they share (``tests.support``), and no test module
imported by another (issue 27).

A test module imported by another runs twice under two names (its module-level work, its fixtures);
a helper imported as ``web.helpers`` in one file and ``tests.web.helpers`` in the next is two
modules with two states. ``pyproject.toml`` puts only the repository's root on ``sys.path`` and
collects in importlib mode, which adds no test folder to it; this test reads every file of
``tests/`` and refuses any other way in.
"""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
SUPPORT = TESTS / "support"


@cache
def own_names() -> frozenset[str]:
    """Every top-level name a file or folder of ``tests/`` answers to when some folder of ``tests/``
    is on ``sys.path`` (as pytest's default import mode puts them)."""
    files = {path.stem for path in TESTS.rglob("*.py")}
    folders = {path.name for path in TESTS.rglob("*") if path.is_dir()}
    return frozenset((files | folders) - {"__init__", "__pycache__"})


def installed_elsewhere(name: str) -> bool:
    """Whether ``name`` is a module found outside ``tests/`` (the standard library, a package)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    places = [spec.origin] if spec is not None and spec.origin else []
    places += list(spec.submodule_search_locations or []) if spec is not None else []
    return any(not Path(place).resolve().is_relative_to(TESTS) for place in places)


def refusal(module: str) -> str | None:
    """Why the tests may not import ``module``, or None."""
    top, _, rest = module.partition(".")
    if top == "tests":
        if rest == "support" or rest.startswith("support."):
            return None
        return f"{module} is a test module, not a helper: move what it shares to tests.support"
    if top in own_names() and not installed_elsewhere(top):
        return f"{module} is the tests' own file under a second root: import it as tests.support.…"
    return None


def problems(source: str, where: str = "<source>") -> list[str]:
    """Every import of ``source`` that is refused, with its line."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        modules: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(f"{where}:{node.lineno}: a relative import names a module by a second root")
                continue
            assert node.module is not None
            if node.module in ("tests", "tests.support"):
                modules = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif (
            isinstance(node, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "pytest_plugins" for target in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):  # plugins named for pytest to import
            modules = [item.value for item in node.value.elts if isinstance(item, ast.Constant)]
        for module in modules:
            reason = refusal(module)
            if reason is not None:
                found.append(f"{where}:{node.lineno}: {reason}")
    return found


def test_no_test_file_imports_a_test_module_or_a_helper_by_a_second_root() -> None:
    found = [
        problem
        for path in sorted(TESTS.rglob("*.py"))
        for problem in problems(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    ]
    assert found == []


def test_what_the_tests_share_lives_in_tests_support() -> None:
    """Outside ``tests/support`` a Python file is a test module, a conftest or a package marker."""
    strays = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if not path.is_relative_to(SUPPORT)
        and not path.name.startswith("test_")
        and path.name not in ("conftest.py", "__init__.py")
    ]
    assert strays == []


@pytest.mark.parametrize(
    "source",
    [
        "from web.helpers import create",  # a helper under the folder's own root
        "from tests.web.helpers import create",  # a helper outside tests.support
        "from tests.web.test_api import SOLO",  # a test module imported by another
        "from cli.test_cli import cli",  # the same, by a second root
        "from drive import play",  # a helper of tests/ by its bare name
        "import oracle",  # tests/support/oracle.py by its bare name
        "from e2e.conftest import PHONE",  # a conftest is no helper module
        "from .helpers import create",  # relative: the module's name depends on the import mode
        "from tests import web",
        "def f():\n    from term.tui_support import state\n",  # nested imports count too
        'pytest_plugins = ["services"]',
    ],
)
def test_each_second_way_in_is_refused(source: str) -> None:
    assert problems(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "from tests.support.web import create",
        "from tests.support import drive",
        "import tests.support.oracle",
        'pytest_plugins = ["tests.support.services"]',
        "from shutthebox.web import create_app",  # the package's own web is not the tests' folder
        "from tools.catalogs import PSEUDO",  # the repository's tools, from its root
        "import pytest",
        "import json",
    ],
)
def test_the_one_root_is_accepted(source: str) -> None:
    assert problems(source) == []
