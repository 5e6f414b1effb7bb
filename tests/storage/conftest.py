"""A fresh database for each test, on each engine the storage supports: a temporary SQLite file, and
a new database on the session's PostgreSQL server (skipped, with the reason, where it cannot run);
its repositories of games and profiles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shutthebox.storage import Database, GameRepository, ProfileRepository

ENGINES = ["sqlite", "postgresql"]


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database: a SQLite file, or a PostgreSQL database of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_database")
    return url


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    with Database.open(database_url) as opened:
        yield opened


@pytest.fixture
def games(database: Database) -> GameRepository:
    return GameRepository(database)


@pytest.fixture
def profiles(database: Database) -> ProfileRepository:
    return ProfileRepository(database)
