"""Another player's action latency while one address floods a solver path, beside the same with no
flood, in one run: ``python benchmarks/bench_solver_flood.py [--seconds 40] [--baseline SRC]``.

A real ``shutthebox serve`` (this checkout's, or the ``src`` folder of another: ``git worktree add
/tmp/base <commit>``, then ``--baseline /tmp/base/src``) on a temporary SQLite file. The player,
from an address of its own, plays solo games over HTTP at a human pace (an action every 0.3 s) and times each
action. The flood, from another address, keeps 16 requests in flight on one path for ``--seconds``:

- ``cheatsheet``: ``GET /api/cheatsheet`` of every preset on 10 to 12 tiles, round and round;
- ``train-answer``: ``POST /api/train`` of crafted puzzles of 12-tile rule sets (the long game too);
- ``train-pool``: ``GET /api/train?goal=beat-K`` for a new K each time;
- ``hints``: ``GET /api/rooms/{code}/hint`` in 12-tile solo rooms of many rule sets (as many as an
  address may make in a minute), round and round.

It prints, per phase, the player's action latency p50 and p99 (ms), its actions, and how the
flood's requests were answered (by status). Figures are of one run on one machine (server, flood
and player share its two cores): compare the phases of a run, not runs of different days.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from measuring import free_port

FLOOD, PLAYER = "127.0.1.{}", "127.0.2.{}"
"""The flood's address and the player's, a new pair for each phase: no phase spends another's budgets."""
IN_FLIGHT = 16
PACE = 0.3


@contextmanager
def server(source: str | None) -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": source} if source else None
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "shutthebox", "serve", "--port", str(port), "--db",
             f"sqlite:///{folder}/flood.db", "--bot-delay", "0", "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/api/rules").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)


def client(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=600)


def play(url: str, seconds: float, address: str) -> list[float]:
    """Solo games at a human pace for ``seconds``: the latency of each action, in seconds."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    with client(address) as http:
        while time.monotonic() < deadline:
            created = http.post(f"{url}/api/rooms", json={"preset": "web", "seats": [{"name": "Bea"}]})
            if created.status_code != 201:
                time.sleep(PACE)
                continue
            code, token = created.json()["code"], created.json()["token"]
            state = created.json()["state"]
            while state["status"] == "playing" and time.monotonic() < deadline:
                match = state["match"]
                if match["phase"] == "choose":
                    body: dict[str, Any] = {"type": "dice", "count": match["dice_options"][-1]}
                elif match["phase"] == "roll":
                    body = {"type": "roll"}
                else:
                    body = {"type": "move", "tiles": match["legal_moves"][0]}
                time.sleep(PACE)
                started = time.monotonic()
                answer = http.post(f"{url}/api/rooms/{code}/actions", json=body,
                                   headers={"Authorization": f"Bearer {token}"})
                latencies.append(time.monotonic() - started)
                if answer.status_code != 200:
                    break
                state = answer.json()
    return latencies


def flooding(
    url: str, path: str, address: str, stop: threading.Event, answered: Counter[str]
) -> list[threading.Thread]:
    """``IN_FLIGHT`` threads asking ``path`` from ``address`` until ``stop``."""
    presets = list(httpx.get(f"{url}/api/rules").json()["presets"])
    counter = itertools.count()
    request = _requests(url, path, presets, address)

    def one() -> None:
        with client(address) as http:
            while not stop.is_set():
                try:
                    status = request(http, next(counter))
                except httpx.HTTPError as error:
                    status = type(error).__name__
                answered[str(status)] += 1

    threads = [threading.Thread(target=one, daemon=True) for _ in range(IN_FLIGHT)]
    for thread in threads:
        thread.start()
    return threads


def _requests(url: str, path: str, presets: list[str], address: str) -> Callable[[httpx.Client, int], int]:
    if path == "cheatsheet":
        sheets = [(p, t) for t in (12, 11, 10) for p in presets]
        return lambda http, n: http.get(f"{url}/api/cheatsheet", params=dict(
            zip(("preset", "tiles"), sheets[n % len(sheets)], strict=True))).status_code
    with client(address) as http:
        key = http.post(f"{url}/api/profiles", json={"name": f"Flood {path}"}).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    if path == "train-answer":
        def crafted(http: httpx.Client, n: int) -> int:
            rules = {"tiles": 12, "mode": "long" if n % 2 else "solo", "scoring": "sum",
                     "one_die": ("never", "high-shut", "sum-le-6", "sum-lt-6")[n % 4]}
            body = json.dumps(rules, sort_keys=True, separators=(",", ":"))
            goal = "long" if n % 2 else "score"
            return http.post(f"{url}/api/train", json={"key": f"{body}|{goal}|4095|6+6", "shut": [12]},
                             headers=auth).status_code
        return crafted
    if path == "train-pool":
        return lambda http, n: http.get(f"{url}/api/train", params={"goal": f"beat-{11 + n}", "tiles": 12},
                                        headers=auth).status_code
    rooms: list[tuple[str, str]] = []  # up to the rooms an address may make a minute, then their hints again

    def hint(http: httpx.Client, n: int) -> int:
        if len(rooms) < 20:
            rules = {"one_die": ("never", "high-shut", "sum-le-6", "sum-lt-6")[n % 4],
                     "scoring": ("sum", "digits", "count", "sum-plus-roll")[n // 4 % 4],
                     "doubles_extra_turn": n % 2 == 0}
            made = http.post(f"{url}/api/rooms", json={"preset": "web-12", "rules": rules,
                                                        "seats": [{"name": "Flood"}]})
            if made.status_code == 201:
                code, token = made.json()["code"], made.json()["token"]
                auth = {"Authorization": f"Bearer {token}"}
                http.post(f"{url}/api/rooms/{code}/actions", json={"type": "roll"}, headers=auth)
                rooms.append((code, token))
        if not rooms:
            return 0
        code, token = rooms[n % len(rooms)]
        hinted = http.get(f"{url}/api/rooms/{code}/hint", headers={"Authorization": f"Bearer {token}"})
        return hinted.status_code

    return hint


def phase(url: str, path: str | None, seconds: float, number: int) -> dict[str, Any]:
    stop, answered = threading.Event(), Counter[str]()
    threads = flooding(url, path, FLOOD.format(number), stop, answered) if path else []
    latencies = play(url, seconds, PLAYER.format(number))
    stop.set()
    for thread in threads:
        thread.join(timeout=600)
    ms = sorted(1000 * latency for latency in latencies)
    return {
        "flood": path or "none",
        "actions": len(ms),
        "p50_ms": round(statistics.median(ms), 1) if ms else None,
        "p99_ms": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 1) if ms else None,
        "flood_answers": dict(answered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of another checkout to measure")
    parser.add_argument("--paths", default="cheatsheet,train-answer,train-pool,hints")
    args = parser.parse_args()
    with server(args.baseline) as url:
        print(json.dumps(phase(url, None, args.seconds, 1)), flush=True)
        for number, path in enumerate(args.paths.split(","), start=2):
            print(json.dumps(phase(url, path, args.seconds, number)), flush=True)


if __name__ == "__main__":
    main()
