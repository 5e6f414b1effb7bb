"""Alembic environment: migrations run on the connection `Database.migrate` passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from shutthebox.storage.models import Base


def run_migrations_online() -> None:
    connection: Connection | None = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("shutthebox migrations run through Database.open, which passes a connection")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("shutthebox migrations run online only, through Database.open")
run_migrations_online()
