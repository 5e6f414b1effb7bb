"""A fresh store in a temporary SQLite file for each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shutthebox.storage import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(f"sqlite:///{tmp_path / 'games.db'}") as opened:
        yield opened
