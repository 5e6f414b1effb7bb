"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shutthebox.i18n import SOURCE, activate

# redis_url, postgres_url, postgres_database: private servers for the tests
pytest_plugins = ["tests.support.services"]


@pytest.fixture(autouse=True)
def _private_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test writes the player's own history or profile: the default database is a temporary
    file, the data folder a temporary one."""
    monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{tmp_path / 'history.db'}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def _english_unless_asked() -> Iterator[None]:
    """Each test starts in English (the command line and the terminal game set the process's language)."""
    activate(SOURCE)
    yield
    activate(SOURCE)
