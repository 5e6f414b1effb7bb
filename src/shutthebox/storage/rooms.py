"""Rooms in play, kept so a server that crashes resumes every room where it was.

The web server writes here before it acknowledges anything: a room's setup,
seats (with the hash of each token, never the token), state, and each action in
order (`RoomRepository.keep`, one transaction). A server reads a room back when it is
asked for (`RoomRepository.get`) and replays the actions through the engine. Actions are
keyed (room, seq), so two writers can never both put an action at one place of
a room's history: the second gets `ConflictError`.

The repository knows rooms as plain JSON (`KeptRoom`): what a seat or an action
means is the web layer's business.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from shutthebox.storage.database import Database, StorageBusyError, StorageError
from shutthebox.storage.models import CommitmentRow, RoomEventRow, RoomRow
from shutthebox.storage.prepared import Prepared, Sent, pipelined

__all__ = ["ConflictError", "KeptRoom", "RoomRepository", "Run", "Write", "token_hash"]

READ_TRIES = 5
"""Reads of a room that writes keep crossing before the room is called busy."""


class ConflictError(Exception):
    """Another writer already put an action at this place of the room's history."""


def token_hash(token: str) -> str:
    """What is kept of a seat token or a ticket: its SHA-256 (hex), so the database holds none."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(slots=True)
class KeptRoom:
    """A room as the repository keeps it.

    ``version`` is the version of the kept state this one was made from (0: a new room): a
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
    player: str | None = None
    """The hash of whom the room's creator plays as (a profile, a guest key, else the address): a
    cap on games in play each, and the list of them (`RoomRepository.in_play_of`)."""
    first_event: int = 0
    """The place of ``events[0]`` in the room's history (a read of the actions after a point)."""
    settled: frozenset[str] = frozenset()
    """Which of `SETTLED` the store holds as they are here (a write leaves them alone)."""
    then: Callable[[Connection], dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    """Work of the write's own transaction, after the room's row and actions (the save of the game its
    last action finished): the columns it answers are written over the row too, and kept here. Work
    that fails has the write made again without it (`RoomRepository.keep_group`)."""

    def settled_since(self, before: KeptRoom | None) -> KeptRoom:
        """This room, knowing which of `SETTLED` are as in ``before`` (the room as last kept)."""
        if before is None:
            return self
        self.settled = frozenset(
            column for column in SETTLED if getattr(self, column) == getattr(before, column)
        )
        return self


Write = tuple[KeptRoom, Sequence[tuple[int, dict[str, Any]]]]
"""A room and the actions it adds to the store (place, body)."""
Run = Callable[[Callable[[], list[int | ConflictError]]], list[int | ConflictError]]
"""Where a group's statements run (`RoomRepository.keep_group`)."""

SETTLED = ("setup", "dice", "seats")
"""The columns of a room that play does not change (only joining, starting, a rematch): written only
when they differ from what the store holds (`KeptRoom.settled`)."""
_INSERT_ROOM = Prepared(insert(RoomRow))
_UPDATE_ROOM = Prepared(update(RoomRow).where(
    RoomRow.code == bindparam("at_code"), RoomRow.version == bindparam("at_version")
))
_INSERT_EVENTS = Prepared(insert(RoomEventRow))
_NOT_OVER = RoomRow.status.not_in([literal("over"), literal("left")])  # bound each: `Prepared`
_HELD = Prepared(select(
    select(func.count()).select_from(RoomRow).where(RoomRow.player == bindparam("player"), _NOT_OVER)
    .scalar_subquery(),
    select(func.count()).select_from(RoomRow).where(RoomRow.owner == bindparam("owner"), _NOT_OVER)
    .scalar_subquery(),
))
"""Statements built once: each write only binds its values (the SET clause is the values given)."""


def _write(connection: Connection, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]]) -> int:
    """Write ``room`` over its version (a new room at version 0) and its new actions; its new version.
    `ConflictError`, having written nothing, when the store holds another version of it."""
    values = _row_values(room)
    if room.version == 0:
        _INSERT_ROOM.run(connection, values)
    elif _UPDATE_ROOM.run(connection, {**values, "at_code": room.code, "at_version": room.version}) != 1:
        raise ConflictError(f"room {room.code}: changed by another writer since")
    if new_events:
        _INSERT_EVENTS.run_many(
            connection, [{"room_code": room.code, "seq": seq, "body": body} for seq, body in new_events]
        )
    if room.then is not None:
        _then(connection, room)
    return room.version + 1


def _row_values(room: KeptRoom) -> dict[str, Any]:
    """The columns a write of ``room`` sets: all for a new room, else those that may have changed."""
    values: dict[str, Any] = {
        "status": room.status, "extra": room.extra, "game_id": room.game_id, "touched_at": room.touched_at,
        "due_at": room.due_at, "version": room.version + 1,
    }
    if room.version == 0:
        return values | {
            "code": room.code, "setup": room.setup, "dice": room.dice, "seats": room.seats,
            "created_at": room.created_at, "owner": room.owner, "player": room.player,
        }
    return values | {column: getattr(room, column) for column in SETTLED if column not in room.settled}


