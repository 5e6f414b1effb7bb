"""The plain, line-by-line terminal game: for pipes, screen readers and simple shells.

It reads answers from an input stream and writes lines to an output stream, so
it runs the same in a terminal, through a pipe and in tests. The player may
press Enter to roll or type the faces rolled on a real box; in companion mode
(a game rolled by hand) every roll is typed and the solver's advice is printed
before each decision. The `Game` moves the bots; what happened is told by
`narrate`, as in the Textual app. A refused answer is explained and the game
stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.game import Game
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.i18n import Lang, text
from shutthebox.term.narrate import dice_word, narrate, rules_line, turn_header

__all__ = ["HintFn", "PlainGame"]

HintFn = Callable[[Match], str | None]
"""Advice for a state, in words, or None."""


class PlainGame:
    """Runs a `Game` by reading and writing lines."""

    def __init__(
        self,
        game: Game,
        *,
        stdin: TextIO,
        stdout: TextIO,
        lang: Lang = "en",
        hint: HintFn | None = None,
    ) -> None:
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.lang = lang
        self.hint = hint
        self.companion = game.by_hand
        self._advised: Match | None = None

    def say(self, key: str, **values: object) -> None:
        self.line(text(self.lang, key, **values))

    def line(self, line: str) -> None:
        print(line, file=self.stdout, flush=True)

    def ask(self, key: str, **values: object) -> str | None:
        self.stdout.write(text(self.lang, key, **values))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.line("")
            return None
        return line.strip()

    def name(self, player: int | None) -> str:
        return self.game.state.players[player] if player is not None else "?"

    def run(self) -> Match | None:
        """Play until the game is over; None if the input ran out first."""
        self.say("title")
        self.say("rules_line", rules=rules_line(self.lang, self.game.rules))
        if self.companion:
            self.say("companion_intro")
        first = self.game.state
        if first.phase is not Phase.ROLL_OFF:
            self._announce_turn(first)
        while not self.game.state.is_over:
            state = self.game.state
            if self.game.bot_to_act() is not None:
                self._tell(state, self.game.step_bot())
            elif not self._human_step(state):
                self.say("bye")
                return None
        return self.game.state

    # -- acting and telling ----------------------------------------------------
    def _act(self, action: Action | None) -> None:
        """Apply ``action`` through the game (None: roll the game's own dice) and tell what it did."""
        before = self.game.state
        if action is None:
            action = self.game.roll()
        else:
            self.game.act(action)
        self._tell(before, action)

    def _tell(self, before: Match, action: Action) -> None:
        after = self.game.state
        for line in narrate(self.lang, before, action, after):
            self.line(line)
        if isinstance(action, Move) and not after.is_over and after.actor == before.actor:
            self.say("board", board=after.board)
        if after.is_over or after.phase is Phase.ROLL_OFF:
            return
        if after.actor != before.actor or before.phase is Phase.ROLL_OFF:
            self._announce_turn(after)

    def _announce_turn(self, state: Match) -> None:
        self.line(turn_header(self.lang, state))
        self.say("board", board=state.board)

    def _human_step(self, state: Match) -> bool:
        if state.is_chance:
            return self._ask_roll(state)
        if state.phase is Phase.CHOOSE:
            return self._ask_dice_count(state)
        return self._ask_move(state)

    def _ask_dice_count(self, state: Match) -> bool:
        self._advise(state)
        answer = self.ask("choose_dice")
        if answer is None:
            return False
        if answer in {"h", "?"}:
            self._show_hint(state)
        elif answer in {"1", "2"}:
            self._act(DiceChoice(int(answer)))
        else:
            self.say("err_choose")
        return True

    def _ask_roll(self, state: Match) -> bool:
        count = state.dice_due
        who = self.name(state.actor)
        if self.companion:
            key = "ask_rolloff_typed" if state.phase is Phase.ROLL_OFF else "ask_roll_typed"
            answer = self.ask(key, player=who, dice=dice_word(self.lang, count))
        else:
            key = "ask_rolloff" if state.phase is Phase.ROLL_OFF else "ask_roll"
            answer = self.ask(key, player=who, dice=dice_word(self.lang, count))
        if answer is None:
            return False
        if not answer:
            if self.companion:
                self.say("err_type_dice")
            else:
                self._act(None)
            return True
        try:
            faces = Roll.parse(answer)
        except ShutTheBoxError:
            faces = None
        if faces is None or len(faces.dice) != count:
            self.say("err_bad_dice", answer=answer, dice=dice_word(self.lang, count))
            return True
        self._act(faces)
        return True

    def _ask_move(self, state: Match) -> bool:
        assert state.roll is not None
        self._advise(state)
        moves = state.legal_moves
        key = "ask_open" if state.opening else "ask_move"
        answer = self.ask(key, total=state.roll.total, example=moves[-1])
        if answer is None:
            return False
        if answer in {"?", ""}:
            self.say("options", moves=", ".join(str(m) for m in moves))
            return True
        if answer == "h":
            self._show_hint(state)
            return True
        try:
            move = Move.parse(answer)
        except ShutTheBoxError:
            move = None
        if move is None or move not in moves:
            options = ", ".join(str(m) for m in moves)
            self.say("err_bad_move", answer=answer, total=state.roll.total, moves=options)
            return True
        self._act(move)
        return True

    def _advise(self, state: Match) -> None:
        """Companion mode: the advice comes before each decision, once."""
        if self.companion and self._advised is not state:
            self._advised = state
            self._show_hint(state)

    def _show_hint(self, state: Match) -> None:
        advice = self.hint(state) if self.hint else None
        if advice:
            self.say("hint", hint=advice)
        else:
            self.say("no_hint")
