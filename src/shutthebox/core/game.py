"""A game being played: a `Match` state, the dice that feed it, and its record.

`Game` is the one mutable shell around the frozen `Match`: interfaces call
`choose_dice`, `roll` and `move`; the dice come from the seeded source given
(or, at a real wooden box, the faces typed in); every action lands in the
record. An action that raises leaves the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.core.board import Move
from shutthebox.core.dice import DiceSource, Roll, SeededDice
from shutthebox.core.errors import IllegalActionError
from shutthebox.core.match import Action, DiceChoice, Match, Phase
from shutthebox.core.record import Event, GameRecord, result_of
from shutthebox.core.rules import Rules

__all__ = ["Game"]


class Game:
    """A match in play with its dice and its record."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        seed: int | None = None,
        dice: DiceSource | None = None,
        rounds: int = 1,
    ) -> None:
        self.state = Match.new(rules, players, rounds=rounds)
        if dice is None:
            seeded = SeededDice(seed)
            seed, dice = seeded.seed, seeded
        self.seed = seed
        self.dice = dice
        self.events: list[Event] = []
        self.typed = False  # some rolls were typed in: the seed no longer replays them

    @property
    def rules(self) -> Rules:
        return self.state.rules

    def act(self, action: Action, player: int | None = None) -> Match:
        """Apply any action; the game is unchanged if it raises."""
        if isinstance(action, Roll):
            self.roll(player, action)
            return self.state
        actor = self.state.actor
        self.state = self.state.apply(action, player)
        assert actor is not None
        self.events.append(Event(actor, action))
        return self.state

    def choose_dice(self, count: int, player: int | None = None) -> Match:
        return self.act(DiceChoice(count), player)

    def move(self, move: Move, player: int | None = None) -> Match:
        return self.act(move, player)

    def roll(self, player: int | None = None, faces: Roll | None = None) -> Roll:
        """Roll the dice the state asks for, or take ``faces`` rolled at a real box."""
        state = self.state
        if state.phase is Phase.CHOOSE:
            raise IllegalActionError(f"roll: choose one die or two first; {state.describe()}")
        if state.phase not in (Phase.ROLL, Phase.ROLL_OFF):
            raise IllegalActionError(f"roll: nothing is to be rolled now; {state.describe()}")
        state.check_turn(player)
        typed = faces is not None
        if faces is None:
            faces = self.dice.roll(state.dice_count or 1)
        actor = state.actor
        self.state = state.apply(faces, player)
        assert actor is not None
        self.typed = self.typed or typed
        self.events.append(Event(actor, faces))
        return faces

    def record(self) -> GameRecord:
        """The record of the game so far (with its result once it is over)."""
        return GameRecord(
            rules=self.state.rules,
            players=self.state.players,
            events=list(self.events),
            seed=self.seed if isinstance(self.dice, SeededDice) and not self.typed else None,
            rounds=self.state.rounds,
            result=result_of(self.state) if self.state.is_over else None,
        )
