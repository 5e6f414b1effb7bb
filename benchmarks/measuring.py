"""What the benchmarks that start servers share: a free port, and a process's CPU from /proc. Plain
standard library: `bench_floors.py` runs it under other virtual environments too."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU of a process and its threads, in seconds; with its child processes' too."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    if not children:
        return total
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False).stdout
    return total + sum(cpu_seconds(int(child), children=True) for child in found.split())
