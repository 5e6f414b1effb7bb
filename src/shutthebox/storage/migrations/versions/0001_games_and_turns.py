"""Games and turns.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("tiles", sa.Integer(), nullable=False),
        sa.Column("rules_key", sa.String(200), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("winner", sa.String(100), nullable=True),
        sa.Column("record", sa.Text(), nullable=False),
    )
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_index("ix_games_rules_key", "games", ["rules_key"])
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("tiebreak", sa.Integer(), nullable=False),
        sa.Column("open_tiles", sa.JSON(), nullable=False),
        sa.Column("open_sum", sa.Integer(), nullable=False),
        # 64 bits: a 12-tile board scored by its digits reads up to 123456789101112, past a PostgreSQL
        # INTEGER (on SQLite, BIGINT is INTEGER: the same column as before).
        sa.Column("score", sa.BigInteger(), nullable=True),
        sa.Column("tiles", sa.Integer(), nullable=False),
        sa.Column("rules_key", sa.String(200), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_turns_game_id", "turns", ["game_id"])
    op.create_index("ix_turns_player", "turns", ["player"])
    op.create_index("ix_turns_rules_key", "turns", ["rules_key"])


def downgrade() -> None:
    op.drop_table("turns")
    op.drop_table("games")
