"""The Textual game: a shell around `term.controller`, which holds the game and says what to show.

Attributes down, messages up: every key and click goes to the controller, and the `Scene` it
answers is handed down to the `GameScreen` (a reactive, so a change redraws). What takes time runs in thread
workers that post messages back: a bot's thinking, within its patience (its fallback chooses when
it fails or takes longer, `Game.rescue`), the solver's advice, the review, and keeping the finished
game; a bot's step so chosen plays only while the game is still at the state it was chosen for.
``q`` in a game in play asks first; ``?`` or F1 opens the help.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import partial

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.filter import Monochrome, NoColor
from textual.message import Message
from textual.timer import Timer

from shutthebox.core.chance import DiceSource
from shutthebox.core.game import ROLL, Due, Game, Step, Thought, Wait
from shutthebox.core.match import Match
from shutthebox.core.record import GameRecord
from shutthebox.i18n import SOURCE, Lang, _, activate
from shutthebox.strategy.review import Review, review
from shutthebox.term import keys
from shutthebox.term.controller import HANDOVER_DELAY, REPEAT_GAP, Controller
from shutthebox.term.game_screen import GameScreen
from shutthebox.term.hints import advice_lines
from shutthebox.term.screens import ConfirmScreen, HelpScreen, ReviewScreen, SetupScreen
from shutthebox.term.session import PlaySetup
from shutthebox.term.style import GAME_CSS
from shutthebox.term.widgets import TileRow

__all__ = ["ShutTheBoxApp"]

SaveFn = Callable[[Game, PlaySetup], Sequence[str]]
"""Keeps a finished game (the storage layer); returns the lines to show."""


class BotChose(Message):
    """A bot (or, ``fallback``, its fallback) chose ``step`` for ``due``."""

    def __init__(self, due: Due, step: Step, *, fallback: bool = False) -> None:
        super().__init__()
        self.due, self.step, self.fallback = due, step, fallback


class BotFailed(Message):
    """A bot's thinking about ``due`` raised (``fallback``: its fallback's did too)."""

    def __init__(self, due: Due, *, fallback: bool = False) -> None:
        super().__init__()
        self.due, self.fallback = due, fallback


class Advised(Message):
    """The solver's advice for ``state``, in lines."""

    def __init__(self, state: Match, lines: Sequence[str]) -> None:
        super().__init__()
        self.state, self.lines = state, lines


