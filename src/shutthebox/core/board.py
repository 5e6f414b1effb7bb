"""Boards and moves: frozen values over bitmasks (rules §1, §2).

Bit ``i - 1`` of a mask stands for tile ``i``. A `Board` holds the mask of the
*open* tiles; a `Move` holds the mask of the tiles one roll shuts (or, for the
opener of the long game, opens).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from shutthebox.core.errors import N_, IllegalActionError, ParseError, quoted
from shutthebox.core.tiles import MAX_TILES, mask_of, mask_sum, tiles_of

__all__ = ["MAX_TILES", "Board", "Move", "mask_of", "mask_sum", "subsets_with_sum", "tiles_of"]

_SEPARATORS = re.compile(r"[\s,+&]+")


@cache
def subsets_with_sum(size: int, total: int, max_tiles: int | None = None) -> tuple[int, ...]:
    """Every mask of tiles ``1..size`` summing to ``total`` with at most ``max_tiles`` tiles.

    Ascending by mask; the solver and the engine both draw moves from here.
    """
    limit = size if max_tiles is None else max_tiles
    found: list[int] = []
    pending = [(1, total, 0, 0)] if total > 0 else []  # (next tile, remaining, mask, tiles so far)
    while pending:  # a stack, not a recursive closure: that one held itself in a cycle at every call
        next_tile, remaining, mask, count = pending.pop()
        if remaining == 0:
            found.append(mask)
        elif count < limit:
            pending.extend(
                (tile + 1, remaining - tile, mask | 1 << (tile - 1), count + 1)
                for tile in range(next_tile, min(size, remaining) + 1)
            )
    return tuple(sorted(found))


@lru_cache(maxsize=4096)  # a board in words is said in every state a server sends
def _row(size: int, mask: int) -> str:
    return " ".join(str(t) if mask >> (t - 1) & 1 else "·" for t in range(1, size + 1))


_REFUSALS = {
    "board": (
        N_("board {text!r} names no tiles"),
        N_("board {text!r} is not a list of tile numbers"),
        N_("board {text!r}: tile {tile} is not between 1 and {high}"),
        N_("board {text!r} names a tile twice"),
    ),
    "move": (
        N_("move {text!r} names no tiles"),
        N_("move {text!r} is not a list of tile numbers"),
        N_("move {text!r}: tile {tile} is not between 1 and {high}"),
        N_("move {text!r} names a tile twice"),
    ),
}
"""Why a text is not a board or a move: no tiles, not numbers, a tile out of range, a tile twice."""


def _parse_tiles(text: str, what: str) -> tuple[int, ...]:
    no_tiles, not_numbers, out_of_range, twice = _REFUSALS[what]
    parts = [part for part in _SEPARATORS.split(text.strip()) if part]
    if not parts:
        raise ParseError(no_tiles, text=text)
    try:
        tiles = tuple(int(part) for part in parts)
    except ValueError:
        raise ParseError(not_numbers, text=text) from None
    for tile in tiles:
        if not 1 <= tile <= MAX_TILES:
            raise ParseError(out_of_range, text=text, tile=tile, high=MAX_TILES)
    if len(set(tiles)) != len(tiles):
        raise ParseError(twice, text=text)
    return tiles


@dataclass(frozen=True, slots=True)
class Move:
    """The set of tiles one roll shuts (or opens, for the long game's opener)."""

    mask: int

    def __post_init__(self) -> None:
        if not 0 < self.mask < 1 << MAX_TILES:
            raise ParseError(
                "a move needs 1 to {high} tiles, got mask {mask}", high=MAX_TILES, mask=bin(self.mask)
            )

    @classmethod
    def of(cls, tiles: Iterable[int]) -> Move:
        """The move over the given tile numbers."""
        tiles = tuple(tiles)
        for tile in tiles:
            if not 1 <= tile <= MAX_TILES:
                raise ParseError("tile {tile} is not between 1 and {high}", tile=quoted(tile), high=MAX_TILES)
        if len(set(tiles)) != len(tiles):
            raise ParseError("move {tiles} names a tile twice", tiles=quoted(tiles))
        return cls(mask_of(tiles))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"5+3"``, ``"5,3"``, ``"5 & 3"`` or ``"3 5"``."""
        return cls(mask_of(_parse_tiles(text, "move")))

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles of the move, highest first, as players say them."""
        return tuple(reversed(tiles_of(self.mask)))

    @property
    def total(self) -> int:
        """The roll total this move uses."""
        return mask_sum(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[int]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return "+".join(str(tile) for tile in self.tiles)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Board:
    """A row of tiles ``1..size``; ``mask`` holds the open ones.

    Set-like: ``5 in board``, ``len(board)`` (open tiles), iteration (open tiles
    ascending). Changing it returns a new board.
    """

    size: int
    mask: int

    def __post_init__(self) -> None:
        if not 1 <= self.size <= MAX_TILES:
            raise ParseError("a board has 1 to {high} tiles, not {size}", high=MAX_TILES, size=self.size)
        if not 0 <= self.mask < 1 << self.size:
            raise ParseError(
                "mask {mask} names tiles beyond the {size} of the board",
                mask=bin(self.mask),
                size=self.size,
            )

    @classmethod
    def full(cls, size: int = 9) -> Board:
        """Every tile open: the board at the start of a turn."""
        return cls(size, (1 << max(size, 0)) - 1)

    @classmethod
    def with_open(cls, size: int, tiles: Iterable[int]) -> Board:
        """The board of ``size`` tiles where exactly ``tiles`` are open."""
        tiles = tuple(tiles)
        for tile in tiles:
            if not 1 <= tile <= size:
                raise ParseError("tile {tile} is not on a board of {size} tiles", tile=tile, size=size)
        return cls(size, mask_of(tiles))

    @classmethod
    def parse(cls, text: str, size: int = 9) -> Board:
        """Read the open tiles, ``"1,5,9"``; ``"-"`` or ``""`` is the shut box."""
        if text.strip() in {"", "-"}:
            return cls(size, 0)
        tiles = _parse_tiles(text, "board")
        for tile in tiles:
            if tile > size:
                raise ParseError(
                    "board {text!r}: tile {tile} is not on a board of {size} tiles",
                    text=text,
                    tile=tile,
                    size=size,
                )
        return cls(size, mask_of(tiles))

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    @property
    def open_tiles(self) -> tuple[int, ...]:
        return tiles_of(self.mask)

    @property
    def shut_tiles(self) -> tuple[int, ...]:
        return tiles_of(self.full_mask & ~self.mask)

    @property
    def shut_mask(self) -> int:
        return self.full_mask & ~self.mask

    @property
    def open_sum(self) -> int:
        return mask_sum(self.mask)

    @property
    def is_shut(self) -> bool:
        """Every tile shut: the box is closed."""
        return self.mask == 0

    @property
    def is_full(self) -> bool:
        """Every tile open."""
        return self.mask == self.full_mask

    def shut(self, move: Move) -> Board:
        """The board after shutting the tiles of ``move`` (which must be open)."""
        if move.mask & ~self.mask:
            raise IllegalActionError(
                "move {move} shuts tiles that are not open on {board}", move=move, board=self
            )
        return Board(self.size, self.mask & ~move.mask)

    def reopen(self, move: Move) -> Board:
        """The board after opening the tiles of ``move`` (which must be shut)."""
        if move.mask & ~self.shut_mask:
            raise IllegalActionError(
                "move {move} opens tiles that are not shut on {board}", move=move, board=self
            )
        return Board(self.size, self.mask | move.mask)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, int) and 1 <= tile <= self.size and bool(self.mask >> (tile - 1) & 1)

    def __iter__(self) -> Iterator[int]:
        return iter(self.open_tiles)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __str__(self) -> str:
        """The row as a player sees it: open tiles by number, shut ones as ``·``."""
        return _row(self.size, self.mask)

    def __repr__(self) -> str:
        return f"Board({self.size}, {self.mask:#b})"
