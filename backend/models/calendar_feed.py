"""An account's secret calendar feed: the hash of its token, never the token itself."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow


class CalendarFeed(SQLModel, table=True):
    __tablename__ = "calendar_feed"
    __table_args__ = (
        UniqueConstraint("owner_id", name="uq_calendar_feed_owner"),
        UniqueConstraint("token_hash", name="uq_calendar_feed_token"),
    )

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE")
    # sha256 of the URL's token, hex: a leaked database opens no feed.
    token_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
