from __future__ import annotations

import secrets
from datetime import datetime

from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow


class UserBase(SQLModel):
    email: str = Field(max_length=320)


class User(UserBase, table=True):
    id: int | None = Field(default=None, primary_key=True)
    # Stored lower-cased, so uniqueness is case-insensitive on every database.
    email: str = Field(max_length=320, unique=True, index=True)
    hashed_password: str = Field(max_length=255)
    # Last per-user task number handed out; bumped in the same transaction as the insert.
    last_task_number: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Names this account, not its id: tokens carry it, so an id that comes back (SQLite hands
    # a removed newest account's id to the next sign-up) or an email signed up again never
    # opens the account with a removed account's token.
    account_key: str = Field(default_factory=lambda: secrets.token_hex(8), max_length=32)
    # An IANA zone name ("America/New_York"): "today", "overdue" and due instants are the
    # account's, never the server's.
    timezone: str = Field(default="UTC", max_length=64)


class UserPublic(UserBase):
    id: int
    timezone: str = "UTC"
