"""The daily challenge kept: each day's server seeds, each profile's one ranked attempt.

A day's seeds are made the first time any day near it is asked for
(`DailyRepository.seeds`), a week ahead, so their commitments are public before the
day starts; two processes that make one at once keep the first (the key is the
day and the board). Reading a day (`DailyRepository.known_seeds`) makes none: the
server asks for new seeds only for today and the week ahead. An attempt is a
row keyed by the day, the board and the profile: a second one is refused by
the key itself, in every process. Its game is the room's, kept in ``games``
under the room's origin once over.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import ColumnElement, Select, delete, func, select
from sqlalchemy.exc import IntegrityError

from shutthebox.core.daily import Challenge
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.fair import SEED_BYTES
from shutthebox.core.record import GameRecord
from shutthebox.storage.database import Database
from shutthebox.storage.models import DailyAttemptRow, DailySeedRow, GameRow, ProfileRow

__all__ = ["AlreadyPlayedError", "Attempt", "DailyRepository"]


class AlreadyPlayedError(ShutTheBoxError):
    """The profile has its ranked attempt at this challenge already."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """A profile's attempt: its room, and its game's record once over (None while played)."""

    challenge: Challenge
    profile_id: int
    player: str
    room_code: str
    started_at: datetime
    record: GameRecord | None
    finished_at: datetime | None  # when its game was kept


class DailyRepository:
    """The daily challenge's tables, in a `Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def seeds(self, challenges: Iterable[Challenge]) -> dict[Challenge, bytes]:
        """The server seed of each challenge, made now where there is none yet."""
        wanted = list(challenges)
        found = self._read_seeds(wanted)
        missing = [c for c in wanted if c not in found]
        if missing:
            now = datetime.now(UTC)
            for challenge in missing:  # one by one: another process may make the same one meanwhile
                try:
                    with self._database.session() as session:
                        session.add(DailySeedRow(
                            day=challenge.day.isoformat(), tiles=challenge.tiles,
                            server_seed=secrets.token_bytes(SEED_BYTES).hex(), created_at=now,
                        ))
                except IntegrityError:
                    pass  # the other one's is kept: read below
            found |= self._read_seeds(missing)
        return found

    def known_seeds(self, challenges: Iterable[Challenge]) -> dict[Challenge, bytes]:
        """The server seed of each challenge that has one; none is made."""
        return self._read_seeds(list(challenges))

    def first_day(self) -> date | None:
        """The first day this database dealt a challenge for (None: it dealt none yet)."""
        with self._database.session() as session:
            first = session.scalar(select(func.min(DailySeedRow.day)))
        return date.fromisoformat(first) if first is not None else None

    def _read_seeds(self, challenges: list[Challenge]) -> dict[Challenge, bytes]:
        days = {c.day.isoformat() for c in challenges}
        with self._database.session() as session:
            rows = session.scalars(select(DailySeedRow).where(DailySeedRow.day.in_(days))).all()
        kept = {Challenge(date.fromisoformat(r.day), r.tiles): bytes.fromhex(r.server_seed) for r in rows}
        return {c: kept[c] for c in challenges if c in kept}

    def start(self, challenge: Challenge, profile_id: int, room_code: str, origin: str) -> None:
        """Note the profile's attempt, played in ``room_code``; `AlreadyPlayedError` if it has one."""
        try:
            with self._database.session() as session:
                session.add(DailyAttemptRow(
                    day=challenge.day.isoformat(), tiles=challenge.tiles, profile_id=profile_id,
                    room_code=room_code, origin=origin, started_at=datetime.now(UTC),
                ))
        except IntegrityError:
            raise AlreadyPlayedError(
                "you have played the {tiles}-tile challenge of {day} already: one ranked attempt a day",
                tiles=challenge.tiles, day=challenge.day.isoformat(),
            ) from None

    def withdraw(self, challenge: Challenge, profile_id: int) -> None:
        """Forget an attempt whose room could not be made (nothing was played)."""
        with self._database.session() as session:
            mine = DailyAttemptRow.profile_id == profile_id
            session.execute(delete(DailyAttemptRow).where(*self._of(challenge), mine))

    def attempt(self, challenge: Challenge, profile_id: int) -> Attempt | None:
        """The profile's attempt at the challenge, if any."""
        found = self._attempts(challenge, profile_id)
        return found[0] if found else None

    def attempts(self, challenge: Challenge) -> list[Attempt]:
        """Every attempt at the challenge, finished or not."""
        return self._attempts(challenge, None)

    def days_played(self, profile_id: int) -> set[date]:
        """The days the profile made an attempt, at any board."""
        with self._database.session() as session:
            days = session.scalars(
                select(DailyAttemptRow.day).where(DailyAttemptRow.profile_id == profile_id).distinct()
            ).all()
        return {date.fromisoformat(d) for d in days}

    def history(self, profile_id: int, limit: int = 400) -> list[Attempt]:
        """The profile's attempts, the newest day first."""
        with self._database.session() as session:
            rows = _with_games().where(DailyAttemptRow.profile_id == profile_id)
            found = session.execute(rows.order_by(DailyAttemptRow.day.desc()).limit(limit)).all()
        return [self._attempt(*row) for row in found]

    @staticmethod
    def _of(challenge: Challenge) -> tuple[ColumnElement[bool], ...]:
        return (DailyAttemptRow.day == challenge.day.isoformat(), DailyAttemptRow.tiles == challenge.tiles)

    def _attempts(self, challenge: Challenge, profile_id: int | None) -> list[Attempt]:
        with self._database.session() as session:
            query = _with_games().where(*self._of(challenge))
            if profile_id is not None:
                query = query.where(DailyAttemptRow.profile_id == profile_id)
            found = session.execute(query).all()
        return [self._attempt(*row) for row in found]

    @staticmethod
    def _attempt(row: DailyAttemptRow, player: str, record: str | None, finished: datetime | None) -> Attempt:
        return Attempt(
            Challenge(date.fromisoformat(row.day), row.tiles), row.profile_id, player, row.room_code,
            row.started_at, GameRecord.loads(record) if record is not None else None, finished,
        )


def _with_games() -> Select[DailyAttemptRow, str, str, datetime]:
    """Attempts with their player's name and, once kept, their game's record and its end."""
    return (
        select(DailyAttemptRow, ProfileRow.name, GameRow.record, GameRow.finished_at)
        .join(ProfileRow, ProfileRow.id == DailyAttemptRow.profile_id)
        .outerjoin(GameRow, GameRow.origin == DailyAttemptRow.origin)
    )

