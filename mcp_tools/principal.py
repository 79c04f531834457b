"""Who a tool call acts for. Each transport has exactly one trusted source of identity.

- in-process (the chat endpoint): the `_meta` the backend itself attaches to each call;
  that connection is not reachable from outside the process.
- streamable HTTP: the bearer token verified by the MCP SDK's auth middleware.
- stdio: the user the local process was started for; with a token, its account is checked on
  every call (it may be removed, and its id given to someone else, while the process runs).

A `user_id` argument is never a source of identity: it must name the principal or be absent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

PRINCIPAL_META_KEY = "todo.chatbot/principal"

PrincipalSource = Callable[[Context[Any, Any]], Awaitable[int]]


class UnauthenticatedError(ToolError):
    pass


async def principal_from_meta(ctx: Context[Any, Any]) -> int:
    meta = ctx.request_context.meta or {}
    value = meta.get(PRINCIPAL_META_KEY)
    if not isinstance(value, int) or isinstance(value, bool):
        raise UnauthenticatedError("No authenticated user for this call")
    return value


async def principal_from_token(_ctx: Context[Any, Any]) -> int:
    token = get_access_token()
    if token is None or token.subject is None or not token.subject.isdigit():
        raise UnauthenticatedError("No authenticated user for this call")
    return int(token.subject)


def fixed_principal(user_id: int) -> PrincipalSource:
    async def principal(_ctx: Context[Any, Any]) -> int:
        return user_id

    return principal


def acting_user(principal: int, claimed: str | int | None) -> int:
    """The principal, after checking that a `user_id` argument (if any) names them."""
    if claimed is None or (isinstance(claimed, str) and not claimed.strip()):
        return principal
    if str(claimed).strip() != str(principal):
        raise ToolError("user_id does not match the authenticated user")
    return principal
