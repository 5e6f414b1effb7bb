"""Tiles as numbers and bitmasks, and the grade of the tiles left open (rules §1, §4).

Bit ``i - 1`` of a mask stands for tile ``i``. This arithmetic is all a
command that only reads stored games needs, so it lives apart from the frozen
`Board` and `Move` values (which need dataclasses, a start-up of their own).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from shutthebox.core.errors import RulesError

__all__ = ["MAX_TILES", "counted_grade", "grade", "mask_of", "mask_sum", "tiles_of"]

MAX_TILES = 12


@lru_cache(maxsize=1 << MAX_TILES)  # every board and move there is: asked at every turn of every game
def tiles_of(mask: int) -> tuple[int, ...]:
    """The tile numbers in ``mask``, ascending."""
    return tuple(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)


def mask_of(tiles: Iterable[int]) -> int:
    """The mask of a collection of tile numbers."""
    mask = 0
    for tile in tiles:
        mask |= 1 << (tile - 1)
    return mask


@lru_cache(maxsize=1 << MAX_TILES)
def mask_sum(mask: int) -> int:
    """The sum of the tile numbers in ``mask``."""
    return sum(tiles_of(mask))


def grade(open_sum: int) -> str:
    """The grade from the sum of the open tiles: S, A, B, C or F (rules §4)."""
    if open_sum < 0:
        raise RulesError("an open sum is never negative, got {sum}", sum=open_sum)
    if open_sum == 0:
        return "S"
    if open_sum <= 5:
        return "A"
    if open_sum <= 12:
        return "B"
    if open_sum <= 25:
        return "C"
    return "F"


def counted_grade(open_sum: int, score: int | None, counted: int) -> str:
    """The grade of a turn as it counts in the rankings: its own (of its ``open_sum``), or for a turn
    cut short by help (``counted`` is not its ``score``, see `core.ranking`) the grade of the score it
    counts for."""
    return grade(open_sum) if counted == score else grade(counted)
