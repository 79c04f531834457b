"""Personal access tokens: credentials an account makes for a script, an MCP client or an
OpenAI-compatible client, each with a name, a scope and an optional expiry
(specs/access-tokens.md). Only a hash of each secret is stored; the secret is shown once."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from backend.core.timeutil import UTCDateTime, utcnow

TOKEN_NAME_MAX_LENGTH = 100
# "tdc_" and 43 base64url characters (256 random bits); the prefix shown is its first 12.
TOKEN_PREFIX = "tdc_"
SHOWN_PREFIX_LENGTH = 12
TOKENS_PER_ACCOUNT = 50
EXPIRES_IN_DAYS_MAX = 3650


class TokenScope(StrEnum):
    """`read`: see tasks, lists and conversations and chat, but change nothing. `write`:
    everything the tasks' API does. Neither manages tokens or the account (signing in does)."""

    READ = "read"
    WRITE = "write"


class PersonalAccessToken(SQLModel, table=True):
    __tablename__ = "personal_access_token"

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(foreign_key="user.id", ondelete="CASCADE", index=True)
    name: str = Field(max_length=TOKEN_NAME_MAX_LENGTH)
    scope: str = Field(max_length=8)
    # The first characters of the token, to tell tokens apart in a list ("tdc_AbC1dE2f").
    prefix: str = Field(max_length=SHOWN_PREFIX_LENGTH)
    # SHA-256 of the whole token, hex: a 256-bit random secret needs no slow hash.
    secret_hash: str = Field(max_length=64, unique=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TokenCreate(SQLModel):
    name: str = Field(min_length=1, max_length=TOKEN_NAME_MAX_LENGTH)
    scope: TokenScope = Field(description="`read` changes nothing; `write` manages tasks")
    expires_in_days: int | None = Field(
        default=None,
        ge=1,
        le=EXPIRES_IN_DAYS_MAX,
        description="Days until the token stops working; absent: it works until revoked",
    )

    @field_validator("name")
    @classmethod
    def _said(cls, value: str) -> str:
        said = " ".join(value.split())
        if not said:
            raise ValueError("must not be blank")
        return said


class TokenPublic(SQLModel):
    id: int
    name: str
    scope: TokenScope
    prefix: str = Field(description="The token's first characters, to tell tokens apart")
    created_at: datetime
    last_used_at: datetime | None
    expires_at: datetime | None


class TokenCreated(TokenPublic):
    token: str = Field(description="The token itself: shown this once, never again")
