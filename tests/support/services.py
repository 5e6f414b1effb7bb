"""Fixtures for the tests that need Redis or PostgreSQL: one private server of each per session
(`shutthebox.ops.throwaway`), and a fresh database on it for each test that asks. Under pytest-xdist
a session is a worker's: each worker starts its own, on free ports, in its own temporary folder.

A test that needs a server this machine cannot start is skipped, and says why (``-ra`` shows it).
Registered for the whole suite by ``tests/conftest.py``.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.engine import make_url

from shutthebox.ops.throwaway import missing_postgres, missing_redis, temporary_postgres, temporary_redis

__all__ = ["fresh_database", "kill_redis", "postgres_database", "postgres_url", "redis_url"]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis server for the session: ``redis://127.0.0.1:PORT/0``."""
    reason = missing_redis()
    if reason is not None:
        pytest.skip(reason)
    with temporary_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


def kill_redis(url: str, seconds: float = 60.0) -> None:
    """SIGKILL the ``redis-server`` at ``url`` (a private one of the test's own, never the session's),
    and wait until its port is closed."""
    import redis

    with redis.Redis.from_url(url) as client:
        pid = int(client.info("server")["process_id"])
    os.kill(pid, signal.SIGKILL)
    end = time.monotonic() + seconds
    while True:
        try:
            with redis.Redis.from_url(url, retry=None, socket_connect_timeout=1) as client:
                client.ping()
        except redis.ConnectionError:
            return
        assert time.monotonic() < end, "redis-server did not stop"
        time.sleep(0.05)


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server for the session, and the URL of its database ``shutthebox``."""
    reason = missing_postgres()
    if reason is not None:
        pytest.skip(reason)
    with temporary_postgres(tmp_path_factory.mktemp("postgres")) as url:
        yield url


def _administer(server_url: str, statement: str) -> None:
    """Run a statement that no transaction may hold (CREATE or DROP DATABASE) on the server."""
    import psycopg

    parsed = make_url(server_url)
    with psycopg.connect(
        host=parsed.host, port=parsed.port, user=parsed.username, dbname="postgres", autocommit=True
    ) as connection:
        connection.execute(statement.encode())


UNLIKE_SQLITE = "TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'"
"""A database as a server set up for people has it: text sorted by a language's rules ("ana" before
"Bob", where SQLite's bytes put "Bob" first), so a query whose answer hangs on the order of text
shows it."""
TIME_ZONE = "America/Caracas"
"""A session time zone off UTC, and by a half hour: a moment read back in it must still be the moment."""


@contextmanager
def fresh_database(postgres_url: str) -> Iterator[str]:
    """A new empty database on the server of ``postgres_url`` (`UNLIKE_SQLITE`, `TIME_ZONE`), dropped
    after, even with connections still open: its URL."""
    name = f"t_{uuid.uuid4().hex}"
    _administer(postgres_url, f"CREATE DATABASE {name} {UNLIKE_SQLITE}")
    try:
        _administer(postgres_url, f"ALTER DATABASE {name} SET timezone TO '{TIME_ZONE}'")
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        _administer(postgres_url, f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def postgres_database(postgres_url: str) -> Iterator[str]:
    """A new empty database on the session's server for this test alone, so no test sees another's
    rows: its URL."""
    with fresh_database(postgres_url) as url:
        yield url
