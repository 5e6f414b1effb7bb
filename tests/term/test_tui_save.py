"""``play --save`` in the full-screen game: each record written as its game ends, a failed write said
in the game and by the exit status. In a real terminal (tmux), as a player meets it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from shutthebox.core.record import GameRecord
from tests.support.tmux import terminal

pytestmark = pytest.mark.slow

ONE_TILE = ["play", "Ana", "--tiles", "1", "--one-die", "never", "--seed", "1", "--lang", "en"]
"""A solo game on one tile with two dice: no roll makes 1, so the first roll ends the game."""


def wait_for_file(path: Path, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists() or not path.read_text():
        if time.monotonic() > end:
            pytest.fail(f"{path} never written")
        time.sleep(0.1)


def test_the_record_is_written_when_the_game_ends_and_outlives_a_sigterm(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with terminal([*ONE_TILE, "--save", str(path)], tmp=tmp_path) as term:
        term.wait_for("Ana: roll two dice.")
        term.keys("Enter")
        term.wait_for("Game record saved to")  # said in the game, as it ends
        wait_for_file(path)
        term.keys("n")  # the next game of the sitting, to its own file as it ends
        term.wait_for("Ana: roll two dice.")
        term.keys("Enter")
        wait_for_file(tmp_path / "game-2.json")
        os.kill(term.pid(), signal.SIGTERM)  # the terminal closed, or the machine shutting down
        term.wait_for("exit=")
    records = [GameRecord.load(file) for file in (path, tmp_path / "game-2.json")]
    assert [(r.players, len(r.events), r.seed) for r in records] == [(("Ana",), 1, 1), (("Ana",), 1, 2)]
    assert sorted(p.name for p in tmp_path.glob("game*.json")) == ["game-2.json", "game.json"]


def test_a_place_that_cannot_be_written_is_refused_before_play(tmp_path: Path) -> None:
    with terminal([*ONE_TILE, "--save", "/proc/game.json"], tmp=tmp_path) as term:
        shown = term.wait_for("exit=")
    assert "exit=2" in shown and "--save '/proc/game.json': cannot be written" in " ".join(shown.split())


def test_a_record_that_cannot_be_written_is_said_in_the_game_and_exits_non_zero(tmp_path: Path) -> None:
    """The place was writable when the game began, and is gone when it ends (a folder removed)."""
    folder = tmp_path / "records"
    folder.mkdir()
    path = folder / "game.json"
    with terminal([*ONE_TILE, "--save", str(path)], tmp=tmp_path) as term:
        term.wait_for("Ana: roll two dice.")
        folder.rmdir()
        term.keys("Enter")
        term.wait_for("The game record could not be written to")
        term.keys("q")
        shown = term.wait_for("exit=")
    assert "exit=1" in shown
    assert "the game record could not be written to" in " ".join(shown.split())
