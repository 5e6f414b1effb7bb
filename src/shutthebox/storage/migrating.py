"""The schema's migrations run through Alembic: imported only when a database is not at `SCHEMA_HEAD`
(Alembic's import is a sixth of a second of every command that opens the history)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

__all__ = ["alembic_config", "current_revision", "upgrade"]


def alembic_config(connection: Connection | None) -> Any:
    """The Alembic configuration of the storage's migrations, run on ``connection``."""
    config = Config()
    location = resources.files("shutthebox.storage") / "migrations"
    config.set_main_option("script_location", str(location))
    config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection) -> None:
    """Alembic ``upgrade head`` on ``connection``."""
    command.upgrade(alembic_config(connection), "head")


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at, as Alembic reads it."""
    return MigrationContext.configure(connection).get_current_revision()
