"""The worst hints the page can ask for, each in a fresh process: time and peak memory, bounded or not.

    python benchmarks/bench_hint_bound.py [--quick] [--json]
    python benchmarks/bench_hint_bound.py --calibrate [--all]
    python benchmarks/bench_hint_bound.py --rounds

Run by hand; nothing here is a pass/fail test (machines are noisy), the
figures go in notes. Every hint is asked in a process of its own, so no cache
helps it and its peak resident memory (``ru_maxrss``) is its own; "extra" is
that peak less the process's before the hint (Python, NumPy, the app).

- default: the hints of 12 tiles with extra turns on doubles the page can ask
  for (each objective, each scoring), asked of the solver directly
  (`shutthebox.strategy.advice.advise`, what the server did before the bound)
  and of `shutthebox.web.advisor.Advisor` with its default budget, against
  the estimate (`shutthebox.strategy.cost`) the bound is enforced on. The
  unbounded 12-tile ``digits`` rounds take minutes and 6 to 9 GB;
  ``--quick`` leaves out the unbounded runs estimated over 20 s.
- ``--calibrate``: solves of every objective from 6 to 12 tiles, each timed
  and measured against its estimate (the ratios must stay under 1: the
  estimate is a bound). ``--all`` adds the 11- and 12-tile ``digits`` rounds.
- ``--rounds``: the repetitions of the ``win`` and ``long`` solves over every
  rule option (half an hour), from which `shutthebox.strategy.cost` takes its
  bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from shutthebox.core.dice import Roll
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Rules
from shutthebox.strategy.cost import Cost, cost_of, estimate
from shutthebox.strategy.names import Objective
from shutthebox.web.advisor import Advisor

NS_PER_CELL = 5
"""About the most processor time a cell of work takes on the machine the model was calibrated on."""

WORST: list[tuple[str, dict[str, Any], int, bool]] = [
    ("round of 2, sum", {"scoring": "sum"}, 2, False),
    ("round of 2, sum-plus-roll", {"scoring": "sum-plus-roll"}, 2, False),
    ("round of 2, count", {"scoring": "count"}, 2, False),
    ("round of 2, digits, no extra turns", {"scoring": "digits", "doubles_extra_turn": False}, 2, False),
    ("round of 2, digits", {"scoring": "digits"}, 2, False),
    ("round of 3, digits, first turn", {"scoring": "digits"}, 3, False),
    ("round of 3, digits, second turn", {"scoring": "digits"}, 3, True),
    ("elimination of 8, digits", {"scoring": "digits", "mode": "elimination"}, 8, False),
    ("long game", {"mode": "long"}, 2, False),
    ("long game, one tile per roll", {"mode": "long", "max_tiles": 1}, 2, False),
]
"""The page's 12-tile preset (``web-12``) with extra turns on, and each change; players; whether the
hint is for the second turn of the round (a score to beat posted)."""


def worst_rules(options: dict[str, Any]) -> Rules:
    return Rules.preset("web-12", **{"doubles_extra_turn": True, **options})


def position(rules: Rules, players: int, later: bool) -> Match:
    """The first decision of the match (after a roll-off the first seat wins), or of its second turn."""
    state = Match.new(rules, [f"P{i + 1}" for i in range(players)])
    rolls = itertools.cycle([(3, 4), (6, 5), (2, 1), (5, 5), (4, 2)])
    while not state.is_decision or (later and not state.round_scores):
        if state.phase is Phase.ROLL_OFF:
            face = 6 if state.actor == state.contenders[0] else 1
            state = state.apply(Roll((face,)), state.actor)
        elif state.is_chance:
            state = state.apply(Roll(next(rolls)[: state.dice_due]), state.actor)
        else:  # the first turn, played out
            state = state.apply(state.legal_actions()[-1], state.actor)
    return state


def _rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One measured hint (or one bare solve), in this process."""
    rules = Rules.from_dict(spec["rules"])
    if spec["kind"] == "solve":
        from shutthebox.strategy.advice import solution_for

        base, began, cpu = _rss(), time.perf_counter(), time.process_time()
        solution_for(rules, Objective.parse(spec["objective"]), spec.get("target"))
        return {"seconds": time.perf_counter() - began, "cpu": time.process_time() - cpu,
                "extra": _rss() - base, "peak": _rss()}
    state = position(rules, spec["players"], spec["later"])
    from shutthebox.strategy.advice import advise

    advisor = Advisor()
    base, began, cpu = _rss(), time.perf_counter(), time.process_time()
    if spec["kind"] == "bounded":
        try:
            answer = asyncio.run(advisor.advise(state))
        except Exception as error:  # the refusal is a result too
            return {"seconds": time.perf_counter() - began, "extra": _rss() - base, "refused": str(error)}
    else:
        answer = advise(state).to_json()
    return {
        "seconds": time.perf_counter() - began, "cpu": time.process_time() - cpu,
        "extra": _rss() - base, "peak": _rss(),
        "objective": answer["objective"], "bounded": answer.get("bounded"),
    }


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _mb(size: float) -> str:
    return f"{size / 1e6:,.0f}"


