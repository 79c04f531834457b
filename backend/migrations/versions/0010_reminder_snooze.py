"""reminder snooze

Revision ID: 0010
Revises: 0009

A fired reminder can be snoozed: `snoozed_until` is when it fires again, with a partial index
for the scheduler's probe, as `ix_task_remind_at` is for the tasks' reminders
(specs/reminders.md, "Snoozing").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "reminder",
        sa.Column("snoozed_until", backend.core.timeutil.UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index(
        "ix_reminder_snoozed_until",
        "reminder",
        ["snoozed_until"],
        postgresql_where=sa.text("snoozed_until IS NOT NULL"),
        sqlite_where=sa.text("snoozed_until IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_reminder_snoozed_until", table_name="reminder")
    with op.batch_alter_table("reminder") as batch_op:
        batch_op.drop_column("snoozed_until")
