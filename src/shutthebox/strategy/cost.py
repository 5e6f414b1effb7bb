"""What a solve will cost, known before it starts: its work (cells) and its peak memory (bytes).

The solver (`shutthebox.strategy.solver`) works one turn at a time. A turn of
``P`` columns (independent payoffs) on ``N = 2**tiles`` target masks works
level by level: for every target of ``k`` tiles and every count of extra turns
it can hold (up to ``tiles - k`` with extra turns on doubles, else none) it
takes the payoffs of failing each of the 13 roll totals (a row per score of a
small table, see `shutthebox.strategy.solver.turn.Payoffs`), writes the 13 totals' values and
reads every move's child: twice over with extra turns on (plain rolls and
doubles). Those values written and read are the *cells* of the turn (each
move's child is read once, in a segmented ``max`` that costs `READ_CELLS`
cells a child), and each level has a fixed cost of calls, counted in cells too, so
that a cell is about the same time in every solve: at most 5 ns of processor
time on the machine the model was calibrated on (``benchmarks/bench_hint_bound.py
--calibrate``; most solves take a quarter of that, the repetitions being bounded
from above).

What drives the cost is then:

- the objective (`objective_for`): ``score``, ``shut``, ``beat`` and
  ``tie-or-beat`` are one turn of one column; ``win`` and ``stake`` (a round of
  ``players``, `shutthebox.strategy.solver.rounds`) solve each seat's turn for
  every best score and number tied at it, ``players - 1`` columns each, the
  smaller rounds of its tie-breaks first, and the states where everyone tied
  again until the round's own value settles; ``long`` repeats two one-column
  turns until the game's value settles;
- the tiles (``N`` doubles with each), extra turns on doubles (up to 13 copies
  of each table, and twice the work), the moves a roll allows (``max_tiles``);
- for a round the players, and the scoring, which sets the scores that can be posted:
  ``n(n+1)/2 + 1`` for ``sum``, 12 more for ``sum-plus-roll``, ``n + 1`` for
  ``count``, but up to ``N`` for ``digits``: a 12-tile ``digits`` round of two
  is 4,096 columns a seat, solved a thousand columns at a time.

How many repetitions a round or ``long`` solve takes is not known before it
runs: `ROUND_SWEEPS` and `long_sweeps` bound it by the most measured over every
rule option, with a margin. The posted scores and the stakes choose the
objective but do not change its cost. An estimate is
arithmetic on the rules (the moves of each roll total are the engine's cached
list): microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from shutthebox.core.board import subsets_with_sum
from shutthebox.core.match import Match
from shutthebox.core.rules import Rules, Scoring
from shutthebox.strategy.advice import objective_for, seat_of
from shutthebox.strategy.names import Objective

__all__ = ["Cost", "cost_of", "duel_rounds", "estimate", "long_sweeps", "posted_scores"]

TOTALS = 13  # roll totals 0..12, as the solver indexes them
FLOAT = 8  # bytes of a float64
READ_CELLS = 3
"""A child read in a segmented ``max`` (``np.maximum.reduceat``), in cells: a gather and a compare."""
STEP_CELLS = 12_000
"""The fixed calls of one level and count of extra turns, in cells."""
SETUP_CELLS = 2_500
"""Per target mask: building the move graph, the score and one-die tables when they are not cached."""
CALL_CELLS = 20_000_000
"""Any solve's own start, in cells (up to a tenth of a second)."""
MARGIN = 110
"""Percent of the arrays counted, for what NumPy and the allocator hold besides them."""

# Calibration (benchmarks/bench_hint_bound.py --rounds): for each board size, 1 to 12 tiles, the most
# repetitions measured over every rule option (one-die rule, forced or not, max_tiles, extra turns,
# scoring, shut_wins), then a quarter more for a round, half more for the long game.
_DUEL_ROUNDS = (4, 4, 4, 7, 7, 7, 7, 7, 7, 7, 5, 5)  # the secant search of `solve_duel_turns`
_DUEL_ROUNDS_COUNT = (4, 4, 4, 5, 7, 7, 8, 7, 7, 7, 7, 7)
_LONG_SWEEPS = {  # (one tile per roll, extra turns on doubles)
    (False, False): (6, 17, 15, 57, 47, 36, 30, 29, 29, 32, 38, 62),
    (False, True): (6, 20, 24, 50, 39, 36, 27, 27, 26, 26, 29, 42),
    (True, False): (6, 15, 17, 60, 75, 117, 191, 258, 321, 455, 531, 897),
    (True, True): (6, 17, 14, 98, 72, 104, 156, 197, 185, 191, 236, 414),
}


