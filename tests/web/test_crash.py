"""A real server killed with SIGKILL mid-game: restarted, it resumes every room exactly where the
players were told it was, with the same links and tokens (issue 10)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from shutthebox.ops.procs import processes
from tests.support.remote import action_for, headers, socket_step, step
from tests.support.serving import running

pytestmark = pytest.mark.slow  # a real server killed and started again


@contextmanager
def server(folder: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``shutthebox serve`` on a free port over the SQLite file in ``folder``."""
    with running(folder, database="crash.db") as served:
        yield served.url, served.process


def without_clock(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "clock": None, "seats": [{**s, "connected": False} for s in state["seats"]]}


def test_kill_9_mid_game_then_finish_the_same_game_with_the_same_tokens(tmp_path: Path) -> None:
    with server(tmp_path) as (url, process):
        created = httpx.post(f"{url}/api/rooms", json={
            "seats": [{"name": "Ana"}, {"kind": "remote"}], "rules": {"mode": "round"},
        }).json()
        code, ana = created["code"], created["token"]
        luis = httpx.post(f"{url}/api/rooms/{code}/join", json={"name": "Luis"}).json()["token"]
        state = httpx.get(f"{url}/api/rooms/{code}", headers=headers(ana)).json()
        while state["match"]["actor"] == 0 and state["status"] == "playing":
            state = step(url, code, ana)  # Ana's turn over HTTP
        state = socket_step(url, code, luis)  # Luis starts his over the WebSocket
        told = httpx.get(f"{url}/api/rooms/{code}", headers=headers(luis)).json()
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    with server(tmp_path) as (url, _process):
        resumed = httpx.get(f"{url}/api/rooms/{code}", headers=headers(luis)).json()
        assert without_clock(resumed) == without_clock(told)
        while resumed["status"] == "playing":
            seat = resumed["match"]["actor"]
            resumed = socket_step(url, code, luis) if seat == 1 else step(url, code, ana)
        assert resumed["saved_game_id"] is not None
        game = httpx.get(f"{url}/api/games/{resumed['saved_game_id']}").json()
        assert game["players"] == ["Ana", "Luis"] and game["kind"] == "ranked"
    with sqlite3.connect(tmp_path / "crash.db") as database:
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_every_acknowledged_action_survives_a_kill_9_under_load(tmp_path: Path) -> None:
    """Players act as fast as they can in 4 rooms; the server is killed at once: every action it
    answered 200 is there after the restart (an action in flight, and the bot's answers to it, may be
    there or not)."""
    acknowledged: dict[str, int] = {}
    tokens: dict[str, str] = {}
    with server(tmp_path) as (url, process):
        for _ in range(4):
            created = httpx.post(f"{url}/api/rooms", json={
                "seats": [{"name": "Ana"}, {"kind": "bot", "name": "Bo", "bot": "easy"}],
                "rules": {"mode": "long"},
            })
            assert created.status_code == 201, created.text
            tokens[created.json()["code"]] = created.json()["token"]
        stop = threading.Event()

        def play(code: str) -> None:
            try:
                while not stop.is_set():
                    state = step(url, code, tokens[code])
                    acknowledged[code] = state["events"]
                    if state["status"] == "over":
                        return
            except (httpx.TransportError, AssertionError, KeyError, json.JSONDecodeError):
                return  # the server died under us

        players = [threading.Thread(target=play, args=(code,)) for code in tokens]
        for player in players:
            player.start()
        deadline = time.monotonic() + 30  # the load is real: at least 40 actions in, however busy the machine
        while sum(acknowledged.values()) <= 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        stop.set()
        for player in players:
            player.join(10)
    assert sum(acknowledged.values()) > 10  # the load was real
    with server(tmp_path) as (url, _process):
        for code, told in acknowledged.items():
            kept = httpx.get(f"{url}/api/rooms/{code}").json()["events"]
            assert told <= kept, (code, told, kept)
    with sqlite3.connect(tmp_path / "crash.db") as database:
        assert database.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_stopped_server_keeps_every_acknowledged_action_and_tells_sockets_to_reconnect(
    tmp_path: Path,
) -> None:
    """SIGTERM (a deployment's stop): the last group of writes is flushed before the database closes,
    each open room socket is closed with 1012 (service restart: the page reconnects), and the
    process stops by itself, its log saying so (it said nothing of its own before)."""
    with running(tmp_path, database="crash.db", log_level="info") as served:
        url, process = served.url, served.process
        created = httpx.post(f"{url}/api/rooms", json={"seats": [{"name": "Ana"}], "rules": {"mode": "solo"}})
        code, token = created.json()["code"], created.json()["token"]
        address = url.replace("http://", "ws://") + f"/api/rooms/{code}/ws?token={token}"
        with connect(address, open_timeout=10) as socket:
            state = json.loads(socket.recv(timeout=10))["state"]
            for _ in range(3):
                if state["status"] != "playing":
                    break
                socket.send(json.dumps(action_for(state["match"])))
                while (pushed := json.loads(socket.recv(timeout=10)))["state"]["events"] == state["events"]:
                    pass
                state = pushed["state"]
            told = state["events"]
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    socket.recv(timeout=15)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert process.wait(20) in (0, -signal.SIGTERM)  # its own stop (uvicorn ends as signalled)
    held = 1 if state["status"] == "playing" else 0  # a game over in three actions leaves with its socket
    assert f"stopped: every action acknowledged is on disk (rooms held here: {held}" in served.log.read_text()
    with server(tmp_path) as (url, _process):
        assert httpx.get(f"{url}/api/rooms/{code}").json()["events"] == told


def children_of(pid: int) -> set[int]:
    return {proc.pid for proc in processes().values() if proc.parent == pid}


def alive(pid: int) -> bool:
    proc = processes().get(pid)
    return proc is not None and not proc.zombie


def test_the_solver_processes_of_a_server_killed_with_9_end_by_themselves(tmp_path: Path) -> None:
    """Before, a server killed with -9 left its solver worker processes waiting for work forever,
    each holding its caches: every crash and restart left more of them about."""
    with running(tmp_path) as server:
        sheet = httpx.get(f"{server.url}/api/cheatsheet", params={"preset": "web", "tiles": 4}, timeout=60)
        assert sheet.status_code == 200, sheet.text  # the solver's work ran in a worker process
        workers = children_of(server.process.pid)
        assert workers
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(10)
        end = time.monotonic() + 30
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < end, "the solver's processes outlived their server"
            time.sleep(0.1)


def test_a_server_stopped_ends_its_solver_processes_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """Before, uvicorn ended a stopped server by the signal that stopped it, so no exit handler shut
    the solver's pool: its worker stayed behind, waiting for work forever, at every stop."""
    with running(tmp_path) as server:
        sheet = httpx.get(f"{server.url}/api/cheatsheet", params={"preset": "web", "tiles": 4}, timeout=60)
        assert sheet.status_code == 200, sheet.text
        workers = children_of(server.process.pid)
        assert workers
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(30)
        end = time.monotonic() + 10  # its resource tracker ends as it reads that the server is gone
        while [pid for pid in workers if alive(pid)]:
            assert time.monotonic() < end, f"{[pid for pid in workers if alive(pid)]} outlived the server"
            time.sleep(0.05)
    assert "leaked" not in server.log.read_text()  # the pool's queues closed, not left to the tracker
