"""A fresh store for each test, on each engine the store supports: a temporary SQLite file, and a
new database on the session's PostgreSQL server (skipped, with the reason, where it cannot run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shutthebox.storage import Store

ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
"""Each test on both; a new PostgreSQL database migrated for each test costs half a second: slow."""


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database: a SQLite file, or a PostgreSQL database of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_database")
    return url


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    with Store.open(database_url) as opened:
        yield opened
