"""The database the repositories share: its engine, its schema, and how it is written.

`Database.open` connects to a URL (SQLite with a WAL journal and full syncs by default, or
PostgreSQL through psycopg 3) and migrates the schema to the newest Alembic revision.
`Database.session` is a short transaction of its own. The writes a server makes under load (a
game saved, a room's every action) go through `Database.write` (or `write_core`, for the Core):
each try is its own transaction, taken under the one-writer lock (on SQLite), and a try that meets
a locked database is tried again after a pause (`retrying`), so a locked database delays such a
write, never drops it. Each repository (games, profiles, rooms, daily, trainer) holds one
`Database`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from shutthebox.core.errors import ShutTheBoxError
from shutthebox.storage.location import default_url

POOL_KEPT = 20
"""PostgreSQL connections a process keeps open once it has used them (SQLAlchemy's default: 5). A
connection opened costs PostgreSQL a process of its own and its catalogs read again: with 5 kept,
1,000 rooms created at once over two processes opened about 400 connections, each closed again as soon as
it was returned, and PostgreSQL spent most of its CPU on them."""
POOL_OVERFLOW = 10
"""Connections opened beyond those, closed once returned: a burst waits for none."""

__all__ = [
    "MIGRATION_LOCK", "RETRY_DELAYS", "SCHEMA_HEAD", "Database", "StorageBusyError", "StorageError",
    "alembic_config",
    "engine_url", "retrying",
]

Result = TypeVar("Result")

MIGRATION_LOCK = 0x5368757454686542  # "ShutTheB" in ASCII
"""The key of the PostgreSQL advisory lock a migration holds: of several servers opening one
database at once, one migrates while the others wait, then find it done."""

RETRY_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0)
"""Pauses between tries of a write that met a locked database (each try also waits SQLite's own
busy timeout): a save is retried for over 25 s before it is given up."""

RETRYABLE_STATES = {"40001", "40P01", "55P03"}
"""PostgreSQL's serialization failure, deadlock and lock not available: try the transaction again."""


class StorageError(ShutTheBoxError):
    """A record the storage refuses, a game it does not hold, or a database URL it cannot use."""


class StorageBusyError(Exception):
    """The database stayed locked by another writer through every retry."""


def engine_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` and ``postgres://`` use psycopg 3."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StorageError("database URL {url!r} is not a URL such as sqlite:///games.db", url=url) from None
    name = parsed.drivername
    if name in {"postgres", "postgresql"}:
        return parsed.set(drivername="postgresql+psycopg")
    if name.split("+")[0] not in {"sqlite", "postgresql"}:
        raise StorageError(
            "database URL {url!r}: use sqlite:///FILE or postgresql://…, not {name}", url=url, name=name
        )
    return parsed


SCHEMA_HEAD = "0010"
"""The newest migration's revision (tests/storage/test_schema_head.py checks it against Alembic's
head): a database found at it is opened with one query, without importing Alembic."""


def alembic_config(connection: Connection | None) -> Any:
    """The Alembic configuration of the storage's migrations, run on ``connection``."""
    from shutthebox.storage.migrating import alembic_config as config  # Alembic: only to migrate

    return config(connection)


def _revision(connection: Connection) -> str | None:
    """The revision recorded in the database (Alembic's table, read in plain SQL), None if none."""
    if not connection.dialect.has_table(connection, "alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _locked(error: OperationalError) -> bool:
    if getattr(error.orig, "sqlstate", None) in RETRYABLE_STATES:
        return True
    words = str(error.orig).lower()
    return "locked" in words or "busy" in words


def retrying(
    write: Callable[[], Result], *, sleep: Callable[[float], None] = time.sleep,
    lock: AbstractContextManager[object] | None = None,
) -> Result:
    """``write()`` (under ``lock``), tried again after a pause each time it meets a locked database;
    then `StorageBusyError`. Each try is its own transaction, so a failed one left nothing behind."""
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


class Database:
    """One SQL database (SQLite by default, PostgreSQL by URL), shared by the threads of a server.

    Open it with `Database.open`, which migrates the schema; close it (or use it as a context
    manager) to let its connections go.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._writer: AbstractContextManager[object] = (
            threading.RLock() if engine.dialect.name == "sqlite" else nullcontext()
        )
        """What a write holds: SQLite takes one writer at a time, and threads contending for it wait
        in its busy handler, which sleeps up to 100 ms between tries (seconds of latency under load);
        queued on this lock they go in turn at once. Other databases: nothing."""
        self._reader: tuple[int, Connection] | None = None
        """The connection one thread keeps for its reads (`keep_reader`), and that thread's id."""

    @property
    def local(self) -> bool:
        """Whether a read answers from a file of this machine (SQLite) in microseconds: less than the
        hop to a worker thread costs, so a server may read it in its own thread (`web.reads`)."""
        return self.engine.dialect.name == "sqlite"

    # -- opening -----------------------------------------------------------
    @classmethod
    def open(cls, url: str | None = None) -> Database:
        """Connect to ``url`` (default `default_url()`) and run the migrations (upgrade head)."""
        target = engine_url(url if url is not None else default_url())
        if target.get_backend_name() == "sqlite":
            engine = _sqlite_engine(target)
        else:
            try:
                engine = create_engine(
                    target, pool_pre_ping=True, pool_size=POOL_KEPT, max_overflow=POOL_OVERFLOW, **JSON_CODEC
                )
            except (ImportError, NoSuchModuleError):
                raise StorageError(
                    "PostgreSQL needs the psycopg driver: pip install 'shutthebox[postgres]'"
                ) from None
        database = cls(engine)
        database.migrate()
        return database

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``).

        On PostgreSQL the migration first takes an advisory lock held until it commits, so servers
        started together on one database migrate it one after the other: the first does the work,
        the others find the schema at head (the DDL of two at once would clash).
        """

        with self.engine.connect() as connection:  # at head, the common case: nothing to do
            if _revision(connection) == SCHEMA_HEAD:
                return
        from shutthebox.storage.migrating import upgrade  # Alembic: only to migrate

        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            upgrade(connection)

    def schema_version(self) -> str | None:
        """The Alembic revision the database is at."""

        with self.engine.connect() as connection:
            return _revision(connection)

    def ping(self) -> None:
        """Ask the database a trivial query (``SELECT 1``): its error if it does not answer."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def close(self) -> None:
        if self._reader is not None:
            self._reader[1].close()
            self._reader = None
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- reading and writing -------------------------------------------------
    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in a transaction of its own, committed when the block ends."""
        with self._sessions() as session, session.begin():
            yield session

    def keep_reader(self) -> None:
        """Keep a connection for the reads of the calling thread, on a local SQLite file: a server's
        own thread reads there on a player's request (`web.reads`), and a connection taken from the
        pool and given back cost as much as the query it ran. A read outside a transaction sees each
        commit at once (SQLite begins none for a SELECT), so the connection holds nothing back."""
        if self.local and self._reader is None:
            self._reader = (threading.get_ident(), self.engine.connect())

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A Core connection for a read (no ORM session: a tenth of the cost of one for a small query):
        the thread's own if it keeps one (`keep_reader`), else one of the pool's."""
        kept = self._reader
        if kept is not None and kept[0] == threading.get_ident():
            yield kept[1]
            return
        with self.engine.connect() as connection:
            yield connection

    def write(self, work: Callable[[Session], Result]) -> Result:
        """``work(session)`` in a transaction committed on return, as the one writer, tried again
        while the database is locked (`StorageBusyError` once it stays locked)."""

        def attempt() -> Result:
            with self.session() as session:
                return work(session)

        return retrying(attempt, lock=self._writer)

    def write_core(self, work: Callable[[Connection], Result]) -> Result:
        """`write` through a Core connection: no ORM, half the CPU of a write."""

        def attempt() -> Result:
            with self.engine.begin() as connection:
                return work(connection)

        return retrying(attempt, lock=self._writer)

    def by_code_point(self, column: Any) -> Any:
        """``column`` sorted by the code points of its characters, on every engine: SQLite compares
        the bytes of UTF-8 (that very order); PostgreSQL follows the database's language (``ana``
        before ``Bob``) unless told the ``C`` collation."""
        return column.collate("C") if self.engine.dialect.name == "postgresql" else column


def _json_text(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


JSON_CODEC: dict[str, Any] = {"json_serializer": _json_text, "json_deserializer": orjson.loads}
"""The JSON columns written and read by orjson: each action writes the room's, and ``json``'s encoder
was a fourth of the cost of its statements (the same JSON, read back alike)."""


def _sqlite_engine(target: URL) -> Engine:
    database = target.database or ""
    memory = database in {"", ":memory:"}
    if not memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(target, **({"poolclass": StaticPool} if memory else {}), **JSON_CODEC)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")  # a saved game survives even a power cut
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine
