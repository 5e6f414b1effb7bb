"""Reference agents for the solo environment, and a small tabular learner to set beside them.

Each agent maps an environment (the solo one, or any wrapper of it, such as
``gymnasium.make`` gives), an observation and its action mask to an action:
``masked_random`` (any legal action), ``greedy`` (the highest tiles), ``heuristic``
(the board likeliest to use the next roll) and ``optimal`` (the exact solver,
for the environment's reward). `learn` is temporal-difference learning on
afterstates (a value per board the moves leave, as TD-Gammon learnt), and
`exact_score` says exactly how good a policy is (no sampling).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import gymnasium
import numpy as np

from shutthebox.core.board import Move, subsets_with_sum
from shutthebox.core.dice import DiceChoice, Roll
from shutthebox.research.gym import ShutTheBoxEnv
from shutthebox.strategy.advice import advise_position
from shutthebox.strategy.bots import greedy_move, heuristic_dice, heuristic_move
from shutthebox.strategy.names import Objective

__all__ = ["Agent", "Env", "exact_score", "greedy", "heuristic", "learn", "masked_random", "optimal", "solo"]

Env = gymnasium.Env[dict[str, Any], int]
Agent = Callable[[Env, dict[str, Any], np.ndarray[Any, Any]], int]
State = tuple[int, int, int]  # open tiles, the total showing (0: none), phase


def solo(env: Env) -> ShutTheBoxEnv:
    """The solo environment under any wrappers (its rules, its actions, its reward)."""
    inner = env.unwrapped
    if not isinstance(inner, ShutTheBoxEnv):
        raise TypeError(f"the agents play shutthebox/ShutTheBox-v0, not {inner!r}")
    return inner


def _board(observation: dict[str, Any]) -> int:
    return sum(1 << t for t, bit in enumerate(observation["open"]) if bit)


def _roll(observation: dict[str, Any]) -> Roll | None:
    return Roll(tuple(int(d) for d in observation["dice"] if d)) if observation["phase"] == 1 else None


def masked_random(rng: np.random.Generator) -> Agent:
    def act(env: Env, observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))
    return act


def greedy(wrapped: Env, observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
    env = solo(wrapped)
    legal = [env.actions[i] for i in np.flatnonzero(mask)]
    moves = [a for a in legal if isinstance(a, Move)]
    return env.actions.index(greedy_move(moves) if moves else min(legal, key=lambda c: c.count))  # type: ignore[union-attr]


def heuristic(wrapped: Env, observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
    env = solo(wrapped)
    board = _board(observation)
    legal = [env.actions[i] for i in np.flatnonzero(mask)]
    moves = [a for a in legal if isinstance(a, Move)]
    if moves:
        return env.actions.index(heuristic_move(env.rules, board, moves))
    return env.actions.index(DiceChoice(heuristic_dice(env.rules, board)))


def optimal(wrapped: Env, observation: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
    env = solo(wrapped)
    objective = {"score": Objective.SCORE, "shut": Objective.SHUT, "beat": Objective.BEAT}[env.reward_kind]
    advice = advise_position(env.rules, _board(observation), _roll(observation), objective=objective,
                             target=env.target, extra=int(observation["extra"]))
    assert advice.best is not None
    return env.actions.index(advice.best.action)


def _state(observation: dict[str, Any]) -> State:
    """What the learner tells apart: the total matters, not the faces (no extra turns)."""
    return _board(observation), int(sum(observation["dice"])), int(observation["phase"])


def learn(
    wrapped: Env, episodes: int, seed: int, *, epsilon: float = 0.1, every: int = 500
) -> tuple[dict[State, int], list[tuple[int, float]]]:
    """Temporal-difference learning on afterstates (the board a move leaves), as TD-Gammon learnt:
    a value per board, and per board and number of dice; moves go to the best-valued board left.
    With an ε-greedy behaviour; the greedy policy learnt (state → action), and the learning
    curve: after each ``every`` episodes, the exact expected score of the policy."""
    env = solo(wrapped)
    rng = np.random.default_rng(seed)
    board_value: dict[int, float] = {0: 0.0}  # a shut box scores nothing
    dice_value: dict[tuple[int, int], float] = {}
    visits: dict[tuple[int, int], int] = {}
    curve: list[tuple[int, float]] = []

    def of(board: int) -> float:
        return board_value.get(board, 0.0)  # optimistic: no score is better than none

    def greedy(board: int, mask: np.ndarray[Any, Any]) -> int:
        legal = [int(a) for a in np.flatnonzero(mask)]
        def worth(a: int) -> tuple[float, int]:
            action = env.actions[a]
            if isinstance(action, Move):
                return of(board ^ action.mask), -a
            return dice_value.get((board, action.count), 0.0), -a
        return max(legal, key=worth)

    for episode in range(1, episodes + 1):
        observation, info = wrapped.reset(seed=int(rng.integers(2**31)))
        over = False
        while not over:
            board, mask = _board(observation), info["action_mask"]
            explore = rng.random() < epsilon
            action = int(rng.choice(np.flatnonzero(mask))) if explore else greedy(board, mask)
            chosen = env.actions[action]
            # The roll being played: the dice chosen now, or the only number the rules allowed.
            shown = int(np.count_nonzero(observation["dice"]))
            pending = (board, chosen.count if isinstance(chosen, DiceChoice) else shown)
            observation, reward, over, _, info = wrapped.step(action)
            if isinstance(chosen, Move) or over:
                # the roll is played: it is worth the board the move left, or the turn's end
                target = of(board ^ chosen.mask) if isinstance(chosen, Move) and not over else float(reward)
                visits[pending] = visits.get(pending, 0) + 1
                old = dice_value.get(pending, 0.0)
                dice_value[pending] = old + (target - old) / visits[pending]
                options = env.rules.dice_options(board)
                board_value[board] = max(dice_value.get((board, c), 0.0) for c in options)
        if episode % every == 0:
            curve.append((episode, exact_score(env, _greedy_policy(env, board_value, dice_value))))
    return _greedy_policy(env, board_value, dice_value), curve


def _greedy_policy(
    env: ShutTheBoxEnv, board_value: dict[int, float], dice_value: dict[tuple[int, int], float]
) -> dict[State, int]:
    """The policy the values say: the best-valued dice, the move to the best-valued board."""
    rules, policy = env.rules, {}
    for board in range(1, 1 << rules.tiles):
        options = rules.dice_options(board)
        if len(options) > 1:
            count = max(options, key=lambda c: (dice_value.get((board, c), 0.0), -c))
            policy[(board, 0, 0)] = env.actions.index(DiceChoice(count))
        for total in range(1, 13):
            moves = [m for m in subsets_with_sum(rules.tiles, total, rules.max_tiles) if m & board == m]
            if moves:
                best = max(moves, key=lambda m: (board_value.get(board ^ m, 0.0), m))
                policy[(board, total, 1)] = env.actions.index(Move(best))
    return policy


def _policy_of(value: dict[tuple[State, int], float]) -> dict[State, int]:
    policy: dict[State, tuple[float, int]] = {}
    for (state, action), v in value.items():
        if state not in policy or (v, -action) > (policy[state][0], -policy[state][1]):
            policy[state] = (v, action)
    return {state: action for state, (_, action) in policy.items()}


def exact_score(wrapped: Env, policy: dict[State, int]) -> float:
    """The expected score of a policy (the first legal action where it has none), exactly, by
    recursion over the turn under the environment's rules (solo, no extra turns)."""
    env = solo(wrapped)
    rules = env.rules
    if rules.doubles_extra_turn:
        raise ValueError("exact_score follows turns without extra turns on doubles")

    def pick(state: State, legal: list[int]) -> int:
        chosen = policy.get(state)
        return chosen if chosen in legal else legal[0]

    @cache
    def after_choice(board: int, count: int) -> float:
        total, faces = 0.0, range(1, 7)
        rolls = [(a,) for a in faces] if count == 1 else [(a, b) for a in faces for b in faces]
        for dice in rolls:
            moves = [m for m in subsets_with_sum(rules.tiles, sum(dice), rules.max_tiles) if m & board == m]
            if not moves:
                total += rules.score(board, sum(dice))
                continue
            legal = [env.actions.index(Move(m)) for m in moves]
            move = env.actions[pick((board, sum(dice), 1), legal)]
            assert isinstance(move, Move)
            total += from_board(board ^ move.mask)
        return total / len(rolls)

    @cache
    def from_board(board: int) -> float:
        if board == 0:
            return 0.0
        options = rules.dice_options(board)
        if len(options) == 1:
            return after_choice(board, options[0])
        legal = [env.actions.index(DiceChoice(c)) for c in options]
        choice = env.actions[pick((board, 0, 0), legal)]
        assert isinstance(choice, DiceChoice)
        return after_choice(board, choice.count)

    return from_board((1 << rules.tiles) - 1)
