"""CPU per action of one server process: ``shutthebox serve`` on a temporary SQLite file, played by
``shutthebox loadtest`` over HTTP and over the WebSocket, its CPU time (user + system, from
/proc) divided by the actions played. Run: ``python benchmarks/bench_server.py [--games N]``.

Figures are ratios of one run on one machine (the load tester shares it): with ``--baseline``
both servers are played at the same time, and their ratio is what to read, not a number.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
from measuring import cpu_seconds, free_port


@contextmanager
def serving(folder: str, source: str | None = None) -> Iterator[tuple[int, str]]:
    """A server of this checkout, or of the ``source`` folder of another (a baseline: ``git worktree
    add /tmp/base <commit>`` then ``--baseline /tmp/base/src``), on a temporary SQLite file: its pid
    and URL, once it answers."""
    env = {**os.environ, "PYTHONPATH": source} if source else None
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
        yield server.pid, url
    finally:
        server.terminate()
        server.wait(20)


def playing(url: str, games: int, concurrency: int, websocket: bool) -> subprocess.Popen[str]:
    """``shutthebox loadtest`` against ``url``, started: its JSON report on its stdout."""
    command = [sys.executable, "-m", "shutthebox", "loadtest", "--url", url, "--games", str(games),
               "--concurrency", str(concurrency), "--many-clients", "--json", "--seed", "1"]
    command += ["--websocket"] if websocket else []
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def measure(
    games: int, concurrency: int, websocket: bool, sources: list[str | None]
) -> list[dict[str, float]]:
    """One load test of each server of ``sources`` (None: this checkout), all played at the same time
    after a warm-up of 50 games each: the machine's speed, which drifts by a fifth within minutes
    here, drifts alike for all, so their ratio holds where runs one after the other did not."""
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(stack.enter_context(tempfile.TemporaryDirectory()), source))
                   for source in sources]
        for _pid, url in servers:
            playing(url, 50, 10, websocket).communicate()
        before = [cpu_seconds(pid) for pid, _url in servers]
        testers = [playing(url, games, concurrency, websocket) for _pid, url in servers]
        results = [json.loads(tester.communicate()[0]) for tester in testers]
        used = [cpu_seconds(pid) - start for (pid, _url), start in zip(servers, before, strict=True)]
    return [{
        "actions": result["actions"], "errors": result["errors"], "cpu_s": round(spent, 3),
        "cpu_ms_per_action": round(1000 * spent / max(1, result["actions"]), 3),
        "actions_per_second": result["actions_per_second"],
        "tester_cpu_ms_per_action": result.get("tester_cpu_ms_per_action"),  # its own report (issue 29)
    } for result, spent in zip(results, used, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of a checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="measures of each transport (the median ratio)")
    args = parser.parse_args()
    sources = [None, *([args.baseline] if args.baseline else [])]
    for websocket in (False, True):
        transport = "websocket" if websocket else "http"
        ratios = []
        for _ in range(args.rounds):
            figures = measure(args.games, args.concurrency, websocket, sources)
            print(json.dumps({"server": "this", "transport": transport, **figures[0]}))
            if args.baseline:
                print(json.dumps({"server": "baseline", "transport": transport, **figures[1]}))
                ratios.append(figures[0]["cpu_ms_per_action"] / figures[1]["cpu_ms_per_action"])
        if ratios:
            ratio = statistics.median(ratios)
            print(json.dumps({"transport": transport, "cpu_per_action_vs_baseline": round(ratio, 3),
                              "ratios": [round(r, 3) for r in ratios]}))


if __name__ == "__main__":
    main()
