"""Backward induction over one turn, vectorized over every board of a level.

The turn of a player is a finite game against the dice: from a *target* mask
(the tiles still to shut, or for the long game's opener still to open) the
player picks one die or two, the dice fall, and the player picks a move to a
smaller target or the turn fails. Values are always *maximized*; callers turn
"lowest expected score" into "highest minus score".

With extra turns on doubles (rules §5.4) the state also counts the extra turns
held, ``e``. A failed roll spends one (so ``(x, e)`` falls back on
``(x, e - 1)``), a failed double earns and spends one at once (a self-loop on
``(x, e)``, solved in closed form: ``V = A / (1 - q)``), a good double moves to
``e + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shutthebox.strategy.solver.topology import TOTALS, WIDE, Level, Topology
from shutthebox.strategy.ties import TIE_RELATIVE

__all__ = ["ONE_DIE", "TWO_DICE", "TWO_DICE_DOUBLE", "TWO_DICE_PLAIN", "Payoffs", "TurnValues", "solve_turn"]

FloatArray = np.ndarray[tuple[int, ...], np.dtype[np.float64]]
BoolArray = np.ndarray[tuple[int, ...], np.dtype[np.bool_]]
IntArray = np.ndarray[tuple[int, ...], np.dtype[np.intp]]


def _probabilities() -> tuple[FloatArray, FloatArray, FloatArray]:
    one = np.zeros(TOTALS)
    one[1:7] = 1 / 6
    plain = np.zeros(TOTALS)
    double = np.zeros(TOTALS)
    for a in range(1, 7):
        for b in range(1, 7):
            (double if a == b else plain)[a + b] += 1 / 36
    return one, plain, double


ONE_DIE, TWO_DICE_PLAIN, TWO_DICE_DOUBLE = _probabilities()
TWO_DICE = TWO_DICE_PLAIN + TWO_DICE_DOUBLE


def _expected(weights: FloatArray, outcomes: FloatArray) -> FloatArray:
    """``weights @ outcomes``: the sum over the rolls' axis (the one before last) of each outcome
    times its probability. Not the matrix product: NumPy hands that to OpenBLAS, whose kernel is
    chosen by the CPU (AVX2, AVX-512) and orders the sum its own way, so the same solve differed in
    its last bit from one machine to another (and the prebuilt tables with it). NumPy's own einsum
    loop is built for the wheel's baseline instruction set, not chosen at run time: it adds the
    rolls in one order on any x86-64 CPU (tests/strategy/test_same_bits_on_any_cpu.py), at about
    the matrix product's speed."""
    total: FloatArray = np.einsum("k,...kc->...c", weights, outcomes)
    return total


def _better(one: FloatArray, two: FloatArray) -> BoolArray:
    """Where one die is worth more than two beyond float noise (`strategy.ties`: a tie takes two)."""
    return np.asarray(one - two > TIE_RELATIVE * np.maximum(1.0, np.abs(two)))


def best_children(values: FloatArray, level: Level, group: int = 1) -> FloatArray:
    """The best value among each pair's children, for ``values`` of one count of extra turns held
    or a stack of them (see `Level.best_of`); with ``group`` > 1, chosen by the first column of each
    group of that many (`Level.best_by_lead`)."""
    return level.best_of(values) if group == 1 else level.best_by_lead(values, group)


@dataclass(frozen=True)
class Payoffs:
    """What a failed roll pays: row ``index[x, t]`` of ``table`` for target ``x`` and total ``t``.

    A turn's payoff depends on the score it ends on, and a board has far fewer scores (the rows)
    than (target, total) pairs, so each level takes its rows from the small table and the whole
    ``(2**size, TOTALS, columns)`` array is never built: 33 MB at 12 tiles for the 79 columns of a
    round to win, rebuilt at each repetition before."""

    index: IntArray  # (2**size, TOTALS): the row of each (target, total)
    table: FloatArray  # (rows, columns)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", np.asarray(self.table, dtype=np.float64))  # 0/1 stay exact

    @classmethod
    def per_target(cls, payoff: FloatArray) -> Payoffs:
        """One column whose payoff depends on the target alone (the long game's handover)."""
        targets = np.arange(payoff.shape[0])
        return cls(np.broadcast_to(targets[:, None], (targets.size, TOTALS)), payoff[:, None])

    @property
    def columns(self) -> int:
        return int(self.table.shape[1])

    @property
    def size(self) -> int:
        """The values the turn writes from it, as if the whole array were built."""
        return int(self.index.size) * self.columns

    def take(self, boards: IntArray, out: FloatArray) -> None:
        """The payoffs of these targets into ``out``, ``(len(boards), TOTALS, columns)``."""
        self.table.take(self.index[boards], axis=0, out=out, mode="clip")  # "raise" would buffer

    def at(self, target: int, total: int, column: int) -> float:
        return float(self.table[self.index[target, total], column])


