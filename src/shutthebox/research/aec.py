"""Rounds and the long game as a PettingZoo AEC environment: players take turns, the box decides.

    from shutthebox.research.aec import env
    game = env(players=3, tiles=9)            # a round (or mode="long" for two, "elimination")

Agents ``player_0`` … act only at their decisions (the dice where the rules
leave the choice, the tiles after a roll); the environment rolls in between,
the roll-off included, from its seeded generator (`gym.GeneratorDice`), and the
match advances through a `core.game.Game` and its step API. The actions are the solo
environment's (`shutthebox.research.gym`); each observation holds the agent's
view, a row of whole numbers (a flag per tile, then `FIELDS`), and its
``action_mask``. What a player plays for is in the view: the best score posted
so far in the round (``best``, -1 before any), how many still play after it
(``to_play``), and in the long game the role (``opening``).
The match's winner gets a reward of 1, the others 0, when it ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from shutthebox.core.game import Game
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode, Rules
from shutthebox.research.gym import GeneratorDice, action_table, to_decision

__all__ = ["FIELDS", "ShutTheBoxAEC", "env"]

FIELDS = ("die_1", "die_2", "phase", "extra", "best", "to_play", "opening")
"""The view after one flag per tile (1: open): the dice (0: none), the phase (0: choose the dice,
1: shut tiles), the extra turns held, the best score posted (-1: none), the players still to play
after this one, and 1 for the long game's opener."""


def env(**options: Any) -> ShutTheBoxAEC:
    """The environment, as PettingZoo's ``env()`` constructors are called."""
    return ShutTheBoxAEC(**options)


class ShutTheBoxAEC(AECEnv):  # type: ignore[misc]  # PettingZoo has no type hints
    """A match of two or more players (see the module)."""

    metadata = {"name": "shutthebox_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, *, players: int = 2, render_mode: str | None = None, **rules: Any) -> None:
        super().__init__()
        self.rules = Rules(**{"mode": Mode.ROUND, **rules})
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        Match.new(self.rules, self.possible_agents)  # refuse a table the rules refuse, here
        self.actions = action_table(self.rules)
        self._index = {action: i for i, action in enumerate(self.actions)}
        tiles, count = self.rules.tiles, len(self.actions)
        high = [1] * tiles + [6, 6, 1, tiles + 1, np.iinfo(np.int64).max, players - 1, 1]
        seen = spaces.Box(np.array([0] * tiles + [0, 0, 0, 0, -1, 0, 0]), np.array(high), dtype=np.int64)
        self._observation_space = spaces.Dict({
            "observation": seen, "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(count)
        self.np_random, _ = seeding.np_random()
        self.dice = GeneratorDice(lambda: self.np_random)
        self.game = Game(self.rules, self.possible_agents, dice=self.dice)

    @property
    def state(self) -> Match:
        """The state of the match in play."""
        return self.game.state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.game = Game(self.rules, self.agents, dice=self.dice)
        to_decision(self.game)
        self.agent_selection = self.agents[self.state.actor or 0]

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self._action_space.contains(action) or not self._mask()[int(action)]:
            raise ValueError(f"action {action} is not legal for {agent} now (see its action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.game.play(self.game.due(), self.actions[int(action)])
        if to_decision(self.game).is_over:
            winner = self.state.winner
            self.rewards = {a: float(i == winner) for i, a in enumerate(self.agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[self.state.actor or 0]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        rolled = state.roll is not None and state.phase is Phase.MOVE
        dice = list(state.roll.dice) if rolled and state.roll is not None else []
        posted = [score for _, score in state.round_scores]
        mine = agent == self.agent_selection and not state.is_over
        view = [
            *((state.target >> t) & 1 for t in range(self.rules.tiles)),
            *[*dice, 0, 0][:2],
            int(state.phase is Phase.MOVE),
            min(state.extra_turns, self.rules.tiles + 1),
            min(posted) if posted else -1,
            max(0, len(state.order) - state.position - 1) if state.order else 0,
            int(state.opening),
        ]
        return {
            "observation": np.array(view, dtype=np.int64),
            "action_mask": self._mask() if mine else np.zeros(len(self.actions), dtype=np.int8),
        }

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.state.describe())

    def close(self) -> None:
        pass

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        if not self.state.is_over and self.state.is_decision:
            for action in self.state.legal_actions():
                mask[self._index[action]] = 1
        return mask
