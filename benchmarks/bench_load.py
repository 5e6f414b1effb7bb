"""The load benchmarks of docs/performance.md, each one ``shutthebox loadtest --spawn`` run:

- human pace: N games at once, each seat acting after a think time drawn from 0.5-1.5 s, on 1 and
  on 2 server processes (1: SQLite; 2: a temporary PostgreSQL and Redis);
- saturation: games as fast as possible at rising concurrency, on 1 and 2 processes: actions/s and
  latency percentiles, plotted against the concurrency (matplotlib) into the output folder.

Run: ``python benchmarks/bench_load.py OUTDIR [--human-games 1000] [--quick]``. Every run's JSON and
its exact command go to OUTDIR/load.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def loadtest(*flags: str) -> dict[str, Any]:
    command = ["shutthebox", "loadtest", "--spawn", "--json", *flags]
    done = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, check=False)
    if not done.stdout.strip():
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    result["command"] = " ".join(command)
    shown = ("command", "finished", "saved", "errors", "actions_per_second", "latency_ms",
             "tester_cpu_ms_per_action", "server_cpu_ms_per_action")
    print(json.dumps({k: result.get(k) for k in shown}), flush=True)
    return result


def plot(runs: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (latency, rate) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    for workers, colour in ((1, "tab:blue"), (2, "tab:orange")):
        mine = sorted((r for r in runs if r["settings"]["spawn_workers"] == workers),
                      key=lambda r: r["settings"]["concurrency"])
        games = [r["settings"]["concurrency"] for r in mine]
        label = f"{workers} process" + ("es" if workers > 1 else "")
        for style, percentile in (("o-", "p99"), ("o--", "p50")):
            latency.plot(games, [r["latency_ms"][percentile] for r in mine], style, color=colour,
                         label=f"{label}: {percentile}")
        rate.plot(games, [r["actions_per_second"] for r in mine], "o-", color=colour, label=label)
    latency.set(xlabel="games played at once (no think time)", ylabel="action latency (ms)", yscale="log",
                title="Latency against concurrency")
    rate.set(xlabel="games played at once (no think time)", ylabel="actions per second",
             title="Throughput", ylim=(0, None))
    latency.legend(fontsize="small")
    rate.legend(fontsize="small")
    figure.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--human-games", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="small runs, to try the script")
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    levels = [5, 20] if args.quick else [5, 20, 50, 100, 200]
    per_level = 20 if args.quick else 200
    runs: dict[str, list[dict[str, Any]]] = {"human": [], "saturation": []}
    for workers in (2, 1):
        games = str(args.human_games)
        runs["human"].append(loadtest("--workers", str(workers), "--games", games, "--concurrency", games,
                                      "--think", "0.5-1.5", "--seed", "1", "--timeout", "900"))
    for workers in (1, 2):
        for level in levels:
            runs["saturation"].append(loadtest(
                "--workers", str(workers), "--games", str(max(per_level, level)), "--concurrency", str(level),
                "--seed", "1",
            ))
    (args.outdir / "load.json").write_text(json.dumps(runs, indent=1))
    plot(runs["saturation"], args.outdir / "latency.png")


if __name__ == "__main__":
    main()
