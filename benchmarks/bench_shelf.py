"""A round of eight on 12 tiles, solved from nothing or read back from the shelf: time and peak memory.

Run twice with the same folder: ``python benchmarks/bench_shelf.py DIR`` (the first run solves and
keeps the rounds in DIR, the second reads them back). Figures go in notes, as ratios of one machine.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from shutthebox import Rules
from shutthebox.strategy.solver import keep_rounds_in, solve_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--tiles", type=int, default=12)
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()
    keep_rounds_in(args.folder)
    wall, cpu = time.perf_counter(), time.process_time()
    solve_round(Rules(tiles=args.tiles), args.players)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kept = sum(path.stat().st_size for path in args.folder.rglob("*") if path.is_file())
    print(f"round of {args.players} on {args.tiles} tiles: {wall:.2f} s wall, {cpu:.2f} s CPU, "
          f"peak {peak:.0f} MiB; the shelf holds {kept / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
