"""A SIGTERM (a terminal closed, a shutdown) ends the full-screen game as q would: the terminal is
given back as it was (main screen, no mouse reporting, the cursor shown) and the game left is kept."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from shutthebox.core.record import GameRecord
from tests.support.tmux import terminal

pytestmark = pytest.mark.slow


def test_sigterm_gives_the_terminal_back_and_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "Ana", "Luis", "--seed", "3", "--lang", "en", "--save", str(path)]
    with terminal(args, tmp=tmp_path) as term:
        term.wait_for("Ana: roll one die to see who starts.")
        assert term.pane("alternate_on") == "1" and term.pane("mouse_any_flag") == "1"
        term.keys("Enter")
        term.wait_for("Ana rolls one die")
        os.kill(term.pid(), signal.SIGTERM)
        shown = term.wait_for("exit=")
        assert term.pane("alternate_on") == "0"  # back on the main screen
        assert term.pane("mouse_any_flag") == "0" and term.pane("mouse_all_flag") == "0"
        assert term.pane("cursor_flag") == "1"  # the cursor shown
    assert "exit=143" in shown  # 128 + SIGTERM, as a shell reports a process ended by it
    assert len(GameRecord.load(path).events) == 1  # the game begun is written, as on leaving
