"""Rooms in play: a room, its seats (token hashes) and every acknowledged action, so a server
that crashes resumes each room where it was; the fair dice committed to before a room; and the
origin of a room's game, so a save tried again after a crash keeps it once.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("dice", sa.JSON(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("touched_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rooms_touched_at", "rooms", ["touched_at"])
    op.create_table(
        "room_events",
        sa.Column(
            "room_code", sa.String(8), sa.ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("body", sa.JSON(), nullable=False),
    )
    op.add_column("games", sa.Column("origin", sa.String(64), nullable=True))  # a room's game is kept once
    op.create_index("ix_games_origin", "games", ["origin"], unique=True)
    op.create_table(
        "commitments",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_commitments_created_at", "commitments", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_commitments_created_at", "commitments")
    op.drop_table("commitments")
    op.drop_table("room_events")
    op.drop_index("ix_games_origin", "games")
    op.drop_column("games", "origin")
    op.drop_index("ix_rooms_touched_at", "rooms")
    op.drop_table("rooms")
