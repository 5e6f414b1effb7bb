"""Rounds of two to eight solved exactly: time and peak memory, against the duel in the same run.

    python benchmarks/bench_rounds.py [--tiles 12] [--players 8] [--stake] [--json]

Run by hand; the figures go in notes (machines are noisy: read the ratios). Each round is solved in a
fresh process, from nothing (its tie-breaks' smaller rounds included, as a first hint would); its
memory is the process's peak resident size less what it held before the solve. The baseline is the
two-player round solved by its own method (`solve_duel`), timed in the same processes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any


def child(tiles: int, players: int, objective: str) -> dict[str, Any]:
    from shutthebox.core.rules import Rules
    from shutthebox.strategy.solver import solve_duel, solve_round
    from shutthebox.strategy.solver.topology import topology

    rules = Rules(tiles=tiles)
    topology(tiles, None)  # the move graph is shared by every solve: built before the clocks
    started = time.perf_counter()
    solve_duel(rules)
    duel = time.perf_counter() - started
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started, cpu = time.perf_counter(), time.process_time()
    solved = solve_round(rules, players, objective)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    return {"tiles": tiles, "players": players, "objective": objective, "wall": wall, "cpu": cpu,
            "peak": peak, "duel": duel, "sweeps": solved.sweeps, "residual": solved.residual,
            "seats": list(solved.seats)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=12)
    parser.add_argument("--players", type=int, default=8, help="the largest round (2 to 8)")
    parser.add_argument("--stake", action="store_true", help="the rounds for stakes too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        tiles, players, objective = args.child
        print(json.dumps(child(int(tiles), int(players), objective)))
        return
    rows = []
    for objective in ("win", "stake") if args.stake else ("win",):
        for players in range(2, args.players + 1):
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(args.tiles), str(players), objective],
                check=True, capture_output=True, text=True,
            )
            row = json.loads(done.stdout)
            rows.append(row)
            if not args.json:
                print(f"{objective:5} {args.tiles} tiles, {players} players: {row['wall']:7.2f} s wall"
                      f" ({row['cpu']:6.2f} s cpu), {row['wall'] / row['duel']:6.1f}x the duel"
                      f" ({1000 * row['duel']:.0f} ms), memory +{row['peak'] / 2**20:6.1f} MiB,"
                      f" {row['sweeps']} sweeps, residual {row['residual']:.1e}", flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
