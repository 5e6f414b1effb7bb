"""The cost of drawing a room's state for a socket: `web.views.room_json` and its JSON text, as
every change is pushed, for a two-player room in play, in English and in Spanish. Run:
``python benchmarks/bench_state.py [--baseline SRC]`` (SRC: the src folder of another checkout,
timed in a process of its own, side by side).

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
from pathlib import Path

ROUNDS = 2000
REPEATS = 5


def measure() -> dict[str, float]:
    """Microseconds per state drawn and written, in each language, in this process."""
    from fastapi.testclient import TestClient

    from shutthebox.i18n import using
    from shutthebox.web import Settings, create_app
    from shutthebox.web.fanout import encoded
    from shutthebox.web.views import room_json

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 's.db'}", bot_delay=0, tick_seconds=3600)
        with TestClient(create_app(settings)) as client:
            made = client.post("/api/rooms", json={"seats": [{"name": "Ana"}, {"kind": "remote"}], "seed": 7})
            code, token = made.json()["code"], made.json()["token"]
            assert client.post(f"/api/rooms/{code}/join", json={"name": "Luis"}).status_code == 200
            for _ in range(6):  # the roll-off and a turn begun: a state with a history and choices
                state = client.get(f"/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"}).json()
                if state["match"]["actor"] != 0:
                    break
                action = ({"type": "move", "tiles": state["match"]["legal_moves"][0]}
                          if state["match"]["legal_moves"] else {"type": "roll"})
                client.post(f"/api/rooms/{code}/actions", json=action,
                            headers={"Authorization": f"Bearer {token}"})
            server = client.app.state.server  # type: ignore[attr-defined]
            held = server.copies.find(code)
            figures: dict[str, float] = {}
            for _repeat in range(REPEATS):  # the best of a few: the least disturbed by the machine
                for lang in ("en", "es"):
                    start = time.perf_counter()
                    for _ in range(ROUNDS):
                        with using(lang):
                            encoded({"type": "state", "state": room_json(
                                held.room, token, time.time(), {0, 1}, version=held.version
                            )})
                    took = (time.perf_counter() - start) / ROUNDS * 1e6
                    figures[lang] = min(took, figures.get(lang, took))
            return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of a checkout to compare with")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        print(json.dumps(measure()))
        return
    runs = {"this": None, "baseline": args.baseline} if args.baseline else {"this": None}
    found = {}
    for name, source in runs.items():
        env = {**os.environ, "PYTHONPATH": source} if source else None
        out = subprocess.run([sys.executable, __file__, "--inner"], capture_output=True, text=True, env=env,
                             check=True).stdout
        found[name] = json.loads(out.splitlines()[-1])
        per_state = {f"{lang}_us_per_state": round(us, 1) for lang, us in found[name].items()}
        print(json.dumps({"code": name, **per_state}))
    if args.baseline:
        print(json.dumps({f"{lang}_vs_baseline": round(found["this"][lang] / found["baseline"][lang], 3)
                          for lang in found["this"]}))


if __name__ == "__main__":
    main()
