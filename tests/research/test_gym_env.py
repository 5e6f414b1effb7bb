"""The Gymnasium environment: Gymnasium's own checker, seeded replays, the masks, and agents whose
mean returns agree with exact values (the solver's for optimal play, the suite's own recursion for
uniformly random play) within a 99.9 % confidence bound."""

from __future__ import annotations

import math
import statistics
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import shutthebox.research  # noqa: F401  (registers the environment)
from oracle import TurnRules, random_play
from shutthebox.core.dice import Roll
from shutthebox.core.record import replay
from shutthebox.core.rules import Rules
from shutthebox.research import agents
from shutthebox.research.gym import ShutTheBoxEnv
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.names import Objective

Z = 3.29  # a 99.9 % two-sided bound


@pytest.mark.parametrize("options", [
    {"tiles": 9}, {"tiles": 12, "doubles_extra_turn": True}, {"tiles": 6, "reward": "shut"},
    {"tiles": 9, "reward": "beat", "target": 10, "max_tiles": 2}, {"tiles": 10, "scoring": "digits"},
    {"tiles": 1}, {"tiles": 9, "one_die": "sum-le-6", "one_die_forced": True},
], ids=str)
def test_gymnasiums_checker_passes(options: dict[str, Any]) -> None:
    env = gymnasium.make("shutthebox/ShutTheBox-v0", render_mode="ansi", **options)
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped, ShutTheBoxEnv)


def masked_random(env: ShutTheBoxEnv, rng: np.random.Generator) -> float:
    _, info = env.reset(seed=int(rng.integers(2**31)))
    total, over = 0.0, False
    while not over:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, over, _, info = env.step(action)
        total += reward
    return total


def optimal(env: ShutTheBoxEnv, seed: int, objective: Objective, target: int | None = None) -> float:
    """The solver's choice, read off the observation alone."""
    obs, info = env.reset(seed=seed)
    total, over = 0.0, False
    while not over:
        board = sum(1 << t for t, bit in enumerate(obs["open"]) if bit)
        roll = Roll(tuple(int(d) for d in obs["dice"] if d)) if obs["phase"] == 1 else None
        extra = int(obs["extra"])
        best = advise_position(env.rules, board, roll, objective=objective, target=target, extra=extra)
        assert best.best is not None
        action = env.actions.index(best.best.action)
        assert info["action_mask"][action]
        obs, reward, over, _, info = env.step(action)
        total += reward
    return total


def within(samples: list[float], expected: float) -> None:
    bound = Z * statistics.stdev(samples) / math.sqrt(len(samples)) + 1e-12
    assert abs(statistics.mean(samples) - expected) < bound, (statistics.mean(samples), expected, bound)


def test_the_masked_random_agent_scores_what_uniform_play_is_worth() -> None:
    env = ShutTheBoxEnv(tiles=6)
    rng = np.random.default_rng(3)
    returns = [masked_random(env, rng) for _ in range(4000)]
    mean_score, _ = random_play(TurnRules(6))
    within(returns, -mean_score)


@pytest.mark.parametrize(("reward", "objective", "target"), [
    ("score", Objective.SCORE, None), ("shut", Objective.SHUT, None), ("beat", Objective.BEAT, 8),
])
def test_the_optimal_agent_returns_the_solvers_value(
    reward: str, objective: Objective, target: int | None
) -> None:
    env = ShutTheBoxEnv(tiles=7, reward=reward, target=target, one_die="sum-le-6")
    returns = [optimal(env, seed, objective, target) for seed in range(1500)]
    value = advise_position(env.rules, (1 << 7) - 1, objective=objective, target=target).value
    within(returns, -value if objective is Objective.SCORE else value)


def test_a_seed_replays_the_episode_and_an_illegal_action_changes_nothing() -> None:
    env = ShutTheBoxEnv(tiles=9)
    first, info = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    after, reward, over, truncated, said = env.step(illegal)
    assert said.get("illegal") and reward == 0 and not over and not truncated
    assert all(np.array_equal(after[k], first[k]) for k in first)
    assert np.array_equal(env.action_masks(), info["action_mask"])


def test_the_action_space_is_every_move_the_rules_can_ever_allow_then_the_dice() -> None:
    env = ShutTheBoxEnv(tiles=9, max_tiles=2)
    assert env.actions[-2:] == env.choices and all(len(m.tiles) <= 2 for m in env.moves)
    assert len(set(env.moves)) == len(env.moves) and all(1 <= m.total <= 12 for m in env.moves)
    assert env.action_space.n == len(env.moves) + 2


def test_the_pictures() -> None:
    env = ShutTheBoxEnv(tiles=9, render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert isinstance(picture, np.ndarray) and picture.shape == (48, 264, 3) and picture.dtype == np.uint8
    text = ShutTheBoxEnv(tiles=9, render_mode="ansi")
    text.reset(seed=1)
    shown = text.render()
    assert (isinstance(shown, str) and shown.startswith("[") and "roll" in shown) or "1 2 3" in str(shown)
    with pytest.raises(ValueError, match="needs a target"):
        ShutTheBoxEnv(reward="beat")
    assert Rules(**{**text.rules.to_dict()}) == text.rules


def test_an_episode_is_a_game_of_the_core_whose_record_replays() -> None:
    """The environment plays through `core.game.Game`: every roll its generator's, every step checked
    by the game, and the record of the episode replays to the state it ended on."""
    env = ShutTheBoxEnv(tiles=9)
    _, info = env.reset(seed=5)
    rng, over, reward = np.random.default_rng(5), False, 0.0
    while not over:
        _, reward, over, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    game = env.game
    assert game.state.is_over and reward == -game.state.history[-1].score  # type: ignore[operator]
    assert replay(game.record()) == game.state
    assert all(not event.typed for event in game.events)


def test_the_agents_play_the_environment_gymnasium_makes_and_its_unwrapped_one() -> None:
    made = gymnasium.make("shutthebox/ShutTheBox-v0", tiles=6)
    for env in (made, made.unwrapped):
        for agent in (agents.greedy, agents.heuristic, agents.optimal):
            observation, info = env.reset(seed=2)
            over = False
            while not over:
                action = agent(env, observation, info["action_mask"])
                assert info["action_mask"][action]
                observation, _, over, _, info = env.step(action)
    assert agents.exact_score(made, {}) == agents.exact_score(made.unwrapped, {})
