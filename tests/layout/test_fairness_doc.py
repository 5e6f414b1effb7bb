"""docs/fairness.md holds the few lines of Python anyone can run to check a game's dice: they are
read out of the page and run here, so the page cannot drift from the scheme.

- the lines give the known answers of ``tests/vectors/fair-dice.json`` (commitment, dice, and which
  dice skipped a first byte of 252 or more), the vectors the Python and JavaScript tests share;
- run as a script on a finished game's record, they agree with the program's dice, and stop at the
  event of a changed die;
- they need nothing but the standard library.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shutthebox import Game, Rules
from shutthebox.core.fair import FairDice
from tests.support.drive import finish

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "fairness.md"
VECTORS = json.loads((ROOT / "tests" / "vectors" / "fair-dice.json").read_text(encoding="utf-8"))
MARKER = "<!-- check: fair-dice -->"


def code_block() -> str:
    """The Python block right after the marker on the page."""
    text = PAGE.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, f"docs/fairness.md needs exactly one {MARKER}"
    after = text[text.index(MARKER) + len(MARKER):].lstrip("\n")
    assert after.startswith("```python\n"), "the marker must be followed by a ```python block"
    return after.removeprefix("```python\n").split("\n```", 1)[0] + "\n"


def page_functions() -> dict[str, Any]:
    """The page's lines run as a module (not as a script: nothing is read from the command line)."""
    namespace: dict[str, Any] = {"__name__": "fairness_md"}
    exec(compile(code_block(), str(PAGE), "exec"), namespace)  # the page's own lines
    return namespace


def test_the_lines_import_only_the_standard_library() -> None:
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(code_block()))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported <= {"hashlib", "hmac", "json", "sys"}, imported
    assert {"hashlib", "hmac"} <= imported


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["commitment"][:8])
def test_the_lines_reproduce_the_known_answers(case: dict[str, Any]) -> None:
    page = page_functions()
    seed, seeds, count = bytes.fromhex(case["server_seed"]), case["client_seeds"], len(case["dice"])
    assert hashlib.sha256(seed).hexdigest() == case["commitment"]
    assert [page["die"](seed, seeds, k) for k in range(count)] == case["dice"]
    rejected = [k for k in range(count) if page["digest"](seed, seeds, k)[0] >= 252]
    assert rejected == case["first_byte_rejected"]


def fair_record(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    server = hashlib.sha256(b"fairness.md").digest()
    game = Game(Rules(), ["Ana", "Luis"], dice=FairDice(server, ["ana", "luis"]))
    finish(game, random.Random(5))
    data: dict[str, Any] = game.record().to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, data


def run_script(tmp_path: Path, record: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check_dice.py"
    script.write_text(code_block(), encoding="utf-8")
    return subprocess.run([sys.executable, "-I", str(script), str(record)], capture_output=True,
                          text=True, timeout=60, check=False, cwd=tmp_path)


def test_the_script_checks_a_real_game_and_stops_at_a_changed_die(tmp_path: Path) -> None:
    path, data = fair_record(tmp_path)
    dice = sum(len(event["roll"]) for event in data["events"] if "roll" in event)
    done = run_script(tmp_path, path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{dice} dice checked: each is the one the committed seed gives\n"
    index = next(i for i, event in enumerate(data["events"]) if "roll" in event and i > 4)
    data["events"][index]["roll"][0] = data["events"][index]["roll"][0] % 6 + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_script(tmp_path, path)
    assert done.returncode == 1 and done.stderr.startswith(f"event {index}: die ")
    data["fairness"]["server_seed"] = hashlib.sha256(b"another").hexdigest()
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_script(tmp_path, path)
    assert done.returncode == 1 and done.stderr == "the server seed is not the one committed to\n"
