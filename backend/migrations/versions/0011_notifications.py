"""notifications

Revision ID: 0011
Revises: 0010

Reminders that reach people beyond the open page (specs/notifications.md): the browsers an
account receives Web Push on, its email choices (reminders, the daily digest), the outbox of
deliveries with a partial index for the senders' probe, and the keys the server makes for
itself (VAPID).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import backend.core.timeutil

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = backend.core.timeutil.UTCDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "push_subscription",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=120), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("last_sent_at", _WHEN, nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("endpoint"),
    )
    op.create_index("ix_push_subscription_owner_id", "push_subscription", ["owner_id"])
    op.create_table(
        "delivery",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("reminder_id", sa.Integer(), nullable=True),
        sa.Column("subscription_id", sa.Integer(), nullable=True),
        sa.Column("digest_on", sa.Date(), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("next_attempt_at", _WHEN, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("sent_at", _WHEN, nullable=True),
        sa.Column("failed_at", _WHEN, nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["reminder_id"], ["reminder.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["subscription_id"], ["push_subscription.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_delivery_owner_id", "delivery", ["owner_id"])
    op.create_index("ix_delivery_reminder_id", "delivery", ["reminder_id"])
    op.create_index("ix_delivery_subscription_id", "delivery", ["subscription_id"])
    op.create_index(
        "ix_delivery_pending",
        "delivery",
        ["next_attempt_at"],
        postgresql_where=sa.text("sent_at IS NULL AND failed_at IS NULL"),
        sqlite_where=sa.text("sent_at IS NULL AND failed_at IS NULL"),
    )
    op.create_table(
        "notification_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("email_reminders", sa.Boolean(), nullable=False),
        sa.Column("digest_time", sa.String(length=5), nullable=True),
        sa.Column("digest_next_at", _WHEN, nullable=True),
        sa.Column("updated_at", _WHEN, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_index(
        "ix_notification_settings_digest_next_at",
        "notification_settings",
        ["digest_next_at"],
        postgresql_where=sa.text("digest_next_at IS NOT NULL"),
        sqlite_where=sa.text("digest_next_at IS NOT NULL"),
    )
    op.create_table(
        "server_key",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("server_key")
    op.drop_index("ix_notification_settings_digest_next_at", table_name="notification_settings")
    op.drop_table("notification_settings")
    op.drop_index("ix_delivery_pending", table_name="delivery")
    op.drop_index("ix_delivery_subscription_id", table_name="delivery")
    op.drop_index("ix_delivery_reminder_id", table_name="delivery")
    op.drop_index("ix_delivery_owner_id", table_name="delivery")
    op.drop_table("delivery")
    op.drop_index("ix_push_subscription_owner_id", table_name="push_subscription")
    op.drop_table("push_subscription")
