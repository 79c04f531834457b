"""Where fired reminders go beyond the open page (specs/notifications.md): the browsers an
account receives Web Push on, its email choices, the outbox of deliveries, and the server's
own keys (the VAPID pair every worker signs pushes with)."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import Column, Index, Text, text
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

# Browsers' endpoints run to a few hundred characters; this bounds what one may store.
ENDPOINT_MAX_LENGTH = 1024


class PushSubscription(SQLModel, table=True):
    """One browser on one device that receives the account's reminders by Web Push."""

    __tablename__ = "push_subscription"

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE", index=True)
    # The push service's URL for this browser: one browser is one subscription, whoever
    # signed in on it last.
    endpoint: str = Field(max_length=ENDPOINT_MAX_LENGTH, unique=True)
    # RFC 8291: the browser's P-256 public key and its authentication secret (base64url).
    p256dh: str = Field(max_length=128)
    auth: str = Field(max_length=64)
    # What Settings calls it ("Chrome on Android"), read from the User-Agent when it subscribed.
    device: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Channel(StrEnum):
    PUSH = "push"
    EMAIL = "email"
    DIGEST = "digest"


class Delivery(SQLModel, table=True):
    """The outbox: one row per fired reminder per channel and target (each push subscription,
    the account's email), or per digest day, written in the transaction that fires it; a
    sender leases it, sends, and marks it sent."""

    __table_args__ = (
        # The senders' probe: only the rows still to send.
        Index(
            "ix_delivery_pending",
            "next_attempt_at",
            postgresql_where=text("sent_at IS NULL AND failed_at IS NULL"),
            sqlite_where=text("sent_at IS NULL AND failed_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE", index=True)
    channel: str = Field(max_length=16)
    # Gone with its reminder (its task deleted) or its subscription (turned off): nothing to send.
    reminder_id: int | None = Field(
        default=None, foreign_key="reminder.id", ondelete="CASCADE", index=True
    )
    subscription_id: int | None = Field(
        default=None, foreign_key="push_subscription.id", ondelete="CASCADE", index=True
    )
    # A digest's day, on the account's clock.
    digest_on: date | None = None
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # When it may be tried (again); a sender holding it pushes this past its lease.
    next_attempt_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    attempts: int = 0
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Given up on: out of attempts, or refused for good (the reason in last_error).
    failed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, max_length=300)


class NotificationSettings(SQLModel, table=True):
    """An account's email choices; an account without a row has email off."""

    __tablename__ = "notification_settings"
    __table_args__ = (
        Index(
            "ix_notification_settings_digest_next_at",
            "digest_next_at",
            postgresql_where=text("digest_next_at IS NOT NULL"),
            sqlite_where=text("digest_next_at IS NOT NULL"),
        ),
    )

    user_id: int = Field(foreign_key="user.id", ondelete="CASCADE", primary_key=True)
    email_reminders: bool = False
    # "HH:MM" on the account's clock, or None for no digest.
    digest_time: str | None = Field(default=None, max_length=5)
    # The next digest's instant (UTC), worked out from the zone so DST moves it.
    digest_next_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class ServerKey(SQLModel, table=True):
    """A secret the server made for itself once, shared by every worker (the VAPID key)."""

    __tablename__ = "server_key"

    name: str = Field(primary_key=True, max_length=64)
    value: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
