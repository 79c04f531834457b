"""Dependencies shared by the routes: database session, settings, the authenticated user."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.db import SessionMaker
from backend.core.security import InvalidTokenError, decode_access_token
from backend.models import User
from backend.services import users


def get_settings_from_app(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_sessionmaker(request: Request) -> SessionMaker:
    sessionmaker: SessionMaker = request.app.state.sessionmaker
    return sessionmaker


async def get_session(
    sessionmaker: Annotated[SessionMaker, Depends(get_sessionmaker)],
) -> AsyncIterator[AsyncSession]:
    async with sessionmaker() as session:
        yield session


SettingsDep = Annotated[Settings, Depends(get_settings_from_app)]
SessionMakerDep = Annotated[SessionMaker, Depends(get_sessionmaker)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]

_bearer = HTTPBearer(auto_error=False, description="The access token from /api/auth/login")


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail=detail,
        headers={"WWW-Authenticate": "Bearer"},
    )


async def get_current_user(
    sessionmaker: SessionMakerDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> User:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise _unauthorized("Not authenticated")
    try:
        user_id = decode_access_token(credentials.credentials, settings)
    except InvalidTokenError as exc:
        raise _unauthorized("Invalid or expired token") from exc
    # A short session of its own, so authentication never holds a transaction open.
    async with sessionmaker() as session:
        user = await users.get_user(session, user_id=user_id)
    if user is None:
        raise _unauthorized("Invalid or expired token")
    return user


CurrentUser = Annotated[User, Depends(get_current_user)]


def get_current_user_id(user: CurrentUser) -> int:
    assert user.id is not None
    return user.id


CurrentUserId = Annotated[int, Depends(get_current_user_id)]
