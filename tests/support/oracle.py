"""Independent references for the solver tests, written from the rules (docs/rules.md) alone.

Nothing here imports the solver, the engine's move lists or its dice tables:
moves are enumerated with `itertools.combinations`, the 36 faces of two dice
are listed one by one, and the one-die rule and the scorings are re-read from
rules §3 and §4. `TurnOracle` values a single turn by memoized recursion (in
`Fraction`s or floats); `long_policy_values` evaluates a given long-game
policy exactly by solving the linear system of its Markov chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

ONE_DIE_RULES = ("high-shut", "sum-le-6", "sum-lt-6", "never")
SCORINGS = ("sum", "sum-plus-roll", "digits", "count")


def tiles_in(mask: int) -> tuple[int, ...]:
    return tuple(t for t in range(1, 13) if mask >> (t - 1) & 1)


def mask_from(tiles: tuple[int, ...] | list[int]) -> int:
    return sum(1 << (t - 1) for t in tiles)


@cache
def moves_of(target: int, total: int, max_tiles: int | None) -> tuple[int, ...]:
    """Every set of tiles of ``target`` summing to ``total`` (rules §2, §7), as masks."""
    tiles = tiles_in(target)
    limit = len(tiles) if max_tiles is None else min(max_tiles, len(tiles))
    return tuple(
        mask_from(list(combo))
        for size in range(1, limit + 1)
        for combo in combinations(tiles, size)
        if sum(combo) == total
    )


def one_die_ok(rule: str, target: int) -> bool:
    """rules §3, judged on the tiles the player works on."""
    tiles = tiles_in(target)
    if rule == "high-shut":
        return all(t < 7 for t in tiles)
    if rule == "sum-le-6":
        return sum(tiles) <= 6
    if rule == "sum-lt-6":
        return sum(tiles) < 6
    assert rule == "never"
    return False


def score_of(scoring: str, open_mask: int, failed_total: int) -> int:
    """rules §4: the score of a turn ending with ``open_mask`` open."""
    tiles = tiles_in(open_mask)
    if not tiles:
        return 0
    if scoring == "sum":
        return sum(tiles)
    if scoring == "sum-plus-roll":
        return sum(tiles) + failed_total
    if scoring == "digits":
        return int("".join(map(str, tiles)))
    assert scoring == "count"
    return len(tiles)


def faces(count: int) -> list[tuple[int, ...]]:
    """Every equally likely outcome of ``count`` dice, face by face."""
    if count == 1:
        return [(a,) for a in range(1, 7)]
    return [(a, b) for a in range(1, 7) for b in range(1, 7)]


@dataclass(frozen=True)
class TurnRules:
    tiles: int
    one_die: str = "high-shut"
    forced: bool = False
    max_tiles: int | None = None
    scoring: str = "sum"
    doubles: bool = False

    @property
    def full(self) -> int:
        return (1 << self.tiles) - 1

    def dice_counts(self, target: int) -> tuple[int, ...]:
        if not one_die_ok(self.one_die, target):
            return (2,)
        return (1,) if self.forced else (1, 2)


class TurnOracle:
    """One turn's optimal value, straight from the rules.

    ``objective`` is ``score`` (lowest expected score), ``shut``, ``beat``
    (P(score < target)) or ``tie-or-beat`` (P(score <= target)). Values are in
    the objective's units. State: the target mask and the extra turns held.
    """

    def __init__(self, rules: TurnRules, objective: str, target: int | None = None, *, exact: bool = False):
        self.rules = rules
        self.objective = objective
        self.target = target
        self.number: Callable[[Fraction], Fraction | float] = (lambda f: f) if exact else float
        self.sign = -1 if objective == "score" else 1  # values are maximized internally
        self._value = cache(self._value_raw)

    def reward(self, open_mask: int, total: int) -> Fraction | float:
        score = score_of(self.rules.scoring, open_mask, total)
        if self.objective == "score":
            return self.number(Fraction(-score))
        if self.objective == "shut":
            return self.number(Fraction(int(open_mask == 0)))
        assert self.target is not None
        hit = score < self.target if self.objective == "beat" else score <= self.target
        return self.number(Fraction(int(hit)))

    def _option_parts(self, target: int, extra: int, count: int) -> tuple[Fraction | float, Fraction | float]:
        """Rolling ``count`` dice from (target, extra): the raw value of the rolls that move on, and
        the chance of a failed double, which earns and spends its own turn: the same state again,
        where the dice are chosen anew."""
        rolls = faces(count)
        p = self.number(Fraction(1, len(rolls)))
        gain = self.number(Fraction(0))
        loop = self.number(Fraction(0))
        for roll in rolls:
            total, double = sum(roll), len(roll) == 2 and roll[0] == roll[1]
            earned = extra + int(double and self.rules.doubles)
            moves = moves_of(target, total, self.rules.max_tiles)
            if moves:
                gain += p * max(self._value(target ^ m, earned) for m in moves)
            elif earned > 0:
                if earned > extra:  # the failed double's own extra turn: the same state again
                    loop += p
                else:
                    gain += p * self._value(target, earned - 1)
            else:
                gain += p * self.reward(target, total)
        return gain, loop

    def _value_raw(self, target: int, extra: int) -> Fraction | float:
        """The best count is the best one to keep whenever the state comes back: gain / (1 - loop)."""
        if target == 0:
            return self.reward(0, 0)
        options = (self._option_parts(target, extra, c) for c in self.rules.dice_counts(target))
        return max(gain / (1 - loop) for gain, loop in options)

    def value(self, target: int | None = None, extra: int = 0) -> Fraction | float:
        return self.sign * self._value(self.rules.full if target is None else target, extra)

    def option(self, target: int, extra: int, count: int) -> Fraction | float:
        """Rolling ``count`` dice now, and playing at best after (a failed double chooses again)."""
        gain, loop = self._option_parts(target, extra, count)
        return self.sign * (gain + loop * self._value(target, extra))


# -- the long game (rules §5.4) ---------------------------------------------------------
Policy = Callable[[int, bool, int], int]  # (target, opening, extra) -> dice count
MovePolicy = Callable[[int, bool, int, tuple[int, ...]], int]  # (.., faces) -> move mask


def long_states(rules: TurnRules) -> list[tuple[int, bool, int]]:
    """(open mask, opening, extra turns) of every decision before a roll."""
    extras = rules.tiles + 1 if rules.doubles else 1
    return [
        (board, opening, e)
        for board in range(1 << rules.tiles)
        for opening in (False, True)
        for e in range(extras)
    ]


def long_policy_values(
    rules: TurnRules, dice: Policy, move: MovePolicy
) -> dict[tuple[int, bool, int], float]:
    """Each mover's chance to win under the given policy, by one linear solve.

    ``p[s]``: the probability that the player about to roll in state ``s`` wins.
    A roll that is used keeps the turn (a double adds an extra turn); a move
    that empties the target wins; a roll that cannot be used spends an extra
    turn if one is held (a double earns its own) or hands the same board to
    the other player, whose chance of winning is ``p[other]``: so ``1 - p``.
    """
    states = long_states(rules)
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    a = np.eye(n)
    b = np.zeros(n)
    for (board, opening, extra), i in index.items():
        target = rules.full ^ board if opening else board
        count = dice(target, opening, extra)
        rolls = faces(count)
        for roll in rolls:
            p = 1 / len(rolls)
            total, double = sum(roll), len(roll) == 2 and roll[0] == roll[1]
            earned = extra + int(double and rules.doubles)
            if moves_of(target, total, rules.max_tiles):
                m = move(target, opening, extra, roll)
                assert m in moves_of(target, total, rules.max_tiles)
                left = target ^ m
                if left == 0:
                    b[i] += p
                    continue
                nxt_board = board | m if opening else board & ~m
                a[i, index[(nxt_board, opening, min(earned, rules.tiles if rules.doubles else 0))]] -= p
            elif earned > 0:
                a[i, index[(board, opening, earned - 1)]] -= p
            else:
                b[i] += p
                a[i, index[(board, not opening, 0)]] += p
    solution: npt.NDArray[np.float64] = np.linalg.solve(a, b)
    return {s: float(solution[i]) for s, i in index.items()}


def random_play(rules: TurnRules) -> tuple[float, float]:
    """Mean score and chance to shut when every dice choice and every move is uniformly random.

    A failed double that earns and spends its own extra turn leaves the state as
    it was, and the dice are chosen afresh: ``V = sum(gain) / (1 - sum(loop))``.
    """

    @cache
    def go(target: int, extra: int) -> tuple[float, float]:
        if target == 0:
            return 0.0, 1.0
        counts = rules.dice_counts(target)
        mean = shut = loop = 0.0
        for count in counts:
            rolls = faces(count)
            p = 1 / (len(counts) * len(rolls))
            for roll in rolls:
                total, double = sum(roll), len(roll) == 2 and roll[0] == roll[1]
                earned = extra + int(double and rules.doubles)
                moves = moves_of(target, total, rules.max_tiles)
                if moves:
                    for m in moves:
                        s, h = go(target ^ m, min(earned, rules.tiles))
                        mean += p * s / len(moves)
                        shut += p * h / len(moves)
                elif earned > extra:
                    loop += p
                elif earned > 0:
                    s, h = go(target, earned - 1)
                    mean += p * s
                    shut += p * h
                else:
                    mean += p * score_of(rules.scoring, target, total)
        return mean / (1 - loop), shut / (1 - loop)

    return go(rules.full, 0)
