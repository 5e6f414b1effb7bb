"""CPU per action of one server process: ``shutthebox serve`` on a temporary SQLite file, played by
``shutthebox loadtest`` over HTTP and over the WebSocket, its CPU time (user + system, from
/proc) divided by the actions played. Run: ``python benchmarks/bench_server.py [--games N]``.

Figures are ratios of one run on one machine (the load tester shares it): compare runs made
side by side, not against a number.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its threads, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(games: int, concurrency: int, websocket: bool, source: str | None = None) -> dict[str, float]:
    """One load test of a server started from this checkout, or from the ``source`` folder of another
    (a baseline: ``git worktree add /tmp/base <commit>`` then ``--baseline /tmp/base/src``)."""
    env = {**os.environ, "PYTHONPATH": source} if source else None
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "shutthebox", "serve", "--port", str(port), "--db",
             f"sqlite:///{folder}/bench.db", "--bot-delay", "0", "--log-level", "warning",
             "--trust-proxy", "127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(f"{url}/api/rules").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            before = cpu_seconds(server.pid)
            command = [sys.executable, "-m", "shutthebox", "loadtest", "--url", url, "--games", str(games),
                       "--concurrency", str(concurrency), "--many-clients", "--json", "--seed", "1"]
            result = json.loads(subprocess.run(
                [*command, *(["--websocket"] if websocket else [])], capture_output=True, text=True,
                check=False,
            ).stdout)
            used = cpu_seconds(server.pid) - before
        finally:
            server.terminate()
            server.wait(20)
    return {
        "actions": result["actions"], "errors": result["errors"], "cpu_s": round(used, 3),
        "cpu_ms_per_action": round(1000 * used / max(1, result["actions"]), 3),
        "actions_per_second": result["actions_per_second"],
        "tester_cpu_ms_per_action": result.get("tester_cpu_ms_per_action"),  # its own report (issue 29)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of a checkout to compare with")
    args = parser.parse_args()
    for websocket in (False, True):
        transport = "websocket" if websocket else "http"
        figures = measure(args.games, args.concurrency, websocket)
        print(json.dumps({"server": "this", "transport": transport, **figures}))
        if args.baseline:
            base = measure(args.games, args.concurrency, websocket, args.baseline)
            print(json.dumps({"server": "baseline", "transport": transport, **base}))
            ratio = figures["cpu_ms_per_action"] / base["cpu_ms_per_action"]
            print(json.dumps({"transport": transport, "cpu_per_action_vs_baseline": round(ratio, 3)}))


if __name__ == "__main__":
    main()
