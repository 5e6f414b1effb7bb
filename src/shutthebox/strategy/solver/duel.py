"""Two-player rounds (rules §5.2): the first turn valued by what it leaves the second.

The second player, seeing the first's score ``s``, plays a turn that pays
``win`` for a lower score (plus ``shut_bonus`` for a shut box), ``tie`` for the
same score and ``lose`` for a higher one. Every ``s`` is solved at once, one
column each, giving the second player's best expectation ``B(s)``. The game is
zero-sum with total ``win + lose``: a first turn ending on ``s`` is worth
``win + lose - B(s)`` to the first player, who then plays the turn that
maximizes it (a shut box under ``shut_wins`` wins at once).

With ``tie=None`` a tie sends both to a tie-break round where the first player
plays first again, so a tie is worth the round's own value to the first player:
the value is the fixed point of that equation, found by iteration (a tie is
rare, so each step shrinks the error tenfold or more).

``win=1, lose=0`` values the chance to win the round: `Objective.WIN`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from shutthebox.core.errors import RulesError
from shutthebox.strategy.solver.solution import Objective, Solution
from shutthebox.strategy.solver.turn import FloatArray, TurnValues

__all__ = ["Duel"]


@dataclass(frozen=True)
class Duel:
    """A solved two-player round."""

    first: Solution  # the first player's turn, in expected payoff
    second: TurnValues  # the second player's turn, one column per posted score
    posted: tuple[int, ...]  # the scores the first player can post, ascending
    value: float  # the first player's expected payoff from the full board
    tie: float  # what a tie paid the second player

    def second_for(self, posted: int) -> Solution:
        """The second player's turn against the posted score, in expected payoff."""
        if posted not in self.posted:
            raise RulesError("{posted} is not a score the first player can post", posted=posted)
        return Solution(self.second, Objective.WIN, posted, self.posted.index(posted))


def solve_duel_turns(
    solve_turn: Callable[[FloatArray, FloatArray], TurnValues],
    scores: FloatArray,
    *,
    shut_wins: bool,
    win: float,
    lose: float,
    shut_bonus: float,
    tie: float | None,
    tolerance: float = 1e-15,
) -> Duel:
    """Solve the round; ``solve_turn(fail, done)`` solves one turn of the given rules."""
    full = scores.shape[0] - 1
    posted = np.unique(scores)
    win, lose, shut_bonus = float(win), float(lose), float(shut_bonus)
    total = win + lose
    column = np.searchsorted(posted, scores)  # where each (board, roll) score sits in `posted`
    value = total / 2
    for _ in range(200):
        tie_paid = tie if tie is not None else total - value
        fail = np.where(
            scores[:, :, None] < posted, win, np.where(scores[:, :, None] == posted, tie_paid, lose)
        )
        done = np.where(posted > 0, win + shut_bonus, tie_paid)
        second = solve_turn(fail, done)
        best = second.values[0, full, :]
        first_fail = (total - best[column])[:, :, None]
        first_done = win + shut_bonus if shut_wins else total - best[0]
        first = solve_turn(first_fail, np.array([first_done]))
        new = float(first.values[0, full, 0])
        settled = tie is not None or abs(new - value) < tolerance
        value = new
        if settled:
            break
    return Duel(
        Solution(first, Objective.WIN), second, tuple(int(s) for s in posted), value, tie_paid
    )
