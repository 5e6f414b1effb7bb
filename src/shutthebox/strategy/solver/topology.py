"""The move graph of a board size, laid out for vectorized backward induction.

Boards are grouped in *levels* by how many target tiles they hold; a move
always leads to a lower level, so one pass from level 0 upwards solves a turn.
Each level lists its (board, roll total) pairs that have moves, the pairs
with the most moves first, and their children in one flat array, pair after
pair (compressed sparse rows): the best child of every pair is one gather and
one segmented ``max`` (``reduceat``), with no padding. Wide value arrays go
move by move instead: the ``j``-th moves of the pairs that have one are a
prefix of the pairs (see `Level.best_of`). The whole graph is built by array
operations over every board at once, without a Python loop over boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

__all__ = ["TOTALS", "Level", "Topology", "tile_counts", "topology"]

TOTALS = 13
"""Roll totals are indexed 0..12 directly (0 unused, 1..6 one die, 2..12 two dice)."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

WIDE = 4
"""Value arrays with more columns than this take the padded gather (see `Level.best_of`)."""


@dataclass(frozen=True)
class Level:
    """Boards with the same number of target tiles, and their moves.

    Pair ``i`` (board ``boards[segment_flat[i] // TOTALS]``, total ``segment_flat[i] % TOTALS``)
    has the moves ``move_flat[starts[i]:starts[i + 1]]``, ascending, leading to the boards
    ``child_flat[...]`` at the same places. Pairs with more moves come first.
    """

    boards: IntArray  # masks of this level, ascending
    segment_flat: IntArray  # index board_pos * TOTALS + total of each pair with a move
    starts: IntArray  # where each pair's moves begin in the flat arrays
    child_flat: IntArray  # the board each move leads to
    move_flat: IntArray  # the move's mask
    sentinel: int  # the index of the padding slot of value arrays

    def best_of(self, values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The best value among each pair's children, pair by pair: ``values`` has a row per board
        and a column per payoff, ``(rows, columns)``, or a stack of such, ``(stack, rows, columns)``
        (the extra turns held), and the result has a row per pair in their place.

        A few columns: one gather of every child and one segmented ``max``; many (a row of up to a
        thousand values), move by move: the first moves' children gathered, then each next move's
        maxed in, over the pairs that have one (a prefix). That keeps the temporaries to a row per
        pair, where a gather of every child at once was 2.7 times slower at 79 columns, and a
        segmented ``max`` along rows that long 13 times."""
        if not self.starts.size:
            return np.empty((*values.shape[:-2], 0, values.shape[-1]))
        if values.shape[-1] <= WIDE:
            return np.maximum.reduceat(values[..., self.child_flat, :], self.starts, axis=-2)
        first, *later = self.slots
        best = values[..., first, :]
        if not later:
            return best
        spare = np.empty_like(best)
        for children in later:
            head = best[..., : children.size, :]
            moved = spare[..., : children.size, :]
            np.take(values, children, axis=-2, out=moved, mode="clip")
            np.maximum(head, moved, out=head)
        return best

    def best_by_lead(self, values: npt.NDArray[np.float64], group: int) -> npt.NDArray[np.float64]:
        """As `best_of` for ``values`` of one count of extra turns held, ``(rows, columns)``, whose
        columns come in groups of ``group`` where the first of each group chooses: each pair takes,
        for each group, the whole group of the child best in its first column (the last such move in
        ascending order of masks, the highest, when several are equal). A player's own value chooses
        the move, and the other players' values follow it (see `shutthebox.strategy.solver.rounds`).
        The choice is made on the first columns alone, move by move; the groups are gathered once."""
        rows, columns = values.shape
        groups = columns // group
        if not self.starts.size:
            return np.empty((0, columns))
        lead = np.ascontiguousarray(values[:, ::group])
        first, *later = self.slots
        best = lead.take(first, axis=0)
        choice = np.empty(best.shape, dtype=np.intp)  # the child chosen, then its group's first value
        choice[...] = first[:, None]
        for children in later:
            count = children.size
            moved = lead.take(children, axis=0)
            better = moved >= best[:count]
            np.maximum(best[:count], moved, out=best[:count])
            np.putmask(choice[:count], better, np.broadcast_to(children[:, None], moved.shape))
        choice *= groups
        choice += np.arange(groups)
        return values.reshape(rows * groups, group).take(choice.ravel(), axis=0).reshape(first.size, columns)

    @cached_property
    def slots(self) -> tuple[IntArray, ...]:
        """For each ``j``, the child reached by the ``j``-th move of each pair that has one (a prefix
        of the pairs, which come by their number of moves, most first)."""
        lengths = np.diff(np.append(self.starts, self.child_flat.size))
        return tuple(
            self.child_flat[self.starts[: np.count_nonzero(lengths > j)] + j]
            for j in range(int(lengths.max(initial=0)))
        )

    @cached_property
    def children(self) -> IntArray:
        """(pairs, widest): each pair's children left-packed, padded with the sentinel (the
        simulator's tables, built once per strategy, read them so)."""
        return self._padded(self.child_flat, self.sentinel)

    @cached_property
    def moves(self) -> IntArray:
        """(pairs, widest): each pair's move masks, as `children`, padded with 0 (no move)."""
        return self._padded(self.move_flat, 0)

    def _padded(self, flat: IntArray, pad: int) -> IntArray:
        if not self.starts.size:
            return np.full((0, 1), pad, dtype=np.int64)
        lengths = np.diff(np.append(self.starts, flat.size))
        table = np.full((self.starts.size, int(lengths.max())), pad, dtype=np.int64)
        pair = np.repeat(np.arange(self.starts.size), lengths)
        table[pair, np.arange(flat.size) - self.starts[pair]] = flat
        return table


@dataclass(frozen=True)
class Topology:
    """All levels for ``size`` tiles and at most ``max_tiles`` per move."""

    size: int
    max_tiles: int | None
    levels: tuple[Level, ...]
    sums: IntArray  # sum of the tiles of each mask
    has_move: BoolArray  # (2**size, TOTALS): whether a total can be matched

    @property
    def sentinel(self) -> int:
        """Index of the padding slot appended to value arrays."""
        return 1 << self.size

    @property
    def count(self) -> int:
        return 1 << self.size


@cache
def tile_counts(size: int) -> tuple[IntArray, IntArray]:
    """For each mask of ``size`` tiles: how many tiles it holds, and their sum."""
    bits = (np.arange(1 << size, dtype=np.int64)[:, None] >> np.arange(size)) & 1
    return bits.sum(axis=1), bits @ np.arange(1, size + 1)


@cache
def topology(size: int, max_tiles: int | None = None) -> Topology:
    """The move graph of boards of ``size`` tiles (cached per board size and limit)."""
    count = 1 << size
    masks = np.arange(count, dtype=np.int64)
    popcount, sums = tile_counts(size)
    # Every move: the tile sets a roll can match (1 to 12), with at most `max_tiles` tiles.
    usable = (sums >= 1) & (sums < TOTALS) & (popcount <= (size if max_tiles is None else max_tiles))
    moves = masks[usable]
    moves = moves[np.argsort(sums[moves], kind="stable")]  # by total, then mask
    # Boards level by level (ascending within each): every (board, move that fits) comes out of
    # `nonzero` in the order the levels need, by level, board, total and move, with no sort.
    by_level = np.argsort(popcount, kind="stable")
    narrow, fits = by_level.astype(np.uint16)[:, None], moves.astype(np.uint16)[None, :]  # 1/4 the bytes
    row, move = np.nonzero((narrow & fits) == fits)
    board, mask = by_level[row], moves[move]
    total, level = sums[mask], popcount[board]
    # Each board's place in its level.
    first = np.searchsorted(popcount[by_level], np.arange(size + 1))
    place = np.empty(count, dtype=np.int64)
    place[by_level] = np.arange(count) - first[popcount[by_level]]
    # The pairs (a board and a total with moves), then within each level those with the most moves
    # first, and every move in that order.
    heads = np.flatnonzero(np.append(True, (board[1:] != board[:-1]) | (total[1:] != total[:-1])))
    has_move = np.zeros((count, TOTALS), dtype=np.bool_)
    has_move[board[heads], total[heads]] = True
    lengths = np.diff(np.append(heads, board.size))
    # A stable sort of small whole numbers (by level, then the most moves): NumPy's radix sort.
    pairs = np.argsort((level[heads] * 64 - lengths + 63).astype(np.int16), kind="stable")  # < 64 moves
    heads, lengths = heads[pairs], lengths[pairs]
    starts = np.cumsum(lengths) - lengths
    moved = np.repeat(heads - starts, lengths)
    moved += np.arange(board.size)
    board, mask = board[moved], mask[moved]
    pair_bounds = np.searchsorted(level[heads], np.arange(size + 2))
    levels = []
    for k in range(size + 1):
        span = slice(pair_bounds[k], pair_bounds[k + 1])
        moves_from = starts[span][0] if span.stop > span.start else 0
        flat = slice(moves_from, moves_from + int(lengths[span].sum()))
        levels.append(Level(
            boards=by_level[first[k]: first[k + 1] if k < size else count],
            segment_flat=place[board[starts[span]]] * TOTALS + sums[mask[starts[span]]],
            starts=starts[span] - moves_from,
            child_flat=board[flat] ^ mask[flat],
            move_flat=mask[flat],
            sentinel=count,
        ))
    return Topology(size, max_tiles, tuple(levels), sums, has_move)
