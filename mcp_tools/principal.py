"""Who a tool call acts for. Each transport has exactly one trusted source of identity.

- in-process (the chat endpoint): the `_meta` the backend itself attaches to each call;
  that connection is not reachable from outside the process.
- streamable HTTP: the bearer token verified by the MCP SDK's auth middleware.
- stdio: the user the local process was started for; with a token, its account is checked on
  every call (it may be removed, and its id given to someone else, while the process runs).

A `user_id` argument is never a source of identity: it must name the principal or be absent.
A principal may be read-only (a personal access token of the `read` scope): its tools that
change tasks are refused, whatever the transport.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

PRINCIPAL_META_KEY = "todo.chatbot/principal"
# In-process only: False when the turn's credential may not change data.
MAY_CHANGE_META_KEY = "todo.chatbot/may_change"
# The scopes a streamable-HTTP access token carries (mcp_tools/http.py).
READ_SCOPE = "tasks:read"
WRITE_SCOPE = "tasks:write"
READ_ONLY = (
    "Read-only access: this connection's token has the read scope, so it may read tasks "
    "but not change them"
)


def principal_meta(user_id: int, *, may_change: bool = True) -> dict[str, Any]:
    """The `_meta` the backend attaches to an in-process call it makes for `user_id`."""
    return {PRINCIPAL_META_KEY: user_id, MAY_CHANGE_META_KEY: may_change}


@dataclass(frozen=True)
class Principal:
    """Who a call acts for, and whether it may change their data."""

    user_id: int
    may_change: bool = True


PrincipalSource = Callable[[Context[Any, Any]], Awaitable[Principal]]


class UnauthenticatedError(ToolError):
    pass


async def principal_from_meta(ctx: Context[Any, Any]) -> Principal:
    meta = ctx.request_context.meta or {}
    value = meta.get(PRINCIPAL_META_KEY)
    if not isinstance(value, int) or isinstance(value, bool):
        raise UnauthenticatedError("No authenticated user for this call")
    # Anything but an explicit True reads as read-only: a missing key never grants writes.
    return Principal(value, may_change=meta.get(MAY_CHANGE_META_KEY) is True)


async def principal_from_token(_ctx: Context[Any, Any]) -> Principal:
    token = get_access_token()
    if token is None or token.subject is None or not token.subject.isdigit():
        raise UnauthenticatedError("No authenticated user for this call")
    return Principal(int(token.subject), may_change=WRITE_SCOPE in token.scopes)


def fixed_principal(user_id: int, *, may_change: bool = True) -> PrincipalSource:
    async def principal(_ctx: Context[Any, Any]) -> Principal:
        return Principal(user_id, may_change)

    return principal


def acting_user(principal: Principal, claimed: str | int | None) -> int:
    """The principal's id, after checking that a `user_id` argument (if any) names them."""
    if claimed is None or (isinstance(claimed, str) and not claimed.strip()):
        return principal.user_id
    if str(claimed).strip() != str(principal.user_id):
        raise ToolError("user_id does not match the authenticated user")
    return principal.user_id


def changing_user(principal: Principal, claimed: str | int | None) -> int:
    """`acting_user` for a tool that changes data: refused for a read-only principal."""
    owner = acting_user(principal, claimed)
    if not principal.may_change:
        raise ToolError(READ_ONLY)
    return owner
