"""With only the base dependencies installed, every command does its work or says, in one line,
which extra to install: never a ``ModuleNotFoundError`` traceback.

A venv of its own (no system site packages) gets the base dependencies of ``pyproject.toml`` at the
versions ``requirements.lock`` pins, from the package index pip is configured with; the package is
the source tree under test, on ``PYTHONPATH``. Each command then runs there as a person would run it.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import subprocess
import tomllib
import venv
from pathlib import Path

import pytest

import shutthebox
from shutthebox import Game, Rules
from shutthebox.cli.main import COMMANDS
from shutthebox.core.fair import FairDice
from tests.support.drive import finish

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(shutthebox.__file__).resolve().parents[1]
EXTRAS = ("fastapi", "uvicorn", "sqlalchemy", "textual", "matplotlib", "httpx", "websockets")
"""Libraries of the extras: none may be importable in the base venv, else it proves nothing."""
REFUSAL = re.compile(r"^shutthebox [a-z]+: error: .* pip install 'shutthebox\[(\w+)\]'")

WORK = "work"
CASES: list[tuple[list[str], str]] = [
    (["play", "Ana", "--plain", "--bot", "easy", "--seed", "1"], WORK),  # stdin closed: abandoned
    (["daily", "--json"], "tui"),
    (["train", "Ana"], "tui"),
    (["cheatsheet", "--tiles", "4"], WORK),
    (["atlas", "atlas", "--tiles", "3", "--games", "100"], WORK),
    (["scores"], WORK),
    (["stats", "Ana"], "tui"),
    (["replay", "game.json"], WORK),
    (["verify", "game.json"], WORK),
    (["solve", "--tiles", "4"], WORK),
    (["hint", "--open", "1,2,3,4", "--roll", "3"], WORK),
    (["simulate", "--games", "200", "--no-progress"], WORK),
    (["review", "game.json"], WORK),
    (["serve"], "web"),
    (["loadtest", "--spawn", "--games", "1"], "web"),
]
"""Each command with arguments that do its work, and what it answers with the base alone: its work,
or a refusal naming the extra it needs."""


def base_pins() -> list[str]:
    """``name==version`` for each base dependency, as ``requirements.lock`` pins it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower() for spec in project["dependencies"]}
    lines = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    pins = [line.strip() for line in lines if line.partition("==")[0].strip().lower() in wanted]
    assert len(pins) == len(wanted), (wanted, pins)
    return pins


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a venv holding the base dependencies and nothing else."""
    folder = tmp_path_factory.mktemp("base")
    venv.create(folder / "venv", with_pip=True, system_site_packages=False)
    python = folder / "venv" / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *base_pins()],
        capture_output=True, text=True, check=False, timeout=600,
    )
    if done.returncode != 0:
        pytest.skip(f"the base dependencies cannot be installed here: {done.stderr.strip()[-300:]}")
    probe = f"import importlib.util as u; print([n for n in {EXTRAS!r} if u.find_spec(n)])"
    found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]", f"the base venv holds libraries of an extra: {found.stdout}"
    return python


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A folder with the record of a finished game of fair dice in it."""
    game = Game(Rules(tiles=9), ["Ana", "Bea"], dice=FairDice(hashlib.sha256(b"base").digest()))
    finish(game, random.Random(12))
    game.record().save(tmp_path / "game.json")
    return tmp_path


def run(python: Path, place: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(place), "LANG": "C",
        "PYTHONPATH": str(SOURCE), "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
        "SHUTTHEBOX_DB": f"sqlite:///{place / 'history.db'}", "XDG_DATA_HOME": str(place / "data"),
    }
    return subprocess.run(
        [str(python), "-m", "shutthebox", *argv], cwd=place, env=env, capture_output=True, text=True,
        timeout=300, check=False, stdin=subprocess.DEVNULL,
    )


def test_every_command_has_a_case() -> None:
    assert [argv[0] for argv, _answer in CASES] == [command.name for command in COMMANDS]


@pytest.mark.parametrize(("argv", "answer"), CASES, ids=[argv[0] for argv, _answer in CASES])
def test_a_command_does_its_work_or_names_its_extra(
    base: Path, place: Path, argv: list[str], answer: str
) -> None:
    done = run(base, place, *argv)
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "ModuleNotFoundError" not in said, said
    if answer == WORK:
        assert done.returncode == 0, said
        assert done.stdout.strip(), said
        if argv[0] == "cheatsheet":
            assert done.stdout.startswith("<!doctype html>")
        if argv[0] == "atlas":
            assert (place / "atlas" / "index.html").is_file()
    else:
        lines = done.stderr.splitlines()
        assert done.returncode == 2 and len(lines) == 1, said
        refusal = REFUSAL.match(lines[0])
        assert refusal is not None and refusal.group(1) == answer, lines[0]


@pytest.mark.parametrize("name", [command.name for command in COMMANDS])
def test_every_commands_help_needs_no_extra(base: Path, place: Path, name: str) -> None:
    done = run(base, place, name, "--help")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.startswith(f"usage: shutthebox {name}")
