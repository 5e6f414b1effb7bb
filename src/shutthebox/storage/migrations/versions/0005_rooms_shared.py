"""Rooms shared by several server processes: each room's version (a write must name the version it
changed, so two processes never both change one state), when the server must next look at it
(a clock, a rematch, a bot, its closing), and who created it (the hash of the address: a cap
on games in play per address across processes).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("rooms", sa.Column("due_at", sa.Float(), nullable=True))
    op.add_column("rooms", sa.Column("owner", sa.String(64), nullable=True))
    op.create_index("ix_rooms_due_at", "rooms", ["due_at"])
    op.create_index("ix_rooms_owner", "rooms", ["owner"])
    op.execute("UPDATE rooms SET due_at = 0")  # rooms kept before: looked at once, at the next tick
    if op.get_bind().dialect.name == "postgresql":  # digits scores of 10+ tiles pass 2**31 (SQLite: 64 bits)
        op.alter_column("turns", "score", type_=sa.BigInteger(), existing_type=sa.Integer(),
                        existing_nullable=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("turns", "score", type_=sa.Integer(), existing_type=sa.BigInteger(),
                        existing_nullable=True)
    op.drop_index("ix_rooms_owner", "rooms")
    op.drop_index("ix_rooms_due_at", "rooms")
    op.drop_column("rooms", "owner")
    op.drop_column("rooms", "due_at")
    op.drop_column("rooms", "version")
