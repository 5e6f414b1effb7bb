"""The PettingZoo AEC environment: PettingZoo's API and seed tests, the score to beat in the
observation, and two optimal seats whose win rate is the solver's exact value for the round."""

from __future__ import annotations

import math
import statistics
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shutthebox.core.rules import Rules
from shutthebox.research.aec import FIELDS, ShutTheBoxAEC, env
from shutthebox.strategy.advice import advise
from shutthebox.strategy.solver import solve_duel

CONFIGS = [
    {"players": 2}, {"players": 3, "tiles": 6}, {"players": 2, "mode": "long", "tiles": 6},
    {"players": 4, "mode": "elimination", "tiles": 5}, {"players": 2, "doubles_extra_turn": True, "tiles": 7},
]


# PettingZoo's generic advice for a Box or Discrete: its own way to give masks is this Dict.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
# A view of zeros is a real one: every tile shut, no dice, a shut box posted, nobody left to play.
@pytest.mark.filterwarnings("ignore:Observation numpy array is all zeros")
@pytest.mark.parametrize("options", CONFIGS, ids=str)
def test_pettingzoos_api_and_seed_tests_pass(options: dict[str, Any]) -> None:
    api_test(env(**options), num_cycles=200)
    seed_test(lambda: env(**options), num_cycles=100)


def play(game: ShutTheBoxAEC, seed: int) -> dict[str, float]:
    """Every seat optimal (the solver, with the objective of the moment): the rewards."""
    game.reset(seed=seed)
    won = dict.fromkeys(game.agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, over, cut, _ = game.last()
        won[agent] += reward
        if over or cut:
            game.step(None)
            continue
        best = advise(game.state).best
        assert best is not None
        action = game.actions.index(best.action)
        assert observation["action_mask"][action] == 1
        game.step(action)
    return won


@pytest.mark.slow
def test_two_optimal_seats_win_as_often_as_the_solver_says() -> None:
    rules = Rules(tiles=7)
    game = env(players=2, tiles=7)
    first = []
    for seed in range(1500):
        won = play(game, seed)
        starter = game.state.order[0] if game.state.order else 0
        first.append(won[game.possible_agents[starter]])
    expected = solve_duel(rules).value
    bound = 3.29 * statistics.stdev(first) / math.sqrt(len(first))
    assert abs(statistics.mean(first) - expected) < bound, (statistics.mean(first), expected, bound)


def test_the_observation_holds_the_score_to_beat_and_who_is_still_to_play() -> None:
    game = env(players=3, tiles=6)
    game.reset(seed=5)
    seen: list[tuple[float, int]] = []
    for _agent in game.agent_iter():
        observation, _, over, cut, _ = game.last()
        if over or cut:
            game.step(None)
            continue
        view = dict(zip(FIELDS, observation["observation"][game.rules.tiles:], strict=True))
        posted = [score for _, score in game.state.round_scores]
        assert view["best"] == (min(posted) if posted else -1)
        seen.append((float(view["best"]), int(view["to_play"])))
        mask = observation["action_mask"]
        game.step(int(np.flatnonzero(mask)[0]))
    assert seen[0] == (-1.0, 2) and any(best >= 0 for best, _ in seen)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = env(players=2)
    game.reset(seed=1)
    before = game.state
    mask = game.observe(game.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        game.step(int(np.flatnonzero(mask == 0)[0]))
    assert game.state == before
