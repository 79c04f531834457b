"""shared lists

Revision ID: 0014
Revises: 0013

Shared lists (decision 0039, specs/sharing.md): `list_member` (an invitation, then a
membership), `task_seat` (each user's number for each task they see; every existing task
gets its owner's seat, holding the number it has), on tasks who added and completed them
and whom their reminder is for, and `change_note` (what open web UIs are told to read again).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = backend.core.timeutil.UTCDateTime(timezone=True)
_TASK_PEOPLE = ("added_by_id", "completed_by_id", "remind_user_id")
_OWNER_SEAT = (
    "INSERT INTO task_seat (user_id, number, task_pk, member_id) "
    "VALUES (NEW.owner_id, NEW.number, NEW.pk, NULL)"
)


def upgrade() -> None:
    op.create_table(
        "list_member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("invited_at", _WHEN, nullable=False),
        sa.Column("accepted_at", _WHEN, nullable=True),
        sa.ForeignKeyConstraint(["list_id"], ["task_list.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("list_id", "email", name="uq_list_member_list_email"),
        # A declined (deleted) invitation's id never comes back on SQLite either.
        sqlite_autoincrement=True,
    )
    op.create_index("ix_list_member_user_id", "list_member", ["user_id"])
    op.create_index("ix_list_member_email", "list_member", ["email"])
    op.create_table(
        "task_seat",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("task_pk", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["task_pk"], ["task.pk"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["list_member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "number"),
        sa.UniqueConstraint("task_pk", "user_id", name="uq_task_seat_task_user"),
    )
    op.create_index("ix_task_seat_member_number", "task_seat", ["member_id", "number"])
    op.create_table(
        "change_note",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("kinds", sa.String(length=40), nullable=False),
        sa.Column("at", _WHEN, nullable=False),
        sa.ForeignKeyConstraint(["list_id"], ["task_list.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    # Every task so far is its owner's, under the number it has; every task added from now
    # on gets its owner's seat from the database itself, whichever path adds it (the
    # service, an import, a bulk seed).
    op.execute(
        "INSERT INTO task_seat (user_id, number, task_pk, member_id) "
        "SELECT owner_id, number, pk, NULL FROM task"
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"CREATE TRIGGER task_owner_seat AFTER INSERT ON task BEGIN {_OWNER_SEAT}; END")
    else:
        op.execute(
            "CREATE FUNCTION task_owner_seat() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN {_OWNER_SEAT}; RETURN NEW; END $$"
        )
        op.execute(
            "CREATE TRIGGER task_owner_seat AFTER INSERT ON task "
            "FOR EACH ROW EXECUTE FUNCTION task_owner_seat()"
        )
    # Added in place: a batch copy of the table would drop the old one, and with it, by
    # cascade, every seat and reminder of its tasks on SQLite (which adds a reference only
    # with its column).
    sqlite = op.get_bind().dialect.name == "sqlite"
    for column in _TASK_PEOPLE:
        if sqlite:
            op.execute(
                f'ALTER TABLE task ADD COLUMN {column} INTEGER REFERENCES "user" (id) '
                "ON DELETE SET NULL"
            )
            continue
        op.add_column("task", sa.Column(column, sa.Integer(), nullable=True))
        op.create_foreign_key(
            f"fk_task_{column}", "task", "user", [column], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.execute("DROP TRIGGER task_owner_seat" + ("" if sqlite else " ON task"))
    if not sqlite:
        op.execute("DROP FUNCTION task_owner_seat()")
    for column in _TASK_PEOPLE:
        if sqlite:  # SQLite drops a column with its reference (3.35 and later)
            op.execute(f"ALTER TABLE task DROP COLUMN {column}")
            continue
        op.drop_constraint(f"fk_task_{column}", "task", type_="foreignkey")
        op.drop_column("task", column)
    op.drop_table("change_note")
    op.drop_index("ix_task_seat_member_number", table_name="task_seat")
    op.drop_table("task_seat")
    op.drop_index("ix_list_member_email", table_name="list_member")
    op.drop_index("ix_list_member_user_id", table_name="list_member")
    op.drop_table("list_member")
