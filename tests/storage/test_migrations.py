"""The migrations, on each engine: up to the newest revision, down one at a time and up again, and
(PostgreSQL) several servers opening one new database at the same moment."""

from __future__ import annotations

import multiprocessing
import threading
import time
from multiprocessing.synchronize import Barrier
from queue import Empty
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from shutthebox.storage import Database, GameRepository, engine_url
from shutthebox.storage.database import MIGRATION_LOCK, alembic_config
from storage.helpers import LEFT_3, SHUT, SOLO3, newest_revision, revisions, scripted

NEWEST = newest_revision()

TABLES = {
    "alembic_version", "games", "turns", "profiles", "profile_names", "rooms", "room_events", "commitments",
    "daily_seeds", "daily_attempts", "trainer_ratings", "puzzle_ratings", "trainer_reviews",
}


def _versions(database: Database) -> list[str]:
    with database.engine.connect() as connection:
        return list(connection.scalars(text("SELECT version_num FROM alembic_version")))


def test_a_new_database_is_migrated_to_the_newest_revision(database: Database) -> None:
    assert _versions(database) == [NEWEST]
    assert set(inspect(database.engine).get_table_names()) >= TABLES


def test_every_migration_goes_down_and_up_again_keeping_the_games_of_the_revisions_it_keeps(
    database: Database, games: GameRepository,
) -> None:
    """Down one revision at a time to none at all (a table of the revision above goes, the games stay
    while their tables do), then up to the newest again, where the store works as before."""
    from alembic import command

    games.save(scripted(SOLO3, ["Ana"], LEFT_3), source="web")
    for below in [*reversed(revisions()[:-1]), "base"]:
        with database.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "-1")
        tables = set(inspect(database.engine).get_table_names())
        if below == "base":
            assert tables <= {"alembic_version"} and _versions(database) == []
        else:
            assert _versions(database) == [below]
            with database.engine.connect() as connection:
                assert connection.scalar(text("SELECT count(*) FROM games")) == 1
    database.migrate()
    assert _versions(database) == [NEWEST]
    assert set(inspect(database.engine).get_table_names()) >= TABLES
    assert games.count() == 0  # the games went with their tables at the bottom
    again = games.save(scripted(SOLO3, ["Ana"], SHUT), source="web")
    assert [g.id for g in games.games()] == [again]


# -- several servers, one new PostgreSQL database -----------------------------------------------------
def _open_at_once(url: str, barrier: Barrier, answers: Any) -> None:
    """One server starting: wait for the others, then open (and migrate) the store."""
    try:
        barrier.wait(timeout=60)
        with Database.open(url) as database:
            answers.put(("opened", database.schema_version()))
    except Exception as error:  # the parent reports it
        answers.put(("failed", repr(error)))


SERVERS = 4


def test_servers_opening_one_new_database_at_once_all_start_and_migrate_it_once(
    postgres_database: str,
) -> None:
    """Four processes, released together, each open the store on one empty database: each runs the
    migrations; the advisory lock lets one do it while the others wait and find them done."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter each, as separate servers
    barrier = context.Barrier(SERVERS)
    answers = context.Queue()
    servers = [
        context.Process(target=_open_at_once, args=(postgres_database, barrier, answers))
        for _ in range(SERVERS)
    ]
    for server in servers:
        server.start()
    try:
        results = [answers.get(timeout=120) for _ in servers]
    except Empty:
        pytest.fail("a server neither opened the store nor failed within two minutes")
    finally:
        for server in servers:
            server.join(30)
            if server.is_alive():
                server.kill()
    assert results == [("opened", NEWEST)] * SERVERS
    with Database.open(postgres_database) as database:
        assert _versions(database) == [NEWEST]  # one row: the schema was migrated once
        assert set(inspect(database.engine).get_table_names()) >= TABLES


def test_a_server_waits_for_the_migration_lock_before_it_migrates(postgres_database: str) -> None:
    """While another holds the lock, opening the store waits and creates no table; once released,
    it migrates."""
    engine = create_engine(engine_url(postgres_database))
    opened: list[str | None] = []

    def start() -> None:
        with Database.open(postgres_database) as database:
            opened.append(database.schema_version())

    try:
        with engine.connect() as holder:
            holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            starting = threading.Thread(target=start, daemon=True)
            starting.start()
            time.sleep(1.0)
            assert starting.is_alive() and opened == []
            assert inspect(holder).get_table_names() == []  # nothing migrated behind the lock
            holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            holder.commit()
        starting.join(60)
        assert opened == [NEWEST]
    finally:
        engine.dispose()
