"""due dates, priorities, lists and tags

Revision ID: 0006
Revises: 0005

The account's time zone; a task's due date, time and instant, priority, list and tags; the
account's lists, with Inbox and Shopping for every existing account (specs/data-model.md).
Every new column has a server default or is nullable, so it is added in place on both
databases.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "user", sa.Column("timezone", sa.String(length=64), nullable=False, server_default="UTC")
    )
    op.add_column("task", sa.Column("due_date", sa.Date(), nullable=True))
    op.add_column("task", sa.Column("due_time", sa.Time(), nullable=True))
    op.add_column(
        "task",
        sa.Column("due_at", backend.core.timeutil.UTCDateTime(timezone=True), nullable=True),
    )
    op.add_column(
        "task", sa.Column("priority", sa.String(length=6), nullable=False, server_default="none")
    )
    op.add_column(
        "task",
        sa.Column("list_name", sa.String(length=60), nullable=False, server_default="Inbox"),
    )
    op.add_column(
        "task", sa.Column("tags_text", sa.String(length=400), nullable=False, server_default=" ")
    )
    op.create_index("ix_task_owner_due_date", "task", ["owner_id", "due_date"])
    op.create_index("ix_task_owner_list", "task", ["owner_id", "list_name"])
    op.create_table(
        "task_list",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("created_at", backend.core.timeutil.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("owner_id", "name_key", name="uq_task_list_owner_name"),
    )
    for name in ("Inbox", "Shopping"):
        op.execute(
            sa.text(
                "INSERT INTO task_list (owner_id, name, name_key, created_at) "
                'SELECT id, :name, :key, CURRENT_TIMESTAMP FROM "user"'
            ).bindparams(name=name, key=name.lower())
        )


def downgrade() -> None:
    op.drop_table("task_list")
    op.drop_index("ix_task_owner_list", table_name="task")
    op.drop_index("ix_task_owner_due_date", table_name="task")
    for column in ("tags_text", "list_name", "priority", "due_at", "due_time", "due_date"):
        with op.batch_alter_table("task") as batch_op:
            batch_op.drop_column(column)
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("timezone")
