"""Column types of the storage tables: a moment kept in UTC and read back aware, on every engine."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["UTCDateTime"]


class UTCDateTime(TypeDecorator[datetime]):
    """A ``DateTime(timezone=True)`` that writes every moment in UTC and reads it back aware in UTC.

    SQLite keeps no zone (its text is the moment's wall time, so it must be UTC's) and gives back
    naive values; PostgreSQL gives them in the session's zone. A naive moment written is taken as
    UTC. So no repository converts a moment it reads.
    """

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else _in_utc(value)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else _in_utc(value)


def _in_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
