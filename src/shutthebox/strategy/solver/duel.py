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
the value is the fixed point ``v = T(v)`` of that equation. ``T`` is
nondecreasing and a contraction (its slope is at most the chance of a tie, well
under one), and nearly linear, so a secant step through the last two points
lands almost on the fixed point: two or three solves instead of ten. A secant
step is kept only when it brings ``|T(v) - v|`` below the best so far;
otherwise the next point is ``T`` of the best one, a plain iteration, which
shrinks that gap by the contraction factor. So every second solve at least
improves on the best by that factor, and the search converges whatever the
secant does.

``win=1, lose=0`` values the chance to win the round: `Objective.WIN`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from shutthebox.core.errors import RulesError
from shutthebox.strategy.solver.solution import Objective, Solution
from shutthebox.strategy.solver.turn import FloatArray, IntArray, Payoffs, TurnValues

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
    solve_turn: Callable[[Payoffs, FloatArray], TurnValues],
    posted: FloatArray,
    rank: IntArray,
    *,
    shut_wins: bool,
    win: float,
    lose: float,
    shut_bonus: float,
    tie: float | None,
    tolerance: float = 1e-15,
) -> Duel:
    """Solve the round; ``solve_turn(fail, done)`` solves one turn of the given rules, whose
    scores ``posted`` (ascending) a turn can end on, ``rank[x, t]`` the one of (target, total)."""
    full = rank.shape[0] - 1
    win, lose, shut_bonus = float(win), float(lose), float(shut_bonus)
    total = win + lose
    ranks = np.arange(posted.size)
    beats = ranks[:, None] < ranks[None, :]  # [r, c]: the second player's score r beats posted[c]

    def round_from(value: float) -> tuple[float, TurnValues, TurnValues, float]:
        """Both turns solved when a tie is worth ``value`` to the first player: T(value)."""
        tie_paid = tie if tie is not None else total - value
        pays = np.where(beats, win, lose)
        np.fill_diagonal(pays, tie_paid)  # the same score: a tie
        if not shut_wins:  # a first shut box that does not end the round is still paid for (§5.2)
            pays[1:, 0] -= shut_bonus  # by a second player who does not shut too (both shut: even)
        second = solve_turn(Payoffs(rank, pays), np.where(posted > 0, win + shut_bonus, tie_paid))
        best = second.values[0, full, :]  # the second player's expectation against each posted score
        first_done = win + shut_bonus if shut_wins else total - best[0]
        first = solve_turn(Payoffs(rank, (total - best)[:, None]), np.array([first_done]))
        return float(first.values[0, full, 0]), second, first, tie_paid

    value = total / 2
    new, second, first, tie_paid = round_from(value)
    best = last = (value, new)  # points (v, T(v)): the closest to a fixed point, the one before
    for _ in range(200):
        if tie is not None or abs(new - value) < tolerance:
            break
        if abs(new - value) <= abs(best[1] - best[0]):
            best = (value, new)
        slope = (new - last[1]) / (value - last[0]) if value != last[0] else -1.0
        secant = best == (value, new) and 0 <= slope < 1
        last, value = (value, new), value + (new - value) / (1 - slope) if secant else best[1]
        del second, first  # their tables go before the next ones are built
        new, second, first, tie_paid = round_from(value)
    value = new
    return Duel(
        Solution(first, Objective.WIN), second, tuple(int(s) for s in posted), value, tie_paid
    )
