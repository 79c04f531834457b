"""message client key

Revision ID: 0005
Revises: 0004

A chat turn may carry the client's `Idempotency-Key`: it is stored on the user's message and
on the assistant's reply, unique per account and role, so a retried turn is answered from the
stored reply instead of being run twice. NULLs (turns without a key) never collide.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "uq_message_owner_role_client_key"


def upgrade() -> None:
    # A nullable column is added in place on both databases (no table rebuild).
    op.add_column("message", sa.Column("client_key", sa.String(length=200), nullable=True))
    op.create_index(INDEX, "message", ["owner_id", "role", "client_key"], unique=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="message")
    op.drop_column("message", "client_key")
