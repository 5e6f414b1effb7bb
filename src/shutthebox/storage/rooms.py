"""Rooms in play, kept so a server that crashes resumes every room where it was.

The web server writes here before it acknowledges anything: a room's setup,
seats (with the hash of each token, never the token), state, and each action in
order (`RoomStore.keep`, one transaction). It reads every open room back at
start (`open_rooms`) and replays the actions through the engine. Actions are
keyed (room, seq), so two writers can never both put an action at one place of
a room's history: the second gets `ConflictError`.

The store knows rooms as plain JSON (`KeptRoom`): what a seat or an action
means is the web layer's business.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from shutthebox.storage.models import CommitmentRow, RoomEventRow, RoomRow

__all__ = ["ConflictError", "KeptRoom", "RoomStore", "StorageBusyError", "retrying", "token_hash"]

Result = TypeVar("Result")
RETRY_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0)
"""Pauses between tries of a write that met a locked database (each try also waits SQLite's own
busy timeout): a save is retried for over 25 s before it is given up."""


class StorageBusyError(Exception):
    """The database stayed locked by another writer through every retry."""


class ConflictError(Exception):
    """Another writer already put an action at this place of the room's history."""


def token_hash(token: str) -> str:
    """What is kept of a seat token or a ticket: its SHA-256 (hex), so the database holds none."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _locked(error: OperationalError) -> bool:
    text = str(error.orig).lower()
    return "locked" in text or "busy" in text


def retrying(write: Callable[[], Result], *, sleep: Callable[[float], None] = time.sleep) -> Result:
    """``write()``, tried again after a pause each time it meets a locked database; then
    `StorageBusyError`. Each try is its own transaction, so a failed one left nothing behind."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return write()
        except OperationalError as error:
            if not _locked(error):
                raise
            if delay is None:
                raise StorageBusyError(str(error.orig)) from None
            sleep(delay)
    raise AssertionError("unreachable")


@dataclass(slots=True)
class KeptRoom:
    """A room as the store keeps it."""

    code: str
    status: str
    setup: dict[str, Any]
    dice: dict[str, Any] | None
    seats: list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)
    game_id: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    touched_at: datetime = field(default_factory=lambda: datetime.now(UTC))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _kept(row: RoomRow) -> KeptRoom:
    return KeptRoom(
        code=row.code, status=row.status, setup=row.setup, dice=row.dice, seats=row.seats, extra=row.extra,
        game_id=row.game_id, events=[event.body for event in row.events], created_at=_utc(row.created_at),
        touched_at=_utc(row.touched_at),
    )


class RoomStore:
    """Rooms in play and pending dice commitments, in the store's database."""

    def __init__(self, engine: Engine, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._sleep = sleep

    def _write(self, work: Callable[[Session], Result]) -> Result:
        def attempt() -> Result:
            with self._sessions() as session, session.begin():
                return work(session)

        return retrying(attempt, sleep=self._sleep)

    # -- rooms -------------------------------------------------------------------
    def keep(self, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]] = ()) -> None:
        """Write the room's row and its ``new_events`` (seq, body) in one transaction, committed on
        return; `ConflictError` if one of those places is taken, `StorageBusyError` if locked."""
        self.keep_all([(room, new_events)])

    def keep_all(self, rooms: Sequence[tuple[KeptRoom, Sequence[tuple[int, dict[str, Any]]]]]) -> None:
        """`keep` several rooms in one transaction: all of them or none (a rematch and its room)."""

        def work(session: Session) -> None:
            for room, new_events in rooms:
                row = session.get(RoomRow, room.code)
                if row is None:
                    row = RoomRow(code=room.code, created_at=room.created_at)
                    session.add(row)
                row.status, row.setup, row.dice = room.status, room.setup, room.dice
                row.seats, row.extra, row.game_id = room.seats, room.extra, room.game_id
                row.touched_at = room.touched_at
                session.add_all(
                    RoomEventRow(room_code=room.code, seq=seq, body=body) for seq, body in new_events
                )
            session.flush()

        try:
            self._write(work)
        except IntegrityError:
            codes = ", ".join(room.code for room, _events in rooms)
            raise ConflictError(f"room {codes}: an action already holds one of these places") from None

    def open_rooms(self) -> list[KeptRoom]:
        """Every room kept, with its actions in order, oldest room first."""
        with self._sessions() as session:
            rows = session.scalars(
                select(RoomRow).options(selectinload(RoomRow.events)).order_by(RoomRow.created_at)
            )
            return [_kept(row) for row in rows]

    def get(self, code: str) -> KeptRoom | None:
        """The room ``code`` as kept, with its actions; None if the store holds no such room."""
        with self._sessions() as session:
            row = session.get(RoomRow, code, options=[selectinload(RoomRow.events)])
            return _kept(row) if row is not None else None

    def has(self, code: str) -> bool:
        with self._sessions() as session:
            return session.get(RoomRow, code) is not None

    def forget(self, codes: Iterable[str]) -> None:
        """Drop closed rooms and their actions (their finished games stay in the store)."""
        codes = list(codes)
        if codes:
            self._write(lambda session: session.execute(delete(RoomRow).where(RoomRow.code.in_(codes))))

    # -- commitments ----------------------------------------------------------------
    def commit(self, ticket: str, server_seed: bytes, at: datetime) -> None:
        """Keep dice committed to under ``ticket`` (its hash), until a room claims them."""
        row = CommitmentRow(ticket_hash=token_hash(ticket), server_seed=server_seed.hex(), created_at=at)
        self._write(lambda session: session.add(row))

    def claim(self, ticket: str, since: datetime) -> bytes | None:
        """The server seed committed under ``ticket`` no earlier than ``since``, taken out (once)."""

        def work(session: Session) -> bytes | None:
            row = session.get(CommitmentRow, token_hash(ticket))
            if row is None:
                return None
            session.delete(row)
            created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
            return bytes.fromhex(row.server_seed) if created >= since else None

        return self._write(work)

    def prune_commitments(self, before: datetime) -> None:
        """Drop commitments no room claimed in time."""
        self._write(
            lambda session: session.execute(delete(CommitmentRow).where(CommitmentRow.created_at < before))
        )
