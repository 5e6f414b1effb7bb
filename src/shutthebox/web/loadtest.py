"""The load tester: whole solo games played through the public API, as many browsers at once would.

Each game creates a room (``POST /api/rooms``, one seat played here) and plays it
to the end with the seat's token: ``POST /api/rooms/{code}/actions`` with
``Authorization: Bearer <token>``, or over the room WebSocket
(``/api/rooms/{code}/ws?token=…``), every action one of the state's legal ones.
At most ``concurrency`` games are in play at once; a game that meets an error
stops there (counted, by kind) and the next one starts. Latency is each
action's own answer: the HTTP response, or the first pushed state whose event
count moved past the one acted on (an earlier push is no answer).

Only this machine is ever loaded (`is_loopback`). `spawned` starts a server of
our own for the run. Nothing here prints: the command line words the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from shutthebox.web.loadplayer import REFUSED, REQUEST_SECONDS, Tally, play, settle
from shutthebox.web.services import free_port, log_tail

__all__ = [
    "ERROR_KINDS",
    "PERCENTILE_METHOD",
    "LoadResult",
    "LoadSettings",
    "SpawnError",
    "is_loopback",
    "percentile",
    "run_load",
    "spawned",
]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
PERCENTILE_METHOD = "nearest-rank"
"""How `percentile` reads a rank: the smallest observed value with at least p % at or below it."""
KEEPALIVE_SECONDS = 2.0
"""An idle pooled connection is dropped after this, well before uvicorn closes it (5 s): else a
request sent on a connection the server is closing meets a read error that is no fault of the
server's."""
START_SECONDS = 60.0
"""How long a spawned server has to answer ``GET /api/rules``."""
ERROR_KINDS = {
    REFUSED: "a 429, or a socket closed for too many (4429)",
    "http": "another non-2xx answer; detail: its status",
    "timeout": f"no answer within {REQUEST_SECONDS:g} s",
    "connection": "the connection failed; detail: the exception's class",
    "unreadable": "an answer that is not the JSON the API describes",
    "stuck": "a state that offers our seat no action before the game is over",
    "socket": "the WebSocket failed",
    "socket-http": "the WebSocket refused at its opening; detail: the HTTP status",
    "socket-closed": "the server closed the WebSocket; detail: the close code",
    "socket-error": "an error message over the WebSocket; detail: its error code",
}
"""The kinds of error a run counts, each game stopping at its first."""


def is_loopback(url: str) -> bool:
    """Whether ``url`` is an http(s) address of this machine (127.0.0.1, localhost or ::1): a load
    test must never be turned on someone else's server."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme in {"http", "https"} and host is not None and host.lower() in LOOPBACK_HOSTS


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of ``values``: the value of rank
    ceil(p/100 * n) in sorted order, always one that was observed; the rank is computed exactly
    (p as the decimal it prints as), so p95 of 20 values is the 19th, not the 20th."""
    if not values:
        raise ValueError("the percentile of no values")
    if not 0 < p <= 100:
        raise ValueError(f"a percentile is over 0 and at most 100, not {p!r}")
    ordered = sorted(values)
    rank = math.ceil(Fraction(str(p)) * len(ordered) / 100)
    return ordered[max(rank, 1) - 1]


