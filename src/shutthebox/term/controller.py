"""The terminal game without the terminal: keys become steps of the game, the game becomes a `Scene`.

The controller holds the `Game` and what the people at the keyboard are doing with it: the tiles
picked, the faces typed in companion mode, the hint and what it costs in a ranked game (a player's
first ``h`` of a turn says the price, a second shows the hint), and the handover between two people
(the last turn's board stays until a fresh Enter; a held or doubled one rolls nothing, `confirm`). Each
key is a method; a refused one leaves the game as it was and says why in `message`.

It has no Textual in it and never waits: a bot's step, the solver's advice and keeping a finished
game are asked of its `Runner` (the Textual shell runs them in workers), and the answers come back
through `bot_step`, `advised` and `kept`, each applied only while the game is still where it was
asked (`Game.play` refuses a step chosen for a state the game has left).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from shutthebox.core.board import Move
from shutthebox.core.chance import DiceSource
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.game import ROLL, Due, Game, Step, Wait
from shutthebox.core.match import DiceChoice, Match, Phase
from shutthebox.core.record import GameRecord
from shutthebox.core.rules import Mode
from shutthebox.i18n import N_, SOURCE, Lang, _, activate, say
from shutthebox.i18n.words import rules_line
from shutthebox.term import narrate as tell
from shutthebox.term import view
from shutthebox.term.model import KEY_OF_TILE, Handover, Scene
from shutthebox.term.session import PlaySetup

__all__ = ["Controller", "Runner"]

BOT_STEPS = (Wait.CHANCE, Wait.BOT)

HANDOVER_DELAY = 0.8
"""Seconds a turn's end stays on screen before a press hands over: longer than a terminal waits
before it repeats a held key (0.25 to 0.66 s), so the first repeat of the press that ended the turn
hands nothing over."""
REPEAT_GAP = 0.25
"""A press this soon after the one before is a held key's repeat (terminals repeat 10 to 40 times a
second) or a double tap, not a fresh press."""


class Runner(Protocol):
    """What the shell does out of the controller's way; each answer comes through the method named."""

    def bot(self, due: Due) -> None:
        """A bot's roll or choice is due at ``due``: answer `Controller.bot_step` with `ROLL`, its
        choice, or its fallback's (`Game.rescue`) when it fails or outlasts `Game.patience`."""

    def rescue(self, due: Due) -> None:
        """The bot's own choice at ``due`` was refused: answer `bot_step` with its fallback's."""

    def advise(self, state: Match) -> None:
        """Advice is wanted at ``state``: answer `Controller.advised` with `advice_lines`."""

    def keep(self, game: Game, setup: PlaySetup) -> None:
        """``game`` is over: keep it, answering `Controller.kept` with the lines to say."""


