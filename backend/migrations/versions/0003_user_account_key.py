"""user account key

Revision ID: 0003
Revises: 0002

Tokens name the account they were issued to by a key of its own, not by its id (SQLite hands
a removed newest account's id to the next sign-up) nor by its email (which can sign up again
after the account is removed). Existing accounts get the stamp their tokens already carry
(the first 16 hex digits of the SHA-256 of the email), so nobody is signed out by the upgrade;
new accounts get a random key.

The column is added with a server default instead of rebuilding the table: SQLite rebuilds by
dropping the old table, and with foreign keys on that would cascade to every task.
"""

import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "user",
        sa.Column("account_key", sa.String(length=32), nullable=False, server_default=""),
    )
    bind = op.get_bind()
    accounts = bind.execute(sa.text('SELECT id, email FROM "user"')).all()
    for user_id, email in accounts:
        stamp = hashlib.sha256(email.strip().lower().encode()).hexdigest()[:16]
        bind.execute(
            sa.text('UPDATE "user" SET account_key = :key WHERE id = :id'),
            {"key": stamp, "id": user_id},
        )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35+), for the same reason as above: no table rebuild.
    op.drop_column("user", "account_key")
