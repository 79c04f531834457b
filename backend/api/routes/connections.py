"""Ready-to-paste client settings (specs/connections.md) for the web UI's Connections: the
same builder as `todo-chatbot mcp-config`, with a placeholder where the token goes (the page
fills in a token it has just made; a token never travels in a URL). Without `PUBLIC_URL`
the address is the one this request came to: `HOST` may be `0.0.0.0`, which no client
reaches."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from backend.api.deps import CurrentUserId, SettingsDep
from backend.api.errors import AUTHENTICATED
from backend.services import connections

router = APIRouter(prefix="/api/connections", tags=["tokens"], responses=AUTHENTICATED)


class ClientSettings(BaseModel):
    token_placeholder: str = Field(description="Where each setting takes the token")
    claude: dict[str, Any] = Field(description="Claude Desktop and other stdio MCP clients")
    http: dict[str, Any] = Field(description="Streamable-HTTP MCP clients (type, url, headers)")
    openai: dict[str, Any] = Field(description="OpenAI-compatible clients (base_url, model)")


@router.get("")
async def client_settings(
    request: Request, _user_id: CurrentUserId, settings: SettingsDep
) -> ClientSettings:
    """Each kind of client's settings, with `token_placeholder` where a personal access token
    goes."""
    placeholder = connections.TOKEN_PLACEHOLDER
    reached = None if settings.public_url else str(request.base_url)
    configs = connections.client_configs(settings, placeholder, base_url=reached)
    return ClientSettings(token_placeholder=placeholder, **configs)
