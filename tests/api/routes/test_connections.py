"""GET /api/connections: the web UI's copy of `todo-chatbot mcp-config`'s settings, with a
placeholder where the page puts the token it has just made."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from backend.services.connections import PASSWORD_PLACEHOLDER, TOKEN_PLACEHOLDER
from tests.conftest import UserSession


@contextmanager
def served_with(app: FastAPI, **changes: Any) -> Iterator[None]:
    """The app's settings changed for the requests inside; the engine keeps its database."""
    served = app.state.settings
    app.state.settings = served.model_copy(update=changes)
    try:
        yield
    finally:
        app.state.settings = served


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
    # Without PUBLIC_URL, the address this request came to (HOST may be 0.0.0.0).
    assert http["url"] == "http://testserver/mcp/" and http["type"] == "http"
    assert http["headers"] == {"Authorization": f"Bearer {TOKEN_PLACEHOLDER}"}
    assert body["openai"] == {
        "base_url": "http://testserver/v1",
        "api_key": TOKEN_PLACEHOLDER,
        "model": "todo-assistant",
    }


async def test_a_public_url_names_the_service_whatever_address_was_asked(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    with served_with(app, public_url="https://todo.example.com/"):
        response = await client.get("/api/connections", headers=user.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["http"]["mcpServers"]["todo"]["url"] == "https://todo.example.com/mcp/"
    assert body["openai"]["base_url"] == "https://todo.example.com/v1"


async def test_the_settings_need_a_bearer(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/connections")).status_code == 401


async def test_the_settings_never_carry_the_database_password(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    with served_with(app, database_url="postgresql+asyncpg://todo:s3cret@db.internal:5432/todo"):
        response = await client.get("/api/connections", headers=user.headers)
    assert response.status_code == 200, response.text
    assert "s3cret" not in response.text
    env = response.json()["claude"]["mcpServers"]["todo"]["env"]
    assert env["DATABASE_URL"] == (
        f"postgresql+asyncpg://todo:{PASSWORD_PLACEHOLDER}@db.internal:5432/todo"
    )
