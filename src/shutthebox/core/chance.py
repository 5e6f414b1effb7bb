"""Chance: the exact odds of a roll, and the dice that roll.

`outcomes` and `total_distribution` give the exact probabilities (`fractions`) the solver and a
match use; a `DiceSource` (`SeededDice`, `ScriptedDice`, the fair scheme's dice) is what a game
rolls from. A roll itself, and a hint on a bare position, need neither: they are in `core.dice`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Protocol

from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError

__all__ = ["DiceSource", "SeededDice", "outcomes", "total_distribution"]


class DiceSource(Protocol):
    """Where a game's rolls come from: `SeededDice`, `ScriptedDice`, the fair scheme's dice."""

    def roll(self, count: int) -> Roll: ...


@cache
def outcomes(count: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every roll of ``count`` fair dice with its exact probability."""
    if count == 1:
        return tuple((Roll((face,)), Fraction(1, 6)) for face in range(1, 7))
    if count == 2:
        return tuple(
            (Roll((a, b)), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
        )
    raise ParseError("one or two dice are rolled, not {count}", count=count)


@cache
def total_distribution(count: int) -> dict[tuple[int, bool], Fraction]:
    """Probability of each (total, is_double) for ``count`` dice."""
    dist: dict[tuple[int, bool], Fraction] = {}
    for roll, p in outcomes(count):
        key = (roll.total, roll.is_double)
        dist[key] = dist.get(key, Fraction(0)) + p
    return dist


class SeededDice:
    """Fair dice from a seeded `random.Random`: same seed, same rolls."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)

    def roll(self, count: int) -> Roll:
        return Roll(tuple(self._rng.randint(1, 6) for _ in range(count)))
