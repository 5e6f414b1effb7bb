"""A test server: the app on a temporary SQLite file, bots answering at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shutthebox.web import Settings, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0))
    with TestClient(app) as test_client:
        yield test_client
