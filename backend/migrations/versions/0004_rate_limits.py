"""rate limits

Revision ID: 0004
Revises: 0003

Rate limits shared by every worker and machine (backend/core/limits/database_store.py): one row per
limited key (a scope and a hash of the subject, never an email or an address in clear), with
its window's end (Unix seconds) and the hits counted in it. The index on `window_end` keeps
the periodic deletion of ended windows cheap.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_limit",
        sa.Column("bucket", sa.String(length=100), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("window_end", sa.Float(), nullable=False),
    )
    op.create_index("ix_rate_limit_window_end", "rate_limit", ["window_end"])


def downgrade() -> None:
    op.drop_index("ix_rate_limit_window_end", table_name="rate_limit")
    op.drop_table("rate_limit")
