"""The reference agents and the learner: the optimal agent is the solver's, greedy and heuristic
play worse, and the small learner gets within 5 % of optimal play on 6 tiles (seeded), its
policy valued exactly."""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shutthebox.research.agents import exact_score, greedy, heuristic, learn, masked_random, optimal
from shutthebox.research.gym import ShutTheBoxEnv
from shutthebox.strategy.solver import solve

pytestmark = pytest.mark.slow  # agents trained and run for whole episodes


def mean_score(env: ShutTheBoxEnv, agent: object, episodes: int) -> tuple[float, float]:
    scores = []
    for seed in range(episodes):
        observation, info = env.reset(seed=seed)
        over = False
        while not over:
            observation, reward, over, _, info = env.step(agent(env, observation, info["action_mask"]))  # type: ignore[operator]
        scores.append(-reward)
    return statistics.mean(scores), 3.29 * statistics.stdev(scores) / math.sqrt(episodes)


def policy_of(env: ShutTheBoxEnv, agent: object) -> dict[tuple[int, int, int], int]:
    """The agent's action at every decision of a turn, asked with the observation it would see."""
    policy = {}
    for board in range(1, 1 << env.rules.tiles):
        open_ = np.array([(board >> t) & 1 for t in range(env.rules.tiles)], dtype=np.int8)
        options = env.rules.dice_options(board)
        if len(options) > 1:
            mask = np.zeros(len(env.actions), dtype=np.bool_)
            mask[[env.actions.index(c) for c in env.choices if c.count in options]] = True
            seen = {"open": open_, "dice": np.array([0, 0]), "phase": 0, "extra": 0}
            policy[(board, 0, 0)] = agent(env, seen, mask)  # type: ignore[operator]
        for total in range(1, 13):
            legal = [i for i, m in enumerate(env.moves) if m.total == total and m.mask & board == m.mask]
            if legal:
                mask = np.zeros(len(env.actions), dtype=np.bool_)
                mask[legal] = True
                low = max(1, total - 6)
                dice = [total, 0] if total <= 6 and 1 in options else [low, total - low]
                seen = {"open": open_, "dice": np.array(dice), "phase": 1, "extra": 0}
                policy[(board, total, 1)] = agent(env, seen, mask)  # type: ignore[operator]
    return policy


def test_the_agents_rank_as_they_should_and_the_optimal_one_scores_the_solvers_value() -> None:
    env = ShutTheBoxEnv(tiles=9)
    best = solve(env.rules).value
    mean, bound = mean_score(env, optimal, 2000)
    assert abs(mean - best) < bound
    assert exact_score(env, policy_of(env, optimal)) == pytest.approx(best, abs=1e-9)
    worse = [exact_score(env, policy_of(env, agent)) for agent in (heuristic, greedy)]
    assert best < worse[0] < worse[1]  # exactly: the heuristic is closer to optimal than greedy
    mean, bound = mean_score(env, masked_random(np.random.default_rng(1)), 2000)
    assert mean - bound > worse[1]


def test_the_learner_gets_within_five_percent_of_optimal_play_on_six_tiles() -> None:
    env = ShutTheBoxEnv(tiles=6)
    policy, curve = learn(env, 4000, seed=1, every=1000)
    best = solve(env.rules).value
    assert exact_score(env, policy) <= 1.05 * best
    assert curve[-1][1] < curve[0][1]  # it learnt
    assert len(curve) == 4 and all(score >= best - 1e-9 for _, score in curve)  # nothing beats optimal


def test_the_example_trains_and_plots(tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "examples" / "learning_curve.py"
    out = tmp_path / "curve.png"
    done = subprocess.run([sys.executable, str(example), "--episodes", "500", "--out", str(out)],
                          capture_output=True, text=True, check=True)
    assert "after 500 episodes" in done.stdout and out.stat().st_size > 1000
