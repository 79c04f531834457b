"""Dependencies shared by the routes: database session, settings, the authenticated user."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from backend.core.config import Settings
from backend.core.db import SessionMaker, read_only
from backend.core.limits import AbuseLimits, CountedLimit
from backend.core.limits.sign_in import SignInAttempt
from backend.core.security import AccessClaims, InvalidTokenError, read_access_token
from backend.models import User
from backend.services import access_tokens, users

# Dependencies are `async def` even when they do not await: FastAPI runs a plain `def`
# dependency in its thread pool, a thread hop per request for a dictionary lookup.


async def get_settings_from_app(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_sessionmaker(request: Request) -> SessionMaker:
    sessionmaker: SessionMaker = request.app.state.sessionmaker
    return sessionmaker


async def get_session(
    sessionmaker: Annotated[SessionMaker, Depends(get_sessionmaker)],
) -> AsyncIterator[AsyncSession]:
    async with sessionmaker() as session:
        yield session


async def get_read_session(
    sessionmaker: Annotated[SessionMaker, Depends(get_sessionmaker)],
) -> AsyncIterator[AsyncSession]:
    """A session for a request that only reads (backend/core/db.py `read_only`): on SQLite it
    neither waits for the write lock nor holds it up; on PostgreSQL it opens no transaction."""
    async with sessionmaker() as session:
        await read_only(session)
        yield session


SettingsDep = Annotated[Settings, Depends(get_settings_from_app)]
SessionMakerDep = Annotated[SessionMaker, Depends(get_sessionmaker)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
ReadSessionDep = Annotated[AsyncSession, Depends(get_read_session)]

_bearer = HTTPBearer(
    auto_error=False,
    description="The access token from /api/auth/login, or a personal access token (tdc_...)",
)


INVALID_TOKEN = "Invalid or expired token"
READ_ONLY_TOKEN = (
    "This personal access token has the read scope: it can read and chat, not change data"
)
SIGNED_IN_ONLY = "Sign in to manage access tokens and the account: a personal access token cannot"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# POSTs that answer without changing data by themselves: a read-only token's chat turn runs,
# and its tools that would change tasks are refused (mcp_tools/principal.py).
ANSWER_ONLY_PATHS = frozenset({"/api/chat", "/api/chat/stream", "/v1/chat/completions"})
_CHAT_AS_USER = re.compile(r"/api/[^/]+/chat")


def unauthorized(detail: str) -> HTTPException:
    return HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail=detail,
        headers={"WWW-Authenticate": "Bearer"},
    )


def _bearer_of(credentials: HTTPAuthorizationCredentials | None) -> str:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise unauthorized("Not authenticated")
    return credentials.credentials


async def _personal_token_claims(request: Request, token: str) -> AccessClaims:
    """A personal access token's claims, looked up on every request (no cache: a revoked
    token stops at once on every worker). Wrong tokens are throttled per client address like
    wrong passwords; a right one is never refused for an attacker's misses."""
    claims = await access_tokens.resolve(request.app.state.engine, token)
    if claims is not None:
        return claims
    limits: AbuseLimits = request.app.state.abuse_limits
    address = client_address(request)
    wait = await limits.sign_in.admit(address, access_tokens.THROTTLE_ACCOUNT)
    if wait is not None:
        raise _too_many(wait)
    await limits.sign_in.failed(address, access_tokens.THROTTLE_ACCOUNT)
    raise unauthorized(INVALID_TOKEN)


async def _sign_in_claims(request: Request, settings: Settings, token: str) -> AccessClaims:
    try:
        claims = read_access_token(token, settings)
    except InvalidTokenError as exc:
        raise unauthorized(INVALID_TOKEN) from exc
    # One statement, on its own: no transaction round trips on PostgreSQL, no write lock on
    # SQLite.
    engine: AsyncEngine = request.app.state.read_engine
    async with engine.connect() as connection:
        live = await users.token_account_is_live(connection, claims)
    if not live:
        raise unauthorized(INVALID_TOKEN)
    return claims


def _within_scope(request: Request, claims: AccessClaims) -> None:
    """A read-only token reads and chats; any other request that could change data is a 403."""
    if claims.may_change or request.method in SAFE_METHODS:
        return
    path = request.url.path.removeprefix(request.scope.get("root_path", ""))
    if path in ANSWER_ONLY_PATHS or _CHAT_AS_USER.fullmatch(path):
        return
    raise HTTPException(status.HTTP_403_FORBIDDEN, detail=READ_ONLY_TOKEN)


