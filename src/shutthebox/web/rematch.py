"""A rematch: a new game offered to every seat of a finished room, its dice committed at the offer.

The players who accept play on in a new room with the same rules, the bots and their own tokens
(`web.tables.rematch_room`); a seat's answer comes once, so the new dice take one client seed each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shutthebox.core.fair import FairDice

__all__ = ["Rematch"]


@dataclass(slots=True)
class Rematch:
    """A new game offered to every seat of a finished room; its dice are committed at the offer."""

    offered_by: int
    answers: dict[int, bool | None]  # per seat: accepted, declined, not yet (bots accept)
    deadline: float
    dice: FairDice = field(default_factory=FairDice)
    code: str | None = None  # the new room, once it starts
    closed: bool = False  # settled with no new room (no game to play): nothing more is due

    @property
    def settled(self) -> bool:
        return self.code is not None or None not in self.answers.values()

    @property
    def pending(self) -> bool:
        """The offer still waits to be settled: no new room yet, and not closed without one."""
        return self.code is None and not self.closed

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "offered_by": self.offered_by,
            "answers": [self.answers.get(i) for i in range(max(self.answers) + 1)],
            "remaining": max(0.0, round(self.deadline - now, 1)),
            "code": self.code,
            "commitment": self.dice.fairness(reveal=False).commitment,
        }

    def kept(self) -> dict[str, Any]:
        return {
            "offered_by": self.offered_by,
            "answers": [[seat, answer] for seat, answer in self.answers.items()],
            "deadline": self.deadline,
            **self.dice.kept(),
            "code": self.code,
            "closed": self.closed,
        }

    @classmethod
    def restore(cls, kept: dict[str, Any]) -> Rematch:
        dice = FairDice.from_kept(kept)
        answers = {int(seat): answer for seat, answer in kept["answers"]}
        closed = kept.get("closed", False)  # kept before it was told: a rematch started or still open
        return cls(kept["offered_by"], answers, kept["deadline"], dice, kept["code"], closed)
