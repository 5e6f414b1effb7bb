"""The processes of this machine as /proc tells them (Linux): whose child each is, its name, whether
it is a zombie, and its CPU. The load tester reads a spawned server's CPU from it; the benchmarks and
the crash tests, which processes a server leaves behind."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Proc", "processes"]

PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class Proc:
    """One process, as /proc/PID/stat has it."""

    pid: int
    parent: int
    name: str
    zombie: bool
    cpu_seconds: float
    """User + system CPU, its children's that it reaped included (a worker that ended still counts)."""


def processes() -> dict[int, Proc]:
    """Every process now, by pid; none where there is no /proc. A process that ends while it is read
    is left out."""
    if not PROC.is_dir():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            name, fields = stat.split("(", 1)[1].rsplit(")", 1)[0], stat.rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry.name)
        ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        found[pid] = Proc(pid, int(fields[1]), name, fields[0] == "Z", ticks / tick)
    return found
