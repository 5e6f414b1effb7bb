"""Trust: what each turn counts for in the rankings, games sealed until their day is over, and the
puzzles the trainer dealt to each profile.

- ``turns.ranked_score``: the score a turn counts for in bests and leaderboards (as played, or as it
  stood when help came, see ``core.ranking``); null when it counts for none. The turns already kept
  count as they did: their score when ranked, none otherwise.
- ``games.sealed_until``: a daily challenge's game, whose record shows the day's dice, is readable
  by nobody until the day is over.
- ``trainer_dealt``: a puzzle dealt to a profile, answerable once (the trainer rates only its own).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("turns") as turns:
        turns.add_column(sa.Column("ranked_score", sa.BigInteger(), nullable=True))
    op.execute("UPDATE turns SET ranked_score = score WHERE ranked")
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("sealed_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "trainer_dealt",
        sa.Column(
            "profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("trainer_dealt")
    with op.batch_alter_table("games") as games:
        games.drop_column("sealed_until")
    with op.batch_alter_table("turns") as turns:
        turns.drop_column("ranked_score")
