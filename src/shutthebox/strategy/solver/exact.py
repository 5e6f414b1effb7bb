"""The turn objectives in exact rationals: a second, independent method.

A plain memoized recursion over (target, extra turns) with `Fraction`s,
written straight from the rules with the engine's own `legal_moves`; it shares
no code with the vectorized solver, so the tests can hold one against the
other. It is also ``shutthebox solve --exact`` and, run with floats, the plain
Python baseline of the benchmarks.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TypeVar

from shutthebox.core.chance import total_distribution
from shutthebox.core.errors import N_, RulesError
from shutthebox.core.match import legal_moves
from shutthebox.core.rules import Rules
from shutthebox.strategy.solver.solution import Objective

__all__ = ["exact_dice_values", "exact_value", "plain_value"]

Number = TypeVar("Number", Fraction, float)


def _solver(
    rules: Rules,
    objective: Objective,
    target: int | None,
    number: Callable[[Fraction], Number],
) -> tuple[Callable[[int, int], Number], Callable[[int, int], dict[int, Number]]]:
    """The value function of a turn, maximizing ``reward`` (minus score for ``score``), and the value
    of each number of dice the player may roll in a position.

    With extra turns on doubles, a double that makes no move earns and spends a turn: the position
    comes back as it was, and the dice are chosen again. Rolling ``count`` dice is then worth
    ``gain + stuck * V`` (``stuck``: the chance of such a double; ``V``: the position's value), and
    ``V`` is the best of these. Choosing the same count each time the position comes back is optimal
    (it is the same decision again), so ``V`` is the best of ``gain / (1 - stuck)``."""
    if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and target is None:
        raise RulesError("objective {objective} needs a target score", objective=objective)
    below = (target or 0) + (1 if objective is Objective.TIE_OR_BEAT else 0)
    zero, one = number(Fraction(0)), number(Fraction(1))

    def reward(open_mask: int, total: int) -> Number:
        score = rules.score(open_mask, total)
        if objective is Objective.SCORE:
            return number(Fraction(-score))
        if objective is Objective.SHUT:
            return one if open_mask == 0 else zero
        return one if score < below else zero

    rolls = {
        count: [(total, double, number(p)) for (total, double), p in total_distribution(count).items()]
        for count in (1, 2)
    }

    def parts(target_mask: int, extra: int) -> dict[int, tuple[Number, Number]]:
        """For each number of dice: (gain, stuck), the value of the rolls that move on, and the
        chance of the position coming back."""
        found = {}
        for count in rules.dice_options(target_mask):
            gain, stuck = zero, zero
            for total, double, p in rolls[count]:
                moves = legal_moves(rules, target_mask, total)
                earned = extra + int(rules.doubles_extra_turn and double)
                if moves:
                    gain += p * max(value(target_mask & ~m.mask, earned) for m in moves)
                elif earned > extra:
                    stuck += p  # a failed double earns and spends an extra turn: same state
                elif extra > 0:
                    gain += p * value(target_mask, extra - 1)
                else:
                    gain += p * reward(target_mask, total)
            found[count] = (gain, stuck)
        return found

    def best(target_mask: int, extra: int) -> Number:
        if target_mask == 0:
            return reward(0, 0)
        return max(gain / (one - stuck) for gain, stuck in parts(target_mask, extra).values())

    value: Callable[[int, int], Number] = cache(best)

    def choices(target_mask: int, extra: int) -> dict[int, Number]:
        here = value(target_mask, extra)
        return {count: gain + stuck * here for count, (gain, stuck) in parts(target_mask, extra).items()}

    return value, choices


def exact_value(
    rules: Rules, objective: str | Objective = Objective.SCORE, target: int | None = None,
    board: int | None = None,
) -> Fraction:
    """The exact value of a turn from ``board`` (default: the full board)."""
    objective = Objective.parse(objective)
    if objective in (Objective.LONG, Objective.WIN):
        refusal = (
            N_("the exact mode covers the single-turn objectives, not the long game")
            if objective is Objective.LONG
            else N_("the exact mode covers the single-turn objectives, not a two-player round")
        )
        raise RulesError(refusal)
    value, _choices = _solver(rules, objective, target, Fraction)
    result = value(rules.full_mask if board is None else board, 0)
    return -result if objective is Objective.SCORE else result


def exact_dice_values(
    rules: Rules, objective: str | Objective, board: int, extra: int = 0, target: int | None = None
) -> dict[int, Fraction]:
    """The exact value of rolling each number of dice the rules allow on ``board`` (a turn objective),
    playing on at best after."""
    objective = Objective.parse(objective)
    _value, choices = _solver(rules, objective, target, Fraction)
    sign = -1 if objective is Objective.SCORE else 1
    return {count: sign * option for count, option in choices(board, extra).items()}


def plain_value(
    rules: Rules, objective: str | Objective = Objective.SCORE, target: int | None = None
) -> float:
    """The same recursion in floats: the plain-Python baseline for the benchmarks."""
    objective = Objective.parse(objective)
    value, _choices = _solver(rules, objective, target, float)
    result = value(rules.full_mask, 0)
    return -result if objective is Objective.SCORE else result
