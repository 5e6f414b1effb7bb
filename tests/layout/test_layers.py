"""The floors of the house: the import-linter contracts hold, and they bite.

`make lint` runs ``lint-imports`` on the package; these tests show the layers
contract itself works: a copy of the package with one import pointing up a
floor (or across to a sibling wing) must fail it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import shutthebox

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(shutthebox.__file__).parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter with the project's contracts over the package copied into ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / ".importlinter"), "--no-cache"],
        cwd=tree, env=env, capture_output=True, text=True, check=False,
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    shutil.copytree(PACKAGE, tree / "src" / "shutthebox", ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def test_the_package_keeps_every_contract(copy: Path) -> None:
    result = lint(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout
    assert "top to bottom" in result.stdout  # the layers contract was among those checked


@pytest.mark.parametrize(
    ("module", "upward"),
    [
        ("core/rules.py", "shutthebox.strategy.bots"),  # the core reaches up to the strategy
        ("core/match.py", "shutthebox.i18n"),  # the core reaches up to the words
        ("strategy/advice.py", "shutthebox.storage"),  # a sibling of the same floor
        ("storage/games.py", "shutthebox.i18n"),  # storage reaches up to the words
        ("i18n/__init__.py", "shutthebox.term.narrate"),  # words reach up to an interface
        ("term/plain.py", "shutthebox.web.rooms"),  # one wing into the other
        ("web/rooms.py", "shutthebox.cli.main"),  # an interface reaches up to the command line
    ],
)
def test_an_import_up_a_floor_breaks_the_layers_contract(
    copy: Path, tmp_path: Path, module: str, upward: str
) -> None:
    tree = tmp_path / "bad"
    shutil.copytree(copy, tree)
    source = tree / "src" / "shutthebox" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\nimport {upward}  # noqa\n", encoding="utf-8")
    result = lint(tree)
    assert result.returncode != 0
    broken = result.stdout.partition("Broken contracts")[2]
    assert "top to bottom" in broken  # the layers contract is among the broken ones
    assert upward in broken  # the report names the import that crossed a floor


def test_python_dash_m_runs_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "shutthebox", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"shutthebox {shutthebox.__version__}"
