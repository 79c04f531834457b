"""Accounts: registration and credential checks."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.db import read_only
from backend.core.security import (
    AccessClaims,
    hash_password_in_thread,
    verify_password_or_dummy_in_thread,
)
from backend.domain.due import DEFAULT_ZONE
from backend.domain.errors import EmailTakenError
from backend.models import User
from backend.services.tasks import add_starting_lists


def normalize_email(email: str) -> str:
    return email.strip().lower()


async def get_user(session: AsyncSession, *, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def token_account(session: AsyncSession, claims: AccessClaims) -> User | None:
    """The live account a token was issued to: None if the id is gone or now belongs to
    another account (SQLite reuses the id of a deleted newest account)."""
    user = await get_user(session, user_id=claims.user_id)
    return user if user is not None and claims.issued_to(user.account_key) else None


async def token_account_is_live(connection: AsyncConnection, claims: AccessClaims) -> bool:
    """`token_account` for a request that needs only the id: one column over a bare
    connection, without the ORM session and object (it runs before every request)."""
    query = select(User.account_key).where(col(User.id) == claims.user_id)
    key = await connection.scalar(query)
    return key is not None and claims.issued_to(key)


async def account_keys(session: AsyncSession, user_ids: Sequence[int]) -> dict[int, str]:
    """Each live account's key, by id (ids with no account are absent)."""
    statement = select(col(User.id), User.account_key).where(col(User.id).in_(user_ids))
    rows = (await session.exec(statement)).all()
    return {int(id_): str(key) for id_, key in rows if id_ is not None}


async def get_user_by_email(session: AsyncSession, *, email: str) -> User | None:
    result = await session.exec(select(User).where(User.email == normalize_email(email)))
    return result.first()


async def register_user(
    session: AsyncSession, *, email: str, password: str, timezone: str = DEFAULT_ZONE
) -> User:
    """A new account. The password is hashed first, before the session takes a connection:
    pass a session that has not run a statement yet."""
    hashed = await hash_password_in_thread(password)
    user = User(email=normalize_email(email), hashed_password=hashed, timezone=timezone)
    session.add(user)
    try:
        await session.flush()
        assert user.id is not None
        await add_starting_lists(session, owner_id=user.id)
        await session.commit()
    except IntegrityError as exc:
        await session.rollback()
        raise EmailTakenError() from exc
    return user


async def authenticate(session: AsyncSession, *, email: str, password: str) -> User | None:
    """The account if the password is right. Read, release, then check: the lookup's
    connection goes back to the pool before the slow password check (pass a session that has
    not run a statement yet; it ends with no transaction open)."""
    await read_only(session)  # on SQLite, no write lock for a lookup
    user = await get_user_by_email(session, email=email)
    await session.commit()  # not rollback: that would expire `user`
    ok = await verify_password_or_dummy_in_thread(password, user.hashed_password if user else None)
    return user if ok else None
