"""What one server process counts for Prometheus (``GET /metrics``): the players' actions by kind and
how long each took from receipt to acknowledgement (kept and told), the commits' group sizes, the
garbage collector's pauses and what it freed, and, read when scraped, the rooms held open here, the
sockets connected, the solver jobs run and those waiting at the door; and the process's own
(``process_cpu_seconds_total``, ``process_resident_memory_bytes``, its open files…, and
``python_info``).

Each app has a registry of its own (`Metrics.registry`), not prometheus-client's global one: several
apps in one process (the tests) count apart. No ``*_created`` series: the start of a counter is the
process's (``process_start_time_seconds``), and they doubled what a scrape reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from shutthebox.web.runtime import PauseTimer

disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus-client leaves it untyped

__all__ = ["ACTION_KINDS", "GROUP_BUCKETS", "LATENCY_BUCKETS", "PAUSE_BUCKETS", "Metrics", "Readings"]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""The action latency's buckets, in seconds: fine below the 50 ms an action is meant to take."""
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128)
"""The sizes of a commit's group: how many actions one wait for the disk served."""
ACTION_KINDS = ("roll", "dice", "move")
"""The kinds of a player's action, each counted from 0 (its label looked up once, not at each action)."""
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""A garbage collection's pause, in seconds: every action of the process waits it out."""


@dataclass(frozen=True, slots=True)
class Readings:
    """What the process says of itself when scraped, each read by a call of the service that knows it."""

    rooms: Callable[[], int]
    sockets: Callable[[], int]
    solver_jobs: Callable[[], int]
    solver_queue: Callable[[], int]


class _Read(Collector):
    def __init__(self, readings: Readings) -> None:
        self.readings = readings

    def collect(self) -> Iterable[Metric]:
        read = self.readings
        yield GaugeMetricFamily("shutthebox_rooms_open", "Rooms held open in this process", read.rooms())
        yield GaugeMetricFamily("shutthebox_sockets_connected", "Room sockets connected to this process",
                                read.sockets())
        yield CounterMetricFamily("shutthebox_solver_jobs", "Solver jobs run (not answered from the cache)",
                                  read.solver_jobs())
        yield GaugeMetricFamily("shutthebox_solver_queue", "Solver jobs admitted and not yet done",
                                read.solver_queue())


class Metrics:
    """The counters of one server process, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.actions = Counter(
            "shutthebox_actions", "Players' actions acknowledged, by kind", ["kind"], registry=self.registry
        )
        self._actions = {kind: self.actions.labels(kind) for kind in ACTION_KINDS}  # each told at 0
        self.latency = Histogram(
            "shutthebox_action_seconds", "Seconds from an action's receipt to its acknowledgement",
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )

        self.groups = Histogram(
            "shutthebox_commit_group_size", "Room writes kept by one commit (group commit)",
            buckets=GROUP_BUCKETS, registry=self.registry,
        )
        self.pauses = Histogram(
            "shutthebox_gc_pause_seconds", "Seconds the process stood still for a garbage collection",
            ["generation"], buckets=PAUSE_BUCKETS, registry=self.registry,
        )
        self._pauses = tuple(self.pauses.labels(str(generation)) for generation in range(3))  # each told at 0
        self.garbage = Counter(
            "shutthebox_gc_collected_objects", "Objects freed by garbage collections (in reference cycles)",
            registry=self.registry,
        )

    def read(self, readings: Readings) -> None:
        """Report ``readings`` at each scrape (once: the services of a process are built once)."""
        self.registry.register(_Read(readings))

    def acted(self, kind: str, seconds: float) -> None:
        """An action of ``kind`` (roll, dice, move) acknowledged ``seconds`` after it was received."""
        counter = self._actions.get(kind)
        (counter if counter is not None else self.actions.labels(kind)).inc()
        self.latency.observe(seconds)

    def grouped(self, size: int) -> None:
        """A commit kept ``size`` room writes."""
        self.groups.observe(size)

    def pause_timer(self) -> PauseTimer:
        """What counts the process's garbage collections (`collected`) once started."""
        return PauseTimer(self.collected)

    def collected(self, generation: int, seconds: float, freed: int) -> None:
        """A garbage collection of ``generation`` stood the process still ``seconds`` and freed ``freed``
        objects."""
        self._pauses[generation].observe(seconds)
        self.garbage.inc(freed)

    def exposition(self) -> bytes:
        """The registry in Prometheus's text format."""
        return generate_latest(self.registry)
