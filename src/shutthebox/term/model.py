"""What the game screen shows, as frozen values: the controller makes them, the Textual shell draws them.

No Textual here (nor in `controller` and `view`, which make these): a `Scene` is the whole game
screen at one moment, in words and numbers, so it can be compared, tested and drawn alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from shutthebox.core.match import Match

__all__ = ["KEY_OF_TILE", "TILE_KEYS", "TILE_OF_KEY", "Handover", "PlayerRow", "Scene", "Table", "TileView"]

TILE_KEYS: tuple[tuple[str, str, int], ...] = (
    *((str(n), str(n), n) for n in range(1, 10)),
    ("0", "0", 10),
    ("minus", "-", 11),
    ("equals_sign", "=", 12),
)
"""Textual key name, label shown under the tile, tile number: the long boards' 10, 11 and 12 sit on
the keys just right of 9 on a keyboard."""

TILE_OF_KEY: dict[str, int] = {key: tile for key, _, tile in TILE_KEYS}
"""Textual key name -> the tile (and, for 1 to 6, the die face) it stands for."""

KEY_OF_TILE: dict[int, str] = {tile: label for _, label, tile in TILE_KEYS}
"""Tile -> the key label printed under it."""


@dataclass(frozen=True, slots=True)
class TileView:
    """How one tile looks: its number, whether it is open, picked, in play now, part of a move
    that makes the roll (highlighted), and under the arrows' cursor."""

    number: int
    is_open: bool
    selected: bool = False
    active: bool = False
    usable: bool = False
    cursor: bool = False  # the arrows are on it (Space picks it)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One line of the scoreboard, already in words."""

    name: str
    cells: tuple[str, ...]
    to_act: bool = False
    out: bool = False


@dataclass(frozen=True, slots=True)
class Handover:
    """A person's turn ended and another person's begins: the states either side, and when (seconds
    of `time.monotonic`); the board the turn ended on stays until the next player presses Enter."""

    before: Match
    after: Match
    at: float


@dataclass(frozen=True, slots=True)
class Table:
    """The game on the table: the title, the scoreboard, the tiles, the dice, whose turn, the hint."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[PlayerRow, ...]
    tiles: tuple[TileView, ...]
    faces: tuple[int | None, ...]  # None: a die still to be typed
    caption: str
    status: str
    hint: str
    summary: tuple[str, ...] = ()  # the game is over: who won, each score, a new best


@dataclass(frozen=True, slots=True)
class Scene:
    """The whole game screen: the keys of the moment, the last word on a key, the table (None before
    the first game) and the game's log (``log_id`` changes with each new game, whose log starts anew)."""

    keys: tuple[tuple[str, str], ...]
    message: str
    table: Table | None
    log: tuple[str, ...]
    log_id: int
    tiles: int = 9
    players: int = 1
