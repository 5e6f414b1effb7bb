"""The cheat sheet: the optimal move for every roll on the positions that matter most.

A sheet is for one rule set, played for the lowest expected score. Its rows are
the boards a turn played optimally meets most often (the full board first), each
with the number of dice to roll where the rules leave the choice, and for each
total that number of dice can show, the tiles to shut (or none: the turn ends).
One sheet fits a printed page next to a real box.

Every option of the turn is honoured: the board, the one-die rule, the tiles per
roll, the scoring, and a double's extra roll (its values, moves and the boards
met are the solve's under that rule, the moves for a total shown for a roll that
is not a double where one exists). A sheet is one turn: the long game and
elimination, whose turns are played for something else, are refused in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.chance import outcomes
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Mode, Rules
from shutthebox.strategy.advice import solution_for
from shutthebox.strategy.names import Objective
from shutthebox.strategy.solver import Solution
from shutthebox.strategy.ties import tie_level
from shutthebox.strategy.trainer import Goal, reach

__all__ = ["ROWS", "SHEET_MODES", "Row", "Sheet", "cheatsheet", "sheet_rules"]

SHEET_MODES = (Mode.SOLO, Mode.ROUND)
"""The ways to play whose turn a sheet describes: one turn played for the lowest score."""

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


def sheet_rules(rules: Rules) -> Rules:
    """The solo turn a sheet of ``rules`` describes, every option kept (a double's extra roll too);
    refused in words for a way to play whose turns a sheet cannot describe."""
    if rules.mode not in SHEET_MODES:
        raise RulesError(
            "a cheat sheet is for one turn played for the lowest score; the {mode} mode is not supported",
            mode=str(rules.mode),
        )
    return rules.but(mode=Mode.SOLO, doubles_extra_turn=rules.doubles_extra_turn)


def cheatsheet(rules: Rules, rows: int = ROWS) -> Sheet:
    """The sheet of ``rules`` (played solo, for the lowest expected score; see `sheet_rules`)."""
    rules = sheet_rules(rules)
    goal = Goal(Objective.SCORE)
    solution = solution_for(rules, goal.objective)
    met = _met_with_doubles(rules, solution) if rules.doubles_extra_turn else reach(rules, goal)
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


def _met_with_doubles(rules: Rules, solution: Solution) -> dict[int, float]:
    """`trainer.reach` when a double earns an extra roll: the chance a turn played optimally meets
    each board, over the states (board, extra rolls held) the turn passes through. A double that
    makes no move comes back to the same state (the rolls that leave it share its chance); a miss
    that spends an extra roll stays on the board with one fewer."""
    full = (1 << rules.tiles) - 1
    most = solution.turn.max_extra
    held: dict[tuple[int, int], float] = {(full, 0): 1.0}  # chance of coming to (board, extra)
    met = {full: 1.0}
    for board in sorted(range(1, full + 1), key=lambda b: -b.bit_count()):  # every parent before its children
        if board not in met:
            continue
        for extra in range(most, -1, -1):  # a miss spends an extra roll: to the same board, one fewer
            chance = held.get((board, extra), 0.0)
            if not chance:
                continue
            options = rules.dice_options(board)
            dice = solution.best_dice(board, extra) if len(options) > 1 else options[0]
            loop = 0.0
            going: list[tuple[tuple[int, int], float, bool]] = []
            for roll, p in outcomes(dice):
                move = solution.best_move(board, roll, extra)
                if move is not None:
                    up = min(extra + int(roll.is_double), most)
                    going.append(((board ^ move.mask, up), float(p), True))
                elif roll.is_double:
                    loop += float(p)  # the double's own extra roll: this state again
                elif extra > 0:
                    going.append(((board, extra - 1), float(p), False))
            scale = chance / (1.0 - loop)
            for state, share, moved in going:
                held[state] = held.get(state, 0.0) + scale * share
                if moved:
                    met[state[0]] = met.get(state[0], 0.0) + scale * share
    return met


def _two_dice(total: int) -> Roll:
    """Two dice showing ``total``, not a double where another way exists (a double may earn an
    extra turn, which a sheet does not track)."""
    low = max(1, total - 6)
    high = total - low
    if low == high and low > 1 and high < 6:
        low, high = low - 1, high + 1
    return Roll((low, high))
