"""Where a hint should stop solving in plain Python and load the vectorized solver.

    python benchmarks/bench_hint_paths.py [--runs 7]

For positions with 4 to 12 open tiles on a 12-tile board (lowest score, classic
rules), each path is timed in a fresh process from its first import to the
answer: `PlainTurn` (plain Python over the position's sub-boards) against the
vectorized solver (NumPy loaded, the turn solved whole). The median of
``--runs`` processes each; `shutthebox.strategy.plain.PLAIN_MOST_TILES` is the
last count where plain Python answers first.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

PROBE = """
import time
began = time.perf_counter()
from shutthebox.core.rules import Rules
from shutthebox.strategy.names import Objective
rules, board = Rules(tiles=12), (1 << {open_tiles}) - 1
if {plain}:
    from shutthebox.strategy.plain import PlainTurn
    PlainTurn(rules, Objective.SCORE).dice_values(board)
else:
    from shutthebox.strategy.solver import solve
    solve(rules, Objective.SCORE).dice_values(board)
print(time.perf_counter() - began)
"""


def seconds(open_tiles: int, plain: bool) -> float:
    code = PROBE.format(open_tiles=open_tiles, plain=plain)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"{'open tiles':>10} {'plain ms':>9} {'numpy ms':>9}   ({args.runs} processes each, medians)")
    for open_tiles in range(4, 13):
        plain = statistics.median(seconds(open_tiles, True) for _ in range(args.runs))
        vectorized = statistics.median(seconds(open_tiles, False) for _ in range(args.runs))
        print(f"{open_tiles:>10} {plain * 1e3:9.1f} {vectorized * 1e3:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
