"""Fixtures for the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test writes the player's own history: the default database is a temporary file."""
    monkeypatch.setenv("SHUTTHEBOX_DB", f"sqlite:///{tmp_path / 'history.db'}")
