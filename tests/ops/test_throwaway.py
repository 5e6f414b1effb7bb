"""Throwaway servers: Redis and PostgreSQL start where they are installed, serve their URL, stop at
the end of the block, and say why when they cannot start."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from shutthebox.ops import throwaway
from shutthebox.ops.throwaway import missing_postgres, missing_redis, temporary_postgres, temporary_redis


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_redis_serves_its_url_and_keeps_what_it_is_told(redis_url: str) -> None:
    import redis

    assert missing_redis() is None
    client = redis.Redis.from_url(redis_url)
    try:
        client.set("room:ABCDE", "version 1")
        assert client.get("room:ABCDE") == b"version 1"
        assert client.config_get("save") == {"save": ""}  # nothing written to disk
        assert client.config_get("appendonly") == {"appendonly": "no"}
    finally:
        client.close()


def test_postgres_serves_an_empty_database_named_shutthebox(postgres_url: str) -> None:
    import psycopg

    assert missing_postgres() is None
    assert postgres_url.startswith("postgresql://postgres@127.0.0.1:")
    assert postgres_url.endswith("/shutthebox")
    with psycopg.connect(postgres_url) as connection:
        assert connection.execute("SELECT current_database(), current_user").fetchone() == (
            "shutthebox", "postgres",
        )
        tables = connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        assert tables == (0,)
        assert connection.execute("SHOW fsync").fetchone() == ("off",)  # not durable: a test's data


@pytest.mark.slow
def test_each_server_is_gone_once_its_block_ends(tmp_path: Path) -> None:
    for missing, temporary in ((missing_redis, temporary_redis), (missing_postgres, temporary_postgres)):
        if missing() is not None:
            pytest.skip(missing())
        with temporary(tmp_path) as url:
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            assert listening(port)
        assert not listening(port), url


@pytest.mark.slow
@pytest.mark.parametrize("name", ["redis", "postgres"])
def test_a_server_that_cannot_start_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Its port taken by another: a `RuntimeError` that quotes the server's own words."""
    missing = missing_redis() if name == "redis" else missing_postgres()
    if missing is not None:
        pytest.skip(missing)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        monkeypatch.setattr(throwaway, "free_port", lambda: squatter.getsockname()[1])
        temporary = temporary_redis if name == "redis" else temporary_postgres
        with pytest.raises(RuntimeError, match=r"(?i)address already in use"), temporary(tmp_path):
            pytest.fail("the server started on a port already taken")
