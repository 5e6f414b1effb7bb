"""The CPU of a room's write, as group commit makes it (`RoomRepository.keep_group`): 200 rooms in
play, each write an action, in groups of 1 and of 20, on SQLite (a temporary file, full syncs) and,
with ``--postgres``, on a throwaway PostgreSQL (its own CPU counted apart). Run: ``python
benchmarks/bench_room_write.py [--postgres] [--baseline SRC]`` (SRC: the src folder of another
checkout, timed in a process of its own, side by side).

Figures are ratios of one run on one machine: compare runs made side by side, not a number.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from shutthebox.ops.procs import processes

ROOMS = 200
ROUNDS = 10


def postgres_cpu() -> float:
    """User + system CPU of every PostgreSQL process on this machine, in seconds."""
    return sum(proc.cpu_seconds for proc in processes().values() if proc.name == "postgres")


def measure(postgres: bool) -> dict[str, float]:
    """Milliseconds of CPU per write, in groups of 1 and 20 (and PostgreSQL's own, if used)."""
    from shutthebox.ops.throwaway import temporary_postgres
    from shutthebox.storage.database import Database
    from shutthebox.storage.rooms import KeptRoom, RoomRepository

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        server: Any = temporary_postgres(Path(folder)) if postgres else nullcontext(f"sqlite:///{folder}/w.db")
        with server as url:
            database = Database.open(url)
            repository = RoomRepository(database)
            rooms = []
            for n in range(ROOMS):
                room = KeptRoom(
                    code=f"R{n:04d}", status="playing", setup={"rules": {"tiles": 9}, "seed": 5},
                    dice={"server_seed": "x" * 64}, extra={"notices": []},
                    seats=[{"index": 0, "name": "Ana", "token_hash": "a" * 64}],
                )
                room.version = repository.keep(room)
                room.settled = frozenset(("setup", "dice", "seats"))
                rooms.append(room)
            place = 0
            for size in (1, 20):
                before_pg, before, writes = postgres_cpu(), time.process_time(), 0
                for _round in range(ROUNDS):
                    for first in range(0, ROOMS, size):
                        group = rooms[first:first + size]
                        versions = repository.keep_group([(room, [(place, {"player": 0, "roll": [3, 4]})])
                                                          for room in group])
                        for room, version in zip(group, versions, strict=True):
                            assert isinstance(version, int)
                            room.version = version
                        writes += len(group)
                    place += 1
                figures[f"group_{size}_ms"] = (time.process_time() - before) / writes * 1e3
                if postgres:
                    figures[f"group_{size}_postgres_ms"] = (postgres_cpu() - before_pg) / writes * 1e3
            database.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL, not SQLite")
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of a checkout to compare with")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        print(json.dumps(measure(args.postgres)))
        return
    runs = {"this": None, "baseline": args.baseline} if args.baseline else {"this": None}
    found = {}
    for name, source in runs.items():
        env = {**os.environ, "PYTHONPATH": source} if source else None
        command = [sys.executable, __file__, "--inner", *(["--postgres"] if args.postgres else [])]
        out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
        found[name] = json.loads(out.splitlines()[-1])
        print(json.dumps({"code": name, **{key: round(value, 3) for key, value in found[name].items()}}))
    if args.baseline:
        print(json.dumps({f"{key}_vs_baseline": round(found["this"][key] / found["baseline"][key], 3)
                          for key in found["this"] if found["baseline"].get(key)}))


if __name__ == "__main__":
    main()
