"""chat threads

Revision ID: 0013
Revises: 0012

Where an OpenAI-compatible client's conversation stands (decision 0037): per account, the
fingerprint of a history through an assistant's reply, the stored conversation and the reply
it ends at.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_thread",
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("created_at", backend.core.timeutil.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["conversation_id"], ["conversation.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("owner_id", "fingerprint"),
    )
    # A conversation's deletion finds its threads by it.
    op.create_index("ix_chat_thread_conversation_id", "chat_thread", ["conversation_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_thread_conversation_id", table_name="chat_thread")
    op.drop_table("chat_thread")
