"""Memory per open room, and memory once the rooms are gone: ``python benchmarks/bench_room_memory.py``.

A server process (the app in a TestClient, on a temporary SQLite file) opens N online rooms of two
players and plays a few actions in each; tracemalloc measures what they hold. Then the clock moves
past `Settings.room_memory_seconds` and the sweep lets the idle copies go: what is left is what a
server holds for no room (the rooms stay in the database, read back when asked for).
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
import tracemalloc
from pathlib import Path

from fastapi.testclient import TestClient

from shutthebox.web import Settings, create_app


def measure(rooms: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 'm.db'}", bot_delay=0, tick_seconds=3600,
                            max_rooms_per_client=rooms + 1, max_rooms_per_player=rooms + 1,
                            rate_rooms="1000000/minute", rate_joins="1000000/minute",
                            rate_room_requests="1000000/minute")
        with TestClient(create_app(settings)) as client:
            server = client.app.state.server  # type: ignore[attr-defined]
            warm = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"kind": "remote"}]}).json()
            client.post(f"/api/rooms/{warm['code']}/join", json={"name": "Luis"})
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for index in range(rooms):
                made = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"kind": "remote"}],
                                                       "rules": {"mode": "round"}}).json()
                code, ana = made["code"], {"Authorization": f"Bearer {made['token']}"}
                client.post(f"/api/rooms/{code}/join", json={"name": f"Luis{index}"})
                client.post(f"/api/rooms/{code}/actions", json={"type": "roll"}, headers=ana)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0]
            assert len(server.copies) == rooms + 1
            assert client.portal is not None
            client.portal.call(server.worker.sweep, time.time() + settings.room_memory_seconds + 1)
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            left = len(server.copies)
    return {
        "rooms": rooms, "kib_per_open_room": round((held - before) / rooms / 1024, 1),
        "kib_held_for_open_rooms": round((held - before) / 1024), "rooms_held_after_sweep": left,
        "kib_left_after_sweep": round((after - before) / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    print(json.dumps(measure(parser.parse_args().rooms)))


if __name__ == "__main__":
    main()
