"""The pieces of the game screen. They draw what the app hands them and know no rule.

Attributes down, messages up: the app sets each widget's reactive attributes
from the one `Match` it holds; a tile that is clicked posts `TileRow.Pressed`
and the app decides what that means.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import RichLog, Static

from shutthebox.term.keys import KEY_OF_TILE

__all__ = ["DiceView", "GameLog", "KeyBar", "PlayerRow", "Scoreboard", "TileRow", "TileView"]


@dataclass(frozen=True, slots=True)
class TileView:
    """How one tile looks: its number, whether it is open, picked, or in play now."""

    number: int
    is_open: bool
    selected: bool = False
    active: bool = False


class Tile(Widget):
    """One tile of the box, drawn by hand with its key under it; a click asks to pick it."""

    view: reactive[TileView] = reactive(TileView(1, True))

    def __init__(self, view: TileView) -> None:
        super().__init__(id=f"tile-{view.number}", classes="tile")
        self.set_reactive(Tile.view, view)
        self.watch_view(view)

    def watch_view(self, view: TileView) -> None:
        self.set_class(not view.is_open, "-shut")
        self.set_class(view.selected, "-selected")
        self.set_class(view.active, "-active")

    def render(self) -> Text:
        face = str(self.view.number) if self.view.is_open else "··"
        top, side, bottom = ("┏━━━━┓", "┃", "┗━━━━┛") if self.view.selected else ("╭────╮", "│", "╰────╯")
        return Text(f"{top}\n{side}{face:^4}{side}\n{bottom}\n{KEY_OF_TILE[self.view.number]:^6}")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(TileRow.Pressed(self.view.number))


class TileRow(Widget):
    """The row of tiles of the box; tiles are updated in place, made anew only for a new board size."""

    tiles: reactive[tuple[TileView, ...]] = reactive(())

    class Pressed(Message):
        """A tile was clicked."""

        def __init__(self, tile: int) -> None:
            super().__init__()
            self.tile = tile

    def watch_tiles(self, tiles: tuple[TileView, ...]) -> None:
        shown = list(self.query_children(Tile))
        if [t.view.number for t in shown] == [v.number for v in tiles]:
            for tile, view in zip(shown, tiles, strict=True):
                tile.view = view
            return
        self.remove_children()
        self.mount_all(Tile(view) for view in tiles)


_PIPS = "⚀⚁⚂⚃⚄⚅"


class DiceView(Static):
    """The dice on the table: faces shown, ``?`` for a die still to be typed."""

    faces: reactive[tuple[int | None, ...]] = reactive(())
    caption: reactive[str] = reactive("")

    def render(self) -> Text:
        if not self.faces:
            return Text(f"\n{self.caption}\n")
        top = " ".join("╭───╮" for _ in self.faces)
        mid = " ".join(f"│ {face if face else '?'} │" for face in self.faces)
        bottom = " ".join("╰───╯" for _ in self.faces)
        pips = "  ".join(_PIPS[face - 1] if face else " " for face in self.faces)
        return Text(f"{top}\n{mid}  {self.caption}\n{bottom}  {pips}")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One line of the scoreboard, already in words."""

    name: str
    cells: tuple[str, ...]
    to_act: bool = False
    out: bool = False


class Scoreboard(Static):
    """The players and their scores, totals, rounds won and stakes."""

    headers: reactive[tuple[str, ...]] = reactive((), layout=True)
    rows: reactive[tuple[PlayerRow, ...]] = reactive((), layout=True)

    def render(self) -> Table:
        table = Table(box=None, padding=(0, 1), expand=False, show_edge=False)
        table.add_column("", width=1)
        for header in self.headers:
            table.add_column(header, no_wrap=True, overflow="ellipsis")
        for row in self.rows:
            style = "bold" if row.to_act else ("dim strike" if row.out else "")
            cells = (Text(row.name), *map(Text, row.cells))  # a name is text, never markup
            table.add_row("▶" if row.to_act else "", *cells, style=style)
        return table


class KeyBar(Static):
    """The keys that do something now, each with what it does."""

    keys: reactive[tuple[tuple[str, str], ...]] = reactive(())

    def render(self) -> Text:
        out = Text()
        for i, (key, label) in enumerate(self.keys):
            if i:
                out.append("  ")
            out.append(f" {key} ", style="reverse bold")
            out.append(f" {label}")
        return out


class GameLog(RichLog):
    """What happened so far, newest at the bottom; never takes the keyboard."""

    can_focus = False
