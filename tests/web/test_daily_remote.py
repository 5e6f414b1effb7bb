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
from typing import Any

import httpx
import pytest

from cli.test_cli import cli
from serving import Server, running


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


def test_the_client_asks_only_when_the_room_says_the_step_is_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the room's ``due`` is the server's (a bot's roll or choice) the client waits and asks the
    room again; it asks the player only for a person's step at one of its seats."""
    from shutthebox.cli import remote

    match = {"board": {"open": list(range(1, 10))}, "is_chance": True, "legal_moves": [], "roll": None}
    rooms = iter([
        {"due": {"wait": "person", "seat": 0}, "you": [0], "match": match},
        {"due": {"wait": "over", "seat": None}, "you": [0], "match": match},
    ])
    sent: list[tuple[str, str, Any]] = []

    def call(url: str, method: str = "GET", body: Any = None, token: str | None = None) -> Any:
        sent.append((method, url.removeprefix("http://x"), body))
        if url.endswith("/api/daily/9"):
            bots_turn = {"due": {"wait": "bot", "seat": 0}, "you": [0], "match": match}
            return {"code": "ABCDE", "token": "t", "day": "2025-01-01", "state": bots_turn}
        if url.endswith("/result"):
            return {"over": False}
        return next(rooms)

    monkeypatch.setattr(remote, "_call", call)
    monkeypatch.setattr(remote, "_key_for", lambda server, name: "key")
    monkeypatch.setattr(remote, "WAIT_SECONDS", 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert remote.play_daily("http://x", 9, "Ana") == 0
    assert sent == [
        ("POST", "/api/daily/9", None),
        ("GET", "/api/rooms/ABCDE", None),  # the server's part: asked again, nothing sent
        ("POST", "/api/rooms/ABCDE/actions", {"type": "roll"}),
        ("GET", "/api/daily/2025-01-01/9/result", None),
    ]
