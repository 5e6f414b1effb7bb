"""The pieces of the game screen. They draw what the app hands them and know no rule.

Attributes down, messages up: the game screen sets each widget's reactive attributes from the
`Scene` it is handed; a tile that is clicked posts `TileRow.Pressed` and the app decides what that
means.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import RichLog, Static

from shutthebox.term.model import KEY_OF_TILE, PlayerRow, TileView

__all__ = ["DiceView", "GameLog", "KeyBar", "KeyList", "PlayerRow", "Scoreboard", "TileRow", "TileView"]


class Tile(Widget):
    """One tile of the box, drawn by hand with its key under it; a click asks to pick it. Under
    ``NO_COLOR`` a tile that can make the roll is framed double (underlined when tiny), besides bold:
    many terminals draw bold no differently."""

    view: reactive[TileView] = reactive(TileView(1, True))

    def __init__(self, view: TileView) -> None:
        super().__init__(id=f"tile-{view.number}", classes="tile")
        self.set_reactive(Tile.view, view)
        self.watch_view(view)

    def watch_view(self, view: TileView) -> None:
        self.set_class(not view.is_open, "-shut")
        self.set_class(view.selected, "-selected")
        self.set_class(view.active, "-active")
        self.set_class(view.usable, "-usable")
        self.set_class(view.cursor, "-cursor")

    def render(self) -> Text:
        """The tile at the size the layout gave it: boxed when there is room, bare when narrow."""
        width, height = self.size.width, self.size.height
        face = str(self.view.number) if self.view.is_open else "··"
        key = KEY_OF_TILE[self.view.number]
        if width < 4:  # tiny: the number over its key (underlined, without colour, if it makes the roll)
            marked = "underline" if self.view.usable and self.app.no_color else ""
            under = "▔" * width if self.view.cursor else f"{key:^{width}}"  # the cursor under the face
            return Text.assemble((f"{face:^{width}}", marked), f"\n{under}")
        inner = width - 2
        if self.view.selected:
            top, side, bottom = "┏┓━", "┃", "┗┛━"
        elif self.view.cursor:  # the arrows are on it: a frame of its own, colour or not
            top, side, bottom = "┏┓╍", "╏", "┗┛╍"
        elif self.view.usable and self.app.no_color:  # without colour, more than bold tells them
            top, side, bottom = "╔╗═", "║", "╚╝═"
        else:
            top, side, bottom = "╭╮─", "│", "╰╯─"
        pad = max(0, height - 4) // 2  # a tall tile keeps its number in the middle
        blank = [f"{side}{' ' * inner}{side}"] * pad
        under = f"{'▲':^{width}}" if self.view.cursor else f"{key:^{width}}"
        lines = [
            f"{top[0]}{top[2] * inner}{top[1]}", *blank, f"{side}{face:^{inner}}{side}", *blank,
            f"{bottom[0]}{bottom[2] * inner}{bottom[1]}", under,
        ]
        return Text("\n".join(lines))

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
_PIP_SPOTS = {  # where the pips of each face sit on a 3x3 grid, read row by row
    1: (4,), 2: (0, 8), 3: (0, 4, 8), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8), 6: (0, 2, 3, 5, 6, 8),
}


def pip_face(face: int | None) -> tuple[str, str, str, str, str]:
    """A die drawn in five lines with its pips where a real die has them (``?`` still to type)."""
    spots = _PIP_SPOTS.get(face or 0, ())
    rows = [" ".join("●" if row * 3 + column in spots else " " for column in range(3)) for row in range(3)]
    if face is None:
        rows[1] = "  ?  "
    return ("╭───────╮", *(f"│ {row} │" for row in rows), "╰───────╯")  # type: ignore[return-value]


class DiceView(Static):
    """The dice on the table: faces shown, ``?`` for a die still to be typed."""

    faces: reactive[tuple[int | None, ...]] = reactive(())
    caption: reactive[str] = reactive("")

    def render(self) -> Text:
        if self.has_class("-inline"):  # a short terminal: the dice on one line
            faces = " ".join(_PIPS[face - 1] if face else "?" for face in self.faces)
            return Text(f"{faces} {self.caption}".strip())
        if not self.faces:
            return Text(f"\n{self.caption}\n")
        if self.has_class("-big"):  # a tall terminal: the dice drawn with their pips
            drawn = [pip_face(face) for face in self.faces]
            lines = [" ".join(parts) for parts in zip(*drawn, strict=True)]
            lines[2] += f"  {self.caption}"
            return Text("\n".join(lines))
        top = " ".join("╭───╮" for _ in self.faces)
        mid = " ".join(f"│ {face if face else '?'} │" for face in self.faces)
        bottom = " ".join("╰───╯" for _ in self.faces)
        pips = "  ".join(_PIPS[face - 1] if face else " " for face in self.faces)
        return Text(f"{top}\n{mid}  {self.caption}\n{bottom}  {pips}")


class Scoreboard(Static):
    """The players and their scores, totals, rounds won and stakes."""

    headers: reactive[tuple[str, ...]] = reactive((), layout=True)
    rows: reactive[tuple[PlayerRow, ...]] = reactive((), layout=True)

    def render(self) -> Table | Text:
        if self.has_class("-inline"):  # a short terminal: the players wrap along a few lines
            return self._inline(self.size.width or 80)
        table = Table(box=None, padding=(0, 1), expand=False, show_edge=False)
        table.add_column("", width=1)
        for header in self.headers:
            table.add_column(header, no_wrap=True, overflow="ellipsis")
        for row in self.rows:
            style = "bold" if row.to_act else ("dim strike" if row.out else "")
            cells = (Text(row.name), *map(Text, row.cells))  # a name is text, never markup
            table.add_row("▶" if row.to_act else "", *cells, style=style)
        return table


    def _inline(self, width: int) -> Text:
        """The players along lines of ``width``, each with their score on the same line: a line
        breaks between two players, never inside one (a name longer than the line is cut last)."""
        out = Text()
        used = 0
        for row in self.rows:
            style = "bold reverse" if row.to_act else ("dim strike" if row.out else "")
            score = " ".join(cell for cell in row.cells if cell)
            entry = Text(f"{'▶' if row.to_act else ''}{row.name}{' ' + score if score else ''}", style=style)
            entry.truncate(width, overflow="ellipsis")
            if used and used + 2 + entry.cell_len > width:
                out.append("\n")
                used = 0
            elif used:
                out.append("  ")
                used += 2
            out.append_text(entry)
            used += entry.cell_len
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.has_class("-inline"):
            return len(self._inline(width).plain.splitlines()) or 1
        return super().get_content_height(container, viewport, width)


class KeyBar(Static):
    """The keys that do something now, each with what it does."""

    keys: reactive[tuple[tuple[str, str], ...]] = reactive((), layout=True)  # one line or two

    def render(self) -> Text:
        """Roomy when the bar has the width, tight when not; wrapped onto a second line, never cut."""
        roomy = sum(len(key) + len(label) + 5 for key, label in self.keys) - 2
        gap, pad = ("  ", " ") if roomy <= self.size.width else (" ", "")
        out = Text()
        for i, (key, label) in enumerate(self.keys):
            if i:
                out.append(gap)
            out.append(f"{pad}{key}{pad}", style="reverse bold")
            out.append(f" {label}")
        return out


class KeyList(Static):
    """Keys one a line, each with what it does (the help)."""

    keys: reactive[tuple[tuple[str, str], ...]] = reactive(())

    def render(self) -> Text:
        out = Text()
        width = max((len(key) for key, _label in self.keys), default=1)
        for i, (key, label) in enumerate(self.keys):
            if i:
                out.append("\n")
            out.append(f" {key:^{width}} ", style="reverse bold")
            out.append(f" {label}")
        return out


class GameLog(RichLog):
    """What happened so far, newest at the bottom, each line wrapped to the log's width (never cut);
    never takes the keyboard.

    A `RichLog` renders a line once, when written, at no less than its ``min_width``: so this one has
    none, keeps the words it was given, and writes them anew at a new width; after any resize it
    shows its end, the newest line."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=1)
        self.said: list[str] = []
        self._width = 0  # the width the lines were written at

    def say(self, line: str) -> None:
        """Write ``line`` at the bottom (and keep it, to write it anew at another width)."""
        self.said.append(line)
        self.write(line)

    def forget(self) -> None:
        """Clear the log, for a new game."""
        self.said.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        """Written anew at a new width (the `RichLog` writes the lines said before its size was
        known), and scrolled to the end."""
        width = self.scrollable_content_region.width
        if self._size_known and width != self._width and self.said:
            self.clear()
            for line in self.said:
                self.write(line, scroll_end=False)
        self._width = width
        self.scroll_end(animate=False, immediate=False, x_axis=False)
