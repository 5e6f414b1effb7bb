"""The move graph of a board size, laid out for vectorized backward induction.

Boards are grouped in *levels* by how many target tiles they hold; a move
always leads to a lower level, so one pass from level 0 upwards solves a turn.
For each level the (board, roll total) pairs that have moves are listed with
their children in a dense matrix padded with a sentinel index, so the best
child of every pair is one gather and one ``max`` along an axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from shutthebox.core.board import subsets_with_sum

__all__ = ["TOTALS", "Level", "Topology", "topology"]

TOTALS = 13
"""Roll totals are indexed 0..12 directly (0 unused, 1..6 one die, 2..12 two dice)."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Bucket:
    """Pairs of a level with about the same number of moves, padded to the widest."""

    segment_flat: IntArray
    children: IntArray


@dataclass(frozen=True)
class Level:
    """Boards with the same number of target tiles, and their moves."""

    boards: IntArray  # masks of this level, ascending
    segment_flat: IntArray  # index board_pos * TOTALS + total of each pair with a move
    children: IntArray  # (segments, width): child masks, padded with the sentinel
    moves: IntArray  # (segments, width): the move masks, padded with 0
    buckets: tuple[Bucket, ...]  # the same pairs with little padding, for wide value arrays


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
def topology(size: int, max_tiles: int | None = None) -> Topology:
    """The move graph of boards of ``size`` tiles (cached per board size and limit)."""
    count = 1 << size
    masks = np.arange(count, dtype=np.int64)
    popcount = np.zeros(count, dtype=np.int64)
    sums = np.zeros(count, dtype=np.int64)
    for tile in range(1, size + 1):
        bit = (masks >> (tile - 1)) & 1
        popcount += bit
        sums += bit * tile
    has_move = np.zeros((count, TOTALS), dtype=np.bool_)
    subsets = {t: np.array(subsets_with_sum(size, t, max_tiles), dtype=np.int64) for t in range(1, TOTALS)}
    levels = []
    for k in range(size + 1):
        boards = masks[popcount == k]
        flat: list[IntArray] = []
        kids: list[IntArray] = []
        used: list[IntArray] = []
        for t, subs in subsets.items():
            if subs.size == 0:
                continue
            fits = (boards[:, None] & subs[None, :]) == subs[None, :]  # (boards, subsets)
            rows = np.flatnonzero(fits.any(axis=1))
            if rows.size == 0:
                continue
            has_move[boards[rows], t] = True
            width = int(fits[rows].sum(axis=1).max())
            # Left-pack each row's fitting subsets, padding with 0 (no move).
            order = np.argsort(~fits[rows], axis=1, kind="stable")[:, :width]
            chosen = np.take_along_axis(np.where(fits[rows], subs[None, :], 0), order, axis=1)
            child = np.where(chosen > 0, boards[rows][:, None] ^ chosen, count)
            flat.append(rows * TOTALS + t)
            kids.append(child)
            used.append(chosen)
        levels.append(_pack(boards, flat, kids, used, count))
    return Topology(size, max_tiles, tuple(levels), sums, has_move)


def _pack(
    boards: IntArray, flat: list[IntArray], kids: list[IntArray], used: list[IntArray], sentinel: int
) -> Level:
    if not flat:
        empty = np.zeros((0, 1), dtype=np.int64)
        return Level(boards, np.zeros(0, dtype=np.int64), empty + sentinel, empty, ())
    width = max(k.shape[1] for k in kids)
    children = np.concatenate(
        [np.pad(k, ((0, 0), (0, width - k.shape[1])), constant_values=sentinel) for k in kids]
    )
    moves = np.concatenate([np.pad(u, ((0, 0), (0, width - u.shape[1]))) for u in used])
    segments = np.concatenate(flat)
    return Level(boards, segments, children, moves, _buckets(segments, children, moves))


def _buckets(segments: IntArray, children: IntArray, moves: IntArray) -> tuple[Bucket, ...]:
    """Split pairs by move count so that padding adds at most a third to a bucket."""
    counts = (moves > 0).sum(axis=1)
    order = np.argsort(counts, kind="stable")
    buckets = []
    start = 0
    while start < order.size:
        low = int(counts[order[start]])
        end = int(np.searchsorted(counts[order], low * 4 // 3, side="right"))
        rows = order[start:end]
        width = int(counts[rows].max())
        buckets.append(Bucket(segments[rows], children[rows, :width]))
        start = end
    return tuple(buckets)
