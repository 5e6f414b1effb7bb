"""A player's turns under one rule set found by one index: a finished game looks up the best of each of
its players before it is kept, and SQLite, left to choose between the index of the player and that of
the rules (which every turn under the same rules shares), took the second and read every turn played
under those rules, a longer read with each game kept. The indexes of (player, rules) and (profile,
rules) serve both what the single ones served and these lookups.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_turns_player_rules_key", "turns", ["player", "rules_key"])
    op.create_index("ix_turns_profile_rules_key", "turns", ["profile_id", "rules_key"])
    op.drop_index("ix_turns_player", "turns")
    op.drop_index("ix_turns_profile_id", "turns")


def downgrade() -> None:
    op.create_index("ix_turns_profile_id", "turns", ["profile_id"])
    op.create_index("ix_turns_player", "turns", ["player"])
    op.drop_index("ix_turns_profile_rules_key", "turns")
    op.drop_index("ix_turns_player_rules_key", "turns")
