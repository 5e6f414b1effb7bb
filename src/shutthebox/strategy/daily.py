"""The daily challenge after an attempt: what the optimal player made of the very same dice.

The day's dice go by roll (see `shutthebox.core.daily`), so the optimal player
(lowest expected score) can be played through them too: the rolls it meets are
the rolls anyone would have met on making the same choices. Set beside the
review of the attempt, it says how much each choice cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shutthebox.core.daily import Challenge
from shutthebox.core.dice import Roll
from shutthebox.core.game import Game
from shutthebox.core.record import GameRecord
from shutthebox.strategy.bots import make_bot

__all__ = ["Outcome", "optimal_outcome", "outcome_of"]

OPTIMAL = "optimal"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game of the challenge ended: its score, its rolls, and the record to replay it."""

    score: int
    rolls: int
    record: GameRecord

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "rolls": self.rolls, "record": self.record.to_json()}


def outcome_of(record: GameRecord) -> Outcome:
    """The score and the number of rolls of a finished solo game: the score it counts for, for a
    ranked one (as it stood when help came, if any: `core.ranking`)."""
    if record.result is None:
        raise ValueError("the game is not over")
    (turn,) = record.result.turns
    assert turn.score is not None  # a solo game's turn is scored
    (counted,) = record.counted() if record.fair else (None,)
    rolls = sum(1 for event in record.events if isinstance(event.action, Roll))
    return Outcome(turn.score if counted is None else counted, rolls, record)


def optimal_outcome(challenge: Challenge, server_seed: bytes) -> Outcome:
    """The optimal player's game on the challenge's dice."""
    game = Game(challenge.rules, [OPTIMAL], dice=challenge.dice(server_seed), bots={0: make_bot(OPTIMAL)})
    game.step_bots()
    return outcome_of(game.record())