async def get_current_claims(
    request: Request,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> AccessClaims:
    """The bearer's claims, once the account it stands for is found live: a sign-in token
    (a JWT) or a personal access token (`tdc_...`, specs/access-tokens.md), whose scope is
    enforced here. Looked up on every request, never remembered: a worker cannot learn that
    another worker's database removed the account or revoked the token, and a shared cache
    would cost a round trip like the lookup itself."""
    token = _bearer_of(credentials)
    if access_tokens.looks_like_token(token):
        claims = await _personal_token_claims(request, token)
    else:
        claims = await _sign_in_claims(request, settings, token)
    _within_scope(request, claims)
    return claims


CurrentClaims = Annotated[AccessClaims, Depends(get_current_claims)]


async def get_current_user(sessionmaker: SessionMakerDep, claims: CurrentClaims) -> User:
    # A short session of its own, so authentication never holds a transaction open.
    async with sessionmaker() as session:
        user = await users.token_account(session, claims)
    if user is None:
        raise unauthorized(INVALID_TOKEN)
    return user


CurrentUser = Annotated[User, Depends(get_current_user)]


async def get_current_user_id(claims: CurrentClaims) -> int:
    """The token's user id, once its account is found live (`get_current_claims`)."""
    return claims.user_id


CurrentUserId = Annotated[int, Depends(get_current_user_id)]


async def get_signed_in_claims(claims: CurrentClaims) -> AccessClaims:
    """The claims of a sign-in token: tokens and the account itself are managed only after
    signing in, so a leaked personal access token cannot make more of them or lock the
    owner out."""
    if not claims.signed_in:
        raise HTTPException(status.HTTP_403_FORBIDDEN, detail=SIGNED_IN_ONLY)
    return claims


SignedInClaims = Annotated[AccessClaims, Depends(get_signed_in_claims)]


async def get_signed_in_user(sessionmaker: SessionMakerDep, claims: SignedInClaims) -> User:
    return await get_current_user(sessionmaker, claims)


SignedInUser = Annotated[User, Depends(get_signed_in_user)]


_SLOW_DOWN = "Too many requests; please slow down"


def _too_many(retry_after: int, detail: str = _SLOW_DOWN) -> HTTPException:
    return HTTPException(
        status_code=status.HTTP_429_TOO_MANY_REQUESTS,
        detail=detail,
        headers={"Retry-After": str(retry_after)},
    )


def _limits(request: Request) -> AbuseLimits:
    limits: AbuseLimits = request.app.state.abuse_limits
    return limits


async def spend(limit: CountedLimit, subject: str, detail: str = _SLOW_DOWN) -> None:
    """One hit of `limit` for `subject`; past it, a 429 saying `detail` and when to retry."""
    wait = await limit.hit(subject)
    if wait is not None:
        raise _too_many(wait, detail)


async def limit_chat(request: Request, user_id: CurrentUserId) -> None:
    """Per-user limit on chat turns (each one runs the agent and writes twice)."""
    await spend(_limits(request).chat, str(user_id))


ChatAllowed = Annotated[None, Depends(limit_chat)]


async def limit_writes(request: Request, user_id: CurrentUserId) -> None:
    """Per-user limit on task changes over REST (the same budget as /mcp's)."""
    await spend(_limits(request).writes, str(user_id))


WriteAllowed = Annotated[None, Depends(limit_writes)]


async def limit_task_reads(request: Request, user_id: CurrentUserId) -> None:
    """Per-user limit on pages of the task list: a page may hold 1,000 tasks to serialise."""
    await spend(_limits(request).task_reads, str(user_id))


# The key every request that names a forwarded client shares when no proxy is trusted.
UNVERIFIED_FORWARDED_CLIENT = "unverified-forwarded-client"


def client_address(request: Request) -> str:
    """The address per-address limits count against.

    uvicorn replaces the connecting peer with the client named in X-Forwarded-For when the
    peer is a proxy it trusts, and a plain `uvicorn backend.main:app` trusts loopback unless
    FORWARDED_ALLOW_IPS says otherwise; the real peer is then lost. So unless this service is
    told which proxies to trust (FORWARDED_ALLOW_IPS, which uvicorn reads too), every request
    that names a forwarded client counts under one key: a made-up header buys no fresh budget.
    """
    settings: Settings = request.app.state.settings
    if not settings.forwarded_allow_ips and "x-forwarded-for" in request.headers:
        return UNVERIFIED_FORWARDED_CLIENT
    return request.client.host if request.client else "unknown"


async def limit_sign_up(request: Request) -> None:
    """Throttles sign-ups per client address (a budget apart from sign-in's)."""
    await spend(_limits(request).sign_up, client_address(request))


async def limit_login(request: Request, account: str) -> SignInAttempt:
    """Throttles password guessing (backend/core/limits/sign_in.py); the caller reports
    whether the password was right on the attempt returned."""
    limits: AbuseLimits = request.app.state.abuse_limits
    throttle, address = limits.sign_in, client_address(request)
    wait = await throttle.admit(address, account)
    if wait is not None:
        raise _too_many(wait)
    return SignInAttempt(throttle, address, account)