def worst(quick: bool) -> list[dict[str, Any]]:
    advisor = Advisor()
    rows = []
    for label, options, players, later in WORST:
        rules = worst_rules(options)
        state = position(rules, players, later)
        asked: Cost = estimate(state)
        plan = advisor.plan(state)
        spec = {"rules": rules.to_dict(), "players": players, "later": later}
        row: dict[str, Any] = {
            "case": label, "asked": str(asked.objective), "answered": str(plan.objective),
            "estimate": {"cells": asked.cells, "bytes": asked.bytes},
            "bound": {"cells": plan.cost.cells, "bytes": plan.cost.bytes},
        }
        if quick and asked.cells * NS_PER_CELL * 1e-9 > 20:
            row["unbounded"] = None
        else:
            row["unbounded"] = measure({**spec, "kind": "unbounded"})
        row["bounded"] = measure({**spec, "kind": "bounded"})
        rows.append(row)
        print(_row(row), file=sys.stderr, flush=True)
    return rows


def _row(row: dict[str, Any]) -> str:
    est, bound, free, held = row["estimate"], row["bound"], row["unbounded"], row["bounded"]
    objective = row["asked"] if row["asked"] == row["answered"] else f"{row['asked']} -> {row['answered']}"

    def measured(result: dict[str, Any] | None) -> str:
        if result is None:
            return f"{'(not run)':>26}"
        return f"{result['seconds']:7.2f} s {result['cpu']:7.2f} s {_mb(result['extra']):>6} MB"

    def bounded(cost: dict[str, int]) -> str:
        return f"{cost['cells'] * NS_PER_CELL * 1e-9:6.1f} s {_mb(cost['bytes']):>6} MB"

    columns = (bounded(est), measured(free), measured(held), bounded(bound))
    return f"{row['case']:36} {objective:14} " + " | ".join(columns)


def print_worst(rows: list[dict[str, Any]]) -> None:
    advisor = Advisor()
    seconds = advisor.max_cells * NS_PER_CELL * 1e-9
    print(f"12 tiles, preset web-12, extra turns on; budget {advisor.max_cells / 1e9:g}e9 cells "
          f"(~{seconds:.0f} s at {NS_PER_CELL} ns/cell), {_mb(advisor.max_bytes)} MB")
    print(f"{'hint':36} {'objective':14} {'estimate (asked)':>16} | {'unbounded: wall, cpu, extra':>26} | "
          f"{'with the Advisor':>26} | {'bound (answered)':>16}")
    for row in rows:
        print(_row(row))


CALIBRATION: list[tuple[str, dict[str, Any], int | None]] = [
    ("score", {}, None),
    ("shut", {}, None),
    ("beat", {}, 20),
    ("long", {"mode": "long"}, None),
    ("long", {"mode": "long", "max_tiles": 1, "one_die": "sum-lt-6"}, None),
    ("win", {"scoring": "sum"}, None),
    ("win", {"scoring": "sum-plus-roll"}, None),
    ("win", {"scoring": "count"}, None),
    ("win", {"scoring": "digits"}, None),
]


