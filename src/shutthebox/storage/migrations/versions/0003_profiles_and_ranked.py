"""Player profiles, and ranked play: only fair-dice turns of unassisted players count.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30

Games before this revision rolled from a secret `random.Random` seed nothing
committed to, so none of them is proven: they are kept as ``practice`` (or
``companion`` when typed in) and leave the bests and the leaderboard.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "profile_names",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column(
            "profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=False, index=True,
        ),
    )
    # Plain ADD COLUMNs (see 0002: a batch copy of `games` on SQLite would cascade-delete the turns).
    op.add_column("games", sa.Column("kind", sa.String(16), nullable=False, server_default="practice"))
    op.execute("UPDATE games SET kind = 'companion' WHERE typed")
    op.add_column("turns", sa.Column("ranked", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("turns", sa.Column("profile_id", sa.Integer(), nullable=True))
    op.create_index("ix_turns_profile_id", "turns", ["profile_id"])
    if op.get_bind().dialect.name != "sqlite":  # SQLite cannot add a constraint to a table in place
        op.create_foreign_key("fk_turns_profile", "turns", "profiles", ["profile_id"], ["id"])


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_turns_profile", "turns", type_="foreignkey")
    op.drop_index("ix_turns_profile_id", "turns")
    op.drop_column("turns", "profile_id")
    op.drop_column("turns", "ranked")
    op.drop_column("games", "kind")
    op.drop_table("profile_names")
    op.drop_table("profiles")