@dataclass(frozen=True, kw_only=True)
class LoadSettings:
    """What a run plays: where, how many games, how many at once, and how each player paces."""

    url: str
    games: int
    concurrency: int
    think: tuple[float, float] = (0.0, 0.0)
    """Seconds each player waits before each action, drawn uniformly between the two."""
    websocket: bool = False
    tiles: int = 9
    seed: int | None = None
    """Seed of the players' choices and think times (the server rolls the dice)."""
    timeout: float = 600.0
    """Seconds the games may take in all; then the run stops and the games not done count unfinished."""
    many_clients: bool = False
    """Each game claims an address of its own in ``X-Forwarded-For`` (the server must trust this
    machine as its proxy), so per-address rate limits count each game apart, as for real browsers."""
    spawn_workers: int | None = None
    """The workers of the server spawned for the run; None for a server given by its URL."""

    def __post_init__(self) -> None:
        low, high = self.think
        if self.games < 1 or self.concurrency < 1 or not 0 <= low <= high or not self.timeout > 0:
            raise ValueError(f"a load test plays 1 game or more, 1 or more at once, for a while: {self!r}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["think"] = list(self.think)
        data["transport"] = "websocket" if self.websocket else "http"
        return data


@dataclass(frozen=True, kw_only=True)
class LoadResult:
    """What a run measured. Latencies are in seconds, one per action answered."""

    settings: LoadSettings
    finished: int
    saved: int
    errors: dict[str, int]
    """Failed requests, non-2xx answers and socket errors, by kind: a code, then maybe a detail after
    a space (`ERROR_KINDS`)."""
    actions: int
    latencies: tuple[float, ...]
    elapsed: float
    think_seconds: float
    """The think time all players waited in all (so an elapsed time can be read against it)."""
    timed_out: bool

    @property
    def games(self) -> int:
        return self.settings.games

    @property
    def unfinished(self) -> int:
        return self.games - self.finished

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def games_per_second(self) -> float:
        return self.finished / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.elapsed if self.elapsed > 0 else 0.0

    def latency_ms(self) -> dict[str, float | None]:
        """p50, p95, p99 (`PERCENTILE_METHOD`) and the max of the actions' latencies, in milliseconds."""
        if not self.latencies:
            return {"p50": None, "p95": None, "p99": None, "max": None}
        shown = {f"p{p}": percentile(self.latencies, p) for p in (50, 95, 99)}
        shown["max"] = max(self.latencies)
        return {name: round(seconds * 1000, 3) for name, seconds in shown.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "saved": self.saved,
            "errors": self.error_count,
            "error_kinds": dict(sorted(self.errors.items())),
            "timed_out": self.timed_out,
            "games_per_second": round(self.games_per_second, 3),
            "actions": self.actions,
            "actions_per_second": round(self.actions_per_second, 3),
            "latency_ms": self.latency_ms(),
            "percentile_method": PERCENTILE_METHOD,
            "elapsed": round(self.elapsed, 3),
            "think_seconds": round(self.think_seconds, 3),
            "settings": self.settings.to_json(),
        }


# -- the run ---------------------------------------------------------------------------------------
async def run_load(settings: LoadSettings) -> LoadResult:
    """Play ``settings.games`` whole games against the server, ``settings.concurrency`` at once."""
    if not is_loopback(settings.url):
        raise ValueError(f"a load test plays against this machine only, not {settings.url!r}")
    chance = random.Random(settings.seed)
    seeds = [chance.getrandbits(64) for _ in range(settings.games)]
    tally = Tally()
    games = iter(range(settings.games))
    limits = httpx.Limits(
        max_connections=settings.concurrency, max_keepalive_connections=settings.concurrency,
        keepalive_expiry=KEEPALIVE_SECONDS,
    )
    async with httpx.AsyncClient(
        base_url=settings.url.rstrip("/"), limits=limits, timeout=REQUEST_SECONDS, trust_env=False
    ) as client:

        async def worker() -> None:
            for index in games:  # one iterator for all: as a game ends, the next one starts
                await play(client, settings, index, random.Random(seeds[index]), tally)

        timed_out = False
        start = time.perf_counter()
        try:
            async with asyncio.timeout(settings.timeout), asyncio.TaskGroup() as group:
                for _ in range(min(settings.concurrency, settings.games)):
                    group.create_task(worker())
        except TimeoutError:
            timed_out = True
        elapsed = time.perf_counter() - start
        await settle(client, tally)
    return LoadResult(
        settings=settings,
        finished=tally.finished,
        saved=tally.saved,
        errors=dict(tally.errors),
        actions=tally.actions,
        latencies=tuple(tally.latencies),
        elapsed=elapsed,
        think_seconds=tally.think_seconds,
        timed_out=timed_out,
    )


# -- a server of our own ---------------------------------------------------------------------------
class SpawnError(Exception):
    """A spawned server did not come up. ``kind``: ``stopped`` (it exited, with ``status``),
    ``silent`` (no answer within ``seconds``) or ``unavailable`` (PostgreSQL or Redis cannot be
    started, for ``reason``); ``log`` is the end of its log."""

    def __init__(self, kind: str, log: str = "", **values: object) -> None:
        super().__init__(kind, values)
        self.kind, self.log, self.values = kind, log, values




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
def spawned(folder: Path, workers: int = 1) -> Iterator[str]:
    """A server of our own over ``folder`` until the block ends (then stopped, with everything it
    started): one worker over SQLite, or ``workers`` over a temporary PostgreSQL and Redis. Its
    URL, once ``GET /api/rules`` answers 200."""
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
        yield url


def _services(stack: contextlib.ExitStack, folder: Path) -> tuple[str, str]:
    """A temporary PostgreSQL and Redis for several workers (`shutthebox.web.services`)."""
    try:
        from shutthebox.web import services
    except ImportError as error:
        raise SpawnError("unavailable", reason=f"no module {error.name}") from None
    reason = services.missing_postgres() or services.missing_redis()
    if reason:
        raise SpawnError("unavailable", reason=reason)
    try:  # a service that does not start says why, with the end of its log
        database: str = stack.enter_context(services.temporary_postgres(folder))
        redis: str = stack.enter_context(services.temporary_redis(folder))
    except RuntimeError as error:
        reason, _, log = str(error).partition("\n")
        raise SpawnError("unavailable", log, reason=reason) from None
    return database, redis


def _wait_until_ready(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    with httpx.Client(trust_env=False, timeout=2.0) as probe:
        while time.monotonic() < deadline:
            status = process.poll()
            if status is not None:
                raise SpawnError("stopped", log_tail(log_path), status=status)
            with contextlib.suppress(httpx.HTTPError):
                if probe.get(f"{url}/api/rules").status_code == 200:
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
