"""Rooms in play, kept so a server that crashes resumes every room where it was.

The web server writes here before it acknowledges anything: a room's setup,
seats (with the hash of each token, never the token), state, and each action in
order (`RoomStore.keep`, one transaction). A server reads a room back when it is
asked for (`RoomStore.get`) and replays the actions through the engine. Actions are
keyed (room, seq), so two writers can never both put an action at one place of
a room's history: the second gets `ConflictError`.

The store knows rooms as plain JSON (`KeptRoom`): what a seat or an action
means is the web layer's business.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from shutthebox.storage.models import CommitmentRow, RoomEventRow, RoomRow

__all__ = ["ConflictError", "KeptRoom", "RoomStore", "StorageBusyError", "retrying", "token_hash"]

Result = TypeVar("Result")
RETRY_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0)
READ_TRIES = 5  # reads of a room that writes keep crossing before the store is called busy
"""Pauses between tries of a write that met a locked database (each try also waits SQLite's own
busy timeout): a save is retried for over 25 s before it is given up."""


class StorageBusyError(Exception):
    """The database stayed locked by another writer through every retry."""


class ConflictError(Exception):
    """Another writer already put an action at this place of the room's history."""


def token_hash(token: str) -> str:
    """What is kept of a seat token or a ticket: its SHA-256 (hex), so the database holds none."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


RETRYABLE_STATES = {"40001", "40P01", "55P03"}
"""PostgreSQL's serialization failure, deadlock and lock not available: try the transaction again."""


def _locked(error: OperationalError) -> bool:
    if getattr(error.orig, "sqlstate", None) in RETRYABLE_STATES:
        return True
    text = str(error.orig).lower()
    return "locked" in text or "busy" in text


_WRITERS: WeakKeyDictionary[Engine, threading.RLock] = WeakKeyDictionary()


def one_writer(engine: Engine) -> AbstractContextManager[object]:
    """What a write to ``engine`` holds: SQLite takes one writer at a time, and threads contending
    for it wait in its busy handler, which sleeps up to 100 ms between tries (seconds of latency
    under load); queued on this lock they go in turn at once. Other databases: nothing."""
    if engine.dialect.name != "sqlite":
        return nullcontext()
    return _WRITERS.setdefault(engine, threading.RLock())


def retrying(
    write: Callable[[], Result], *, sleep: Callable[[float], None] = time.sleep,
    lock: AbstractContextManager[object] | None = None,
) -> Result:
    """``write()`` (under ``lock``, see `one_writer`), tried again after a pause each time it meets a
    locked database; then `StorageBusyError`. Each try is its own transaction, so a failed one left
    nothing behind."""
    for delay in (*RETRY_DELAYS, None):
        try:
            with lock or nullcontext():
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
    """A room as the store keeps it.

    ``version`` is the version of the store's state this one was made from (0: a new room): a
    write succeeds only over that very version, and bumps it. ``due_at`` is when a server must
    next look at the room (its clock, a rematch, a bot to play, its closing), in epoch seconds.
    """

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
    version: int = 0
    due_at: float | None = None
    owner: str | None = None
    first_event: int = 0
    """The place of ``events[0]`` in the room's history (a read of the actions after a point)."""


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _kept(row: RoomRow, events: Sequence[RoomEventRow], first_event: int = 0) -> KeptRoom:
    return KeptRoom(
        code=row.code, status=row.status, setup=row.setup, dice=row.dice, seats=row.seats, extra=row.extra,
        game_id=row.game_id, events=[event.body for event in events], created_at=_utc(row.created_at),
        touched_at=_utc(row.touched_at), version=row.version, due_at=row.due_at, owner=row.owner,
        first_event=first_event,
    )


