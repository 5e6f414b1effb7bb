"""How a server process runs: its garbage collector, what its pauses cost, and its threads' turns
(issue 29).

CPython's collector stops the process while it walks a generation. The youngest two are small and
cheap to walk; a full collection walks every object the process tracks, and a server holding a
thousand rooms and their sockets tracks some 200,000: 50-150 ms on the 2-core test machine, every
action waiting. With the default thresholds one came every few hundred milliseconds while rooms
opened (the young objects that live on, a room's, a socket's, make the full walk due again soon),
and those pauses were most of the p99 of `shutthebox loadtest` at 1,000 games (120-290 ms; with no
full collection 12-20 ms). A server's garbage is rarely cyclic (a finished game's objects are freed
by their counts), so its full collections are made rare, not gone: what is cyclic is still found.

The threads take turns at the interpreter's lock. The group commit's writer thread needs it back
after each statement SQLite (or psycopg) ran without it, and a busy event loop gave it up only at
the end of its 5 ms turn: a flush of a few statements took 25-30 ms for 5 ms of its own CPU, and
every action of the group waited. Turns of 0.5 ms: p95 8-10 ms where it was 9-28, over four runs
each, alternated.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["FULL_COLLECTION_EVERY", "THREAD_TURN_SECONDS", "PauseTimer", "settle", "tune_for_serving"]

FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation between two full ones (CPython's own: 10). CPython also
waits until the objects that survived since the last full one are a quarter of those it found then."""
THREAD_TURN_SECONDS = 0.0005
"""How long a thread holds the interpreter while another waits for it (CPython's own: 0.005)."""


def settle() -> None:
    """Collect what start-up left, then freeze what it built: it lives as long as the process, and no
    collection walks it again."""
    gc.collect()
    gc.freeze()


def tune_for_serving() -> None:
    """A full collection once per `FULL_COLLECTION_EVERY` of the middle generation's (the young
    generations' thresholds left as they are), and turns of `THREAD_TURN_SECONDS`. Process-wide:
    called by the process's one server."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    sys.setswitchinterval(THREAD_TURN_SECONDS)


def log_beside_uvicorn() -> None:
    """The server's own lines (a game saved, a round solved ahead or not, its stop) written where and
    as uvicorn writes its, at ``serve --log-level``: Python alone shows only their warnings, bare.
    Called once uvicorn has set its logging up (the app's start), in each worker of several."""
    ours, uvicorns = logging.getLogger("shutthebox"), logging.getLogger("uvicorn")
    if ours.handlers or not uvicorns.handlers:
        return
    for handler in uvicorns.handlers:
        ours.addHandler(handler)
    ours.setLevel(logging.getLogger("uvicorn.error").getEffectiveLevel())
    ours.propagate = False


class PauseTimer:
    """Times each collection of the process (a `gc.callbacks` hook, from its start to its stop) and
    tells ``report`` its generation, its seconds and the objects it freed (cyclic garbage: what
    counting references alone could not free)."""

    def __init__(self, report: Callable[[int, float, int], None]) -> None:
        self.report = report
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.report(info["generation"], time.perf_counter() - self._began, info["collected"])

    def start(self) -> None:
        gc.callbacks.append(self)

    def stop(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)