def _then(connection: Connection, room: KeptRoom) -> None:
    """The room's own work in its write's transaction, and the columns it sets on the room."""
    assert room.then is not None
    changes = room.then(connection)
    _UPDATE_ROOM.run(connection, {**changes, "at_code": room.code, "at_version": room.version + 1})
    for column, value in changes.items():
        setattr(room, column, value)


def _write_pipelined(connection: Connection, writes: Sequence[Write]) -> list[int | ConflictError]:
    """`_write` each of ``writes`` with the statements of all sent together (PostgreSQL): the rooms'
    rows in one round trip, then the actions of the rooms whose version matched in another; a
    room's own work (`KeptRoom.then`) after, one by one, as it reads what it wrote."""
    sent: list[Sent] = []
    with pipelined(connection) as sync:
        try:
            sent.extend(_send_room(connection, room) for room, _events in writes)
            sync()
            done: list[int | ConflictError] = [
                room.version + 1 if answer.rows() == 1
                else ConflictError(f"room {room.code}: changed by another writer since")
                for (room, _events), answer in zip(writes, sent, strict=True)
            ]
        finally:
            for answer in sent:
                answer.close()
        _INSERT_EVENTS.run_many(connection, [
            {"room_code": room.code, "seq": seq, "body": body}
            for (room, new_events), version in zip(writes, done, strict=True) if isinstance(version, int)
            for seq, body in new_events
        ])
    for (room, _events), version in zip(writes, done, strict=True):
        if isinstance(version, int) and room.then is not None:
            _then(connection, room)
    return done


def _send_room(connection: Connection, room: KeptRoom) -> Sent:
    """The room's row written over its version (inserted at version 0), sent in a pipeline."""
    values = _row_values(room)
    if room.version == 0:
        return _INSERT_ROOM.send(connection, values)
    return _UPDATE_ROOM.send(connection, {**values, "at_code": room.code, "at_version": room.version})


def _kept(row: RoomRow, events: Sequence[RoomEventRow], first_event: int = 0) -> KeptRoom:
    return KeptRoom(
        code=row.code, status=row.status, setup=row.setup, dice=row.dice, seats=row.seats, extra=row.extra,
        game_id=row.game_id, events=[event.body for event in events], created_at=row.created_at,
        touched_at=row.touched_at, version=row.version, due_at=row.due_at, owner=row.owner,
        player=row.player, first_event=first_event,
    )