class RoomStore:
    """Rooms in play and pending dice commitments, in the store's database."""

    def __init__(self, engine: Engine, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._sleep = sleep

    def _write(self, work: Callable[[Session], Result]) -> Result:
        def attempt() -> Result:
            with self._sessions() as session, session.begin():
                return work(session)

        return retrying(attempt, sleep=self._sleep, lock=one_writer(self._engine))

    # -- rooms -------------------------------------------------------------------
    def keep(self, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]] = ()) -> int:
        """Write the room over its ``version`` and its ``new_events`` (seq, body), in one transaction
        committed on return; the room's new version. `ConflictError` if another writer changed the
        room since (or took one of those places), `StorageBusyError` if the database stays locked."""
        return self.keep_all([(room, new_events)])[0]

    def keep_all(
        self, rooms: Sequence[tuple[KeptRoom, Sequence[tuple[int, dict[str, Any]]]]]
    ) -> list[int]:
        """`keep` several rooms in one transaction: all of them or none (a rematch and its room)."""

        def work(session: Connection) -> list[int]:
            versions = []
            for room, new_events in rooms:
                values = {
                    "status": room.status, "setup": room.setup, "dice": room.dice, "seats": room.seats,
                    "extra": room.extra, "game_id": room.game_id, "touched_at": room.touched_at,
                    "due_at": room.due_at, "version": room.version + 1,
                }
                if room.version == 0:
                    session.execute(
                        insert(RoomRow).values(code=room.code, created_at=room.created_at, owner=room.owner,
                                               **values)
                    )
                else:
                    changed = session.execute(
                        update(RoomRow)
                        .where(RoomRow.code == room.code, RoomRow.version == room.version)
                        .values(**values)
                    )
                    if changed.rowcount != 1:
                        raise ConflictError(f"room {room.code}: changed by another writer since")
                if new_events:
                    session.execute(
                        insert(RoomEventRow),
                        [{"room_code": room.code, "seq": seq, "body": body} for seq, body in new_events],
                    )
                versions.append(room.version + 1)
            return versions

        def attempt() -> list[int]:  # the Core, not the ORM: half the CPU of a write, on every action
            with self._engine.begin() as connection:
                return work(connection)

        try:
            return retrying(attempt, sleep=self._sleep, lock=one_writer(self._engine))
        except IntegrityError:
            codes = ", ".join(room.code for room, _events in rooms)
            raise ConflictError(f"room {codes}: another writer holds this room or one of its places") \
                from None

    def open_rooms(self) -> list[KeptRoom]:
        """Every room kept, with its actions in order, oldest room first."""
        with self._sessions() as session:
            rows = session.scalars(
                select(RoomRow).options(selectinload(RoomRow.events)).order_by(RoomRow.created_at)
            )
            return [_kept(row, row.events) for row in rows]

    def get(self, code: str, after: int = 0) -> KeptRoom | None:
        """The room ``code`` as kept, with its actions from place ``after`` on (all by default);
        None if the store holds no such room.

        The row and the actions are two statements, and each sees what was committed when it
        started (PostgreSQL's READ COMMITTED; SQLite opens no transaction for a SELECT): a write
        landing between them would pair the old row with the new actions. Every write bumps the
        version, so a version unchanged after the actions were read means nothing landed between."""
        for _attempt in range(READ_TRIES):
            with self._sessions() as session:
                row = session.get(RoomRow, code)
                if row is None:
                    return None
                events = session.scalars(
                    select(RoomEventRow)
                    .where(RoomEventRow.room_code == code, RoomEventRow.seq >= after)
                    .order_by(RoomEventRow.seq)
                ).all()
                if session.scalar(select(RoomRow.version).where(RoomRow.code == code)) == row.version:
                    return _kept(row, events, after)
        raise StorageBusyError(f"room {code} changed during each of {READ_TRIES} reads")

    def version(self, code: str) -> int | None:
        """The room's version in the store (None: no such room): is a copy of it behind?"""
        with self._sessions() as session:
            found: int | None = session.scalar(select(RoomRow.version).where(RoomRow.code == code))
            return found

    def has(self, code: str) -> bool:
        return self.version(code) is not None

    def due(self, now: float, limit: int = 200) -> list[str]:
        """Codes of the rooms a server should look at by ``now``, the most overdue first."""
        with self._sessions() as session:
            return list(session.scalars(
                select(RoomRow.code).where(RoomRow.due_at <= now).order_by(RoomRow.due_at).limit(limit)
            ))

    def reschedule(self, code: str, version: int, due_at: float | None) -> None:
        """Say when the room is next due, if it is still at ``version`` (no change of its state)."""
        self._write(lambda session: session.execute(
            update(RoomRow).where(RoomRow.code == code, RoomRow.version == version).values(due_at=due_at)
        ))

    def in_play_by(self, owner: str) -> int:
        """How many rooms whose games are not over were created from ``owner`` (an address hash)."""
        with self._sessions() as session:
            return session.scalar(
                select(func.count()).select_from(RoomRow)
                .where(RoomRow.owner == owner, RoomRow.status != "over")
            ) or 0

    def forget(self, codes: Iterable[str], untouched_since: datetime | None = None) -> list[str]:
        """Drop closed rooms and their actions (their finished games stay in the store); with
        ``untouched_since``, only those nobody changed since then (another process may have). The
        codes dropped."""
        codes = list(codes)
        if not codes:
            return []

        def work(session: Session) -> list[str]:
            query = select(RoomRow.code).where(RoomRow.code.in_(codes))
            if untouched_since is not None:
                query = query.where(RoomRow.touched_at < untouched_since)
            gone = list(session.scalars(query.with_for_update()))
            if gone:
                session.execute(delete(RoomEventRow).where(RoomEventRow.room_code.in_(gone)))
                session.execute(delete(RoomRow).where(RoomRow.code.in_(gone)))
            return gone

        return self._write(work)

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
