"""The database object: every moment read back is aware and in UTC, whatever the engine, and a
moment written in another zone, or naive, is kept as the moment it names."""

from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import select, text

from shutthebox.storage import Database
from shutthebox.storage.database import POOL_KEPT
from shutthebox.storage.models import CommitmentRow

KATHMANDU = timezone(timedelta(hours=5, minutes=45))
MOMENT = datetime(2026, 3, 1, 9, 30, 15, 123456, tzinfo=UTC)
TICKET = "t" * 64


def _commit_at(database: Database, moment: datetime) -> None:
    database.write(lambda session: session.add(
        CommitmentRow(ticket_hash=TICKET, server_seed="00" * 32, created_at=moment)
    ))


@pytest.mark.parametrize(
    "written",
    [MOMENT, MOMENT.astimezone(KATHMANDU), MOMENT.replace(tzinfo=None)],  # naive: taken as UTC's
    ids=["utc", "another-zone", "naive"],
)
def test_a_moment_comes_back_aware_in_utc(database_url: str, written: datetime) -> None:
    """On PostgreSQL the session's zone is off UTC by a half hour (`services.TIME_ZONE`)."""
    with Database.open(database_url) as database:
        _commit_at(database, written)
        with database.session() as session:
            back = session.scalar(select(CommitmentRow.created_at))
            ticket = select(CommitmentRow.ticket_hash)
            before = session.scalar(ticket.where(CommitmentRow.created_at < MOMENT))
            at = session.scalar(ticket.where(CommitmentRow.created_at == written))
    assert back == MOMENT and back is not None and back.tzinfo is UTC
    assert before is None and at == TICKET  # compared in SQL as the same moment too


def test_a_sqlite_file_keeps_the_utc_wall_time(tmp_path: Path) -> None:
    """SQLite keeps no zone: the text written is the moment's time in UTC, which the quick reader of
    ``shutthebox scores`` reads as such."""
    path = tmp_path / "games.db"
    with Database.open(f"sqlite:///{path}") as database:
        _commit_at(database, MOMENT.astimezone(KATHMANDU))
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT created_at FROM commitments").fetchone() == ("2026-03-01 09:30:15.123456",)


def test_a_burst_of_reads_on_postgresql_opens_connections_once_and_keeps_them(postgres_database: str) -> None:
    """Each connection PostgreSQL opens costs it a process: with SQLAlchemy's pool of 5, every burst
    of reads beyond five at once opened connections and closed them again (412 for 1,000 rooms
    created over two processes, most of PostgreSQL's CPU)."""
    database = Database.open(postgres_database)
    try:
        def sessions() -> int:
            with database.engine.connect() as connection:
                found = connection.execute(
                    text("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
                ).scalar_one()
                return int(found)

        at_once = 15  # more than SQLAlchemy's own 5 kept; as many as its pool opens at all (5 + 10)
        assert at_once <= POOL_KEPT

        def burst() -> None:
            gate = threading.Barrier(at_once)

            def read() -> None:
                with database.reading() as connection:
                    gate.wait(10)  # every reader holds its connection at once
                    connection.execute(text("SELECT 1"))

            with ThreadPoolExecutor(at_once) as pool:
                for future in [pool.submit(read) for _ in range(at_once)]:
                    future.result()

        burst()
        time.sleep(0.5)  # PostgreSQL counts a session once it ends or reports
        opened = sessions()
        for _ in range(3):
            burst()
        time.sleep(0.5)
        assert sessions() - opened <= 1  # the bursts after the first reuse what it opened (one to ask)
    finally:
        database.close()


def test_a_kept_reader_sees_each_commit_at_once_and_is_its_threads_alone(tmp_path: Path) -> None:
    """The server's own thread reads a local file on a connection it keeps (`Database.keep_reader`):
    it holds no snapshot back (a room another thread writes is counted at the next read) and keeps
    no writer waiting; another thread reads on a connection of the pool."""
    from shutthebox.storage.rooms import KeptRoom, RoomRepository

    with Database.open(f"sqlite:///{tmp_path / 'kept.db'}") as database:
        database.keep_reader()
        rooms = RoomRepository(database)
        with database.reading() as first, database.reading() as again:
            assert first is again
        assert rooms.held("p" * 64, None) == (0, 0)
        room = KeptRoom(code="AAAAA", status="playing", setup={}, dice=None, seats=[], player="p" * 64)
        with ThreadPoolExecutor(1) as other:
            other.submit(rooms.keep, room).result(timeout=10)  # no wait on the kept reader
            assert rooms.held("p" * 64, None) == (1, 0)

            def connection_read_on() -> int:
                with database.reading() as connection:
                    return id(connection)

            with database.reading() as mine:
                assert other.submit(connection_read_on).result(timeout=10) != id(mine)
