"""One turn's exact values from a position, in plain Python: no NumPy to load.

``shutthebox hint`` asks about one position, and only the positions below it
(the subsets of its open tiles) matter: with a few tiles open they are a few
dozen, solved here in well under a millisecond, while loading NumPy for the
vectorized solver (`shutthebox.strategy.solver`) alone takes a hundred. The
vectorized solver wins on whole boards, and in a process that asks again (it
keeps its solved turns); `advise_position(..., one_off=True)` picks this one up
to `PLAIN_MOST_TILES` open tiles, a bound chosen by measurement
(``benchmarks/bench_hint_paths.py``: 10 open tiles, 99 ms against 210 ms).

The recursion is the turn of docs/rules.md §2 with its options, written to
answer exactly what a `Solution` answers (`value_at`, `dice_values`,
`move_values`) for the single-turn objectives; the tests hold the two against
each other position by position.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from shutthebox.core.board import Move, subsets_with_sum
from shutthebox.core.dice import Roll
from shutthebox.core.errors import RulesError
from shutthebox.core.rules import Rules
from shutthebox.strategy.names import Objective
from shutthebox.strategy.ties import tie_level

__all__ = ["PLAIN_MOST_TILES", "TURN_OBJECTIVES", "PlainTurn", "plain_fits"]

PLAIN_MOST_TILES = 10
"""The most open tiles a position may have for `PlainTurn` to answer it faster than NumPy's start."""

TURN_OBJECTIVES = frozenset({Objective.SCORE, Objective.SHUT, Objective.BEAT, Objective.TIE_OR_BEAT})

_ONE_DIE = tuple((face, False, 1 / 6) for face in range(1, 7))  # (total, a double?, probability)
_FACES = range(1, 7)
_TWO_DICE = tuple(  # (total, a double?, probability) of two dice
    (total, double, ways / 36)
    for (total, double), ways in sorted(Counter((a + b, a == b) for a in _FACES for b in _FACES).items())
)


def plain_fits(rules: Rules, objective: Objective, target_mask: int, extra: int = 0) -> bool:
    """Whether `PlainTurn` answers this position quicker than loading the vectorized solver: a
    single-turn objective, few tiles open, and as many extra turns held as the tiles shut allow."""
    open_tiles = target_mask.bit_count()
    return (
        objective in TURN_OBJECTIVES
        and open_tiles <= PLAIN_MOST_TILES
        and 0 <= extra <= rules.tiles - open_tiles
    )


class PlainTurn:
    """The values of one turn under ``rules`` for ``objective``, from any position asked for."""

    def __init__(self, rules: Rules, objective: Objective, target: int | None = None) -> None:
        if objective not in TURN_OBJECTIVES:
            raise RulesError("objective {objective} spans more than one turn", objective=str(objective))
        if objective in (Objective.BEAT, Objective.TIE_OR_BEAT) and target is None:
            raise RulesError("objective {objective} needs a target score", objective=str(objective))
        self.rules, self.objective, self.target = rules, objective, target
        self._below = (target or 0) + (1 if objective is Objective.TIE_OR_BEAT else 0)
        self._moves = {t: subsets_with_sum(rules.tiles, t, rules.max_tiles) for t in range(1, 13)}
        self._doubles = rules.doubles_extra_turn
        self._raw = cache(self._best)

    @property
    def lower_is_better(self) -> bool:
        return self.objective.lower_is_better

    # -- what a `Solution` answers --------------------------------------------------
    def value_at(self, target: int, extra: int = 0) -> float:
        return self._out(self._raw(target, extra))

    def dice_values(self, target: int, extra: int = 0) -> dict[int, float]:
        """Rolling each number of dice allowed now, and playing on at best after: a double that
        makes no move brings the position back, where the dice are chosen again (at its value)."""
        here = self._raw(target, extra)
        parts = self._parts(target, extra)
        return {count: self._out(gain + stuck * here) for count, (gain, stuck) in parts.items()}

    def move_values(self, target: int, roll: Roll, extra: int = 0) -> list[tuple[Move, float]]:
        """Every legal move for ``roll`` with the value it leads to, best first (as `Solution`)."""
        up = extra + int(self._doubles and roll.is_double)
        scored = [(Move(m), self._out(self._raw(target ^ m, up))) for m in self._fitting(target, roll.total)]
        scored.sort(key=lambda mv: (tie_level(mv[1] if self.lower_is_better else -mv[1]), -mv[0].mask))
        return scored

    # -- the recursion ---------------------------------------------------------------
    def _out(self, value: float) -> float:
        return -value if self.lower_is_better else min(max(value, 0.0), 1.0)

    def _reward(self, open_mask: int, total: int) -> float:
        score = self.rules.score(open_mask, total)
        if self.objective is Objective.SCORE:
            return float(-score)
        if self.objective is Objective.SHUT:
            return float(open_mask == 0)
        return float(score < self._below)

    def _fitting(self, target: int, total: int) -> list[int]:
        return [m for m in self._moves[total] if m & target == m]

    def _parts(self, target: int, extra: int) -> dict[int, tuple[float, float]]:
        """For each number of dice: the value of the rolls that move on, and the chance of a double
        that makes no move (it earns and spends a turn: the same position again)."""
        found = {}
        for count in self.rules.dice_options(target):
            gain = stuck = 0.0
            for total, double, p in _ONE_DIE if count == 1 else _TWO_DICE:
                earned = extra + int(self._doubles and double)
                fitting = self._fitting(target, total)
                if fitting:
                    gain += p * max(self._raw(target ^ m, earned) for m in fitting)
                elif earned > extra:
                    stuck += p
                elif extra > 0:
                    gain += p * self._raw(target, extra - 1)
                else:
                    gain += p * self._reward(target, total)
            found[count] = (gain, stuck)
        return found

    def _best(self, target: int, extra: int) -> float:
        if target == 0:
            return self._reward(0, 0)
        return max(gain / (1 - stuck) for gain, stuck in self._parts(target, extra).values())
