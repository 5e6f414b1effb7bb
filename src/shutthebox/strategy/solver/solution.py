"""Solved turns in the player's own units, with the choices behind each value.

A `Solution` answers, for any target mask (and extra turns held): the value of
the position, the value of rolling one die or two, and the value of every
legal move for a roll. Values are in the objective's units: expected score
(lower is better) or a probability (higher is better).
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.board import Move, subsets_with_sum
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver.topology import TOTALS
from shutthebox.strategy.solver.turn import ONE_DIE, TWO_DICE_DOUBLE, TWO_DICE_PLAIN, TurnValues
from shutthebox.strategy.ties import tie_level

__all__ = ["Objective", "Solution"]


@dataclass(frozen=True)
class Solution:
    """One solved turn (one column of a `TurnValues`), in the objective's units."""

    turn: TurnValues
    objective: Objective
    target: int | None = None
    column: int = 0

    @property
    def size(self) -> int:
        return self.turn.topology.size

    @property
    def lower_is_better(self) -> bool:
        return self.objective.lower_is_better

    def _out(self, value: float) -> float:
        """A raw value in the objective's units; a probability kept within [0, 1], which the sums of
        a sweep can leave by a rounding (the 1-tile long game summed to 1.0000000000000002)."""
        if self.lower_is_better:
            return -value
        return min(max(value, 0.0), 1.0) if self.objective.is_chance else value

    def _extra(self, extra: int) -> int:
        return min(max(extra, 0), self.turn.max_extra)

    def _raw(self, target: int, extra: int = 0) -> float:
        return float(self.turn.values[self._extra(extra), target, self.column])

    @property
    def value(self) -> float:
        """The value at the start of a turn on the full board."""
        return self.value_at((1 << self.size) - 1)

    def value_at(self, target: int, extra: int = 0) -> float:
        """The value before choosing the dice with ``target`` left and ``extra`` turns held."""
        self._check(target)
        return self._out(self._raw(target, extra))

    def best_dice(self, target: int, extra: int = 0) -> int:
        """The optimal number of dice to roll."""
        self._check(target)
        return 1 if self.turn.one_die[self._extra(extra), target, self.column] else 2

    def dice_values(self, target: int, extra: int = 0) -> dict[int, float]:
        """The value of each number of dice the rules allow."""
        self._check(target)
        allowed = (1,) if self.turn.forced else (1, 2)
        options = allowed if self.turn.allow_one[target] else (2,)
        return {count: self._out(self._roll_value(target, extra, count)) for count in options}

    def move_values(self, target: int, roll: Roll, extra: int = 0) -> list[tuple[Move, float]]:
        """Every legal move for ``roll`` with the value it leads to, best first.

        Empty when the roll cannot be used.
        """
        self._check(target)
        up = self._extra(extra + int(self.turn.doubles and roll.is_double))
        scored = [
            (Move(m), self._out(self._raw(target ^ m, up)))
            for m in self._moves(target, roll.total)
        ]
        scored.sort(key=lambda mv: (tie_level(mv[1] if self.lower_is_better else -mv[1]), -mv[0].mask))
        return scored

    def best_move(self, target: int, roll: Roll, extra: int = 0) -> Move | None:
        moves = self.move_values(target, roll, extra)
        return moves[0][0] if moves else None

    # -- one position's arithmetic (mirrors `solve_turn`) ---------------------
    def _moves(self, target: int, total: int) -> list[int]:
        return [
            m for m in subsets_with_sum(self.size, total, self.turn.topology.max_tiles)
            if m & target == m
        ]

    def _after(self, target: int, extra: int, total: int, double: bool) -> float | None:
        """Best raw value after rolling ``total``; None for a failed double that loops."""
        moves = self._moves(target, total)
        if moves:
            up = self._extra(extra + int(double and self.turn.doubles))
            return max(self._raw(target ^ m, up) for m in moves)
        if self.turn.doubles and double:
            return None
        if self.turn.doubles and extra > 0:
            return self._raw(target, extra - 1)
        return self.turn.fail.at(target, total, self.column)

    def _roll_value(self, target: int, extra: int, count: int) -> float:
        """The value of rolling ``count`` dice now and playing on at best. A double that makes no
        move (with extra turns on doubles) earns and spends a turn: the same position comes back,
        where the dice are chosen again, so it is worth the position's own (best) value."""
        if target == 0:
            return self._raw(0)
        if count == 1:
            return sum(
                float(ONE_DIE[t]) * self._need(self._after(target, extra, t, False))
                for t in range(1, 7)
            )
        gain, stuck = 0.0, 0.0
        for t in range(2, TOTALS):
            for probability, double in ((TWO_DICE_PLAIN[t], False), (TWO_DICE_DOUBLE[t], True)):
                if probability == 0:
                    continue
                after = self._after(target, extra, t, double)
                if after is None:
                    stuck += float(probability)
                else:
                    gain += float(probability) * after
        return gain + stuck * self._raw(target, extra)

    @staticmethod
    def _need(value: float | None) -> float:
        assert value is not None
        return value

    def _check(self, target: int) -> None:
        if not 0 <= target < 1 << self.size:
            raise RulesError(
                "target mask {mask} names tiles beyond the {size} of the board",
                mask=bin(target),
                size=self.size,
            )