class Kept(Message):
    """The finished game was kept; the keeper's lines."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = lines


class Reviewed(Message):
    """The review of the finished game is ready."""

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review


_BOUND_KEYS = frozenset(binding.key for binding in keys.BINDINGS if isinstance(binding, Binding))
_TEXTUAL_KEYS = frozenset({"tab", "shift+tab", "ctrl+c", "ctrl+q", "ctrl+p", "ctrl+z"})
"""Keys Textual itself answers (focus, quit, the palette, suspend): no word from the game on them."""
_ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


def _key_name(event: events.Key) -> str:
    """A key as the player knows it: its character, an arrow, F5, PageDown, Ctrl+X."""
    if event.is_printable and event.character:
        return event.character
    if event.key in _ARROWS:
        return _ARROWS[event.key]
    return "+".join(part[:1].upper() + part[1:] for part in event.key.split("+"))


class ShutTheBoxApp(App[GameRecord | None]):
    """Shut the Box in the terminal: every way to play, bots, hints, companion mode."""

    CSS = GAME_CSS
    TITLE = "Shut the Box"
    BINDINGS = keys.BINDINGS

    def __init__(
        self,
        setup: PlaySetup | None,
        *,
        lang: Lang = SOURCE,
        dice: DiceSource | None = None,
        bot_delay: float = 0.5,
        save: SaveFn | None = None,
        setup_first: bool = False,
        handover_delay: float = HANDOVER_DELAY,
        repeat_gap: float = REPEAT_GAP,
    ) -> None:
        """``bot_delay``: seconds before each bot's step, for people to follow it; ``save`` keeps each
        finished game; ``handover_delay`` and ``repeat_gap``: see `Controller`."""
        super().__init__()
        if self.no_color:  # no colour at all, not Textual's greys: bold, reverse and the frames stay
            self._filters = [NoColor() if isinstance(f, Monochrome) else f for f in self._filters]
        self.setup_first = setup_first or setup is None
        self.bot_delay = bot_delay
        self._first = setup
        self._save = save
        self.controller = Controller(
            self, lang=setup.lang if setup else lang, dice=dice, handover_delay=handover_delay,
            repeat_gap=repeat_gap,
        )
        activate(self.controller.lang)
        self._rescued: Match | None = None  # the state whose bot's fallback was last asked to choose
        self._patience: Timer | None = None  # the last bot's patience running out

    @property
    def game(self) -> Game | None:
        return self.controller.game

    @property
    def state(self) -> Match | None:
        return self.controller.state

    @property
    def setup(self) -> PlaySetup | None:
        return self.controller.setup

    @property
    def saved(self) -> list[GameRecord]:
        """The record of every game finished here (the command line keeps them with ``--save``)."""
        return self.controller.saved

    def on_mount(self) -> None:
        self._catch_sigterm()
        self.title = _("Shut the Box")
        if self.setup_first:
            self.action_setup()
        elif self._first is not None:
            self.controller.start(self._first)
        self._refresh()

    def _catch_sigterm(self) -> None:
        """End on SIGTERM (a terminal closed, a shutdown) as on q, and not at once as Python would: the
        terminal is given back (main screen, no mouse reporting, the cursor shown) and the game left
        is handed back to be kept; the exit status is then 143 (128 + SIGTERM), as a shell reports."""
        with suppress(NotImplementedError, RuntimeError, ValueError):  # no signals here (Windows, a thread)
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._terminated)

    def on_unmount(self) -> None:
        with suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)

    def _terminated(self) -> None:
        self.exit(self.controller.leave(), return_code=128 + signal.SIGTERM)

    def _refresh(self) -> None:
        """Hand the game screen what the controller shows now (redrawn only if it changed)."""
        screen = self.screen_stack[0] if self.screen_stack else None
        if isinstance(screen, GameScreen):
            screen.scene = self.controller.scene()

    def _covered(self) -> bool:
        """Whether another screen lies over the game: the game's keys wait."""
        return len(self.screen_stack) > 1

    # -- the runner: bots, advice and keeping, in workers -------------------------------------
    def bot(self, due: Due) -> None:
        """A bot's step is due: after `bot_delay` (if any), so that people see it coming."""
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, partial(self._bot_turn, due))
        else:
            self._bot_turn(due)

    def _bot_turn(self, due: Due) -> None:
        """The game rolls a bot's dice; a bot's choice is thought in a worker, its fallback's once its
        patience runs out."""
        game = self.game
        if game is None or game.state is not due.state:
            return
        if due.wait is Wait.CHANCE:
            self.controller.bot_step(due, ROLL)
            self._refresh()
            return
        self._think(due, game.thought(due))
        patience = game.patience(due)
        if patience is not None:
            self._patience = self.set_timer(patience, partial(self.rescue, due))

    @work(thread=True, group="bot", exit_on_error=False)
    def _think(self, due: Due, thought: Thought) -> None:
        """The bot thinks in a thread of its own, so a slow solver never freezes the screen."""
        try:
            choice = thought()
        except Exception:  # whatever went wrong, its fallback chooses
            self.post_message(BotFailed(due))
            return
        self.post_message(BotChose(due, choice))

    def rescue(self, due: Due) -> None:
        """The bot's fallback chooses for ``due`` (once a state): the bot failed, took longer than its
        patience, or chose what the game refused."""
        game = self.game
        if game is None or game.state is not due.state or self._rescued is due.state:
            return
        self._rescued = due.state
        self._fall_back(game, due)

    @work(thread=True, group="bot", exit_on_error=False)
    def _fall_back(self, game: Game, due: Due) -> None:
        try:
            choice = game.rescue(due)
        except Exception:  # even the fallback cannot choose: a person takes the seat
            self.post_message(BotFailed(due, fallback=True))
            return
        self.post_message(BotChose(due, choice, fallback=True))

    def on_bot_chose(self, message: BotChose) -> None:
        if self._patience is not None and self.state is message.due.state:
            self._patience.stop()  # answered in time
        self.controller.bot_step(message.due, message.step, fallback=message.fallback)
        self._refresh()

    def on_bot_failed(self, message: BotFailed) -> None:
        if message.fallback:
            self.controller.bot_stuck(message.due)
        else:
            self.rescue(message.due)
        self._refresh()

    def advise(self, state: Match) -> None:
        self._advise(state)

    @work(thread=True, group="hint", exclusive=True, exit_on_error=False)
    def _advise(self, state: Match) -> None:
        self.post_message(Advised(state, advice_lines(state)))

    def on_advised(self, message: Advised) -> None:
        self.controller.advised(message.state, message.lines)
        self._refresh()

    def keep(self, game: Game, setup: PlaySetup) -> None:
        """Keep the finished game in the history, in a thread: opening the store takes a moment."""
        if self._save is not None:
            self._keep(self._save, game, setup)

    @work(thread=True, group="save", exit_on_error=False)
    def _keep(self, save: SaveFn, game: Game, setup: PlaySetup) -> None:
        self.post_message(Kept(save(game, setup)))

    def on_kept(self, message: Kept) -> None:
        self.controller.kept(message.lines)
        self._refresh()

    # -- keys ---------------------------------------------------------------------
    def action_number(self, number: int) -> None:
        """A digit (or 0, -, =): dice count, die face or tile, by phase."""
        if not self._covered():
            self.controller.number(number)
            self._refresh()

    def on_tile_row_pressed(self, event: TileRow.Pressed) -> None:
        if not self._covered():
            self.controller.tile(event.tile)
            self._refresh()

    def action_confirm(self) -> None:
        """Enter or Space: roll, or shut (open) the picked tiles; at a turn's end, hand over."""
        if not self._covered():
            self.controller.confirm()
            self._refresh()

    def action_space(self) -> None:
        """Space: pick the tile under the arrows' cursor, or as Enter when there is none."""
        if not self._covered():
            self.controller.space()
            self._refresh()

    def action_arrow(self, step: int) -> None:
        """Left or right: the cursor to the next tile that can be picked, that way."""
        if not self._covered():
            self.controller.arrow(step)
            self._refresh()

    def action_clear(self) -> None:
        """Backspace or Escape: forget the picked tiles and the typed faces."""
        if not self._covered():
            self.controller.clear()
            self._refresh()

    def action_hint(self) -> None:
        """The ``h`` key: the solver's advice (in a ranked game, its price first)."""
        if not self._covered():
            self.controller.ask_hint()
            self._refresh()

    def action_review(self) -> None:
        """Show the review of the finished game: each decision against the best."""
        if self._covered():
            return
        record = self.controller.review()
        self._refresh()
        if record is not None:
            self._review(record)

    @work(thread=True, group="review", exclusive=True, exit_on_error=False)
    def _review(self, record: GameRecord) -> None:

        self.post_message(Reviewed(review(record)))

    def on_reviewed(self, message: Reviewed) -> None:

        self.controller.reviewed()
        self._refresh()
        if not self._covered():
            self.push_screen(ReviewScreen(message.review))

    def _ask(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` (y or n); ``then`` runs on a yes."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question), answered)

    def action_new_game(self) -> None:
        """Play again with the same setup (the next seed); a game in play asks first."""
        if self.setup is None or self._covered():
            return
        if self.controller.in_play:
            self._ask(_("Leave this game for a new one? It is not over."), partial(self._restart, True))
            return
        self._restart(False)

    def _restart(self, abandoned: bool) -> None:
        self.controller.restart(abandoned=abandoned)
        self._refresh()

    def action_setup(self) -> None:
        """Open the setup screen; a game in play asks first (and stays if the form is left with Esc)."""
        if self._covered():
            return
        if self.controller.in_play:
            self._ask(_("Leave this game for the setup? It is not over."), self._open_setup)
            return
        self._open_setup()

    def _open_setup(self) -> None:

        def chosen(setup: PlaySetup | None) -> None:
            if setup is not None:
                self.controller.begin(setup)
                self._refresh()
            elif self.state is None:
                self.exit(None)

        current = SetupScreen(self.controller.lang, self.setup, back=self.state is not None)
        self.push_screen(current, chosen)

    def on_key(self, event: events.Key) -> None:
        """A key the game screen has no use for (a letter, up, a function key) says so, with the keys
        that work, rather than nothing at all; Tab and the modifiers' own keys stay Textual's."""
        if self._covered() or event.key in _BOUND_KEYS or event.key in _TEXTUAL_KEYS:
            return
        self.controller.key_unused(_key_name(event))
        self._refresh()

    def action_help(self) -> None:
        """``?`` or F1: the keys of the moment, every key and the rules in brief."""
        if self._covered():
            return

        self.push_screen(HelpScreen(*self.controller.help()))

    async def action_quit(self) -> None:
        """Leave, handing back the record of the game played (finished or not); a game in play asks first."""
        self._quit()

    def action_help_quit(self) -> None:
        """Ctrl+C: the quit key, as q (asked first in a game in play, in the player's language),
        not Textual's English toast that says which key quits."""
        self._quit()

    def _quit(self) -> None:
        if isinstance(self.screen, ConfirmScreen | HelpScreen):  # they answer q themselves
            return
        if self.game is not None and self.game.events and self.controller.in_play:
            self._ask(_("Quit this game? It is not over."), self._leave)
            return
        self._leave()

    def _leave(self) -> None:
        self.exit(self.controller.leave())

    # -- drawing -------------------------------------------------------------------
    def get_default_screen(self) -> GameScreen:
        return GameScreen()
