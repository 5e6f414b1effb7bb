"""A server of our own for a run: ``shutthebox serve`` over SQLite, or several workers over a
temporary PostgreSQL and Redis, stopped with everything it started."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from shutthebox.ops.loadtest.measure import START_SECONDS
from shutthebox.ops.procs import processes
from shutthebox.ops.throwaway import free_port, log_tail

__all__ = ["SpawnError", "SpawnedServer", "serve_command", "spawned", "tree_cpu_seconds"]


class SpawnError(Exception):
    """A spawned server did not come up. ``kind``: ``stopped`` (it exited, with ``status``),
    ``silent`` (no answer within ``seconds``) or ``unavailable`` (PostgreSQL or Redis cannot be
    started, for ``reason``); ``log`` is the end of its log."""

    def __init__(self, kind: str, log: str = "", **values: object) -> None:
        super().__init__(kind, values)
        self.kind, self.log, self.values = kind, log, values


@dataclass(frozen=True)
class SpawnedServer:
    """A server of our own: where it answers, and its process (whose CPU a run reads)."""

    url: str
    pid: int

    def cpu_seconds(self) -> float | None:
        """User + system CPU so far of the server and every process under it (`tree_cpu_seconds`)."""
        return tree_cpu_seconds(self.pid)


def tree_cpu_seconds(pid: int) -> float | None:
    """User + system CPU of process ``pid`` and all its descendants, from /proc (Linux only: None
    elsewhere, or when ``pid`` is gone). A descendant already reaped is in its parent's children
    times, counted too, so a worker that ends between two readings is not lost."""
    table = processes()
    if pid not in table:
        return None
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        for child in table.values():
            if child.parent == parent and child.pid not in tree:
                tree.add(child.pid)
                frontier.append(child.pid)
    return sum(table[member].cpu_seconds for member in tree)


def serve_command(port: int, database: str, workers: int = 1, redis: str | None = None) -> list[str]:
    """The ``shutthebox serve`` of a run: bots without pauses, a quiet log, and this machine trusted
    as the proxy that names each game's client (`LoadSettings.many_clients`)."""
    command = [
        sys.executable, "-m", "shutthebox", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", database, "--bot-delay", "0", "--log-level", "warning", "--trust-proxy", "127.0.0.1",
    ]
    if workers > 1:
        command += ["--workers", str(workers)]
    if redis is not None:
        command += ["--redis", redis]
    return command


@contextlib.contextmanager
def spawned(folder: Path, workers: int = 1) -> Iterator[SpawnedServer]:
    """A server of our own over ``folder`` until the block ends (then stopped, with everything it
    started): one worker over SQLite, or ``workers`` over a temporary PostgreSQL and Redis. Its
    URL and process, once ``GET /api/rules`` answers 200."""
    with contextlib.ExitStack() as stack:
        port = free_port()
        if workers == 1:
            command = serve_command(port, f"sqlite:///{folder / 'load.db'}")
        else:
            database, redis = _services(stack, folder)
            command = serve_command(port, database, workers, redis)
        log_path = folder / "server.log"
        log = stack.enter_context(log_path.open("ab"))
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
        )
        stack.callback(_stop, process)
        url = f"http://127.0.0.1:{port}"
        _wait_until_ready(url, process, log_path)
        yield SpawnedServer(url, process.pid)


def _services(stack: contextlib.ExitStack, folder: Path) -> tuple[str, str]:
    """A temporary PostgreSQL and Redis for several workers (`shutthebox.ops.throwaway`)."""
    try:
        from shutthebox.ops import throwaway
    except ImportError as error:
        raise SpawnError("unavailable", reason=f"no module {error.name}") from None
    reason = throwaway.missing_postgres() or throwaway.missing_redis()
    if reason:
        raise SpawnError("unavailable", reason=reason)
    try:  # a service that does not start says why, with the end of its log
        database: str = stack.enter_context(throwaway.temporary_postgres(folder))
        redis: str = stack.enter_context(throwaway.temporary_redis(folder))
    except RuntimeError as error:
        reason, _, log = str(error).partition("\n")
        raise SpawnError("unavailable", log, reason=reason) from None
    return database, redis


def _wait_until_ready(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    address = urlsplit(url)
    while time.monotonic() < deadline:
        status = process.poll()
        if status is not None:
            raise SpawnError("stopped", log_tail(log_path), status=status)
        probe = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=2.0)
        with contextlib.closing(probe), contextlib.suppress(OSError, http.client.HTTPException):
            probe.request("GET", "/api/rules")
            if probe.getresponse().status == 200:
                return
        time.sleep(0.1)
    raise SpawnError("silent", log_tail(log_path), seconds=int(START_SECONDS))


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and its workers (its own session: the group is ours alone)."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)
