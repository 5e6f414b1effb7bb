"""The trainer: each profile's rating, each puzzle's difficulty (both Glicko-2), and when each
puzzle a profile answered comes back.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "trainer_ratings",
        sa.Column(
            "profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=False),
        sa.Column("right", sa.Integer(), nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=False),
    )
    op.create_table(
        "trainer_reviews",
        sa.Column(
            "profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_trainer_reviews_pool", "trainer_reviews", ["pool"])
    op.create_index("ix_trainer_reviews_due_at", "trainer_reviews", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_trainer_reviews_due_at", "trainer_reviews")
    op.drop_index("ix_trainer_reviews_pool", "trainer_reviews")
    op.drop_table("trainer_reviews")
    op.drop_table("puzzle_ratings")
    op.drop_table("trainer_ratings")
