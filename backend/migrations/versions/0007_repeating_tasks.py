"""repeating tasks

Revision ID: 0007
Revises: 0006

A task's repeat rule (an RFC 5545 RRULE body) and its anchor (the schedule or the
completion), and the record of each completion of a repeating task, which moves to its next
date and stays pending (specs/decisions/0020-repeats-as-rrule.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("task", sa.Column("repeat_rule", sa.String(length=200), nullable=True))
    op.add_column(
        "task",
        sa.Column("repeat_from", sa.String(length=10), nullable=False, server_default="schedule"),
    )
    op.create_table(
        "task_completion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("task_number", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("due_date", sa.Date(), nullable=True),
        sa.Column("completed_at", backend.core.timeutil.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_task_completion_owner_task", "task_completion", ["owner_id", "task_number"])


def downgrade() -> None:
    op.drop_index("ix_task_completion_owner_task", table_name="task_completion")
    op.drop_table("task_completion")
    for column in ("repeat_from", "repeat_rule"):
        with op.batch_alter_table("task") as batch_op:
            batch_op.drop_column(column)
