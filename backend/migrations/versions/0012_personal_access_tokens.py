"""personal access tokens

Revision ID: 0012
Revises: 0011

Tokens an account makes for scripts, MCP clients and OpenAI-compatible clients
(specs/access-tokens.md): a name, a scope, an optional expiry, and a hash of the secret.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = backend.core.timeutil.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "personal_access_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("scope", sa.String(length=8), nullable=False),
        sa.Column("prefix", sa.String(length=12), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("last_used_at", _WHEN, nullable=True),
        sa.Column("expires_at", _WHEN, nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("secret_hash"),
    )
    op.create_index("ix_personal_access_token_owner_id", "personal_access_token", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_personal_access_token_owner_id", table_name="personal_access_token")
    op.drop_table("personal_access_token")
