"""`SCHEMA_HEAD` names Alembic's newest revision: a database at it opens without Alembic (issue 30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shutthebox.storage.database import SCHEMA_HEAD, Database
from tests.support.storage import newest_revision


def test_the_head_is_alembics() -> None:
    assert newest_revision() == SCHEMA_HEAD  # a new migration moves SCHEMA_HEAD with it


def test_a_database_at_the_head_opens_without_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with Database.open(url) as database:  # migrated: Alembic at work
        assert database.schema_version() == SCHEMA_HEAD
    code = (
        "import sys; from shutthebox.storage.database import Database\n"
        f"Database.open({url!r}).close(); print('alembic' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
