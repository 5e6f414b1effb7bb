"""``shutthebox daily --server URL``: a ranked attempt on a real server, line by line from the
terminal; the profile made there once and its key kept; a second attempt refused in one line."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.cli import cli
from tests.support.serving import Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("daily-remote")) as started:
        yield started


class Terminal(io.StringIO):
    """Standard input and output at once, answering each prompt as a player would: Enter to roll,
    two dice, and the tiles the prompt gives as an example (a legal move)."""

    def readline(self, size: int = -1) -> str:
        prompt = self.getvalue().rsplit("\n", 1)[-1]
        example = re.search(r"\(e\.g\. ([\d ]+)\)", prompt)
        if example:
            return example[1] + "\n"
        return "2\n" if "One die or two" in prompt else "\n"


def play(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str, str]:
    """The command with the terminal above; its status, its output and its error output."""
    from shutthebox.cli.main import main

    terminal, errors = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", terminal)
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stderr", errors)
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    return status, terminal.getvalue(), errors.getvalue()


@pytest.mark.slow
def test_a_ranked_attempt_from_the_terminal(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = play(monkeypatch, "--lang", "en", "daily", "Ana", "--server", server.url)
    assert status == 0, err
    assert "Your profile Ana was made on" in out and "ranked" in out
    assert re.search(r"You scored \d+ in \d+ rolls: rank 1 of 1\.", out), out
    assert "the optimal player scored" in out
    keys = json.loads((Path(os.environ["XDG_DATA_HOME"]) / "shutthebox" / "servers.json").read_text())
    assert server.url in keys
    today = httpx.get(f"{server.url}/api/daily").json()["today"]
    board = httpx.get(f"{server.url}/api/daily/{today}/9").json()
    assert [e["player"] for e in board["entries"]] == ["Ana"]
    status, out, err = play(monkeypatch, "--lang", "en", "daily", "--server", server.url)
    assert status == 2 and "one ranked attempt a day" in err and "Traceback" not in err


def test_an_unreachable_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "daily", "--server", "http://127.0.0.1:9")
    assert status == 2 and "cannot be reached" in err and "Traceback" not in err
