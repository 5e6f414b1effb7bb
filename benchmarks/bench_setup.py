"""How long the terminal game's setup screen takes to appear, and how long a game screen takes.

    python benchmarks/bench_setup.py [--runs 10] [--profile]

Each run makes a new app, headless at 80x24 (Textual's own test driver), and times it from the
start until the first screen is on: the setup form (``shutthebox play`` with no names), and, for
comparison, the game screen (``shutthebox play Ana``). The figure is the median of the runs, the
first (cold: the stylesheet of each kind of widget parsed for the first time in the process) apart.
``--profile`` prints where one cold start of the form spends its time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import time

from shutthebox.core.rules import Mode, Rules
from shutthebox.term.app import ShutTheBoxApp
from shutthebox.term.screens import SetupScreen
from shutthebox.term.session import PlaySetup


async def _shown(setup: PlaySetup | None) -> float:
    app = ShutTheBoxApp(setup, bot_delay=0)
    start = time.perf_counter()
    async with app.run_test(size=(80, 24)) as pilot:
        while setup is None and not isinstance(app.screen, SetupScreen):
            await pilot.pause()
        await pilot.pause()  # the first frame drawn
        took = time.perf_counter() - start
        await app.action_quit()
    return took


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        asyncio.run(_shown(None))
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return 0
    game = PlaySetup(rules=Rules(mode=Mode.SOLO), humans=("Ana",), seed=1)
    for name, setup in (("setup form", None), ("game screen", game)):
        times = [asyncio.run(_shown(setup)) for _ in range(args.runs + 1)]
        warm = statistics.median(times[1:])
        print(f"{name:12} cold {times[0] * 1000:6.0f} ms   warm median {warm * 1000:6.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
