"""Dice: rolls as values, the choice of one die or two, and scripted rolls.

What a hint on a bare position needs, with nothing heavier than `re`: the exact odds of a roll
and the dice that roll at random are in `core.chance`, where a game and the solver find them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shutthebox.core.errors import ParseError, Phrase, plural_phrase, quoted

__all__ = ["DiceChoice", "Roll", "ScriptedDice"]

_SEPARATORS = re.compile(r"[\s,+&]+")


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces shown by one roll of one or two dice."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.dice) not in (1, 2):
            raise ParseError(
                "a roll has one or two dice, not {count}: {dice}",
                count=len(self.dice), dice=quoted(self.dice),
            )
        for face in self.dice:
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
                raise ParseError(
                    "roll {dice}: a die shows 1 to 6, not {face!r}", dice=self.dice, face=quoted(face)
                )

    @classmethod
    def of(cls, *faces: int) -> Roll:
        return cls(tuple(faces))

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read ``"3,1"``, ``"3+1"`` or ``"5"``."""
        parts = [part for part in _SEPARATORS.split(text.strip()) if part]
        try:
            faces = tuple(int(part) for part in parts)
        except ValueError:
            raise ParseError("roll {text!r} is not one or two die faces", text=text) from None
        return cls(faces)

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def is_double(self) -> bool:
        """Two dice showing the same face (rules §5.4, extra turns)."""
        return len(self.dice) == 2 and self.dice[0] == self.dice[1]

    def __str__(self) -> str:
        return "+".join(str(face) for face in self.dice)

    def __repr__(self) -> str:
        return f"Roll.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class DiceChoice:
    """The player's choice of one die or two before a roll (rules §3)."""

    count: int

    @property
    def phrase(self) -> Phrase:
        """``1 die`` / ``2 dice``, to be said in the reader's language (`i18n.say` finds it in a message)."""
        return plural_phrase("{count} die", "{count} dice", self.count)

    def __str__(self) -> str:
        return str(self.phrase)


class ScriptedDice:
    """Rolls given in advance, for tests and for replaying a record."""

    def __init__(self, rolls: list[Roll]) -> None:
        self._rolls = list(rolls)

    def roll(self, count: int) -> Roll:
        if not self._rolls:
            raise ParseError("the scripted dice have no rolls left")
        roll = self._rolls[0]
        if len(roll.dice) != count:
            raise ParseError(
                "scripted roll {roll} has {count} dice, {asked} asked",
                roll=roll,
                count=len(roll.dice),
                asked=count,
            )
        return self._rolls.pop(0)