class RoomRepository:
    """Rooms in play and pending dice commitments, in a `Database`."""

    def __init__(self, database: Database) -> None:
        self._database = database

    @property
    def local(self) -> bool:
        """Its reads answer from a file of this machine (`Database.local`)."""
        return self._database.local

    # -- rooms -------------------------------------------------------------------
    def keep(self, room: KeptRoom, new_events: Sequence[tuple[int, dict[str, Any]]] = ()) -> int:
        """Write the room over its ``version`` and its ``new_events`` (seq, body), in one transaction
        committed on return; the room's new version. `ConflictError` if another writer changed the
        room since (or took one of those places), `StorageBusyError` if the database stays locked."""
        return self.keep_all([(room, new_events)])[0]

    def keep_all(self, rooms: Sequence[Write]) -> list[int]:
        """`keep` several rooms in one transaction: all of them or none (a rematch and its room)."""

        def work(connection: Connection) -> list[int]:  # the Core, not the ORM: on every action
            return [_write(connection, room, new_events) for room, new_events in rooms]

        try:
            return self._database.write_core(work)
        except IntegrityError:
            codes = ", ".join(room.code for room, _events in rooms)
            raise ConflictError(f"room {codes}: another writer holds this room or one of its places") \
                from None

    def keep_group(self, writes: Sequence[Write], run: Run | None = None) -> list[int | ConflictError]:
        """`keep` each of ``writes`` (one room each), all in one transaction committed once (a group
        commit: one wait for the disk for the lot); each write's new version, or its `ConflictError`,
        which left the others alone. A write refused by the database itself (a place another writer
        took: the whole transaction is void on PostgreSQL), or work of its own (`KeptRoom.then`) that
        fails, has the group written again one by one, without that work.

        ``run`` runs the group's statements, here by default. A server calls this in a worker thread
        and, on SQLite, passes its own thread's runner: a statement there takes microseconds, but
        SQLite lets the interpreter's lock go during each one, and a worker thread then waits for it
        to come back while the server's thread is busy (a flush of twenty actions took 90 ms of wall
        time for 17 of CPU). The transaction begins with the write lock taken (``BEGIN IMMEDIATE``),
        waiting in this thread for any other writer, so the statements never wait; the commit, and
        its wait for the disk, stay in this thread."""

        def statements(connection: Connection) -> list[int | ConflictError]:
            if connection.dialect.name == "postgresql" and len(writes) > 1:
                return _write_pipelined(connection, writes)
            done: list[int | ConflictError] = []
            for room, new_events in writes:
                try:
                    done.append(_write(connection, room, new_events))
                except ConflictError as error:  # its version did not match: nothing of it was written
                    done.append(error)
            return done

        def work(connection: Connection) -> list[int | ConflictError]:
            if run is None:
                return statements(connection)
            if connection.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            return run(lambda: statements(connection))

        try:
            return self._database.write_core(work)
        except (IntegrityError, StorageError):
            pass
        alone: list[int | ConflictError] = []
        for room, new_events in writes:
            room.then = None  # its own work failed, or another's did: the room is kept without it
            try:
                alone.append(self.keep(room, new_events))
            except ConflictError as error:
                alone.append(error)
        return alone

    def open_rooms(self) -> list[KeptRoom]:
        """Every room kept, with its actions in order, oldest room first."""
        with self._database.session() as session:
            rows = session.scalars(
                select(RoomRow).options(selectinload(RoomRow.events)).order_by(RoomRow.created_at)
            )
            return [_kept(row, row.events) for row in rows]

    def get(self, code: str, after: int = 0) -> KeptRoom | None:
        """The room ``code`` as kept, with its actions from place ``after`` on (all by default);
        None if no such room is kept.

        The row and the actions are two statements, and each sees what was committed when it
        started (PostgreSQL's READ COMMITTED; SQLite opens no transaction for a SELECT): a write
        landing between them would pair the old row with the new actions. Every write bumps the
        version, so a version unchanged after the actions were read means nothing landed between."""
        for _attempt in range(READ_TRIES):
            with self._database.session() as session:
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
        """The room's version as kept (None: no such room): is a copy of it behind?"""
        with self._database.session() as session:
            found: int | None = session.scalar(select(RoomRow.version).where(RoomRow.code == code))
            return found

    def has(self, code: str) -> bool:
        return self.version(code) is not None

    def due(self, now: float, limit: int = 200) -> list[str]:
        """Codes of the rooms a server should look at by ``now``, the most overdue first."""
        with self._database.session() as session:
            return list(session.scalars(
                select(RoomRow.code).where(RoomRow.due_at <= now).order_by(RoomRow.due_at).limit(limit)
            ))

    def reschedule(self, code: str, version: int, due_at: float | None) -> None:
        """Say when the room is next due, if it is still at ``version`` (no change of its state)."""
        self._database.write(lambda session: session.execute(
            update(RoomRow).where(RoomRow.code == code, RoomRow.version == version).values(due_at=due_at)
        ))

    def held(self, player: str | None, owner: str | None) -> tuple[int, int]:
        """How many rooms whose games are not over were created by ``player`` (a player key's hash)
        and from ``owner`` (an address hash), each 0 for None, in one read: what a new room is
        checked against: one statement (on PostgreSQL, one round trip). A game every player left counts
        no more (bots play it out)."""
        with self._database.reading() as connection:
            counted = _HELD.first(connection, {"player": player, "owner": owner})
        assert counted is not None  # two counts, whatever the rooms
        return int(counted[0]), int(counted[1])

    def in_play_of(self, player: str, limit: int = 100) -> list[KeptRoom]:
        """The rooms ``player`` created whose games are not over, newest first (without their
        actions): what a player may resume or resign."""
        with self._database.session() as session:
            rows = session.scalars(
                select(RoomRow).where(RoomRow.player == player, RoomRow.status.not_in(("over", "left")))
                .order_by(RoomRow.created_at.desc()).limit(limit)
            )
            return [_kept(row, ()) for row in rows]

    def forget(self, codes: Iterable[str], untouched_since: datetime | None = None) -> list[str]:
        """Drop closed rooms and their actions (their finished games stay in ``games``); with
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

        return self._database.write(work)

    # -- commitments ----------------------------------------------------------------
    def commit(self, ticket: str, server_seed: bytes, at: datetime) -> None:
        """Keep dice committed to under ``ticket`` (its hash), until a room claims them."""
        row = CommitmentRow(ticket_hash=token_hash(ticket), server_seed=server_seed.hex(), created_at=at)
        self._database.write(lambda session: session.add(row))

    def claim(self, ticket: str, since: datetime) -> bytes | None:
        """The server seed committed under ``ticket`` no earlier than ``since``, taken out (once)."""

        def work(session: Session) -> bytes | None:
            row = session.get(CommitmentRow, token_hash(ticket))
            if row is None:
                return None
            session.delete(row)
            return bytes.fromhex(row.server_seed) if row.created_at >= since else None

        return self._database.write(work)

    def prune_commitments(self, before: datetime) -> None:
        """Drop commitments no room claimed in time."""
        self._database.write(
            lambda session: session.execute(delete(CommitmentRow).where(CommitmentRow.created_at < before))
        )
