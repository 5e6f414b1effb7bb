"""The web app's own floors (`.importlinter`) bite: a service that reaches for HTTP, or a room that
reaches up to the services that hold it (an import circle), breaks a contract."""

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
SERVICES = "answer calls, not requests"
"""The contract that keeps HTTP out of the web's services (its name, in part)."""


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / ".importlinter"), "--no-cache"],
        cwd=tree, env=env, capture_output=True, text=True, check=False,
    )


@pytest.mark.parametrize(
    ("module", "imported", "contract"),
    [
        ("web/rooms.py", "fastapi", SERVICES),  # a service answering requests itself
        ("web/worker.py", "shutthebox.web.sockets", SERVICES),  # a service reaching for a socket
        ("web/room.py", "shutthebox.web.worker", "No import circles"),  # the game reaching up its holder
        ("web/copies.py", "shutthebox.web.fanout", "No import circles"),  # a floor into the one above
    ],
)
def test_an_import_across_the_webs_floors_breaks_its_contract(
    tmp_path: Path, module: str, imported: str, contract: str
) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(PACKAGE, tree / "src" / "shutthebox", ignore=shutil.ignore_patterns("__pycache__"))
    source = tree / "src" / "shutthebox" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\nimport {imported}  # noqa\n", encoding="utf-8")
    result = lint(tree)
    assert result.returncode != 0
    broken = result.stdout.partition("Broken contracts")[2]
    assert contract in " ".join(broken.split()) and imported in broken
