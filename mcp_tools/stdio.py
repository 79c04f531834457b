"""The task tools over stdio, for desktop MCP clients, acting for one configured user: the
account of MCP_USER_TOKEN (a personal access token, whose scope holds, or a sign-in token),
checked on every call, or MCP_USER_ID as the operator gave it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from backend.core.config import Settings, get_settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.core.security import AccessClaims, InvalidTokenError, read_access_token
from backend.services import access_tokens, users
from mcp_tools.principal import (
    Principal,
    PrincipalSource,
    UnauthenticatedError,
    fixed_principal,
)
from mcp_tools.server import build_task_server

ACCOUNT_GONE = "the account MCP_USER_TOKEN was issued to no longer exists"
TOKEN_GONE = (
    "the personal access token in MCP_USER_TOKEN is unknown, revoked or expired, or its "
    "account was removed"
)


class ConfigurationError(Exception):
    pass


class PersonalToken(str):
    """MCP_USER_TOKEN when it is a personal access token (`tdc_...`)."""


def configured_identity(settings: Settings) -> PersonalToken | AccessClaims | int:
    """MCP_USER_TOKEN (a personal access token or a sign-in token) wins over MCP_USER_ID
    (trusted as the operator gave it: an id names no particular account)."""
    if settings.mcp_user_token and access_tokens.looks_like_token(settings.mcp_user_token):
        return PersonalToken(settings.mcp_user_token)
    if settings.mcp_user_token:
        try:
            return read_access_token(settings.mcp_user_token, settings)
        except InvalidTokenError as exc:
            raise ConfigurationError(f"MCP_USER_TOKEN is not a valid token: {exc}") from exc
    if settings.mcp_user_id is not None:
        return settings.mcp_user_id
    raise ConfigurationError("set MCP_USER_TOKEN (or MCP_USER_ID) to say whose tasks to serve")


def sqlite_file(database_url: str) -> Path | None:
    """The file a SQLite URL opens, as SQLite resolves it (a relative path from the current
    directory); None for PostgreSQL, an in-memory database and a `file:` URI (whose own
    `mode=rw` refuses a missing file)."""
    url = make_url(database_url)
    database = url.database
    if not url.drivername.startswith("sqlite") or not database:
        return None
    if database == ":memory:" or database.startswith("file:") or url.query.get("mode") == "memory":
        return None
    return Path(database).resolve()


def require_existing_database(settings: Settings) -> None:
    """The stdio server opens the web service's database and never makes one: a new, empty
    file (a client started elsewhere, a mistyped path) holds no account for its identity."""
    database = sqlite_file(settings.database_url)
    if database is not None and not database.is_file():
        raise ConfigurationError(
            f"no database at {database}, and the stdio server creates none: set DATABASE_URL "
            "to the web service's database, by absolute path "
            "(sqlite+aiosqlite:////path/to/todo.db)"
        )


def database_name(database_url: str) -> str:
    """Which database the server opened, for its one line on stderr: a SQLite file's absolute
    path, or the URL without its password."""
    database = sqlite_file(database_url)
    if database is not None:
        return str(database)
    return make_url(database_url).render_as_string(hide_password=True)


def token_principal(claims: AccessClaims, sessionmaker: SessionMaker) -> PrincipalSource:
    """The token's account, checked on every call: it can be removed while the process runs,
    and its id handed to the next sign-up."""

    async def principal(_ctx: Context[Any, Any]) -> Principal:
        async with sessionmaker() as session:
            if await users.token_account(session, claims) is None:
                raise UnauthenticatedError(ACCOUNT_GONE)
        return Principal(claims.user_id, claims.may_change)

    return principal


def personal_token_principal(token: str, engine: AsyncEngine) -> PrincipalSource:
    """The personal access token's account and scope, looked up on every call: revoking the
    token stops the running process at its next call."""

    async def principal(_ctx: Context[Any, Any]) -> Principal:
        claims = await access_tokens.resolve(engine, token)
        if claims is None:
            raise UnauthenticatedError(TOKEN_GONE)
        return Principal(claims.user_id, claims.may_change)

    return principal


async def _principal(
    identity: PersonalToken | AccessClaims | int, engine: AsyncEngine, sessionmaker: SessionMaker
) -> PrincipalSource:
    if isinstance(identity, PersonalToken):
        if await access_tokens.resolve(engine, identity) is None:
            raise ConfigurationError(TOKEN_GONE)
        return personal_token_principal(identity, engine)
    async with sessionmaker() as session:
        if isinstance(identity, AccessClaims):
            if await users.token_account(session, identity) is None:
                raise ConfigurationError(ACCOUNT_GONE)
            return token_principal(identity, sessionmaker)
        if await users.get_user(session, user_id=identity) is None:
            raise ConfigurationError(f"no user with id {identity}")
        return fixed_principal(identity)


async def serve_stdio(settings: Settings) -> None:
    identity = configured_identity(settings)
    require_existing_database(settings)
    engine = create_engine(settings)
    try:
        await migrate(engine)
        # Named before the identity is looked up in it, so a refused identity says where.
        # stderr: stdout carries the protocol.
        sys.stderr.write(f"mcp_tools: opened the database {database_name(settings.database_url)}\n")
        sessionmaker = create_sessionmaker(engine)
        server = build_task_server(
            sessionmaker,
            await _principal(identity, engine, sessionmaker),
            max_tasks=settings.max_tasks_per_user,
            max_lists=settings.max_lists_per_user,
        )
        await server.run_stdio_async()
    finally:
        await engine.dispose()


def main() -> None:
    import anyio

    try:
        anyio.run(serve_stdio, get_settings())
    except ConfigurationError as exc:
        # stdout belongs to the protocol; problems go to stderr.
        sys.stderr.write(f"mcp_tools: {exc}\n")
        raise SystemExit(2) from exc
