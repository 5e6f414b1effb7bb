"""The plain, line-by-line terminal game: for pipes, screen readers and simple shells.

It reads answers from an input stream and writes lines to an output stream, so
it runs the same in a terminal, through a pipe and in tests. The player may
press Enter to roll or type the faces rolled on a real box.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TextIO

from shutthebox.board import Move
from shutthebox.dice import Roll
from shutthebox.errors import ShutTheBoxError
from shutthebox.game import Game
from shutthebox.i18n import Lang, text
from shutthebox.match import Action, Match, Phase
from shutthebox.rules import Mode, grade

__all__ = ["Chooser", "HintFn", "PlainGame"]

Chooser = Callable[[Match], Action]
"""Anything that picks an action for a state: a bot."""

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
        bots: Mapping[int, Chooser] | None = None,
        hint: HintFn | None = None,
    ) -> None:
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.lang = lang
        self.bots = dict(bots or {})
        self.hint = hint
        self._reported = 0

    def say(self, key: str, **values: object) -> None:
        print(text(self.lang, key, **values), file=self.stdout, flush=True)

    def ask(self, key: str, **values: object) -> str | None:
        self.stdout.write(text(self.lang, key, **values))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.strip()

    def name(self, player: int | None) -> str:
        return self.game.state.players[player] if player is not None else "?"

    def run(self) -> Match | None:
        """Play until the game is over; None if the input ran out first."""
        self.say("title")
        self.say("rules_line", rules=self.game.rules.describe())
        last_actor: int | None = None
        while not self.game.state.is_over:
            state = self.game.state
            if state.phase is not Phase.ROLL_OFF and state.actor != last_actor:
                self._announce_turn(state)
                last_actor = state.actor
            if state.actor in self.bots:
                self._bot_step(state)
            elif not self._human_step(state):
                self.say("bye")
                return None
            self._report_turns()
        self._report_end()
        return self.game.state

    def _announce_turn(self, state: Match) -> None:
        key = "opening_turn_of" if state.opening else "turn_of"
        self.say(key, player=self.name(state.actor))
        self.say("board", board=state.board)

    def _bot_step(self, state: Match) -> None:
        chooser = self.bots[state.actor]  # type: ignore[index]
        if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
            self._roll(state, None)
            return
        action = chooser(state)
        self.game.act(action)
        if isinstance(action, Move):
            self.say("board", board=self.game.state.board)

    def _human_step(self, state: Match) -> bool:
        if state.phase is Phase.CHOOSE:
            answer = self.ask("choose_dice")
            if answer is None:
                return False
            if answer in {"h", "?"}:
                self._show_hint(state)
                return True
            try:
                self.game.choose_dice(int(answer))
            except (ValueError, ShutTheBoxError) as error:
                self.say("invalid", reason=error if isinstance(error, ShutTheBoxError) else answer)
            return True
        if state.phase in (Phase.ROLL, Phase.ROLL_OFF):
            dice = state.dice_count or 1
            answer = self.ask("ask_roll", dice=dice)
            if answer is None:
                return False
            try:
                faces = Roll.parse(answer) if answer else None
                self._roll(state, faces)
            except ShutTheBoxError as error:
                self.say("invalid", reason=error)
            return True
        return self._ask_move(state)

    def _ask_move(self, state: Match) -> bool:
        assert state.roll is not None
        moves = state.legal_moves
        key = "ask_open" if state.opening else "ask_move"
        answer = self.ask(key, total=state.roll.total, example=moves[-1])
        if answer is None:
            return False
        if answer == "?":
            self.say("options", moves=", ".join(str(m) for m in moves))
            return True
        if answer == "h":
            self._show_hint(state)
            return True
        try:
            self.game.move(Move.parse(answer))
        except ShutTheBoxError as error:
            self.say("invalid", reason=error)
            return True
        self.say("board", board=self.game.state.board)
        return True

    def _show_hint(self, state: Match) -> None:
        advice = self.hint(state) if self.hint else None
        if advice:
            self.say("hint", hint=advice)
        else:
            self.say("no_hint")

    def _roll(self, state: Match, faces: Roll | None) -> None:
        roll = self.game.roll(None, faces)
        if state.phase is Phase.ROLL_OFF:
            self.say("rolloff", player=self.name(state.actor), roll=roll)
            after = self.game.state
            if after.phase is not Phase.ROLL_OFF:
                self.say("starts", player=self.name(after.order[0]))
            return
        self.say("rolled", player=self.name(state.actor), roll=roll, total=roll.total)
        after = self.game.state
        if after.phase is not Phase.MOVE:
            self.say("no_move", total=roll.total)
            if after.actor == state.actor and not after.is_over and after.history == state.history:
                self.say("extra_turn", player=self.name(state.actor))

    def _report_turns(self) -> None:
        state = self.game.state
        for result in state.history[self._reported :]:
            who = self.name(result.player)
            if result.score is None:
                continue
            if result.board.is_shut:
                self.say("shut_box", player=who)
            else:
                open_tiles = ", ".join(map(str, result.board.open_tiles))
                self.say(
                    "turn_score",
                    player=who,
                    score=result.score,
                    open=open_tiles,
                    grade=grade(result.board.open_sum),
                )
        self._reported = len(state.history)

    def _report_end(self) -> None:
        state = self.game.state
        rules = state.rules
        if rules.mode is Mode.LONG and state.winner is not None:
            key = "long_won_shut" if state.board.is_shut else "long_won_open"
            self.say(key, player=self.name(state.winner))
        if rules.mode is Mode.ELIMINATION:
            totals = ", ".join(f"{n} {t}" for n, t in zip(state.players, state.totals, strict=True))
            self.say("totals", totals=totals)
        if state.winner is None:
            self.say("draw")
        elif len(state.players) > 1:
            self.say("winner", player=self.name(state.winner))
        if rules.stake and len(state.players) > 1:
            ledger = ", ".join(f"{n} {v:+d}" for n, v in zip(state.players, state.ledger, strict=True))
            self.say("ledger", ledger=ledger)

