"""The daily challenge: each day's server seed per board (committed to before the day, revealed
after it), and each profile's one ranked attempt at it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "daily_seeds",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("tiles", sa.Integer(), primary_key=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("tiles", sa.Integer(), primary_key=True),
        sa.Column(
            "profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("room_code", sa.String(8), nullable=False),
        sa.Column("origin", sa.String(64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_daily_attempts_origin", "daily_attempts", ["origin"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_origin", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_seeds")
