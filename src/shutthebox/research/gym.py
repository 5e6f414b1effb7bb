"""Solo Shut the Box as a Gymnasium environment, for reinforcement learning.

    import gymnasium, shutthebox.research
    env = gymnasium.make("shutthebox/ShutTheBox-v0", tiles=9, one_die="sum-le-6", reward="score")

Every rule option is a keyword (`Rules`'s, solo). An episode is one turn, played
through a `core.game.Game` and its step API, as every interface plays. The agent
acts only at decisions: the number of dice where the rules leave the choice, and
the tiles to shut after a roll; the environment rolls in between (the game's dice
are `GeneratorDice`, drawn from the environment's seeded generator, so a seed
replays an episode) and ends the episode when a roll cannot be used.

- **Actions**: a fixed `Discrete` space: every set of tiles that can ever be a
  move under the rules (ascending by total, then mask), then "one die" and
  "two dice". The legal ones are ``info["action_mask"]`` and `action_masks()`.
- **Observation**: the open tiles (one bit a tile), the dice showing (0 for none),
  the phase (0: choose the dice, 1: shut tiles) and the extra turns held.
- **Reward**, at the end only: ``score`` minus the score; ``shut`` 1 for a shut
  box; ``beat`` 1 for a score under ``target``.
- **Render**: ``ansi`` (a line of text) and ``rgb_array`` (the box, drawn).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from shutthebox.core.board import Move, subsets_with_sum
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.core.game import ROLL, Game, Wait
from shutthebox.core.match import Match, Phase
from shutthebox.core.rules import Mode, Rules

__all__ = ["REWARDS", "GeneratorDice", "ShutTheBoxEnv", "action_table", "to_decision"]

REWARDS = ("score", "shut", "beat")


def action_table(rules: Rules) -> tuple[Move | DiceChoice, ...]:
    """Every set of tiles that can ever be a move under ``rules`` (by total, then mask), then one
    die and two dice: the same action numbers in every state."""
    moves = (
        Move(mask) for total in range(1, 13) for mask in subsets_with_sum(rules.tiles, total, rules.max_tiles)
    )
    return (*moves, DiceChoice(1), DiceChoice(2))


class GeneratorDice:
    """An environment's dice (a `core.chance.DiceSource`): each roll drawn from its generator, looked up
    at every roll, since a reset with a seed gives the environment a new one."""

    def __init__(self, generator: Callable[[], np.random.Generator]) -> None:
        self._generator = generator

    def roll(self, count: int) -> Roll:
        return Roll(tuple(int(face) for face in self._generator().integers(1, 7, size=count)))


def to_decision(game: Game) -> Match:
    """Roll (the roll-off too) until a player has a choice or the game is over: every chance step is
    the environment's, never an agent's."""
    while (due := game.due()).wait is not Wait.OVER and due.state.is_chance:
        game.play(due, ROLL)
    return game.state


class ShutTheBoxEnv(gymnasium.Env[dict[str, Any], int]):
    """One solo turn of Shut the Box under any rules (see the module)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012  (Gymnasium's)

    def __init__(
        self, *, render_mode: str | None = None, reward: str = "score", target: int | None = None,
        **rules: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if (reward == "beat") != (target is not None):
            raise ValueError("the beat reward needs a target score, and only it")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi or rgb_array, not {render_mode!r}")
        self.rules = Rules(**{**rules, "mode": Mode.SOLO})
        self.reward_kind, self.target, self.render_mode = reward, target, render_mode
        tiles = self.rules.tiles
        self.actions = action_table(self.rules)
        self.moves = tuple(a for a in self.actions if isinstance(a, Move))
        self.choices = tuple(a for a in self.actions if isinstance(a, DiceChoice))
        self._index = {action: i for i, action in enumerate(self.actions)}
        self.action_space = spaces.Discrete(len(self.actions))  # type: ignore[assignment]
        self.observation_space = spaces.Dict({
            "open": spaces.MultiBinary(tiles),
            "dice": spaces.MultiDiscrete([7, 7]),
            "phase": spaces.Discrete(2),
            "extra": spaces.Discrete(tiles + 2),
        })
        self.dice = GeneratorDice(lambda: self.np_random)
        self.game = Game(self.rules, ["agent"], dice=self.dice)

    @property
    def state(self) -> Match:
        """The state of the turn in play."""
        return self.game.state

    # -- the Gymnasium API ---------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(self.rules, ["agent"], dice=self.dice)
        to_decision(self.game)
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """An action not legal now (see ``info["action_mask"]``) changes nothing: no reward, and
        ``info["illegal"]`` says so."""
        if not self.action_space.contains(action) or not self.action_masks()[int(action)]:
            return self._observation(), 0.0, self.state.is_over, False, {**self._info(), "illegal": True}
        self.game.play(self.game.due(), self.actions[int(action)])
        over = to_decision(self.game).is_over
        return self._observation(), self._reward() if over else 0.0, over, False, self._info()

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions now, one flag per action (all off once the turn is over)."""
        mask = np.zeros(len(self.actions), dtype=np.bool_)
        if not self.state.is_over:
            for action in self.state.legal_actions():
                mask[self._index[action]] = True
        return mask

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        if self.render_mode == "ansi":
            return self._text()
        if self.render_mode == "rgb_array":
            return self._picture()
        return None

    # -- what the agent sees ----------------------------------------------------------------
    def _reward(self) -> float:
        score = self.state.history[-1].score if self.state.history else 0
        assert score is not None
        if self.reward_kind == "score":
            return -float(score)
        if self.reward_kind == "shut":
            return float(score == 0 and self.state.history[-1].board.mask == 0)
        assert self.target is not None
        return float(score < self.target)

    def _observation(self) -> dict[str, Any]:
        board = self._board()
        dice = list(self.state.roll.dice) if self.state.roll is not None and not self.state.is_over else []
        return {
            "open": np.array([(board >> t) & 1 for t in range(self.rules.tiles)], dtype=np.int8),
            "dice": np.array([*dice, 0, 0][:2], dtype=np.int64),
            "phase": int(self.state.phase is Phase.MOVE),
            "extra": min(self.state.extra_turns, self.rules.tiles + 1),
        }

    def _board(self) -> int:
        if self.state.is_over and self.state.history:
            return self.state.history[-1].board.mask
        return self.state.board.mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "rules": self.rules.to_dict()}

    # -- pictures ------------------------------------------------------------------------
    def _text(self) -> str:
        board = self._board()
        tiles = " ".join(str(t) if board >> (t - 1) & 1 else "·" for t in range(1, self.rules.tiles + 1))
        roll = f" roll {self.state.roll}" if self.state.roll is not None and not self.state.is_over else ""
        end = f" score {self.state.history[-1].score}" if self.state.is_over else ""
        return f"[{tiles}]{roll}{end}"

    def _picture(self) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The box from above: a felt, a tile of ivory for each open tile, of wood for each shut one."""
        tiles, size = self.rules.tiles, 24
        image = np.zeros((2 * size, (tiles + 2) * size, 3), dtype=np.uint8)
        image[:] = (29, 90, 55)  # the felt
        board = self._board()
        for t in range(tiles):
            colour = (246, 232, 195) if board >> t & 1 else (74, 42, 18)
            image[size // 2: size // 2 + size, (t + 1) * size + 2: (t + 2) * size - 2] = colour
        return image
