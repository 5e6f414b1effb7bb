"""Benchmarks of the solver and the simulator, each against a plain-Python baseline.

Run by hand (``make bench`` or ``.venv/bin/python benchmarks/bench.py``); it
prints medians and the ratio baseline / ours measured in the same run. Nothing
here is a pass/fail test: machines are noisy, so the figures go in notes.

- solve: a full one-turn solve (lowest expected score, classic rules) with the
  move graph already built (``warm``) and from nothing (``cold``), against
  `reader_dp` below, the plain-Python DP a reader would write in 30 lines
  (the ratios ``cold`` and ``warm`` are its time over ours), and against the
  engine-driven recursion `shutthebox.strategy.solver.exact.plain_value`.
- beat table: P(score < K) for every target K at 12 tiles at once, against
  the plain recursion run once per target.
- simulation: games per second of the optimal strategy on one core, against a
  plain-Python loop over the same policy.
- win: a two-player round solved to win, time and NumPy's peak memory
  (tracemalloc), no baseline.
- long game: the value iteration of the long game (no baseline: no plain
  method finishes in reasonable time at these sizes).
- fair dice: 100,000 dice from HMAC-SHA256 with rejection sampling (what every
  ranked game rolls, and what `verify` recomputes), against `random.Random`
  (what practice games roll); a ratio below 1 is the price of proof.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from shutthebox.core.chance import SeededDice
from shutthebox.core.fair import FairDice
from shutthebox.core.rules import Rules
from shutthebox.strategy.simulate import compile_strategy, simulate
from shutthebox.strategy.solver import (
    Objective,
    TurnKey,
    allow_one_die,
    score_ranks,
    score_table,
    solve_beat_key,
    solve_duel_key,
    solve_key,
    solve_long_key,
)
from shutthebox.strategy.solver.exact import plain_value
from shutthebox.strategy.solver.topology import tile_counts, topology


def median_seconds(
    run: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    times = []
    for _ in range(repeat):
        if setup:
            setup()
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def reader_dp(tiles: int) -> float:
    """The lowest expected score of a turn under the classic rules (one die once 7 and up are shut,
    the open tiles' sum scored), as a reader would write it: every board after its sub-boards."""
    boards = 1 << tiles
    sums = [sum(t for t in range(1, tiles + 1) if board >> (t - 1) & 1) for board in range(boards)]
    moves = {total: [m for m in range(1, boards) if sums[m] == total] for total in range(1, 13)}
    two = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    dice = {2: [(total, ways / 36) for total, ways in two.items()], 1: [(f, 1 / 6) for f in range(1, 7)]}
    value = [0.0] * boards
    for board in range(1, boards):  # a move only shuts tiles: every board after is a smaller number
        best = float("inf")
        for count in (1, 2) if board >> 6 == 0 else (2,):
            expected = 0.0
            for total, p in dice[count]:
                after = [value[board ^ m] for m in moves[total] if m & board == m]
                expected += p * (min(after) if after else sums[board])
            best = min(best, expected)
        value[board] = best
    return value[boards - 1]


def cold_start() -> None:
    """Forget every table built for a board size, as a new process has none."""
    for cached in (topology, tile_counts, allow_one_die, score_table, score_ranks):
        cached.cache_clear()


def bench_solve(tiles: int, repeat: int) -> dict[str, Any]:
    rules = Rules(tiles=tiles)
    key = TurnKey.of(rules)
    solve_key(key, Objective.SCORE)
    warm = median_seconds(lambda: solve_key(key, Objective.SCORE), repeat)
    cold = median_seconds(lambda: solve_key(key, Objective.SCORE), max(3, repeat // 10), setup=cold_start)
    assert abs(reader_dp(tiles) - solve_key(key, Objective.SCORE).value) < 1e-9  # the same question
    reader = median_seconds(lambda: reader_dp(tiles), 5)
    base = median_seconds(lambda: plain_value(rules), 3)
    return {"what": f"solve {tiles} tiles", "ours_ms": warm * 1e3, "cold_ms": cold * 1e3,
            "reader_dp_ms": reader * 1e3, "reader_over_cold": reader / cold,
            "reader_over_warm": reader / warm,
            "baseline_ms": base * 1e3, "ratio": base / warm}


def bench_beat(tiles: int, repeat: int) -> dict[str, Any]:
    rules = Rules(tiles=tiles)
    key = TurnKey.of(rules)
    table = solve_beat_key(key)
    ours = median_seconds(lambda: solve_beat_key(key), repeat)
    began = time.perf_counter()
    for target in table.targets:
        plain_value(rules, Objective.BEAT, target)
    base = time.perf_counter() - began
    return {"what": f"beat table {tiles} tiles ({len(table.targets)} targets)", "ours_ms": ours * 1e3,
            "baseline_ms": base * 1e3, "ratio": base / ours}


def plain_games(rules: Rules, games: int, seed: int) -> float:
    """Games per second of a plain-Python loop over the optimal policy's table."""
    strategy = compile_strategy(rules, "optimal")
    table = strategy.table.tolist()
    limit = strategy.finished_from * 36
    rng = random.Random(seed)
    began = time.perf_counter()
    for _ in range(games):
        state = strategy.start * 36
        while state < limit:
            state = table[state + rng.randrange(36)]
    return games / (time.perf_counter() - began)


def bench_simulation(tiles: int, games: int) -> dict[str, Any]:
    rules = Rules(tiles=tiles)
    simulate(rules, "optimal", 1000)
    runs = [simulate(rules, "optimal", games, seed=seed).games_per_second for seed in range(3)]
    ours = statistics.median(runs)
    base = plain_games(rules, 200_000, 0)
    return {"what": f"simulate optimal {tiles} tiles ({games:,} games)", "games_per_second": ours,
            "baseline_games_per_second": base, "ratio": ours / base}


def bench_long(tiles: int, doubles: bool) -> dict[str, Any]:
    key = TurnKey.of(Rules(tiles=tiles, mode="long", doubles_extra_turn=doubles))
    began = time.perf_counter()
    result = solve_long_key(key)
    seconds = time.perf_counter() - began
    return {"what": f"long game {tiles} tiles, extra turns {'on' if doubles else 'off'}",
            "ours_ms": seconds * 1e3, "sweeps": result.iterations, "value": result.value}


def bench_win(tiles: int, repeat: int) -> dict[str, Any]:
    """A two-player round solved to win (objective ``win``), its time and NumPy's peak memory."""
    import tracemalloc

    key = TurnKey.of(Rules(tiles=tiles))
    solve_duel_key(key)  # the move graph built
    seconds = median_seconds(lambda: solve_duel_key(key), repeat)
    tracemalloc.start()
    duel = solve_duel_key(key)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"what": f"win, {tiles}-tile round", "ours_ms": seconds * 1e3, "peak_mib": peak / 2**20,
            "value": duel.value}


def bench_dice(count: int, repeat: int) -> dict[str, Any]:
    def roll(dice: FairDice | SeededDice) -> None:
        for _ in range(count):
            dice.roll(1)

    ours = median_seconds(lambda: roll(FairDice(bytes(32), ["client"])), repeat)
    base = median_seconds(lambda: roll(SeededDice(1)), repeat)
    return {"what": f"fair dice, {count:,} dice", "ours_ms": ours * 1e3, "baseline_ms": base * 1e3,
            "ratio": base / ours}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and games")
    parser.add_argument("--long", action="store_true", help="also time the long game at 12 tiles")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    repeat = 20 if args.quick else 100
    games = 2_000_000 if args.quick else 10_000_000
    results = [
        bench_solve(9, repeat),
        bench_solve(12, repeat),
        bench_beat(12, max(5, repeat // 10)),
        bench_simulation(9, games),
        bench_simulation(12, games),
        bench_win(9, max(3, repeat // 10)),
        bench_win(12, 3),
        bench_long(9, False),
        bench_long(9, True),
        bench_dice(100_000, 5 if args.quick else 15),
    ]
    if args.long:
        results += [bench_long(12, False), bench_long(12, True)]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        if "games_per_second" in r:
            print(f"{r['what']:48} {r['games_per_second']:>14,.0f} games/s   baseline "
                  f"{r['baseline_games_per_second']:>10,.0f}   ratio {r['ratio']:7.1f}x")
        elif "baseline_ms" in r:
            cold = f"  (cold {r['cold_ms']:.2f} ms)" if "cold_ms" in r else ""
            print(f"{r['what']:48} {r['ours_ms']:10.3f} ms median{cold}   baseline "
                  f"{r['baseline_ms']:10.1f} ms   ratio {r['ratio']:7.1f}x")
            if "reader_dp_ms" in r:
                print(f"{'  against the reader DP':48} {r['reader_dp_ms']:10.3f} ms   cold "
                      f"{r['reader_over_cold']:5.2f}x   warm {r['reader_over_warm']:6.1f}x (its time / ours)")
        elif "peak_mib" in r:
            print(f"{r['what']:48} {r['ours_ms']:10.1f} ms   peak {r['peak_mib']:.0f} MiB   "
                  f"value {r['value']:.12f}")
        else:
            print(f"{r['what']:48} {r['ours_ms']:10.1f} ms   {r['sweeps']} sweeps   value {r['value']:.12f}")


if __name__ == "__main__":
    main()