def calibrate(every: bool) -> list[dict[str, Any]]:
    rows = []
    print(f"{'solve':58} {'cpu s':>8} {'bound s':>8} {'ratio':>6} "
          f"{'extra MB':>9} {'bound MB':>9} {'ratio':>6}")
    for tiles, doubles, (objective, options, target) in itertools.product(
        (6, 8, 9, 10, 11, 12), (False, True), CALIBRATION
    ):
        if objective == "win" and options["scoring"] == "digits" and tiles >= 11 and not every:
            continue
        rules = Rules(tiles=tiles, doubles_extra_turn=doubles, **options)
        cost = cost_of(rules, objective)
        spec = {"kind": "solve", "rules": rules.to_dict(), "objective": objective, "target": target}
        result = measure(spec)
        bound_s = cost.cells * NS_PER_CELL * 1e-9
        row = {"rules": rules.describe(), "objective": objective, **result,
               "bound_seconds": bound_s, "bound_bytes": cost.bytes}
        rows.append(row)
        print(f"{objective + ': ' + rules.describe():58} {result['cpu']:8.3f} {bound_s:8.3f} "
              f"{result['cpu'] / bound_s:6.2f} {_mb(result['extra']):>9} {_mb(cost.bytes):>9} "
              f"{result['extra'] / cost.bytes:6.2f}", flush=True)
    worst_time = max(r["cpu"] / r["bound_seconds"] for r in rows)
    worst_memory = max(r["extra"] / r["bound_bytes"] for r in rows)
    print(f"highest ratios: time {worst_time:.2f}, memory {worst_memory:.2f} (a bound keeps both under 1)")
    return rows


def rounds() -> None:
    """The most repetitions of ``win`` and ``long`` solves, per board size, over every rule option."""
    from shutthebox.core.errors import RulesError
    from shutthebox.strategy import solver
    from shutthebox.strategy.solver import TurnKey, solve_duel_key, solve_long_key
    from shutthebox.strategy.solver.turn import solve_turn

    turns = [0]
    real = solve_turn

    def counting(*args: Any, **kwargs: Any) -> Any:
        turns[0] += 1
        return real(*args, **kwargs)

    setattr(solver, "solve_turn", counting)  # noqa: B010 - the name the solver calls
    most: dict[tuple[str, int], int] = {}
    for tiles in range(1, 13):
        limits = [None, *range(1, tiles)] if tiles <= 8 else [None, 1, 2]
        for one_die, forced, limit, doubles in itertools.product(
            ("high-shut", "sum-le-6", "sum-lt-6", "never"), (False, True), limits, (False, True)
        ):
            if tiles > 8 and forced and one_die != "sum-le-6":
                continue
            try:
                base = Rules(tiles=tiles, one_die=one_die, one_die_forced=forced,
                             max_tiles=limit, doubles_extra_turn=doubles)
            except RulesError:
                continue
            if not (tiles == 1 and one_die == "never"):
                kind = "long, one tile per roll" if limit == 1 and tiles > 1 else "long"
                sweeps = solve_long_key(TurnKey.of(base)).iterations
                most[kind, tiles] = max(most.get((kind, tiles), 0), sweeps)
            scorings = ("sum", "count", "sum-plus-roll", "digits")
            for scoring, shut_wins in itertools.product(scorings, (True, False)):
                if scoring == "digits" and tiles > 9:
                    continue  # its ties are among those of sum (the same open set): sum's bound holds
                turns[0] = 0
                solve_duel_key(TurnKey.of(base.but(scoring=scoring)), shut_wins=shut_wins)
                kind = "win, count" if scoring == "count" else "win"
                most[kind, tiles] = max(most.get((kind, tiles), 0), turns[0] // 2)
        print(tiles, {kind: n for (kind, t), n in sorted(most.items()) if t == tiles}, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="leave out unbounded hints estimated over 20 s")
    parser.add_argument("--calibrate", action="store_true", help="every objective's solves against the model")
    parser.add_argument("--all", action="store_true", help="with --calibrate: 11- and 12-tile digits rounds")
    parser.add_argument("--rounds", action="store_true", help="repetitions of win and long solves (slow)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--table", help="print the table of a JSON file written by --json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.rounds:
        rounds()
        return
    if args.table:
        print_worst(json.loads(Path(args.table).read_text()))
        return
    if args.calibrate:
        rows = calibrate(args.all)
    else:
        rows = worst(args.quick)
        if not args.json:
            print_worst(rows)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
