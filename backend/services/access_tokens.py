"""Personal access tokens (specs/access-tokens.md): made, listed and revoked by a signed-in
account, and resolved to the account they act for on every request, with no cache, so a
revoked token or a removed account stops working at once on every worker."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy import select as select_columns
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.security import AccessClaims
from backend.core.timeutil import utcnow
from backend.domain.errors import NotFoundError, ServiceError
from backend.models import PersonalAccessToken, TokenScope, User
from backend.models.access_token import SHOWN_PREFIX_LENGTH, TOKEN_PREFIX, TOKENS_PER_ACCOUNT

# The sign-in throttle's account name for wrong tokens, counted per client address.
THROTTLE_ACCOUNT = "personal-access-token"
# How stale "last used" may get: recording every use would be a write per request.
LAST_USED_GRANULARITY = timedelta(minutes=1)
_SECRET_BYTES = 32  # 256 bits


class TokenNotFoundError(NotFoundError):
    def __init__(self) -> None:
        super().__init__("Token not found")


class TokenLimitError(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            f"An account may hold at most {TOKENS_PER_ACCOUNT} tokens; revoke one first"
        )


def looks_like_token(bearer: str) -> bool:
    """Whether a bearer credential is a personal access token rather than a sign-in token."""
    return bearer.startswith(TOKEN_PREFIX)


def secret_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(_SECRET_BYTES)


async def create_token(
    session: AsyncSession,
    *,
    owner_id: int,
    name: str,
    scope: TokenScope,
    expires_in_days: int | None = None,
    now: datetime | None = None,
) -> tuple[PersonalAccessToken, str]:
    """A new token for `owner_id`, committed, and its secret (never stored, never shown
    again)."""
    now = now or utcnow()
    held = await session.scalar(
        select(func.count()).where(col(PersonalAccessToken.owner_id) == owner_id)
    )
    if (held or 0) >= TOKENS_PER_ACCOUNT:
        raise TokenLimitError()
    secret = new_secret()
    row = PersonalAccessToken(
        owner_id=owner_id,
        name=" ".join(name.split()),
        scope=scope.value,
        prefix=secret[:SHOWN_PREFIX_LENGTH],
        secret_hash=secret_hash(secret),
        created_at=now,
        expires_at=now + timedelta(days=expires_in_days) if expires_in_days else None,
    )
    session.add(row)
    await session.commit()
    await session.refresh(row)
    return row, secret


async def list_tokens(session: AsyncSession, owner_id: int) -> Sequence[PersonalAccessToken]:
    found = await session.exec(
        select(PersonalAccessToken)
        .where(col(PersonalAccessToken.owner_id) == owner_id)
        .order_by(col(PersonalAccessToken.id))
    )
    return found.all()


async def revoke_token(session: AsyncSession, owner_id: int, token_id: int) -> None:
    """Deletes the account's token `token_id`: from the next request on, nothing opens with
    it."""
    gone = await session.exec(
        delete(PersonalAccessToken)
        .where(
            col(PersonalAccessToken.id) == token_id,
            col(PersonalAccessToken.owner_id) == owner_id,
        )
        .returning(col(PersonalAccessToken.id))
    )
    if gone.first() is None:
        await session.rollback()
        raise TokenNotFoundError()
    await session.commit()


async def resolve(
    engine: AsyncEngine, token: str, *, now: datetime | None = None
) -> AccessClaims | None:
    """See `_resolve`; on a connection of its own, so it never shares a caller's transaction."""
    async with engine.connect() as connection:
        return await _resolve(connection, token, now=now)


async def _resolve(
    connection: AsyncConnection, token: str, *, now: datetime | None = None
) -> AccessClaims | None:
    """The claims a personal access token stands for: None if no live token has this secret
    (unknown, revoked, expired, or its account removed). Records its use at most once a
    minute."""
    now = now or utcnow()
    row = (
        await connection.execute(
            select_columns(
                col(PersonalAccessToken.id),
                col(PersonalAccessToken.owner_id),
                col(PersonalAccessToken.scope),
                col(PersonalAccessToken.expires_at),
                col(PersonalAccessToken.last_used_at),
                col(User.account_key),
            )
            .join(User, col(User.id) == col(PersonalAccessToken.owner_id))
            .where(col(PersonalAccessToken.secret_hash) == secret_hash(token))
        )
    ).first()
    if row is None:
        return None
    token_id, owner_id, scope, expires_at, last_used_at, account_key = row
    if expires_at is not None and expires_at <= now:
        return None
    if last_used_at is None or now - last_used_at >= LAST_USED_GRANULARITY:
        await connection.execute(
            update(PersonalAccessToken)
            .where(col(PersonalAccessToken.id) == token_id)
            .values(last_used_at=now)
        )
        await connection.commit()
    return AccessClaims(
        user_id=owner_id,
        account=account_key,
        expires_at=expires_at,
        token_id=token_id,
        may_change=scope == TokenScope.WRITE.value,
    )
