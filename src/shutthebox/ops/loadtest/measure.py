"""What a load run plays and measures: its settings, its result, the percentiles of its latencies,
and which servers it may load at all (this machine's only)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "ERROR_KINDS", "MAX_PROCESSES", "PERCENTILE_METHOD", "LoadResult", "LoadSettings", "is_loopback",
    "merged", "percentile",
]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
PERCENTILE_METHOD = "nearest-rank"
"""How `percentile` reads a rank: the smallest observed value with at least p % at or below it."""
REQUEST_SECONDS = 30.0
"""A request, a socket opening or an awaited answer taking longer than this is an error (``timeout``)."""
KEEPALIVE_SECONDS = 2.0
"""An idle pooled connection is dropped after this, well before uvicorn closes it (5 s): else a
request sent on a connection the server is closing meets a read error that is no fault of the
server's."""
SETTLE_SECONDS = 5.0
"""How long, after the games, finished games the server has not saved yet are looked at again."""
START_SECONDS = 60.0
"""How long a spawned server has to answer ``GET /api/rules``."""
MAX_PROCESSES = 64
"""The most processes a run spreads over (`LoadSettings.processes`)."""
REFUSED = "refused"
"""The error kind of a 429 (a rate limit), apart from the rest: the server said no, it did not fail."""
ERROR_KINDS = {
    REFUSED: "a 429, or a socket closed for too many (4429)",
    "http": "another non-2xx answer; detail: its status",
    "timeout": f"no answer within {REQUEST_SECONDS:g} s",
    "connection": "the connection failed; detail: the exception's class",
    "unreadable": "an answer that is not the JSON the API describes",
    "stuck": "a state whose due step is not our seat's, or offers it no action, before the game is over",
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
    processes: int = 1
    """Tester processes the games and the concurrency are split across, each a full tester: one
    Python process tops out at one core, so a large run needs several to keep the pace it is set."""

    def __post_init__(self) -> None:
        low, high = self.think
        if self.games < 1 or self.concurrency < 1 or not 0 <= low <= high or not self.timeout > 0:
            raise ValueError(f"a load test plays 1 game or more, 1 or more at once, for a while: {self!r}")
        if not 1 <= self.processes <= MAX_PROCESSES:
            raise ValueError(f"a load test runs in 1 to {MAX_PROCESSES} processes, not {self.processes!r}")

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
    tester_cpu_seconds: float | None = None
    """User + system CPU of the tester, its worker processes included, from its first game to its
    last; None when not measured (`run_load` alone)."""
    server_cpu_seconds: float | None = None
    """User + system CPU of the spawned server and its descendants over the run (from /proc: Linux
    only); None for a server given by its URL, or off Linux."""

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

    def cpu_ms_per_action(self, seconds: float | None) -> float | None:
        """CPU ``seconds`` in milliseconds per action answered; None when unknown or nothing was."""
        if seconds is None or not self.actions:
            return None
        return round(1000 * seconds / self.actions, 4)

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
            "tester_cpu_seconds": _rounded(self.tester_cpu_seconds),
            "tester_cpu_ms_per_action": self.cpu_ms_per_action(self.tester_cpu_seconds),
            "server_cpu_seconds": _rounded(self.server_cpu_seconds),
            "server_cpu_ms_per_action": self.cpu_ms_per_action(self.server_cpu_seconds),
            "settings": self.settings.to_json(),
        }


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 3)


def merged(settings: LoadSettings, results: Sequence[LoadResult]) -> LoadResult:
    """One result of the runs of several processes that split ``settings`` between them: counts,
    errors and think times summed, latencies pooled (so the percentiles are of all actions), the
    elapsed time the longest, timed out if any one did; CPU summed when every run measured it."""
    errors: Counter[str] = Counter()
    for result in results:
        errors.update(result.errors)
    cpu = [result.tester_cpu_seconds for result in results]
    return LoadResult(
        settings=settings,
        finished=sum(result.finished for result in results),
        saved=sum(result.saved for result in results),
        errors=dict(errors),
        actions=sum(result.actions for result in results),
        latencies=tuple(latency for result in results for latency in result.latencies),
        elapsed=max((result.elapsed for result in results), default=0.0),
        think_seconds=sum(result.think_seconds for result in results),
        timed_out=any(result.timed_out for result in results),
        tester_cpu_seconds=None if None in cpu else sum(c for c in cpu if c is not None),
    )