class Controller:
    """One game at a time at the terminal, every way to play, bots, hints, companion mode."""

    def __init__(
        self, runner: Runner, *, lang: Lang = SOURCE, dice: DiceSource | None = None,
        handover_delay: float = HANDOVER_DELAY, repeat_gap: float = REPEAT_GAP,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``dice``: every game's (scripted ones); ``handover_delay``: a press sooner than this after a
        turn's end is taken for a held key, and hands nothing over; ``repeat_gap``: a press sooner than
        this after the one before is a repeat, which never hands over nor starts the next turn
        (`confirm`); ``clock``: seconds, monotonic."""
        self.runner = runner
        self.lang: Lang = lang
        self.handover_delay = handover_delay
        self.repeat_gap = repeat_gap
        self.clock = clock
        self._pressed: float | None = None  # when Enter (or Space) was last pressed, taken or not
        self._fresh = False  # a turn changed hands: only a fresh press (after a pause) acts on it
        self.setup: PlaySetup | None = None
        self.game: Game | None = None
        self.games_played = 0
        self.saved: list[GameRecord] = []
        self.selected = 0
        self.cursor: int | None = None  # the tile the arrows are on (None: no cursor shown)
        self.kept_lines: tuple[str, ...] = ()  # what keeping the finished game said
        self.typed: tuple[int, ...] = ()
        self.message = ""
        self.hint: tuple[str, ...] = ()
        self.handover: Handover | None = None
        self.last_roll: Roll | None = None
        self.log: list[str] = []
        self._log_id = 0
        self._dice = dice
        self._warned: Match | None = None  # the position where the first hint's price was said
        self._asked: Match | None = None  # the state a bot's step was last asked for

    @property
    def state(self) -> Match | None:
        return self.game.state if self.game is not None else None

    @property
    def companion(self) -> bool:
        return self.setup is not None and self.setup.companion

    @property
    def in_play(self) -> bool:
        """Whether a game is under way: leaving it loses it, so a key that would leave asks first."""
        return self.state is not None and not self.state.is_over

    @property
    def bot_to_act(self) -> bool:
        """Whether a bot acts now: it chooses, and rolls unless the dice are typed in."""
        return self.game is not None and self.game.due().wait in BOT_STEPS

    # -- the game's course -------------------------------------------------------------------
    def start(self, setup: PlaySetup) -> None:
        """A fresh game of ``setup`` (the next seed for each game after the first)."""
        self.setup, self.lang = setup, setup.lang
        activate(self.lang)
        seed = setup.seed + self.games_played if setup.seed is not None else None
        self.game = game = setup.new_game(seed, self._dice)
        self.hint, self.typed, self.selected, self.message = (), (), 0, ""
        self.cursor, self.kept_lines = None, ()
        self.handover, self.last_roll, self._warned = None, None, None
        self._fresh = False
        self.log, self._log_id = [], self._log_id + 1
        if setup.companion:
            self.log.append(_("Companion mode: roll the real dice, type the faces, see the best move."))
        elif game.seed is not None:
            self.log.append(tell.practice_line(game.seed))
        if tell.turn_begins(None, game.state):
            self.log.append(tell.turn_header(game.state))
        self._after_change()

    def begin(self, setup: PlaySetup) -> None:
        """The first game of a setup newly chosen (its seeds start again)."""
        self.games_played = 0
        self.start(setup)

    def restart(self, *, abandoned: bool = False) -> None:
        """Play again with the same setup; a game ``abandoned`` in play moves the seed on, as one over."""
        assert self.setup is not None
        if abandoned:
            self.games_played += 1
        self.start(self.setup)

    def act(self, step: Step) -> bool:
        """Take ``step`` for whoever is to act (`ROLL`: the game rolls); False if refused, and why."""
        game = self.game
        if game is None:
            return False
        before = game.state
        try:
            game.play(game.due(), step)
        except ShutTheBoxError as error:
            self.message = _("Not allowed: {reason}").format(reason=say(error))
            return False
        self._played(before)
        return True

    def bot_step(self, due: Due, step: Step, *, fallback: bool = False) -> None:
        """A bot's step for ``due``: its roll, its choice or (``fallback``) its fallback's. Dropped if
        the game has moved on; a refused choice is its fallback's to make, and when even that is
        refused a person at the keyboard takes the seat."""
        game = self.game
        if game is None or game.state is not due.state:
            return
        try:
            game.play(due, step)
        except ShutTheBoxError as error:
            if step != ROLL and not fallback:
                self.runner.rescue(due)
                return
            self.message = _("Not allowed: {reason}").format(reason=say(error))
            self.bot_stuck(due)
            return
        self._played(due.state)

    def bot_stuck(self, due: Due) -> None:
        """Neither the bot nor its fallback could play ``due``: a person plays that seat from now on."""
        if self.game is not None and self.game.state is due.state and due.seat is not None:
            self.game.unseat_bot(due.seat)
            self._after_change()

    def kept(self, lines: Sequence[str]) -> None:
        """The finished game was kept: what the keeper said (saved, a new best, why it counts for none),
        in the log and in the panel at the end of the game."""
        self.log.extend(lines)
        self.kept_lines = (*self.kept_lines, *lines)

    def _played(self, before: Match) -> None:
        """Tell what the last step did, hand over between two people, and see what is due next."""
        game = self.game
        assert game is not None
        action, after = game.events[-1].action, game.state
        if isinstance(action, Roll):
            self.last_roll = action
        if self._hands_over(before, after):
            self.handover = Handover(before, after, self.clock())
        if self._changes_hands(before, after):
            self._fresh = True
        self.log.extend(tell.narrate(before, action, after))
        if tell.turn_begins(before, after):
            self.log.append(tell.turn_header(after))
        self.message, self.selected, self.typed, self.hint = "", 0, (), ()
        if after.is_over or tell.turn_begins(before, after):
            self.cursor = None  # the arrows start again for the next turn
        if after.is_over:
            self.games_played += 1
            self.saved.append(game.record())
            assert self.setup is not None
            self.runner.keep(game, self.setup)
        self._after_change()

    def _hands_over(self, before: Match, after: Match) -> bool:
        """Whether a turn (a person's or a bot's) ended and a person is to play next: the board it
        ended on stays, and they take over with a fresh key."""
        game = self.game
        if game is None or self.companion or not tell.turn_begins(before, after):
            return False
        if before.phase is Phase.ROLL_OFF or before.actor is None or after.actor is None:
            return False
        if before.actor in game.bots_seated and before.rules.mode is Mode.LONG:
            return False  # one board for both: the bot's last board is the one the person plays on
        return after.actor not in game.bots_seated and before.actor != after.actor

    def _changes_hands(self, before: Match, after: Match) -> bool:
        """Whether a person is to act after another seat acted (a turn or a die of the roll-off): the
        key held by the one before must not act for them."""
        game = self.game
        if game is None or self.companion or after.is_over or after.actor is None:
            return False
        return after.actor not in game.bots_seated and (
            before.actor != after.actor or tell.turn_begins(before, after)
        )

    def _after_change(self) -> None:
        """Ask for the bot's step when one is due (once a state), and in companion mode the advice."""
        game = self.game
        assert game is not None
        due = game.due()
        if due.wait in BOT_STEPS and self._asked is not due.state:
            self._asked = due.state
            self.runner.bot(due)
        state = game.state
        advice_due = not state.is_over and state.is_decision and state.actor not in game.bots
        if self.companion and advice_due and not self.hint:
            self._show_hint(state)

    # -- keys -----------------------------------------------------------------------------------
    def _person_to_act(self) -> Match | None:
        """The state if a person is to act now, else None (and why)."""
        state = self.state
        if state is None:
            return None
        if state.is_over:
            self.message = _("The game is over: n for a new game, v for the review, q to quit.")
            return None
        if self.bot_to_act:
            assert state.actor is not None
            self.message = _("Wait: it is {player}'s turn.").format(player=state.players[state.actor])
            return None
        if self.handover is not None:  # the last turn's board stays until the next player presses Enter
            self.message = ""
            return None
        return state

    def number(self, number: int) -> None:
        """A digit (or 0, -, =): dice count, die face or tile, by phase."""
        state = self._person_to_act()
        if state is None:
            return
        if state.phase is Phase.CHOOSE:
            if number not in (1, 2):
                self.message = _("Press 1 for one die or 2 for two dice.")
            elif self.act(DiceChoice(number)) and not self.companion and not self.bot_to_act:
                self.act(ROLL)
        elif state.is_chance:
            if self.companion:
                self._type_face(state, number)
            else:
                self.message = _("Typed dice are for companion mode (--companion) only: press Enter to roll.")
        elif state.phase is Phase.MOVE:
            self._toggle(state, number)

    def _type_face(self, state: Match, face: int) -> None:
        if not 1 <= face <= 6:
            self.message = _("A die shows 1 to 6, not {face}.").format(face=KEY_OF_TILE[face])
            return
        typed = (*self.typed, face)
        if len(typed) < state.dice_due:
            self.typed, self.message = typed, ""
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

    def tile(self, tile: int) -> None:
        """A tile clicked: picked or put back, once there is a roll to match."""
        state = self._person_to_act()
        if state is None:
            return
        if state.phase is not Phase.MOVE:
            self.message = _("Roll first, then pick tiles.")
            return
        self._toggle(state, tile)

    def confirm(self) -> None:
        """Enter or Space: roll, or shut (open) the picked tiles if they match the roll.

        There is no key-up in a terminal: a held key comes as a burst of presses, told from a fresh one
        by the gap since the press before (``repeat_gap``). After a person's turn the board it ended on
        stays until a fresh press at least ``handover_delay`` after the end, which only hands over; and
        when a turn has changed hands, only a fresh press acts for the new player. So neither a held
        nor a doubled Enter ever plays for the next player."""
        now = self.clock()
        before, self._pressed = self._pressed, now
        fresh = before is None or now - before >= self.repeat_gap
        if self.handover is not None:
            if fresh and now - self.handover.at >= self.handover_delay:
                self.handover = None
                self._fresh = True  # the handover's own press, doubled, rolls nothing either
            return
        state = self._person_to_act()
        if state is None:
            return
        if self._fresh and not fresh:
            return  # a repeat of the key pressed for the seat before
        self._fresh = False
        if state.is_chance:
            if self.companion:
                self.message = _("Type the faces of the dice you rolled (1 to 6).")
            else:
                self.act(ROLL)
        elif state.phase is Phase.CHOOSE:
            self.message = _("Press 1 for one die or 2 for two dice.")
        elif state.phase is Phase.MOVE:
            self._confirm_move(state)

    def _confirm_move(self, state: Match) -> None:
        assert state.roll is not None
        if self.cursor is not None and (not self.selected or Move(self.selected) not in state.legal_moves):
            self._toggle(state, self.cursor)  # the picked tiles do not make the roll: pick the cursor's
            return
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

    def arrow(self, step: int) -> None:
        """An arrow key: the cursor moves ``step`` tiles (-1 left, +1 right) over the tiles that can be
        picked now (the open ones; the shut ones when reopening), round from one end to the other."""
        state = self.state
        if state is None or state.phase is not Phase.MOVE:
            self.key_unused("←" if step < 0 else "→")
            return
        if self._person_to_act() is None:  # a bot's turn, or the last turn's board held: says why
            return
        pickable = [t for t in range(1, state.rules.tiles + 1) if state.target >> (t - 1) & 1]
        if not pickable:
            return
        if self.cursor in pickable:
            self.cursor = pickable[(pickable.index(self.cursor) + step) % len(pickable)]
        elif self.cursor is None:
            self.cursor = pickable[0] if step > 0 else pickable[-1]
        else:  # its tile was shut: the next one that can be picked that way, else round
            ahead = [t for t in pickable if (t - self.cursor) * step > 0] or pickable
            self.cursor = ahead[0] if step > 0 else ahead[-1]
        self.message = ""

    def space(self) -> None:
        """Space: with the cursor on a tile, pick it or put it back; otherwise as Enter."""
        state = self.state
        if self.cursor is not None and state is not None and state.phase is Phase.MOVE:
            if self._person_to_act() is not None:
                self._toggle(state, self.cursor)
            return
        self.confirm()

    def clear(self) -> None:
        """Backspace or Escape: forget the picked tiles and the typed faces."""
        self.selected, self.typed, self.message = 0, (), ""

    def ask_hint(self) -> None:
        """The ``h`` key: the solver's advice for the person to act. In a ranked game the first of a turn
        makes the turn count as it stands (`core.ranking`, said in the log); a player's first ``h`` of
        such a turn says that price instead, and a second ``h`` at the same position asks."""
        state = self.state
        if state is None or state.is_over:
            return
        if not state.is_decision:
            self.message = _("No hint available here.")
            return
        if self._person_to_act() is None:  # a bot's decision: nobody at the keyboard is to act
            return
        game = self.game
        if not self.companion and game is not None and state.actor is not None:
            cost = game.help_would_cost(state.actor)
            if cost is not None:
                name = state.players[state.actor]
                if self._warned is not state:  # the price first, the hint on a second h
                    self._warned = state
                    self.hint = (tell.hint_warning(name, cost),)
                    return
                self.log.append(tell.assisted_line(name, cost))
            game.assist(state.actor)
        self._warned = None
        self._show_hint(state)

    def _show_hint(self, state: Match) -> None:
        self.hint = (_("Thinking…"),)
        self.runner.advise(state)

    def advised(self, state: Match, lines: Sequence[str]) -> None:
        """The advice for ``state``, shown while the game is still there (else dropped)."""
        if self.state is state:
            self.hint = tuple(lines)

    def review(self) -> GameRecord | None:
        """The ``v`` key: the record to review once the game is over (else None, and why)."""
        state = self.state
        if state is None or self.game is None:
            return None
        if not state.is_over:
            self.message = _("The review comes once the game is over.")
            return None
        self.message = _("Reviewing the game…")
        return self.game.record()

    def reviewed(self) -> None:
        self.message = ""

    def key_unused(self, key: str) -> None:
        """A key with no use on the game screen (a letter, an arrow, a function key) says so in the
        message line, with the keys that work now, rather than nothing at all."""
        state = self.state
        if self.companion and state is not None and state.is_chance and not state.is_over:
            unused = N_("Type the faces of the dice you rolled as digits 1 to 6, not {key}.")
        else:
            unused = N_("The key {key} does nothing here. Keys now: {keys}")
        working = " · ".join(f"{name} {label}" for name, label in self.keys_now())
        self.message = _(unused).format(key=key, keys=working)

    def leave(self) -> GameRecord | None:
        """What the game hands back on leaving: the game played (finished or not), else the last kept."""
        if self.game is None or not self.game.events:
            return self.saved[-1] if self.saved else None
        return self.game.record()

    # -- what the screen shows -------------------------------------------------------------------
    def keys_now(self) -> tuple[tuple[str, str], ...]:
        """The keys that do something now, with their labels."""
        return view.key_bar(
            self.state, bot=self.bot_to_act, companion=self.companion,
            reviewable=bool(self.game and self.game.events), handover=self.handover is not None,
        )

    def help(self) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], str]:
        """The help: the keys of the moment, every key, and the rules in brief."""
        state = self.state
        mode, rules = (state.rules.mode, rules_line(state.rules)) if state else (None, "")
        return self.keys_now(), view.every_key(), view.rules_in_brief(mode, rules)

    def scene(self) -> Scene:
        """The game screen now, every widget's part read off the game."""
        state, game, log = self.state, self.game, tuple(self.log)
        if state is None or game is None:
            return Scene(self.keys_now(), self.message, None, log, self._log_id)
        table = view.table(
            state, bots=set(game.bots), selected=self.selected, typed=self.typed, companion=self.companion,
            bot=self.bot_to_act, last_roll=self.last_roll, handover=self.handover, hint=self.hint,
            cursor=self.cursor, kept=self.kept_lines,
        )
        return Scene(
            self.keys_now(), self.message, table, log, self._log_id, state.rules.tiles, len(state.players)
        )
