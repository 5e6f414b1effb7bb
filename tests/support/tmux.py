"""The full-screen game in a real terminal: a tmux session of a size, keys sent to it, its screen read.

What the Textual pilot cannot show — a burst of keys as a terminal sends them, a signal to the
process, the terminal's own modes after it ends — is read here from tmux. Each terminal has a tmux
server of its own (``-L``), killed at the end, so a test never meets another's sessions.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["Terminal", "terminal"]


class Terminal:
    """A tmux pane running one command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True, timeout=10
        )
        return done.stdout

    def screen(self, *, escapes: bool = False) -> str:
        """The pane's text now (``escapes``: with the escape sequences of its colours and attributes)."""
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", "game")

    def keys(self, *keys: str) -> None:
        """Send ``keys`` (tmux names: ``Enter``, ``q``) in one write, as a held key comes."""
        self.tmux("send-keys", "-t", "game", *keys)

    def pane(self, name: str) -> str:
        """A tmux format of the pane: ``alternate_on``, ``cursor_flag``, ``mouse_any_flag``…"""
        return self.tmux("display-message", "-p", "-t", "game", f"#{{{name}}}").strip()

    def pid(self) -> int:
        """The game's process: the one child of the pane's shell."""
        shell = int(self.pane("pane_pid"))
        children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
        assert len(children) == 1, children
        return int(children[0])

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        """The screen once it shows ``text`` (else the test fails, showing the screen)."""
        end = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if text in shown:
                return shown
            if time.monotonic() > end:
                pytest.fail(f"{text!r} never shown; the screen:\n{shown}")
            time.sleep(0.1)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "game", "-x", str(width), "-y", str(height))


@contextmanager
def terminal(
    args: list[str], *, tmp: Path, size: tuple[int, int] = (80, 24), env: dict[str, str] | None = None
) -> Iterator[Terminal]:
    """``shutthebox ARGS`` in a tmux pane of ``size``, its data kept under ``tmp``; once the command
    ends the pane says ``exit=CODE`` and stays, so its last screen and modes can be read. ``env``:
    more variables (``NO_COLOR``, unset otherwise)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    socket = f"stb-{uuid.uuid4().hex[:12]}"
    variables = {
        **(env or {}),
        "SHUTTHEBOX_DB": f"sqlite:///{tmp / 'games.db'}", "HOME": str(tmp), "XDG_DATA_HOME": str(tmp),
        "PYTHONPATH": os.pathsep.join(sys.path), "LANG": "C.UTF-8", "TERM": "tmux-256color",
    }
    exports = " ".join(f"{name}={shlex.quote(value)}" for name, value in variables.items())
    command = f"env -u NO_COLOR {exports} {shlex.quote(sys.executable)} -m shutthebox {shlex.join(args)}"
    command += "; echo exit=$?; exec sleep 600"  # the pane stays: its last screen and modes are read
    width, height = size
    term = Terminal(socket)
    term.tmux("new-session", "-d", "-s", "game", "-x", str(width), "-y", str(height), "sh", "-c", command)
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False, timeout=10)
