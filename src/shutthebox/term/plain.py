"""The plain, line-by-line terminal game: for pipes, screen readers and simple shells.

It reads answers from an input stream and writes lines to an output stream, so
it runs the same in a terminal, through a pipe and in tests. The game rolls
its own dice (Enter rolls); only in companion mode (a game at a real box) are
the faces typed in, and the solver's advice is printed before each decision.
Typed dice anywhere else are refused, so a ranked game's dice are all the
game's. A hint asked for outside companion mode makes the asking player's
turns count for no best: in a ranked game the first ``h`` of each player only
says so, and the hint comes with a second ``h`` (``?`` never asks for one). Bots
play as in the Textual app: each thinks within its patience, and its fallback
chooses when it fails, takes longer or is refused (`Game.rescue`); only when even
that is refused does the person at the keyboard play the seat. What happened is
told by `narrate`, as in the Textual app. A refused answer is explained and the
game stays as it was.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TextIO

from shutthebox.core.board import Move
from shutthebox.core.dice import Roll
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.game import ROLL, Due, Game, Step, Wait
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.i18n import N_, _, ngettext, pgettext, say
from shutthebox.i18n.words import dice_word, rules_line
from shutthebox.term.narrate import (
    assisted_line,
    hint_warning,
    narrate,
    practice_line,
    turn_begins,
    turn_header,
)

__all__ = ["HintFn", "PlainGame"]

HintFn = Callable[[Match], str | None]
"""Advice for a state, in words, or None."""

QUIT_WORDS = frozenset({"q", "quit", "salir"})
"""What leaves the game at any prompt (besides the language's own word for "quit")."""
YES_WORDS = frozenset({"y", "yes", "s", "si", "sí"})
"""What answers yes to "Quit this game?" (the language's own yes letter too)."""


def patient_choice(game: Game, due: Due) -> DiceChoice | Move:
    """The choice of the bot ``due`` waits for, thought in a thread of its own within its patience
    (`Game.patience`): its fallback's (`Game.rescue`) when it fails or takes longer."""
    patience = game.patience(due)
    if patience is None:
        return game.think(due)
    thought, chosen = game.thought(due), list[DiceChoice | Move]()

    def think() -> None:
        try:
            chosen.append(thought())
        except Exception:  # its fallback chooses instead
            return

    worker = threading.Thread(target=think, name="bot", daemon=True)  # left behind if it takes too long
    worker.start()
    worker.join(patience)
    return chosen[0] if chosen else game.rescue(due)


class PlainGame:
    """Runs a `Game` by reading and writing lines."""

    def __init__(
        self,
        game: Game,
        *,
        stdin: TextIO,
        stdout: TextIO,
        hint: HintFn | None = None,
    ) -> None:
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.hint = hint
        self.companion = game.by_hand
        self._advised: Match | None = None
        self._warned: Match | None = None  # the position where the first hint's price was said
        self._quit = False  # the player chose to leave (not the input running out)
        self.status = 0
        """The command's exit status: 1 when the input ran out in the middle of a game."""

    def line(self, line: str) -> None:
        print(line, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        """The answer to ``prompt``; None when the input ran out, or the player quit (q, quit, salir:
        asked first once something was played)."""
        answer = self._read(prompt)
        if answer is None or answer.lower() not in QUIT_WORDS | {_("quit")}:
            return answer
        if self.game.events and not self.game.state.is_over:
            sure = self._read(_("Quit this game? It is not over. [y/n] "))
            yes = YES_WORDS | {pgettext("the key that answers yes", "y")}
            if sure is not None and sure.lower() not in yes:
                return self.ask(prompt)  # not leaving: the same prompt again
        self._quit = True
        return None

    def _read(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
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
        self.line(_("Shut the Box"))
        self.line(_("Rules: {rules}").format(rules=rules_line(self.game.rules)))
        if self.companion:
            self.line(_("Companion mode: roll the real dice, type the faces, see the best move."))
        elif self.game.seed is not None:
            self.line(practice_line(self.game.seed))
        if turn_begins(None, self.game.state):
            self._announce_turn(self.game.state)
        while (due := self.game.due()).wait is not Wait.OVER:
            if due.wait is Wait.PERSON:
                if not self._human_step(due):
                    self.line(_("Game abandoned."))
                    if self.game.events and not self._quit:  # the input ran out in the middle of it
                        self.line(_("The game was left unfinished: the input ended before it was over."))
                        self.status = 1
                    return None
                continue
            if due.wait is Wait.CHANCE:
                self._play(due, ROLL)
            else:
                self._bot_step(due)
        return self.game.state

    def _bot_step(self, due: Due) -> None:
        """The bot's choice, or its fallback's when it fails, takes too long or is refused; when even
        that is refused, the person at the keyboard plays the seat from now on."""
        try:
            self._play(due, patient_choice(self.game, due))
            return
        except ShutTheBoxError:
            pass
        try:
            self._play(due, self.game.rescue(due))
        except ShutTheBoxError as error:
            self.line(_("Not allowed: {reason}").format(reason=say(error)))
            assert due.seat is not None
            self.game.unseat_bot(due.seat)

    # -- acting and telling ----------------------------------------------------
    def _play(self, due: Due, step: Step) -> None:
        """Take ``step`` through the game (`ROLL`: the game rolls its own dice) and tell what it did."""
        self.game.play(due, step)
        action = self.game.events[-1].action
        self._tell(due.state, action)

    def _tell(self, before: Match, action: Action) -> None:
        after = self.game.state
        for line in narrate(before, action, after):
            self.line(line)
        if isinstance(action, Move) and not after.is_over and after.actor == before.actor:
            self.line(_("Board: {board}").format(board=after.board))
        if turn_begins(before, after):
            self._announce_turn(after)

    def _announce_turn(self, state: Match) -> None:
        self.line(turn_header(state))
        self.line(_("Board: {board}").format(board=state.board))

    def _human_step(self, due: Due) -> bool:
        """Ask the person ``due`` waits for, and play their answer; False when the input ran out."""
        state = due.state
        if state.is_chance:
            return self._ask_roll(due)
        if state.phase is Phase.CHOOSE:
            return self._ask_dice_count(due)
        return self._ask_move(due)

    def _ask_dice_count(self, due: Due) -> bool:
        state = due.state
        self._advise(state)
        answer = self.ask(_("One die or two? [1/2] "))
        if answer is None:
            return False
        if answer == "h":
            self._ask_hint(state)
        elif answer == "?":  # a hint has a price: only h asks for one
            self.line(_("Type 1 to roll one die or 2 to roll two dice; h asks for a hint."))
        elif answer in {"1", "2"}:
            self._play(due, DiceChoice(int(answer)))
        else:
            self.line(_("Press 1 for one die or 2 for two dice."))
        return True

    def _ask_roll(self, due: Due) -> bool:
        state = due.state
        count = state.dice_due
        who = self.name(state.actor)
        rolloff = state.phase is Phase.ROLL_OFF
        if self.companion:
            prompt = (
                N_("{player} rolls one die to see who starts; type it: ")
                if rolloff
                else N_("Type what {player} rolled with {dice} (e.g. 3 5): ")
            )
        else:
            prompt = (
                N_("{player} rolls one die to see who starts: press Enter to roll it: ")
                if rolloff
                else N_("Press Enter to roll ({dice}): ")
            )
        answer = self.ask(_(prompt).format(player=who, dice=dice_word(count)))
        if answer is None:
            return False
        if answer == "?":  # about this prompt
            about = (
                N_("Type the faces you rolled, as digits 1 to 6 (e.g. 3 5); q quits.")
                if self.companion
                else N_("Press Enter to roll: the game rolls the dice; q quits.")
            )
            self.line(_(about))
            return True
        if not self.companion:
            if answer:  # the game rolls here: typed faces would make its dice the player's
                refusal = _(
                    "{answer!r}: typed dice are for companion mode (--companion) only, at a real box; "
                    "press Enter to roll. Nothing changed."
                )
                self.line(refusal.format(answer=answer))
            else:
                self._play(due, ROLL)
            return True
        if not answer:
            self.line(_("Type the faces of the dice you rolled (1 to 6)."))
            return True
        try:
            faces = Roll.parse(answer)
        except ShutTheBoxError:
            faces = None
        if faces is None or len(faces.dice) != count:
            refusal = _("{answer!r} is not {dice} showing 1 to 6; nothing changed.")
            self.line(refusal.format(answer=answer, dice=dice_word(count)))
            return True
        self._play(due, faces)
        return True

    def _ask_move(self, due: Due) -> bool:
        state = due.state
        assert state.roll is not None
        self._advise(state)
        moves = state.legal_moves
        prompt = (
            N_("Tiles to open for {total} (e.g. {example}), ? for options, h for a hint: ")
            if state.opening
            else N_("Tiles to shut for {total} (e.g. {example}), ? for options, h for a hint: ")
        )
        answer = self.ask(_(prompt).format(total=state.roll.total, example=moves[-1]))
        if answer is None:
            return False
        if answer in {"?", ""}:
            self.line(_("Legal moves: {moves}").format(moves=", ".join(str(m) for m in moves)))
            return True
        if answer == "h":
            self._ask_hint(state)
            return True
        try:
            move = Move.parse(answer)
        except ShutTheBoxError:
            move = None
        limit = state.rules.max_tiles
        if move is not None and move not in moves and limit is not None and move.total == state.roll.total:
            options = ", ".join(str(m) for m in moves)
            refusal = ngettext(
                "{answer!r}: at most {n} tile a roll; legal moves: {moves}",
                "{answer!r}: at most {n} tiles a roll; legal moves: {moves}",
                limit,
            )
            self.line(refusal.format(answer=answer, n=limit, moves=options))
            return True
        if move is None or move not in moves:
            options = ", ".join(str(m) for m in moves)
            refusal = _("{answer!r} is not a move for {total} here; legal moves: {moves}")
            self.line(refusal.format(answer=answer, total=state.roll.total, moves=options))
            return True
        self._play(due, move)
        return True

    def _advise(self, state: Match) -> None:
        """Companion mode: the advice comes before each decision, once."""
        if self.companion and self._advised is not state:
            self._advised = state
            self._show_hint(state)

    def _ask_hint(self, state: Match) -> None:
        """A hint asked for: in a ranked game the first of a turn makes the turn count as it stands
        (`core.ranking`). A player's first ``h`` of a turn only says what it costs; a second ``h`` at
        the same position asks for it, and the turn's later hints come at once.
        """
        actor = state.actor
        if not self.companion and actor is not None:
            cost = self.game.help_would_cost(actor)
            if cost is not None:
                if self._warned is not state:
                    self._warned = state
                    self.line(hint_warning(self.name(actor), cost))
                    return
                self.line(assisted_line(self.name(actor), cost))
            self.game.assist(actor)
        self._warned = None
        self._show_hint(state)

    def _show_hint(self, state: Match) -> None:
        advice = self.hint(state) if self.hint else None
        if advice:
            self.line(_("Hint: {hint}").format(hint=advice))
        else:
            self.line(_("No hint available here."))
