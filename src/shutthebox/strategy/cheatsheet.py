"""The cheat sheet: the optimal move for every roll on the positions that matter most.

A sheet is for one rule set, played for the lowest expected score. Its rows are
the boards a turn played optimally meets most often (the full board first), each
with the number of dice to roll where the rules leave the choice, and for each
total that number of dice can show, the tiles to shut (or none: the turn ends).
One sheet fits a printed page next to a real box.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.dice import Roll
from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.advice import solution_for
from shutthebox.strategy.names import Objective
from shutthebox.strategy.ties import tie_level
from shutthebox.strategy.trainer import Goal, reach

__all__ = ["ROWS", "Row", "Sheet", "cheatsheet"]

ROWS = 24
"""Boards on a sheet: as many as a page holds."""


@dataclass(frozen=True, slots=True)
class Row:
    """One board: how often optimal play meets it, the dice to roll, the move for each total."""

    open: int
    chance: float
    dice: int
    choice: bool  # the rules let the player choose the number of dice here
    moves: dict[int, tuple[int, ...] | None]  # total -> the tiles to shut (None: no move, the turn ends)
    expected: float  # the expected score from here, played at best


@dataclass(frozen=True, slots=True)
class Sheet:
    rules: Rules
    rows: tuple[Row, ...]
    expected: float  # of the full board


def cheatsheet(rules: Rules, rows: int = ROWS) -> Sheet:
    """The sheet of ``rules`` (played solo, for the lowest expected score)."""
    rules = rules.but(mode=Mode.SOLO)
    goal = Goal(Objective.SCORE)
    solution = solution_for(rules, goal.objective)
    met = reach(rules, goal)
    chance_first = lambda board: (-tie_level(met[board]), -board)  # noqa: E731 - equal chances: higher board
    boards = sorted((b for b in met if b), key=chance_first)[:rows]  # 0: shut
    made = []
    for board in boards:
        options = rules.dice_options(board)
        dice = solution.best_dice(board) if len(options) > 1 else options[0]
        totals = range(1, 7) if dice == 1 else range(2, 13)
        moves = {}
        for total in totals:
            roll = Roll((total,)) if dice == 1 else _two_dice(total)
            best = solution.best_move(board, roll)
            moves[total] = best.tiles if best is not None else None
        made.append(Row(board, met[board], dice, len(options) > 1, moves, solution.value_at(board)))
    return Sheet(rules, tuple(made), solution.value)


def _two_dice(total: int) -> Roll:
    """Two dice showing ``total``, not a double where another way exists (a double may earn an
    extra turn, which a sheet does not track)."""
    low = max(1, total - 6)
    high = total - low
    if low == high and low > 1 and high < 6:
        low, high = low - 1, high + 1
    return Roll((low, high))
