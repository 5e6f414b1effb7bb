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

from shutthebox.core.dice import total_distribution
from shutthebox.core.errors import N_, RulesError
from shutthebox.core.match import legal_moves
from shutthebox.core.rules import Rules
from shutthebox.strategy.solver.solution import Objective

__all__ = ["exact_value", "plain_value"]

Number = TypeVar("Number", Fraction, float)


def _solver(
    rules: Rules,
    objective: Objective,
    target: int | None,
    number: Callable[[Fraction], Number],
) -> Callable[[int, int], Number]:
    """The value function of a turn, maximizing ``reward`` (minus score for ``score``)."""
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

    def value(target_mask: int, extra: int) -> Number:
        if target_mask == 0:
            return reward(0, 0)
        best: Number | None = None
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
            option = gain / (one - stuck)
            best = option if best is None or option > best else best
        assert best is not None
        return best

    value = cache(value)
    return value


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
    value = _solver(rules, objective, target, Fraction)
    result = value(rules.full_mask if board is None else board, 0)
    return -result if objective is Objective.SCORE else result


def plain_value(
    rules: Rules, objective: str | Objective = Objective.SCORE, target: int | None = None
) -> float:
    """The same recursion in floats: the plain-Python baseline for the benchmarks."""
    objective = Objective.parse(objective)
    value = _solver(rules, objective, target, float)
    result = value(rules.full_mask, 0)
    return -result if objective is Objective.SCORE else result
