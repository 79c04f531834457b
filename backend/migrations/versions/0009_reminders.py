"""reminders

Revision ID: 0009
Revises: 0008

A task's next reminder (`remind_at`, and `remind_before` for one kept relative to the due
time) with a partial index for the scheduler's probe, and the `reminder` table of fired
reminders the user has yet to dismiss (specs/reminders.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = backend.core.timeutil.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.add_column("task", sa.Column("remind_at", _WHEN, nullable=True))
    op.add_column("task", sa.Column("remind_before", sa.Integer(), nullable=True))
    op.create_index(
        "ix_task_remind_at",
        "task",
        ["remind_at"],
        postgresql_where=sa.text("remind_at IS NOT NULL"),
        sqlite_where=sa.text("remind_at IS NOT NULL"),
    )
    op.create_table(
        "reminder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("task_pk", sa.Integer(), nullable=False),
        sa.Column("task_number", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("due_at", _WHEN, nullable=True),
        sa.Column("remind_at", _WHEN, nullable=False),
        sa.Column("fired_at", _WHEN, nullable=False),
        sa.Column("seen_at", _WHEN, nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["task_pk"], ["task.pk"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reminder_owner_id", "reminder", ["owner_id", "id"])
    op.create_index("ix_reminder_task_pk", "reminder", ["task_pk"])


def downgrade() -> None:
    op.drop_index("ix_reminder_task_pk", table_name="reminder")
    op.drop_index("ix_reminder_owner_id", table_name="reminder")
    op.drop_table("reminder")
    op.drop_index("ix_task_remind_at", table_name="task")
    for column in ("remind_before", "remind_at"):
        with op.batch_alter_table("task") as batch_op:
            batch_op.drop_column(column)
