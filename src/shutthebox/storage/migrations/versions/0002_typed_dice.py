"""Games whose dice were typed in by hand (at a real box) are marked, and count for no best.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

Before this revision a record without a seed was one whose rolls were typed
(companion mode, or a roll typed in the plain game), so those games are marked.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN on both engines: a batch "move and copy" of `games` on SQLite would
    # drop the old table, and with it, through ON DELETE CASCADE, every turn.
    for table in ("games", "turns"):
        op.add_column(table, sa.Column("typed", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute(
        "UPDATE games SET typed = TRUE WHERE source = 'companion' OR record LIKE '%\"seed\": null%'"
    )
    op.execute("UPDATE turns SET typed = TRUE WHERE game_id IN (SELECT id FROM games WHERE typed)")


def downgrade() -> None:
    for table in ("turns", "games"):
        op.drop_column(table, "typed")
