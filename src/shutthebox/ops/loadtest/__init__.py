"""The load tester: whole solo games played through the public API, as many browsers at once would.

Each game creates a room (``POST /api/rooms``, one seat played here) and plays it
to the end with the seat's token: ``POST /api/rooms/{code}/actions`` with
``Authorization: Bearer <token>``, or over the room WebSocket
(``/api/rooms/{code}/ws?token=…``), each action the step the room says is due at
its seat (``due``), one of the state's legal ones.
At most ``concurrency`` games are in play at once; a game that meets an error
stops there (counted, by kind) and the next one starts. Latency is each
action's own answer: the HTTP response, or the first pushed state whose event
count moved past the one acted on (an earlier push is no answer).

`run_measured` runs it in this process or spread over several (each a full
tester, their results `merged`), measuring the tester's own CPU; the tester
imports nothing of the server and gives each game a connection of its own
(issue 29). Only this machine is ever loaded (`is_loopback`). `spawned` starts a
server of our own for the run, whose CPU is read from /proc (`tree_cpu_seconds`).
Nothing here prints: the command line words the result.
`measure` holds the settings, the result and the percentiles, `play` the run,
`server` the server of our own.
"""

from __future__ import annotations

from shutthebox.ops.loadtest.measure import (
    ERROR_KINDS,
    MAX_PROCESSES,
    PERCENTILE_METHOD,
    REFUSED,
    LoadResult,
    LoadSettings,
    is_loopback,
    merged,
    percentile,
)
from shutthebox.ops.loadtest.play import run_load, run_measured, shares
from shutthebox.ops.loadtest.server import SpawnedServer, SpawnError, spawned, tree_cpu_seconds

__all__ = [
    "ERROR_KINDS",
    "MAX_PROCESSES",
    "PERCENTILE_METHOD",
    "REFUSED",
    "LoadResult",
    "LoadSettings",
    "SpawnError",
    "SpawnedServer",
    "is_loopback",
    "merged",
    "percentile",
    "run_load",
    "run_measured",
    "shares",
    "spawned",
    "tree_cpu_seconds",
]
