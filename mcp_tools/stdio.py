"""The task tools over stdio, for desktop MCP clients, acting for one configured user."""

from __future__ import annotations

import sys

from backend.core.config import Settings, get_settings
from backend.core.db import create_engine, create_sessionmaker
from backend.core.migrate import migrate
from backend.core.security import InvalidTokenError, decode_access_token
from backend.services import users
from mcp_tools.principal import fixed_principal
from mcp_tools.server import build_task_server


class ConfigurationError(Exception):
    pass


def configured_user_id(settings: Settings) -> int:
    """MCP_USER_TOKEN (an access token) wins over MCP_USER_ID."""
    if settings.mcp_user_token:
        try:
            return decode_access_token(settings.mcp_user_token, settings)
        except InvalidTokenError as exc:
            raise ConfigurationError(f"MCP_USER_TOKEN is not a valid token: {exc}") from exc
    if settings.mcp_user_id is not None:
        return settings.mcp_user_id
    raise ConfigurationError("set MCP_USER_TOKEN (or MCP_USER_ID) to say whose tasks to serve")


async def serve_stdio(settings: Settings) -> None:
    user_id = configured_user_id(settings)
    engine = create_engine(settings)
    try:
        await migrate(engine)
        sessionmaker = create_sessionmaker(engine)
        async with sessionmaker() as session:
            if await users.get_user(session, user_id=user_id) is None:
                raise ConfigurationError(f"no user with id {user_id}")
        server = build_task_server(sessionmaker, fixed_principal(user_id))
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
