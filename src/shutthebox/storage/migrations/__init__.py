"""Alembic migrations of the storage tables, run by `Database.open` (``upgrade head``)."""
