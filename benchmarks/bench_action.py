"""The game's own work per action, without the serving stack: whole solo games played through the rooms
service (`web.rooms.RoomDesk`) of a process assembled as `serve` assembles it, on a temporary SQLite
file, each with a listener as a socket has (the state drawn and written at every change), every write
group-committed. What `bench_server.py` measures less uvicorn, the middlewares, FastAPI, the rate
limits and the messages' parsing. Run: ``python benchmarks/bench_action.py [--games N] [--baseline SRC]
[--rounds N] [--profile FILE]`` (SRC: the src folder of another checkout, measured in a process of its
own, the two alternated round by round).

Figures are ratios of one run on one machine: compare runs made side by side, not a number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONCURRENCY = 20
"""Games in play at once, as `bench_server.py` plays them: the writes of a moment go in one group."""


async def play(games: int, seed: int) -> tuple[int, float]:
    """``games`` whole 9-tile solo games, `CONCURRENCY` at once, as `shutthebox loadtest` plays them;
    the actions and the process's CPU seconds they took (creation, listening, actions, writes and
    saves)."""
    from shutthebox.core.match import Phase
    from shutthebox.storage import Database
    from shutthebox.web.app import assemble
    from shutthebox.web.fanout import Listener
    from shutthebox.web.hub import LocalHub
    from shutthebox.web.schemas import ActionIn, CreateRoom, DiceIn, MoveIn, RollIn
    from shutthebox.web.settings import Settings

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 'b.db'}", bot_delay=0, tick_seconds=3600)
        database = Database.open(settings.database_url or "")
        server = assemble(settings, database, clock=time.time, hub=LocalHub())
        await server.start()
        actions = 0

        async def one(index: int) -> None:
            nonlocal actions
            address = f"10.0.{index // 250}.{index % 250 + 1}"
            body = CreateRoom.model_validate({"seats": [{"kind": "here", "name": f"Load {index + 1}"}],
                                              "rules": {"tiles": 9}})
            held, token = await server.rooms.create(body, None, address, None)
            listener = Listener(token, held.room.seats_of(token), "en", address=address)
            await server.fanout.listen(held, listener)
            while True:
                while not listener.queue.empty():
                    listener.queue.get_nowait()
                game = held.room.game
                assert game is not None
                state = game.state
                if state.is_over:
                    break
                action: ActionIn = RollIn(type="roll")
                if state.legal_moves:
                    action = MoveIn(type="move", tiles=sorted(rng.choice(state.legal_moves).tiles))
                elif state.phase is Phase.CHOOSE:
                    action = DiceIn(type="dice", count=rng.choice(state.dice_options))
                held = await server.rooms.act(held.code, token, action)
                actions += 1
            await server.fanout.leave(held.code, listener)

        async def games_in_turn(first: int) -> None:
            for index in range(first, games, CONCURRENCY):
                await one(index)

        start = time.process_time()
        await asyncio.gather(*(games_in_turn(first) for first in range(CONCURRENCY)))
        spent = time.process_time() - start
        await server.stop()
        database.close()
    return actions, spent


def measure(games: int, profile: str | None) -> dict[str, float]:
    """Milliseconds of CPU per action in this process, after a warm-up."""
    asyncio.run(play(30, seed=0))
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    actions, spent = asyncio.run(play(games, seed=1))
    if profile:
        profiler.disable()
        profiler.dump_stats(profile)
    return {"actions": actions, "cpu_ms_per_action": round(1000 * spent / actions, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3, help="measures of each checkout (the median ratio)")
    parser.add_argument("--baseline", metavar="SRC", help="the src folder of a checkout to compare with")
    parser.add_argument("--profile", metavar="FILE", help="write cProfile's statistics of one run here")
    parser.add_argument("--alone", action="store_true", help=argparse.SUPPRESS)  # one measure, as JSON
    args = parser.parse_args()
    if args.alone or args.profile:
        print(json.dumps(measure(args.games, args.profile)))
        return
    here = str(Path(__file__).resolve())
    sources = [None, *([args.baseline] if args.baseline else [])]
    ratios = []
    for _ in range(args.rounds):
        figures = []
        for source in sources:
            env = {**os.environ, "PYTHONPATH": source} if source else None
            done = subprocess.run([sys.executable, here, "--alone", "--games", str(args.games)],
                                  capture_output=True, text=True, check=True, env=env)
            figures.append(json.loads(done.stdout))
            print(json.dumps({"code": source or "this", **figures[-1]}))
        if args.baseline:
            ratios.append(figures[0]["cpu_ms_per_action"] / figures[1]["cpu_ms_per_action"])
    if ratios:
        print(json.dumps({"cpu_per_action_vs_baseline": round(statistics.median(ratios), 3),
                          "ratios": [round(r, 3) for r in ratios]}))


if __name__ == "__main__":
    main()
