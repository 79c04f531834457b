"""calendar feed

Revision ID: 0008
Revises: 0007

One secret calendar feed per account: only a hash of its token is stored, so the database
never holds a working feed URL (specs/decisions/0025-calendar-feed-cache.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "calendar_feed",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", backend.core.timeutil.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner_id", name="uq_calendar_feed_owner"),
        sa.UniqueConstraint("token_hash", name="uq_calendar_feed_token"),
    )


def downgrade() -> None:
    op.drop_table("calendar_feed")
