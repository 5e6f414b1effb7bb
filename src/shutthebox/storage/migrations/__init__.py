"""Alembic migrations of the storage tables, run by `Store.open` (``upgrade head``)."""
