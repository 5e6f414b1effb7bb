"""The keyboard of the terminal game, as data.

Tiles 1 to 9 are their digits; the long boards' 10, 11 and 12 sit on the keys
just right of 9 on a keyboard (``0``, ``-``, ``=``), and each tile shows its key
under it. The same digits pick one die or two and type the faces of a real box;
what a key does depends on the phase, and the app decides it.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from shutthebox.term.model import KEY_OF_TILE, TILE_KEYS, TILE_OF_KEY

__all__ = ["BINDINGS", "KEY_OF_TILE", "TILE_OF_KEY"]

BINDINGS: list[BindingType] = [
    *(Binding(key, f"number({tile})", show=False) for key, _, tile in TILE_KEYS),
    Binding("enter", "confirm", show=False),
    Binding("space", "space", show=False),
    Binding("left", "arrow(-1)", show=False),
    Binding("right", "arrow(1)", show=False),
    Binding("backspace", "clear", show=False),
    Binding("escape", "clear", show=False),
    Binding("h", "hint", show=False),
    Binding("v", "review", show=False),
    Binding("n", "new_game", show=False),
    Binding("s", "setup", show=False),
    Binding("q", "quit", show=False),
    Binding("question_mark", "help", show=False),
    Binding("f1", "help", show=False),
]
"""Every key of the game screen; the key bar shows the ones that do something now."""
