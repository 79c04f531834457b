"""GET /api/connections: the web UI's copy of `todo-chatbot mcp-config`'s settings, with a
placeholder where the page puts the token it has just made."""

from __future__ import annotations

import httpx

from backend.services.connections import TOKEN_PLACEHOLDER
from tests.conftest import UserSession


async def test_the_settings_name_this_server_and_leave_the_token_to_fill_in(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    response = await client.get("/api/connections", headers=user.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["token_placeholder"] == TOKEN_PLACEHOLDER
    stdio = body["claude"]["mcpServers"]["todo"]
    assert stdio["args"] == ["-m", "mcp_tools"]
    assert stdio["env"]["MCP_USER_TOKEN"] == TOKEN_PLACEHOLDER
    http = body["http"]["mcpServers"]["todo"]
    assert http["url"].endswith("/mcp/") and http["type"] == "http"
    assert http["headers"] == {"Authorization": f"Bearer {TOKEN_PLACEHOLDER}"}
    assert body["openai"]["api_key"] == TOKEN_PLACEHOLDER
    assert body["openai"]["model"] == "todo-assistant"
    assert body["openai"]["base_url"].endswith("/v1")


async def test_the_settings_need_a_bearer(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/connections")).status_code == 401
