"""Train a small agent on 6 tiles and plot its learning curve against optimal play.

    python examples/learning_curve.py [--episodes 6000] [--out learning.png]

The agent learns by temporal differences on afterstates (`shutthebox.research.agents.learn`); after
every 250 episodes its greedy policy is valued exactly, and the plot sets that expected score beside
the exact solver's (needs the extras research and sim: pip install 'shutthebox[research,sim]').
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from shutthebox.research.agents import learn
from shutthebox.research.gym import ShutTheBoxEnv
from shutthebox.strategy.solver import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="learning.png")
    args = parser.parse_args()
    env = ShutTheBoxEnv(tiles=6)
    _, curve = learn(env, args.episodes, args.seed, every=250)
    best = solve(env.rules).value
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot([e for e, _ in curve], [s for _, s in curve], marker=".", label="learnt policy (exact value)")
    axes.axhline(best, color="green", label=f"optimal play: {best:.3f}")
    axes.set(xlabel="episodes", ylabel="expected score (lower is better)", title="6 tiles, classic rules")
    axes.legend()
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"after {curve[-1][0]} episodes: {curve[-1][1]:.3f} (optimal {best:.3f}); plot in {args.out}")


if __name__ == "__main__":
    main()