@dataclass(frozen=True)
class TurnValues:
    """The solved turn: values and dice choices for every (extra turns, target)."""

    topology: Topology
    values: FloatArray  # (extras, 2**size + 1, columns); the last row is the -inf sentinel
    one_die: BoolArray  # (extras, 2**size, columns): the optimal choice is one die
    allow_one: BoolArray  # (2**size,): one die may be chosen
    forced: bool
    doubles: bool
    fail: Payoffs  # the value of a failed roll with no extra turn

    @property
    def max_extra(self) -> int:
        return int(self.values.shape[0]) - 1


def solve_turn(
    topology: Topology,
    *,
    allow_one: BoolArray,
    forced: bool,
    doubles: bool,
    fail: Payoffs,
    done: FloatArray,
    group: int = 1,
) -> TurnValues:
    """Solve a turn for every target at once.

    ``fail`` gives the value of failing to match total ``t`` from target ``x``
    with no extra turn left; ``done`` the value of emptying the target. Both
    carry a trailing axis of independent columns (e.g. one per target score of
    the ``beat`` objective). With ``group`` > 1 the columns come in groups of
    that many: the first of each group chooses the dice and the moves (two dice
    and the highest move when equal), the others are valued along its choices.
    """
    count = topology.count
    columns = fail.columns
    extras = topology.size + 1 if doubles else 1
    values = np.empty((extras, count + 1, columns))
    values[:, count] = -np.inf
    values[:, 0] = done
    one_die = np.zeros((extras, count, columns), dtype=np.bool_)
    # Each level's rolls (plain, and doubles) go in the same two buffers: a new array of megabytes
    # costs its page faults each time, a third of a round to win at 12 tiles.
    widest = max(level.boards.size for level in topology.levels)
    rolls = np.empty((2 if doubles else 1, widest * TOTALS * columns))
    for k, level in enumerate(topology.levels[1:], start=1):
        boards = level.boards
        n = boards.size
        allow = allow_one[boards][:, None]
        any_one = bool(allow.any())
        # A player holds at most one extra turn per tile already done: higher
        # counts cannot occur here, so they copy the highest reachable one.
        reachable = min(extras, topology.size - k + 1)
        moves = bool(level.starts.size)
        # The children are all on lower levels, solved for every count held: their best for each
        # count this level needs (one more for a good double) comes in one go where it is small.
        stacked = columns <= WIDE and moves and group == 1
        if stacked:
            best = best_children(values[: min(reachable + 1, extras) if doubles else reachable], level)
        if doubles:  # a double that makes no move: the state comes back (see the module)
            no_move = (~topology.has_move[boards]).T.astype(np.float64)
            stay = (1 / (1 - _expected(TWO_DICE_DOUBLE, no_move)))[:, None]
        for e in range(reachable):
            q_plain = rolls[0, : n * TOTALS * columns].reshape(n, TOTALS, columns)
            if e == 0:
                fail.take(boards, q_plain)
            else:
                q_plain[...] = values[e - 1][boards][:, None, :]
            flat = q_plain.reshape(n * TOTALS, columns)
            if moves:
                flat[level.segment_flat] = best[e] if stacked else best_children(values[e], level, group)
            double: FloatArray | None = None
            if doubles and moves:
                up = min(e + 1, extras - 1)
                double = best[up] if stacked else best_children(values[up], level, group)
            one = _expected(ONE_DIE, q_plain) if any_one else None
            if doubles:
                q_double = rolls[1, : n * TOTALS * columns].reshape(n, TOTALS, columns)
                q_double.fill(0)
                if double is not None:
                    q_double.reshape(n * TOTALS, columns)[level.segment_flat] = double
                two = (_expected(TWO_DICE_PLAIN, q_plain) + _expected(TWO_DICE_DOUBLE, q_double)) * stay
            else:
                two = _expected(TWO_DICE, q_plain)
            if one is None:
                values[e, boards] = two
                continue
            if forced:
                pick_one = np.broadcast_to(allow, one.shape)
            elif group == 1:
                pick_one = allow & _better(one, two)
            else:  # the first column of each group chooses for the group
                pick_one = allow & np.repeat(_better(one[:, ::group], two[:, ::group]), group, axis=1)
            one_die[e, boards] = pick_one
            values[e, boards] = np.where(pick_one, one, two)
        if reachable < extras:
            values[reachable:, boards] = values[reachable - 1, boards]
            one_die[reachable:, boards] = one_die[reachable - 1, boards]
    return TurnValues(topology, values, one_die, allow_one, forced, doubles, fail)