def duel_rounds(rules: Rules) -> int:
    """The most repetitions of both turns a two-player round's solve takes (the solver stops at 200).

    The secant search of `shutthebox.strategy.solver.duel` takes three to six (measured over every
    option up to 10 tiles, and the one-die rules and scorings at 11 and 12); ``digits`` ties only on
    the same open tiles, so never more than ``sum``."""
    table = _DUEL_ROUNDS_COUNT if rules.scoring is Scoring.COUNT else _DUEL_ROUNDS
    return table[rules.tiles - 1]


def long_sweeps(rules: Rules) -> int:
    """The most sweeps the long game's value iteration takes: one tile per roll converges slowest."""
    one_tile = rules.max_tiles == 1 and rules.tiles > 1
    return _LONG_SWEEPS[one_tile, rules.doubles_extra_turn][rules.tiles - 1]


@dataclass(frozen=True, slots=True)
class Cost:
    """The bound on one solve: the cells it works (its time) and its peak memory in bytes."""

    objective: Objective
    cells: int
    bytes: int

    def within(self, max_cells: int, max_bytes: int) -> bool:
        """Whether the solve fits both limits."""
        return self.cells <= max_cells and self.bytes <= max_bytes

    def to_json(self) -> dict[str, object]:
        return {"objective": str(self.objective), "cells": self.cells, "bytes": self.bytes}


def posted_scores(tiles: int, scoring: Scoring | str) -> int:
    """How many different scores a turn can end on, at most: the columns of a ``win`` solve."""
    scoring = Scoring.parse(scoring)
    top = tiles * (tiles + 1) // 2
    if scoring is Scoring.SUM:
        return top + 1
    if scoring is Scoring.SUM_PLUS_ROLL:
        return top + TOTALS  # an open sum plus a failed total of 0 to 12, or 0
    if scoring is Scoring.COUNT:
        return tiles + 1
    return 1 << tiles  # digits: nearly every open set is a number of its own


