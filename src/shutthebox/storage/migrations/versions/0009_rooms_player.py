"""Rooms by player: whom the creator of a room plays as (the hash of a profile's or a guest's key,
else of the address), so the cap on games in play follows the player, not everyone behind one
address, and a player can list the games they have in play.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("player", sa.String(64), nullable=True))
    op.create_index("ix_rooms_player", "rooms", ["player"])
    op.execute("UPDATE rooms SET player = owner")  # rooms kept before: their address plays them


def downgrade() -> None:
    op.drop_index("ix_rooms_player", "rooms")
    op.drop_column("rooms", "player")
