"""Dice: rolls as values, their exact distributions, and seedable sources.

Chance is data until a game samples it: `outcomes` gives the exact
probabilities the solver uses; only a `DiceSource` given to a game rolls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from shutthebox.core.errors import ParseError, Phrase, plural_phrase

TYPE_CHECKING = False  # typing is not imported at run time: a hint starts here
if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["DiceChoice", "Roll", "ScriptedDice", "SeededDice", "outcomes", "total_distribution"]

_SEPARATORS = re.compile(r"[\s,+&]+")


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces shown by one roll of one or two dice."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.dice) not in (1, 2):
            raise ParseError(
                "a roll has one or two dice, not {count}: {dice}", count=len(self.dice), dice=self.dice
            )
        for face in self.dice:
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
                raise ParseError("roll {dice}: a die shows 1 to 6, not {face!r}", dice=self.dice, face=face)

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


@cache
def outcomes(count: int) -> tuple[tuple[Roll, Fraction], ...]:
    """Every roll of ``count`` fair dice with its exact probability."""
    from fractions import Fraction  # a one-off hint never needs it: it loads only here

    if count == 1:
        return tuple((Roll((face,)), Fraction(1, 6)) for face in range(1, 7))
    if count == 2:
        return tuple(
            (Roll((a, b)), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
        )
    raise ParseError("one or two dice are rolled, not {count}", count=count)


@cache
def total_distribution(count: int) -> dict[tuple[int, bool], Fraction]:
    """Probability of each (total, is_double) for ``count`` dice."""
    from fractions import Fraction

    dist: dict[tuple[int, bool], Fraction] = {}
    for roll, p in outcomes(count):
        key = (roll.total, roll.is_double)
        dist[key] = dist.get(key, Fraction(0)) + p
    return dist


class SeededDice:
    """Fair dice from a seeded `random.Random`: same seed, same rolls."""

    def __init__(self, seed: int | None = None) -> None:
        import random  # loaded by the games that roll, not by every import of a `Roll`

        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)

    def roll(self, count: int) -> Roll:
        return Roll(tuple(self._rng.randint(1, 6) for _ in range(count)))


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
