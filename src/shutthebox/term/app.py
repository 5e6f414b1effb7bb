"""The Textual game: one immutable `Match` in a reactive, redrawn on every change.

The app is the only place that changes the game: a key or a click becomes an
action, the engine checks it (`Match.apply`), and ``self.state = new`` redraws
the screen. A refused key leaves the state as it was and says why. Bots act by
themselves on their turns; in companion mode every roll is typed in from a real
box and the best move is shown without asking. Anywhere else the game rolls its
own dice and typed faces are refused; a hint asked for makes the asking
player's turns count for no best, said in the log the first time. In a ranked
game a player's first ``h`` only says that price where the hint would be; the
hint comes with a second ``h`` at the same position, and later ones at once.
When one person's turn ends and another's begins, the final board and score
stay until a fresh Enter (a doubled or held one rolls nothing for the next
player); ``q`` in a game in play asks first; ``?`` or F1 opens the help.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.game import ROLL, DiceSource, Due, Game, Wait
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.record import GameRecord
from shutthebox.i18n import N_, SOURCE, Lang, _, activate, say
from shutthebox.i18n.words import rules_line
from shutthebox.term import keys, view
from shutthebox.term.narrate import (
    assisted_line,
    hint_warning,
    narrate,
    practice_line,
    turn_begins,
    turn_header,
)
from shutthebox.term.session import PlaySetup
from shutthebox.term.style import GAME_CSS
from shutthebox.term.widgets import DiceView, GameLog, KeyBar, Scoreboard, TileRow, TileView

if TYPE_CHECKING:
    from shutthebox.strategy.review import Review

__all__ = ["ShutTheBoxApp"]

SaveFn = Callable[[Game, PlaySetup], Sequence[str]]
"""Keeps a finished game (the storage layer); returns the lines to show."""


class _GameScreen(Screen[None]):
    """The game screen; it tells the app when the terminal changes size (the app gets no such event)."""

    def __init__(self, resized: Callable[[], None]) -> None:
        super().__init__()
        self._resized = resized

    def on_resize(self) -> None:
        self._resized()


_BOUND_KEYS = frozenset(binding.key for binding in keys.BINDINGS if isinstance(binding, Binding))


class ShutTheBoxApp(App[GameRecord | None]):
    """Shut the Box in the terminal: every way to play, bots, hints, companion mode."""

    CSS = GAME_CSS
    TITLE = "Shut the Box"
    BINDINGS = keys.BINDINGS

    state: reactive[Match | None] = reactive(None, init=False)
    selected: reactive[int] = reactive(0, init=False)
    typed: reactive[tuple[int, ...]] = reactive((), init=False)
    message: reactive[str] = reactive("", init=False)

    def __init__(
        self,
        setup: PlaySetup | None,
        *,
        lang: Lang = SOURCE,
        dice: DiceSource | None = None,
        bot_delay: float = 0.5,
        save: SaveFn | None = None,
        setup_first: bool = False,
        threads: bool = True,
        handover_delay: float = 0.3,
    ) -> None:
        super().__init__()
        self.threads = threads
        self.setup_first = setup_first or setup is None
        self.lang: Lang = setup.lang if setup else lang
        activate(self.lang)
        self.setup = setup
        self.bot_delay = bot_delay
        self._dice_override = dice
        self._save = save
        self.game: Game | None = None
        self.games_played = 0
        self.hint: list[str] = []
        self._warned: Match | None = None  # the position where the first hint's price was said
        self._bot_timer: Timer | None = None
        self._running_bots = False
        self.saved: list[GameRecord] = []
        self._drawn = False
        self._shown: dict[str, str] = {}
        self.handover_delay = handover_delay
        self.handover: tuple[Match, Match] | None = None  # a person's turn just ended: (before, after)
        self._handover_at = 0.0
        self.last_roll: Roll | None = None

    # -- layout ----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # plain text, never markup: the lines hold players' names, and "[/]" is a name like another
        yield Static(id="title", markup=False)
        with Horizontal(id="top"):
            yield Scoreboard(id="scores")
            yield DiceView(id="dice")
        yield TileRow(id="tiles")
        yield Static(id="status", markup=False)
        yield Static(id="message", markup=False)
        yield Static(id="hint", markup=False)
        yield GameLog(id="log", wrap=True, markup=False)
        yield KeyBar(id="keys")
        yield Static(id="too-small", markup=False)

    def on_mount(self) -> None:
        self._drawn = True
        self.title = _("Shut the Box")
        self._fit()
        if self.setup_first:
            self.action_setup()
        elif self.setup is not None:
            self.start(self.setup)
        self._redraw()

    # -- starting ----------------------------------------------------------------
    def start(self, setup: PlaySetup) -> None:
        """Start a fresh game of ``setup`` (a new seed for each game after the first)."""
        self.setup = setup
        self.lang = setup.lang
        activate(self.lang)
        seed = setup.seed + self.games_played if setup.seed is not None else None
        self.game = setup.new_game(seed, self._dice_override)
        self.hint = []
        self.typed = ()
        self.selected = 0
        self.message = ""
        self.handover = None
        self.last_roll = None
        log = self.query_one(GameLog)
        log.clear()
        if setup.companion:
            log.write(_("Companion mode: roll the real dice, type the faces, see the best move."))
        elif self.game.seed is not None:
            log.write(practice_line(self.game.seed))
        state = self.game.state
        self.state = state
        self._fit()
        if turn_begins(None, state):
            log.write(turn_header(state))
        self._after_change()

    # -- the one place the game changes ------------------------------------------
    def act(self, action: Action | None) -> bool:
        """Apply ``action`` for whoever is to act (None rolls the game's dice); False if refused (and why)."""
        game, before = self.game, self.state
        if game is None or before is None:
            return False
        try:
            game.play(game.due(), ROLL if action is None else action)
        except ShutTheBoxError as error:
            self.message = _("Not allowed: {reason}").format(reason=say(error))
            return False
        action = game.events[-1].action
        after = game.state
        if isinstance(action, Roll):
            self.last_roll = action
        if self._hands_over(before, after):
            self.handover, self._handover_at = (before, after), time.monotonic()
        log = self.query_one(GameLog)
        for line in narrate(before, action, after):
            log.write(line)
        if turn_begins(before, after):
            log.write(turn_header(after))
        self.message = ""
        self.selected = 0
        self.typed = ()
        self.hint = []
        self.state = after
        if after.is_over:
            self._finished()
        self._after_change()
        return True

    def _hands_over(self, before: Match, after: Match) -> bool:
        """Whether a person's turn ended and another person is to play: they take over with a fresh key."""
        game = self.game
        if game is None or self._companion or not turn_begins(before, after):
            return False
        if before.phase is Phase.ROLL_OFF or before.actor is None or after.actor is None:
            return False
        people = before.actor not in game.bots_seated and after.actor not in game.bots_seated
        return people and before.actor != after.actor

    def record(self) -> GameRecord:
        """The record of the game so far."""
        assert self.game is not None
        return self.game.record()

    def _finished(self) -> None:
        """Keep the finished game in the history (in a thread: opening the store takes a moment)."""
        self.games_played += 1
        game, save, setup = self.game, self._save, self.setup
        assert game is not None
        self.saved.append(game.record())
        if save is None or setup is None:
            return
        if not self.threads:
            self._saved_line(save(game, setup))
            return

        def keep() -> None:
            self.call_from_thread(self._saved_line, save(game, setup))

        self.run_worker(keep, thread=True, group="save", exit_on_error=False)

    def _saved_line(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.query_one(GameLog).write(line)

    # -- bots ----------------------------------------------------------------------
    def _bot_to_act(self) -> bool:
        """Whether a bot acts now: it chooses, and rolls unless the dice are typed in."""
        return self.game is not None and self.game.due().wait in (Wait.CHANCE, Wait.BOT)

    def _after_change(self) -> None:
        """Let the bots play their part, then show companion advice if it is due."""
        if self.bot_delay > 0:
            if self._bot_to_act() and self._bot_timer is None:
                self._bot_timer = self.set_timer(self.bot_delay, self._timed_bot_step)
        elif not self._running_bots:
            self._running_bots = True
            try:
                while self._bot_to_act():
                    self._bot_step()
            finally:
                self._running_bots = False
        if self._companion and self._advice_due():
            assert self.state is not None
            self._show_hint(self.state)
        self._redraw()

    def _timed_bot_step(self) -> None:
        """A bot's move in its own thread, so a slow solver never freezes the screen."""
        game = self.game
        if game is None or not self._bot_to_act():
            self._bot_timer = None
            return
        due = game.due()
        if due.wait is Wait.CHANCE:
            self._bot_timer = None
            self.act(None)
            return

        def think() -> None:  # a bot that fails is replaced by its fallback (`Game.think`)
            self.call_from_thread(self._bot_chose, due, game.think(due))

        self.run_worker(think, thread=True, group="bot", exit_on_error=False)

    def _bot_chose(self, due: Due, choice: Action) -> None:
        self._bot_timer = None
        if self.game is not None and self.game.state is due.state:
            self._play_bot_choice(due, choice)
        self._after_change()

    def _play_bot_choice(self, due: Due, choice: Action) -> None:
        if not self.act(choice):  # a choice refused even from the fallback: a person takes the seat
            assert self.game is not None and due.seat is not None
            self.game.unseat_bot(due.seat)

    def _bot_step(self) -> None:
        assert self.game is not None
        due = self.game.due()
        if due.wait is Wait.CHANCE:
            self.act(None)
            return
        self._play_bot_choice(due, self.game.think(due))

    # -- keys ---------------------------------------------------------------------
    @property
    def _companion(self) -> bool:
        return self.setup is not None and self.setup.companion

    def _human_turn(self) -> Match | None:
        """The state if a person is to act on the game screen now, else None (and why)."""
        state = self.state
        if state is None or len(self.screen_stack) > 1:
            return None
        if state.is_over:
            self.message = _("The game is over: n for a new game, v for the review, q to quit.")
            return None
        if self._bot_to_act():
            assert state.actor is not None
            self.message = _("Wait: it is {player}'s turn.").format(player=state.players[state.actor])
            return None
        if self.handover is not None:  # the last turn's board stays until the next player presses Enter
            self.message = ""
            return None
        return state

    def action_number(self, number: int) -> None:
        """A digit (or 0, -, =): dice count, die face or tile, by phase."""
        state = self._human_turn()
        if state is None:
            return
        if state.phase is Phase.CHOOSE:
            if number not in (1, 2):
                self.message = _("Press 1 for one die or 2 for two dice.")
            elif self.act(DiceChoice(number)) and not self._companion and not self._bot_to_act():
                self.act(None)
        elif state.is_chance:
            if self._companion:
                self._type_face(state, number)
            else:
                self.message = _("Typed dice are for companion mode (--companion) only: press Enter to roll.")
        elif state.phase is Phase.MOVE:
            self._toggle(state, number)

    def _type_face(self, state: Match, face: int) -> None:
        count = state.dice_due
        if not 1 <= face <= 6:
            self.message = _("A die shows 1 to 6, not {face}.").format(face=keys.KEY_OF_TILE[face])
            return
        typed = (*self.typed, face)
        if len(typed) < count:
            self.typed = typed
            self.message = ""
            return
        self.act(Roll(typed))

    def _toggle(self, state: Match, tile: int) -> None:
        if tile > state.rules.tiles:
            self.message = _("There is no tile {tile} on this board.").format(tile=tile)
            return
        bit = 1 << (tile - 1)
        if not state.target & bit:
            taken = (
                N_("Tile {tile} is open: pick shut tiles to open.")
                if state.opening
                else N_("Tile {tile} is already shut.")
            )
            self.message = _(taken).format(tile=tile)
            return
        self.selected ^= bit
        self.message = ""

    def on_tile_row_pressed(self, event: TileRow.Pressed) -> None:
        state = self._human_turn()
        if state is None:
            return
        if state.phase is not Phase.MOVE:
            self.message = _("Roll first, then pick tiles.")
            return
        self._toggle(state, event.tile)

    def action_confirm(self) -> None:
        """Enter or Space: roll, or shut (open) the picked tiles if they match the roll.

        After a person's turn the first press only hands over (a doubled Enter rolls nothing), and a
        press sooner than ``handover_delay`` after the turn ended is taken for a held key and ignored."""
        if self.handover is not None and len(self.screen_stack) == 1:
            if time.monotonic() - self._handover_at >= self.handover_delay:
                self.handover = None
                self._redraw()
            return
        state = self._human_turn()
        if state is None:
            return
        if state.is_chance:
            if self._companion:
                self.message = _("Type the faces of the dice you rolled (1 to 6).")
            else:
                self.act(None)
        elif state.phase is Phase.CHOOSE:
            self.message = _("Press 1 for one die or 2 for two dice.")
        elif state.phase is Phase.MOVE:
            self._confirm_move(state)

    def _confirm_move(self, state: Match) -> None:
        assert state.roll is not None
        if not self.selected:
            self.message = _("Pick tiles that make {total}.").format(total=state.roll.total)
            return
        move = Move(self.selected)
        if move not in state.legal_moves:
            if move.total == state.roll.total and state.rules.max_tiles is not None:
                self.message = _("At most {n} tiles a roll.").format(n=state.rules.max_tiles)
            else:
                self.message = _("{tiles} make {sum}, not {total}.").format(
                    tiles=move, sum=move.total, total=state.roll.total
                )
            return
        self.act(move)

    def action_clear(self) -> None:
        """Backspace or Escape: forget the picked tiles and the typed faces."""
        if len(self.screen_stack) > 1:
            return
        self.selected = 0
        self.typed = ()
        self.message = ""

    def action_hint(self) -> None:
        """The ``h`` key: the solver's advice for the person to act; in a ranked game the first of a
        turn makes the turn count as it stands (`core.ranking`, said in the log). A player's first
        ``h`` of such a turn says that price instead, and a second ``h`` at the same position asks."""
        state = self.state
        if state is None or state.is_over or len(self.screen_stack) > 1:
            return
        if not state.is_decision:
            self.message = _("No hint available here.")
            return
        if self._human_turn() is None:  # a bot's decision: nobody at the keyboard is to act
            return
        game = self.game
        if not self._companion and game is not None and state.actor is not None:
            cost = game.help_would_cost(state.actor)
            if cost is not None:
                name = state.players[state.actor]
                if self._warned is not state:  # the price first, the hint on a second h
                    self._warned = state
                    self.hint = [hint_warning(name, cost)]
                    self._redraw()
                    return
                self.query_one(GameLog).write(assisted_line(name, cost))
            game.assist(state.actor)
        self._warned = None
        self._show_hint(state)

    def _show_hint(self, state: Match) -> None:
        """Show the solver's advice for ``state`` (CHOOSE and MOVE phases), in a thread if allowed."""
        if not self.threads:
            self.hint = self._hint_for(state)
            self._redraw()
            return
        self.hint = [_("Thinking…")]
        self._redraw()
        self.run_worker(
            partial(self._hint_in_thread, state), thread=True, group="hint", exclusive=True,
            exit_on_error=False,
        )

    def _hint_for(self, state: Match) -> list[str]:
        """The advice in lines; the solver may take seconds on the long boards of the long game."""
        from shutthebox.term.hints import hint_lines

        try:
            return hint_lines(state) or [_("No hint available here.")]
        except ShutTheBoxError:
            return [_("No hint available here.")]

    def _hint_in_thread(self, state: Match) -> None:
        lines = self._hint_for(state)
        self.call_from_thread(self._hint_ready, state, lines)

    def _hint_ready(self, state: Match, lines: list[str]) -> None:
        if self.state is state:  # advice for a position already left is dropped
            self.hint = lines
            self._redraw()

    def _advice_due(self) -> bool:
        state = self.state
        return (
            state is not None
            and not state.is_over
            and self.game is not None
            and state.actor not in self.game.bots
            and state.is_decision
            and not self.hint
        )

    def action_review(self) -> None:
        """Show the review of the finished game: each decision against the best."""
        state = self.state
        if state is None or len(self.screen_stack) > 1:
            return
        if not state.is_over:
            self.message = _("The review comes once the game is over.")
            return
        record = self.record()
        if not self.threads:
            self._show_review(self._review_of(record))
            return
        self.message = _("Reviewing the game…")
        self.run_worker(
            partial(self._review_in_thread, record), thread=True, group="review", exclusive=True,
            exit_on_error=False,
        )

    @staticmethod
    def _review_of(record: GameRecord) -> Review:
        from shutthebox.strategy.review import review

        return review(record)

    def _review_in_thread(self, record: GameRecord) -> None:
        result = self._review_of(record)
        self.call_from_thread(self._show_review, result)

    def _show_review(self, result: Review) -> None:
        from shutthebox.term.screens import ReviewScreen

        self.message = ""
        if len(self.screen_stack) == 1:
            self.push_screen(ReviewScreen(result))

    def _in_play(self) -> bool:
        """Whether a game is under way: leaving it loses it, so a key that would leave asks first."""
        return self.state is not None and not self.state.is_over

    def _ask(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` (y or n); ``then`` runs on a yes."""
        from shutthebox.term.screens import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(question), answered)

    def action_new_game(self) -> None:
        """Play again with the same setup (the next seed); a game in play asks first."""
        if self.setup is None or len(self.screen_stack) > 1:
            return
        if self._in_play():
            self._ask(_("Leave this game for a new one? It is not over."), self._abandon_for_new)
            return
        self.start(self.setup)

    def _abandon_for_new(self) -> None:
        assert self.setup is not None
        self.games_played += 1  # the next seed, as after a finished game
        self.start(self.setup)

    def action_setup(self) -> None:
        """Open the setup screen; a game in play asks first (and stays if the form is left with Esc)."""
        if len(self.screen_stack) > 1:
            return
        if self._in_play():
            self._ask(_("Leave this game for the setup? It is not over."), self._open_setup)
            return
        self._open_setup()

    def _open_setup(self) -> None:
        from shutthebox.term.screens import SetupScreen

        def chosen(setup: PlaySetup | None) -> None:
            if setup is not None:
                self.games_played = 0
                self.start(setup)
            elif self.state is None:
                self.exit(None)

        self.push_screen(SetupScreen(self.lang, self.setup, back=self.state is not None), chosen)

    def on_key(self, event: events.Key) -> None:
        """A printable key the game screen has no use for says so, rather than nothing at all."""
        if len(self.screen_stack) > 1 or event.key in _BOUND_KEYS or not event.is_printable:
            return
        state, key = self.state, event.character or event.key
        if self._companion and state is not None and state.is_chance and not state.is_over:
            unused = N_("Type the faces of the dice you rolled as digits 1 to 6, not {key}.")
        else:
            unused = N_("The key {key} does nothing here: ? shows the keys.")
        self.message = _(unused).format(key=key)

    def action_help(self) -> None:
        """``?`` or F1: the keys of the moment, every key and the rules in brief."""
        if len(self.screen_stack) > 1:
            return
        from shutthebox.term.screens import HelpScreen

        state = self.state
        now = view.key_bar(
            state, bot=self._bot_to_act(), companion=self._companion,
            reviewable=bool(self.game and self.game.events), handover=self.handover is not None,
        )
        rules = view.rules_in_brief(
            state.rules.mode if state else None, rules_line(state.rules) if state else ""
        )
        self.push_screen(HelpScreen(now, view.every_key(), rules))

    async def action_quit(self) -> None:
        """Leave, handing back the record of the game played (finished or not); a game in play asks first."""
        from shutthebox.term.screens import ConfirmScreen, HelpScreen

        if isinstance(self.screen, ConfirmScreen | HelpScreen):  # they answer q themselves
            return
        if self.game is not None and self.game.events and self._in_play():
            self._ask(_("Quit this game? It is not over."), self._leave)
            return
        self._leave()

    def _leave(self) -> None:
        if self.game is None or not self.game.events:
            self.exit(self.saved[-1] if self.saved else None)
        else:
            self.exit(self.record())

    # -- layout by size ------------------------------------------------------------
    def get_default_screen(self) -> Screen[None]:
        return _GameScreen(self._fit)

    def _fit(self) -> None:
        """Lay the game screen out for the terminal's size (see `view.fit`)."""
        if not self._drawn:
            return
        width, height = self.size
        state = self.state
        tiles = state.rules.tiles if state else 9
        players = len(state.players) if state else 1
        fit = view.fit(width, height, tiles, players)
        screen = self.screen_stack[0]
        screen.set_class(fit.too_small, "-too-small")
        screen.set_class(fit.short, "-short")
        screen.set_class(fit.tall, "-tall")
        row = self.query_one(TileRow)
        for size in ("big", "compact", "tiny"):
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

    # -- drawing -----------------------------------------------------------------
    def watch_state(self) -> None:
        self._redraw()

    def watch_selected(self) -> None:
        self._redraw()

    def watch_typed(self) -> None:
        self._redraw()

    def watch_message(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        """Hand every widget what it shows, read off the state."""
        if not self._drawn:
            return
        state = self.state
        bot = self._bot_to_act()
        self.query_one(KeyBar).keys = view.key_bar(
            state, bot=bot, companion=self._companion, reviewable=bool(self.game and self.game.events),
            handover=self.handover is not None,
        )
        self._show("#message", self.message)
        if state is None:
            return
        pot = " · " + _("pot {pot}").format(pot=state.pot) if state.pot else ""
        self._show("#title", _("Shut the Box") + " · " + rules_line(state.rules) + pot)
        board = self.query_one(Scoreboard)
        board.headers, board.rows = view.scoreboard(state, set(self.game.bots) if self.game else set())
        self.query_one(TileRow).tiles = view.tile_views(state, self.selected)
        dice = self.query_one(DiceView)
        if state.phase is Phase.MOVE and state.roll is not None:
            dice.faces, dice.caption = state.roll.dice, f"= {state.roll.total}"
        elif self._companion and state.is_chance:
            dice.faces = (*self.typed, *([None] * (state.dice_due - len(self.typed))))
            dice.caption = ""
        elif self.last_roll is not None:  # the last roll stays on the table until the next
            dice.faces, dice.caption = self.last_roll.dice, f"({self.last_roll.total})"
        else:
            dice.faces, dice.caption = (), ""
        if self.handover is not None:
            self._show_handover(*self.handover)
        else:
            status = view.status_line(state, bot=bot, companion=self._companion, typed=self.typed)
            picked = view.selection_line(state, self.selected) if not bot else ""
            self._show("#status", status + ("  " + picked if picked else ""))
        self._show("#hint", "\n".join(self.hint))

    def _show_handover(self, before: Match, after: Match) -> None:
        """The board the last turn ended on and its score, until the next player presses Enter."""
        result = after.history[-1] if after.history else None
        if result is not None and result.player == before.actor:
            self.query_one(TileRow).tiles = tuple(
                TileView(tile, is_open=tile in result.board) for tile in range(1, before.rules.tiles + 1)
            )
        self._show("#status", view.handover_line(before, after))

    def _show(self, selector: str, content: str) -> None:
        """Update a line only when its words change: each update costs a new layout."""
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            self.query_one(selector, Static).update(content, layout=False)

