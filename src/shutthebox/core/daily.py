"""The daily challenge: one solo game a day for each board size, on the same dice for everyone.

Each day (in UTC) and board size of `DAILY_TILES` has a server seed of its own,
committed to before the day starts and revealed once it is over: an attempt takes
no action after midnight UTC, and the seed is shown `REVEAL_GRACE` later, once no
attempt of that day can be played (an attempt unfinished at midnight is played out
by a bot and counts as it stood then). Its dice are
counted by roll (`shutthebox.core.fair.BY_ROLL`) under the client seed
``daily-YYYY-MM-DD-N``, so two players who choose differently see the same
rolls in the same order: roll *r* is the same two dice for both (its first die
alone when one die is rolled). The rules are the web preset's, played solo.
A ranked attempt is the server's business (one per profile and day); here is
what any copy can compute: the rules, the dice, the order of a leaderboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from shutthebox.core.dice import Roll
from shutthebox.core.errors import ParseError
from shutthebox.core.fair import FairDice, commitment_of
from shutthebox.core.rules import Mode, Rules

__all__ = ["DAILY_TILES", "REVEAL_GRACE", "Challenge", "Entry", "PracticeDice", "ranked", "streak", "today"]

DAILY_TILES = (9, 10, 12)
"""The board sizes with a challenge each day."""
REVEAL_GRACE = 300.0
"""Seconds from a day's end to the reveal of its seeds: past any clock skew between the processes of a
server (no attempt acts after midnight by any of their clocks)."""


def today(now: float) -> date:
    """The challenge day at ``now`` (seconds since the epoch): days begin at midnight UTC."""
    return datetime.fromtimestamp(now, UTC).date()


@dataclass(frozen=True, slots=True)
class Challenge:
    """One day's challenge on one board size."""

    day: date
    tiles: int

    def __post_init__(self) -> None:
        if self.tiles not in DAILY_TILES:
            raise ParseError(
                "a daily challenge is played on {sizes} tiles, not {tiles}",
                sizes=", ".join(map(str, DAILY_TILES)), tiles=self.tiles,
            )

    @classmethod
    def parse(cls, day: str, tiles: int) -> Challenge:
        """The challenge of ``day`` written ``YYYY-MM-DD``."""
        try:
            return cls(date.fromisoformat(day), tiles)
        except (TypeError, ValueError):
            raise ParseError("a day is written YYYY-MM-DD, not {day!r}", day=day) from None

    @property
    def client_seed(self) -> str:
        """Everyone's client seed for this challenge: it names the day and the board."""
        return f"daily-{self.day.isoformat()}-{self.tiles}"

    @property
    def closes_at(self) -> float:
        """When the day is over and its attempts take no more actions (midnight UTC, epoch seconds)."""
        return datetime.combine(self.day + timedelta(days=1), time(), UTC).timestamp()

    def revealed(self, now: float) -> bool:
        """Whether the day's seed may be shown at ``now``: once no attempt can be played any more."""
        return now >= self.closes_at + REVEAL_GRACE

    @property
    def rules(self) -> Rules:
        return Rules.preset("web", tiles=self.tiles, mode=Mode.SOLO)

    def dice(self, server_seed: bytes) -> FairDice:
        """The day's dice from its server seed, counted by roll."""
        return FairDice(server_seed, [self.client_seed], by_roll=True)

    def to_json(self, server_seed: bytes, *, reveal: bool) -> dict[str, Any]:
        """What is public of the challenge: its commitment, and its seed once ``reveal`` (the day
        is over)."""
        return {
            "day": self.day.isoformat(),
            "tiles": self.tiles,
            "client_seed": self.client_seed,
            "commitment": commitment_of(server_seed),
            "server_seed": server_seed.hex() if reveal else None,
        }


@dataclass
class PracticeDice:
    """A challenge's dice for an unranked practice: the same rolls, but not `FairDice`, so the game
    neither reveals the seed (secret while the day lasts) nor counts for any best."""

    dice: FairDice

    def roll(self, count: int) -> Roll:
        return self.dice.roll(count)


@dataclass(frozen=True, slots=True)
class Entry:
    """One finished attempt as a leaderboard ranks it."""

    player: str
    score: int
    rolls: int
    finished_at: datetime


def ranked(entries: list[Entry]) -> list[Entry]:
    """The leaderboard's order: the lower score, then fewer rolls, then the earlier finish."""
    return sorted(entries, key=lambda e: (e.score, e.rolls, e.finished_at))


def streak(days: set[date], until: date) -> int:
    """Days in a row with an attempt, ending on ``until`` (or the day before it, when ``until``
    is not played yet: a streak lives until a whole day is missed)."""
    day = until if until in days else date.fromordinal(until.toordinal() - 1)
    count = 0
    while day in days:
        count += 1
        day = date.fromordinal(day.toordinal() - 1)
    return count
