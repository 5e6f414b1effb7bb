"""A real ``shutthebox serve`` for the tests that need one: its own port, database and log."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    """A running server: its URL, its process (to kill) and its log file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


STARTED = b"Application startup complete."
"""What uvicorn logs (at level info) once a worker's app has started."""


@contextmanager
def running(
    folder: Path, *, database: str = "serve.db", bot_delay: str = "0", log_level: str = "warning",
    env: dict[str, str] | None = None, db_url: str | None = None, redis_url: str | None = None,
    options: Sequence[str] = (), workers: int = 1,
) -> Iterator[Server]:
    """``shutthebox serve`` on a free port over the SQLite file ``folder/database`` (or the database
    ``db_url``; sharing rooms with other processes through ``redis_url``, if given; as ``workers``
    processes behind the one port; ``options`` added to the command), until the block ends (then
    stopped, unless the test killed it); its log is appended to ``folder/server.log``.

    Several workers are waited for one by one, by the line each logs once started (at log level
    info): the first answers while the others may still be starting, on a busy machine for seconds."""
    if workers > 1 and log_level not in ("info", "debug"):
        raise ValueError(f"{workers} workers are told started by their log at level info, not {log_level}")
    port, log_path = free_port(), folder / "server.log"
    shared = ["--redis", redis_url] if redis_url else []
    if workers > 1:
        shared += ["--workers", str(workers)]
    before = log_path.stat().st_size if log_path.exists() else 0
    with log_path.open("a") as log:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "shutthebox", "serve", "--port", str(port),
                "--db", db_url or f"sqlite:///{folder / database}", *shared,
                "--bot-delay", bot_delay, "--log-level", log_level, *options,
            ],
            stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {log_path.read_text()}")
            try:
                if httpx.get(f"{url}/api/rules").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not answer")
        for _ in range(600 if workers > 1 else 0):
            with log_path.open("rb") as written:
                written.seek(before)
                if written.read().count(STARTED) >= workers:
                    break
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {log_path.read_text()}")
            time.sleep(0.1)
        else:
            if workers > 1:
                raise RuntimeError(f"not every worker started: {log_path.read_text()}")
        yield Server(url, process, log_path)
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)
