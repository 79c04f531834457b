"""The task tools over stdio, for desktop MCP clients, acting for one configured user."""

from __future__ import annotations

import sys
from typing import Any

from mcp.server.mcpserver import Context

from backend.core.config import Settings, get_settings
from backend.core.db import SessionMaker, create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.core.security import AccessClaims, InvalidTokenError, read_access_token
from backend.services import users
from mcp_tools.principal import PrincipalSource, UnauthenticatedError, fixed_principal
from mcp_tools.server import build_task_server

ACCOUNT_GONE = "the account MCP_USER_TOKEN was issued to no longer exists"


class ConfigurationError(Exception):
    pass


def configured_identity(settings: Settings) -> AccessClaims | int:
    """MCP_USER_TOKEN (an access token) wins over MCP_USER_ID (trusted as the operator gave
    it: an id names no particular account)."""
    if settings.mcp_user_token:
        try:
            return read_access_token(settings.mcp_user_token, settings)
        except InvalidTokenError as exc:
            raise ConfigurationError(f"MCP_USER_TOKEN is not a valid token: {exc}") from exc
    if settings.mcp_user_id is not None:
        return settings.mcp_user_id
    raise ConfigurationError("set MCP_USER_TOKEN (or MCP_USER_ID) to say whose tasks to serve")


def token_principal(claims: AccessClaims, sessionmaker: SessionMaker) -> PrincipalSource:
    """The token's account, checked on every call: it can be removed while the process runs,
    and its id handed to the next sign-up."""

    async def principal(_ctx: Context[Any, Any]) -> int:
        async with sessionmaker() as session:
            if await users.token_account(session, claims) is None:
                raise UnauthenticatedError(ACCOUNT_GONE)
        return claims.user_id

    return principal


async def _principal(identity: AccessClaims | int, sessionmaker: SessionMaker) -> PrincipalSource:
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
    engine = create_engine(settings)
    try:
        await migrate(engine)
        sessionmaker = create_sessionmaker(engine)
        server = build_task_server(
            sessionmaker,
            await _principal(identity, sessionmaker),
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
