"""Issue 30's minor items for the command line: units, words, one style of error, records checked alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shutthebox import Game, Move, Roll, Rules, ScriptedDice
from shutthebox.cli import main

SRC = str(Path(__file__).resolve().parents[2] / "src")


def run_text(capsys: pytest.CaptureFixture[str], lang: str, *argv: str) -> str:
    assert main(["--lang", lang, *argv]) == 0
    return capsys.readouterr().out


def cli(*argv: str, home: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command as a person runs it: its own process, its exit status, its two streams."""
    env = {**os.environ, "PYTHONPATH": SRC, "SHUTTHEBOX_LANG": "en"}
    if home is not None:
        env["SHUTTHEBOX_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "shutthebox", "--lang", "en", *argv],
        capture_output=True, text=True, env=env, input=stdin, timeout=120, check=False,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def solo_record(tmp_path: Path) -> Path:
    game = Game(Rules(mode="solo"), ["Ana"], dice=ScriptedDice([Roll.of(4, 5), Roll.of(1, 1)]))
    game.roll()
    game.act(Move.parse("6+2+1"))
    game.roll()
    path = tmp_path / "game.json"
    game.record().save(path)
    return path


# -- 1. units --------------------------------------------------------------------------------------


def test_hint_for_a_chance_says_percentages_and_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "hint", "--open", "1,2,3,4,5,6,7,8,9", "--dice", "5,6", "--objective", "win")
    assert "(loss" not in out and "0.501530" not in out
    assert "50.2 %" in out and "3.6 percentage points lost" in out
    assert "Ranked best first" in out and "  1. shut 9+2" in out and "  2. shut 8+3" in out


def test_hint_for_the_score_says_points(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "hint", "--open", "1,4,5,8", "--dice", "3,6")
    assert "0.10 points lost" in out and "(loss" not in out
    out = run_text(capsys, "es", "hint", "--open", "1,4,5,8", "--dice", "3,6")
    assert "0,10 puntos perdidos" in out or "0.10 puntos perdidos" in out


def test_review_says_the_unit_of_a_loss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_text(capsys, "en", "review", str(solo_record(tmp_path)))
    assert "14.71 points lost" in out and "loss 14." not in out