@dataclass(frozen=True, slots=True)
class _Shape:
    """The sizes one turn solve works on."""

    tiles: int
    doubles: bool
    max_tiles: int | None

    @classmethod
    def of(cls, rules: Rules) -> _Shape:
        return cls(rules.tiles, rules.doubles_extra_turn, rules.max_tiles)

    @property
    def masks(self) -> int:
        return 1 << self.tiles

    @property
    def extras(self) -> int:
        return self.tiles + 1 if self.doubles else 1

    def held(self, k: int) -> int:
        """Counts of extra turns a target of ``k`` tiles is solved for."""
        return min(self.extras, self.tiles - k + 1)

    @property
    def passes(self) -> int:
        return 2 if self.doubles else 1

    def cells(self, columns: int, group: int = 1) -> int:
        """Cells one turn solve works: its ``fail`` table, each target's totals and moves, its calls.
        Columns in groups (a round's, `shutthebox.strategy.solver.rounds`) read each child's first
        column of each group only, then gather the chosen one's group once per pair."""
        n = self.tiles
        read = _moves(n, self.max_tiles)
        induction = sum(
            self.held(k) * ((1 if group == 1 else 2) * TOTALS * comb(n, k) + READ_CELLS * read[k] // group)
            for k in range(1, n + 1)
        )
        steps = self.passes * sum(self.held(k) for k in range(1, n + 1))
        return columns * (TOTALS * self.masks + self.passes * induction) + STEP_CELLS * steps

    @property
    def setup_cells(self) -> int:
        return SETUP_CELLS * self.masks

    @property
    def rank_bytes(self) -> int:
        """The rank of each (target, total)'s score, for the payoffs of every turn (cached)."""
        return FLOAT * TOTALS * self.masks

    def value_bytes(self, columns: int) -> int:
        """A solved turn's ``values`` (float64) and ``one_die`` (bool)."""
        return (FLOAT + 1) * self.extras * (self.masks + 1) * columns

    def level_bytes(self, columns: int) -> int:
        """One level's temporaries: its rolls plain and double, the values repeated, the children
        gathered and their best, the dice values: tracemalloc saw up to 3 times the rolls of the
        largest level in rounds to win of 8 to 12 tiles."""
        return 4 * FLOAT * TOTALS * comb(self.tiles, self.tiles // 2) * columns

    @property
    def fixed_bytes(self) -> int:
        """The move graph, the score and one-die tables (7.2 MB at most while built at 12 tiles),
        NumPy's own slack."""
        return 2_000_000 + 16 * FLOAT * TOTALS * self.masks


@lru_cache(maxsize=12 * 13)
def _moves(tiles: int, max_tiles: int | None) -> tuple[int, ...]:
    """For each level ``k``, its (target, move) pairs (a move of ``j`` tiles fits ``comb(tiles - j,
    k - j)`` targets of ``k`` tiles)."""
    by_total = [subsets_with_sum(tiles, total, max_tiles) for total in range(1, TOTALS)]
    sizes = [move.bit_count() for moves in by_total for move in moves]
    return tuple(sum(comb(tiles - j, k - j) for j in sizes if j <= k) for k in range(tiles + 1))


ROUND_SWEEPS = 9
"""The most solves of a round's states where every player so far has tied (see
`shutthebox.strategy.solver.rounds`): 3 to 7 measured over every rule option up to 8 tiles, the most
where ties are likeliest (``count`` with extra turns on doubles)."""
CHUNK = 1024
"""The most columns of one turn solve of a round (`shutthebox.strategy.solver.rounds.COLUMNS`)."""
ROUND_CALL_STEPS = 6
"""A round's turn solves choose by the players' own columns, a few calls per move of each level and
count of extra turns: their fixed cost, in `STEP_CELLS`, measured up to 5 with few columns (``count``)."""


def _round_cost(shape: _Shape, scores: int, players: int) -> tuple[int, int, int]:
    """One round of ``players`` with its tie-breaks' rounds solved first: its cells, the bytes it keeps
    (the mover's columns of every seat of every round) and the bytes of its largest turn solve."""
    cells, kept, widest = 0, 0, 0
    for k in range(2, players + 1):
        width = max(k - 1, 1)  # a column per role a turn solves: the mover and k - 2 others at most
        for seat in range(k):
            ties = max(seat, 1)  # the states of a best score: one per number tied at it
            per_best = width * ties
            bests = 1 if seat == 0 else scores
            step = max(1, CHUNK // per_best)
            calls = -(-bests // step)
            columns = bests * per_best
            widest = max(widest, min(step, bests) * per_best)
            chain = width if seat == 0 else scores * width  # the states where everyone so far tied
            chain_calls = 1 if seat == 0 else -(-scores // max(1, CHUNK // width))
            cells += shape.cells(columns, width) + (ROUND_CALL_STEPS * calls - 1) * shape.cells(0)
            again = shape.cells(chain, width) + (ROUND_CALL_STEPS * chain_calls - 1) * shape.cells(0)
            cells += (ROUND_SWEEPS - 1) * again
            kept += shape.value_bytes(bests * ties) + FLOAT * scores * bests * ties
    # a turn solve's payoffs (and their making), values and level temporaries, its best children gathered
    working = 3 * FLOAT * scores * widest + shape.value_bytes(widest) + shape.level_bytes(widest)
    return cells, kept, working


def cost_of(rules: Rules, objective: Objective | str, players: int = 2) -> Cost:
    """The bound on solving ``objective`` under ``rules`` from nothing (nothing cached); a round's
    objectives (``win``, ``stake``) for ``players``."""
    objective = Objective.parse(objective)
    shape = _Shape.of(rules)
    one = shape.value_bytes(1) + shape.level_bytes(1)
    if objective in (Objective.WIN, Objective.STAKE):
        cells, kept, working = _round_cost(shape, posted_scores(rules.tiles, rules.scoring), players)
        peak = kept + working + shape.rank_bytes
    elif objective is Objective.LONG:
        cells = long_sweeps(rules) * 2 * shape.cells(1)
        handover = 2 * FLOAT * shape.masks
        mixing = 2 * 13 * FLOAT * 2 * shape.masks  # the last 13 points and steps of Anderson mixing
        peak = 3 * one + handover + mixing + shape.rank_bytes
    else:
        cells = shape.cells(1)
        peak = one + shape.rank_bytes
    return Cost(
        objective,
        cells + shape.setup_cells + CALL_CELLS,
        peak * MARGIN // 100 + shape.fixed_bytes,
    )


def estimate(state: Match) -> Cost:
    """The bound on the solve `shutthebox.strategy.advice.advise` runs for ``state``."""

    seat = seat_of(state)
    return cost_of(state.rules, objective_for(state)[0], seat.players if seat is not None else 2)
