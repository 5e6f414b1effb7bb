"""The game screen: its widgets laid out for the terminal's size, each drawn from the `Scene` handed down.

Attributes down: the app sets `GameScreen.scene` after every change, and the screen hands each widget
its part (a line is updated only when its words change: each update costs a new layout). The screen
knows no rule and no key; it only draws, and fits the terminal (see `view.fit`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from shutthebox.i18n import _
from shutthebox.term import view
from shutthebox.term.model import Scene
from shutthebox.term.widgets import DiceView, GameLog, KeyBar, Scoreboard, TileRow

__all__ = ["GameScreen"]

_WRAPPED = ("#status", "#message")
"""The lines under the tiles whose words may wrap onto more rows in a narrow terminal."""
_MOST_ROWS = 3


class GameScreen(Screen[None]):
    """The box, the dice, the players, the log and the keys of the moment."""

    scene: reactive[Scene | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self._ready = False  # its widgets are mounted
        self._fitted: tuple[int, int] | None = None
        self._logged = (0, 0)  # the log shown: its game's log id, and how many lines are written
        self._shown: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        # plain text, never markup: the lines hold players' names, and "[/]" is a name like another
        yield Static(id="title", markup=False)
        with Center(id="top-row"), Horizontal(id="top"):  # together in the middle of a wide window
            yield Scoreboard(id="scores")
            yield DiceView(id="dice")
        with Horizontal(id="board"):  # the box in the middle of the window, as wide as its tiles
            yield TileRow(id="tiles")
        yield Static(id="status", markup=False)
        yield Static(id="message", markup=False)
        with Center(id="summary-row"):  # the end of a game: who won, each score, a new best
            yield Static(id="summary", markup=False)
        yield Static(id="hint", markup=False, classes="-empty")
        yield GameLog(id="log")
        yield KeyBar(id="keys")
        yield Static(id="too-small", markup=False)

    def on_mount(self) -> None:
        self._ready = True
        self.fit()
        self.watch_scene(self.scene)  # a scene handed down before the widgets were there

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Lay the game screen out for the terminal's size (see `view.fit`)."""
        if not self._ready:
            return
        width, height = self.app.size
        scene = self.scene
        self._fitted = (scene.tiles, scene.players) if scene else (9, 1)
        fit = view.fit(width, height, *self._fitted)
        self.set_class(fit.too_small, "-too-small")
        self.set_class(fit.short, "-short")
        self.set_class(fit.tall, "-tall")
        row = self.query_one(TileRow)
        for size in ("giant", "huge", "big", "compact", "tiny"):
            row.set_class(fit.tiles == size, f"-{size}")
        self.query_one(Scoreboard).set_class(fit.short, "-inline")
        self.query_one(DiceView).set_class(fit.short, "-inline").set_class(fit.tall, "-big")
        notice = ""
        if fit.too_small:
            least = f"{view.MIN_SIZE[0]}x{view.MIN_SIZE[1]}"
            notice = _("The terminal is too small: {size} now, {least} at least.").format(
                size=f"{width}x{height}", least=least
            ) + "\n" + _("Enlarge the window, or press q to quit.")
        self._show("#too-small", notice)
        for selector in _WRAPPED:  # the same words may take more rows, or fewer, at the new width
            if selector in self._shown:
                self._fit_height(self.query_one(selector, Static), self._shown[selector])

    def watch_scene(self, scene: Scene | None) -> None:
        """Hand every widget its part of the scene."""
        if not self._ready or scene is None:
            return
        if self._fitted != (scene.tiles, scene.players):
            self.fit()
        self.query_one(KeyBar).keys = scene.keys
        self._show("#message", scene.message)
        self._write_log(scene)
        table = scene.table
        if table is None:
            return
        self._show("#title", table.title)
        board = self.query_one(Scoreboard)
        board.headers, board.rows = table.headers, table.rows
        self.query_one(TileRow).tiles = table.tiles
        dice = self.query_one(DiceView)
        dice.faces, dice.caption = table.faces, table.caption
        self._show("#status", table.status)
        self._show("#hint", table.hint)
        self.query_one("#hint").set_class(not table.hint, "-empty")  # no rows kept for no advice
        self.set_class(bool(table.summary), "-over")
        self._show("#summary", "\n".join(table.summary))
        if table.summary:
            self.query_one("#summary").border_title = _("Game over")

    def _write_log(self, scene: Scene) -> None:
        """Write the lines of the log not yet written (all of them, anew, for a new game)."""
        log = self.query_one(GameLog)
        log_id, written = self._logged
        if scene.log_id != log_id:
            log.forget()
            written = 0
        for line in scene.log[written:]:
            log.say(line)
        self._logged = (scene.log_id, len(scene.log))

    def _show(self, selector: str, content: str) -> None:
        """Update a line only when its words change: each update costs a new layout. The status
        and the message take the lines their words wrap to, so that none is cut."""
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            widget = self.query_one(selector, Static)
            widget.update(content, layout=False)
            if selector in _WRAPPED:
                self._fit_height(widget, content)

    def _fit_height(self, widget: Static, content: str) -> None:
        """Give a line the rows its words wrap to at its width now (one at least, three at most);
        its height is set only when it changes, the one time a new layout is due."""
        width = self.app.size.width - 2  # the line's padding
        rows = len(Text(content).wrap(self.app.console, max(width, 1))) if content else 1
        rows = min(max(rows, 1), _MOST_ROWS)
        if widget.styles.height is None or widget.styles.height.value != rows:
            widget.styles.height = rows
